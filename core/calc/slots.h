// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#pragma once

#include "model/catalog.h"
#include "model/scenario.h"

#include <map>
#include <string>
#include <vector>

namespace gp::calc {

/// One place a unit of work (one GPU's share of a job) can go: a whole GPU, a MIG instance,
/// a vGPU, a time-slicing replica or an MPS client. Built from the sharing configuration.
struct Slot
{
    int node = 0;  ///< index into topology.nodes
    int gpu = 0;   ///< GPU index within the node
    int index = 0; ///< instance / replica / client index within the GPU
    SharingMode mode = SharingMode::Exclusive;
    double capacityBytes = 0.0;  ///< memory the slot can use
    bool memoryIsolated = true;  ///< false: co-tenants share the GPU's memory (time-slicing, MPS without limit)
    double gpuFraction = 1.0;    ///< share of the GPU it stands for (cost, allocation ratio)
    double smShare = 1.0;        ///< MIG: the instance's SMs / the GPU's SMs
    double bandwidthShare = 1.0; ///< MIG: memory slices / 8
    bool peerToPeer = true;      ///< NVLink peer access (not on MIG instances or fractional vGPUs)
    int fixedShareOf = 0;        ///< vGPU fixed-share scheduler: the GPU's time is split this many ways
    VgpuScheduler vgpuScheduler = VgpuScheduler::BestEffort; ///< vGPU: its GPU's time-sliced scheduler
    const std::string* profile = nullptr;                    ///< MIG or vGPU profile name (owned by the catalog)
    int start = 0;                                           ///< MIG start slice
    /// "GPU", "3g.40gb@0", "A100-10C #1", "replica 2", "MPS client 0" (built on demand:
    /// evaluation creates tens of thousands of slots and reads few labels).
    std::string label() const;
};

/// Whether a slot gives a tenant the isolation it demands (docs/model-reference.md, "Isolation"):
/// memory — the slot's memory is its own (not time-slicing, not MPS without a memory limit);
/// hardware — SMs, memory and faults are its own (a whole GPU, bare metal or passed through, or a
/// MIG instance).
inline bool slotGives(const Slot& s, Isolation isolation)
{
    switch (isolation) {
    case Isolation::None: return true;
    case Isolation::Memory: return s.memoryIsolated;
    case Isolation::Hardware:
        return s.mode == SharingMode::Exclusive || s.mode == SharingMode::Passthrough || s.mode == SharingMode::Mig;
    }
    return false;
}

/// Every slot of every GPU of the scenario, node by node, GPU by GPU.
std::vector<Slot> buildSlots(const Scenario& scenario, const Catalog& catalog);

/// The NVLink domain size of a node: its template's scale-up domain, else the whole node
/// for NVLink/NVSwitch GPUs and 1 for PCIe-only GPUs.
int nvlinkDomainGpus(const Node& node, const Catalog& catalog);

/// The GPUs of the rack-scale NVLink domain `node` is a tray of (its group is of kind
/// "nvlink_domain": the GPUs of every node in that group), or 0 outside one.
int rackDomainGpus(const Topology& topology, const Node& node);

/// Memory the slots offer to jobs, summed over GPUs: on a GPU whose slots share its memory
/// (time-slicing, MPS without a limit) the GPU's usable memory once; otherwise the sum of
/// its slots' capacities (MIG instances' usable memory, vGPU framebuffers). Memory a sharing
/// mode sets aside — MIG slices in no instance, the difference between the instances' and the
/// whole GPU's usable memory — is not offered.
double offeredMemoryBytes(const std::vector<Slot>& slots);

} // namespace gp::calc
