// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#include "evaluate.h"
#include "model/planningtarget.h"

#include "fabricindex.h"
#include "interference.h"
#include "inventory.h"
#include "model/assumptions.h"
#include "model/miglayout.h"
#include "model/validation.h"
#include "placement.h"
#include "servingcache.h"
#include "slots.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <map>
#include <numeric>
#include <set>

namespace gp::calc {

namespace {

constexpr double kGiB = 1024.0 * 1024.0 * 1024.0;
constexpr double kHoursPerMonth = Inventory::kHoursPerMonth;

/// One direction of a x16 PCIe link, GB/s (PCI-SIG: 16 GT/s x16 = 31.5 GB/s for Gen4).
double pcieGBps(int gen) { return gen >= 6 ? 126.0 : gen == 5 ? 63.0 : gen == 4 ? 31.5 : 15.75; }

struct JobRef
{
    int tenant;
    int job;
    std::optional<ModelArchitecture> arch;
    MemoryBreakdown memory;
    double servingFixedBytes = 0.0;    ///< serving: per GPU outside the KV cache
    double servingWantedKvBytes = 0.0; ///< serving: KV cache of its whole concurrency per replica
};

/// Helper state shared by the per-job and cluster computations.
struct Context
{
    const Scenario& s;
    const Catalog& c;
    std::vector<Slot> slots;
    std::vector<int> gpuBase; // first global GPU index of each node
    std::vector<double> gpuUsed;
    std::vector<int> gpuActive;
    std::vector<bool> gpuShared; // has a slot without memory isolation in use
    std::vector<double> slotUsed;
    FabricIndex fabric;
    std::vector<double> nodePrice; // $/GPU-hour of each node's GPUs

    int globalGpu(const Slot& sl) const { return gpuBase[static_cast<std::size_t>(sl.node)] + sl.gpu; }
    const Node& node(int i) const { return s.topology.nodes[static_cast<std::size_t>(i)]; }
    double price(int nodeIndex) const { return nodePrice[static_cast<std::size_t>(nodeIndex)]; }
};

/// The distinct values of `v`, sorted (small vectors instead of std::set: no node allocations).
std::vector<int> distinct(std::vector<int> v)
{
    std::sort(v.begin(), v.end());
    v.erase(std::unique(v.begin(), v.end()), v.end());
    return v;
}

CommBandwidth commFor(const Context& cx, const std::vector<int>& slots, const GpuSpec& gpu, double linkEff,
                      double noGdrFactor)
{
    CommBandwidth b;
    // NCCL over the NVLink domain reaches the GPU's scale-up collective efficiency (catalog).
    b.tensorParallelGBps = gpu.scaleUpBandwidthGBps / 2.0 * gpu.efficiency.scaleUpCollective;
    std::vector<int> nodeList;
    nodeList.reserve(slots.size());
    bool allP2p = true;
    for (int s : slots) {
        nodeList.push_back(cx.slots[static_cast<std::size_t>(s)].node);
        allP2p = allP2p && cx.slots[static_cast<std::size_t>(s)].peerToPeer;
    }
    const std::vector<int> nodes = distinct(std::move(nodeList));
    double network = 1e30;
    std::vector<int> leafList;
    for (int n : nodes) {
        const Node& node = cx.node(n);
        const double perGpu = node.nics.count * node.nics.speedGbps / 8.0 / std::max(node.gpuCount, 1);
        network = std::min(network, perGpu * linkEff * (node.nics.gpudirectRdma ? 1.0 : noGdrFactor));
        leafList.push_back(cx.fabric.leafOfNode[static_cast<std::size_t>(n)]);
    }
    const std::vector<int> leaves = distinct(std::move(leafList));
    // Across leaves, the fabric's oversubscription (uplinks / downlinks of the busiest leaf).
    double oversub = 1.0;
    if (leaves.size() > 1)
        for (int l : leaves)
            if (l >= 0)
                oversub = std::min(oversub, cx.fabric.leafOversubscription[static_cast<std::size_t>(l)]);
    if (nodes.size() == 1) {
        const int domain = nvlinkDomainGpus(cx.node(nodes.front()), cx.c);
        bool oneDomain = true;
        const int first = cx.slots[static_cast<std::size_t>(slots.front())].gpu / domain;
        for (int s : slots)
            oneDomain = oneDomain && cx.slots[static_cast<std::size_t>(s)].gpu / domain == first;
        const bool nvlink = allP2p && oneDomain && gpu.scaleUpBandwidthGBps > 0;
        const double intra = nvlink ? b.tensorParallelGBps : pcieGBps(gpu.pcieGen) * linkEff;
        b.dataParallelGBps = b.pipelineGBps = intra;
    } else {
        b.dataParallelGBps = b.pipelineGBps = network * oversub;
    }
    return b;
}

} // namespace

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
    const int chunk = static_cast<int>(assumptionValue(A, "inference_prefill_chunk_tokens"));
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
            JobRef r{t, j, architectureOf(job.model, c), {}, 0.0, 0.0};
            double demand = 0.0;
            if (r.arch && job.kind == JobKind::Inference && job.inference) {
                // A serving engine needs its weights, workspace and one sequence of the
                // longest admitted context within its share of the memory; the KV cache then
                // takes what is left (step 4).
                r.memory = servingMemory(*r.arch, job, chunk, overhead, 1, job.inference->contextTokens);
                r.servingFixedBytes = r.memory.totalBytes() - r.memory.kvCacheBytes.value_or(0.0);
                r.servingWantedKvBytes = kvBytesPerTokenPerGpu(*r.arch, job) *
                                         (job.inference->promptTokens() + job.inference->outputTokens) *
                                         std::ceil(static_cast<double>(std::max(job.inference->concurrency, 1)) /
                                                   std::max(job.parallelism.dp, 1));
                demand = r.memory.totalBytes() / engine.memoryFraction;
            } else if (r.arch) {
                MemoryInputs in = memoryInputsFor(job, *r.arch, overhead);
                in.prefillChunkTokens = chunk;
                r.memory = estimateMemory(in);
                demand = r.memory.totalBytes();
            } else {
                demand = r.memory.totalBytes();
            }
            demands.push_back({t, j, std::max(job.parallelism.tp, 1),
                               std::max(job.parallelism.pp, 1) * std::max(job.parallelism.dp, 1), demand, job.pin});
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
    const PlacementOutcome po =
        placeJobs(s, c, cx.fabric, cx.slots, ordered, policyOverride.value_or(s.placementPolicy));

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
    std::vector<double> linkLoad(s.topology.links.size(), 0.0);
    std::vector<double> tenantCost(s.tenants.size(), 0.0);
    ev.jobs.reserve(ordered.size());
    double penaltySum = 0.0, flopsShare = 0.0, servingAttainment = 0.0;
    for (const JobDemand& d : ordered)
        ev.kpis.servingJobs +=
            s.tenants[static_cast<std::size_t>(d.tenant)].jobs[static_cast<std::size_t>(d.job)].kind ==
            JobKind::Inference;
    int placedCount = 0;
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
            servingAttainment += sv.sloAttainment;
            ev.kpis.servingTtftP99S = std::max(ev.kpis.servingTtftP99S, sv.fits ? sv.ttftP99S : 1e30);
            ev.kpis.servingItlP99S = std::max(ev.kpis.servingItlP99S, sv.itlP99S);
        }
        if (!r.meetsSla)
            ++ev.kpis.slaViolations;
        tenantCost[static_cast<std::size_t>(d.tenant)] += r.costPerMonthUsd;
        ev.kpis.wastePerMonth.overheadUsd += r.costPerMonthUsd * r.penalty / (1.0 + r.penalty);
        penaltySum += r.penalty;
        ev.kpis.maxPenalty = std::max(ev.kpis.maxPenalty, r.penalty);
        flopsShare += r.gpuEquivalents * r.perf.mfu;
        ++placedCount;

        // Traffic leaving each node of a multi-node job: its GPUs' data-parallel and pipeline
        // bytes per step, spread over the node's uplinks and, across leaves, the leaf uplinks.
        if (jobNodes.size() > 1 && r.perf.stepTimeS > 0) {
            std::map<int, int> unitsOnNode;
            for (int sIdx : jp.slots)
                ++unitsOnNode[cx.slots[static_cast<std::size_t>(sIdx)].node];
            std::map<int, int> nodesPerLeaf;
            for (int n : jobNodes)
                ++nodesPerLeaf[cx.fabric.leafOfNode[static_cast<std::size_t>(n)]];
            for (const auto& [n, units] : unitsOnNode) {
                const double gbps = (r.perf.dataParallelBytesPerGpu + r.perf.pipelineBytesPerGpu) * units * 8.0 / 1e9 /
                                    r.perf.stepTimeS;
                const auto& own = cx.fabric.nodeUplinks[static_cast<std::size_t>(n)];
                for (int l : own) {
                    linkLoad[static_cast<std::size_t>(l)] += gbps / own.size();
                    r.linkGbps.push_back({l, gbps / own.size()});
                }
                const int leaf = cx.fabric.leafOfNode[static_cast<std::size_t>(n)];
                if (leaf < 0)
                    continue;
                const auto& up = cx.fabric.leafUplinks[static_cast<std::size_t>(leaf)];
                const double leaving = 1.0 - static_cast<double>(nodesPerLeaf[leaf]) / jobNodes.size();
                for (int l : up) {
                    linkLoad[static_cast<std::size_t>(l)] += gbps * leaving / up.size();
                    r.linkGbps.push_back({l, gbps * leaving / up.size()});
                }
            }
        }
        ev.jobs.push_back(std::move(r));
    }
    for (std::size_t n = 0; n < s.topology.nodes.size(); ++n) {
        const Node& node = s.topology.nodes[n];
        const GpuSpec* g = c.gpu(node.gpuId);
        for (int i = 0; i < node.gpuCount; ++i) {
            const std::size_t gi = static_cast<std::size_t>(cx.gpuBase[n]) + static_cast<std::size_t>(i);
            GpuResult r{node.id, i, cx.gpuUsed[gi], g ? g->memoryUsableGiB * kGiB : 0.0, false};
            r.oomRisk = cx.gpuShared[gi] && r.usedBytes > r.capacityBytes * (1.0 + 1e-12);
            ev.kpis.oomRiskGpus += r.oomRisk ? 1 : 0;
            ev.gpus.push_back(r);
        }
    }
    ev.kpis.servingSloAttainment = ev.kpis.servingJobs > 0 ? servingAttainment / ev.kpis.servingJobs : 1.0;
    for (std::size_t i = 0; i < s.topology.links.size(); ++i) {
        const Link& l = s.topology.links[i];
        ev.links.push_back({l.id, linkLoad[i], l.bandwidthGbps > 0 ? linkLoad[i] / l.bandwidthGbps : 0.0});
    }
    for (std::size_t t = 0; t < s.tenants.size(); ++t)
        ev.tenantCostPerMonthUsd.push_back({s.tenants[t].id, tenantCost[t]});

    // 5. Cluster KPIs and waste.
    Kpis& k = ev.kpis;
    double totalVram = 0.0, usedVram = 0.0, allocated = 0.0, freeShare = 0.0, unusableShare = 0.0;
    std::vector<double> sharedAllocated(ev.gpus.size(), 0.0); // allocated GPU share of GPUs without isolation
    std::vector<double> gpuPrice(ev.gpus.size(), 0.0);
    for (const GpuResult& g : ev.gpus)
        totalVram += g.capacityBytes;
    std::vector<double> allocatedShare(ev.gpus.size(), 0.0);
    const WorkloadMix mix(ordered);
    std::vector<int> domains;
    for (const Node& n : s.topology.nodes)
        domains.push_back(nvlinkDomainGpus(n, c));
    const std::vector<int> freeInDomain =
        freeGpusInDomains(cx.slots, domains, [&](std::size_t i) { return po.owner[i] < 0; });
    for (std::size_t i = 0; i < cx.slots.size(); ++i) {
        const Slot& sl = cx.slots[i];
        const double price = cx.price(sl.node) * kHoursPerMonth;
        const auto gi = static_cast<std::size_t>(cx.globalGpu(sl));
        gpuPrice[gi] = price;
        if (po.owner[i] < 0) {
            freeShare += sl.gpuFraction;
            // The share of the job mix that could not use this free slot (the FGD view).
            unusableShare += sl.gpuFraction * mix.unusableWeight(sl, freeInDomain[i]);
            continue;
        }
        allocatedShare[gi] += sl.gpuFraction;
        allocated += sl.gpuFraction;
        if (!sl.memoryIsolated)
            sharedAllocated[gi] += sl.gpuFraction;
        const double used = std::min(cx.slotUsed[i], sl.capacityBytes);
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
        if (cx.gpuShared[g]) {
            const double used = std::min(ev.gpus[g].usedBytes, ev.gpus[g].capacityBytes);
            usedVram += used;
            const double stranded = std::max(0.0, ev.gpus[g].capacityBytes * sharedAllocated[g] - used);
            k.strandedBytes += stranded;
            k.wastePerMonth.strandedUsd += gpuPrice[g] * stranded / ev.gpus[g].capacityBytes;
        }
    k.vramUtilization = totalVram > 0 ? usedVram / totalVram : 0.0;
    k.allocationRatio = gpus > 0 ? allocated / gpus : 0.0;
    k.fragmentation = freeShare > 0 ? unusableShare / freeShare : 0.0;
    k.computeUtilization = gpus > 0 ? flopsShare / gpus : 0.0;
    k.meanPenalty = placedCount > 0 ? penaltySum / placedCount : 0.0;
    k.meetsTarget = PlanningTarget::met(k.vramUtilization, k.meanPenalty);

    // MIG geometric fragmentation: free memory slices of MIG GPUs into which none of the
    // scenario's MIG profiles for that GPU model can be placed.
    std::map<std::string, std::set<std::string>> profilesByGpu;
    for (const Node& n : s.topology.nodes)
        for (int g = 0; g < n.gpuCount; ++g)
            for (const auto& inst : n.sharingOf(g).migInstances)
                profilesByGpu[n.gpuId].insert(inst.profile);
    // The answer depends only on the GPU model and its layout: work it out once for each.
    std::map<std::pair<std::string, std::vector<std::pair<std::string, int>>>, int> unusableByLayout;
    for (const Node& n : s.topology.nodes) {
        const GpuSpec* gpu = c.gpu(n.gpuId);
        if (!gpu || !gpu->supportsMig())
            continue;
        for (int g = 0; g < n.gpuCount; ++g) {
            const SharingConfig& cfg = n.sharingOf(g);
            if (cfg.mode != SharingMode::Mig)
                continue;
            std::vector<std::pair<std::string, int>> key;
            for (const auto& inst : cfg.migInstances)
                key.push_back({inst.profile, inst.start});
            auto [it, fresh] = unusableByLayout.try_emplace({n.gpuId, key}, 0);
            if (fresh) {
                int freeSlices = mig::kMemorySlices;
                for (const auto& inst : cfg.migInstances)
                    if (const MigProfile* p = gpu->migProfile(inst.profile))
                        freeSlices -= p->memorySlices;
                bool anyFits = false;
                for (const auto& name : profilesByGpu[n.gpuId]) {
                    const MigProfile* p = gpu->migProfile(name);
                    for (int start : p ? p->startSlices : std::vector<int>{}) {
                        mig::Layout more = cfg.migInstances;
                        more.push_back({name, start});
                        anyFits = anyFits || mig::check(*gpu, more).empty();
                    }
                }
                it->second = anyFits ? 0 : std::max(freeSlices, 0);
            }
            k.migUnusableSlices += it->second;
        }
    }
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

} // namespace gp::calc
