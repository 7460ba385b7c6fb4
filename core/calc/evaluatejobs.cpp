// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
// evaluate()'s per-job stages: each placed job on the slots it got, against its bare-metal
// baseline — a serving engine's KV budget, turns and latencies, or a training job's step on
// its shares — then its penalty by resource, cost, SLA and traffic.
#include "evaluatecontext.h"

#include <algorithm>
#include <cstdio>
#include <map>
#include <string>

namespace gp::calc::detail {

namespace {

/// The interference each unit of job `k` suffers from its co-tenants (the slowest sets the
/// job's pace), and what its units add up to: memory, OOM risk, GPU share, price, nodes.
UnitsOfJob unitsOf(const Context& cx, const Jobs& jobs, int k, const PlacementOutcome& po, const GpuLoads& loads,
                   const InterferenceParams& ip, std::vector<CoTenant>& others, JobResult& r)
{
    const PlacedJob& job = at(jobs.records, k);
    const std::vector<int>& slots = job.placement->slots;
    UnitsOfJob u;
    r.capacityPerGpuBytes = 1e300;
    for (int sIdx : slots) {
        const Slot& sl = at(cx.slots, sIdx);
        const int g = cx.globalGpu(sl);
        others.clear();
        for (int o = at(loads.firstSlot, g); o < at(loads.firstSlot, g + 1); ++o) {
            const int other = at(po.owner, o);
            if (o != sIdx && other >= 0 && at(jobs.records, other).arch)
                others.push_back({other, at(jobs.records, other).bare.mix, 1.0, at(cx.slots, o).smShare});
        }
        UnitInterference unit = interferenceOf(sl, job.bare.mix, others, ip);
        r.performanceAssumptions |= unit.assumptionsRead;
        if (sIdx == slots.front() || unit.slowdown > u.worst.slowdown)
            u.worst = std::move(unit);
        r.capacityPerGpuBytes = std::min(r.capacityPerGpuBytes, sl.capacityBytes);
        r.oomRisk = r.oomRisk || (at(loads.shared, g) && at(loads.usedBytes, g) > sl.capacityBytes);
        r.gpuEquivalents += sl.gpuFraction;
        u.pricePerHour += sl.gpuFraction * cx.price(sl.node);
        r.placement.push_back({cx.node(sl.node).id, sl.gpu, sl.label()});
        u.nodes.insert(sl.node);
    }
    return u;
}

/// The slowdown against whole dedicated GPUs split into what the slot's size accounts for
/// (slowdown_vs_dedicated) and the overhead of sharing on top (the penalty, by resource), in
/// proportion to the linear parts; the co-tenant that adds most, what a trial with idle
/// co-tenants keeps, the cost and the SLA.
void penaltyCostAndSla(const Context& cx, const Jobs& jobs, int k, const UnitsOfJob& units, JobResult& r)
{
    const UnitInterference& worst = units.worst;
    const Sla& sla = at(jobs.records, k).tenant->sla;
    const double total = std::max(0.0, r.perf.stepTimeS / r.bareMetal.stepTimeS - 1.0);
    const double overhead = worst.parts.total(), linear = overhead + worst.size.total();
    const double dedicated = 1.0 + (linear > 0 ? total * worst.size.total() / linear : 0.0);
    r.slowdownVsDedicated = dedicated - 1.0;
    r.penalty = std::max(0.0, (1.0 + total) / dedicated - 1.0);
    r.penaltyBreakdown = overhead > 0 ? worst.parts.scaled(r.penalty / overhead) : PenaltyBreakdown{};
    double most = 0.0;
    for (const auto& [other, extra] : worst.byNeighbour) {
        if (other == k || extra <= most)
            continue;
        most = extra;
        r.noisiestNeighbour = at(jobs.records, other).job->id;
        r.noisiestNeighbourCost = linear > 0 ? extra * total / linear : 0.0;
    }
    r.idleCotenantsFactor = worst.slowdown > 0 ? worst.aloneSlowdown / worst.slowdown : 1.0;
    double busy = 0.0;
    int neighbours = 0;
    for (const auto& [other, extra] : worst.byNeighbour)
        if (other != k) {
            busy += at(jobs.records, other).tenant->busyFraction.value_or(cx.params.coTenantBusy);
            ++neighbours;
        }
    r.coTenantBusy = neighbours > 0 ? busy / neighbours : 0.0;
    r.costPerMonthUsd = units.pricePerHour * kHoursPerMonth;
    // The penalty is an excess fraction: of the time the job holds its share, p / (1 + p) is
    // lost to sharing, so the overhead never exceeds the share's cost.
    r.overheadPerMonthUsd = r.costPerMonthUsd * r.penalty / (1.0 + r.penalty);
    if (r.perf.daysToComplete) {
        r.costUsd = *r.perf.daysToComplete * 24.0 * units.pricePerHour;
        r.extraDays = *r.perf.daysToComplete * r.penalty / (1.0 + r.penalty); // the penalty's days, not the slice's
    }
    r.meetsSla = (!judgedByPenalty(r, sla) || r.penalty * 100.0 <= sla.maxPenaltyPct + 1e-9) &&
                 (!sla.deadlineDays || !r.perf.daysToComplete || *r.perf.daysToComplete <= *sla.deadlineDays);
    if (r.serving) {
        const ServingResult& sv = *r.serving;
        r.meetsSla = r.meetsSla && sv.fits && !sv.saturated &&
                     (!sla.ttftP99Ms || sv.ttftP99S * 1e3 <= *sla.ttftP99Ms + 1e-9) &&
                     (!sla.itlP99Ms || sv.itlP99S * 1e3 <= *sla.itlP99Ms + 1e-9);
        r.tokenCost = tokenCostOf(sv, at(jobs.records, k).job->inference.value_or(InferenceSpec{}), r.costPerMonthUsd,
                                  r.overheadPerMonthUsd);
    }
}

/// A placed job's share of the cluster's KPIs and totals.
void tally(const PlacedJob& job, const JobResult& r, Kpis& kpis, JobTotals& totals)
{
    if (r.serving) {
        const ServingResult& sv = *r.serving;
        ++totals.servingPlaced;
        if (sv.sloJudged) {
            totals.servingAttainment += sv.sloAttainment;
            ++totals.servingJudged;
        }
        kpis.servingTtftP99S = std::max(kpis.servingTtftP99S, sv.fits ? sv.ttftP99S : 1e30);
        kpis.servingItlP99S = std::max(kpis.servingItlP99S, sv.itlP99S);
    }
    if (!r.meetsSla)
        ++kpis.slaViolations;
    CostBreakdown share;
    share.overheadUsd = r.overheadPerMonthUsd;
    share.usefulUsd = r.costPerMonthUsd - r.overheadPerMonthUsd;
    at(totals.tenantCost, job.demand->tenant) += share;
    if (r.tokenCost) {
        auto& tenant = at(totals.tenantTokenCost, job.demand->tenant);
        (tenant ? *tenant : tenant.emplace()) += *r.tokenCost;
    }
    kpis.costBreakdown += share;
    totals.penaltySum += r.penalty;
    kpis.maxPenalty = std::max(kpis.maxPenalty, r.penalty);
    totals.flopsShare += r.gpuEquivalents * r.perf.mfu;
    ++totals.placed;
}

} // namespace

JobTotals jobsOnSlots(const Context& cx, Jobs& jobs, const PlacementOutcome& po, GpuLoads& loads, ServingCache& cache,
                      Evaluation& ev)
{
    JobTotals totals;
    totals.linkLoadGbps.assign(cx.s.topology.links.size(), 0.0);
    totals.tenantCost.assign(cx.s.tenants.size(), CostBreakdown{});
    totals.tenantTokenCost.assign(cx.s.tenants.size(), std::nullopt);
    ev.jobs.reserve(jobs.records.size());
    for (const PlacedJob& job : jobs.records)
        ev.kpis.servingJobs += job.job->kind == JobKind::Inference;
    std::map<std::string, InterferenceParams> interferenceByGpu;
    std::vector<CoTenant> others; // one unit's co-tenants, refilled per unit
    for (int k = 0; k < static_cast<int>(jobs.records.size()); ++k) {
        PlacedJob& job = at(jobs.records, k);
        JobResult r;
        r.id = job.job->id;
        r.name = job.job->name;
        r.tenant = job.tenant->id;
        r.memory = std::move(job.memory);
        r.memoryAssumptions = job.memoryAssumptions;
        r.placed = job.runs();
        r.cp = std::max(job.job->parallelism.cp, 1);
        if (job.arch)
            for (int stage = 0; stage < std::max(job.job->parallelism.pp, 1); ++stage)
                r.stageLayers.push_back(job.job->parallelism.layersOfStage(stage, job.arch->layers));
        r.reason = job.arch ? job.placement->reason : "unknown model preset '" + job.job->model.preset + "'";
        if (!r.placed) {
            if (job.job->kind == JobKind::Inference) // a serving job without GPUs answers no request
                ev.kpis.servingTtftP99S = ev.kpis.servingItlP99S = 1e30;
            ++ev.kpis.unplacedJobs;
            ++ev.kpis.slaViolations; // a job that does not run cannot meet its SLA
            ev.jobs.push_back(std::move(r));
            continue;
        }
        auto [ip, fresh] = interferenceByGpu.try_emplace(job.gpu->id);
        if (fresh)
            ip->second = cx.params.interferenceOn(*job.gpu);
        const UnitsOfJob units = unitsOf(cx, jobs, k, po, loads, ip->second, others, r);
        r.gpuId = job.gpu->id;
        if (job.inference())
            servingOnSlots(cx, job, units, loads, cache, r);
        else
            trainingOnSlots(cx, job, units, r);
        if (job.job->parallelism.tp > 1) {
            r.tpLink = job.comm.tensorParallelOverPcie ? "pcie" : "nvlink";
            r.tpLinkGBps = job.comm.tensorParallelGBps;
            const double step = r.perf.breakdown.total();
            r.tpCommShare = step > 0 ? r.perf.breakdown.tpExposed / step : 0.0;
        }
        r.ep = job.job->parallelism.ep;
        if (r.ep > 1) {
            r.epLink = job.comm.expertParallelOverNvlink ? "nvlink" : "fabric";
            r.epLinkGBps = job.comm.expertParallelGBps;
        }
        if (r.cp > 1) {
            r.cpLinkGBps = job.comm.contextParallelGBps;
            r.cpLink = job.comm.contextParallelLink;
        }
        r.performanceAssumptions |= stepAssumptionsOf(job, r);
        penaltyCostAndSla(cx, jobs, k, units, r);
        tally(job, r, ev.kpis, totals);
        addJobTraffic(cx, job.placement->slots, units.nodes, r, totals.linkLoadGbps);
        ev.jobs.push_back(std::move(r));
    }
    return totals;
}

void servingOnSlots(const Context& cx, const PlacedJob& job, const UnitsOfJob& units, GpuLoads& loads,
                    ServingCache& cache, JobResult& r)
{
    const EvaluateParams& p = cx.params;
    const ServingEngine engine = p.engineFor(cx.c.softwareStackFor(*job.job));
    const UnitInterference& worst = units.worst;
    // The KV budget of each unit: its share of the engine's memory beside the weights and
    // workspace; on a GPU without memory isolation, what the co-tenants leave, split in
    // proportion to the KV caches they would fill.
    ServingPlacement& sp = r.servingPlacement;
    sp.computeShare = worst.shares.compute;
    sp.bandwidthShare = worst.shares.bandwidth;
    sp.spatial = worst.shares.spatial;
    sp.kvBudgetBytesPerGpu = 1e300;
    sp.tensorParallelGBps = job.comm.tensorParallelGBps;
    sp.expertParallelGBps = job.comm.expertParallelGBps;
    sp.moeLoadImbalance = p.moeLoadImbalance;
    for (int sIdx : job.placement->slots) {
        const Slot& sl = at(cx.slots, sIdx);
        const int g = cx.globalGpu(sl);
        double budget = engine.kvBudgetBytes(sl.capacityBytes, job.servingFixedBytes);
        if (!sl.memoryIsolated) {
            const double left = std::max(0.0, engine.kvBudgetBytes(sl.capacityBytes, at(loads.fixedBytes, g)));
            budget =
                at(loads.wantedKvBytes, g) > 0 ? left * job.servingWantedKvBytes / at(loads.wantedKvBytes, g) : left;
        }
        sp.kvBudgetBytesPerGpu = std::min(sp.kvBudgetBytesPerGpu, budget);
        // Time-sliced schedulers: the other tenants' turns (a fixed-share vGPU waits for every
        // slot the profile allows, busy or not).
        const int active = at(loads.activeUnits, g);
        const int turns = sl.mode == SharingMode::TimeSlicing ? active - 1
                          : sl.mode == SharingMode::Vgpu      ? (sl.fixedShareOf > 0 ? sl.fixedShareOf : active) - 1
                                                              : 0;
        sp.timeSliceWaitS = std::max(sp.timeSliceWaitS, std::max(turns, 0) * p.timeSliceS);
    }
    sp.timeSliceS = sp.timeSliceWaitS > 0 ? p.timeSliceS : 0.0;
    const ServingAnswer& m = cache.answer(*job.arch, *job.job, *job.gpu, engine, job.tenant->sla, sp,
                                          job.servingFixedBytes, p.runtimeOverheadBytes);
    r.serving = m.shared;
    r.perf = m.sharedPerf;
    r.bareMetal = m.barePerf;
    r.memory = m.memory;
    // The memory the engine holds replaces what placement reserved for it.
    const double realised = m.memory.totalBytes();
    for (int sIdx : job.placement->slots) {
        at(loads.usedBytes, cx.globalGpu(at(cx.slots, sIdx))) += realised - job.demand->bytesPerUnit;
        at(loads.slotUsedBytes, sIdx) = realised;
    }
    if (!m.shared.fits) {
        r.oomRisk = true;
        r.reason = "its co-tenants leave its KV cache less than one sequence of " +
                   std::to_string(job.job->inference->contextTokens) + " tokens";
    }
}

void trainingOnSlots(const Context& cx, const PlacedJob& job, const UnitsOfJob& units, JobResult& r)
{
    const EvaluateParams& p = cx.params;
    const ResourceShares& shares = units.worst.shares;
    const SoftwareStack* stack = cx.c.softwareStackFor(*job.job);
    r.bareMetal = job.bare;
    // On a whole GPU the job already runs as on bare metal: one estimate serves both.
    r.perf = shares.whole() && !shares.spatial
                 ? r.bareMetal
                 : estimatePerformance({*job.arch, job.gpu, *job.job, shares, p.commOverlapFor(stack),
                                        p.tpCommOverlapFor(stack), job.comm, p.moeLoadImbalance, stack});
}

} // namespace gp::calc::detail

namespace gp::calc {

std::string tpLinkWarning(const JobResult& j)
{
    if (j.tpLink != "pcie")
        return {};
    char text[160];
    std::snprintf(text, sizeof text, "tensor parallelism over PCIe at %.0f GB/s: collectives cost %.1f %% of its step",
                  j.tpLinkGBps, 100.0 * j.tpCommShare);
    return text;
}

} // namespace gp::calc
