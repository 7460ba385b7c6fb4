// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
// The placer's rack-scale path (placer.h): a TP group wider than any one node's free NVLink
// domain goes across the trays of one rack-scale NVLink domain (a topology group of kind
// "nvlink_domain", e.g. a GB200 NVL72), never across two (docs/model-reference.md,
// "Rack-scale NVLink domains").
#include "placer.h"

#include <algorithm>
#include <cstdint>

namespace gp::calc::detail {

int Placer::freePeerGpusInRack(const JobDemand& d, int rack, std::vector<int>* out) const
{
    int count = 0;
    for (int node : mFabric.nodesOfRack[static_cast<std::size_t>(rack)]) {
        int lastGpu = -1; // a node's slots come GPU by GPU: one slot per GPU
        for (int s : mNodeSlots[static_cast<std::size_t>(node)]) {
            const Slot& sl = slot(s);
            if (sl.gpu == lastGpu || mOwner[static_cast<std::size_t>(s)] != -1 || !sl.peerToPeer ||
                !fits(sl, d.bytesPerUnit) || !pinAllows(d, sl))
                continue;
            lastGpu = sl.gpu;
            ++count;
            if (out && static_cast<int>(out->size()) < d.tp)
                out->push_back(s);
        }
    }
    return count;
}

const std::vector<int>& Placer::groupInRack(const JobDemand& d, const std::vector<int>& used) const
{
    std::vector<int>& chosen = mScratch;
    chosen.clear();
    const auto racks = static_cast<int>(mFabric.nodesOfRack.size());
    if (d.tp <= 1 || racks == 0)
        return chosen;
    // A rack the job already uses first (its groups stay in one domain where they can); then
    // first fit takes the first rack that holds the group, the other policies the one with the
    // fewest free GPUs that still holds it (whole racks stay whole for the widest groups).
    int best = -1, bestFree = 0;
    bool bestUsed = false;
    for (int r = 0; r < racks; ++r) {
        if (mFabric.rackGpus[static_cast<std::size_t>(r)] < d.tp)
            continue;
        const int free = freePeerGpusInRack(d, r, nullptr);
        if (free < d.tp)
            continue;
        const auto& nodes = mFabric.nodesOfRack[static_cast<std::size_t>(r)];
        const bool inUse = std::any_of(nodes.begin(), nodes.end(),
                                       [&](int n) { return std::find(used.begin(), used.end(), n) != used.end(); });
        const bool better = best < 0 || (inUse && !bestUsed) ||
                            (inUse == bestUsed && mPolicy != PlacementPolicy::FirstFit && free < bestFree);
        if (better) {
            best = r;
            bestFree = free;
            bestUsed = inUse;
        }
        if (mPolicy == PlacementPolicy::FirstFit && inUse)
            break;
    }
    if (best >= 0)
        freePeerGpusInRack(d, best, &chosen);
    if (static_cast<int>(chosen.size()) < d.tp)
        chosen.clear();
    return chosen;
}

bool Placer::blockInRack(const JobDemand& d, int count, int demandIndex, JobPlacement& out)
{
    if (mFabric.nodesOfRack.empty() || d.constrained())
        return false;
    JobDemand wide = d;
    wide.tp = std::max(d.tp, 1) * count;
    // A block that a tray's own NVLink domain holds goes group by group, where the policy chooses
    // the node; a wider one spans trays, and then all of them must be trays of one domain, as
    // Megatron-Bridge's launcher asks Slurm for (a segment of trays per NVL72 rack).
    if (wide.tp <= mWidestTrayDomain)
        return false;
    const bool strict = mStrictMemory;
    mStrictMemory = true;
    const std::vector<int>* found = &groupInRack(wide, mUsed);
    if (found->empty() && mMaxSharedCapacity >= d.bytesPerUnit) {
        mStrictMemory = false;
        found = &groupInRack(wide, mUsed);
    }
    mStrictMemory = strict;
    if (found->empty())
        return false; // group by group, and the evaluation costs the groups that straddle domains
    take(*found, demandIndex, out, mUsed);
    return true;
}

void Placer::take(std::vector<int> group, int demandIndex, JobPlacement& out, std::vector<int>& used)
{
    for (int s : group) { // a copy: setOwner's refresh may reuse the scratch it came from
        setOwner(s, demandIndex), out.slots.push_back(s);
        const int n = slot(s).node;
        if (std::find(used.begin(), used.end(), n) == used.end())
            used.push_back(n);
    }
    refreshNode(slot(group.front()).node);
}

std::string Placer::rackReason(const JobDemand& d) const
{
    int widest = 0, freeMost = 0;
    std::string where;
    for (std::size_t r = 0; r < mFabric.nodesOfRack.size(); ++r) {
        widest = std::max(widest, mFabric.rackGpus[r]);
        const int free = freePeerGpusInRack(d, static_cast<int>(r), nullptr);
        if (free > freeMost || where.empty()) {
            freeMost = std::max(freeMost, free);
            where = mFabric.rackGroup[r];
        }
    }
    if (d.tp > widest)
        return "TP=" + std::to_string(d.tp) + " is wider than the largest NVLink domain (" + std::to_string(widest) +
               " GPUs of a rack-scale domain); a TP group never spans two domains";
    return "TP=" + std::to_string(d.tp) + " needs " + std::to_string(d.tp) +
           " free GPUs with NVLink peer access in one NVLink domain; the most free in one rack-scale domain is " +
           std::to_string(freeMost) + " ('" + where + "'), and a TP group never spans two domains" +
           (freeMost > 1 ? ": a TP of at most " + std::to_string(freeMost) + " fits there" : std::string());
}

} // namespace gp::calc::detail
