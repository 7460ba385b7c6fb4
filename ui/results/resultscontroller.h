// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#pragma once

#include "calc/kpiexplain.h"
#include "sim/planresults.h"

#include <QObject>
#include <QStringList>

namespace gp::ui {

class CanvasScene;
class CanvasView;
class KpiCards;
class PlanSummary;
class ResultsCharts;
class ScenarioTree;
class WorkloadsPanel;
class Workbench;

/// The views of the plan's results, kept in step with the plan session (docs/architecture.md
/// §4): the summary, KPI cards, outline, canvas decorations and warnings, workloads and the
/// Results charts show each part of the session's results (resultsChanged) as it arrives;
/// the charts' requests (a full simulation, another timeline horizon) go back to it.
class ResultsController : public QObject
{
    Q_OBJECT

public:
    struct Views
    {
        PlanSummary* summary;
        KpiCards* kpis;
        ScenarioTree* outline;
        CanvasScene* scene;
        CanvasView* canvas;
        WorkloadsPanel* workloads;
        ResultsCharts* charts;
    };
    ResultsController(Workbench& workbench, const Views& views, QObject* parent);

    /// Frames the canvas when the next evaluation is shown (a new document, a generated fabric):
    /// by then the window has its size and the scene its items. As much of the plan as keeps the
    /// nodes' names readable (CanvasView::fitReadable).
    void requestFraming() { mFitPending = true; }
    /// Opens the explanation of KPI `key` for the plan's latest results (non-modal); null
    /// while nothing has been evaluated yet.
    class ExplainDialog* explain(const QString& key);
    /// The same for one job's "penalty" or "cost" (a click on its Workloads cell).
    class ExplainDialog* explainJob(const QString& jobId, const QString& figure);
    /// The same for one GPU of a node (a double-click on it, or its context menu).
    class ExplainDialog* explainGpu(const QString& nodeId, int gpu);

Q_SIGNALS:
    /// An explanation's Show These Jobs on the Canvas: highlight and frame them.
    void jobsToShow(const QStringList& jobIds);

private:
    class ExplainDialog* openExplanation(const calc::KpiExplanation& explanation);
    /// Shows what these results add to the ones shown before.
    void showResults(const std::shared_ptr<const sim::PlanResults>& results);

    /// Asks for the jobs to be shown on the canvas (jobsToShow).
    void showJobs(const std::vector<std::string>& jobIds);

    Workbench& mWorkbench;
    Views mViews;
    bool mFitPending = false;
    struct Shown
    {
        std::shared_ptr<const calc::Evaluation> evaluation;
        std::shared_ptr<const sim::SimulationResult> simulation;
        std::shared_ptr<const sim::TimelineResult> timeline;
        std::shared_ptr<const std::vector<calc::SharingAlternative>> alternatives;
    } mShown; ///< the parts of the results the views show now
};

} // namespace gp::ui
