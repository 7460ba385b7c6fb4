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
    return QString::fromStdString(mScenario.name) + (isModified() ? "*" : "");
}

void Document::swapScenario(Scenario& other)
{
    std::swap(mScenario, other);
    Q_EMIT scenarioReplaced();
}

void Document::forgetLibraryId()
{
    mLibraryId.reset();
    mRevision.reset();
    mUndoStack.resetClean(); // nothing saved matches it any more: closing asks
    Q_EMIT modifiedChanged(true);
}

} // namespace gp::document
