// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#pragma once

// The state evaluate() shares between its steps (evaluate.cpp): the job being placed, what
// each GPU carries, and the pieces that live in their own files (evaluatecomm.cpp, the
// bandwidth a job's collectives see and the traffic it puts on the fabric; evaluatekpis.cpp,
// the cluster's KPIs and waste). Internal to core/calc.

#include "evaluation.h"
#include "fabricindex.h"
#include "inventory.h"
#include "memorymodel.h"
#include "model/units.h"
#include "modelsize.h"
#include "perfmodel.h"
#include "placement.h"
#include "slots.h"

#include "model/catalog.h"
#include "model/scenario.h"

#include <optional>
#include <set>
#include <vector>

namespace gp::calc::detail {

constexpr double kHoursPerMonth = Inventory::kHoursPerMonth;

struct JobRef
{
    int tenant;
    int job;
    std::optional<ModelArchitecture> arch;
    MemoryBreakdown memory;
    double servingFixedBytes = 0.0;    ///< serving: per GPU outside the KV cache
    double servingWantedKvBytes = 0.0; ///< serving: KV cache of its whole concurrency per replica
};

/// Helper state shared by the per-job and cluster computations.
struct Context
{
    const Scenario& s;
    const Catalog& c;
    std::vector<Slot> slots;
    std::vector<int> gpuBase; // first global GPU index of each node
    std::vector<double> gpuUsed;
    std::vector<int> gpuActive;
    std::vector<bool> gpuShared; // has a slot without memory isolation in use
    std::vector<double> slotUsed;
    FabricIndex fabric;
    std::vector<double> nodePrice; // $/GPU-hour of each node's GPUs

    int globalGpu(const Slot& sl) const { return gpuBase[static_cast<std::size_t>(sl.node)] + sl.gpu; }
    const Node& node(int i) const { return s.topology.nodes[static_cast<std::size_t>(i)]; }
    double price(int nodeIndex) const { return nodePrice[static_cast<std::size_t>(nodeIndex)]; }
};

/// What the per-job step adds up for the cluster step.
struct JobTotals
{
    std::vector<double> linkLoadGbps; ///< per topology link
    std::vector<double> tenantCost;   ///< $/month per tenant
    double penaltySum = 0.0;
    double flopsShare = 0.0; ///< GPU share × MFU over placed jobs
    double servingAttainment = 0.0;
    int placed = 0;
};

/// The bandwidth a job's collectives see on its slots: NVLink within one domain, PCIe within
/// a node otherwise, the NICs (GPUDirect RDMA or not) and the fabric's oversubscription across
/// nodes.
CommBandwidth commFor(const Context& cx, const std::vector<int>& slots, const GpuSpec& gpu, double linkEff,
                      double noGdrFactor);

/// The traffic a multi-node job sends off each of its nodes per second: its data-parallel and
/// pipeline bytes per step over the node's uplinks and, across leaves, the leaf uplinks.
void addJobTraffic(const Context& cx, const std::vector<int>& slots, const std::set<int>& jobNodes, JobResult& r,
                   std::vector<double>& linkLoadGbps);

/// The per-GPU and per-link results, each tenant's cost, and the cluster KPIs and waste
/// (docs/model-reference.md, "KPIs"), from what placement and the per-job step found.
void finishEvaluation(Evaluation& ev, const Context& cx, const PlacementOutcome& po,
                      const std::vector<JobDemand>& ordered, const JobTotals& totals);

/// Free memory slices of MIG GPUs into which none of the scenario's MIG profiles for that GPU
/// model can be placed, at the start slices NVIDIA's placement rules allow.
int migUnusableSlices(const Scenario& s, const Catalog& c);

} // namespace gp::calc::detail
