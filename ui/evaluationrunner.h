// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#pragma once

#include "calc/alternatives.h"
#include "calc/evaluation.h"
#include "model/catalog.h"
#include "model/scenario.h"
#include "sim/simulation.h"
#include "sim/timeline.h"

#include <QFutureWatcher>
#include <QObject>
#include <QTimer>

#include <memory>

namespace gp::ui {

/// Runs calc::evaluate off the GUI thread (DESIGN.md §4.4): each request is debounced, works on
/// its own copy of the scenario, and a newer request supersedes an older one — a result that
/// arrives after a newer request was made is dropped, never shown.
class EvaluationRunner : public QObject
{
    Q_OBJECT

public:
    static constexpr int kQuickTrials = 256; ///< of the preview after each evaluation (CPU, seed 1)
    EvaluationRunner(const Catalog& catalog, QObject* parent = nullptr);
    /// Stops the trade-off matrix early and waits for the background work, which reads the catalog.
    ~EvaluationRunner() override;
    /// Asks for an evaluation of `scenario` after `debounceMs` without a newer request.
    void request(const Scenario& scenario, int debounceMs = 150);
    bool busy() const { return mRunning || mAltRunning || mFullRunning || mTimer.isActive(); }
    /// Runs a full Monte Carlo (`trials`, the fastest backend) of the latest evaluated scenario;
    /// its result arrives through `simulated`, unless a newer edit supersedes it. False when
    /// there is nothing evaluated yet or a full run is under way.
    bool runFullSimulation(int trials);
    bool fullSimulationRunning() const { return mFullRunning; }
    /// Days the timeline simulation covers (default 30); applies from the next request.
    void setTimelineHorizon(double days) { mHorizonDays = days; }
    double timelineHorizon() const { return mHorizonDays; }

Q_SIGNALS:
    void evaluated(std::shared_ptr<const calc::Evaluation> evaluation);
    /// The slowest training job's P95 completion in days from a quick Monte Carlo preview
    /// (256 trials on the CPU, seed 1), right after `evaluated`; 0 without training jobs.
    void predicted(double clusterP95Days);
    /// Per-job completion distributions: the quick preview after each evaluation, or a full
    /// run asked for with runFullSimulation.
    void simulated(std::shared_ptr<const gp::sim::SimulationResult> result);
    /// Allocation, fragmentation and queue over the timeline horizon, after each evaluation.
    void timelineReady(std::shared_ptr<const gp::sim::TimelineResult> timeline);
    /// The tenant mix under every sharing mode (calc::compareSharing): a second background
    /// step after `predicted` (it costs one evaluation per setting), dropped when superseded.
    void alternativesReady(const std::vector<gp::calc::SharingAlternative>& alternatives);

private:
    void start();
    void startAlternatives();

    const Catalog& mCatalog;
    QTimer mTimer;
    std::shared_ptr<const Scenario> mPending;
    quint64 mGeneration = 0; ///< of the newest request
    quint64 mRunningGeneration = 0;
    bool mRunning = false;
    struct Outcome
    {
        std::shared_ptr<const calc::Evaluation> evaluation;
        std::shared_ptr<const sim::SimulationResult> simulation;
        std::shared_ptr<const sim::TimelineResult> timeline;
    };
    double mHorizonDays = 30.0;
    std::shared_ptr<const calc::Evaluation> mLastEvaluation; ///< of mLastScenario, the newest shown
    std::shared_ptr<const Scenario> mLastScenario;
    bool mFullRunning = false;
    quint64 mFullGeneration = 0;
    QFutureWatcher<std::shared_ptr<const sim::SimulationResult>> mFullWatcher;
    QFutureWatcher<Outcome> mWatcher;
    std::shared_ptr<const Scenario> mRunningScenario;
    std::shared_ptr<const Scenario> mAltPending; ///< the newest evaluated scenario still without alternatives
    quint64 mAltPendingGeneration = 0;
    quint64 mAltGeneration = 0;
    bool mAltRunning = false;
    QFutureWatcher<std::vector<calc::SharingAlternative>> mAltWatcher;
    std::shared_ptr<std::atomic<bool>> mAltStop; ///< of the running matrix; set when a newer request supersedes it
};

} // namespace gp::ui
