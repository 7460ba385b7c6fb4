// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#pragma once

#include "document/latestonly.h"

#include <QEventLoop>
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
    QEventLoop loop;
    std::optional<T> result;
    document::LatestOnly<std::optional<T>> job([&loop, &result](std::optional<std::optional<T>> out) {
        if (out)
            result = std::move(*out);
        loop.quit();
    });
    QProgressDialog dialog(label, QObject::tr("Cancel"), 0, 0, parent);
    dialog.setWindowModality(Qt::WindowModal);
    dialog.setMinimumDuration(400); // quick work never flashes a dialog
    bool cancelled = false;
    QObject::connect(&dialog, &QProgressDialog::canceled, &loop, [&job, &cancelled] {
        cancelled = true;
        job.stop();
    });
    job.start(std::move(work));
    loop.exec(); // until the work ends; after Cancel it stops at its next check
    if (cancelled)
        return std::nullopt;
    return result;
}

} // namespace gp::ui
