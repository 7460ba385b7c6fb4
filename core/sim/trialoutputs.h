// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#pragma once

#include <vector>

namespace gp::sim {

/// Raw per-trial outputs of a simulation backend: [trials x jobs] completion days and
/// slowdowns, [trials x GPUs] out-of-memory flags, per-link congested time points and load
/// histograms summed over trials; [trials x jobs] serving TTFT and ITL.
struct TrialOutputs
{
    std::vector<double> completionDays, slowdown, peakBytes;
    std::vector<double> ttft, itl; ///< [trials x jobs], serving jobs' request latencies
    std::vector<int> oom, congestedPoints, histogram;
};

} // namespace gp::sim
