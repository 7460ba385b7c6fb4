// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
// The job search: a training job's parallelism, enumerated and scored with evaluate's memory and
// step-time models (docs/model-reference.md, "Job search").
#include "jobsearch.h"

#include "jobsearchparts.h"
#include "model/calibratedplan.h"

#include "memorymodel.h"
#include "modelsize.h"
#include "parallel.h"
#include "servingcache.h"
#include "servingmodel.h"
#include "slots.h"

#include "model/assumptions.h"
#include "model/units.h"
#include "model/validation.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <limits>
#include <mutex>
#include <tuple>

namespace gp::calc {

using namespace detail::jobsearch;

namespace {

struct Sharding
{
    int zero;
    bool fsdp;
};

/// A total order on configurations: faster first, then fewer GPUs, less memory, then the
/// parallelism itself, so that results do not depend on which thread found what.
auto rankKey(const JobConfig& c)
{
    const Parallelism& p = c.parallelism;
    return std::make_tuple(c.stepTimeS, c.gpus, c.memoryBytes, p.tp, p.pp, p.cp, p.virtualStages, p.zeroStage, p.fsdp,
                           static_cast<int>(p.recompute), p.sequenceParallel, c.microBatch);
}
bool faster(const JobConfig& a, const JobConfig& b) { return rankKey(a) < rankKey(b); }

double memoryOf(const JobConfig& j) { return j.memoryBytes; }
double gpusOf(const JobConfig& j) { return static_cast<double>(j.gpus); }
double stepOf(const JobConfig& j) { return j.stepTimeS; }

struct Found
{
    std::vector<JobConfig> top; // kept sorted, at most topK
    std::vector<JobConfig> memoryFront;
    std::vector<JobConfig> gpuFront;
    long long feasible = 0;
    long long pruned = 0;
    double leastNeed = std::numeric_limits<double>::infinity(); // least memory any configuration needed
};

/// Configurations that differ only in settings the models score alike (ZeRO-3 and FSDP, or
/// selective recomputation where the attention is fused) are one entry of the list: the one
/// ranked first.
bool alike(const JobConfig& a, const JobConfig& b)
{
    const Parallelism &p = a.parallelism, &q = b.parallelism;
    return a.gpus == b.gpus && a.microBatch == b.microBatch && p.tp == q.tp && p.pp == q.pp && p.dp == q.dp &&
           p.cp == q.cp && p.virtualStages == q.virtualStages && p.sequenceParallel == q.sequenceParallel &&
           a.stepTimeS == b.stepTimeS && a.memoryBytes == b.memoryBytes;
}

/// Offers `c` to a list kept sorted and at most `topK` long.
void offer(std::vector<JobConfig>& top, const JobConfig& c, int topK)
{
    if (const auto twin = std::find_if(top.begin(), top.end(), [&](const JobConfig& t) { return alike(t, c); });
        twin != top.end()) {
        if (!faster(c, *twin))
            return;
        top.erase(twin);
    }
    if (static_cast<int>(top.size()) < topK || faster(c, top.back())) {
        top.insert(std::upper_bound(top.begin(), top.end(), c, faster), c);
        if (static_cast<int>(top.size()) > topK)
            top.pop_back();
    }
}

void keep(Found& f, const JobConfig& c, int topK)
{
    ++f.feasible;
    offer(f.top, c, topK);
    addToFront(f.memoryFront, c, memoryOf, stepOf, faster);
    addToFront(f.gpuFront, c, gpusOf, stepOf, faster);
}

} // namespace

CommBandwidth jobSearchComm(const JobSearchSetup& setup, int gpus)
{
    const bool inRack = gpus <= setup.rackDomainGpus;
    return commBandwidth(*setup.gpu, gpus <= setup.gpusPerNode || inRack, gpus <= setup.nvlinkDomainGpus || inRack,
                         setup.linkEfficiency, setup.networkGBpsPerGpu);
}

JobConfig scoreConfig(const JobSearchSetup& setup, const Job& job, const CommBandwidth& comm)
{
    JobConfig cfg{job.parallelism, job.batch.micro, job.parallelism.gpus(), 0.0, 0.0, 0.0, 0.0};
    cfg.memoryBytes =
        estimateMemory(memoryInputsFor(job, setup.arch, setup.runtimeOverheadBytes, setup.moeLoadImbalance))
            .totalBytes();
    if (cfg.memoryBytes > setup.capacityBytes)
        return cfg;
    CommBandwidth c = expertGroupComm(comm, *setup.gpu, job.parallelism, setup.gpusPerNode, setup.nvlinkDomainGpus,
                                      setup.networkGBpsPerGpu);
    const Parallelism& par = job.parallelism;
    if (par.gpus() > setup.gpusPerNode && par.gpus() > setup.rackDomainGpus) {
        // Across nodes, the data-parallel ring crosses the network once per node it spans, with
        // gpus per node / (tp x pp) of its members on each (evaluate's commFor; collectiveS).
        const int perNode = std::max(1, setup.gpusPerNode / std::max(par.tp * par.pp, 1));
        const int ranks = std::max(par.dp, 1) * std::max(par.cp, 1);
        c.dataParallelNodes = std::max(1, (ranks + perNode - 1) / perNode);
    }
    const PerfResult perf = estimatePerformance({setup.arch,
                                                 setup.gpu,
                                                 job,
                                                 {},
                                                 setup.commOverlap,
                                                 setup.tpCommOverlap,
                                                 c,
                                                 setup.moeLoadImbalance,
                                                 setup.stack ? &*setup.stack : nullptr});
    cfg.stepTimeS = perf.stepTimeS;
    cfg.mfu = perf.mfu;
    cfg.tokensPerS = perf.tokensPerS;
    return cfg;
}

JobSearchSetup jobSearchSetup(const Scenario& s, const Catalog& c, const Job& job, const Node& node)
{
    for (const Tenant& t : s.tenants)
        for (const Job& j : t.jobs)
            if (j.id == job.id)
                return jobSearchSetup(s, c, job, node, t.sla);
    return jobSearchSetup(s, c, job, node, Sla{});
}

JobSearchSetup jobSearchSetup(const Scenario& s, const Catalog& c, const Job& job, const Node& node, const Sla& sla)
{
    if (s.calibration) {
        // The scenario's own profile: the setup keeps the calibrated catalog its GPU points into.
        const CalibratedPlan plan = withCalibration(s, c, *s.calibration);
        auto catalog = std::make_shared<const Catalog>(plan.catalog);
        JobSearchSetup setup = jobSearchSetup(plan.scenario, *catalog, job, node, sla);
        setup.calibratedCatalog = std::move(catalog);
        return setup;
    }
    JobSearchSetup setup;
    const auto& A = s.assumptions;
    if (auto arch = architectureOf(job.model, c))
        setup.arch = *arch;
    setup.job = job;
    setup.gpu = c.gpu(node.gpuId);
    setup.gpusPerNode = std::max(node.gpuCount, 1);
    setup.nvlinkDomainGpus = std::max(nvlinkDomainGpus(node, c), 1);
    setup.rackDomainGpus = rackDomainGpus(s.topology, node);
    setup.linkEfficiency = assumptionValue(A, "link_efficiency");
    setup.networkGBpsPerGpu =
        nicGBpsPerGpu(node.nics.count, node.nics.speedGbps, node.gpuCount, node.nics.gpudirectRdma,
                      setup.linkEfficiency, assumptionValue(A, "no_gpudirect_bandwidth_factor"));
    setup.capacityBytes = setup.gpu ? setup.gpu->memoryUsableGiB * kGiB : 0.0;
    setup.runtimeOverheadBytes = assumptionValue(A, "runtime_overhead_gib") * kGiB;
    setup.commOverlap = assumptionValue(A, "comm_overlap");
    setup.tpCommOverlap = assumptionValue(A, "tp_comm_overlap");
    setup.moeLoadImbalance = assumptionValue(A, "moe_load_imbalance");
    if (const SoftwareStack* stack = c.softwareStackFor(job)) {
        setup.stack = *stack;
        if (!A.count("comm_overlap"))
            setup.commOverlap = stack->dpGradOverlap;
        if (!A.count("tp_comm_overlap"))
            setup.tpCommOverlap = stack->tpCommOverlap;
    }
    setup.gpusMin = setup.gpusMax = std::max(job.parallelism.gpus(), 1);
    setup.sla = sla;
    setup.assumptions = A;
    return setup;
}

Job withConfig(const Job& job, const JobConfig& config)
{
    Job j = job;
    j.parallelism = config.parallelism;
    j.batch.micro = config.microBatch;
    return j;
}

JobSearchResult searchJob(const JobSearchSetup& setup, const JobSearchOptions& options)
{
    const auto start = std::chrono::steady_clock::now();
    JobSearchResult result;
    const ModelArchitecture& a = setup.arch;
    const Job& base = setup.job;
    const int global = std::max(base.batch.global, 1);
    const bool training = base.isTraining();
    const bool lora = base.kind == JobKind::Lora || base.kind == JobKind::Qlora;

    // The cells, and how many configurations each holds (counted before any is evaluated, so
    // that progress has a total).
    const int tpLimit = std::max({1, std::min(setup.nvlinkDomainGpus, setup.gpusPerNode), setup.rackDomainGpus});
    // Context parallelism joins the search for long sequences only (>= kContextParallelFromTokens,
    // where attention's s² work and the activations dominate), with 2, 4 or 8 ranks dividing the
    // sequence into 2·cp chunks and each tp x cp group inside one NVLink domain, so that the
    // search stays bounded and the ring stays on NVLink (docs/model-reference.md).
    const bool longSequences = training && a.sequenceLength >= kContextParallelFromTokens && base.usesFlashAttention(a);
    auto contextChoices = [&](int tp, int rest) {
        std::vector<int> v{1};
        for (int cp : {2, 4, 8})
            if (longSequences && rest % cp == 0 && a.sequenceLength % (2 * cp) == 0 && tp * cp <= tpLimit)
                v.push_back(cp);
        return v;
    };
    std::vector<Cell> cells;
    for (int n = std::max(setup.gpusMin, 1); n <= setup.gpusMax; ++n)
        for (int tp : divisorsOf(n))
            if (tp <= tpLimit && tpFits(a, tp))
                for (int pp : divisorsOf(n / tp))
                    for (int cp : contextChoices(tp, n / tp / pp))
                        if ((a.layers % pp == 0 || (training && a.layers >= pp)) && // training: uneven stages
                            global % (n / tp / pp / cp) == 0)
                            cells.push_back({n, tp, pp, cp});
    const std::vector<Recompute> recomputes =
        training ? std::vector<Recompute>{Recompute::None, Recompute::Selective, Recompute::Full}
                 : std::vector<Recompute>{Recompute::None};
    auto shardings = [&](int dp) {
        if (!training || dp == 1) // nothing to shard across one replica
            return std::vector<Sharding>{{0, false}};
        return std::vector<Sharding>{{0, false}, {1, false}, {2, false}, {3, false}, {0, true}};
    };
    auto stagesFor = [&](const Cell& c, int microBatches) {
        std::vector<int> v{1};
        if (training && c.pp >= 2 && a.layers % c.pp == 0 && microBatches >= c.pp && microBatches % c.pp == 0)
            for (int s : divisorsOf(a.layers / c.pp))
                if (s > 1)
                    v.push_back(s);
        return v;
    };
    // Expert parallelism for MoE models: every ep that divides both dp (EP ranks are data-parallel
    // ranks, Megatron-Core) and the experts.
    auto epsFor = [&](int dp) {
        std::vector<int> eps;
        for (int ep : divisorsOf(dp))
            if (ep == 1 || (a.isMoe() && a.experts % ep == 0))
                eps.push_back(ep);
        return eps;
    };
    auto cellSize = [&](const Cell& c) {
        const int dp = c.gpus / c.tp / c.pp / c.cp;
        long long n = 0;
        for (int micro : divisorsOf(global / dp))
            n += static_cast<long long>(stagesFor(c, global / dp / micro).size());
        return n * static_cast<long long>(shardings(dp).size() * recomputes.size() * epsFor(dp).size()) *
               (c.tp > 1 ? 2 : 1);
    };
    long long total = 0;
    for (const Cell& c : cells)
        total += cellSize(c);

    // Weights-only lower bound per GPU: the blocks of one stage (every stage has layers / pp of
    // them; embeddings left out), as evaluate's memory model shards them.
    const StateBytes sb = trainableStateBytes(base.precision, base.optimizer, base.mainGradsFp32);
    const double frozen = frozenWeightBytes(base.precision, base.kind == JobKind::Qlora);
    // MoE models: every block holds at least the lighter of a dense block and an MoE block's
    // non-expert part, and all but the first dense_layers hold the routed experts too, 1/ep of
    // them on each rank, ZeRO-sharded over the dp / ep ranks that hold the same experts.
    const double routedParams = routedExpertParameters(a);
    const double blockParams =
        a.isMoe() ? std::min(denseBlockParameters(a), blockParameters(a) - routedParams) : blockParameters(a);
    auto lowerBound = [&](const Cell& c, Sharding s, int dp, int ep) {
        dp *= c.cp;                                        // ZeRO shards over dp x cp ranks (memorymodel.cpp)
        const int heaviest = (a.layers + c.pp - 1) / c.pp; // the heaviest stage's blocks (uneven: one more)
        const double blocks = static_cast<double>(heaviest) / c.tp;
        const double params = blockParams * blocks;
        const double moeBlocks = a.isMoe() ? std::max(0.0, static_cast<double>(heaviest - a.denseLayers)) : 0.0;
        const double experts = routedParams * moeBlocks / c.tp / ep;
        auto by = [&](bool sharded) { return std::pair<double, double>(sharded ? dp : 1.0, sharded ? dp / ep : 1.0); };
        const auto [byWeights, byWeightsE] = by(s.fsdp || s.zero >= 3);
        if (lora || !training) {
            const double bytes = training ? frozen : frozenWeightBytes(base.precision, false);
            return params * bytes / byWeights + experts * bytes / byWeightsE + setup.runtimeOverheadBytes;
        }
        const auto [byGrads, byGradsE] = by(s.fsdp || s.zero >= 2);
        const auto [byOptimizer, byOptimizerE] = by(s.fsdp || s.zero >= 1);
        return params * (sb.weights / byWeights + sb.gradients / byGrads + sb.optimizer / byOptimizer) +
               experts * (sb.weights / byWeightsE + sb.gradients / byGradsE + sb.optimizer / byOptimizerE) +
               setup.runtimeOverheadBytes;
    };

    const int topK = std::max(options.topK, 1);
    const int workers = std::max(1, std::min(parallelWorkers(), static_cast<int>(cells.size())));
    std::vector<Found> found(static_cast<std::size_t>(workers));
    std::atomic<std::size_t> nextCell{0};
    std::atomic<long long> done{0};
    std::atomic<bool> cancelled{false};
    std::mutex progressMutex;
    runParts(workers, [&](int w) {
        Found& f = found[static_cast<std::size_t>(w)];
        Job job = base;
        long long sinceReport = 0;
        for (std::size_t i = nextCell++; i < cells.size(); i = nextCell++) {
            if (stopRequested(options)) {
                cancelled = true;
                return;
            }
            const Cell& c = cells[i];
            const int dp = c.gpus / c.tp / c.pp / c.cp;
            CommBandwidth comm = jobSearchComm(setup, c.gpus);
            if (c.cp > 1) // tp x cp fits the NVLink domain (contextChoices)
                comm.contextParallelGBps = comm.tensorParallelGBps;
            long long enumerated = 0;
            for (int micro : divisorsOf(global / dp)) {
                const int microBatches = global / dp / micro;
                for (int v : stagesFor(c, microBatches))
                    for (const Sharding s : shardings(dp))
                        for (const Recompute r : recomputes)
                            for (int ep : epsFor(dp))
                                for (int spBit = 0; spBit < (c.tp > 1 ? 2 : 1); ++spBit) {
                                    ++enumerated;
                                    const double bound = options.memoryBound ? lowerBound(c, s, dp, ep) : 0.0;
                                    if (bound > setup.capacityBytes) {
                                        ++f.pruned;
                                        f.leastNeed =
                                            std::min(f.leastNeed, bound); // the full model needs at least this
                                        continue;
                                    }
                                    job.parallelism = {c.tp, c.pp, dp, s.zero, s.fsdp, spBit == 1, r, v};
                                    job.parallelism.ep = ep;
                                    job.parallelism.cp = c.cp;
                                    job.parallelism.stageLayers = Parallelism::balancedStageLayers(a.layers, c.pp);
                                    job.batch = {micro, global};
                                    const JobConfig cfg = scoreConfig(setup, job, comm);
                                    if (cfg.stepTimeS <= 0.0) { // does not fit
                                        f.leastNeed = std::min(f.leastNeed, cfg.memoryBytes);
                                        continue;
                                    }
                                    keep(f, cfg, topK);
                                }
            }
            done += enumerated;
            sinceReport += enumerated;
            if (options.progress && sinceReport >= 4096) {
                sinceReport = 0;
                const std::lock_guard lock(progressMutex);
                options.progress(done.load(), total);
            }
        }
    });

    // Merged in worker order; the total order makes the result the same for any split.
    Found all;
    for (const Found& f : found) {
        for (const JobConfig& c : f.top)
            offer(all.top, c, topK);
        for (const JobConfig& c : f.memoryFront)
            addToFront(all.memoryFront, c, memoryOf, stepOf, faster);
        for (const JobConfig& c : f.gpuFront)
            addToFront(all.gpuFront, c, gpusOf, stepOf, faster);
        all.feasible += f.feasible;
        all.pruned += f.pruned;
        all.leastNeed = std::min(all.leastNeed, f.leastNeed);
    }
    result.configurations = done.load();
    result.feasible = all.feasible;
    result.pruned = all.pruned;
    result.cancelled = cancelled.load();
    result.top = std::move(all.top);
    result.paretoMemory = std::move(all.memoryFront);
    std::sort(result.paretoMemory.begin(), result.paretoMemory.end(),
              [](const JobConfig& x, const JobConfig& y) { return x.memoryBytes < y.memoryBytes; });
    result.paretoGpus = std::move(all.gpuFront);
    std::sort(result.paretoGpus.begin(), result.paretoGpus.end(),
              [](const JobConfig& x, const JobConfig& y) { return x.gpus < y.gpus; });
    if (result.feasible == 0 && !result.cancelled) {
        char why[256];
        if (cells.empty())
            std::snprintf(why, sizeof why,
                          "no parallelism divides the space: %d-%d GPUs with TP up to %d dividing %d heads, PP "
                          "up to %d layers and DP dividing the global batch of %d",
                          setup.gpusMin, setup.gpusMax, tpLimit, a.attentionHeads, a.layers, global);
        else
            std::snprintf(why, sizeof why,
                          "no configuration fits: every one needs at least %.1f GiB per GPU, the GPU offers %.1f "
                          "GiB (%.1f GiB short)",
                          all.leastNeed / kGiB, setup.capacityBytes / kGiB,
                          (all.leastNeed - setup.capacityBytes) / kGiB);
        result.infeasibleReason = why;
    }
    result.elapsedMs = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    return result;
}

} // namespace gp::calc
