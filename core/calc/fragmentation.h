// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#pragma once

#include "slots.h"

#include "model/catalog.h"
#include "model/scenario.h"

#include <cstddef>
#include <optional>
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
    /// Consecutive groups that want one NVLink domain: a job's expert- and context-parallel
    /// groups span tp x cp x ep consecutive ranks (Megatron-Core's order tp-cp-ep-dp-pp), so
    /// placement keeps each block of cp x ep groups inside one rack-scale domain where one
    /// holds it (placementrack.cpp).
    int alignGroups = 1;
    double bytesPerUnit = 0.0;
    std::optional<Pin> pin;
    Isolation isolation = Isolation::None; ///< its tenant's: which slots may hold it (slotGives)
    /// Pinned or isolated: only some slots may hold it, so the searches that answer per node
    /// state (the index, the memo of failures) do not apply.
    bool constrained() const { return pin.has_value() || isolation != Isolation::None; }
};

/// The fragmentation measure of Weng et al. (USENIX ATC '23) as the authors' simulator computes
/// it (pkg/utils/frag.go; docs/validation.md, "Trace replay"), shared by the trace replay and by
/// evaluate's KPI and fragmentation-aware placement: a node's fragmentation is, summed over the
/// typical task shapes weighted by their popularity, the free GPU share a task of that shape
/// cannot use there — all of it when the node cannot host the task, else the share of the places
/// that cannot serve it.
namespace frag {

/// A free place on one node: one GPU's free share (the replay) or one free slot (evaluate).
struct Place
{
    int gpu = 0;           ///< GPU index within the node (a multi-GPU task needs distinct GPUs)
    int domain = 0;        ///< NVLink domain (a multi-GPU task needs its GPUs in one)
    double share = 0.0;    ///< GPU share it stands for: the measure's unit
    double capacity = 0.0; ///< what it offers one GPU of a task: milli-GPU free, or bytes
    bool peer = true;      ///< usable by a multi-GPU task (NVLink peer access)
};

/// A task shape: `gpus` GPUs (0: CPU-only), each needing `demand` of a place's capacity, and its
/// popularity among the typical shapes.
struct Shape
{
    int gpus = 1;
    double demand = 0.0;
    double weight = 0.0;
};

/// The free share a task of `gpus` × `demand` cannot use on a node with these free places (the
/// artifact's NodeGpuShareFragAmount without its "satisfied" class): every place's share when
/// the node cannot host it (too few distinct GPUs in one NVLink domain whose places hold the
/// demand, with peer access for more than one GPU; always for a CPU-only task), else the share of
/// the places that cannot serve it (too small, or in a domain that cannot gather `gpus`).
double unusableShare(const Place* places, std::size_t count, int gpus, double demand);

/// The typical shapes among shapes counted one per task (`weight` = count): the most frequent
/// first (ties in the order given) until they cover `popularity` of all tasks, their weights then
/// renormalised to sum to 1 (the artifact's GetTypicalPods; it uses 0.95).
std::vector<Shape> typicalShapes(std::vector<Shape> counted, double popularity);

/// Σ shape weight × unusableShare over a fixed set of shapes, computed in O(places × log shapes)
/// per TP degree rather than per shape: each place adds its share times the weight of the shapes
/// asking more than it serves — its capacity for one-GPU shapes; for t-GPU shapes the smaller of
/// its capacity and the t-th largest GPU capacity of its NVLink domain (a node that hosts no such
/// task serves none of its demand anywhere, so all its free share counts, as unusableShare has it).
class Measure
{
public:
    Measure() = default;
    explicit Measure(const std::vector<Shape>& shapes);
    /// A node's fragmentation, in the places' share unit.
    double of(const Place* places, std::size_t count) const;
    /// How much a node's fragmentation changes when the places of GPU `gpu` among `places`
    /// become `after` (that GPU's places then; the node's other places stay): of(the node after)
    /// − of(the node now), summed over that GPU's places only, and over the rest of its NVLink
    /// domain's places only for the TP degrees whose t-th largest GPU capacity there changes.
    double change(const Place* places, std::size_t count, int gpu, const Place* after, std::size_t afterCount) const;
    bool empty() const { return mOne.demands.empty() && mMulti.empty() && mCpuOnly == 0.0; }
    /// Per place, whether it is a fragment to every shape (each asks more of one GPU than the
    /// place serves, as `of` counts them): `out[i]` is 1 when no task of the shapes can use place
    /// i. With no shapes, every place.
    void servesNone(const Place* places, std::size_t count, std::vector<char>& out) const;

private:
    /// Shapes of one degree by demand, ascending, with the weight of those up to each index.
    struct Degree
    {
        int gpus = 1;
        std::vector<double> demands;
        std::vector<double> weightUpTo = {0.0}; // [i]: weight of the i smallest
        double total() const { return weightUpTo.back(); }
        /// Weight of the shapes asking more than `served` (all of them for kNone: nothing served).
        double above(double served) const;
    };
    Degree mOne;
    std::vector<Degree> mMulti;
    double mCpuOnly = 0.0;
};

} // namespace frag

/// The measure on a scenario's slots: each node's free places are its free slots (capacity after
/// what co-tenants' units already commit on a GPU whose memory they share; MIG instances and
/// fractional vGPUs without peer access) and, on MIG GPUs, the memory slices in no instance as
/// one more place whose capacity is the usable memory of the largest profile the placement rules
/// let start there. The typical shapes are the job mix's groups (one task per group of TP units),
/// all of them (popularity 1.0: a scenario's mix is the planner's, not a long-tailed trace).
class FragmentationView
{
public:
    FragmentationView(const Scenario& scenario, const Catalog& catalog, const std::vector<Slot>& slots,
                      const std::vector<JobDemand>& mix);

    /// The free places of `node` given, per slot, whether it is free and the bytes its unit uses
    /// (only read for held slots). Slots of a node are consecutive; `out` is replaced.
    template <typename IsFree, typename UsedBytes>
    void placesOf(int node, IsFree free, UsedBytes used, std::vector<frag::Place>& out) const;
    double nodeFragmentation(const std::vector<frag::Place>& places) const
    {
        return mMeasure.of(places.data(), places.size());
    }
    /// How the node's fragmentation changes when GPU `gpu`'s places among `places` become `after`.
    double nodeChange(const std::vector<frag::Place>& places, int gpu, const std::vector<frag::Place>& after) const
    {
        return mMeasure.change(places.data(), places.size(), gpu, after.data(), after.size());
    }
    int domainOf(int node) const { return mDomain[static_cast<std::size_t>(node)]; }
    /// Per place of a node, 1 when no task of the job mix can use it (frag::Measure::servesNone).
    void unusableByAll(const std::vector<frag::Place>& places, std::vector<char>& out) const
    {
        mMeasure.servesNone(places.data(), places.size(), out);
    }

    struct Totals
    {
        double unusable = 0.0; ///< Σ nodes' fragmentation, GPU shares
        double free = 0.0;     ///< Σ free GPU share (free slots and MIG slices in no instance)
    };
    /// The cluster's fragmentation with `owner[i]` < 0 for free slots, `usedBytes[i]` for held ones.
    /// The trays of a rack-scale NVLink domain are measured together, as one node whose GPUs are
    /// one NVLink domain: a TP-16 task fits a rack with 16 free GPUs on any of its trays.
    Totals cluster(const std::vector<int>& owner, const std::vector<double>& usedBytes) const;

private:
    const std::vector<Slot>& mSlots;
    std::vector<int> mDomain; // NVLink domain size per node
    /// Rack-scale NVLink domains (groups of kind "nvlink_domain"): each one's trays, which
    /// `cluster` measures as one node (one NVLink domain of all their GPUs); -1 outside one.
    std::vector<std::vector<int>> mRackNodes;
    std::vector<int> mRackOf;
    std::vector<int> mFirstSlot; // per node, its first slot; one past the last at the end
    /// Per node, its MIG GPUs' slices in no instance: (GPU, share, capacity).
    struct Region
    {
        int gpu;
        double share;
        double capacity;
    };
    std::vector<std::vector<Region>> mRegions;
    frag::Measure mMeasure;
};

template <typename IsFree, typename UsedBytes>
void FragmentationView::placesOf(int node, IsFree free, UsedBytes used, std::vector<frag::Place>& out) const
{
    out.clear();
    const auto n = static_cast<std::size_t>(node);
    const int domain = std::max(1, mDomain[n]);
    const auto& regions = mRegions[n];
    std::size_t r = 0;
    int first = mFirstSlot[n];
    const int end = mFirstSlot[n + 1];
    while (first < end) {
        const int gpu = mSlots[static_cast<std::size_t>(first)].gpu;
        int last = first;
        double committed = 0.0; // bytes held on this GPU through slots that share its memory
        for (; last < end && mSlots[static_cast<std::size_t>(last)].gpu == gpu; ++last)
            if (!mSlots[static_cast<std::size_t>(last)].memoryIsolated && !free(static_cast<std::size_t>(last)))
                committed += used(static_cast<std::size_t>(last));
        const std::size_t gpuStart = out.size();
        for (int i = first; i < last; ++i) {
            const Slot& sl = mSlots[static_cast<std::size_t>(i)];
            if (!free(static_cast<std::size_t>(i)))
                continue;
            const double capacity = sl.memoryIsolated ? sl.capacityBytes : sl.capacityBytes - committed;
            // Alike free slots of one GPU (time-slicing replicas, MPS clients) are one place of
            // their summed share: the measure adds them alike.
            if (out.size() > gpuStart && out.back().capacity == capacity && out.back().peer == sl.peerToPeer)
                out.back().share += sl.gpuFraction;
            else
                out.push_back({gpu, gpu / domain, sl.gpuFraction, capacity, sl.peerToPeer});
        }
        for (; r < regions.size() && regions[r].gpu <= gpu; ++r) // this GPU's, and GPUs without slots before it
            out.push_back({regions[r].gpu, regions[r].gpu / domain, regions[r].share, regions[r].capacity, false});
        first = last;
    }
    for (; r < regions.size(); ++r) // MIG GPUs without any instance have no slots
        out.push_back({regions[r].gpu, regions[r].gpu / domain, regions[r].share, regions[r].capacity, false});
}

} // namespace gp::calc
