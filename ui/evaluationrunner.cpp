// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#include "evaluationrunner.h"

#include "calc/evaluate.h"
#include "sim/simulation.h"
#include "document/threadhandoff.h"

namespace gp::ui {

EvaluationRunner::EvaluationRunner(const Catalog& catalog, QObject* parent) : QObject(parent), mCatalog(catalog)
{
    mTimer.setSingleShot(true);
    connect(&mTimer, &QTimer::timeout, this, &EvaluationRunner::start);
    connect(&mWatcher, &QFutureWatcherBase::finished, this, [this] {
        GPUPLAN_HANDOFF_RECEIVE(&mWatcher);
        mRunning = false;
        if (mRunningGeneration == mGeneration) {
            const Outcome out = mWatcher.result();
            mLastEvaluation = out.evaluation;
            mLastScenario = mRunningScenario;
            Q_EMIT evaluated(out.evaluation);
            Q_EMIT predicted(out.simulation->clusterP95Days);
            Q_EMIT simulated(out.simulation);
            Q_EMIT timelineReady(out.timeline);
            mAltPending = mRunningScenario;
            mAltPendingGeneration = mRunningGeneration;
            startAlternatives();
        }
        else if (mPending && !mTimer.isActive())
            start(); // a request came while this one ran: evaluate the newest now
    });
    connect(&mFullWatcher, &QFutureWatcherBase::finished, this, [this] {
        GPUPLAN_HANDOFF_RECEIVE(&mFullWatcher);
        mFullRunning = false;
        if (mFullGeneration == mGeneration)
            Q_EMIT simulated(mFullWatcher.result());
    });
    connect(&mAltWatcher, &QFutureWatcherBase::finished, this, [this] {
        GPUPLAN_HANDOFF_RECEIVE(&mAltWatcher);
        mAltRunning = false;
        if (mAltGeneration == mGeneration)
            Q_EMIT alternativesReady(mAltWatcher.result());
        else
            startAlternatives(); // a newer evaluation may be waiting for its matrix
    });
}

EvaluationRunner::~EvaluationRunner()
{
    if (mAltStop)
        mAltStop->store(true);
    mWatcher.waitForFinished();
    mAltWatcher.waitForFinished();
    mFullWatcher.waitForFinished();
    GPUPLAN_HANDOFF_RECEIVE(&mWatcher);
    GPUPLAN_HANDOFF_RECEIVE(&mAltWatcher);
    GPUPLAN_HANDOFF_RECEIVE(&mFullWatcher);
}

namespace {

sim::SimulationResult quickSimulation(const Scenario& scenario, const Catalog& catalog, const calc::Evaluation& ev)
{
    sim::SimulationConfig quick;
    quick.trials = EvaluationRunner::kQuickTrials;
    quick.backend = sim::Backend::Cpu;
    return sim::simulate(scenario, catalog, ev, quick);
}

} // namespace

bool EvaluationRunner::runFullSimulation(int trials)
{
    if (mFullRunning || !mLastEvaluation || !mLastScenario)
        return false;
    mFullRunning = true;
    mFullGeneration = mGeneration;
    const Catalog* catalog = &mCatalog;
    mFullWatcher.setFuture(document::runInBackground<std::shared_ptr<const sim::SimulationResult>>(
        &mFullWatcher, [scenario = mLastScenario, ev = mLastEvaluation, catalog, trials] {
        sim::SimulationConfig full;
        full.trials = trials;
        full.backend = sim::Backend::Auto;
        return std::make_shared<const sim::SimulationResult>(sim::simulate(*scenario, *catalog, *ev, full));
    }));
    return true;
}

void EvaluationRunner::startAlternatives()
{
    if (mAltRunning || !mAltPending || mAltPendingGeneration != mGeneration)
        return;
    mAltRunning = true;
    mAltGeneration = mAltPendingGeneration;
    std::shared_ptr<const Scenario> scenario = std::move(mAltPending);
    const Catalog* catalog = &mCatalog;
    mAltStop = std::make_shared<std::atomic<bool>>(false);
    mAltWatcher.setFuture(document::runInBackground<std::vector<calc::SharingAlternative>>(
        &mAltWatcher, [scenario, catalog, stop = mAltStop] {
        std::vector<calc::SharingAlternative> alts = calc::compareSharing(*scenario, *catalog, stop.get());
        // The predictability row: each mode's chosen setting through the quick Monte Carlo.
        if (!sim::simulateAlternatives(alts, *catalog, kQuickTrials, stop.get()))
            return std::vector<calc::SharingAlternative>{};
        return alts;
    }));
}

void EvaluationRunner::request(const Scenario& scenario, int debounceMs)
{
    mPending = std::make_shared<const Scenario>(scenario);
    ++mGeneration;
    if (mAltStop)
        mAltStop->store(true); // the matrix being computed is for an older scenario
    mTimer.start(debounceMs);
}

void EvaluationRunner::start()
{
    if (mRunning || !mPending)
        return; // the finished handler starts the newest request
    mRunning = true;
    mRunningGeneration = mGeneration;
    std::shared_ptr<const Scenario> scenario = std::move(mPending);
    mRunningScenario = scenario;
    const Catalog* catalog = &mCatalog;
    mWatcher.setFuture(document::runInBackground<Outcome>(&mWatcher, [scenario, catalog, horizon = mHorizonDays] {
        Outcome out;
        out.evaluation = std::make_shared<const calc::Evaluation>(calc::evaluate(*scenario, *catalog));
        out.simulation = std::make_shared<const sim::SimulationResult>(quickSimulation(*scenario, *catalog, *out.evaluation));
        sim::TimelineConfig timeline;
        timeline.horizonDays = horizon;
        out.timeline = std::make_shared<const sim::TimelineResult>(sim::runTimeline(*scenario, *catalog, *out.evaluation, timeline));
        return out;
    }));
}

} // namespace gp::ui
