// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#include "evaluationrunner.h"

#include "document/threadhandoff.h"
#include "sim/simulation.h"

namespace gp::ui {

EvaluationRunner::EvaluationRunner(const Catalog& catalog, QObject* parent) : QObject(parent), mCatalog(catalog)
{
    // The simulation's CPU threads come from the same pool as this background work.
    sim::setParallelFor(document::poolParallelFor, std::max(1, QThreadPool::globalInstance()->maxThreadCount()));
    mTimer.setSingleShot(true);
    connect(&mTimer, &QTimer::timeout, this, &EvaluationRunner::start);
    connect(&mWatcher, &QFutureWatcherBase::finished, this, [this] {
        GPUPLAN_HANDOFF_RECEIVE(&mWatcher);
        mRunning = false;
        if (mRunningGeneration == mGeneration) {
            const sim::PlanResults out = mWatcher.result();
            mLatest = std::make_shared<const sim::PlanResults>(out);
            mLatestGeneration = mRunningGeneration;
            Q_EMIT evaluated(out.evaluation);
            Q_EMIT predicted(out.simulation->clusterP95Days);
            Q_EMIT simulated(out.simulation);
            Q_EMIT timelineReady(out.timeline);
            mAltPending = mRunningScenario;
            mAltPendingGeneration = mRunningGeneration;
            startAlternatives();
        } else {
            ++mDropped; // stale: a newer request came while this one ran
            if (mPending && !mTimer.isActive())
                start(); // evaluate the newest now
        }
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
        if (mAltGeneration == mGeneration) {
            const std::vector<calc::SharingAlternative> alts = mAltWatcher.result();
            Q_EMIT alternativesReady(alts);
            if (mLatest && mLatestGeneration == mAltGeneration) {
                sim::PlanResults done = *mLatest;
                done.alternatives = std::make_shared<const std::vector<calc::SharingAlternative>>(alts);
                mLatest = std::make_shared<const sim::PlanResults>(std::move(done));
                Q_EMIT resultsReady(mLatest);
            }
        } else
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

std::shared_ptr<const sim::PlanResults> EvaluationRunner::current() const
{
    if (!mLatest || !mLatest->complete() || mLatestGeneration != mGeneration)
        return nullptr;
    return mLatest;
}

bool EvaluationRunner::runFullSimulation(int trials)
{
    if (mFullRunning || !mLatest)
        return false;
    mFullRunning = true;
    mFullGeneration = mGeneration;
    const Catalog* catalog = &mCatalog;
    mFullWatcher.setFuture(document::runInBackground<std::shared_ptr<const sim::SimulationResult>>(
        &mFullWatcher, [scenario = mLatest->scenario, ev = mLatest->evaluation, catalog, trials] {
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
            return sim::computeAlternatives(*scenario, *catalog, stop.get())
                .value_or(std::vector<calc::SharingAlternative>{});
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
    mWatcher.setFuture(
        document::runInBackground<sim::PlanResults>(&mWatcher, [scenario, catalog, horizon = mHorizonDays] {
            return sim::computeCoreResults(scenario, *catalog, horizon);
        }));
}

} // namespace gp::ui
