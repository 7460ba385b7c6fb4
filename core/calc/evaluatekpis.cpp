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
    for (std::size_t t = 0; t < s.tenants.size(); ++t)
        ev.tenantCostPerMonthUsd.push_back({s.tenants[t].id, totals.tenantCost[t]});
}

/// The memory in use and stranded, the GPU share allocated, the cost and its waste: idle
/// (GPU share no job holds) and stranded (allocated memory no job uses); the overhead part is
/// summed per job (evaluatejobs.cpp). The GPU results must be in.
void memoryCostAndWaste(Evaluation& ev, const Context& cx, const PlacementOutcome& po, const GpuLoads& loads)
{
    Kpis& k = ev.kpis;
    double totalVram = 0.0, usedVram = 0.0, allocated = 0.0;
    std::vector<double> sharedAllocated(ev.gpus.size(), 0.0); // allocated GPU share of GPUs without isolation
    std::vector<double> gpuPrice(ev.gpus.size(), 0.0);
    for (const GpuResult& g : ev.gpus)
        totalVram += g.capacityBytes;
    std::vector<double> allocatedShare(ev.gpus.size(), 0.0);
    for (int i = 0; i < static_cast<int>(cx.slots.size()); ++i) {
        const Slot& sl = at(cx.slots, i);
        const double price = cx.price(sl.node) * kHoursPerMonth;
        const int gi = cx.globalGpu(sl);
        at(gpuPrice, gi) = price;
        if (at(po.owner, i) < 0)
            continue;
        at(allocatedShare, gi) += sl.gpuFraction;
        allocated += sl.gpuFraction;
        if (!sl.memoryIsolated)
            at(sharedAllocated, gi) += sl.gpuFraction;
        const double used = std::min(at(loads.slotUsedBytes, i), sl.capacityBytes);
        usedVram += sl.memoryIsolated ? used : 0.0;
        if (sl.memoryIsolated) {
            const double stranded = sl.capacityBytes - used;
            k.strandedBytes += stranded;
            k.wastePerMonth.strandedUsd += sl.gpuFraction * price * stranded / sl.capacityBytes;
        }
    }
    // Every GPU is paid for whole; what no job holds (free slots, MIG slices in no instance) idles.
    for (std::size_t g = 0; g < ev.gpus.size(); ++g) {
        k.costPerMonthUsd += gpuPrice[g];
        k.wastePerMonth.idleUsd += gpuPrice[g] * std::max(0.0, 1.0 - allocatedShare[g]);
    }
    // Memory on GPUs without isolation counts once per GPU.
    for (std::size_t g = 0; g < ev.gpus.size(); ++g)
        if (loads.shared[g]) {
            const double used = std::min(ev.gpus[g].usedBytes, ev.gpus[g].capacityBytes);
            usedVram += used;
            const double stranded = std::max(0.0, ev.gpus[g].capacityBytes * sharedAllocated[g] - used);
            k.strandedBytes += stranded;
            k.wastePerMonth.strandedUsd += gpuPrice[g] * stranded / ev.gpus[g].capacityBytes;
        }
    k.vramUtilization = totalVram > 0 ? usedVram / totalVram : 0.0;
    k.allocationRatio = cx.gpus > 0 ? allocated / cx.gpus : 0.0;
}

} // namespace

void clusterKpis(Evaluation& ev, const Context& cx, const PlacementOutcome& po, const Jobs& jobs, const GpuLoads& loads,
                 const JobTotals& totals)
{
    gpuLinkAndTenantResults(ev, cx, loads, totals);
    memoryCostAndWaste(ev, cx, po, loads);
    Kpis& k = ev.kpis;
    // The share of the free GPU capacity the job mix cannot use (the FGD measure, fragmentation.h).
    const FragmentationView::Totals frag =
        FragmentationView(cx.s, cx.c, cx.slots, jobs.demands).cluster(po.owner, loads.slotUsedBytes);
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
