// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#pragma once

#include "calc/alternatives.h"
#include "calc/evaluation.h"
#include "model/catalog.h"
#include "model/scenario.h"
#include "sim/planresults.h"
#include "sim/simulation.h"
#include "sim/timeline.h"

#include <QFutureWatcher>
#include <QObject>
#include <QTimer>

#include <memory>

namespace gp::ui {

/// The plan session's results (docs/architecture.md §4): computes the open plan's
/// sim::PlanResults off the GUI thread — evaluation, the plan's Monte Carlo, timeline, then
/// the trade-off matrix. Each request is debounced, works on its own copy of the scenario, and
/// a newer request supersedes an older one: a result that arrives after a newer request was
/// made is dropped, never shown. Every view, the report, the slides and the exports read the
/// same results (current()), so the same plan shows the same figures everywhere.
class EvaluationRunner : public QObject
{
    Q_OBJECT

public:
    EvaluationRunner(const Catalog& catalog, QObject* parent = nullptr);
    /// Stops the trade-off matrix early and waits for the background work, which reads the catalog.
    ~EvaluationRunner() override;
    /// Asks for an evaluation of `scenario` after `debounceMs` without a newer request.
    void request(const Scenario& scenario, int debounceMs = 150);
    bool busy() const { return mRunning || mAltRunning || mFullRunning || mTimer.isActive(); }
    /// An evaluation is running in the background now.
    bool evaluating() const { return mRunning; }
    /// How many finished evaluations were dropped because a newer request came meanwhile.
    int droppedResults() const { return mDropped; }
    /// Runs a full Monte Carlo (`trials`, the fastest backend) of the latest evaluated scenario;
    /// its result arrives through `simulated`, unless a newer edit supersedes it. False when
    /// there is nothing evaluated yet or a full run is under way.
    bool runFullSimulation(int trials);
    bool fullSimulationRunning() const { return mFullRunning; }
    /// The newest plan's results when they are complete and no newer request is pending or
    /// running; null otherwise (then resultsReady follows once they are).
    std::shared_ptr<const sim::PlanResults> current() const;
    /// The newest results shown, complete or not (the matrix may still be missing).
    std::shared_ptr<const sim::PlanResults> latest() const { return mLatest; }
    /// Days the timeline simulation covers (default 30); applies from the next request.
    void setTimelineHorizon(double days) { mHorizonDays = days; }
    double timelineHorizon() const { return mHorizonDays; }

Q_SIGNALS:
    void evaluated(std::shared_ptr<const calc::Evaluation> evaluation);
    /// The slowest training job's P95 completion in days from the plan's Monte Carlo
    /// (sim::TrialCounts::kPlan trials on the CPU, seed 1), right after `evaluated`; 0 without
    /// training jobs.
    void predicted(double clusterP95Days);
    /// Per-job completion distributions: the quick preview after each evaluation, or a full
    /// run asked for with runFullSimulation.
    void simulated(std::shared_ptr<const gp::sim::SimulationResult> result);
    /// Allocation, fragmentation and queue over the timeline horizon, after each evaluation.
    void timelineReady(std::shared_ptr<const gp::sim::TimelineResult> timeline);
    /// The tenant mix under every sharing mode (calc::compareSharing): a second background
    /// step after `predicted` (it costs one evaluation per setting), dropped when superseded.
    void alternativesReady(const std::vector<gp::calc::SharingAlternative>& alternatives);
    /// The newest plan's results are complete (current() returns them).
    void resultsReady(std::shared_ptr<const gp::sim::PlanResults> results);

private:
    void start();
    void startAlternatives();

    const Catalog& mCatalog;
    QTimer mTimer;
    std::shared_ptr<const Scenario> mPending;
    quint64 mGeneration = 0; ///< of the newest request
    quint64 mRunningGeneration = 0;
    bool mRunning = false;
    int mDropped = 0;
    double mHorizonDays = 30.0;
    std::shared_ptr<const sim::PlanResults> mLatest; ///< the newest shown
    quint64 mLatestGeneration = 0;
    bool mFullRunning = false;
    quint64 mFullGeneration = 0;
    QFutureWatcher<std::shared_ptr<const sim::SimulationResult>> mFullWatcher;
    QFutureWatcher<sim::PlanResults> mWatcher;
    std::shared_ptr<const Scenario> mRunningScenario;
    std::shared_ptr<const Scenario> mAltPending; ///< the newest evaluated scenario still without alternatives
    quint64 mAltPendingGeneration = 0;
    quint64 mAltGeneration = 0;
    bool mAltRunning = false;
    QFutureWatcher<std::vector<calc::SharingAlternative>> mAltWatcher;
    std::shared_ptr<std::atomic<bool>> mAltStop; ///< of the running matrix; set when a newer request supersedes it
};

} // namespace gp::ui
