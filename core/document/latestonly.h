// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#pragma once

#include "threadhandoff.h"

#include <QFutureWatcher>

#include <atomic>
#include <functional>
#include <memory>
#include <optional>
#include <utility>

namespace gp::document {

/// One kind of background job of which only the newest run counts (docs/architecture.md §4):
/// the plan session's evaluation, matrix and full simulation, the autosaver's JSON, the
/// optimize, replay and sweep dialogs' runs and runWithProgress all go through it. A run
/// works on the thread pool with a stop flag of its own; its result comes back to the
/// owner's thread through `finished`, the hand-offs marked for ThreadSanitizer
/// (threadhandoff.h). One run at a time: a newer request supersede()s the running one (its
/// result arrives as nullopt) and starts again from `finished`.
template <typename T> class LatestOnly
{
public:
    using Stop = std::atomic<bool>;
    /// Called on the owner's thread when a run ends: its result, or nullopt when it was
    /// superseded meanwhile.
    using Finished = std::function<void(std::optional<T>)>;

    explicit LatestOnly(Finished finished) : mFinished(std::move(finished))
    {
        QObject::connect(&mWatcher, &QFutureWatcherBase::finished, &mWatcher, [this] { deliver(); });
    }
    /// Stops the running work and waits for it (it may read what the owner holds); its result
    /// is dropped.
    ~LatestOnly()
    {
        mWatcher.disconnect();
        stop();
        mWatcher.waitForFinished();
        GPUPLAN_HANDOFF_RECEIVE(&mWatcher);
    }
    LatestOnly(const LatestOnly&) = delete;
    LatestOnly& operator=(const LatestOnly&) = delete;

    /// Runs work(stop) on the global thread pool; false (nothing started) while a run is under
    /// way.
    bool start(std::function<T(const Stop& stop)> work)
    {
        if (mRunning)
            return false;
        mRunning = true;
        mSuperseded = false;
        mStop = std::make_shared<Stop>(false);
        // The result travels in a shared_ptr rather than in the future: the pool thread may
        // destroy its promise (and with it the future's copy of a result) after the receiver
        // read it, through reference counts inside Qt that ThreadSanitizer cannot see; a
        // shared_ptr's count it can.
        mResult = std::make_shared<std::optional<T>>();
        mWatcher.setFuture(runInBackground<bool>(&mWatcher, [work = std::move(work), stop = mStop, out = mResult] {
            out->emplace(work(*stop));
            return true;
        }));
        return true;
    }
    /// Asks the running work to stop at its next check; what it returns still arrives.
    void stop()
    {
        if (mStop)
            mStop->store(true);
    }
    /// The running work's result is no longer wanted: it is stopped, and `finished` gets nullopt.
    void supersede()
    {
        if (!mRunning)
            return;
        mSuperseded = true;
        stop();
    }
    bool running() const { return mRunning; }
    /// The running work was asked to stop (stop() or supersede()).
    bool stopping() const { return mRunning && mStop && mStop->load(); }

private:
    void deliver()
    {
        GPUPLAN_HANDOFF_RECEIVE(&mWatcher);
        mRunning = false;
        std::optional<T> result;
        if (!mSuperseded && mResult)
            result = std::move(*mResult);
        mResult.reset();
        mFinished(std::move(result));
    }

    Finished mFinished;
    QFutureWatcher<bool> mWatcher;
    std::shared_ptr<Stop> mStop;
    std::shared_ptr<std::optional<T>> mResult;
    bool mRunning = false;
    bool mSuperseded = false;
};

} // namespace gp::document
