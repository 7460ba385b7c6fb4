// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#pragma once

#include "sim/replaysummary.h"

#include <QByteArray>
#include <QString>

#include <memory>
#include <utility>
#include <vector>

class QChart;

namespace gp::ui {

/// One chart of replays against the arrived workload, one line per policy (its mean over the
/// seeds): the GPU allocation, or the fragmentation, in % of the cluster's GPU capacity.
enum class ReplayMeasure
{
    Allocation,
    Fragmentation
};
std::unique_ptr<QChart> replayChart(const std::vector<std::pair<QString, sim::ReplaySummary>>& policies,
                                    ReplayMeasure measure, const QString& title);

/// The charts of `gpuplan-cli replay --charts DIR` (docs/validation.md): GPU allocation and
/// fragmentation against the arrived workload, one line per policy (the mean over the seeds),
/// as PNG and SVG, and the numbers behind them as CSV (replay.csv: policy, arrived, the means and
/// standard deviations). `title` names the trace and the seeds.
std::vector<std::pair<QString, QByteArray>> replayChartFiles(
    const std::vector<std::pair<QString, sim::ReplaySummary>>& policies, const QString& title);

} // namespace gp::ui
