// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#include "document.h"

namespace gp::document {

Document::Document(Scenario scenario, QObject* parent)
    : QObject(parent), mScenario(std::move(scenario))
{
    connect(&mUndoStack, &QUndoStack::cleanChanged, this,
            [this](bool clean) { Q_EMIT modifiedChanged(!clean); });
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

void Document::swapScenario(Scenario& other)
{
    std::swap(mScenario, other);
    Q_EMIT scenarioReplaced();
}

void Document::setReadOnly(bool readOnly, const QString& origin)
{
    mReadOnly = readOnly;
    mOrigin = origin;
    Q_EMIT modifiedChanged(isModified());
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
