// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#include "recoverycontroller.h"

#include "document/autosaver.h"
#include "document/librarygateway.h"
#include "recoverybar.h"
#include "ui/workbench.h"

#include <QMessageBox>

namespace gp::ui {

RecoveryController::RecoveryController(Workbench& workbench, RecoveryBar* bar, std::function<bool()> maybeSave,
                                       QWidget* window)
    : QObject(window), mWorkbench(workbench), mBar(bar), mMaybeSave(std::move(maybeSave)), mWindow(window)
{
    connect(mBar, &RecoveryBar::restoreRequested, this, [this](const QString& s) { restoreDraft(s); });
    connect(mBar, &RecoveryBar::discardRequested, this, [this](const QString& s) { discardDraft(s); });
}

int RecoveryController::offerRecovery()
{
    auto orphans = mWorkbench.autosaver().orphanedDrafts();
    if (!orphans)
        Q_EMIT mWorkbench.message(tr("Cannot look for autosaved work: %1").arg(issuesText(orphans.issues, 3)), 10000);
    const std::vector<store::Draft> drafts = orphans ? std::move(*orphans) : std::vector<store::Draft>{};
    std::map<qint64, QString> names;
    if (auto all = mWorkbench.library().list())
        for (const auto& s : *all)
            names[s.id] = s.name;
    mBar->offer(drafts, names);
    return static_cast<int>(drafts.size());
}

bool RecoveryController::restoreDraft(const QString& session, bool ask)
{
    std::optional<store::Draft> draft;
    if (auto orphans = mWorkbench.autosaver().orphanedDrafts())
        for (auto& d : *orphans)
            if (d.session == session)
                draft = std::move(d);
    if (!draft) {
        Q_EMIT mWorkbench.message(tr("That autosaved draft is gone (restored or discarded elsewhere)."), 8000);
        offerRecovery();
        return false;
    }
    if (ask && !mMaybeSave())
        return false;
    Result<std::unique_ptr<document::Document>> restored =
        document::restoreDraft(mWorkbench.library(), *draft, mWorkbench.catalog());
    if (!restored.ok()) {
        // Kept in the library: a newer gpuplan may read it; Discard removes it.
        QMessageBox::warning(mWindow, tr("Cannot restore"), issuesText(restored.issues, 10));
        return false;
    }
    mWorkbench.setDocument(std::move(*restored.value));
    // Ours now: written under this session before the orphan goes, so no moment lacks it.
    Status moved = mWorkbench.autosaver().saveNow();
    if (moved)
        moved = mWorkbench.autosaver().removeDraft(session);
    if (!moved)
        Q_EMIT mWorkbench.message(tr("Restored, but the draft could not be moved: %1").arg(issuesText(moved.issues, 3)),
                                  10000);
    else
        Q_EMIT mWorkbench.message(tr("Restored the autosaved work on '%1'; save it to keep it.").arg(draft->name),
                                  8000);
    offerRecovery();
    return true;
}

bool RecoveryController::discardDraft(const QString& session, bool ask)
{
    if (ask &&
        QMessageBox::question(mWindow, tr("Discard autosaved work"),
                              tr("Delete the autosaved work for good? It cannot be brought back."),
                              QMessageBox::Discard | QMessageBox::Cancel, QMessageBox::Cancel) != QMessageBox::Discard)
        return false;
    const Status removed = mWorkbench.autosaver().removeDraft(session);
    if (!removed)
        QMessageBox::warning(mWindow, tr("Cannot discard"), issuesText(removed.issues));
    offerRecovery();
    return removed.ok();
}

} // namespace gp::ui
