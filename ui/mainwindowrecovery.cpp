// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
// MainWindow: autosaved drafts of crashed or killed sessions, offered and restored.
#include "document/autosaver.h"
#include "document/librarygateway.h"
#include "mainwindow.h"
#include "recoverybar.h"

#include <QMessageBox>
#include <QStatusBar>

namespace gp::ui {

int MainWindow::offerRecovery()
{
    const auto drafts = mAutosaver->orphanedDrafts();
    std::map<qint64, QString> names;
    if (auto all = mLibrary->list())
        for (const auto& s : *all)
            names[s.id] = s.name;
    mRecovery->offer(drafts, names);
    return static_cast<int>(drafts.size());
}

bool MainWindow::restoreDraft(const QString& session, bool ask)
{
    std::optional<store::Draft> draft;
    for (auto& d : mAutosaver->orphanedDrafts())
        if (d.session == session)
            draft = std::move(d);
    if (!draft) {
        statusBar()->showMessage(tr("That autosaved draft is gone (restored or discarded elsewhere)."), 8000);
        offerRecovery();
        return false;
    }
    if (ask && !maybeSave())
        return false;
    document::RestoredDraft restored = document::restoreDraft(*mLibrary, *draft, mCatalog);
    if (!restored.document) {
        // Kept in the library: a newer gpuplan may read it; Discard removes it.
        QMessageBox::warning(this, tr("Cannot restore"), restored.error);
        return false;
    }
    setDocument(std::move(restored.document));
    // Ours now: written under this session before the orphan goes, so no moment lacks it.
    if (!mAutosaver->saveNow() || !mAutosaver->removeDraft(session))
        statusBar()->showMessage(tr("Restored, but the draft could not be moved: %1").arg(mAutosaver->lastError()),
                                 10000);
    else
        statusBar()->showMessage(tr("Restored the autosaved work on '%1'; save it to keep it.").arg(draft->name), 8000);
    offerRecovery();
    return true;
}

bool MainWindow::discardDraft(const QString& session, bool ask)
{
    if (ask &&
        QMessageBox::question(this, tr("Discard autosaved work"),
                              tr("Delete the autosaved work for good? It cannot be brought back."),
                              QMessageBox::Discard | QMessageBox::Cancel, QMessageBox::Cancel) != QMessageBox::Discard)
        return false;
    const bool ok = mAutosaver->removeDraft(session);
    if (!ok)
        QMessageBox::warning(this, tr("Cannot discard"), mAutosaver->lastError());
    offerRecovery();
    return ok;
}

} // namespace gp::ui
