// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#pragma once

#include <QObject>
#include <QString>

#include <functional>

class QWidget;

namespace gp::ui {

class RecoveryBar;
class Workbench;

/// Autosaved drafts of crashed or killed sessions (docs/workbench.md, "Autosave and
/// recovery"): offered in the banner above the canvas, restored as unsaved work, or discarded.
class RecoveryController : public QObject
{
    Q_OBJECT

public:
    /// `maybeSave` asks about the open document's unsaved changes (false: the user cancelled).
    RecoveryController(Workbench& workbench, RecoveryBar* bar, std::function<bool()> maybeSave, QWidget* window);

    /// Offers the orphaned drafts in the banner; returns how many there are.
    int offerRecovery();
    /// Opens an orphaned draft as unsaved work (asking first about unsaved changes when
    /// `ask`); the draft then belongs to this session. False, with the reason, when it cannot.
    bool restoreDraft(const QString& session, bool ask = true);
    /// Deletes an orphaned draft (asks first when `ask`).
    bool discardDraft(const QString& session, bool ask = true);

private:
    Workbench& mWorkbench;
    RecoveryBar* mBar;
    std::function<bool()> mMaybeSave;
    QWidget* mWindow;
};

} // namespace gp::ui
