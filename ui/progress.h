// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#pragma once

#include "document/threadhandoff.h"

#include <QEventLoop>
#include <QFutureWatcher>
#include <QProgressDialog>

#include <atomic>
#include <functional>
#include <memory>
#include <optional>

namespace gp::ui {

/// Runs `work` on the thread pool while a progress dialog with Cancel keeps the window
/// responsive (docs/architecture.md §4: nothing heavy on the GUI thread). `work` checks the
/// stop flag it is given and returns nullopt when it stopped; so does this, after Cancel.
template <typename T>
std::optional<T> runWithProgress(QWidget* parent, const QString& label,
                                 std::function<std::optional<T>(const std::atomic<bool>& stop)> work)
{
    auto stop = std::make_shared<std::atomic<bool>>(false);
    // The result travels in a shared_ptr rather than in the future: the pool thread may destroy
    // its promise (and with it the future's copy of a result) after this returns, through
    // reference counts inside Qt that ThreadSanitizer cannot see; a shared_ptr's count it can.
    auto result = std::make_shared<std::optional<T>>();
    QFutureWatcher<bool> watcher;
    QEventLoop loop;
    QObject::connect(&watcher, &QFutureWatcherBase::finished, &loop, &QEventLoop::quit);
    QProgressDialog dialog(label, QObject::tr("Cancel"), 0, 0, parent);
    dialog.setWindowModality(Qt::WindowModal);
    dialog.setMinimumDuration(400); // quick work never flashes a dialog
    QObject::connect(&dialog, &QProgressDialog::canceled, &loop, [stop] { stop->store(true); });
    watcher.setFuture(document::runInBackground<bool>(&watcher, [work = std::move(work), stop, result] {
        *result = work(*stop);
        return true;
    }));
    if (!watcher.isFinished())
        loop.exec(); // until the work ends; after Cancel it stops at its next check
    watcher.waitForFinished();
    GPUPLAN_HANDOFF_RECEIVE(&watcher);
    if (stop->load())
        return std::nullopt;
    return std::move(*result);
}

} // namespace gp::ui
