// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#include "resultscontroller.h"

#include "canvas/canvasscene.h"
#include "canvas/canvasview.h"
#include "evaluationrunner.h"
#include "explaindialog.h"
#include "kpicards.h"
#include "plansummary.h"
#include "resultscharts.h"
#include "scenariotree.h"
#include "simulationcharts.h"
#include "workbench.h"
#include "workloadspanel.h"

#include <algorithm>

namespace gp::ui {

ResultsController::ResultsController(Workbench& workbench, const Views& views, QObject* parent)
    : QObject(parent), mWorkbench(workbench), mViews(views)
{
    EvaluationRunner* session = &mWorkbench.session();
    connect(session, &EvaluationRunner::evaluated, this,
            [this](const std::shared_ptr<const calc::Evaluation>& ev) { showEvaluation(*ev); });
    connect(session, &EvaluationRunner::predicted, mViews.kpis, &KpiCards::showPrediction);
    connect(session, &EvaluationRunner::simulated, this, [this](std::shared_ptr<const sim::SimulationResult> r) {
        if (const document::Document* doc = mWorkbench.document())
            mViews.charts->completion()->showSimulation(doc->scenario(), std::move(r));
    });
    connect(session, &EvaluationRunner::timelineReady, this, [this](std::shared_ptr<const sim::TimelineResult> t) {
        mViews.charts->timeline()->showTimeline(std::move(t), mWorkbench.session().timelineHorizon());
    });
    connect(session, &EvaluationRunner::alternativesReady, mViews.charts, &ResultsCharts::showAlternatives);
    connect(mViews.kpis, &KpiCards::explainRequested, this, [this](const QString& key) { explain(key); });
    connect(mViews.workloads, &WorkloadsPanel::explainRequested, this,
            [this](const QString& jobId, const QString& figure) { explainJob(jobId, figure); });
    connect(mViews.charts->completion(), &CompletionView::fullSimulationRequested, this, [this](int trials) {
        EvaluationRunner& s = mWorkbench.session();
        if (!s.runFullSimulation(trials))
            mViews.charts->completion()->setRunning(s.fullSimulationRunning());
    });
    connect(mViews.charts->timeline(), &TimelineView::horizonChanged, this, [this](double days) {
        mWorkbench.session().setTimelineHorizon(days);
        if (const document::Document* doc = mWorkbench.document())
            mWorkbench.session().request(doc->scenario());
    });
}

ExplainDialog* ResultsController::explain(const QString& key)
{
    const document::Document* doc = mWorkbench.document();
    const std::shared_ptr<const sim::PlanResults> results = mWorkbench.session().latest();
    if (!doc || !results || !results->evaluation)
        return nullptr;
    std::optional<double> p95;
    if (results->simulation && results->simulation->clusterP95Days > 0)
        p95 = results->simulation->clusterP95Days;
    return openExplanation(
        calc::explainKpi(key.toStdString(), *results->scenario, mWorkbench.catalog(), *results->evaluation, p95));
}

ExplainDialog* ResultsController::explainJob(const QString& jobId, const QString& figure)
{
    const std::shared_ptr<const sim::PlanResults> results = mWorkbench.session().latest();
    if (!mWorkbench.document() || !results || !results->evaluation)
        return nullptr;
    return openExplanation(
        calc::explainJob(figure.toStdString(), jobId.toStdString(), *results->scenario, *results->evaluation));
}

ExplainDialog* ResultsController::explainGpu(const QString& nodeId, int gpu)
{
    const std::shared_ptr<const sim::PlanResults> results = mWorkbench.session().latest();
    if (!mWorkbench.document() || !results || !results->evaluation)
        return nullptr;
    return openExplanation(
        calc::explainGpu(nodeId.toStdString(), gpu, *results->scenario, mWorkbench.catalog(), *results->evaluation));
}

ExplainDialog* ResultsController::openExplanation(const calc::KpiExplanation& x)
{
    if (x.formula.empty())
        return nullptr;
    auto* dialog = new ExplainDialog(x, mWorkbench.document()->scenario().assumptions, mViews.canvas->window());
    connect(dialog, &ExplainDialog::showJobsRequested, this, &ResultsController::showJobs);
    connect(dialog, &ExplainDialog::assumptionsChanged, this, [this](const std::vector<document::FieldPatch>& p) {
        if (mWorkbench.editable())
            mWorkbench.push(document::patchFields(mWorkbench.document()->scenario(), mWorkbench.catalog(), p),
                            tr("Cannot change the assumptions"), mViews.canvas->window());
    });
    dialog->show();
    return dialog;
}

void ResultsController::showJobs(const std::vector<std::string>& jobIds)
{
    QStringList ids;
    for (const std::string& id : jobIds)
        ids << QString::fromStdString(id);
    Q_EMIT jobsToShow(ids);
}

void ResultsController::showEvaluation(const calc::Evaluation& ev)
{
    const document::Document* doc = mWorkbench.document();
    if (!doc)
        return;
    const Scenario& s = doc->scenario();
    mViews.outline->showScenario(s, mWorkbench.catalog(), ev);
    mViews.kpis->showEvaluation(ev);
    mViews.scene->decorate(s, ev);
    mViews.workloads->showEvaluation(s, ev);
    mViews.charts->showEvaluation(s, ev);
    mViews.canvas->setWarnings(planWarnings(s, ev));
    mViews.summary->showEvaluation(s, mWorkbench.catalog(), ev);
    if (mFitPending) {
        mFitPending = false;
        mViews.canvas->fitAll();
    }
}

} // namespace gp::ui
