// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
// The placer behind placeJobs (placement.h), shared by placement.cpp (the placing, the
// first-fit and topology-aware searches, the reasons) and placementscore.cpp (the scored
// best-fit and fragmentation-aware searches and their index of node states). Not for use
// outside core/calc.
#pragma once

#include "fragmentation.h"
#include "nodestates.h"
#include "placement.h"

#include <cmath>
#include <optional>
#include <set>
#include <string>
#include <tuple>
#include <unordered_map>
#include <utility>
#include <vector>

namespace gp::calc::detail {

/// Places demands one group at a time with one policy, keeping per node the figures the
/// searches read (docs/model-reference.md, "Placement").
class Placer
{
public:
    Placer(const Scenario& s, const Catalog& c, const FabricIndex& fabric, const std::vector<Slot>& slots,
           const std::vector<JobDemand>& demands, PlacementPolicy policy, PlacementSearch search);

    JobPlacement place(const JobDemand& d, int demandIndex);

    const std::vector<int>& owner() const { return mOwner; }
    void hold(int s);

private:
    const Slot& slot(int i) const { return mSlots[static_cast<std::size_t>(i)]; }
    void release(int s);
    /// Gives slot `s` to `owner` (-1 frees; a demand index or kHeld takes); refreshNode then
    /// brings the node's figures up to date.
    void setOwner(int s, int owner);
    /// The node's figures the searches read: free GPU share, memory committed on GPUs that share
    /// it, the largest free slot with and without co-tenants' memory counted, and the widest TP
    /// group it could still offer (distinct GPUs with a free peer-to-peer slot in one NVLink
    /// domain). The GPUs whose slots changed owner since (setOwner) are summed again slot by slot
    /// (refreshRun), then the node from its GPUs' figures in GPU order (sumNode), so that nodes in
    /// the same state carry the same figures to the last bit (the scores and the index rely on it).
    void refreshNode(int node);
    void refreshRun(int run);
    void sumNode(int node);
    /// Files the nodes that changed since the last search under their new states.
    void refileChanged() const;
    /// Bytes a unit of demand `o` needs (0 for no demand, or kHeld: placed before).
    double bytesOf(int o) const { return o >= 0 ? mDemands[static_cast<std::size_t>(o)].bytesPerUnit : 0.0; }
    double bytesHeld(int k) const { return bytesOf(mOwner[static_cast<std::size_t>(k)]); }
    /// What makes two nodes alike for every search: GPU model, slots and NVLink domains.
    std::string layoutOf(int n) const;
    /// The node's state key: its layout, which slots are free ('f'/'h') and the memory committed
    /// on each GPU that shares it, written once here (with the places of its flags and figures)
    /// and then kept up to date in place by setOwner and refreshRun.
    void buildStateKey(int n);
    /// Cheap test before the slot-by-slot search.
    bool mayHost(const JobDemand& d, int n) const
    {
        const auto i = static_cast<std::size_t>(n);
        return mFree[i] >= d.tp && (d.tp <= 1 || (mPcieTp ? mPeerAny[i] : mPeerGpus[i]) >= d.tp) &&
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

    /// Whether the demand's pin and its tenant's isolation let slot `s` hold it.
    bool pinAllows(const JobDemand& d, const Slot& s) const
    {
        if (!slotGives(s, d.isolation))
            return false;
        if (!d.pin)
            return true;
        if (mScenario.topology.nodes[static_cast<std::size_t>(s.node)].id != d.pin->node)
            return false;
        if (d.pin->gpu && *d.pin->gpu != s.gpu)
            return false;
        return !d.pin->migInstance || (s.mode == SharingMode::Mig && *d.pin->migInstance == s.index);
    }

    /// The slots of one group of `d` on `node`, or empty if it does not fit there.
    const std::vector<int>& groupOn(const JobDemand& d, int node) const;

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

    /// The node's free places now (fragmentation.h), into mPlaces.
    void placesNow(int n) const;
    /// The node's fragmentation with `count` slots of `taken` given units of `bytes`, from its
    /// free places now: each slot's share leaves its place, and on a GPU whose memory its slots
    /// share every free place there holds `bytes` less per unit placed.
    double fragmentationAfter(const std::vector<frag::Place>& places, const int* taken, std::size_t count,
                              double bytes) const;
    /// The same for one slot `s`, as the change of the node's fragmentation (frag::Measure::change:
    /// only the slot's GPU's places, and its domain's where a TP bound moves, are summed).
    double fragmentationChange(const std::vector<frag::Place>& places, int s, double bytes) const;
    /// `places` as they are once `count` slots of `taken` hold units of `bytes`.
    void take(std::vector<frag::Place>& places, const int* taken, std::size_t count, double bytes) const;

    /// Fragmentation gradient descent (Weng et al., USENIX ATC '23): how much the node's
    /// fragmentation grows when the group is placed there. A TP group takes the slots groupOn
    /// finds; a one-unit group the fitting slot that grows it least (the smallest slot on a tie).
    /// `places` and `before`: the node's free places and fragmentation now.
    /// `kinds`: the node's free slots one per kind (slotKinds).
    Score fragmentationScore(const JobDemand& d, int n, const std::vector<frag::Place>& places, double before,
                             const std::vector<int>& kinds) const;
    /// The node's free slots that `d`'s pin allows, one per kind (by position in the node's list,
    /// the first of each): slots alike in capacity, share, NVLink domain, memory committed on
    /// their GPU and free slots there leave the node alike when one of them is taken.
    void slotKinds(const JobDemand& d, int n, std::vector<int>& out) const;

    /// Best fit: the least free GPU share, then the least memory left over in the group's slots
    /// (every node gets the same units, so: the least capacity in them).
    Score bestFitScore(const JobDemand& d, int n) const;

    Score scoreOf(const JobDemand& d, int n) const;
    /// What a state's answers depend on besides the demand: its free places and fragmentation as
    /// they are (fragmentation-aware placement), and the capacities of its free slots when no slot
    /// shares its GPU's memory (then a demand's answer depends on its bytes only through the
    /// smallest free slot that holds them).
    struct StateInfo
    {
        std::vector<frag::Place> places;
        std::vector<int> kinds; // slotKinds
        double fragmentation = 0.0;
        bool isolated = true;
        std::vector<double> freeCapacities; // distinct, ascending
    };
    const StateInfo& stateInfo(int state, int n) const;
    /// scoreOf from the state index: each state answers a demand shape once.
    Score indexedScore(const JobDemand& d, int state, int n) const;

    /// The node with the least score key that hosts the group, the first on a tie: from the
    /// state index (one score per distinct node state), or node by node (pinned demands, and
    /// PlacementSearch::Scan, which the index is tested against).
    int leastScore(const JobDemand& d) const;

    /// The slots a group of `d` takes on the chosen node.
    const std::vector<int>& chosenGroup(const JobDemand& d, int node) const;

    /// chooseNode with a memo of failures: slots only get taken until one is released, so a
    /// group of tp units of some size that no node hosts stays unplaceable for every larger or
    /// wider group (in the same memory pass) until then. Pinned demands are searched every time.
    int chooseNode(const JobDemand& d, const std::vector<int>& used) const;

    int searchNode(const JobDemand& d, const std::vector<int>& used) const;

    std::string reasonFor(const JobDemand& d, int groupsPlaced) const;

    /// Rack-scale NVLink domains (placementrack.cpp): the free GPUs of rack `rack` with a slot
    /// that holds a unit of `d` (one slot per GPU, the first `d.tp` of them into `out`).
    int freePeerGpusInRack(const JobDemand& d, int rack, std::vector<int>* out) const;
    /// The slots of one TP group of `d` across the trays of one rack-scale domain, or empty.
    const std::vector<int>& groupInRack(const JobDemand& d, const std::vector<int>& used) const;
    /// Places `count` consecutive groups of `d` (one expert-/context-parallel block) on the
    /// trays of one rack-scale domain, appending their slots to `out`; false (nothing taken)
    /// where the block fits a node's own domain or no rack holds it.
    bool blockInRack(const JobDemand& d, int count, int demandIndex, JobPlacement& out);
    /// Gives the slots of `group` (GPUs across the trays of one rack) to the demand, adding
    /// them to `out` and their nodes to `used`.
    void take(std::vector<int> group, int demandIndex, JobPlacement& out, std::vector<int>& used);
    /// Why a TP group found no rack-scale domain, with the widest TP that one would take.
    std::string rackReason(const JobDemand& d) const;

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
    int mWidestTrayDomain = 0;         // the widest own NVLink domain of a rack-scale domain's trays
    std::vector<int> mPeerGpus;        // widest free TP group per node (refreshNode)
    std::vector<int> mPeerAny;         // free GPUs with a whole-GPU slot per node (a TP group over PCIe)
    mutable bool mPcieTp = false;      // chooseNode's second pass: a TP group may span NVLink domains
    mutable std::vector<int> mScratch; // groupOn's and chosenGroup's result, reused to avoid allocations
    int mPlacing = -1;                 // the demand place() is placing (its earlier groups own slots)
    std::vector<int> mUsed;            // place(): nodes the job already uses
    struct Failure
    {
        int tp;
        double bytes;
        bool strict;
    };
    mutable std::vector<Failure> mFailures; // groups no node hosted since the last release
    /// Each distinct slot capacity, ascending, with how many slots have at least it (for reasons;
    /// counted when first asked).
    mutable std::vector<std::pair<double, int>> mCapacities;
    const Slot* mLargest = nullptr;
    std::vector<double> mMaxFreeCapacity;          // largest free slot per node
    std::vector<double> mMaxFreeStrict;            // ... counting co-tenants' memory on shared GPUs
    std::set<std::pair<double, int>> mByFreeShare; // nodes ordered by free GPU share
    std::optional<FragmentationView> mView;        // fragmentation-aware placement's measure
    mutable std::vector<frag::Place> mPlaces;      // a node's free places now (placesNow)
    mutable std::vector<frag::Place> mAfter;       // ... after a group is placed
    bool mScored = false;                          // best-fit or fragmentation-aware (leastScore)
    bool mIndexed = false;                         // ... searching mStates
    std::vector<int> mLayout;                      // per node, an id of its layoutOf()
    mutable NodeStates<Score> mStates;
    /// leastScore's answers of the live states per demand key, as of a position in the log of
    /// states that nodes left or entered (refileChanged appends to it).
    struct Candidate
    {
        std::pair<long long, long long> key;
        int node;
        int state;
    };
    struct Found
    {
        std::vector<Candidate> candidates;
        std::size_t logPos = 0;
    };
    struct DemandKeyHash
    {
        std::size_t operator()(const DemandKey& k) const noexcept
        {
            return std::hash<double>()(k.bytes) * 31u + static_cast<std::size_t>(k.tp) * 2u + (k.strict ? 1u : 0u);
        }
    };
    mutable std::unordered_map<DemandKey, Found, DemandKeyHash> mFound;
    mutable std::vector<int> mMoved;     // the log of moves: states left and entered
    mutable std::vector<unsigned> mMark; // per state: == mMarkNow when moved since a memo's position
    mutable unsigned mMarkNow = 0;
    mutable std::vector<char> mDirty;     // per node: changed since last filed
    mutable std::vector<int> mDirtyNodes; // ... those nodes
    /// One GPU's slots in a node's list (positions [begin, end)), and where the memory committed
    /// on it sits in the node's state key (-1: its slots do not share memory, or no index).
    struct Run
    {
        int node;
        int begin;
        int end;
        int domain;
        int committedAt;
    };
    struct RunFigures
    {
        double share = 0.0;
        double maxCapacity = 0.0;
        double maxStrict = 0.0;
        bool peerFree = false;
    };
    std::vector<Run> mRuns;
    std::vector<RunFigures> mRunFigures;
    std::vector<int> mFirstRun; // per node, its first run; one past the last at the end
    std::vector<int> mRunOf;    // per slot, its run
    std::vector<char> mRunDirty;
    std::vector<int> mDirtyRuns;
    std::vector<std::string> mNodeKey;                        // per node, its state key (index only)
    std::vector<int> mFlagAt;                                 // per slot, where its flag sits in its node's key
    mutable std::vector<std::optional<StateInfo>> mStateInfo; // by state, filled when first searched
    mutable std::vector<std::tuple<double, double, int, double, int>> mTried; // slotKinds' scratch
    mutable std::vector<int> mKinds;                                          // ... its result (scan)
};

} // namespace gp::calc::detail
