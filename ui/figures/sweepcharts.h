// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#pragma once

#include "study/sweep.h"

#include <QByteArray>
#include <QString>

#include <memory>
#include <utility>
#include <vector>

class QChart;

namespace gp::ui {

/// One sweep chart (docs/sweeps.md): along one axis, per value, the mean over the grid's other
/// axes, over the points that applied — of a what-if sweep $/month (bars, left scale) and VRAM
/// utilization, the largest penalty and the serving SLO attainment (lines, right scale, %); of a
/// replay sweep the GPUs left unallocated when all tasks arrived (bars) and the allocation and
/// fragmentation at 100 % arrived and the allocation at the end (lines, %).
std::unique_ptr<QChart> sweepAxisChart(const study::SweepTable& table, std::size_t axis);

/// Every axis's chart as PNG (1600 × 900) and SVG, named after the axis ("nodes.png",
/// "sharing-dgx-h100.svg"), for io::writeFiles.
std::vector<std::pair<QString, QByteArray>> sweepChartFiles(const study::SweepTable& table);

} // namespace gp::ui
