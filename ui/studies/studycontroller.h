// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#pragma once

#include <QObject>
#include <QPointer>
#include <QString>

class QMenu;
class QWidget;

namespace gp::ui {

class CalibrateDialog;
class LibraryController;
class PlanVsMeasuredDialog;
class ReplayDialog;
class SweepDialog;
class Workbench;

/// The Results menu's studies of many plans (docs/architecture.md §4): the Placement Replay
/// (one dialog per window, kept with its last results) and a sweep's output folder opened as
/// charts and points, a what-if point opened as an unsaved scenario.
class StudyController : public QObject
{
    Q_OBJECT

public:
    StudyController(Workbench& workbench, LibraryController* files, QWidget* window);

    /// Adds Placement Replay… (Ctrl+Shift+R), Open Sweep…, Plan vs Measured… and the Calibration
    /// submenu (Calibrate…, Use Profile…, Don't Use a Profile) to the Results menu.
    void addStudyActions(QMenu* results);
    /// Results > Calibration > Calibrate…: the dialog, shown and raised.
    CalibrateDialog* showCalibrate();
    CalibrateDialog* calibrateDialog() const;
    /// Makes the profile in `file` the open scenario's own (an undoable edit); false, with why in a
    /// message box, when it cannot be read or the plan is read-only.
    bool useProfileFile(const QString& file);
    /// Removes the open scenario's own profile (an undoable edit); false when it has none.
    bool dropProfile();
    /// Results > Plan vs Measured: the dialog, shown and raised.
    PlanVsMeasuredDialog* showPlanVsMeasured();
    PlanVsMeasuredDialog* planVsMeasured() const;
    /// Results > Placement Replay: the trace replay's dialog, shown and raised.
    void showPlacementReplay();
    ReplayDialog* placementReplay() const;
    /// Results > Open Sweep…: a sweep's output folder as charts and points (docs/sweeps.md); null,
    /// with the reason in a message box, when the folder is not one.
    SweepDialog* openSweep(const QString& folder);

Q_SIGNALS:
    /// A job's row of Plan vs Measured was selected: the window selects it in its views.
    void jobChosen(const QString& jobId);
    /// A GPU's row of Plan vs Measured was selected: its node.
    void nodeChosen(const QString& nodeId);

private:
    Workbench& mWorkbench;
    LibraryController* mFiles;
    QWidget* mWindow;
    QPointer<ReplayDialog> mReplay;
    QPointer<PlanVsMeasuredDialog> mPlanVsMeasured;
    QPointer<CalibrateDialog> mCalibrate;
};

} // namespace gp::ui
