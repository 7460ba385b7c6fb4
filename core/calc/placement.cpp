// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#include "placer.h"

#include "model/enumnames.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <limits>
#include <map>

namespace gp::calc {

namespace {

std::string gib(double bytes)
{
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.1f GiB", bytes / (1024.0 * 1024 * 1024));
    return buf;
}

} // namespace

namespace detail {

Placer::Placer(const Scenario& s, const Catalog& c, const FabricIndex& fabric, const std::vector<Slot>& slots,
               const std::vector<JobDemand>& demands, PlacementPolicy policy, PlacementSearch search)
    : mScenario(s), mFabric(fabric), mSlots(slots), mDemands(demands), mPolicy(policy), mOwner(slots.size(), -1),
      mStates(s.topology.nodes.size())
{
    const auto& nodes = s.topology.nodes;
    mGpuBase.resize(nodes.size());
    int gpus = 0;
    for (std::size_t n = 0; n < nodes.size(); ++n) {
        mGpuBase[n] = gpus;
        gpus += std::max(nodes[n].gpuCount, 0);
    }
    mCommitted.assign(static_cast<std::size_t>(gpus), 0.0);
    mNodeSlots.resize(nodes.size());
    mFree.assign(nodes.size(), 0);
    mFreeShare.assign(nodes.size(), 0.0);
    mDomain.resize(nodes.size());
    for (std::size_t n = 0; n < nodes.size(); ++n)
        mDomain[n] = nvlinkDomainGpus(nodes[n], c);
    for (const auto& trays : mFabric.nodesOfRack)
        for (int n : trays)
            mWidestTrayDomain = std::max(mWidestTrayDomain, mDomain[static_cast<std::size_t>(n)]);
    mMaxFreeCapacity.assign(nodes.size(), 0.0);
    for (const Slot& sl : slots)
        ++mFree[static_cast<std::size_t>(sl.node)];
    for (std::size_t n = 0; n < nodes.size(); ++n) {
        mNodeSlots[n].reserve(static_cast<std::size_t>(mFree[n]));
        mFree[n] = 0;
    }
    for (int i = 0; i < static_cast<int>(slots.size()); ++i) {
        mNodeSlots[static_cast<std::size_t>(slots[static_cast<std::size_t>(i)].node)].push_back(i);
        ++mFree[static_cast<std::size_t>(slots[static_cast<std::size_t>(i)].node)];
        mFreeShare[static_cast<std::size_t>(slots[static_cast<std::size_t>(i)].node)] +=
            slots[static_cast<std::size_t>(i)].gpuFraction;
    }
    mPeerGpus.assign(nodes.size(), 0);
    mPeerAny.assign(nodes.size(), 0);
    mMaxFreeStrict.assign(nodes.size(), 0.0);
    mScored = policy == PlacementPolicy::BestFit || policy == PlacementPolicy::FragmentationAware;
    mIndexed = search == PlacementSearch::Indexed && mScored;
    // Each node's slots GPU by GPU: a run per GPU, whose figures refreshRun keeps.
    mRunOf.assign(slots.size(), 0);
    mFirstRun.assign(nodes.size() + 1, 0);
    for (std::size_t n = 0; n < nodes.size(); ++n) {
        mFirstRun[n] = static_cast<int>(mRuns.size());
        const auto& list = mNodeSlots[n];
        for (std::size_t a = 0; a < list.size();) {
            const int gpu = slot(list[a]).gpu;
            std::size_t b = a;
            for (; b < list.size() && slot(list[b]).gpu == gpu; ++b)
                mRunOf[static_cast<std::size_t>(list[b])] = static_cast<int>(mRuns.size());
            mRuns.push_back({static_cast<int>(n), static_cast<int>(a), static_cast<int>(b), gpu / mDomain[n], -1});
            a = b;
        }
    }
    mFirstRun[nodes.size()] = static_cast<int>(mRuns.size());
    mRunFigures.assign(mRuns.size(), {});
    mRunDirty.assign(mRuns.size(), false);
    if (mIndexed) {
        std::map<std::string, int> layouts;
        for (std::size_t n = 0; n < nodes.size(); ++n)
            mLayout.push_back(
                layouts.try_emplace(layoutOf(static_cast<int>(n)), static_cast<int>(layouts.size())).first->second);
        mFlagAt.assign(slots.size(), 0);
        mNodeKey.resize(nodes.size());
        for (std::size_t n = 0; n < nodes.size(); ++n)
            buildStateKey(static_cast<int>(n));
    }
    mDirty.assign(nodes.size(), false); // refreshNode marks every node: all are filed first
    for (std::size_t n = 0; n < nodes.size(); ++n) {
        if (!mScored)
            mByFreeShare.insert({mFreeShare[n], static_cast<int>(n)});
        for (int r = mFirstRun[n]; r < mFirstRun[n + 1]; ++r)
            refreshRun(r);
        refreshNode(static_cast<int>(n));
    }
    for (const Slot& sl : slots) {
        if (!sl.memoryIsolated)
            mMaxSharedCapacity = std::max(mMaxSharedCapacity, sl.capacityBytes);
        if (!mLargest || sl.capacityBytes > mLargest->capacityBytes)
            mLargest = &sl;
    }
    if (policy == PlacementPolicy::FragmentationAware)
        mView.emplace(s, c, slots, demands);
}

JobPlacement Placer::place(const JobDemand& d, int demandIndex)
{
    JobPlacement out;
    mPlacing = demandIndex;
    std::vector<int>& used = mUsed; // nodes this job already uses
    used.clear();
    out.slots.reserve(static_cast<std::size_t>(std::clamp(d.tp, 1, 64)) *
                      static_cast<std::size_t>(std::clamp(d.groups, 0, 4096)));
    for (int g = 0; g < d.groups; ++g) {
        if (const int block = std::min(d.alignGroups, d.groups - g);
            block > 1 && g % d.alignGroups == 0 && blockInRack(d, block, demandIndex, out)) {
            g += block - 1;
            continue;
        }
        // First where the GPU's memory holds the unit beside what co-tenants without
        // memory isolation already use; only failing that, a slot that overcommits it
        // (placed, and flagged as an out-of-memory risk by the evaluation).
        mStrictMemory = true;
        int node = chooseNode(d, used);
        if (node < 0 && mMaxSharedCapacity >= d.bytesPerUnit) { // a second pass can only help there
            mStrictMemory = false;
            node = chooseNode(d, used);
        }
        if (node < 0 || mPcieTp) {             // no node's own NVLink domain holds it: a rack-scale domain may
            const bool strict = mStrictMemory; // the pass chooseNode found `node` in
            mStrictMemory = true;
            const std::vector<int>* rack = &groupInRack(d, used);
            if (rack->empty() && mMaxSharedCapacity >= d.bytesPerUnit) {
                mStrictMemory = false;
                rack = &groupInRack(d, used);
            }
            if (!rack->empty()) {
                mStrictMemory = false;
                mPcieTp = false;
                take(*rack, demandIndex, out, used);
                continue;
            }
            mStrictMemory = strict;
        }
        if (node < 0) {
            out.reason = d.tp > 1 && !mFabric.nodesOfRack.empty() && !d.pin && d.isolation == Isolation::None &&
                                 mLargest && mLargest->capacityBytes >= d.bytesPerUnit
                             ? rackReason(d)
                             : reasonFor(d, g);
            for (int s : out.slots)
                release(s);
            out.slots.clear();
            mPlacing = -1;
            return out;
        }
        const std::vector<int>& group = chosenGroup(d, node);
        mStrictMemory = false;
        mPcieTp = false;
        for (int s : group)
            setOwner(s, demandIndex), out.slots.push_back(s);
        refreshNode(node);
        if (std::find(used.begin(), used.end(), node) == used.end())
            used.push_back(node);
    }
    out.placed = true;
    mPlacing = -1;
    return out;
}

void Placer::hold(int s)
{
    setOwner(s, kHeld);
    refreshNode(slot(s).node);
}

void Placer::release(int s)
{
    setOwner(s, -1);
    refreshNode(slot(s).node);
    mFailures.clear(); // a freed slot may host what failed before
}

void Placer::setOwner(int s, int owner)
{
    const auto i = static_cast<std::size_t>(s);
    mOwner[i] = owner;
    mFree[static_cast<std::size_t>(slot(s).node)] += owner == -1 ? 1 : -1;
    const int run = mRunOf[i];
    if (!mRunDirty[static_cast<std::size_t>(run)]) {
        mRunDirty[static_cast<std::size_t>(run)] = true;
        mDirtyRuns.push_back(run);
    }
    if (mIndexed) // the node's state key: its free/held flag
        mNodeKey[static_cast<std::size_t>(slot(s).node)][static_cast<std::size_t>(mFlagAt[i])] =
            owner == -1 ? 'f' : 'h';
}

void Placer::refreshRun(int r)
{
    const Run& run = mRuns[static_cast<std::size_t>(r)];
    const std::vector<int>& list = mNodeSlots[static_cast<std::size_t>(run.node)];
    double committed = 0.0;
    bool shared = false;
    for (int a = run.begin; a < run.end; ++a)
        if (const int k = list[static_cast<std::size_t>(a)]; !slot(k).memoryIsolated) {
            shared = true;
            committed += bytesHeld(k);
        }
    if (shared) {
        const Slot& first = slot(list[static_cast<std::size_t>(run.begin)]);
        mCommitted[gpuIndex(first)] = committed;
        if (mIndexed && run.committedAt >= 0) // the node's state key: the memory committed on this GPU
            std::memcpy(mNodeKey[static_cast<std::size_t>(run.node)].data() + run.committedAt, &committed,
                        sizeof committed);
    }
    RunFigures f;
    for (int a = run.begin; a < run.end; ++a) {
        const int k = list[static_cast<std::size_t>(a)];
        if (mOwner[static_cast<std::size_t>(k)] != -1)
            continue;
        const Slot& sl = slot(k);
        f.share += sl.gpuFraction;
        f.maxCapacity = std::max(f.maxCapacity, sl.capacityBytes);
        f.maxStrict = std::max(f.maxStrict, sl.memoryIsolated ? sl.capacityBytes : sl.capacityBytes - committed);
        f.peerFree = f.peerFree || sl.peerToPeer;
    }
    mRunFigures[static_cast<std::size_t>(r)] = f;
}

void Placer::refreshNode(int node)
{
    for (int r : mDirtyRuns) { // only the GPUs whose slots changed owner are summed again
        refreshRun(r);
        mRunDirty[static_cast<std::size_t>(r)] = false;
        if (const int other = mRuns[static_cast<std::size_t>(r)].node; other != node)
            sumNode(other);
    }
    mDirtyRuns.clear();
    sumNode(node);
}

void Placer::sumNode(int node)
{
    const auto n = static_cast<std::size_t>(node);
    // Re-key the node in the free-share order, reusing its tree node (no allocation); only
    // topology-aware placement reads that order.
    auto handle = mScored ? decltype(mByFreeShare)::node_type() : mByFreeShare.extract({mFreeShare[n], node});
    double share = 0.0, maxCapacity = 0.0, maxStrict = 0.0;
    int widest = 0, current = 0, domain = -1, any = 0;
    for (int r = mFirstRun[n]; r < mFirstRun[n + 1]; ++r) {
        const RunFigures& f = mRunFigures[static_cast<std::size_t>(r)];
        if (const int dom = mRuns[static_cast<std::size_t>(r)].domain; dom != domain) {
            widest = std::max(widest, current);
            current = 0;
            domain = dom;
        }
        share += f.share;
        maxCapacity = std::max(maxCapacity, f.maxCapacity);
        maxStrict = std::max(maxStrict, f.maxStrict);
        current += f.peerFree ? 1 : 0;
        any += f.peerFree ? 1 : 0;
    }
    mFreeShare[n] = share;
    mMaxFreeCapacity[n] = maxCapacity;
    mMaxFreeStrict[n] = maxStrict;
    mPeerGpus[n] = std::max(widest, current);
    mPeerAny[n] = any;
    if (handle) {
        handle.value() = {share, node};
        mByFreeShare.insert(std::move(handle));
    }
    if (mIndexed && !mDirty[n]) { // filed anew before the next search
        mDirty[n] = true;
        mDirtyNodes.push_back(node);
    }
}

const std::vector<int>& Placer::groupOn(const JobDemand& d, int node) const
{
    std::vector<int>& chosen = mScratch;
    chosen.clear();
    const auto& list = mNodeSlots[static_cast<std::size_t>(node)];
    if (d.tp <= 1) {
        // A job's replicas are independent: on GPUs whose compute its units would share (time-
        // slicing, vGPU, MPS) a replica goes to a GPU that holds none of its own before it
        // stacks on one that does (issue 36), among the slots the policy ranks alike.
        std::uint64_t own = 0;
        if (d.groups > 1 && mPlacing >= 0)
            for (int s : list)
                if (mOwner[static_cast<std::size_t>(s)] == mPlacing)
                    own |= std::uint64_t{1} << std::clamp(slot(s).gpu, 0, 63);
        const auto stacks = [&](const Slot& sl) {
            return sl.mode != SharingMode::Mig && ((own >> std::clamp(sl.gpu, 0, 63)) & 1U) != 0;
        };
        int best = -1;
        bool bestStacks = false;
        for (int s : list) {
            const Slot& sl = slot(s);
            if (mOwner[static_cast<std::size_t>(s)] != -1 || !fits(sl, d.bytesPerUnit) || !pinAllows(d, sl))
                continue;
            const bool stacked = own != 0 && stacks(sl);
            const bool smaller =
                mPolicy != PlacementPolicy::FirstFit && best >= 0 && sl.capacityBytes < slot(best).capacityBytes;
            const bool alike =
                best >= 0 && (mPolicy == PlacementPolicy::FirstFit || sl.capacityBytes == slot(best).capacityBytes);
            if (best < 0 || smaller || (alike && bestStacks && !stacked)) {
                best = s;
                bestStacks = stacked;
            }
            if (mPolicy == PlacementPolicy::FirstFit && !bestStacks)
                break;
        }
        if (best >= 0)
            chosen.push_back(best);
        return chosen;
    }
    // TP group: tp distinct GPUs with peer access, one NVLink domain; in chooseNode's second
    // pass (no NVLink domain of any node holds it) any whole GPUs of the node, over PCIe.
    const int domain = mPcieTp ? std::numeric_limits<int>::max() : mDomain[static_cast<std::size_t>(node)];
    int currentDomain = -1;
    int lastGpu = -1;
    for (int s : list) {
        const Slot& sl = slot(s);
        const int dom = sl.gpu / domain;
        if (dom != currentDomain) {
            if (static_cast<int>(chosen.size()) >= d.tp)
                break;
            chosen.clear();
            currentDomain = dom;
            lastGpu = -1;
        }
        if (sl.gpu == lastGpu || mOwner[static_cast<std::size_t>(s)] != -1 || !sl.peerToPeer ||
            !fits(sl, d.bytesPerUnit) || !pinAllows(d, sl))
            continue;
        chosen.push_back(s);
        lastGpu = sl.gpu;
    }
    if (static_cast<int>(chosen.size()) < d.tp)
        chosen.clear();
    else
        chosen.resize(static_cast<std::size_t>(d.tp));
    return chosen;
}

int Placer::chooseNode(const JobDemand& d, const std::vector<int>& used) const
{
    if (!d.constrained())
        for (const Failure& f : mFailures)
            if (f.strict == mStrictMemory && d.tp >= f.tp && d.bytesPerUnit >= f.bytes)
                return -1;
    mPcieTp = false;
    int n = searchNode(d, used);
    if (n < 0 && d.tp > 1) { // NVLink first; a TP group over PCIe only where no domain holds it
        mPcieTp = true;
        n = searchNode(d, used);
    }
    if (n < 0 && !d.constrained())
        mFailures.push_back({d.tp, d.bytesPerUnit, mStrictMemory});
    return n;
}

int Placer::searchNode(const JobDemand& d, const std::vector<int>& used) const
{
    auto hosts = [&](int n) { return mayHost(d, n) && !groupOn(d, n).empty(); };
    switch (mPolicy) {
    case PlacementPolicy::FirstFit:
        for (int n = 0; n < static_cast<int>(mNodeSlots.size()); ++n)
            if (hosts(n))
                return n;
        return -1;
    case PlacementPolicy::BestFit:
    case PlacementPolicy::FragmentationAware: return leastScore(d);
    case PlacementPolicy::TopologyAware: {
        // Stay on nodes the job already uses, then under their leaf switches, then take
        // the node with the most free GPU share (whole nodes stay whole for large jobs; a
        // node carved into many small slots does not count as emptier).
        auto emptiest = [&](const std::vector<int>& candidates) {
            int best = -1;
            for (int n : candidates)
                if ((best < 0 ||
                     mFreeShare[static_cast<std::size_t>(n)] > mFreeShare[static_cast<std::size_t>(best)]) &&
                    hosts(n))
                    best = n;
            return best;
        };
        if (int n = emptiest(used); n >= 0)
            return n;
        for (int u : used) // under the leaf of a node it uses (one leaf is enough to try)
            if (const int leaf = mFabric.leafOfNode[static_cast<std::size_t>(u)]; leaf >= 0) {
                if (int n = emptiest(mFabric.nodesOfLeaf[static_cast<std::size_t>(leaf)]); n >= 0)
                    return n;
                break;
            }
        for (auto it = mByFreeShare.rbegin(); it != mByFreeShare.rend(); ++it)
            if (hosts(it->second))
                return it->second;
        return -1;
    }
    }
    return -1;
}

std::string Placer::reasonFor(const JobDemand& d, int groupsPlaced) const
{
    const int units = d.tp * d.groups;
    const double largest = mLargest ? mLargest->capacityBytes : 0.0;
    const std::string largestLabel = mLargest ? mLargest->label() : std::string();
    if (mCapacities.empty()) {        // counted when first asked: most placements need no reason
        std::map<double, int> counts; // slots of one capacity mostly follow each other
        for (std::size_t i = 0; i < mSlots.size();) {
            std::size_t j = i;
            while (j < mSlots.size() && mSlots[j].capacityBytes == mSlots[i].capacityBytes)
                ++j;
            counts[mSlots[i].capacityBytes] += static_cast<int>(j - i);
            i = j;
        }
        mCapacities.assign(counts.begin(), counts.end());
        for (std::size_t i = mCapacities.size(); i-- > 1;) // slots with at least this capacity
            mCapacities[i - 1].second += mCapacities[i].second;
    }
    const auto at = std::lower_bound(mCapacities.begin(), mCapacities.end(), d.bytesPerUnit,
                                     [](const std::pair<double, int>& c, double bytes) { return c.first < bytes; });
    const int fitting = at == mCapacities.end() ? 0 : at->second;
    int p2pDomains = 0;
    if (d.pin) {
        std::string node = d.pin->node; // by the name the canvas shows it under
        for (const Node& n : mScenario.topology.nodes)
            if (n.id == d.pin->node && !n.name.empty())
                node = n.name;
        return "pinned to " + node + (d.pin->gpu ? " GPU " + std::to_string(*d.pin->gpu) : "") +
               ", where no free slot holds " + gib(d.bytesPerUnit) + " per GPU for all " + std::to_string(units) +
               " units";
    }
    if (d.isolation != Isolation::None) {
        int giving = 0;
        for (const Slot& sl : mSlots)
            giving += slotGives(sl, d.isolation) && sl.capacityBytes >= d.bytesPerUnit;
        return "its tenant demands " + std::string(enumName(d.isolation)) + " isolation (" +
               (d.isolation == Isolation::Hardware ? "a whole GPU or a MIG instance"
                                                   : "a share with its own memory: not time-slicing, not MPS without "
                                                     "a memory limit") +
               "); " + std::to_string(giving) + " slots give it and hold " + gib(d.bytesPerUnit) + ", and " +
               std::to_string(groupsPlaced * d.tp) + " of its " + std::to_string(units) +
               " units could be placed in free ones";
    }
    if (fitting == 0)
        return "needs " + gib(d.bytesPerUnit) + " per GPU; the largest slot holds " + gib(largest) + " (" +
               largestLabel + ")";
    if (d.tp > 1) {
        for (std::size_t n = 0; n < mNodeSlots.size() && p2pDomains == 0; ++n) {
            int peers = 0;             // GPUs of the node with peer access: one NVLink domain, else over PCIe
            std::uint64_t seenGpu = 0; // nodes have at most 64 GPUs (validation)
            for (int s : mNodeSlots[n]) {
                const Slot& sl = slot(s);
                const std::uint64_t bit = 1ull << std::min(sl.gpu, 63);
                if (!sl.peerToPeer || !fits(sl, d.bytesPerUnit) || (seenGpu & bit))
                    continue;
                seenGpu |= bit;
                p2pDomains += ++peers == d.tp;
            }
        }
        if (p2pDomains == 0)
            return "TP=" + std::to_string(d.tp) + " needs " + std::to_string(d.tp) + " GPUs of " + gib(d.bytesPerUnit) +
                   " with NVLink peer access in one NVLink domain, or whole GPUs of one node over PCIe; the "
                   "cluster has none (MIG instances and fractional vGPUs have no peer access)";
    }
    return "needs " + std::to_string(units) + " GPU slots of " + gib(d.bytesPerUnit) +
           (d.tp > 1 ? " in TP groups of " + std::to_string(d.tp) : std::string()) + "; only " +
           std::to_string(groupsPlaced * d.tp) + " could be found free (" + std::to_string(fitting) +
           " slots are large enough in all)";
}

} // namespace detail

PlacementOutcome placeJobs(const Scenario& scenario, const Catalog& catalog, const FabricIndex& fabric,
                           const std::vector<Slot>& slots, const std::vector<JobDemand>& demands,
                           PlacementPolicy policy, const std::vector<int>* held, PlacementSearch search)
{
    detail::Placer placer(scenario, catalog, fabric, slots, demands, policy, search);
    if (held)
        for (std::size_t i = 0; i < held->size() && i < slots.size(); ++i)
            if ((*held)[i] >= 0)
                placer.hold(static_cast<int>(i));
    PlacementOutcome out;
    for (int i = 0; i < static_cast<int>(demands.size()); ++i)
        out.jobs.push_back(placer.place(demands[static_cast<std::size_t>(i)], i));
    out.owner = placer.owner();
    return out;
}

} // namespace gp::calc
