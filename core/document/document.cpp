// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#include "document.h"

namespace gp::document {

Document::Document(Scenario scenario, QObject* parent) : QObject(parent), mScenario(std::move(scenario))
{
    connect(&mUndoStack, &QUndoStack::cleanChanged, this, [this](bool clean) { Q_EMIT modifiedChanged(!clean); });
}

void Document::markSaved(qint64 libraryId, int revision)
{
    mLibraryId = libraryId;
    mRevision = revision;
    mUndoStack.setClean();
}

QString Document::displayName() const
{
    if (mReadOnly)
        return QString::fromStdString(mScenario.name) + QObject::tr(" — %1 (read-only)").arg(mOrigin);
    return QString::fromStdString(mScenario.name) + (isModified() ? "*" : "");
}

namespace {

/// The undo step of an edit: redo applies it forward, undo backward.
class EditCmd : public QUndoCommand
{
public:
    EditCmd(Document* document, Edit edit) : mDocument(document), mEdit(std::move(edit))
    {
        setText(QString::fromStdString(mEdit.text));
    }
    void redo() override { mDocument->apply(mEdit, true); }
    void undo() override { mDocument->apply(mEdit, false); }
    int id() const override { return mEdit.mergeKey.empty() ? -1 : 1; }
    bool mergeWith(const QUndoCommand* other) override
    {
        const auto* next = dynamic_cast<const EditCmd*>(other);
        return next && mergeEdits(mEdit, next->mEdit);
    }

private:
    Document* mDocument;
    Edit mEdit;
};

} // namespace

void Document::push(Edit edit)
{
    if (edit.empty())
        return;
    mUndoStack.push(new EditCmd(this, std::move(edit)));
}

Issues Document::push(Result<Edit> result)
{
    if (!result.ok())
        return std::move(result.issues);
    push(std::move(*result.value));
    return {};
}

void Document::apply(const Edit& edit, bool forward)
{
    const Changes changes = applyEdit(mScenario, edit, forward);
    Q_EMIT changed(changes);
}

void Document::setReadOnly(bool readOnly, const QString& origin)
{
    const bool was = mReadOnly;
    mReadOnly = readOnly;
    mOrigin = origin;
    Q_EMIT modifiedChanged(isModified());
    if (was != readOnly)
        Q_EMIT readOnlyChanged(readOnly);
}

void Document::markUnsaved()
{
    mUndoStack.resetClean();
    Q_EMIT modifiedChanged(true);
}

void Document::forgetLibraryId()
{
    mLibraryId.reset();
    mRevision.reset();
    mUndoStack.resetClean(); // nothing saved matches it any more: closing asks
    Q_EMIT modifiedChanged(true);
}

} // namespace gp::document
