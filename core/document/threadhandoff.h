// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#pragma once

// Background work whose hand-offs ThreadSanitizer can see. Qt synchronises a task given to
// its thread pool, and a result delivered to a QFutureWatcher, inside its own libraries with
// futexes TSan does not observe, so the tsan stage of scripts/test.sh reported the hand-offs
// themselves as races. runInBackground() marks both edges on a token
// (the watcher's address) and the receiver calls GPUPLAN_HANDOFF_RECEIVE(token) before it
// reads the result. Outside TSan builds the marks compile to nothing.
#include "calc/parallel.h"

#include <QFuture>
#include <QPromise>
#include <QRunnable>
#include <QThreadPool>

#include <algorithm>
#include <condition_variable>
#include <functional>
#include <memory>
#include <mutex>
#include <utility>
#include <vector>

#if defined(__SANITIZE_THREAD__)
extern "C" void AnnotateHappensBefore(const char* file, int line, const volatile void* address);
extern "C" void AnnotateHappensAfter(const char* file, int line, const volatile void* address);
#define GPUPLAN_HANDOFF_SEND(token) AnnotateHappensBefore(__FILE__, __LINE__, (token))
#define GPUPLAN_HANDOFF_RECEIVE(token) AnnotateHappensAfter(__FILE__, __LINE__, (token))
#else
#define GPUPLAN_HANDOFF_SEND(token) static_cast<void>(token)
#define GPUPLAN_HANDOFF_RECEIVE(token) static_cast<void>(token)
#endif

namespace gp::document {

/// Runs fn() on the global thread pool and returns the future of its result, with the
/// hand-off to the pool thread and the result back marked on `token`; the receiver marks
/// GPUPLAN_HANDOFF_RECEIVE(token) before reading the result. (QtConcurrent::run builds its
/// task object inside the same call that queues it, leaving no point to mark in between.)
template <typename T, typename Fn> QFuture<T> runInBackground(const void* token, Fn fn)
{
    class Task : public QRunnable
    {
    public:
        Task(const void* token, Fn fn) : mToken(token), mFn(std::move(fn)) { mPromise.start(); }
        QFuture<T> future() { return mPromise.future(); }
        void run() override
        {
            GPUPLAN_HANDOFF_RECEIVE(this); // the task itself: its fields are read only after this
            mPromise.addResult(mFn());
            GPUPLAN_HANDOFF_SEND(mToken); // before finish(): that is what wakes the receiver
            mPromise.finish();
        }

    private:
        const void* mToken;
        Fn mFn;
        QPromise<T> mPromise;
    };
    auto* task = new Task(token, std::move(fn)); // the pool deletes it after run()
    QFuture<T> future = task->future();
    GPUPLAN_HANDOFF_SEND(task);
    QThreadPool::globalInstance()->start(task);
    return future;
}

/// Runs body(0), …, body(n − 1) on the global thread pool and the calling thread, and returns
/// when all have run (calc::setParallelFor). The caller runs part 0, then every part the pool
/// has not started yet, so it never waits on a pool that is busy with the caller itself: a
/// simulation inside a pool task uses the free threads there are and starts none of its own.
inline void poolParallelFor(int n, const std::function<void(int)>& body)
{
    struct Shared
    {
        std::mutex mutex;
        std::condition_variable done;
        int left = 0;
    };
    class Part : public QRunnable
    {
    public:
        Part(std::shared_ptr<Shared> shared, const std::function<void(int)>* body, int index)
            : mShared(std::move(shared)), mBody(body), mIndex(index)
        {
            setAutoDelete(false); // the caller deletes it after the last part finished
        }
        void run() override
        {
            GPUPLAN_HANDOFF_RECEIVE(this);
            (*mBody)(mIndex);
            const std::shared_ptr<Shared> shared = mShared; // `this` may go once the count is down
            std::lock_guard<std::mutex> lock(shared->mutex);
            if (--shared->left == 0)
                shared->done.notify_all();
        }

    private:
        std::shared_ptr<Shared> mShared;
        const std::function<void(int)>* mBody;
        int mIndex;
    };
    if (n <= 0)
        return;
    auto shared = std::make_shared<Shared>();
    shared->left = n - 1;
    std::vector<std::unique_ptr<Part>> parts;
    QThreadPool* pool = QThreadPool::globalInstance();
    for (int i = 1; i < n; ++i) {
        parts.push_back(std::make_unique<Part>(shared, &body, i));
        GPUPLAN_HANDOFF_SEND(parts.back().get());
        pool->start(parts.back().get());
    }
    body(0);
    for (auto& part : parts)
        if (pool->tryTake(part.get())) // not started: run it here
            part->run();
    std::unique_lock<std::mutex> lock(shared->mutex);
    shared->done.wait(lock, [&] { return shared->left == 0; });
}

/// Makes the global thread pool the parallel-for of the searches and the Monte Carlo
/// (calc::setParallelFor), so that the background work and its parts share one pool: the
/// workbench's main() calls it once at start-up, before any such work runs; a test that
/// wants the workbench's threads does the same.
inline void installThreadPool()
{
    calc::setParallelFor(poolParallelFor, std::max(1, QThreadPool::globalInstance()->maxThreadCount()));
}

} // namespace gp::document
