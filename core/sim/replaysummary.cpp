// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#include "replaysummary.h"

#include <algorithm>
#include <atomic>
#include <charconv>
#include <chrono>
#include <cmath>
#include <thread>

namespace gp::sim {

namespace {

bool readNumber(const std::string& s, std::uint64_t& out)
{
    if (s.empty())
        return false;
    const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), out);
    return ec == std::errc() && end == s.data() + s.size();
}

Spread spreadOf(const std::vector<ReplayResult>& runs, std::size_t steps,
                const std::vector<double> ReplayResult::*series)
{
    Spread s;
    for (std::size_t i = 0; i < steps; ++i) {
        double sum = 0.0, sq = 0.0;
        for (const ReplayResult& r : runs)
            sum += (r.*series)[i];
        const double mean = sum / static_cast<double>(runs.size());
        for (const ReplayResult& r : runs)
            sq += ((r.*series)[i] - mean) * ((r.*series)[i] - mean);
        s.mean.push_back(mean);
        s.sd.push_back(std::sqrt(sq / static_cast<double>(runs.size())));
    }
    return s;
}

} // namespace

std::string parseSeedRange(const std::string& text, SeedRange& range)
{
    const std::size_t dash = text.find('-');
    const std::string a = text.substr(0, dash), b = dash == std::string::npos ? a : text.substr(dash + 1);
    SeedRange r;
    if (!readNumber(a, r.first) || !readNumber(b, r.last))
        return "'" + text + "' is not a seed range: give A-B with whole numbers, e.g. 42-51";
    if (r.last < r.first)
        return "'" + text + "' is reversed: the first seed must not be above the last";
    if (r.last - r.first >= kMaxSeeds) // 0-18446744073709551615 has 2^64 seeds: more than a uint64 counts
        return "'" + text + "' has more than " + std::to_string(kMaxSeeds) + " seeds; at most " +
               std::to_string(kMaxSeeds) + " in one range";
    range = r;
    return {};
}

ReplaySummary replaySeeds(const std::vector<TraceNode>& nodes, const std::vector<TraceTask>& tasks, ReplayConfig config,
                          const SeedRange& seeds, unsigned threads, ReplayProgress progress)
{
    const auto start = std::chrono::steady_clock::now();
    std::vector<ReplayResult> runs(seeds.count());
    std::atomic<std::size_t> next{0};
    auto work = [&] {
        for (std::size_t i = next++; i < runs.size(); i = next++) {
            if (progress.stop && progress.stop->load())
                return;
            ReplayConfig c = config;
            c.seed = seeds.first + i;
            runs[i] = replayTrace(nodes, tasks, c);
            if (progress.done)
                ++*progress.done;
        }
    };
    std::vector<std::thread> pool;
    for (unsigned t = 1; t < std::min<unsigned>(std::max(threads, 1U), static_cast<unsigned>(runs.size())); ++t)
        pool.emplace_back(work);
    work();
    for (std::thread& t : pool)
        t.join();

    ReplaySummary s;
    s.seeds = seeds;
    if (progress.stop && progress.stop->load())
        return s; // stopped: some runs never ran
    std::size_t steps = runs.front().arrivedPct.size();
    for (const ReplayResult& r : runs)
        steps = std::min(steps, r.arrivedPct.size());
    s.arrivedPct.assign(runs.front().arrivedPct.begin(),
                        runs.front().arrivedPct.begin() + static_cast<std::ptrdiff_t>(steps));
    s.allocationPct = spreadOf(runs, steps, &ReplayResult::allocationPct);
    s.fragmentationPct = spreadOf(runs, steps, &ReplayResult::fragmentationPct);
    s.fragmentationRatePct = spreadOf(runs, steps, &ReplayResult::fragmentationRatePct);
    for (const ReplayResult& r : runs) {
        s.tasksMean += r.tasks / static_cast<double>(runs.size());
        s.failedTasksMean += r.failedTasks / static_cast<double>(runs.size());
    }
    s.elapsedMs = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    return s;
}

} // namespace gp::sim
