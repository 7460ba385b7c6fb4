#include "evaluationrunner.h"

#include "calc/evaluate.h"
#include "sim/simulation.h"

#include <QtConcurrent/QtConcurrentRun>

namespace gp::ui {

EvaluationRunner::EvaluationRunner(const Catalog& catalog, QObject* parent) : QObject(parent), mCatalog(catalog)
{
    mTimer.setSingleShot(true);
    connect(&mTimer, &QTimer::timeout, this, &EvaluationRunner::start);
    connect(&mWatcher, &QFutureWatcherBase::finished, this, [this] {
        mRunning = false;
        if (mRunningGeneration == mGeneration) {
            const Outcome out = mWatcher.result();
            Q_EMIT evaluated(out.evaluation);
            Q_EMIT predicted(out.clusterP95Days);
            mAltPending = mRunningScenario;
            mAltPendingGeneration = mRunningGeneration;
            startAlternatives();
        }
        else if (mPending && !mTimer.isActive())
            start(); // a request came while this one ran: evaluate the newest now
    });
    connect(&mAltWatcher, &QFutureWatcherBase::finished, this, [this] {
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
    mAltWatcher.setFuture(QtConcurrent::run(
        [scenario, catalog, stop = mAltStop] { return calc::compareSharing(*scenario, *catalog, stop.get()); }));
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
    mWatcher.setFuture(QtConcurrent::run([scenario, catalog] {
        Outcome out;
        out.evaluation = std::make_shared<const calc::Evaluation>(calc::evaluate(*scenario, *catalog));
        sim::SimulationConfig quick;
        quick.trials = 256;
        quick.backend = sim::Backend::Cpu;
        out.clusterP95Days = sim::simulate(*scenario, *catalog, *out.evaluation, quick).clusterP95Days;
        return out;
    }));
}

} // namespace gp::ui
