// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#pragma once

// The stages of evaluate() and the state they hand on (docs/architecture.md §2). evaluate.cpp
// runs them in order:
//   1. jobDemands          memory per GPU of every job (evaluatestages.cpp)
//   2. orderAndPlace       placement order, then the placement policy
//   3. gpuLoads            what each GPU carries
//   4. bareMetalBaselines  each placed job on whole GPUs of its kind
//   5. servingOnSlots      a serving job on the slots it got (evaluatejobs.cpp)
//   6. trainingOnSlots     a training job on the slots it got
//   7. clusterKpis         per-GPU and per-link results, tenants' cost, KPIs, waste (evaluatekpis.cpp)
// Internal to core/calc.

#include "evaluate.h"
#include "evaluateparams.h"
#include "evaluation.h"
#include "fabricindex.h"
#include "interference.h"
#include "inventory.h"
#include "memorymodel.h"
#include "model/units.h"
#include "modelsize.h"
#include "perfmodel.h"
#include "placement.h"
#include "servingcache.h"
#include "slots.h"

#include "model/catalog.h"
#include "model/scenario.h"

#include <map>
#include <optional>
#include <set>
#include <vector>

namespace gp::calc::detail {

constexpr double kHoursPerMonth = Inventory::kHoursPerMonth;

/// Element `i` of `v` (the stages index by int, as slots and placement do).
template <class V> decltype(auto) at(V& v, int i) { return v[static_cast<std::size_t>(i)]; }

/// The scenario and its hardware as every stage reads it: built once (contextOf), then const.
struct Context
{
    const Scenario& s;
    const Catalog& c;
    const EvaluateParams& params;
    std::vector<Slot> slots;
    FabricIndex fabric;
    std::vector<int> gpuBase;      ///< first global GPU index of each node
    std::vector<double> nodePrice; ///< $/GPU-hour of each node's GPUs
    int gpus = 0;                  ///< GPUs of all nodes

    int globalGpu(const Slot& sl) const { return at(gpuBase, sl.node) + sl.gpu; }
    const Node& node(int i) const { return at(s.topology.nodes, i); }
    double price(int nodeIndex) const { return at(nodePrice, nodeIndex); }
};

Context contextOf(const Scenario& s, const Catalog& c, const EvaluateParams& params);

/// One job as the stages see it, in placement order: what it needs, where placement put it,
/// and its bare-metal baseline.
struct PlacedJob
{
    const Tenant* tenant = nullptr;
    const Job* job = nullptr;
    std::optional<ModelArchitecture> arch; ///< nullopt: the model preset is unknown
    MemoryBreakdown memory;
    double servingFixedBytes = 0.0;          ///< serving: per GPU outside the KV cache
    double servingWantedKvBytes = 0.0;       ///< serving: KV cache of its whole concurrency per replica
    const JobDemand* demand = nullptr;       ///< what placement was asked for (Jobs::demands)
    const JobPlacement* placement = nullptr; ///< what it got (PlacementOutcome::jobs)
    const GpuSpec* gpu = nullptr;            ///< runs(): the GPU kind of its first slot
    CommBandwidth comm;                      ///< runs(): what its collectives see on its slots
    PerfResult bare;                         ///< runs(): on whole GPUs of its kind
    AssumptionSet memoryAssumptions;         ///< what its memory figure read (JobMemoryNeed)

    bool runs() const { return placement->placed && arch.has_value(); }
    bool inference() const { return job->kind == JobKind::Inference && job->inference.has_value(); }
    bool wantsKvCache() const { return servingWantedKvBytes > 0; }
};

/// Every job's record and its demand; the demands stay one vector, as placement and the
/// fragmentation measure take them.
struct Jobs
{
    std::vector<PlacedJob> records;
    std::vector<JobDemand> demands;
};

/// What each GPU (global index) and slot carries once the jobs are placed.
struct GpuLoads
{
    std::vector<double> usedBytes;
    std::vector<int> activeUnits;
    std::vector<bool> shared; ///< has a slot without memory isolation in use
    std::vector<double> slotUsedBytes;
    /// Serving engines on GPUs without memory isolation: the memory outside every KV cache, and
    /// the KV caches they would fill at full concurrency.
    std::vector<double> fixedBytes;
    std::vector<double> wantedKvBytes;
    /// A GPU's slots are consecutive in Context::slots: the first of GPU g is firstSlot[g], one
    /// past its last firstSlot[g + 1].
    std::vector<int> firstSlot;
};

/// What the per-job stages add up for the cluster stage.
struct JobTotals
{
    std::vector<double> linkLoadGbps;                      ///< per topology link
    std::vector<CostBreakdown> tenantCost;                 ///< $/month per tenant: useful and sharing overhead
    std::vector<std::optional<TokenCost>> tenantTokenCost; ///< per tenant with a placed serving job
    double penaltySum = 0.0;
    double flopsShare = 0.0;        ///< GPU share × MFU over placed jobs
    double servingAttainment = 0.0; ///< over the judged placed serving jobs
    int servingJudged = 0;          ///< placed serving jobs with a judged SLO attainment
    int servingPlaced = 0;
    int placed = 0;
};

/// The slowest unit of a placed job against its co-tenants, and what its units add up to.
struct UnitsOfJob
{
    UnitInterference worst;
    double pricePerHour = 0.0;
    std::set<int> nodes;
};

// 1.-4. (evaluatestages.cpp)
/// Every job's record and demand, in the scenario's order.
Jobs jobDemands(const Context& cx);
/// Sorts the jobs into placement order (pinned, then tenant priority, then larger first) and
/// places them; `placementMs` is the policy's time alone.
PlacementOutcome orderAndPlace(const Context& cx, Jobs& jobs, PlacementPolicy policy, double& placementMs);
/// What each GPU and slot carries (placement must have run).
GpuLoads gpuLoads(const Context& cx, const Jobs& jobs);
/// Each placed job on whole GPUs of its kind: its bare-metal step, and the resource mix its
/// co-tenants feel (interference.h).
void bareMetalBaselines(const Context& cx, Jobs& jobs, ServingCache& cache);
/// The assumptions a placed job's step or serving figures read, on its slots as on bare metal
/// (JobResult::performanceAssumptions, with what interferenceOf read for its units).
AssumptionSet stepAssumptionsOf(const PlacedJob& job, const JobResult& r);

// 5.-6. (evaluatejobs.cpp)
/// Every job on its slots against its baseline, into ev.jobs and the totals.
JobTotals jobsOnSlots(const Context& cx, Jobs& jobs, const PlacementOutcome& po, GpuLoads& loads, ServingCache& cache,
                      Evaluation& ev);
void servingOnSlots(const Context& cx, const PlacedJob& job, const UnitsOfJob& units, GpuLoads& loads,
                    ServingCache& cache, JobResult& r);
void trainingOnSlots(const Context& cx, const PlacedJob& job, const UnitsOfJob& units, JobResult& r);

// 7. (evaluatekpis.cpp)
/// The per-GPU and per-link results, each tenant's cost, and the cluster KPIs and waste
/// (docs/model-reference.md, "KPIs"), from what placement and the per-job stages found.
void clusterKpis(Evaluation& ev, const Context& cx, const PlacementOutcome& po, const Jobs& jobs, const GpuLoads& loads,
                 const JobTotals& totals);

/// Free memory slices of MIG GPUs into which none of the scenario's MIG profiles for that GPU
/// model can be placed, at the start slices NVIDIA's placement rules allow.
int migUnusableSlices(const Scenario& s, const Catalog& c);

/// The bandwidth a job's collectives see on its slots: NVLink within one domain, PCIe within
/// a node otherwise, the NICs (GPUDirect RDMA or not) and the fabric's oversubscription across
/// nodes (evaluatecomm.cpp).
CommBandwidth commFor(const Context& cx, const std::vector<int>& slots, const GpuSpec& gpu, const Parallelism& par);

/// The traffic a multi-node job sends off each of its nodes per second: its data-parallel and
/// pipeline bytes per step over the node's uplinks and, across leaves, the leaf uplinks.
void addJobTraffic(const Context& cx, const std::vector<int>& slots, const std::set<int>& jobNodes, JobResult& r,
                   std::vector<double>& linkLoadGbps);

/// What one job needs per GPU (evaluate.h's jobMemoryNeed) with the assumptions already read.
JobMemoryNeed jobMemoryNeed(const Job& job, const EvaluateParams& params, const Catalog& c);

} // namespace gp::calc::detail
