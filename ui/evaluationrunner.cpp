#include "evaluationrunner.h"

#include "calc/evaluate.h"

#include <QtConcurrent/QtConcurrentRun>

namespace gp::ui {

EvaluationRunner::EvaluationRunner(const Catalog& catalog, QObject* parent) : QObject(parent), mCatalog(catalog)
{
    mTimer.setSingleShot(true);
    connect(&mTimer, &QTimer::timeout, this, &EvaluationRunner::start);
    connect(&mWatcher, &QFutureWatcherBase::finished, this, [this] {
        mRunning = false;
        if (mRunningGeneration == mGeneration)
            Q_EMIT evaluated(mWatcher.result());
        else if (mPending && !mTimer.isActive())
            start(); // a request came while this one ran: evaluate the newest now
    });
}

void EvaluationRunner::request(const Scenario& scenario, int debounceMs)
{
    mPending = std::make_shared<const Scenario>(scenario);
    ++mGeneration;
    mTimer.start(debounceMs);
}

void EvaluationRunner::start()
{
    if (mRunning || !mPending)
        return; // the finished handler starts the newest request
    mRunning = true;
    mRunningGeneration = mGeneration;
    std::shared_ptr<const Scenario> scenario = std::move(mPending);
    const Catalog* catalog = &mCatalog;
    mWatcher.setFuture(QtConcurrent::run([scenario, catalog] {
        return std::make_shared<const calc::Evaluation>(calc::evaluate(*scenario, *catalog));
    }));
}

} // namespace gp::ui
