// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#pragma once

#include "latestonly.h"

#include "store/scenariolibrary.h"

#include <QByteArray>
#include <QObject>
#include <QPointer>
#include <QString>
#include <QTimer>

#include <memory>
#include <vector>

class QLockFile;

namespace gp::document {

class Document;

/// Writes the open document's unsaved work to the library as a draft a few seconds after an
/// edit (docs/workbench.md, "Autosave and recovery"). The JSON is written on a pool thread
/// from a copy of the scenario; only the short transaction runs on the caller's thread. Each workbench session has its
/// own draft row and holds a lock file beside the library while it runs; a draft whose lock is free belongs to a
/// session that crashed or was killed, and is offered at the next start.
class Autosaver : public QObject
{
    Q_OBJECT

public:
    static constexpr int kDefaultDelayMs = 2000;

    explicit Autosaver(store::ScenarioLibrary* library, QObject* parent = nullptr);
    ~Autosaver() override;

    QString session() const { return mSession; }
    /// At most this long after an edit, the draft holds it.
    void setDelayMs(int ms) { mTimer.setInterval(ms); }
    int delayMs() const { return mTimer.interval(); }

    /// Follows `doc` from now on (null: none). The previous document's draft is removed:
    /// the caller switches documents only after the user saved or discarded its changes.
    void watch(Document* doc);
    /// Writes the draft now if the document has unsaved changes, removes it if not (all on
    /// this thread; the timer's autosaves write the JSON in the background).
    Status saveNow();
    /// Removes this session's draft (the user saved or chose to discard the changes).
    Status discard();

    /// Drafts left by sessions that no longer run, newest first; they stay in the library
    /// until restored or discarded. None while this session holds no lock of its own.
    Result<std::vector<store::Draft>> orphanedDrafts();
    /// Removes another (orphaned) session's draft.
    Status removeDraft(const QString& session);
    /// A JSON is being written in the background (from the timer's start of it until its
    /// result has been stored or dropped).
    bool isWriting() const { return mWriter.running(); }

Q_SIGNALS:
    /// After each write of the draft.
    void draftSaved();
    /// A draft could not be written (the library is locked or read-only, say).
    void failed(const QString& error);

private:
    QString lockDir() const;
    bool sessionIsAlive(const QString& session) const;
    /// True when the document has unsaved, editable work; when it has none, its draft goes.
    bool hasWorkToKeep();
    /// The timer's autosave: the JSON on a pool thread, then storeDraft().
    void saveInBackground();
    /// The draft's identity from the document as it is now (all but the JSON).
    store::Draft draftOfDocument() const;
    Status storeDraft(const store::Draft& draft);

    store::ScenarioLibrary* mLibrary;
    QPointer<Document> mDocument;
    QString mSession;
    std::unique_ptr<QLockFile> mLock;
    QTimer mTimer;
    /// The JSON of the draft; superseded by watch(), saveNow() and a save (older JSON is dropped).
    LatestOnly<QByteArray> mWriter;
    store::Draft mWriterDraft; ///< the draft the running writer writes the JSON for
    bool mWriteAgain = false;  ///< the timer fired while the writer ran
    bool mHasDraft = false;
};

} // namespace gp::document
