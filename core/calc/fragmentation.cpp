// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#include "fragmentation.h"

#include "model/miglayout.h"
#include "model/units.h"

#include <algorithm>
#include <array>
#include <bit>
#include <cstdint>
#include <functional>
#include <limits>
#include <map>

namespace gp::calc {

namespace frag {

namespace {

constexpr double kNone = -std::numeric_limits<double>::infinity();
constexpr int kMaxGpus = 64; // nodes have at most 64 GPUs (validation)

int gpuBit(int gpu) { return std::clamp(gpu, 0, kMaxGpus - 1); }

/// Per GPU of a node, the largest capacity among its peer places, GPUs ordered by domain and
/// then capacity, largest first: the t-th of a domain's run bounds what a t-GPU task finds there.
struct PeerGpus
{
    std::array<std::pair<int, double>, kMaxGpus> byDomain{}; // (domain, capacity)
    int count = 0;
    /// The t-th largest GPU capacity of `domain` (kNone if it has fewer than t GPUs).
    double tth(int domain, int t) const
    {
        for (int i = 0; i < count; ++i)
            if (byDomain[static_cast<std::size_t>(i)].first == domain) {
                const int at = i + t - 1;
                return at < count && byDomain[static_cast<std::size_t>(at)].first == domain
                           ? byDomain[static_cast<std::size_t>(at)].second
                           : kNone;
            }
        return kNone;
    }
};

/// Sorts a node's few per-GPU values, largest first (insertion sort: a domain has at most a
/// few dozen GPUs, usually eight).
void largestFirst(double* values, std::size_t count)
{
    for (std::size_t i = 1; i < count; ++i) {
        const double v = values[i];
        std::size_t j = i;
        for (; j > 0 && values[j - 1] < v; --j)
            values[j] = values[j - 1];
        values[j] = v;
    }
}

PeerGpus peerGpus(const Place* places, std::size_t count)
{
    std::array<double, kMaxGpus> cap;
    cap.fill(kNone);
    std::array<int, kMaxGpus> domain{};
    std::uint64_t seen = 0;
    for (std::size_t i = 0; i < count; ++i) {
        const Place& p = places[i];
        if (!p.peer)
            continue;
        const auto g = static_cast<std::size_t>(gpuBit(p.gpu));
        cap[g] = std::max(cap[g], p.capacity);
        domain[g] = p.domain;
        seen |= 1ull << g;
    }
    PeerGpus out;
    for (std::size_t g = 0; g < kMaxGpus; ++g)
        if (seen & (1ull << g))
            out.byDomain[static_cast<std::size_t>(out.count++)] = {domain[g], cap[g]};
    std::sort(out.byDomain.begin(), out.byDomain.begin() + out.count, [](const auto& a, const auto& b) {
        return a.first != b.first ? a.first < b.first : a.second > b.second;
    });
    return out;
}

} // namespace

double unusableShare(const Place* places, std::size_t count, int gpus, double demand)
{
    double all = 0.0, small = 0.0;
    for (std::size_t i = 0; i < count; ++i) {
        all += places[i].share;
        small += places[i].capacity < demand ? places[i].share : 0.0;
    }
    if (gpus <= 0)
        return all;
    if (gpus == 1) // the places too small; when none holds the demand that is all of them
        return small;
    // Distinct GPUs per domain with a peer place that holds one GPU's demand.
    std::array<int, kMaxGpus> perDomain{};
    std::uint64_t seen = 0;
    int most = 0;
    for (std::size_t i = 0; i < count; ++i) {
        const Place& p = places[i];
        const std::uint64_t bit = 1ull << gpuBit(p.gpu);
        if (p.capacity >= demand && p.peer && !(seen & bit)) {
            seen |= bit;
            most = std::max(most, ++perDomain[static_cast<std::size_t>(gpuBit(p.domain))]);
        }
    }
    if (most < gpus)
        return all; // the node cannot host the task: every free share is a fragment to it
    double unusable = 0.0;
    for (std::size_t i = 0; i < count; ++i) {
        const Place& p = places[i];
        const bool serves =
            p.capacity >= demand && p.peer && perDomain[static_cast<std::size_t>(gpuBit(p.domain))] >= gpus;
        unusable += serves ? 0.0 : p.share;
    }
    return unusable;
}

std::vector<Shape> typicalShapes(std::vector<Shape> counted, double popularity)
{
    double total = 0.0;
    for (const Shape& s : counted)
        total += s.weight;
    std::stable_sort(counted.begin(), counted.end(),
                     [](const Shape& a, const Shape& b) { return a.weight > b.weight; });
    std::vector<Shape> out;
    double covered = 0.0;
    for (const Shape& s : counted) {
        if (covered >= popularity * total || s.weight <= 0.0)
            break;
        covered += s.weight;
        out.push_back(s);
    }
    for (Shape& s : out)
        s.weight /= covered;
    return out;
}

double Measure::Degree::above(double served) const
{
    if (served == kNone)
        return total();
    const auto i = static_cast<std::size_t>(std::upper_bound(demands.begin(), demands.end(), served) - demands.begin());
    return total() - weightUpTo[i];
}

Measure::Measure(const std::vector<Shape>& shapes)
{
    std::map<int, std::vector<std::pair<double, double>>> byDegree;
    for (const Shape& s : shapes) {
        if (s.gpus <= 0)
            mCpuOnly += s.weight;
        else
            byDegree[s.gpus].push_back({s.demand, s.weight});
    }
    for (auto& [gpus, list] : byDegree) {
        std::sort(list.begin(), list.end());
        Degree d;
        d.gpus = gpus;
        for (const auto& [demand, weight] : list) {
            d.demands.push_back(demand);
            d.weightUpTo.push_back(d.weightUpTo.back() + weight);
        }
        if (gpus == 1)
            mOne = std::move(d);
        else
            mMulti.push_back(std::move(d));
    }
}

double Measure::of(const Place* places, std::size_t count) const
{
    double all = 0.0;
    for (std::size_t i = 0; i < count; ++i)
        all += places[i].share;
    if (all <= 0.0)
        return 0.0;
    // Each place is a fragment to every shape asking more of one GPU than the place serves: for
    // a one-GPU shape its capacity (whether or not another place of the node hosts the task, the
    // sum is the same); for a t-GPU shape the smaller of its capacity and the t-th largest GPU
    // capacity of its domain (nothing without peer access). Shapes the node cannot host at all
    // ask more than every place serves, so all its free share counts for them, as it should.
    double f = mCpuOnly * all;
    if (!mOne.demands.empty()) {
        double lastCapacity = kNone, lastWeight = 0.0; // alike places follow each other
        for (std::size_t i = 0; i < count; ++i) {
            if (places[i].capacity != lastCapacity) {
                lastCapacity = places[i].capacity;
                lastWeight = mOne.above(lastCapacity);
            }
            f += places[i].share * lastWeight;
        }
    }
    if (mMulti.empty())
        return f;
    const PeerGpus gpus = peerGpus(places, count);
    for (const Degree& d : mMulti) {
        std::array<double, kMaxGpus> bound; // per domain: the largest demand it gathers d.gpus GPUs for
        bound.fill(kNone);
        for (int i = 0; i < gpus.count; ++i) {
            const int dom = gpus.byDomain[static_cast<std::size_t>(i)].first;
            if (auto& b = bound[static_cast<std::size_t>(gpuBit(dom))]; b == kNone)
                b = gpus.tth(dom, d.gpus);
        }
        double lastServes = kNone, lastWeight = d.total(); // alike places follow each other
        for (std::size_t i = 0; i < count; ++i) {
            const Place& p = places[i];
            const double serves =
                p.peer ? std::min(p.capacity, bound[static_cast<std::size_t>(gpuBit(p.domain))]) : kNone;
            if (serves != lastServes) {
                lastServes = serves;
                lastWeight = d.above(serves);
            }
            f += p.share * lastWeight;
        }
    }
    return f;
}

void Measure::servesNone(const Place* places, std::size_t count, std::vector<char>& out) const
{
    out.assign(count, 1);
    // A shape of one GPU uses a place that holds its demand; a t-GPU shape one whose served
    // capacity (its own, bounded by the t-th largest GPU capacity of its domain, with peer
    // access) holds it. Demands are ascending: the smallest of a degree decides.
    if (!mOne.demands.empty())
        for (std::size_t i = 0; i < count; ++i)
            if (places[i].capacity >= mOne.demands.front())
                out[i] = 0;
    if (mMulti.empty())
        return;
    const PeerGpus gpus = peerGpus(places, count);
    for (const Degree& d : mMulti) {
        for (std::size_t i = 0; i < count; ++i) {
            const Place& p = places[i];
            if (!out[i] || !p.peer)
                continue;
            if (std::min(p.capacity, gpus.tth(p.domain, d.gpus)) >= d.demands.front())
                out[i] = 0;
        }
    }
}

double Measure::change(const Place* places, std::size_t count, int gpu, const Place* after,
                       std::size_t afterCount) const
{
    // One GPU's share: every shape's part is share × weight of the shapes asking more than a place
    // serves, so the GPU's places leave and come back with their own terms.
    auto onGpu = [gpu](const Place& p) { return p.gpu == gpu; };
    double delta = 0.0;
    for (std::size_t i = 0; i < afterCount; ++i)
        delta += after[i].share * (mCpuOnly + (mOne.demands.empty() ? 0.0 : mOne.above(after[i].capacity)));
    for (std::size_t i = 0; i < count; ++i)
        if (onGpu(places[i]))
            delta -= places[i].share * (mCpuOnly + (mOne.demands.empty() ? 0.0 : mOne.above(places[i].capacity)));
    if (mMulti.empty())
        return delta;
    // Multi-GPU shapes: the GPU's domain's largest peer capacity per GPU, before and after.
    int domain = -1;
    for (std::size_t i = 0; i < count && domain < 0; ++i)
        domain = onGpu(places[i]) ? places[i].domain : -1;
    for (std::size_t i = 0; i < afterCount && domain < 0; ++i)
        domain = after[i].domain;
    // Per GPU of the domain (bit g of `seen`), its largest peer capacity before and after.
    std::array<double, kMaxGpus> byGpuBefore, byGpuAfter;
    std::uint64_t seen = 0;
    auto note = [&](std::array<double, kMaxGpus>& byGpu, std::uint64_t& mask, const Place& p) {
        const auto g = static_cast<std::size_t>(gpuBit(p.gpu));
        byGpu[g] = (mask & (1ull << g)) ? std::max(byGpu[g], p.capacity) : p.capacity;
        mask |= 1ull << g;
    };
    std::uint64_t seenAfter = 0;
    for (std::size_t i = 0; i < count; ++i)
        if (const Place& p = places[i]; p.peer && p.domain == domain) {
            note(byGpuBefore, seen, p);
            if (!onGpu(p))
                note(byGpuAfter, seenAfter, p);
        }
    for (std::size_t i = 0; i < afterCount; ++i)
        if (after[i].peer)
            note(byGpuAfter, seenAfter, after[i]);
    // The domain's GPUs' capacities, largest first (kNone past its GPUs).
    std::array<double, kMaxGpus> capBefore, capAfter;
    std::size_t gpusBefore = 0, gpusAfter = 0;
    for (std::uint64_t left = seen; left != 0; left &= left - 1)
        capBefore[gpusBefore++] = byGpuBefore[static_cast<std::size_t>(std::countr_zero(left))];
    for (std::uint64_t left = seenAfter; left != 0; left &= left - 1)
        capAfter[gpusAfter++] = byGpuAfter[static_cast<std::size_t>(std::countr_zero(left))];
    largestFirst(capBefore.data(), gpusBefore);
    largestFirst(capAfter.data(), gpusAfter);
    for (const Degree& d : mMulti) {
        const auto t = static_cast<std::size_t>(std::clamp(d.gpus, 1, kMaxGpus));
        const double boundBefore = t <= gpusBefore ? capBefore[t - 1] : kNone;
        const double boundAfter = t <= gpusAfter ? capAfter[t - 1] : kNone;
        // Places alike in what they serve follow each other: one search per run of them.
        struct Memo
        {
            double served = std::numeric_limits<double>::quiet_NaN();
            double weight = 0.0;
        } memoBefore, memoAfter;
        auto weight = [&d](const Place& p, double bound, Memo& memo) {
            const double served = p.peer ? std::min(p.capacity, bound) : kNone;
            if (served != memo.served) {
                memo.served = served;
                memo.weight = d.above(served);
            }
            return memo.weight;
        };
        for (std::size_t i = 0; i < afterCount; ++i)
            delta += after[i].share * weight(after[i], boundAfter, memoAfter);
        for (std::size_t i = 0; i < count; ++i) {
            const Place& p = places[i];
            if (onGpu(p))
                delta -= p.share * weight(p, boundBefore, memoBefore);
            else if (boundAfter != boundBefore && p.peer && p.domain == domain &&
                     std::min(p.capacity, boundAfter) != std::min(p.capacity, boundBefore))
                delta += p.share * (weight(p, boundAfter, memoAfter) - weight(p, boundBefore, memoBefore));
        }
    }
    return delta;
}

} // namespace frag

FragmentationView::FragmentationView(const Scenario& s, const Catalog& c, const std::vector<Slot>& slots,
                                     const std::vector<JobDemand>& mix)
    : mSlots(slots)
{
    const auto& nodes = s.topology.nodes;
    for (const Node& n : nodes)
        mDomain.push_back(nvlinkDomainGpus(n, c));
    mRackOf.assign(nodes.size(), -1);
    {
        std::map<std::string, int> racks;
        for (const Group& g : s.topology.groups)
            if (g.isNvlinkDomain())
                racks.try_emplace(g.id, static_cast<int>(racks.size()));
        mRackNodes.resize(racks.size());
        for (std::size_t n = 0; n < nodes.size(); ++n)
            if (auto r = racks.find(nodes[n].group); r != racks.end()) {
                mRackOf[n] = r->second;
                mRackNodes[static_cast<std::size_t>(r->second)].push_back(static_cast<int>(n));
            }
    }
    mFirstSlot.assign(nodes.size() + 1, static_cast<int>(slots.size()));
    for (std::size_t i = slots.size(); i-- > 0;)
        mFirstSlot[static_cast<std::size_t>(slots[i].node)] = static_cast<int>(i);
    for (std::size_t n = nodes.size(); n-- > 0;) // nodes without slots start where the next one does
        mFirstSlot[n] = std::min(mFirstSlot[n], mFirstSlot[n + 1]);

    // MIG slices in no instance: their compute share, and the largest profile that may start there.
    std::map<std::pair<std::string, mig::Layout>, std::pair<double, double>> byLayout;
    mRegions.resize(nodes.size());
    for (std::size_t n = 0; n < nodes.size(); ++n) {
        const GpuSpec* gpu = c.gpu(nodes[n].gpuId);
        if (!gpu || !gpu->supportsMig())
            continue;
        for (int g = 0; g < nodes[n].gpuCount; ++g) {
            const SharingConfig& cfg = nodes[n].sharingOf(g);
            if (cfg.mode != SharingMode::Mig)
                continue;
            auto [it, fresh] = byLayout.try_emplace({gpu->id, cfg.migInstances}, 0.0, 0.0);
            if (fresh) {
                int compute = mig::kComputeSlices;
                for (const auto& inst : cfg.migInstances)
                    if (const MigProfile* p = gpu->migProfile(inst.profile))
                        compute -= p->computeSlices;
                double capacity = 0.0;
                for (const MigProfile& p : gpu->migProfiles)
                    if (p.usableGiB * kGiB > capacity && mig::canAdd(*gpu, cfg.migInstances, p))
                        capacity = p.usableGiB * kGiB;
                it->second = {std::max(compute, 0) / static_cast<double>(mig::kComputeSlices), capacity};
            }
            if (it->second.first > 0.0)
                mRegions[n].push_back({g, it->second.first, it->second.second});
        }
    }

    // The job mix: one task per group of TP units.
    std::map<std::pair<int, double>, double> counts;
    for (const JobDemand& d : mix)
        counts[{std::max(d.tp, 1), d.bytesPerUnit}] += std::max(d.groups, 0);
    std::vector<frag::Shape> counted;
    for (const auto& [shape, count] : counts)
        counted.push_back({shape.first, shape.second, count});
    mMeasure = frag::Measure(frag::typicalShapes(std::move(counted), 1.0));
}

FragmentationView::Totals FragmentationView::cluster(const std::vector<int>& owner,
                                                     const std::vector<double>& usedBytes) const
{
    Totals t;
    std::vector<frag::Place> places;
    for (int n = 0; n + 1 < static_cast<int>(mFirstSlot.size()); ++n) {
        if (mRackOf[static_cast<std::size_t>(n)] >= 0)
            continue; // with its rack, below
        placesOf(
            n, [&](std::size_t i) { return owner[i] < 0; }, [&](std::size_t i) { return usedBytes[i]; }, places);
        for (const frag::Place& p : places)
            t.free += p.share;
        t.unusable += nodeFragmentation(places);
    }
    // A rack-scale domain as one node: its trays' free places, each GPU numbered in the order
    // first seen (the measure tells GPUs apart by number, up to 64: a rack-wide task is counted
    // against at most 64 of its free GPUs), all in one NVLink domain.
    std::vector<frag::Place> rack;
    for (const std::vector<int>& trays : mRackNodes) {
        rack.clear();
        int distinct = 0;
        for (int n : trays) {
            placesOf(
                n, [&](std::size_t i) { return owner[i] < 0; }, [&](std::size_t i) { return usedBytes[i]; }, places);
            int lastGpu = -1, number = -1;
            for (frag::Place p : places) {
                if (p.gpu != lastGpu) {
                    lastGpu = p.gpu;
                    number = distinct++;
                }
                p.gpu = number;
                p.domain = 0;
                t.free += p.share;
                rack.push_back(p);
            }
        }
        t.unusable += nodeFragmentation(rack);
    }
    return t;
}

} // namespace gp::calc
