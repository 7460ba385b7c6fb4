// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
// The scored searches of placement: best fit and fragmentation gradient descent, node by node
// or over the index of node states (docs/model-reference.md, "Placement").
#include "placer.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>

namespace gp::calc::detail {

void Placer::refileChanged() const
{
    for (int n : mDirtyNodes) {
        const int from = mStates.classOf(n);
        mStates.file(n, mNodeKey[static_cast<std::size_t>(n)]);
        mDirty[static_cast<std::size_t>(n)] = false;
        if (const int to = mStates.classOf(n); to != from) {
            mMoved.push_back(from);
            mMoved.push_back(to);
        }
    }
    mDirtyNodes.clear();
}

std::string Placer::layoutOf(int n) const
{
    const Node& node = mScenario.topology.nodes[static_cast<std::size_t>(n)];
    std::string key = node.gpuId + '|' + std::to_string(mDomain[static_cast<std::size_t>(n)]);
    const auto& list = mNodeSlots[static_cast<std::size_t>(n)];
    constexpr std::size_t kFields = 5 * sizeof(double) + 1; // the numbers and flags of a slot
    std::size_t size = key.size();
    for (int k : list)
        size += kFields + (slot(k).profile ? slot(k).profile->size() : 0) + 1;
    std::size_t at = key.size();
    key.resize(size); // written in place: appending field by field costs more than the search
    for (int k : list) {
        const Slot& sl = slot(k);
        const double fields[] = {static_cast<double>(sl.gpu), sl.capacityBytes, sl.gpuFraction,
                                 static_cast<double>(sl.start), static_cast<double>(static_cast<int>(sl.mode))};
        std::memcpy(key.data() + at, fields, sizeof fields);
        at += sizeof fields;
        key[at++] = static_cast<char>((sl.peerToPeer ? 1 : 0) | (sl.memoryIsolated ? 2 : 0));
        if (sl.profile) {
            std::memcpy(key.data() + at, sl.profile->data(), sl.profile->size());
            at += sl.profile->size();
        }
        key[at++] = '\0'; // profile names end here
    }
    return key;
}

void Placer::buildStateKey(int n)
{
    const int layout = mLayout[static_cast<std::size_t>(n)];
    const auto& list = mNodeSlots[static_cast<std::size_t>(n)];
    std::string& key = mNodeKey[static_cast<std::size_t>(n)];
    key.assign(reinterpret_cast<const char*>(&layout), sizeof layout);
    for (int r = mFirstRun[static_cast<std::size_t>(n)]; r < mFirstRun[static_cast<std::size_t>(n) + 1]; ++r) {
        Run& run = mRuns[static_cast<std::size_t>(r)];
        bool shared = false;
        for (int a = run.begin; a < run.end; ++a) {
            const int k = list[static_cast<std::size_t>(a)];
            mFlagAt[static_cast<std::size_t>(k)] = static_cast<int>(key.size());
            key += mOwner[static_cast<std::size_t>(k)] == -1 ? 'f' : 'h';
            shared = shared || !slot(k).memoryIsolated;
        }
        if (shared) {
            run.committedAt = static_cast<int>(key.size());
            const double committed = mCommitted[gpuIndex(slot(list[static_cast<std::size_t>(run.begin)]))];
            key.append(reinterpret_cast<const char*>(&committed), sizeof committed);
        }
    }
}

void Placer::placesNow(int n) const
{
    mView->placesOf(
        n, [&](std::size_t i) { return mOwner[i] == -1; },
        [&](std::size_t i) { return bytesHeld(static_cast<int>(i)); }, mPlaces);
}

void Placer::take(std::vector<frag::Place>& places, const int* taken, std::size_t count, double bytes) const
{
    for (std::size_t t = 0; t < count; ++t) {
        const Slot& sl = slot(taken[t]);
        const double capacity = sl.memoryIsolated ? sl.capacityBytes : sl.capacityBytes - mCommitted[gpuIndex(sl)];
        for (frag::Place& p : places)
            if (p.gpu == sl.gpu && p.capacity == capacity && p.peer == sl.peerToPeer) {
                p.share -= sl.gpuFraction;
                break;
            }
    }
    for (std::size_t t = 0; t < count; ++t)
        if (const Slot& sl = slot(taken[t]); !sl.memoryIsolated)
            for (frag::Place& p : places)
                if (p.gpu == sl.gpu)
                    p.capacity -= bytes;
    std::erase_if(places, [](const frag::Place& p) { return p.share <= 1e-12; });
}

double Placer::fragmentationAfter(const std::vector<frag::Place>& places, const int* taken, std::size_t count,
                                  double bytes) const
{
    mAfter = places;
    take(mAfter, taken, count, bytes);
    return mView->nodeFragmentation(mAfter);
}

double Placer::fragmentationChange(const std::vector<frag::Place>& places, int s, double bytes) const
{
    const int gpu = slot(s).gpu;
    mAfter.clear();
    for (const frag::Place& p : places)
        if (p.gpu == gpu)
            mAfter.push_back(p);
    take(mAfter, &s, 1, bytes);
    return mView->nodeChange(places, gpu, mAfter);
}

void Placer::slotKinds(const JobDemand& d, int n, std::vector<int>& out) const
{
    out.clear();
    const auto& list = mNodeSlots[static_cast<std::size_t>(n)];
    std::array<int, 64> freeOnGpu{}; // nodes have at most 64 GPUs (validation)
    for (int s : list)
        if (mOwner[static_cast<std::size_t>(s)] == -1)
            ++freeOnGpu[static_cast<std::size_t>(std::clamp(slot(s).gpu, 0, 63))];
    auto& tried = mTried;
    tried.clear();
    for (int p = 0; p < static_cast<int>(list.size()); ++p) {
        const Slot& sl = slot(list[static_cast<std::size_t>(p)]);
        if (mOwner[static_cast<std::size_t>(list[static_cast<std::size_t>(p)])] != -1 || !pinAllows(d, sl))
            continue;
        // GPUs of one NVLink domain with the same free slots and committed memory are alike.
        const std::tuple<double, double, int, double, int> kind{
            sl.capacityBytes, sl.gpuFraction, sl.gpu / mDomain[static_cast<std::size_t>(n)],
            sl.memoryIsolated ? 0.0 : mCommitted[gpuIndex(sl)],
            freeOnGpu[static_cast<std::size_t>(std::clamp(sl.gpu, 0, 63))]};
        if (std::find(tried.begin(), tried.end(), kind) == tried.end()) {
            tried.push_back(kind);
            out.push_back(p);
        }
    }
}

Placer::Score Placer::fragmentationScore(const JobDemand& d, int n, const std::vector<frag::Place>& places,
                                         double before, const std::vector<int>& kinds) const
{
    Score out;
    if (d.tp > 1) {
        const std::vector<int>& group = groupOn(d, n);
        if (!group.empty())
            out = {true,
                   {quantized(fragmentationAfter(places, group.data(), group.size(), d.bytesPerUnit) - before), 0},
                   -1};
        return out;
    }
    // The fitting slot that grows the fragmentation least; on a tie the smallest, then the first.
    // Alike slots leave the node alike, and a kind fits whole or not at all (its slots share
    // capacity and committed memory): its first is scored.
    const auto& list = mNodeSlots[static_cast<std::size_t>(n)];
    double bestCapacity = 0.0;
    for (int p : kinds) {
        const int s = list[static_cast<std::size_t>(p)];
        const Slot& sl = slot(s);
        if (!fits(sl, d.bytesPerUnit))
            continue;
        const long long key = quantized(fragmentationChange(places, s, d.bytesPerUnit));
        if (!out.ok || key < out.key.first || (key == out.key.first && sl.capacityBytes < bestCapacity)) {
            out = {true, {key, 0}, p};
            bestCapacity = sl.capacityBytes;
        }
    }
    return out;
}

Placer::Score Placer::bestFitScore(const JobDemand& d, int n) const
{
    const std::vector<int>& group = groupOn(d, n);
    if (group.empty())
        return {};
    double capacity = 0.0;
    for (int s : group)
        capacity += slot(s).capacityBytes;
    return {true, {quantized(mFreeShare[static_cast<std::size_t>(n)]), std::llround(capacity)}, -1};
}

Placer::Score Placer::scoreOf(const JobDemand& d, int n) const
{
    if (mPolicy == PlacementPolicy::BestFit)
        return bestFitScore(d, n);
    placesNow(n);
    slotKinds(d, n, mKinds);
    return fragmentationScore(d, n, mPlaces, mView->nodeFragmentation(mPlaces), mKinds);
}

const Placer::StateInfo& Placer::stateInfo(int state, int n) const
{
    if (mStateInfo.size() <= static_cast<std::size_t>(state))
        mStateInfo.resize(mStates.states());
    std::optional<StateInfo>& info = mStateInfo[static_cast<std::size_t>(state)];
    if (!info) {
        info.emplace();
        if (mPolicy == PlacementPolicy::FragmentationAware) {
            placesNow(n);
            info->places = mPlaces;
            info->fragmentation = mView->nodeFragmentation(info->places);
            slotKinds(JobDemand{}, n, info->kinds); // the index never searches for pinned demands
        }
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

Placer::Score Placer::indexedScore(const JobDemand& d, int state, int n) const
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
    for (const auto& [k, answer] : answers) // a state is asked few shapes: a list beats a hash map
        if (k == key)
            return answer;
    const Score sc = mPolicy == PlacementPolicy::BestFit
                         ? bestFitScore(d, n)
                         : fragmentationScore(d, n, info.places, info.fragmentation, info.kinds);
    answers.emplace_back(key, sc);
    return sc;
}

int Placer::leastScore(const JobDemand& d) const
{
    int best = -1;
    Score bestScore;
    auto consider = [&](int n, const Score& sc) {
        if (sc.ok && (best < 0 || sc.key < bestScore.key || (sc.key == bestScore.key && n < best))) {
            best = n;
            bestScore = sc;
        }
    };
    if (mIndexed && !d.constrained() && !mPcieTp) { // the states' memo answers the NVLink pass only
        refileChanged();
        // The states' answers for this demand, kept from its last search: only the states nodes
        // left or entered since (the log of moves) are asked again, unless that is more than
        // asking every live state.
        auto [it, fresh] = mFound.try_emplace(DemandKey{d.tp, d.bytesPerUnit, mStrictMemory});
        Found& memo = it->second;
        std::vector<Candidate>& found = memo.candidates;
        auto ask = [&](int state) {
            if (state < 0 || !mStates.isLive(state))
                return;
            if (const int n = mStates.firstNode(state); mayHost(d, n))
                if (const Score sc = indexedScore(d, state, n); sc.ok)
                    found.push_back({sc.key, n, state});
        };
        if (!fresh && mMoved.size() - memo.logPos <= mStates.live().size()) {
            if (mMark.size() < mStates.states())
                mMark.resize(mStates.states(), 0);
            ++mMarkNow;
            for (std::size_t i = memo.logPos; i < mMoved.size(); ++i)
                if (const int state = mMoved[i]; state >= 0)
                    mMark[static_cast<std::size_t>(state)] = mMarkNow;
            std::erase_if(found,
                          [this](const Candidate& c) { return mMark[static_cast<std::size_t>(c.state)] == mMarkNow; });
            for (std::size_t i = memo.logPos; i < mMoved.size(); ++i)
                if (const int state = mMoved[i]; state >= 0 && mMark[static_cast<std::size_t>(state)] == mMarkNow) {
                    mMark[static_cast<std::size_t>(state)] = 0; // asked once
                    ask(state);
                }
        } else {
            found.clear();
            for (int state : mStates.live())
                ask(state);
        }
        memo.logPos = mMoved.size();
        for (const Candidate& c : found)
            consider(c.node, {true, c.key, -1});
    } else {
        for (int n = 0; n < static_cast<int>(mNodeSlots.size()); ++n)
            if (mayHost(d, n))
                consider(n, scoreOf(d, n));
    }
    return best;
}

const std::vector<int>& Placer::chosenGroup(const JobDemand& d, int node) const
{
    if (mPolicy != PlacementPolicy::FragmentationAware || d.tp > 1)
        return groupOn(d, node);
    if (mIndexed && !d.constrained())
        refileChanged(); // a group before this one of the same job may have changed the node
    const Score sc = mIndexed && !d.constrained() ? indexedScore(d, mStates.classOf(node), node) : scoreOf(d, node);
    mScratch.assign(1, mNodeSlots[static_cast<std::size_t>(node)][static_cast<std::size_t>(sc.position)]);
    return mScratch;
}

} // namespace gp::calc::detail
