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

/// Which of a job's settings the plan search may change (issue 36). Parallelism: a training job's
/// TP, PP, DP, sharding and recomputation, a serving job's TP and replicas; batch: a training
/// job's micro-batch, a serving job's batch cap; precision: a serving job's weights and KV cache
/// (it changes the model's quality, so it is off unless asked for). None of them: the jobs stay
/// exactly as given, pins included.
struct JobChangeKinds
{
    bool parallelism = true;
    bool batch = true;
    bool precision = false;
    bool any() const { return parallelism || batch || precision; }
    bool operator==(const JobChangeKinds&) const = default;
};

/// "parallelism,batch,precision" (any order, at least one) → the kinds; nullopt, with the first
/// word that is not a kind in `bad` ("" when the list is empty), otherwise.
std::optional<JobChangeKinds> parseJobChangeKinds(const std::string& list, std::string* bad = nullptr);
/// The kinds as that list ("parallelism,batch"; "none").
std::string jobChangeKindsText(const JobChangeKinds& kinds);

/// One change a plan makes against the scenario searched from. A job's: `job` is its id and
/// `field` one of "parallelism", "batch", "precision" or "pin" (a pin lifted because its node,
/// GPU or MIG instance went). The cluster's: `job` is empty and `field` names the group of
/// identical nodes, "sharing of dgx-h100 nodes" or "number of dgx-h100 nodes". `from` and `to`
/// are readable values; `reason` says why the change helps ("frees 2 GPUs", "saves $17,462/month").
struct PlanChange
{
    std::string job;
    std::string field;
    std::string from;
    std::string to;
    std::string reason;
    bool operator==(const PlanChange&) const = default;
};

/// One line: "chat-70b precision: fp8 → int8 (frees 2 GPUs)", "number of dgx-h100 nodes: 8 → 7
/// (saves $17,462/month; removes node-008)".
std::string changeText(const PlanChange& change);

/// One plan the search evaluated: a complete scenario, its KPIs and what changed against the
/// scenario searched from (the cluster's changes first, then the jobs' in scenario order).
struct PlanCandidate
{
    Scenario scenario;
    Kpis kpis;
    std::vector<PlanChange> changes;
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
    /// What the job moves may change (jobMoves off, or no kind: no job changes at all).
    JobChangeKinds allow;
    /// Spare capacity kept free for failures and growth, a fraction of the plan's GPUs: a plan
    /// is admissible only if its allocation ratio (the GPU share jobs hold ÷ its GPUs) is at
    /// most 1 − headroom — or, where the scenario as given already holds more, at most its own
    /// (the search adds no nodes, so it never takes headroom away but cannot create it).
    double headroom = 0.10;
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
    /// The largest allocation ratio a plan may have: 1 − headroom, or the scenario's own if higher.
    double allocationLimit = 1.0;
};

/// Searches sharing settings and cluster size for a scenario (docs/model-reference.md, "Plan
/// search"): per group of identical nodes (GPU model, count and template) every setting its GPU
/// offers — bare metal, time-slicing 2/4/8 replicas, MPS at 50 % and 25 % of the SMs, every
/// maximal valid MIG layout (mixed profiles included), every vGPU profile — removing one of the
/// group's nodes (an eighth of them at once in groups of 16 or more), and each job run another
/// way (options.jobMoves); a seeded first-improvement local search from the scenario as given, every
/// plan scored by evaluate. A plan is admissible when no job is unplaced, none misses its
/// tenant's SLA and it keeps the headroom; the objective then orders admissible plans, and among
/// plans equal on it (cost and SLA outcome) the one with the fewest changes wins: the best plan
/// found has each change undone in turn while that keeps it as good, and the Pareto set counts
/// changes as one more axis. It ends at a local optimum (no move improves the best plan) or at
/// the time limit; deterministic for a seed when it ends at the optimum.
PlanSearchResult searchPlan(const Scenario& scenario, const Catalog& catalog, const PlanSearchOptions& options);

} // namespace gp::calc
