// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#pragma once

#include "fabricindex.h"
#include "slots.h"
#include "workloadmix.h"

#include "model/catalog.h"
#include "model/scenario.h"

#include <array>
#include <optional>
#include <string>
#include <vector>

namespace gp::calc {

struct JobPlacement
{
    bool placed = false;
    std::string reason;     ///< why not, when not placed
    std::vector<int> slots; ///< indices into the slot list, group by group
};

struct PlacementOutcome
{
    std::vector<JobPlacement> jobs; ///< one per demand, same order
    std::vector<int> owner;         ///< per slot: the demand index using it, or -1
};

/// Per slot, the free GPUs with peer access in its node's NVLink domain (a GPU counts when one
/// of its slots is free, fits nothing in particular, and has peer access); `free(i)` says
/// whether slot i is free.
template <typename IsFree>
std::vector<int> freeGpusInDomains(const std::vector<Slot>& slots, const std::vector<int>& domainOfNode, IsFree free);

/// The NVLink domain size of a node: its template's scale-up domain, else the whole node
/// for NVLink/NVSwitch GPUs and 1 for PCIe-only GPUs.
int nvlinkDomainGpus(const Node& node, const Catalog& catalog);

/// Places the demands in the order given (callers sort by pin, priority, size) with one of
/// the policies of docs/model-reference.md#placement. A demand that cannot be placed
/// whole takes nothing and says why.
/// `held` (optional, one entry per slot): slots already in use (>= 0) that nothing may take;
/// the outcome marks them kHeld.
inline constexpr int kHeld = -2;
PlacementOutcome placeJobs(const Scenario& scenario, const Catalog& catalog, const FabricIndex& fabric,
                           const std::vector<Slot>& slots, const std::vector<JobDemand>& demands,
                           PlacementPolicy policy, const std::vector<int>* held = nullptr);

template <typename IsFree>
std::vector<int> freeGpusInDomains(const std::vector<Slot>& slots, const std::vector<int>& domainOfNode, IsFree free)
{
    // Count distinct free peer-capable GPUs per (node, domain), then hand each slot its count.
    std::vector<int> out(slots.size(), 0);
    std::size_t i = 0;
    while (i < slots.size()) {
        std::size_t end = i;
        while (end < slots.size() && slots[end].node == slots[i].node)
            ++end;
        const int domain = std::max(1, domainOfNode[static_cast<std::size_t>(slots[i].node)]);
        std::array<int, 64> count{};
        int lastGpu = -1;
        for (std::size_t k = i; k < end; ++k)
            if (free(k) && slots[k].peerToPeer && slots[k].gpu != lastGpu) {
                ++count[static_cast<std::size_t>(std::min(slots[k].gpu / domain, 63))];
                lastGpu = slots[k].gpu;
            }
        for (std::size_t k = i; k < end; ++k)
            out[k] = count[static_cast<std::size_t>(std::min(slots[k].gpu / domain, 63))];
        i = end;
    }
    return out;
}

} // namespace gp::calc
