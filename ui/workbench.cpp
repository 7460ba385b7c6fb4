// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#include "workbench.h"

#include "actionregistry.h"
#include "document/autosaver.h"
#include "document/plansession.h"

#include <QMessageBox>
#include <QStringList>

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
    mAutosaver->watch(mDocument.get());
    mSession->watch(mDocument.get()); // every change but a move re-evaluates in the background
    if (mDocument)
        connect(mDocument.get(), &document::Document::changed, this, &Workbench::documentChanged);
    Q_EMIT documentReplaced();
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
