// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#pragma once

#include "interference.h"
#include "memorymodel.h"
#include "perfmodel.h"
#include "servingmodel.h"
#include "tokencost.h"

#include "model/assumptionset.h"
#include "model/issue.h"

#include <optional>
#include <string>
#include <vector>

namespace gp::calc {

/// Where one unit of a placed job runs.
struct UnitLocation
{
    std::string node;
    int gpu = 0;
    std::string slot; ///< "GPU", "3g.40gb@0", "replica 1", ...
};

struct JobResult
{
    std::string id;
    std::string name;
    std::string tenant;
    bool placed = false;
    std::string reason; ///< why not placed
    std::vector<UnitLocation> placement;
    MemoryBreakdown memory;           ///< per GPU, most loaded stage
    double capacityPerGpuBytes = 0.0; ///< of the smallest slot it got
    PerfResult perf;                  ///< on its slots, shared
    PerfResult bareMetal;             ///< same job, same GPUs, unshared
    /// The overhead of sharing against the same resources dedicated: shared step time / the
    /// step on its slots' share of the GPU as if dedicated - 1 (docs/model-reference.md).
    double penalty = 0.0;
    PenaltyBreakdown penaltyBreakdown; ///< the penalty by resource (sums to it)
    /// The slot's size as a sizing choice: the step on its slots' share as if dedicated / the
    /// step on whole dedicated GPUs - 1; (1 + penalty)(1 + this) = shared / bare-metal step.
    double slowdownVsDedicated = 0.0;
    std::string noisiestNeighbour;      ///< the co-tenant job that adds most to it ("" when none)
    double noisiestNeighbourCost = 0.0; ///< ... and what it adds (fraction of the bare step)
    double idleCotenantsFactor = 1.0;   ///< step with every co-tenant idle / with all busy (simulation)
    /// P(a co-tenant on its GPU is busy): the mean of its co-tenants' tenants' busy fractions
    /// (Tenant::busyFraction, else cotenant_busy_fraction); what the simulation draws and what
    /// weighs its mean step between all idle and all busy (meanStepFactor). 0 without co-tenants.
    double coTenantBusy = 0.0;
    /// Its mean step over its co-tenants' busy and idle time / the step with all of them busy:
    /// idleCotenantsFactor + (1 − idleCotenantsFactor) · coTenantBusy (1 without co-tenants).
    double meanStepFactor() const { return idleCotenantsFactor + (1.0 - idleCotenantsFactor) * coTenantBusy; }
    bool oomRisk = false;               ///< a GPU it uses has no memory isolation and is overcommitted
    double gpuEquivalents = 0.0;        ///< Σ slot shares of a GPU it holds
    double costPerMonthUsd = 0.0;       ///< its GPU share at the cluster's prices
    double overheadPerMonthUsd = 0.0;   ///< of it, what sharing burns: cost × penalty ÷ (1 + penalty)
    std::optional<double> costUsd;      ///< training: over its whole run
    std::optional<TokenCost> tokenCost; ///< serving: its cost per input and output token
    std::optional<double> extraDays;    ///< training: what the penalty adds
    bool meetsSla = true;
    std::optional<ServingResult> serving;         ///< inference jobs that were placed
    std::string gpuId;                            ///< the GPU model it runs on ("" when not placed)
    ServingPlacement servingPlacement;            ///< what its placement gave the serving model
    std::vector<std::pair<int, double>> linkGbps; ///< its average load on each link it uses (link index)
    /// The link its tensor-parallel groups' all-reduces run over: "nvlink", "pcie" (a group
    /// spans GPUs of one node that reach each other over PCIe only), "" (tp 1 or not placed).
    std::string tpLink;
    double tpLinkGBps = 0.0; ///< that link's bus bandwidth per GPU (GB/s, one direction)
    /// Expert parallelism (MoE, ep > 1): the ep size and the link its all-to-alls run over,
    /// "nvlink" (every EP group inside one NVLink domain) or "fabric"; "" with ep 1.
    int ep = 1;
    std::string epLink;
    double epLinkGBps = 0.0;
    double tpCommShare = 0.0; ///< the TP collectives' exposed time over its step (or time per token)
    // Issue 37: context parallelism and the pipeline's stages.
    int cp = 1;                   ///< context-parallel ranks per model replica
    std::vector<int> stageLayers; ///< blocks per pipeline stage (the even split unless given); empty without a model
    /// The link its context-parallel ring runs over: "nvlink", "pcie", "network"; "" (cp 1 or not placed).
    std::string cpLink;
    double cpLinkGBps = 0.0; ///< that link's bandwidth per GPU (GB/s, one direction)
    /// The registered assumptions the calculation read for its memory per GPU (what placement
    /// reserved for it): the explanations of memory figures list these.
    AssumptionSet memoryAssumptions;
    /// ... for its step or serving figures on its slots and on bare metal, and for what its
    /// co-tenants take (its penalty, MFU, latencies; docs/model-reference.md, "What an explanation lists").
    AssumptionSet performanceAssumptions;
};

/// The warning a job whose TP groups run over PCIe carries: "tensor parallelism over PCIe at
/// N GB/s: collectives cost X % of its step"; "" for any other job.
std::string tpLinkWarning(const JobResult& j);

/// Whether a placed job's tenant judges it by the penalty limit (max_penalty_pct): every job
/// but a serving job whose tenant sets latency objectives, which those judge.
inline bool judgedByPenalty(const JobResult& j, const Sla& sla)
{
    return !(j.serving && (sla.ttftP99Ms || sla.itlP99Ms));
}

struct LinkResult
{
    std::string id;
    double loadGbps = 0.0;
    double utilization = 0.0; ///< load / bandwidth
};

struct GpuResult
{
    std::string node;
    int gpu = 0;
    double usedBytes = 0.0;
    double capacityBytes = 0.0;
    bool oomRisk = false; ///< no memory isolation and co-tenants' memory exceeds it
};

/// Where the money goes: four parts that do not overlap and add up to the bill
/// (docs/model-reference.md, "Cost decomposition"). Every GPU is paid whole; the share a job
/// holds is useful or sharing overhead, the share no job holds is idle or stranded.
struct CostBreakdown
{
    double usefulUsd = 0.0;   ///< held GPU share doing the job's work: held share ÷ (1 + penalty)
    double idleUsd = 0.0;     ///< free GPU share a job of the mix could use (spare capacity, free GPUs)
    double overheadUsd = 0.0; ///< held GPU share sharing burns: held share × penalty ÷ (1 + penalty)
    double strandedUsd = 0.0; ///< free share on a GPU that holds a job, which no job of the mix can use
    /// Idle + sharing overhead + stranded: never more than the bill.
    double waste() const { return idleUsd + overheadUsd + strandedUsd; }
    /// The four parts: the bill.
    double total() const { return usefulUsd + waste(); }
    CostBreakdown& operator+=(const CostBreakdown& o)
    {
        usefulUsd += o.usefulUsd;
        idleUsd += o.idleUsd;
        overheadUsd += o.overheadUsd;
        strandedUsd += o.strandedUsd;
        return *this;
    }
};

struct Kpis
{
    double vramUtilization = 0.0;      ///< memory placed jobs need / total VRAM
    double allocationRatio = 0.0;      ///< GPU share handed to jobs / GPUs
    double allocatedMemoryBytes = 0.0; ///< memory of the slots jobs hold (a shared GPU's by held share)
    double unusedMemoryBytes = 0.0;    ///< of it, what the jobs do not use: headroom, not dollars
    double fragmentation = 0.0;        ///< free GPU share the job mix cannot use / free GPU share
    int migUnusableSlices = 0;         ///< free MIG memory slices no profile of the scenario fits
    double computeUtilization = 0.0;
    double meanPenalty = 0.0;
    double maxPenalty = 0.0;
    bool meetsTarget = false; ///< vram utilization >= 0.8 and mean penalty < 0.03
    double costPerMonthUsd = 0.0;
    CostBreakdown costBreakdown; ///< $/month: useful + idle + overhead + stranded = costPerMonthUsd
    int unplacedJobs = 0;
    int slaViolations = 0; ///< jobs missing their tenant's SLA: not placed, too slow or past the deadline
    int oomRiskGpus = 0;
    int servingJobs = 0; ///< inference jobs, placed or not
    /// Serving jobs whose SLO attainment has a value: with an objective, saturated, or not placed.
    int servingJobsJudged = 0;
    /// Mean over the judged serving jobs of their slo_attainment (0 for one saturated or not
    /// placed); n/a (1, not shown) without a judged job.
    double servingSloAttainment = 1.0;
    double servingTtftP99S = 0.0; ///< the worst P99 TTFT of the serving jobs (1e30: one saturated or not placed)
    double servingItlP99S = 0.0;  ///< the worst P99 inter-token latency of the serving jobs (1e30: one not placed)
    std::optional<TokenCost> tokenCost; ///< Σ over the placed serving jobs (none without one)

    /// $ wasted per month: idle + sharing overhead + stranded (≤ costPerMonthUsd).
    double wastePerMonthUsd() const { return costBreakdown.waste(); }
    /// Unused memory ÷ allocated memory (0 when nothing is allocated).
    double unusedMemoryFraction() const
    {
        return allocatedMemoryBytes > 0 ? unusedMemoryBytes / allocatedMemoryBytes : 0.0;
    }
};

/// Everything evaluate() computes for one scenario: a value the views and the CLI publish.
struct Evaluation
{
    Kpis kpis;
    std::vector<JobResult> jobs;
    std::vector<LinkResult> links;
    std::vector<GpuResult> gpus;
    std::vector<std::pair<std::string, double>> tenantCostPerMonthUsd;
    /// Per tenant, its cost's parts: useful and sharing overhead (a tenant holds no idle or
    /// stranded share: those are the plan's "not allocated" part, kpis.costBreakdown's).
    std::vector<std::pair<std::string, CostBreakdown>> tenantCostBreakdown;
    /// Per tenant with a placed serving job: Σ token cost over its serving jobs.
    std::vector<std::pair<std::string, TokenCost>> tenantTokenCost;
    double elapsedMs = 0.0;
    double placementMs = 0.0; ///< of elapsedMs, placing the jobs (placeJobs)
    /// The scenario's own calibration profile the figures were computed with ("NAME vN",
    /// profileLabel), "" for none; and its values the catalog could not take (left at default).
    std::string calibration;
    Issues calibrationIssues;
};

} // namespace gp::calc
