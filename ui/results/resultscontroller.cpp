// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#include "resultscontroller.h"

#include "document/plansession.h"
#include "explaindialog.h"
#include "kpicards.h"
#include "plansummary.h"
#include "resultscharts.h"
#include "simulationcharts.h"
#include "ui/actionregistry.h"
#include "ui/canvas/canvasscene.h"
#include "ui/canvas/canvasview.h"
#include "ui/edit/scenariotree.h"
#include "ui/edit/workloadspanel.h"
#include "ui/workbench.h"

#include <QAction>

#include <algorithm>

namespace gp::ui {

ResultsController::ResultsController(Workbench& workbench, const Views& views, QObject* parent)
    : QObject(parent), mWorkbench(workbench), mViews(views)
{
    connect(&mWorkbench.session(), &document::PlanSession::resultsChanged, this, &ResultsController::showResults);
    connect(mViews.kpis, &KpiCards::explainRequested, this, [this](const QString& key) { explain(key); });
    connect(mViews.workloads, &WorkloadsPanel::explainRequested, this,
            [this](const QString& jobId, const QString& figure) { explainJob(jobId, figure); });
    connect(mViews.canvas, &CanvasView::gpuActivated, this, &ResultsController::explainGpu); // a double-click
    // The context menus' Explain entries, on what the menu was opened on.
    ActionRegistry& actions = mWorkbench.actions();
    connect(actions.add(ActionId::ExplainGpu, tr("E&xplain GPU"), {}, false), &QAction::triggered, this, [this] {
        const MenuSubject& s = mWorkbench.actions().subject();
        explainGpu(s.id, s.gpu);
    });
    connect(actions.add(ActionId::ExplainPenalty, tr("Explain &Penalty"), {}, false), &QAction::triggered, this,
            [this] { explainJob(mWorkbench.actions().subject().id, "penalty"); });
    connect(actions.add(ActionId::ExplainCost, tr("Explain &Cost"), {}, false), &QAction::triggered, this,
            [this] { explainJob(mWorkbench.actions().subject().id, "cost"); });
    connect(mViews.charts->completion(), &CompletionView::fullSimulationRequested, this, [this](int trials) {
        document::PlanSession& s = mWorkbench.session();
        if (!s.runFullSimulation(trials))
            mViews.charts->completion()->setRunning(s.fullSimulationRunning());
    });
    connect(mViews.charts->timeline(), &TimelineView::horizonChanged, this, [this](double days) {
        mWorkbench.session().setTimelineHorizon(days);
        mWorkbench.session().refresh();
    });
}

ExplainDialog* ResultsController::explain(const QString& key)
{
    const document::Document* doc = mWorkbench.document();
    const std::shared_ptr<const sim::PlanResults> results = mWorkbench.session().latest();
    if (!doc || !results || !results->evaluation)
        return nullptr;
    std::optional<double> p95;
    const std::map<std::string, double> values = sim::kpiValues(*results);
    if (const auto v = values.find("p95_completion_days"); v != values.end() && v->second > 0)
        p95 = v->second;
    return openExplanation(
        calc::explainKpi(key.toStdString(), *results->scenario, mWorkbench.catalog(), *results->evaluation, p95));
}

ExplainDialog* ResultsController::explainJob(const QString& jobId, const QString& figure)
{
    const std::shared_ptr<const sim::PlanResults> results = mWorkbench.session().latest();
    if (!mWorkbench.document() || !results || !results->evaluation)
        return nullptr;
    return openExplanation(calc::explainJob(figure.toStdString(), jobId.toStdString(), *results->scenario,
                                            mWorkbench.catalog(), *results->evaluation));
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

void ResultsController::showResults(const std::shared_ptr<const sim::PlanResults>& results)
{
    // Each part is shown once: a complete or fully simulated copy of the same results shows
    // only what it adds.
    const Scenario& s = *results->scenario;
    if (results->evaluation != mShown.evaluation) {
        const calc::Evaluation& ev = *results->evaluation;
        mViews.outline->showScenario(s, mWorkbench.catalog(), ev);
        mViews.kpis->showResults(*results);
        mViews.scene->decorate(s, ev);
        mViews.workloads->showEvaluation(s, ev);
        mViews.charts->showEvaluation(s, ev);
        mViews.canvas->setWarnings(planWarnings(s, ev));
        mViews.summary->showEvaluation(s, mWorkbench.catalog(), ev);
        if (mFitPending) {
            mFitPending = false;
            mViews.canvas->fitReadable();
        }
    }
    const auto simulation = results->fullSimulation ? results->fullSimulation : results->simulation;
    if (simulation && simulation != mShown.simulation)
        mViews.charts->completion()->showSimulation(s, simulation);
    if (results->timeline && results->timeline != mShown.timeline)
        mViews.charts->timeline()->showTimeline(results->timeline, results->timelineHorizonDays);
    if (results->alternatives && results->alternatives != mShown.alternatives)
        mViews.charts->showAlternatives(*results->alternatives);
    mShown = {results->evaluation, simulation, results->timeline, results->alternatives};
}

} // namespace gp::ui
