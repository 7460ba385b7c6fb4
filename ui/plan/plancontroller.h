// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#pragma once

#include "model/scenario.h"

#include <QObject>
#include <QPointer>
#include <QString>

class QMenu;
class QWidget;

namespace gp::ui {

class CanvasScene;
class CompareDialog;
class LibraryController;
class OptimizeDialog;
class SizingDialog;
class Workbench;

/// The Plan menu: Optimize… opens the plan search on the open scenario (OptimizeDialog) and
/// carries out what the user does with a plan it found — the preview on the canvas, Apply (one
/// undoable edit, changeScenario), Save as Variant (a new library scenario), Compare with the
/// current plan (the compare view with its "Recommended vs current" page) and a report with that
/// page. Size Cluster… (ActionId::SizeCluster) opens the sizing of the open scenario
/// (SizingDialog), whose cluster is applied or saved as a variant the same way.
class PlanController : public QObject
{
    Q_OBJECT

public:
    PlanController(Workbench& workbench, CanvasScene* scene, LibraryController* files, QWidget* window);

    void addPlanActions(QMenu* plan);
    /// Plan > Optimize…: a new dialog for the open scenario (the last one closes); null when no
    /// scenario is open.
    OptimizeDialog* showOptimize();
    /// The open Optimize dialog, or null.
    OptimizeDialog* optimizeDialog() const;
    /// Plan > Size Cluster…: a new dialog for the open scenario (the last one closes); null when
    /// no scenario is open.
    SizingDialog* showSizing();
    /// The open Size Cluster dialog, or null.
    SizingDialog* sizingDialog() const;

    /// Turns the open scenario into `plan` as one undoable edit; false (with the reason in a
    /// message box) when the open scenario changed since the search or the plan is refused.
    bool applyPlan(const Scenario& plan, const QString& changes);
    /// Replaces the open scenario's cluster by the sized one, as one undoable edit; false (with
    /// the reason in a message box) when the open scenario changed since the sizing.
    bool applySizedCluster(const Scenario& sized, const QString& what);
    /// Compares the open scenario ("… (current)") with `plan`.
    CompareDialog* compareWithCurrent(const Scenario& plan);
    /// Writes the report of `plan` with its "Recommended vs current" page to `pdf`.
    bool writeRecommendationReport(const Scenario& plan, const QString& pdf);

private:
    /// The scenario the dialog searched from, if the open one still is it.
    bool searchedIsOpen() const;

    Workbench& mWorkbench;
    CanvasScene* mScene;
    LibraryController* mFiles;
    QWidget* mWindow;
    QPointer<OptimizeDialog> mDialog;
    QPointer<SizingDialog> mSizing;
};

} // namespace gp::ui
