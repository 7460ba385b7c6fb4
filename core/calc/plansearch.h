// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#pragma once

#include "evaluation.h"

#include "model/catalog.h"
#include "model/scenario.h"

#include <atomic>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace gp::calc {

enum class PlanObjective
{
    Cost,       ///< the least $/month, then the highest VRAM utilization
    Utilization ///< the highest VRAM utilization, then the least $/month
};

/// One plan the search evaluated: a complete scenario, its KPIs and what changed against the
/// scenario searched from.
struct PlanCandidate
{
    Scenario scenario;
    Kpis kpis;
    std::vector<std::string> changes; ///< "dgx-h100 nodes: MIG 2g.20gb ×2, 3g.40gb", "removed node-7"
};

struct PlanSearchOptions
{
    PlanObjective objective = PlanObjective::Cost;
    double timeLimitS = 10.0;
    std::uint64_t seed = 1;
    /// Constraints beyond every tenant's SLA: no plan whose largest penalty exceeds this
    /// (a fraction: 0.03 for 3 %); whether nodes may be removed.
    std::optional<double> maxPenalty;
    bool removeNodes = true;
    /// Also move jobs: each placed job's parallelism from the job search at its GPU count and at a
    /// half and a quarter of it, each serving job's deployments on the fewest GPUs that meet its
    /// objectives (jobsearch.h).
    bool jobMoves = true;
    /// Called after each improvement with the plans evaluated so far and the best one.
    std::function<void(int evaluated, const PlanCandidate& best)> progress;
    const std::atomic<bool>* stop = nullptr;
};

struct PlanSearchResult
{
    PlanCandidate current;             ///< the scenario as given
    std::vector<PlanCandidate> pareto; ///< plans within every SLA no other beats on utilization,
                                       ///< max penalty, $/month and fragmentation; best objective first
    int evaluated = 0;
    double elapsedMs = 0.0;
    bool cancelled = false;
    bool timedOut = false;
    /// The least $/month any plan can cost: the GPUs the jobs' memory needs at the scenario's
    /// cheapest GPU price (memory of every unit on the GPU kind with the most usable memory).
    double costLowerBoundUsd = 0.0;
    std::string infeasibleReason; ///< when no plan meets every SLA: the closest one's shortfall
};

/// Searches sharing settings and cluster size for a scenario (docs/model-reference.md, "Plan
/// search"): per group of identical nodes (GPU model, count and template) every setting its GPU
/// offers — bare metal, time-slicing 2/4/8 replicas, MPS at 50 % and 25 % of the SMs, every
/// maximal valid MIG layout (mixed profiles included), every vGPU profile — removing one of the
/// group's nodes (an eighth of them at once in groups of 16 or more), and each job run another
/// way (options.jobMoves); a seeded first-improvement local search from the scenario as given, every
/// plan scored by evaluate. A plan is admissible when no job is unplaced and none misses its
/// tenant's SLA; the objective then orders admissible plans. It ends at a local optimum (no
/// move improves the best plan) or at the time limit; deterministic for a seed when it ends at
/// the optimum.
PlanSearchResult searchPlan(const Scenario& scenario, const Catalog& catalog, const PlanSearchOptions& options);

} // namespace gp::calc
