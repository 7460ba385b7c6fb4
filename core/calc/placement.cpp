// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#include "placement.h"

#include "nodestates.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <limits>
#include <map>
#include <set>

namespace gp::calc {

namespace {

std::string gib(double bytes)
{
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.1f GiB", bytes / (1024.0 * 1024 * 1024));
    return buf;
}

class Placer
{
public:
    Placer(const Scenario& s, const Catalog& c, const FabricIndex& fabric, const std::vector<Slot>& slots,
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
        mMaxFreeCapacity.assign(nodes.size(), 0.0);
        for (int i = 0; i < static_cast<int>(slots.size()); ++i) {
            mNodeSlots[static_cast<std::size_t>(slots[static_cast<std::size_t>(i)].node)].push_back(i);
            ++mFree[static_cast<std::size_t>(slots[static_cast<std::size_t>(i)].node)];
            mFreeShare[static_cast<std::size_t>(slots[static_cast<std::size_t>(i)].node)] +=
                slots[static_cast<std::size_t>(i)].gpuFraction;
        }
        mPeerGpus.assign(nodes.size(), 0);
        mMaxFreeStrict.assign(nodes.size(), 0.0);
        mScored = policy == PlacementPolicy::BestFit || policy == PlacementPolicy::FragmentationAware;
        mIndexed = search == PlacementSearch::Indexed && mScored;
        mDirty.assign(nodes.size(), false); // refreshNode marks every node: all are filed first
        for (std::size_t n = 0; n < nodes.size(); ++n) {
            if (!mScored)
                mByFreeShare.insert({mFreeShare[n], static_cast<int>(n)});
            refreshNode(static_cast<int>(n));
        }
        for (const Slot& sl : slots) {
            if (!sl.memoryIsolated)
                mMaxSharedCapacity = std::max(mMaxSharedCapacity, sl.capacityBytes);
            mCapacities.push_back(sl.capacityBytes);
            if (!mLargest || sl.capacityBytes > mLargest->capacityBytes)
                mLargest = &sl;
        }
        std::sort(mCapacities.begin(), mCapacities.end());
        if (policy == PlacementPolicy::FragmentationAware)
            mView.emplace(s, c, slots, demands);
        if (mIndexed) {
            std::map<std::string, int> layouts;
            for (std::size_t n = 0; n < nodes.size(); ++n)
                mLayout.push_back(
                    layouts.try_emplace(layoutOf(static_cast<int>(n)), static_cast<int>(layouts.size())).first->second);
        }
    }

    JobPlacement place(const JobDemand& d, int demandIndex)
    {
        JobPlacement out;
        std::vector<int> used; // nodes this job already uses
        for (int g = 0; g < d.groups; ++g) {
            // First where the GPU's memory holds the unit beside what co-tenants without
            // memory isolation already use; only failing that, a slot that overcommits it
            // (placed, and flagged as an out-of-memory risk by the evaluation).
            mStrictMemory = true;
            int node = chooseNode(d, used);
            if (node < 0 && mMaxSharedCapacity >= d.bytesPerUnit) { // a second pass can only help there
                mStrictMemory = false;
                node = chooseNode(d, used);
            }
            if (node < 0) {
                out.reason = reasonFor(d, g);
                for (int s : out.slots)
                    release(s);
                out.slots.clear();
                return out;
            }
            const std::vector<int> group = chosenGroup(d, node);
            mStrictMemory = false;
            for (int s : group)
                setOwner(s, demandIndex), out.slots.push_back(s);
            refreshNode(node);
            if (std::find(used.begin(), used.end(), node) == used.end())
                used.push_back(node);
        }
        out.placed = true;
        return out;
    }

    const std::vector<int>& owner() const { return mOwner; }
    void hold(int s)
    {
        setOwner(s, kHeld);
        refreshNode(slot(s).node);
    }

private:
    const Slot& slot(int i) const { return mSlots[static_cast<std::size_t>(i)]; }
    void release(int s)
    {
        setOwner(s, -1);
        refreshNode(slot(s).node);
        mFailures.clear(); // a freed slot may host what failed before
    }
    /// Gives slot `s` to `owner` (-1 frees; a demand index or kHeld takes); refreshNode then
    /// brings the node's figures up to date.
    void setOwner(int s, int owner)
    {
        mOwner[static_cast<std::size_t>(s)] = owner;
        mFree[static_cast<std::size_t>(slot(s).node)] += owner == -1 ? 1 : -1;
    }
    /// The node's figures the searches read, in one pass over its slots (listed GPU by GPU):
    /// free GPU share, memory committed on GPUs that share it, the largest free slot with and
    /// without co-tenants' memory counted, and the widest TP group it could still offer
    /// (distinct GPUs with a free peer-to-peer slot in one NVLink domain). Summed afresh in
    /// slot order, so that nodes in the same state carry the same figures to the last bit (the
    /// scores and the state index rely on it).
    void refreshNode(int node)
    {
        const auto n = static_cast<std::size_t>(node);
        // Re-key the node in the free-share order, reusing its tree node (no allocation); only
        // topology-aware placement reads that order.
        auto handle = mScored ? decltype(mByFreeShare)::node_type() : mByFreeShare.extract({mFreeShare[n], node});
        const std::vector<int>& list = mNodeSlots[n];
        double share = 0.0, maxCapacity = 0.0, maxStrict = 0.0;
        int widest = 0, current = 0, domain = -1;
        for (std::size_t a = 0; a < list.size();) {
            const Slot& first = slot(list[a]);
            std::size_t b = a;
            double committed = 0.0;
            bool shared = false;
            for (; b < list.size() && slot(list[b]).gpu == first.gpu; ++b)
                if (!slot(list[b]).memoryIsolated) {
                    shared = true;
                    committed += bytesHeld(list[b]);
                }
            if (shared)
                mCommitted[gpuIndex(first)] = committed;
            if (first.gpu / mDomain[n] != domain) {
                widest = std::max(widest, current);
                current = 0;
                domain = first.gpu / mDomain[n];
            }
            bool peerFree = false;
            for (std::size_t k = a; k < b; ++k) {
                if (mOwner[static_cast<std::size_t>(list[k])] != -1)
                    continue;
                const Slot& sl = slot(list[k]);
                share += sl.gpuFraction;
                maxCapacity = std::max(maxCapacity, sl.capacityBytes);
                maxStrict = std::max(maxStrict, sl.memoryIsolated ? sl.capacityBytes : sl.capacityBytes - committed);
                peerFree = peerFree || sl.peerToPeer;
            }
            current += peerFree ? 1 : 0;
            a = b;
        }
        mFreeShare[n] = share;
        mMaxFreeCapacity[n] = maxCapacity;
        mMaxFreeStrict[n] = maxStrict;
        mPeerGpus[n] = std::max(widest, current);
        if (handle) {
            handle.value() = {share, node};
            mByFreeShare.insert(std::move(handle));
        }
        if (mIndexed && !mDirty[n]) { // filed anew before the next search
            mDirty[n] = true;
            mDirtyNodes.push_back(node);
        }
    }
    /// Files the nodes that changed since the last search under their new states.
    void refileChanged() const
    {
        for (int n : mDirtyNodes) {
            stateOf(n, mKey);
            mStates.file(n, mKey);
            mDirty[static_cast<std::size_t>(n)] = false;
        }
        mDirtyNodes.clear();
    }
    /// Bytes a unit of demand `o` needs (0 for no demand, or kHeld: placed before).
    double bytesOf(int o) const { return o >= 0 ? mDemands[static_cast<std::size_t>(o)].bytesPerUnit : 0.0; }
    double bytesHeld(int k) const { return bytesOf(mOwner[static_cast<std::size_t>(k)]); }
    /// What makes two nodes alike for every search: GPU model, slots and NVLink domains.
    std::string layoutOf(int n) const
    {
        const Node& node = mScenario.topology.nodes[static_cast<std::size_t>(n)];
        std::string key = node.gpuId + '|' + std::to_string(mDomain[static_cast<std::size_t>(n)]);
        for (int k : mNodeSlots[static_cast<std::size_t>(n)]) {
            const Slot& sl = slot(k);
            const double fields[] = {static_cast<double>(sl.gpu), sl.capacityBytes, sl.gpuFraction,
                                     static_cast<double>(sl.start), static_cast<double>(static_cast<int>(sl.mode))};
            key.append(reinterpret_cast<const char*>(fields), sizeof fields);
            key += static_cast<char>((sl.peerToPeer ? 1 : 0) | (sl.memoryIsolated ? 2 : 0));
            key += sl.profile ? *sl.profile : std::string();
        }
        return key;
    }
    /// The node's layout, which slots are free and the memory committed on GPUs that share it.
    void stateOf(int n, std::string& key) const
    {
        const int layout = mLayout[static_cast<std::size_t>(n)];
        key.assign(reinterpret_cast<const char*>(&layout), sizeof layout);
        int lastGpu = -1;
        for (int k : mNodeSlots[static_cast<std::size_t>(n)]) {
            const Slot& sl = slot(k);
            key += mOwner[static_cast<std::size_t>(k)] == -1 ? 'f' : 'h';
            if (!sl.memoryIsolated && sl.gpu != lastGpu) {
                const double committed = mCommitted[gpuIndex(sl)];
                key.append(reinterpret_cast<const char*>(&committed), sizeof committed);
                lastGpu = sl.gpu;
            }
        }
    }
    /// Cheap test before the slot-by-slot search.
    bool mayHost(const JobDemand& d, int n) const
    {
        const auto i = static_cast<std::size_t>(n);
        return mFree[i] >= d.tp && (d.tp <= 1 || mPeerGpus[i] >= d.tp) &&
               (mStrictMemory ? mMaxFreeStrict[i] : mMaxFreeCapacity[i]) >= d.bytesPerUnit;
    }

    std::size_t gpuIndex(const Slot& s) const
    {
        return static_cast<std::size_t>(mGpuBase[static_cast<std::size_t>(s.node)]) + static_cast<std::size_t>(s.gpu);
    }
    bool fits(const Slot& s, double bytes) const
    {
        if (mStrictMemory && !s.memoryIsolated)
            return s.capacityBytes - mCommitted[gpuIndex(s)] >= bytes;
        return s.capacityBytes >= bytes;
    }

    bool pinAllows(const JobDemand& d, const Slot& s) const
    {
        if (!d.pin)
            return true;
        if (mScenario.topology.nodes[static_cast<std::size_t>(s.node)].id != d.pin->node)
            return false;
        if (d.pin->gpu && *d.pin->gpu != s.gpu)
            return false;
        return !d.pin->migInstance || (s.mode == SharingMode::Mig && *d.pin->migInstance == s.index);
    }

    /// The slots of one group of `d` on `node`, or empty if it does not fit there.
    const std::vector<int>& groupOn(const JobDemand& d, int node) const
    {
        std::vector<int>& chosen = mScratch;
        chosen.clear();
        const auto& list = mNodeSlots[static_cast<std::size_t>(node)];
        if (d.tp <= 1) {
            int best = -1;
            for (int s : list) {
                const Slot& sl = slot(s);
                if (mOwner[static_cast<std::size_t>(s)] != -1 || !fits(sl, d.bytesPerUnit) || !pinAllows(d, sl))
                    continue;
                if (best < 0 || (mPolicy != PlacementPolicy::FirstFit && sl.capacityBytes < slot(best).capacityBytes))
                    best = s;
                if (mPolicy == PlacementPolicy::FirstFit)
                    break;
            }
            if (best >= 0)
                chosen.push_back(best);
            return chosen;
        }
        // TP group: tp distinct GPUs with peer access, one NVLink domain.
        const int domain = mDomain[static_cast<std::size_t>(node)];
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

    /// A node's answer to a demand for the scored searches: a key to minimise (ties go to the
    /// first node) and, for a one-unit group under fragmentation-aware placement, which of its
    /// slots (by position in the node's list); `ok` is false where the group does not fit.
    struct Score
    {
        bool ok = false;
        std::pair<long long, long long> key{0, 0};
        int position = -1;
    };
    static long long quantized(double x) { return std::llround(x * 1e9); }

    /// The node's fragmentation (fragmentation.h) as it is now; its free places are left in
    /// mPlaces for fragmentationAfter.
    double fragmentationNow(int n) const
    {
        placesNow(n);
        return mView->nodeFragmentation(mPlaces);
    }
    void placesNow(int n) const
    {
        mView->placesOf(
            n, [&](std::size_t i) { return mOwner[i] == -1; },
            [&](std::size_t i) { return bytesHeld(static_cast<int>(i)); }, mPlaces);
    }
    /// The node's fragmentation with `count` slots of `taken` given units of `bytes`, from its
    /// places now (mPlaces): each slot's share leaves its place, and on a GPU whose memory its
    /// slots share every free place there holds `bytes` less per unit placed.
    double fragmentationAfter(const int* taken, std::size_t count, double bytes) const
    {
        mAfter = mPlaces;
        for (std::size_t t = 0; t < count; ++t) {
            const Slot& sl = slot(taken[t]);
            const double capacity = sl.memoryIsolated ? sl.capacityBytes : sl.capacityBytes - mCommitted[gpuIndex(sl)];
            for (frag::Place& p : mAfter)
                if (p.gpu == sl.gpu && p.capacity == capacity && p.peer == sl.peerToPeer) {
                    p.share -= sl.gpuFraction;
                    break;
                }
        }
        for (std::size_t t = 0; t < count; ++t)
            if (const Slot& sl = slot(taken[t]); !sl.memoryIsolated)
                for (frag::Place& p : mAfter)
                    if (p.gpu == sl.gpu)
                        p.capacity -= bytes;
        std::erase_if(mAfter, [](const frag::Place& p) { return p.share <= 1e-12; });
        return mView->nodeFragmentation(mAfter);
    }

    /// Fragmentation gradient descent (Weng et al., USENIX ATC '23): how much the node's
    /// fragmentation grows when the group is placed there. A TP group takes the slots groupOn
    /// finds; a one-unit group the fitting slot that grows it least (the smallest slot on a tie).
    /// `before`: the node's fragmentation now (its state's, remembered).
    Score fragmentationScore(const JobDemand& d, int n, double before) const
    {
        Score out;
        placesNow(n);
        if (d.tp > 1) {
            const std::vector<int>& group = groupOn(d, n);
            if (!group.empty())
                out = {
                    true, {quantized(fragmentationAfter(group.data(), group.size(), d.bytesPerUnit) - before), 0}, -1};
            return out;
        }
        const auto& list = mNodeSlots[static_cast<std::size_t>(n)];
        std::vector<int>& candidates = mCandidates; // positions in the node's list, smallest slot first
        candidates.clear();
        std::array<int, 64> freeOnGpu{}; // nodes have at most 64 GPUs (validation)
        for (int p = 0; p < static_cast<int>(list.size()); ++p) {
            const int s = list[static_cast<std::size_t>(p)];
            if (mOwner[static_cast<std::size_t>(s)] != -1)
                continue;
            ++freeOnGpu[static_cast<std::size_t>(std::clamp(slot(s).gpu, 0, 63))];
            if (fits(slot(s), d.bytesPerUnit) && pinAllows(d, slot(s)))
                candidates.push_back(p);
        }
        std::stable_sort(candidates.begin(), candidates.end(), [&](int a, int b) {
            return slot(list[static_cast<std::size_t>(a)]).capacityBytes <
                   slot(list[static_cast<std::size_t>(b)]).capacityBytes;
        });
        auto& tried = mTried; // alike slots leave the node alike
        tried.clear();
        for (int p : candidates) {
            const Slot& sl = slot(list[static_cast<std::size_t>(p)]);
            // GPUs of one NVLink domain with the same free slots and committed memory are alike.
            const std::tuple<double, double, int, double, int> kind{
                sl.capacityBytes, sl.gpuFraction, sl.gpu / mDomain[static_cast<std::size_t>(n)],
                sl.memoryIsolated ? 0.0 : mCommitted[gpuIndex(sl)],
                freeOnGpu[static_cast<std::size_t>(std::clamp(sl.gpu, 0, 63))]};
            if (std::find(tried.begin(), tried.end(), kind) != tried.end())
                continue;
            tried.push_back(kind);
            const long long key =
                quantized(fragmentationAfter(&list[static_cast<std::size_t>(p)], 1, d.bytesPerUnit) - before);
            if (!out.ok || key < out.key.first)
                out = {true, {key, 0}, p};
        }
        return out;
    }

    /// Best fit: the least free GPU share, then the least memory left over in the group's slots
    /// (every node gets the same units, so: the least capacity in them).
    Score bestFitScore(const JobDemand& d, int n) const
    {
        const std::vector<int>& group = groupOn(d, n);
        if (group.empty())
            return {};
        double capacity = 0.0;
        for (int s : group)
            capacity += slot(s).capacityBytes;
        return {true, {quantized(mFreeShare[static_cast<std::size_t>(n)]), std::llround(capacity)}, -1};
    }

    Score scoreOf(const JobDemand& d, int n) const
    {
        return mPolicy == PlacementPolicy::BestFit ? bestFitScore(d, n) : fragmentationScore(d, n, fragmentationNow(n));
    }
    /// What a state's answers depend on besides the demand: its fragmentation as it is, and the
    /// capacities of its free slots when no slot shares its GPU's memory (then a demand's answer
    /// depends on its bytes only through the smallest free slot that holds them).
    struct StateInfo
    {
        double fragmentation = 0.0;
        bool isolated = true;
        std::vector<double> freeCapacities; // distinct, ascending
    };
    const StateInfo& stateInfo(int state, int n) const
    {
        if (mStateInfo.size() <= static_cast<std::size_t>(state))
            mStateInfo.resize(mStates.states());
        std::optional<StateInfo>& info = mStateInfo[static_cast<std::size_t>(state)];
        if (!info) {
            info.emplace();
            if (mPolicy == PlacementPolicy::FragmentationAware)
                info->fragmentation = fragmentationNow(n);
            for (int s : mNodeSlots[static_cast<std::size_t>(n)]) {
                info->isolated = info->isolated && slot(s).memoryIsolated;
                if (mOwner[static_cast<std::size_t>(s)] == -1)
                    info->freeCapacities.push_back(slot(s).capacityBytes);
            }
            auto& caps = info->freeCapacities;
            std::sort(caps.begin(), caps.end());
            caps.erase(std::unique(caps.begin(), caps.end()), caps.end());
        }
        return *info;
    }
    /// scoreOf from the state index: each state answers a demand shape once.
    Score indexedScore(const JobDemand& d, int state, int n) const
    {
        const StateInfo& info = stateInfo(state, n);
        double bytes = d.bytesPerUnit;
        if (info.isolated) { // the same answer for every size up to the next free capacity
            const auto it = std::lower_bound(info.freeCapacities.begin(), info.freeCapacities.end(), bytes);
            if (it == info.freeCapacities.end())
                return {};
            bytes = *it;
        }
        auto& answers = mStates.answers(state);
        const DemandKey key{d.tp, bytes, mStrictMemory};
        if (auto it = answers.find(key); it != answers.end())
            return it->second;
        const Score sc =
            mPolicy == PlacementPolicy::BestFit ? bestFitScore(d, n) : fragmentationScore(d, n, info.fragmentation);
        return answers.emplace(key, sc).first->second;
    }

    /// The node with the least score key that hosts the group, the first on a tie: from the
    /// state index (one score per distinct node state), or node by node (pinned demands, and
    /// PlacementSearch::Scan, which the index is tested against).
    int leastScore(const JobDemand& d) const
    {
        int best = -1;
        Score bestScore;
        auto consider = [&](int n, const Score& sc) {
            if (sc.ok && (best < 0 || sc.key < bestScore.key || (sc.key == bestScore.key && n < best))) {
                best = n;
                bestScore = sc;
            }
        };
        if (mIndexed && !d.pin) {
            refileChanged();
            for (int state : mStates.live())
                if (const int n = mStates.firstNode(state); mayHost(d, n))
                    consider(n, indexedScore(d, state, n));
        } else {
            for (int n = 0; n < static_cast<int>(mNodeSlots.size()); ++n)
                if (mayHost(d, n))
                    consider(n, scoreOf(d, n));
        }
        return best;
    }

    /// The slots a group of `d` takes on the chosen node.
    std::vector<int> chosenGroup(const JobDemand& d, int node) const
    {
        if (mPolicy != PlacementPolicy::FragmentationAware || d.tp > 1)
            return groupOn(d, node);
        if (mIndexed && !d.pin)
            refileChanged(); // a group before this one of the same job may have changed the node
        const Score sc = mIndexed && !d.pin ? indexedScore(d, mStates.classOf(node), node) : scoreOf(d, node);
        return {mNodeSlots[static_cast<std::size_t>(node)][static_cast<std::size_t>(sc.position)]};
    }

    /// chooseNode with a memo of failures: slots only get taken until one is released, so a
    /// group of tp units of some size that no node hosts stays unplaceable for every larger or
    /// wider group (in the same memory pass) until then. Pinned demands are searched every time.
    int chooseNode(const JobDemand& d, const std::vector<int>& used) const
    {
        if (!d.pin)
            for (const Failure& f : mFailures)
                if (f.strict == mStrictMemory && d.tp >= f.tp && d.bytesPerUnit >= f.bytes)
                    return -1;
        const int n = searchNode(d, used);
        if (n < 0 && !d.pin)
            mFailures.push_back({d.tp, d.bytesPerUnit, mStrictMemory});
        return n;
    }

    int searchNode(const JobDemand& d, const std::vector<int>& used) const
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

    std::string reasonFor(const JobDemand& d, int groupsPlaced) const
    {
        const int units = d.tp * d.groups;
        const double largest = mLargest ? mLargest->capacityBytes : 0.0;
        const std::string largestLabel = mLargest ? mLargest->label() : std::string();
        const auto fitting =
            mCapacities.end() - std::lower_bound(mCapacities.begin(), mCapacities.end(), d.bytesPerUnit);
        int p2pDomains = 0;
        if (d.pin)
            return "pinned to " + d.pin->node + (d.pin->gpu ? " GPU " + std::to_string(*d.pin->gpu) : "") +
                   ", where no free slot holds " + gib(d.bytesPerUnit) + " per GPU for all " + std::to_string(units) +
                   " units";
        if (fitting == 0)
            return "needs " + gib(d.bytesPerUnit) + " per GPU; the largest slot holds " + gib(largest) + " (" +
                   largestLabel + ")";
        if (d.tp > 1) {
            for (std::size_t n = 0; n < mNodeSlots.size() && p2pDomains == 0; ++n) {
                std::array<int, 64> perDomain{};
                std::uint64_t seenGpu = 0; // nodes have at most 64 GPUs (validation)
                for (int s : mNodeSlots[n]) {
                    const Slot& sl = slot(s);
                    const std::uint64_t bit = 1ull << std::min(sl.gpu, 63);
                    if (!sl.peerToPeer || !fits(sl, d.bytesPerUnit) || (seenGpu & bit))
                        continue;
                    seenGpu |= bit;
                    p2pDomains += ++perDomain[static_cast<std::size_t>(std::min(sl.gpu / mDomain[n], 63))] == d.tp;
                }
            }
            if (p2pDomains == 0)
                return "TP=" + std::to_string(d.tp) + " needs " + std::to_string(d.tp) + " GPUs of " +
                       gib(d.bytesPerUnit) +
                       " with NVLink peer access in one NVLink domain; the cluster has "
                       "none (MIG instances and fractional vGPUs have no peer access)";
        }
        return "needs " + std::to_string(units) + " GPU slots of " + gib(d.bytesPerUnit) +
               (d.tp > 1 ? " in TP groups of " + std::to_string(d.tp) : std::string()) + "; only " +
               std::to_string(groupsPlaced * d.tp) + " could be found free (" + std::to_string(fitting) +
               " slots are large enough in all)";
    }

    const Scenario& mScenario;
    const FabricIndex& mFabric;
    const std::vector<Slot>& mSlots;
    const std::vector<JobDemand>& mDemands;
    PlacementPolicy mPolicy;
    std::vector<int> mGpuBase;       // index of each node's first GPU in mCommitted
    std::vector<double> mCommitted;  // bytes placed on each GPU through slots without memory isolation
    bool mStrictMemory = false;      // fits() also counts mCommitted (the first pass of place())
    double mMaxSharedCapacity = 0.0; // largest slot without memory isolation
    std::vector<int> mOwner;
    std::vector<std::vector<int>> mNodeSlots;
    std::vector<int> mFree;         // free slots per node
    std::vector<double> mFreeShare; // free GPU share per node
    std::vector<int> mDomain;
    std::vector<int> mPeerGpus;        // widest free TP group per node (refreshNode)
    mutable std::vector<int> mScratch; // groupOn's result, reused to avoid allocations
    struct Failure
    {
        int tp;
        double bytes;
        bool strict;
    };
    mutable std::vector<Failure> mFailures; // groups no node hosted since the last release
    std::vector<double> mCapacities;        // every slot's capacity, ascending (for reasons)
    const Slot* mLargest = nullptr;
    std::vector<double> mMaxFreeCapacity;          // largest free slot per node
    std::vector<double> mMaxFreeStrict;            // ... counting co-tenants' memory on shared GPUs
    std::set<std::pair<double, int>> mByFreeShare; // nodes ordered by free GPU share
    std::optional<FragmentationView> mView;        // fragmentation-aware placement's measure
    mutable std::vector<frag::Place> mPlaces;      // a node's free places now (fragmentationNow)
    mutable std::vector<frag::Place> mAfter;       // ... after a group is placed
    bool mScored = false;                          // best-fit or fragmentation-aware (leastScore)
    bool mIndexed = false;                         // ... searching mStates
    std::vector<int> mLayout;                      // per node, an id of its layoutOf()
    mutable NodeStates<Score> mStates;
    mutable std::vector<char> mDirty;                         // per node: changed since last filed
    mutable std::vector<int> mDirtyNodes;                     // ... those nodes
    mutable std::string mKey;                                 // stateOf's scratch
    mutable std::vector<std::optional<StateInfo>> mStateInfo; // by state, filled when first searched
    mutable std::vector<int> mCandidates;                     // fragmentationScore's scratch
    mutable std::vector<std::tuple<double, double, int, double, int>> mTried;
};

} // namespace

PlacementOutcome placeJobs(const Scenario& scenario, const Catalog& catalog, const FabricIndex& fabric,
                           const std::vector<Slot>& slots, const std::vector<JobDemand>& demands,
                           PlacementPolicy policy, const std::vector<int>* held, PlacementSearch search)
{
    Placer placer(scenario, catalog, fabric, slots, demands, policy, search);
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
