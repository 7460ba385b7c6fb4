// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
// evaluate()'s stages before the jobs run on their slots: the hardware once, the demands, the
// placement order and the placement, what each GPU carries, and the bare-metal baselines.
#include "evaluatecontext.h"

#include <algorithm>
#include <chrono>
#include <map>
#include <numeric>

namespace gp::calc::detail {

namespace {

/// TP groups placement keeps together in one NVLink domain: a context-parallel block (cp TP
/// groups) and an expert-parallel group — ep TP groups, or with MoE parallel folding (etp set)
/// etp x ep consecutive ranks, at least one TP group.
int alignGroupsOf(const Parallelism& par)
{
    const int cp = std::max(par.cp, 1), ep = std::max(par.ep, 1);
    if (par.etp <= 0)
        return cp * ep;
    return std::max(cp, std::max(par.expertGroupSpan() / std::max(par.tp, 1), 1));
}

} // namespace

Context contextOf(const Scenario& s, const Catalog& c, const EvaluateParams& params)
{
    std::vector<Slot> slots = buildSlots(s, c);
    FabricIndex fabric = FabricIndex::build(s.topology);
    std::vector<int> gpuBase;
    std::vector<double> nodePrice;
    gpuBase.reserve(s.topology.nodes.size());
    nodePrice.reserve(s.topology.nodes.size());
    int gpus = 0;
    std::map<std::string, double> priceByGpu;
    for (const Node& n : s.topology.nodes) {
        gpuBase.push_back(gpus);
        gpus += n.gpuCount;
        auto [it, fresh] = priceByGpu.try_emplace(n.gpuId, 0.0);
        if (fresh)
            it->second = gpuHourPrice(s, c, n.gpuId).value_or(0.0);
        nodePrice.push_back(it->second);
    }
    return Context{.s = s,
                   .c = c,
                   .params = params,
                   .slots = std::move(slots),
                   .fabric = std::move(fabric),
                   .gpuBase = std::move(gpuBase),
                   .nodePrice = std::move(nodePrice),
                   .gpus = gpus};
}

Jobs jobDemands(const Context& cx)
{
    Jobs jobs;
    for (int t = 0; t < static_cast<int>(cx.s.tenants.size()); ++t) {
        const Tenant& tenant = at(cx.s.tenants, t);
        for (int j = 0; j < static_cast<int>(tenant.jobs.size()); ++j) {
            const Job& job = at(tenant.jobs, j);
            JobMemoryNeed need = jobMemoryNeed(job, cx.params, cx.c);
            jobs.demands.push_back({.tenant = t,
                                    .job = j,
                                    .tp = std::max(job.parallelism.tp, 1),
                                    .groups = std::max(job.parallelism.pp, 1) * std::max(job.parallelism.dp, 1) *
                                              std::max(job.parallelism.cp, 1),
                                    .alignGroups = alignGroupsOf(job.parallelism),
                                    .bytesPerUnit = need.demandBytes,
                                    .pin = job.pin,
                                    .isolation = tenant.isolation});
            PlacedJob& r = jobs.records.emplace_back();
            r.tenant = &tenant;
            r.job = &job;
            r.arch = need.arch;
            r.memory = std::move(need.memory);
            r.servingFixedBytes = need.servingFixedBytes;
            r.servingWantedKvBytes = need.servingWantedKvBytes;
            r.memoryAssumptions = need.assumptionsRead;
        }
    }
    return jobs;
}

PlacementOutcome orderAndPlace(const Context& cx, Jobs& jobs, PlacementPolicy policy, double& placementMs)
{
    // Pinned jobs first, then tenant priority, then larger jobs.
    std::vector<int> order(jobs.demands.size());
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(), [&](int a, int b) {
        const JobDemand& x = at(jobs.demands, a);
        const JobDemand& y = at(jobs.demands, b);
        if (x.pin.has_value() != y.pin.has_value())
            return x.pin.has_value();
        const int px = at(jobs.records, a).tenant->priority;
        const int py = at(jobs.records, b).tenant->priority;
        if (px != py)
            return px > py;
        return x.tp * x.groups > y.tp * y.groups;
    });
    Jobs ordered;
    ordered.records.reserve(order.size());
    ordered.demands.reserve(order.size());
    for (int i : order) {
        ordered.records.push_back(std::move(at(jobs.records, i)));
        ordered.demands.push_back(std::move(at(jobs.demands, i)));
    }
    jobs = std::move(ordered);

    const auto start = std::chrono::steady_clock::now();
    PlacementOutcome po = placeJobs(cx.s, cx.c, cx.fabric, cx.slots, jobs.demands, policy);
    placementMs = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    for (std::size_t k = 0; k < jobs.records.size(); ++k) {
        jobs.records[k].demand = &jobs.demands[k];
        jobs.records[k].placement = &po.jobs[k];
    }
    return po;
}

GpuLoads gpuLoads(const Context& cx, const Jobs& jobs)
{
    const auto gpus = static_cast<std::size_t>(cx.gpus);
    GpuLoads l;
    l.usedBytes.assign(gpus, 0.0);
    l.activeUnits.assign(gpus, 0);
    l.shared.assign(gpus, false);
    l.slotUsedBytes.assign(cx.slots.size(), 0.0);
    l.fixedBytes.assign(gpus, 0.0);
    l.wantedKvBytes.assign(gpus, 0.0);
    for (const PlacedJob& job : jobs.records)
        for (int sIdx : job.placement->slots) {
            const Slot& sl = at(cx.slots, sIdx);
            const int g = cx.globalGpu(sl);
            at(l.usedBytes, g) += job.demand->bytesPerUnit;
            at(l.activeUnits, g) += 1;
            at(l.shared, g) = at(l.shared, g) || !sl.memoryIsolated;
            at(l.slotUsedBytes, sIdx) = job.demand->bytesPerUnit;
        }
    for (const PlacedJob& job : jobs.records) {
        const bool serving = job.wantsKvCache();
        for (int sIdx : job.placement->slots) {
            const int g = cx.globalGpu(at(cx.slots, sIdx));
            at(l.fixedBytes, g) += serving ? job.servingFixedBytes : job.demand->bytesPerUnit;
            at(l.wantedKvBytes, g) += serving ? job.servingWantedKvBytes : 0.0;
        }
    }
    l.firstSlot.assign(gpus + 1, static_cast<int>(cx.slots.size()));
    for (int i = static_cast<int>(cx.slots.size()) - 1; i >= 0; --i)
        at(l.firstSlot, cx.globalGpu(at(cx.slots, i))) = i;
    for (int g = cx.gpus - 1; g >= 0; --g) // GPUs without slots (no catalog entry) stay empty
        at(l.firstSlot, g) = std::min(at(l.firstSlot, g), at(l.firstSlot, g + 1));
    return l;
}

void bareMetalBaselines(const Context& cx, Jobs& jobs, ServingCache& cache)
{
    const EvaluateParams& p = cx.params;
    for (PlacedJob& job : jobs.records) {
        if (!job.runs())
            continue;
        const Slot& first = at(cx.slots, job.placement->slots.front());
        job.gpu = cx.c.gpu(cx.node(first.node).gpuId);
        const GpuSpec& gpu = *job.gpu;
        const Parallelism& par = job.job->parallelism;
        job.comm = commFor(cx, job.placement->slots, gpu, par);
        const SoftwareStack* stack = cx.c.softwareStackFor(*job.job);
        if (job.inference()) {
            const ServingEngine engine = p.engineFor(stack);
            ServingPlacement whole;
            whole.tensorParallelGBps = job.comm.tensorParallelGBps;
            whole.expertParallelGBps = job.comm.expertParallelGBps;
            whole.moeLoadImbalance = p.moeLoadImbalance;
            whole.kvBudgetBytesPerGpu = engine.kvBudgetBytes(gpu.memoryUsableGiB * kGiB, job.servingFixedBytes);
            job.bare = cache
                           .answer(*job.arch, *job.job, gpu, engine, job.tenant->sla, whole, job.servingFixedBytes,
                                   p.runtimeOverheadBytes)
                           .sharedPerf;
        } else {
            job.bare = estimatePerformance({*job.arch,
                                            &gpu,
                                            *job.job,
                                            {},
                                            p.commOverlapFor(stack),
                                            p.tpCommOverlapFor(stack),
                                            job.comm,
                                            p.moeLoadImbalance,
                                            stack});
        }
    }
}

AssumptionSet stepAssumptionsOf(const PlacedJob& job, const JobResult& r)
{
    // The keys bareMetalBaselines and servingOnSlots / trainingOnSlots pass on, where the model
    // uses them: each a subset of its figure's row in assumptionsReadBy (evaluateparams.cpp).
    static const AssumptionSet servingRead{"runtime_overhead_gib", "inference_prefill_chunk_tokens",
                                           "serving_memory_fraction", "chunked_prefill", "kv_block_tokens"};
    static const AssumptionSet timeSliceWaitRead{"time_slice_ms"};
    static const AssumptionSet tpOverlapRead{"tp_comm_overlap"};
    static const AssumptionSet dpOverlapRead{"comm_overlap"};
    AssumptionSet read;
    if (job.job->parallelism.ep > 1 && job.arch && job.arch->isMoe()) // the busiest expert-parallel rank
        read.add("moe_load_imbalance");
    if (job.inference()) {
        read |= servingRead;
        if (r.servingPlacement.timeSliceS > 0) // it waits for other tenants' turns
            read |= timeSliceWaitRead;
        return read;
    }
    if (job.job->kind == JobKind::Inference) // without serving settings: the default engine, no assumption
        return read;
    const Parallelism& par = job.job->parallelism;
    if (par.tp > 1) // tensor-parallel collectives, over NVLink at the catalog's efficiency
        read |= tpOverlapRead;
    const bool reduces = par.dp > 1 || par.cp > 1; // gradients reduce over dp x cp ranks
    if (reduces)                                   // the gradient reduction
        read |= dpOverlapRead;
    if (reduces || par.pp > 1) // data-parallel and pipeline transfers over PCIe or the NICs
        read |= job.comm.assumptionsRead;
    return read;
}

} // namespace gp::calc::detail
