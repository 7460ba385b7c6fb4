// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#pragma once

#include "fabricindex.h"
#include "slots.h"

#include "model/catalog.h"
#include "model/scenario.h"

#include <array>
#include <optional>
#include <string>
#include <vector>

namespace gp::calc {

/// What one job asks the cluster for: pp x dp groups of tp units, each unit needing
/// `bytesPerUnit` of GPU memory; a TP group (tp > 1) needs GPUs with NVLink peer access in
/// one NVLink domain of one node.
struct JobDemand
{
    int tenant = 0;
    int job = 0;
    int tp = 1;
    int groups = 1;
    double bytesPerUnit = 0.0;
    std::optional<Pin> pin;
};

/// The workload mix as the fragmentation measure of Weng et al. (USENIX ATC '23) sees it:
/// every demand's unit shape weighted by its number of units. unusableWeight() is the share
/// of the mix a free slot cannot serve (too small, or without peer access for TP groups).
class WorkloadMix
{
public:
    WorkloadMix() = default;
    explicit WorkloadMix(const std::vector<JobDemand>& demands);
    double unusableWeight(const Slot& slot) const;
    /// As above, also counting TP types that need more free peer-capable GPUs in one NVLink
    /// domain than the slot's domain has (`freeGpusInDomain`).
    double unusableWeight(const Slot& slot, int freeGpusInDomain) const;

private:
    /// TP types by degree: unit sizes ascending and the share of the mix up to each size.
    struct TpGroup
    {
        int tp;
        std::vector<double> bytes;
        std::vector<double> weightAtMost; // [i]: share of the i smallest
    };
    std::vector<TpGroup> mTpGroups = {};
    std::vector<double> mBytes = {};             // unit sizes, ascending
    std::vector<double> mWeightAbove = {0.0};    // [i]: share of units from the i-th size up
    std::vector<double> mTpBytes = {};           // TP>1 unit sizes, ascending
    std::vector<double> mTpWeightAtMost = {0.0}; // [i]: share of the i smallest TP>1 units
};

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
