// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#pragma once

// Background work whose hand-offs ThreadSanitizer can see. Qt synchronises a task given to
// its thread pool, and a result delivered to a QFutureWatcher, inside its own libraries with
// futexes TSan does not observe, so the tsan stage of scripts/test.sh reported the hand-offs
// themselves as races. runInBackground() marks both edges on a token
// (the watcher's address) and the receiver calls GPUPLAN_HANDOFF_RECEIVE(token) before it
// reads the result. Outside TSan builds the marks compile to nothing.
#include <QFuture>
#include <QPromise>
#include <QRunnable>
#include <QThreadPool>

#include <utility>

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

} // namespace gp::document
