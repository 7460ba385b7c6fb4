// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#include "autosaver.h"

#include "document.h"
#include "io/scenariowriter.h"

#include <QDir>
#include <QFileInfo>
#include <QLockFile>
#include <QUuid>

namespace gp::document {

Autosaver::Autosaver(store::ScenarioLibrary* library, QObject* parent)
    : QObject(parent), mLibrary(library), mSession(QUuid::createUuid().toString(QUuid::WithoutBraces)),
      mWriter([this](std::optional<QByteArray> json) {
          // Another document since, or saved since (its draft already went): nothing to keep.
          if (json && mDocument && mDocument->isModified()) {
              mWriterDraft.document = *json;
              storeDraft(mWriterDraft);
          }
          if (mWriteAgain) {
              mWriteAgain = false;
              saveInBackground();
          }
      })
{
    mTimer.setSingleShot(true);
    mTimer.setInterval(kDefaultDelayMs);
    connect(&mTimer, &QTimer::timeout, this, &Autosaver::saveInBackground);
    if (QDir().mkpath(lockDir())) {
        mLock = std::make_unique<QLockFile>(QDir(lockDir()).absoluteFilePath(mSession + ".lock"));
        mLock->setStaleLockTime(0); // stale only when its process is gone, however old
        if (!mLock->tryLock(0))
            mLock.reset();
    }
}

// The lock goes with the object. A draft still there (the window closed without asking,
// or the process was killed) is then an orphan, offered at the next start. A JSON still
// being written works on its own copy of the scenario; it is waited for, not stored.
Autosaver::~Autosaver() = default;

QString Autosaver::lockDir() const { return mLibrary->path() + ".sessions"; }

bool Autosaver::sessionIsAlive(const QString& session) const
{
    if (session == mSession)
        return true;
    QLockFile probe(QDir(lockDir()).absoluteFilePath(session + ".lock"));
    probe.setStaleLockTime(0);
    if (!probe.tryLock(0))
        return probe.error() == QLockFile::LockFailedError; // held by a running session
    probe.unlock();                                         // was free or stale: removed again
    return false;
}

void Autosaver::watch(Document* doc)
{
    mTimer.stop();
    mWriter.supersede();
    mWriteAgain = false;
    if (mDocument)
        disconnect(mDocument, nullptr, this, nullptr);
    if (mHasDraft)
        discard();
    mDocument = doc;
    if (!doc)
        return;
    connect(doc->undoStack(), &QUndoStack::indexChanged, this, [this] {
        if (!mTimer.isActive())
            mTimer.start();
    });
    // Saved (or undone back to the saved state): the draft has nothing the library lacks.
    connect(doc, &Document::modifiedChanged, this, [this](bool modified) {
        if (modified)
            return;
        mWriter.supersede(); // a JSON being written now is of a state the library already has
        if (mHasDraft)
            discard();
    });
    if (doc->isModified())
        mTimer.start();
}

Status Autosaver::saveNow()
{
    mTimer.stop();
    mWriteAgain = false;
    mWriter.supersede(); // a JSON being written in the background is older than this one
    if (!hasWorkToKeep())
        return done();
    store::Draft d = draftOfDocument();
    d.document = io::writeScenario(mDocument->scenario());
    return storeDraft(d);
}

store::Draft Autosaver::draftOfDocument() const
{
    store::Draft d;
    d.session = mSession;
    d.scenarioId = mDocument->libraryId();
    d.baseRevision = mDocument->revision();
    d.name = QString::fromStdString(mDocument->scenario().name);
    return d;
}

bool Autosaver::hasWorkToKeep()
{
    if (!mDocument || mDocument->isReadOnly())
        return false;
    if (!mDocument->isModified()) {
        if (mHasDraft)
            discard();
        return false;
    }
    return true;
}

void Autosaver::saveInBackground()
{
    if (!hasWorkToKeep())
        return;
    if (mWriter.running()) {
        mWriteAgain = true; // once this one is stored, write the newer state
        return;
    }
    mWriterDraft = draftOfDocument();
    mWriter.start([scenario = std::make_shared<const Scenario>(mDocument->scenario())](const std::atomic<bool>&) {
        return io::writeScenario(*scenario);
    });
}

Status Autosaver::storeDraft(const store::Draft& d)
{
    Status saved = mLibrary->saveDraft(d);
    if (!saved) {
        Q_EMIT failed(QString::fromStdString(saved.errorText()));
        return saved;
    }
    mHasDraft = true;
    Q_EMIT draftSaved();
    return saved;
}

Status Autosaver::discard()
{
    mTimer.stop();
    Status removed = mLibrary->deleteDraft(mSession);
    if (removed)
        mHasDraft = false;
    return removed;
}

Result<std::vector<store::Draft>> Autosaver::orphanedDrafts()
{
    using R = Result<std::vector<store::Draft>>;
    auto all = mLibrary->drafts();
    if (!all)
        return all;
    std::vector<store::Draft> out;
    if (!mLock)
        return R::success(std::move(out)); // without our own lock the others' cannot be told apart either
    for (auto& d : *all)
        if (!sessionIsAlive(d.session))
            out.push_back(std::move(d));
    return R::success(std::move(out));
}

Status Autosaver::removeDraft(const QString& session) { return mLibrary->deleteDraft(session); }

} // namespace gp::document
