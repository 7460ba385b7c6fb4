// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
// evaluate(): the per-GPU results and the cluster's KPIs and waste (docs/model-reference.md,
// "KPIs"), including the MIG slices no profile of the scenario can use.
#include "evaluatecontext.h"

#include "model/miglayout.h"
#include "model/planningtarget.h"

#include <algorithm>
#include <map>

namespace gp::calc::detail {

namespace {

/// Each GPU's memory in use against what it offers (and its OOM risk), each link's load, each
/// tenant's cost.
void gpuLinkAndTenantResults(Evaluation& ev, const Context& cx, const GpuLoads& loads, const JobTotals& totals)
{
    const Scenario& s = cx.s;
    for (int n = 0; n < static_cast<int>(s.topology.nodes.size()); ++n) {
        const Node& node = cx.node(n);
        const GpuSpec* g = cx.c.gpu(node.gpuId);
        for (int i = 0; i < node.gpuCount; ++i) {
            const int gi = at(cx.gpuBase, n) + i;
            GpuResult r{node.id, i, at(loads.usedBytes, gi), g ? g->memoryUsableGiB * kGiB : 0.0, false};
            r.oomRisk = at(loads.shared, gi) && r.usedBytes > r.capacityBytes * (1.0 + 1e-12);
            ev.kpis.oomRiskGpus += r.oomRisk ? 1 : 0;
            ev.gpus.push_back(r);
        }
    }
    // A serving job not placed counts as 0; one without objectives that keeps up is not judged.
    ev.kpis.servingJobsJudged = totals.servingJudged + (ev.kpis.servingJobs - totals.servingPlaced);
    ev.kpis.servingSloAttainment =
        ev.kpis.servingJobsJudged > 0 ? totals.servingAttainment / ev.kpis.servingJobsJudged : 1.0;
    for (std::size_t i = 0; i < s.topology.links.size(); ++i) {
        const Link& l = s.topology.links[i];
        ev.links.push_back(
            {l.id, totals.linkLoadGbps[i], l.bandwidthGbps > 0 ? totals.linkLoadGbps[i] / l.bandwidthGbps : 0.0});
    }
    for (std::size_t t = 0; t < s.tenants.size(); ++t) {
        ev.tenantCostPerMonthUsd.push_back({s.tenants[t].id, totals.tenantCost[t].total()});
        ev.tenantCostBreakdown.push_back({s.tenants[t].id, totals.tenantCost[t]});
        if (const auto& tokens = totals.tenantTokenCost[t]) {
            ev.tenantTokenCost.push_back({s.tenants[t].id, *tokens});
            (ev.kpis.tokenCost ? *ev.kpis.tokenCost : ev.kpis.tokenCost.emplace()) += *tokens;
        }
    }
}

/// The memory in use, allocated and unused, the GPU share allocated, the cost and its
/// decomposition (docs/model-reference.md, "Cost decomposition"): every GPU is paid whole; the
/// share the jobs hold is useful or sharing overhead (summed per job, evaluatejobs.cpp); the
/// share no job holds is stranded where it lies on a GPU that holds a job and no task of the mix
/// can use it (FragmentationView::unusableByAll: a MIG remainder no profile fits, the replicas a
/// memory-hungry neighbour leaves too little memory), idle otherwise (spare capacity, free GPUs).
/// Memory a job leaves unused on its slots is headroom, counted in bytes, not dollars. The GPU
/// results must be in.
void memoryCostAndWaste(Evaluation& ev, const Context& cx, const PlacementOutcome& po, const GpuLoads& loads,
                        const FragmentationView& view)
{
    Kpis& k = ev.kpis;
    double totalVram = 0.0, usedVram = 0.0, allocated = 0.0;
    std::vector<double> sharedAllocated(ev.gpus.size(), 0.0); // allocated GPU share of GPUs without isolation
    std::vector<double> gpuPrice(ev.gpus.size(), 0.0);
    for (const GpuResult& g : ev.gpus)
        totalVram += g.capacityBytes;
    // Every GPU is paid for whole, whatever its slots.
    for (int n = 0; n < static_cast<int>(cx.s.topology.nodes.size()); ++n)
        for (int i = 0; i < cx.node(n).gpuCount; ++i)
            at(gpuPrice, at(cx.gpuBase, n) + i) = cx.price(n) * kHoursPerMonth;
    std::vector<double> allocatedShare(ev.gpus.size(), 0.0); // held by a job that runs
    for (int i = 0; i < static_cast<int>(cx.slots.size()); ++i) {
        const Slot& sl = at(cx.slots, i);
        const int gi = cx.globalGpu(sl);
        const int owner = at(po.owner, i);
        if (owner < 0)
            continue;
        allocated += sl.gpuFraction;
        if (at(ev.jobs, owner).placed)
            at(allocatedShare, gi) += sl.gpuFraction;
        if (!sl.memoryIsolated) {
            at(sharedAllocated, gi) += sl.gpuFraction;
            continue;
        }
        const double used = std::min(at(loads.slotUsedBytes, i), sl.capacityBytes);
        usedVram += used;
        k.allocatedMemoryBytes += sl.capacityBytes;
        k.unusedMemoryBytes += sl.capacityBytes - used;
    }
    // Memory on GPUs without isolation counts once per GPU, allocated by the share held.
    for (std::size_t g = 0; g < ev.gpus.size(); ++g)
        if (loads.shared[g]) {
            const double used = std::min(ev.gpus[g].usedBytes, ev.gpus[g].capacityBytes);
            const double held = ev.gpus[g].capacityBytes * std::min(sharedAllocated[g], 1.0);
            usedVram += used;
            k.allocatedMemoryBytes += std::max(held, used);
            k.unusedMemoryBytes += std::max(0.0, held - used);
        }
    // The free share no task of the mix can use, on GPUs that hold a job.
    std::vector<double> strandedShare(ev.gpus.size(), 0.0);
    std::vector<frag::Place> places;
    std::vector<char> unusable;
    for (int n = 0; n < static_cast<int>(cx.s.topology.nodes.size()); ++n) {
        view.placesOf(
            n, [&](std::size_t i) { return po.owner[i] < 0; }, [&](std::size_t i) { return loads.slotUsedBytes[i]; },
            places);
        view.unusableByAll(places, unusable);
        for (std::size_t p = 0; p < places.size(); ++p) {
            const int gi = at(cx.gpuBase, n) + places[p].gpu;
            if (unusable[p] && at(allocatedShare, gi) > 0.0)
                at(strandedShare, gi) += places[p].share;
        }
    }
    for (std::size_t g = 0; g < ev.gpus.size(); ++g) {
        k.costPerMonthUsd += gpuPrice[g];
        const double free = std::max(0.0, 1.0 - allocatedShare[g]);
        const double stranded = std::min(strandedShare[g], free);
        k.costBreakdown.strandedUsd += gpuPrice[g] * stranded;
        k.costBreakdown.idleUsd += gpuPrice[g] * (free - stranded);
    }
    k.vramUtilization = totalVram > 0 ? usedVram / totalVram : 0.0;
    k.allocationRatio = cx.gpus > 0 ? allocated / cx.gpus : 0.0;
}

} // namespace

void clusterKpis(Evaluation& ev, const Context& cx, const PlacementOutcome& po, const Jobs& jobs, const GpuLoads& loads,
                 const JobTotals& totals)
{
    gpuLinkAndTenantResults(ev, cx, loads, totals);
    const FragmentationView view(cx.s, cx.c, cx.slots, jobs.demands);
    memoryCostAndWaste(ev, cx, po, loads, view);
    Kpis& k = ev.kpis;
    // The share of the free GPU capacity the job mix cannot use (the FGD measure, fragmentation.h).
    const FragmentationView::Totals frag = view.cluster(po.owner, loads.slotUsedBytes);
    k.fragmentation = frag.free > 0 ? frag.unusable / frag.free : 0.0;
    k.computeUtilization = cx.gpus > 0 ? totals.flopsShare / cx.gpus : 0.0;
    k.meanPenalty = totals.placed > 0 ? totals.penaltySum / totals.placed : 0.0;
    k.meetsTarget = PlanningTarget::met(k.vramUtilization, k.meanPenalty);
    k.migUnusableSlices = migUnusableSlices(cx.s, cx.c);
}

int migUnusableSlices(const Scenario& s, const Catalog& c)
{
    int unusable = 0;
    // MIG geometric fragmentation: free memory slices of MIG GPUs into which none of the
    // scenario's MIG profiles for that GPU model can be placed.
    std::map<std::string, std::set<std::string>> profilesByGpu;
    for (const Node& n : s.topology.nodes)
        for (int g = 0; g < n.gpuCount; ++g)
            for (const auto& inst : n.sharingOf(g).migInstances)
                profilesByGpu[n.gpuId].insert(inst.profile);
    // The answer depends only on the GPU model and its layout: work it out once for each.
    std::map<std::pair<std::string, mig::Layout>, int> unusableByLayout;
    for (const Node& n : s.topology.nodes) {
        const GpuSpec* gpu = c.gpu(n.gpuId);
        if (!gpu || !gpu->supportsMig())
            continue;
        for (int g = 0; g < n.gpuCount; ++g) {
            const SharingConfig& cfg = n.sharingOf(g);
            if (cfg.mode != SharingMode::Mig)
                continue;
            auto [it, fresh] = unusableByLayout.try_emplace({n.gpuId, cfg.migInstances}, 0);
            if (fresh) {
                int freeSlices = mig::kMemorySlices;
                for (const auto& inst : cfg.migInstances)
                    if (const MigProfile* p = gpu->migProfile(inst.profile))
                        freeSlices -= p->memorySlices;
                const auto& used = profilesByGpu[n.gpuId];
                const bool anyFits = std::any_of(used.begin(), used.end(), [&](const std::string& name) {
                    const MigProfile* p = gpu->migProfile(name);
                    return p && mig::canAdd(*gpu, cfg.migInstances, *p);
                });
                it->second = anyFits ? 0 : std::max(freeSlices, 0);
            }
            unusable += it->second;
        }
    }
    return unusable;
}

} // namespace gp::calc::detail
