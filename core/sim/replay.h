// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#pragma once

#include "model/limits.h"
#include "model/trace.h"

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace gp::sim {

/// Scheduling policies of Weng et al., "Beware of Fragmentation: Scheduling GPU-Sharing
/// Workloads with Fragmentation Gradient Descent", USENIX ATC '23 (§5 baselines and FGD).
enum class ReplayPolicy
{
    Random,
    DotProd,
    Clustering,
    Packing,
    BestFit,
    Fgd
};

/// The policies in the paper's order, with the command line's name and the paper's.
struct ReplayPolicyName
{
    const char* key;   ///< `gpuplan-cli replay --policy` name
    const char* label; ///< the paper's name
    ReplayPolicy policy;
};
inline constexpr ReplayPolicyName kReplayPolicies[] = {{"random", "Random", ReplayPolicy::Random},
                                                       {"dotprod", "DotProd", ReplayPolicy::DotProd},
                                                       {"clustering", "GpuClustering", ReplayPolicy::Clustering},
                                                       {"packing", "GpuPacking", ReplayPolicy::Packing},
                                                       {"bestfit", "BestFit", ReplayPolicy::BestFit},
                                                       {"fgd", "FGD", ReplayPolicy::Fgd}};

/// The most tasks one replay places (the file's and the copies); `gpuplan-cli replay` refuses a
/// trace and cluster that would need more (a tiny mean request against a huge cluster).
inline constexpr std::size_t kMaxReplayTasks = limits::kMaxReplayTasks;

/// How many tasks the replay of `tasks` on a cluster of `gpuCapacityMilli` at `inflate` will
/// place, about (the file's, or the copies reaching inflate x capacity at the file's mean request).
double expectedReplayTasks(const std::vector<TraceTask>& tasks, double gpuCapacityMilli, double inflate);

struct ReplayConfig
{
    ReplayPolicy policy = ReplayPolicy::Fgd;
    double inflate = 1.3; ///< arrived GPU request, as a multiple of the cluster's GPU capacity
    std::uint64_t seed = 1;
};

/// The paper's protocol as the authors' simulator runs it (docs/validation.md): the task file
/// plus random copies up to inflate x capacity, shuffled, placed one at a time by the policy's
/// integer score (ties to the first node by name), none departing.
struct ReplayResult
{
    std::vector<int> arrivedPct;              ///< 0, 1, ... up to inflate x 100
    std::vector<double> allocationPct;        ///< allocated GPU capacity, % of the cluster's
    std::vector<double> fragmentationPct;     ///< fragmented GPU capacity, % of the cluster's
    std::vector<double> fragmentationRatePct; ///< fragmented, % of the unallocated capacity
    int tasks = 0;                            ///< tasks drawn
    int failedTasks = 0;                      ///< tasks that fit nowhere
    double elapsedMs = 0.0;
};

ReplayResult replayTrace(const std::vector<TraceNode>& nodes, const std::vector<TraceTask>& tasks,
                         const ReplayConfig& config);

} // namespace gp::sim
