// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#include "evaluate.h"

#include "evaluatecontext.h"
#include "interference.h"
#include "model/assumptions.h"
#include "model/format.h"
#include "model/validation.h"
#include "servingcache.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <map>
#include <numeric>
#include <set>

namespace gp::calc {

using namespace detail;

JobMemoryNeed jobMemoryNeed(const Job& job, const Scenario& s, const Catalog& c)
{
    const auto& A = s.assumptions;
    const double overhead = assumptionValue(A, "runtime_overhead_gib") * kGiB;
    const int chunk = static_cast<int>(assumptionValue(A, "inference_prefill_chunk_tokens"));
    JobMemoryNeed r;
    r.arch = architectureOf(job.model, c);
    if (r.arch && job.kind == JobKind::Inference && job.inference) {
        // A serving engine needs its weights, workspace and one sequence of the longest
        // admitted context within its share of the memory; the KV cache then takes what is
        // left (evaluate's step 4).
        r.memory = servingMemory(*r.arch, job, chunk, overhead, 1, job.inference->contextTokens);
        r.servingFixedBytes = r.memory.totalBytes() - r.memory.kvCacheBytes.value_or(0.0);
        r.servingWantedKvBytes =
            kvBytesPerTokenPerGpu(*r.arch, job) * (job.inference->promptTokens() + job.inference->outputTokens) *
            std::ceil(static_cast<double>(std::max(job.inference->concurrency, 1)) / std::max(job.parallelism.dp, 1));
        r.demandBytes = r.memory.totalBytes() / servingEngineFrom(A).memoryFraction;
    } else if (r.arch) {
        MemoryInputs in = memoryInputsFor(job, *r.arch, overhead);
        in.prefillChunkTokens = chunk;
        r.memory = estimateMemory(in);
        r.demandBytes = r.memory.totalBytes();
    }
    return r;
}

Evaluation evaluate(const Scenario& s, const Catalog& c, std::optional<PlacementPolicy> policyOverride)
{
    const auto start = std::chrono::steady_clock::now();
    Evaluation ev;
    const auto& A = s.assumptions;
    const double overhead = assumptionValue(A, "runtime_overhead_gib") * kGiB;
    const double overlap = assumptionValue(A, "comm_overlap");
    const double tpOverlap = assumptionValue(A, "tp_comm_overlap");
    const double linkEff = assumptionValue(A, "link_efficiency");
    const double noGdr = assumptionValue(A, "no_gpudirect_bandwidth_factor");
    const ServingEngine engine = servingEngineFrom(A);
    const double timeSlice = assumptionValue(A, "time_slice_ms") / 1e3;

    Context cx{s, c, buildSlots(s, c), {}, {}, {}, {}, {}, FabricIndex::build(s.topology), {}};
    int gpus = 0;
    std::map<std::string, double> priceByGpu;
    for (const Node& n : s.topology.nodes) {
        cx.gpuBase.push_back(gpus);
        gpus += n.gpuCount;
        auto [it, fresh] = priceByGpu.try_emplace(n.gpuId, 0.0);
        if (fresh)
            it->second = gpuHourPrice(s, c, n.gpuId).value_or(0.0);
        cx.nodePrice.push_back(it->second);
    }

    // 1. Memory per GPU of every job.
    std::vector<JobRef> refs;
    std::vector<JobDemand> demands;
    for (int t = 0; t < static_cast<int>(s.tenants.size()); ++t)
        for (int j = 0; j < static_cast<int>(s.tenants[static_cast<std::size_t>(t)].jobs.size()); ++j) {
            const Job& job = s.tenants[static_cast<std::size_t>(t)].jobs[static_cast<std::size_t>(j)];
            JobMemoryNeed need = jobMemoryNeed(job, s, c);
            JobRef r{t, j, need.arch, std::move(need.memory), need.servingFixedBytes, need.servingWantedKvBytes};
            const double demand = need.demandBytes;
            demands.push_back({t, j, std::max(job.parallelism.tp, 1),
                               std::max(job.parallelism.pp, 1) * std::max(job.parallelism.dp, 1), demand, job.pin,
                               s.tenants[static_cast<std::size_t>(t)].isolation});
            refs.push_back(std::move(r));
        }
    // 2. Placement order: pinned jobs, then tenant priority, then larger jobs first.
    std::vector<int> order(demands.size());
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(), [&](int a, int b) {
        const JobDemand& x = demands[static_cast<std::size_t>(a)];
        const JobDemand& y = demands[static_cast<std::size_t>(b)];
        if (x.pin.has_value() != y.pin.has_value())
            return x.pin.has_value();
        const int px = s.tenants[static_cast<std::size_t>(x.tenant)].priority;
        const int py = s.tenants[static_cast<std::size_t>(y.tenant)].priority;
        if (px != py)
            return px > py;
        return x.tp * x.groups > y.tp * y.groups;
    });
    std::vector<JobDemand> ordered;
    for (int i : order)
        ordered.push_back(demands[static_cast<std::size_t>(i)]);
    const auto placing = std::chrono::steady_clock::now();
    const PlacementOutcome po =
        placeJobs(s, c, cx.fabric, cx.slots, ordered, policyOverride.value_or(s.placementPolicy));
    ev.placementMs = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - placing).count();

    // 3. What each GPU carries.
    cx.gpuUsed.assign(static_cast<std::size_t>(gpus), 0.0);
    cx.gpuActive.assign(static_cast<std::size_t>(gpus), 0);
    cx.gpuShared.assign(static_cast<std::size_t>(gpus), false);
    cx.slotUsed.assign(cx.slots.size(), 0.0);
    for (std::size_t k = 0; k < ordered.size(); ++k)
        for (int sIdx : po.jobs[k].slots) {
            const Slot& sl = cx.slots[static_cast<std::size_t>(sIdx)];
            const auto g = static_cast<std::size_t>(cx.globalGpu(sl));
            cx.gpuUsed[g] += ordered[k].bytesPerUnit;
            cx.gpuActive[g] += 1;
            cx.gpuShared[g] = cx.gpuShared[g] || !sl.memoryIsolated;
            cx.slotUsed[static_cast<std::size_t>(sIdx)] = ordered[k].bytesPerUnit;
        }
    // What serving engines on GPUs without memory isolation leave each other: the memory
    // outside every KV cache, and the KV caches they would fill at full concurrency.
    std::vector<double> gpuFixed(static_cast<std::size_t>(gpus), 0.0), gpuWantedKv(static_cast<std::size_t>(gpus), 0.0);
    for (std::size_t k = 0; k < ordered.size(); ++k) {
        const JobRef& ref = refs[static_cast<std::size_t>(order[k])];
        const bool serving = ref.servingWantedKvBytes > 0;
        for (int sIdx : po.jobs[k].slots) {
            const auto g = static_cast<std::size_t>(cx.globalGpu(cx.slots[static_cast<std::size_t>(sIdx)]));
            gpuFixed[g] += serving ? ref.servingFixedBytes : ordered[k].bytesPerUnit;
            gpuWantedKv[g] += serving ? ref.servingWantedKvBytes : 0.0;
        }
    }
    ServingCache servingCache;

    // 4a. Each placed job on whole GPUs of its kind: its bare-metal step, and what bounds it —
    // the demand its co-tenants feel (interference.h).
    std::vector<PerfResult> bare(ordered.size());
    std::vector<CommBandwidth> comms(ordered.size());
    // A GPU's slots are consecutive in cx.slots: the first of each GPU and one past its last.
    std::vector<int> gpuSlots(static_cast<std::size_t>(gpus) + 1, static_cast<int>(cx.slots.size()));
    for (int i = static_cast<int>(cx.slots.size()) - 1; i >= 0; --i)
        gpuSlots[static_cast<std::size_t>(cx.globalGpu(cx.slots[static_cast<std::size_t>(i)]))] = i;
    for (int g = gpus - 1; g >= 0; --g) // GPUs without slots (no catalog entry) stay empty
        gpuSlots[static_cast<std::size_t>(g)] =
            std::min(gpuSlots[static_cast<std::size_t>(g)], gpuSlots[static_cast<std::size_t>(g) + 1]);
    for (std::size_t k = 0; k < ordered.size(); ++k) {
        const JobPlacement& jp = po.jobs[k];
        const JobRef& ref = refs[static_cast<std::size_t>(order[k])];
        if (!jp.placed || !ref.arch)
            continue;
        const JobDemand& d = ordered[k];
        const Tenant& tenant = s.tenants[static_cast<std::size_t>(d.tenant)];
        const Job& job = tenant.jobs[static_cast<std::size_t>(d.job)];
        const Slot& first = cx.slots[static_cast<std::size_t>(jp.slots.front())];
        const GpuSpec& gpu = *c.gpu(cx.node(first.node).gpuId);
        comms[k] = commFor(cx, jp.slots, gpu, linkEff, noGdr);
        if (job.kind == JobKind::Inference && job.inference) {
            ServingPlacement whole;
            whole.tensorParallelGBps = comms[k].tensorParallelGBps;
            whole.kvBudgetBytesPerGpu = engine.memoryFraction * gpu.memoryUsableGiB * kGiB - ref.servingFixedBytes;
            bare[k] =
                servingCache.answer(*ref.arch, job, gpu, engine, tenant.sla, whole, ref.servingFixedBytes, overhead)
                    .sharedPerf;
        } else {
            bare[k] = estimatePerformance({*ref.arch, &gpu, job, {}, overlap, tpOverlap, comms[k]});
        }
    }
    std::map<std::string, InterferenceParams> interferenceByGpu;
    std::vector<CoTenant> others; // one unit's co-tenants, refilled per unit

    // 4. Each job on its slots, against bare metal.
    JobTotals totals;
    totals.linkLoadGbps.assign(s.topology.links.size(), 0.0);
    totals.tenantCost.assign(s.tenants.size(), 0.0);
    ev.jobs.reserve(ordered.size());
    for (const JobDemand& d : ordered)
        ev.kpis.servingJobs +=
            s.tenants[static_cast<std::size_t>(d.tenant)].jobs[static_cast<std::size_t>(d.job)].kind ==
            JobKind::Inference;
    for (std::size_t k = 0; k < ordered.size(); ++k) {
        const JobDemand& d = ordered[k];
        const Tenant& tenant = s.tenants[static_cast<std::size_t>(d.tenant)];
        const Job& job = tenant.jobs[static_cast<std::size_t>(d.job)];
        JobRef& ref = refs[static_cast<std::size_t>(order[k])];
        JobResult r;
        r.id = job.id;
        r.name = job.name;
        r.tenant = tenant.id;
        r.memory = std::move(ref.memory);
        const JobPlacement& jp = po.jobs[k];
        r.placed = jp.placed && ref.arch.has_value();
        r.reason = ref.arch ? jp.reason : "unknown model preset '" + job.model.preset + "'";
        if (!r.placed) {
            if (job.kind == JobKind::Inference) // a serving job without GPUs answers no request
                ev.kpis.servingTtftP99S = ev.kpis.servingItlP99S = 1e30;
            ++ev.kpis.unplacedJobs;
            ++ev.kpis.slaViolations; // a job that does not run cannot meet its SLA
            ev.jobs.push_back(std::move(r));
            continue;
        }
        const Slot& first = cx.slots[static_cast<std::size_t>(jp.slots.front())];
        const GpuSpec& gpu = *c.gpu(cx.node(first.node).gpuId);
        auto [ip, freshParams] = interferenceByGpu.try_emplace(gpu.id);
        if (freshParams)
            ip->second = InterferenceParams::from(A, gpu);
        // The slowest unit sets the job's pace: its shares against its co-tenants.
        UnitInterference worst;
        r.capacityPerGpuBytes = 1e300;
        double price = 0.0;
        std::set<int> jobNodes;
        for (int sIdx : jp.slots) {
            const Slot& sl = cx.slots[static_cast<std::size_t>(sIdx)];
            const auto g = static_cast<std::size_t>(cx.globalGpu(sl));
            others.clear();
            for (int o = gpuSlots[g]; o < gpuSlots[g + 1]; ++o) {
                const int other = po.owner[static_cast<std::size_t>(o)];
                if (o != sIdx && other >= 0 &&
                    refs[static_cast<std::size_t>(order[static_cast<std::size_t>(other)])].arch)
                    others.push_back({other, bare[static_cast<std::size_t>(other)].mix, 1.0,
                                      cx.slots[static_cast<std::size_t>(o)].smShare});
            }
            UnitInterference u = interferenceOf(sl, bare[k].mix, others, ip->second);
            if (sIdx == jp.slots.front() || u.slowdown > worst.slowdown)
                worst = std::move(u);
            r.capacityPerGpuBytes = std::min(r.capacityPerGpuBytes, sl.capacityBytes);
            r.oomRisk = r.oomRisk || (cx.gpuShared[g] && cx.gpuUsed[g] > sl.capacityBytes);
            r.gpuEquivalents += sl.gpuFraction;
            price += sl.gpuFraction * cx.price(sl.node);
            r.placement.push_back({cx.node(sl.node).id, sl.gpu, sl.label()});
            jobNodes.insert(sl.node);
        }
        r.gpuId = gpu.id;
        const CommBandwidth& comm = comms[k];
        if (job.kind == JobKind::Inference && job.inference) {
            // The KV budget of each unit: its share of the engine's memory beside the weights
            // and workspace; on a GPU without memory isolation, what the co-tenants leave,
            // split in proportion to the KV caches they would fill.
            ServingPlacement& sp = r.servingPlacement;
            sp.computeShare = worst.shares.compute;
            sp.bandwidthShare = worst.shares.bandwidth;
            sp.spatial = worst.shares.spatial;
            sp.kvBudgetBytesPerGpu = 1e300;
            sp.tensorParallelGBps = comm.tensorParallelGBps;
            for (int sIdx : jp.slots) {
                const Slot& sl = cx.slots[static_cast<std::size_t>(sIdx)];
                const auto g = static_cast<std::size_t>(cx.globalGpu(sl));
                double budget = engine.memoryFraction * sl.capacityBytes - ref.servingFixedBytes;
                if (!sl.memoryIsolated) {
                    const double left = std::max(0.0, engine.memoryFraction * sl.capacityBytes - gpuFixed[g]);
                    budget = gpuWantedKv[g] > 0 ? left * ref.servingWantedKvBytes / gpuWantedKv[g] : left;
                }
                sp.kvBudgetBytesPerGpu = std::min(sp.kvBudgetBytesPerGpu, budget);
                // Time-sliced schedulers: the other tenants' turns (a fixed-share vGPU waits for
                // every slot the profile allows, busy or not).
                const int turns = sl.mode == SharingMode::TimeSlicing ? cx.gpuActive[g] - 1
                                  : sl.mode == SharingMode::Vgpu
                                      ? (sl.fixedShareOf > 0 ? sl.fixedShareOf : cx.gpuActive[g]) - 1
                                      : 0;
                sp.timeSliceWaitS = std::max(sp.timeSliceWaitS, std::max(turns, 0) * timeSlice);
            }
            sp.timeSliceS = sp.timeSliceWaitS > 0 ? timeSlice : 0.0;
            const ServingAnswer& m =
                servingCache.answer(*ref.arch, job, gpu, engine, tenant.sla, sp, ref.servingFixedBytes, overhead);
            r.serving = m.shared;
            r.perf = m.sharedPerf;
            r.bareMetal = m.barePerf;
            r.memory = m.memory;
            // The memory the engine holds replaces what placement reserved for it.
            const double realised = m.memory.totalBytes();
            for (int sIdx : jp.slots) {
                const Slot& sl = cx.slots[static_cast<std::size_t>(sIdx)];
                cx.gpuUsed[static_cast<std::size_t>(cx.globalGpu(sl))] += realised - d.bytesPerUnit;
                cx.slotUsed[static_cast<std::size_t>(sIdx)] = realised;
            }
            if (!m.shared.fits) {
                r.oomRisk = true;
                r.reason = "its co-tenants leave its KV cache less than one sequence of " +
                           std::to_string(job.inference->contextTokens) + " tokens";
            }
        } else {
            r.bareMetal = bare[k];
            // On a whole GPU the job already runs as on bare metal: one estimate serves both.
            r.perf = worst.shares.whole() && !worst.shares.spatial
                         ? r.bareMetal
                         : estimatePerformance({*ref.arch, &gpu, job, worst.shares, overlap, tpOverlap, comm});
        }
        r.penalty = std::max(0.0, r.perf.stepTimeS / r.bareMetal.stepTimeS - 1.0);
        // The penalty by resource: the linear parts in proportion, summing to the model's
        // penalty; the co-tenant that adds most; what a trial with idle co-tenants keeps.
        const double linear = worst.parts.total();
        r.penaltyBreakdown = linear > 0 ? worst.parts.scaled(r.penalty / linear) : PenaltyBreakdown{};
        double most = 0.0;
        for (const auto& [other, extra] : worst.byNeighbour) {
            if (static_cast<std::size_t>(other) == k || extra <= most)
                continue;
            most = extra;
            const JobDemand& od = ordered[static_cast<std::size_t>(other)];
            r.noisiestNeighbour =
                s.tenants[static_cast<std::size_t>(od.tenant)].jobs[static_cast<std::size_t>(od.job)].id;
            r.noisiestNeighbourCost = linear > 0 ? extra * r.penalty / linear : 0.0;
        }
        r.idleCotenantsFactor = worst.slowdown > 0 ? worst.aloneSlowdown / worst.slowdown : 1.0;
        r.costPerMonthUsd = price * kHoursPerMonth;
        if (r.perf.daysToComplete) {
            r.costUsd = *r.perf.daysToComplete * 24.0 * price;
            r.extraDays = *r.perf.daysToComplete - r.bareMetal.daysToComplete.value_or(*r.perf.daysToComplete);
        }
        r.meetsSla =
            r.penalty * 100.0 <= tenant.sla.maxPenaltyPct + 1e-9 &&
            (!tenant.sla.deadlineDays || !r.perf.daysToComplete || *r.perf.daysToComplete <= *tenant.sla.deadlineDays);
        if (r.serving) {
            const ServingResult& sv = *r.serving;
            r.meetsSla = r.meetsSla && sv.fits && !sv.saturated &&
                         (!tenant.sla.ttftP99Ms || sv.ttftP99S * 1e3 <= *tenant.sla.ttftP99Ms + 1e-9) &&
                         (!tenant.sla.itlP99Ms || sv.itlP99S * 1e3 <= *tenant.sla.itlP99Ms + 1e-9);
            totals.servingAttainment += sv.sloAttainment;
            ev.kpis.servingTtftP99S = std::max(ev.kpis.servingTtftP99S, sv.fits ? sv.ttftP99S : 1e30);
            ev.kpis.servingItlP99S = std::max(ev.kpis.servingItlP99S, sv.itlP99S);
        }
        if (!r.meetsSla)
            ++ev.kpis.slaViolations;
        totals.tenantCost[static_cast<std::size_t>(d.tenant)] += r.costPerMonthUsd;
        ev.kpis.wastePerMonth.overheadUsd += r.costPerMonthUsd * r.penalty / (1.0 + r.penalty);
        totals.penaltySum += r.penalty;
        ev.kpis.maxPenalty = std::max(ev.kpis.maxPenalty, r.penalty);
        totals.flopsShare += r.gpuEquivalents * r.perf.mfu;
        ++totals.placed;

        addJobTraffic(cx, jp.slots, jobNodes, r, totals.linkLoadGbps);
        ev.jobs.push_back(std::move(r));
    }
    finishEvaluation(ev, cx, po, ordered, totals);
    ev.kpis.migUnusableSlices = migUnusableSlices(s, c);
    ev.elapsedMs = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    return ev;
}

} // namespace gp::calc

namespace gp::calc {

std::vector<ServingPoint> servingCurveOf(const JobResult& r, const Scenario& s, const Catalog& c)
{
    const GpuSpec* gpu = c.gpu(r.gpuId);
    if (!r.serving || !gpu)
        return {};
    for (const Tenant& t : s.tenants) {
        if (t.id != r.tenant)
            continue;
        for (const Job& j : t.jobs) {
            if (j.id != r.id || !j.inference)
                continue;
            const std::optional<ModelArchitecture> arch = architectureOf(j.model, c);
            if (!arch)
                return {};
            return servingCurve(
                servingInputsFor(*arch, j, *gpu, servingEngineFrom(s.assumptions), t.sla, r.servingPlacement));
        }
    }
    return {};
}

std::string slaShortfall(const Scenario& s, const Evaluation& ev)
{
    const JobResult* late = nullptr;
    for (const JobResult& j : ev.jobs) {
        if (!j.placed)
            return j.name + " is not placed: " + j.reason;
        if (!j.meetsSla && !late)
            late = &j;
    }
    if (!late)
        return {};
    const JobResult& j = *late;
    const Tenant* t = s.findTenant(j.tenant);
    const Sla sla = t ? t->sla : Sla{};
    if (j.penalty * 100.0 > sla.maxPenaltyPct + 1e-9)
        return j.name + " runs " + fmt::percent(j.penalty) + " slower than on bare metal; its tenant accepts " +
               fmt::fixed(sla.maxPenaltyPct, 1) + " %";
    if (sla.deadlineDays && j.perf.daysToComplete && *j.perf.daysToComplete > *sla.deadlineDays)
        return j.name + " takes " + fmt::days(*j.perf.daysToComplete) + ", past its tenant's deadline of " +
               fmt::days(*sla.deadlineDays);
    if (j.serving)
        return j.name + " misses its serving SLO (P99 TTFT " + fmt::latency(j.serving->ttftP99S) +
               ", P99 inter-token " + fmt::latency(j.serving->itlP99S) + (j.serving->saturated ? ", saturated" : "") +
               ")";
    return j.name + " misses its tenant's SLA";
}

} // namespace gp::calc
