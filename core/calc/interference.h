// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#pragma once

#include "perfmodel.h"
#include "slots.h"

#include "model/assumptionset.h"
#include "model/gpuspec.h"

#include <map>
#include <string>
#include <vector>

namespace gp::calc {

/// The calibrated parameters of the interference model (docs/model-reference.md#sharing):
/// scenario assumptions, overridden per GPU by a catalog entry's "sharing" object.
struct InterferenceParams
{
    double switchCompute = 0.05;    ///< share of each turn compute-bound work loses: switch time / time_slice_ms
    double switchMemory = 0.184;    ///< ... memory-bound work loses: (switch + cache refill) / time_slice_ms
    double mpsContention = 0.86;    ///< extra DRAM traffic per overlapping memory-bound MPS client (L2 thrashing)
    double virtualizationIo = 0.06; ///< slowdown of a VM's host/PCIe and network transfers (IOMMU, virtual interrupts)
    /// The scenario's assumptions behind each parameter, less those the GPU's catalog
    /// calibration replaces (that value is the catalog's, not a knob of the scenario).
    AssumptionSet switchRead; ///< switchCompute and switchMemory: time_slice_ms, the switch and the refill
    AssumptionSet mpsRead;    ///< mpsContention
    AssumptionSet ioRead;     ///< virtualizationIo

    static InterferenceParams from(const std::map<std::string, double>& assumptions, const GpuSpec& gpu);
};

/// The parts a slowdown is made of, in multiples of a step: a sharing penalty's (its overhead
/// against the same resources dedicated; their sum is the penalty: `evaluate --json`
/// penalty_breakdown), or the share of the GPU a slot stands for (slowdown_vs_dedicated).
struct PenaltyBreakdown
{
    double compute = 0.0;         ///< SM time the unit does not get (its share, co-tenants' kernels)
    double memoryBandwidth = 0.0; ///< HBM bandwidth it does not get (its slices, contention, L2 thrashing)
    double contextSwitch = 0.0;   ///< time slices lost to switching and cache warm-up
    double pcieNetwork = 0.0;     ///< host/PCIe and network transfers: split links, IOMMU
    double staticLoss = 0.0;      ///< MIG: SMs and memory bandwidth handed to no instance
    double total() const { return compute + memoryBandwidth + contextSwitch + pcieNetwork + staticLoss; }
    PenaltyBreakdown scaled(double f) const
    {
        return {compute * f, memoryBandwidth * f, contextSwitch * f, pcieNetwork * f, staticLoss * f};
    }
};

/// One part of the penalty as every view names it: the `penalty_breakdown` key, the label and
/// what it counts (the workbench's tooltip; docs/model-reference.md#sharing says the same).
struct PenaltyPart
{
    const char* key;
    const char* label;
    const char* meaning;
    double PenaltyBreakdown::*value;
};
/// The five parts, in the order the views list them.
const std::vector<PenaltyPart>& penaltyParts();

/// A co-tenant of a unit on its GPU: the job it belongs to, what its bare-metal step is bound
/// by (shares of its time), whether it is busy (evaluate: 1; the Monte Carlo draws it) and
/// its MPS active-thread share.
struct CoTenant
{
    int job = -1;
    ResourceMix mix;
    double busy = 1.0;
    double threadShare = 1.0;
};

/// What one unit gets of its GPU and why. Its slowdown against a whole dedicated GPU has two
/// kinds of part (docs/model-reference.md, "Penalty and slowdown against dedicated GPUs"):
/// - `size`: what the slot stands for — a MIG instance's compute and memory slices, a
///   time-slicing replica's or vGPU's turn, an MPS client's fair split — as if dedicated;
/// - `parts`: the overhead of sharing on top — MIG static loss, context switches and cache
///   refills, MPS contention beyond the fair split, virtualisation I/O, a split PCIe link.
struct UnitInterference
{
    ResourceShares shares;
    PenaltyBreakdown parts;     ///< overhead, linearised: each resource's share of the bare step times its loss
    PenaltyBreakdown size;      ///< the slot's size, linearised the same way (compute, memory, PCIe turns)
    double slowdown = 1.0;      ///< the same linear estimate of shared / bare step time (1 + size + parts)
    double aloneSlowdown = 1.0; ///< the slowdown with every co-tenant idle
    std::vector<std::pair<int, double>> byNeighbour; ///< co-tenant job -> slowdown it adds
    AssumptionSet assumptionsRead; ///< the scenario's assumptions this case read (the explanations list them)
};

/// The interference one unit on `slot` with bare-metal resource mix `self` suffers from its
/// co-tenants on the same GPU (docs/model-reference.md#sharing):
/// - MIG: its SMs and memory slices exactly, spatial (small kernels fill a small instance),
///   static loss where it gets less than its compute slices' share, no interference except
///   on the GPU's PCIe link;
/// - time-slicing and time-sliced vGPU: a turn among the busy units (best-effort), the running
///   ones (equal-share) or every slot (fixed-share), less the switch; the PCIe link split in
///   turns; a vGPU's transfers pay the virtualisation I/O cost;
/// - MPS: SMs shared among the clients with kernels resident, up to the active-thread limit;
///   HBM bandwidth shared with memory-bound clients, plus the L2 thrashing they cause;
/// - passthrough: only the virtualisation I/O cost on transfers.
UnitInterference interferenceOf(const Slot& slot, const ResourceMix& self, const std::vector<CoTenant>& others,
                                const InterferenceParams& p);

} // namespace gp::calc
