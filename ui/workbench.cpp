// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#include "workbench.h"

#include "actionregistry.h"
#include "document/autosaver.h"
#include "document/plansession.h"

#include <QAction>
#include <QMessageBox>
#include <QStringList>
#include <QUndoStack>

#include <utility>

namespace gp::ui {

QString issuesText(const Issues& issues, int max)
{
    QStringList lines;
    for (const auto& i : issues) {
        if (lines.size() == max) {
            lines << QObject::tr("… and %1 more").arg(issues.size() - static_cast<std::size_t>(max));
            break;
        }
        lines << QString::fromStdString(i.toString());
    }
    return lines.join('\n');
}

Workbench::Workbench(Catalog catalog, std::unique_ptr<store::ScenarioLibrary> library, QObject* parent)
    : QObject(parent), mCatalog(std::move(catalog)), mLibrary(std::move(library)),
      mSession(std::make_unique<document::PlanSession>(mCatalog)),
      mAutosaver(std::make_unique<document::Autosaver>(mLibrary.get())), mActions(new ActionRegistry(this))
{
    mActions->add(ActionId::Undo, tr("&Undo"), QKeySequence::Undo, false)->setEnabled(false);
    mActions->add(ActionId::Redo, tr("&Redo"), QKeySequence::Redo, false)->setEnabled(false);
    connect(this, &Workbench::editableChanged, mActions, &ActionRegistry::setEditingEnabled);
}

// The session stops and waits for its background work (which reads the catalog) before the
// catalog goes: members are destroyed in reverse order of declaration.
Workbench::~Workbench() = default;

void Workbench::setDocument(std::unique_ptr<document::Document> doc)
{
    // The old document lives until every view has moved to the new one.
    if (doc && !mLibrary->canWrite()) // a viewer of a team library: everything opens read-only
        doc->setReadOnly(true, tr("read-only for %1").arg(mLibrary->author()));
    const std::unique_ptr<document::Document> old = std::exchange(mDocument, std::move(doc));
    mMeasured.reset(); // it compared the plan that was open
    mAutosaver->watch(mDocument.get());
    mSession->watch(mDocument.get()); // every change but a move re-evaluates in the background
    if (mDocument) {
        connect(mDocument.get(), &document::Document::changed, this, &Workbench::documentChanged);
        connect(mDocument.get(), &document::Document::readOnlyChanged, this,
                [this](bool readOnly) { Q_EMIT editableChanged(!readOnly); });
        followUndoStack();
    }
    Q_EMIT documentReplaced();
    if (mDocument)
        Q_EMIT editableChanged(!mDocument->isReadOnly());
}

void Workbench::setMeasuredComparison(std::shared_ptr<const MeasuredComparison> comparison)
{
    mMeasured = std::move(comparison);
}

void Workbench::followUndoStack()
{
    QUndoStack* stack = mDocument->undoStack();
    QAction* undo = mActions->action(ActionId::Undo);
    QAction* redo = mActions->action(ActionId::Redo);
    disconnect(undo, nullptr, nullptr, nullptr);
    disconnect(redo, nullptr, nullptr, nullptr);
    connect(undo, &QAction::triggered, stack, &QUndoStack::undo);
    connect(redo, &QAction::triggered, stack, &QUndoStack::redo);
    connect(stack, &QUndoStack::canUndoChanged, undo, &QAction::setEnabled);
    connect(stack, &QUndoStack::canRedoChanged, redo, &QAction::setEnabled);
    connect(stack, &QUndoStack::undoTextChanged, undo,
            [undo](const QString& t) { undo->setText(tr("&Undo %1").arg(t)); });
    connect(stack, &QUndoStack::redoTextChanged, redo,
            [redo](const QString& t) { redo->setText(tr("&Redo %1").arg(t)); });
    undo->setEnabled(stack->canUndo());
    redo->setEnabled(stack->canRedo());
}

bool Workbench::editable()
{
    if (!mDocument)
        return false;
    if (!mDocument->isReadOnly())
        return true;
    if (!mLibrary->canWrite()) {
        Q_EMIT message(tr("Your role %1 may only read this team library: nothing can be changed or saved (a "
                          "planner role can)")
                           .arg(mLibrary->author()),
                       8000);
        return false;
    }
    Q_EMIT message(tr("This revision is read-only: File > Save as New Scenario to edit it"), 5000);
    return false;
}

bool Workbench::push(Result<document::Edit> edit, const QString& refusal, QWidget* dialogParent)
{
    if (!mDocument)
        return false;
    if (edit.ok()) {
        mDocument->push(std::move(*edit.value));
        return true;
    }
    const QString why = issuesText(edit.issues);
    if (dialogParent)
        QMessageBox::warning(dialogParent, refusal, why);
    else
        Q_EMIT message(tr("%1: %2").arg(refusal, QString(why).replace('\n', "; ")), 8000);
    return false;
}

} // namespace gp::ui
