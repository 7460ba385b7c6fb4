// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#pragma once

#include "replay.h"

#include <atomic>
#include <cstdint>
#include <string>
#include <vector>

namespace gp::sim {

/// A range of seeds, as `replay --seeds A-B` takes it (the artifact's experiments use 42-51).
struct SeedRange
{
    std::uint64_t first = 0;
    std::uint64_t last = 0;
    std::size_t count() const { return static_cast<std::size_t>(last - first + 1); }
};

/// At most this many seeds in one range (a range is a sweep of replays, not a loop forever).
inline constexpr std::uint64_t kMaxSeeds = limits::kMaxReplaySeeds;

/// Reads "A-B" (or a single "A"); an error message when it is not two whole numbers, reversed
/// or longer than kMaxSeeds.
std::string parseSeedRange(const std::string& text, SeedRange& range);

/// A value per arrived step over several replays: the mean and the (population) standard
/// deviation.
struct Spread
{
    std::vector<double> mean;
    std::vector<double> sd;
};

/// Replays of one trace and policy over a range of seeds, summarised per arrived step.
struct ReplaySummary
{
    SeedRange seeds;
    std::vector<int> arrivedPct; ///< the steps every replay reached
    Spread allocationPct, fragmentationPct, fragmentationRatePct;
    double tasksMean = 0.0;
    double failedTasksMean = 0.0;
    double elapsedMs = 0.0; ///< wall time of the whole sweep
};

/// How a sweep of replays reports and stops (the workbench's Placement Replay): `done` counts the
/// replays finished; when `stop` becomes true no further replay starts and the summary is empty.
struct ReplayProgress
{
    const std::atomic<bool>* stop = nullptr;
    std::atomic<std::size_t>* done = nullptr;
};

/// Runs the replay once per seed of the range (on up to `threads` threads; the result does not
/// depend on them) and summarises the runs.
ReplaySummary replaySeeds(const std::vector<TraceNode>& nodes, const std::vector<TraceTask>& tasks, ReplayConfig config,
                          const SeedRange& seeds, unsigned threads, ReplayProgress progress = {});

} // namespace gp::sim
