// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
// The serving search: a serving job's deployments (TP, replicas, batch cap, precision), scored
// with evaluate's serving model (docs/model-reference.md, "Job search").
#include "jobsearch.h"
#include "jobsearchparts.h"

#include "memorymodel.h"
#include "parallel.h"
#include "servingcache.h"
#include "servingmodel.h"

#include "model/assumptions.h"
#include "model/units.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <limits>
#include <mutex>
#include <tuple>

namespace gp::calc {

using namespace detail::jobsearch;

Job withServingConfig(const Job& job, const ServingConfig& config)
{
    Job j = job;
    j.parallelism = Parallelism{};
    j.parallelism.tp = config.tp;
    j.parallelism.dp = config.replicas;
    j.parallelism.ep = config.ep;
    j.precision = config.precision;
    if (j.inference)
        j.inference->concurrency = config.batchCap;
    return j;
}

ServingSearchResult searchServing(const JobSearchSetup& setup, const JobSearchOptions& options)
{
    const auto start = std::chrono::steady_clock::now();
    ServingSearchResult result;
    const ModelArchitecture& a = setup.arch;
    const Job& base = setup.job;
    if (!base.inference || !setup.gpu) {
        result.infeasibleReason = "the serving search needs an inference job and a GPU";
        return result;
    }
    const ServingEngine engine =
        withSoftwareStack(servingEngineFrom(setup.assumptions), setup.stack ? &*setup.stack : nullptr,
                          setup.assumptions.count("serving_memory_fraction") > 0);
    const int chunk = static_cast<int>(assumptionValue(setup.assumptions, "inference_prefill_chunk_tokens"));
    std::vector<Precision> precisions{Precision::Bf16};
    if (setup.gpu->fp8DenseTflops > 0)
        precisions.push_back(Precision::Fp8);
    precisions.push_back(Precision::Int8);
    precisions.push_back(Precision::Int4);
    const int tpLimit = std::max({1, std::min(setup.nvlinkDomainGpus, setup.gpusPerNode), setup.rackDomainGpus});
    std::vector<Cell> cells; // pp is 1: a serving engine's replicas each hold the whole model
    for (int n = std::max(setup.gpusMin, 1); n <= setup.gpusMax; ++n)
        for (int tp : divisorsOf(n))
            if (tp <= tpLimit && tpFits(a, tp))
                cells.push_back({n, tp, 1});
    auto capsFor = [&](int replicas) {
        std::vector<int> caps{std::max(base.inference->concurrency, 1)};
        for (int b = 1; b <= 512; b *= 2)
            caps.push_back(b * replicas);
        std::sort(caps.begin(), caps.end());
        caps.erase(std::unique(caps.begin(), caps.end()), caps.end());
        return caps;
    };
    // MoE models: expert parallelism over the replicas (vLLM's and SGLang's EP with data-parallel
    // attention), every ep dividing the replicas and the experts with the tp x ep group inside
    // the NVLink domain, as Best Parallelism's training rule.
    auto epsFor = [&](int tp, int replicas) {
        std::vector<int> eps;
        for (int ep : divisorsOf(replicas))
            if (ep == 1 || (a.isMoe() && a.experts % ep == 0 && tp * ep <= tpLimit))
                eps.push_back(ep);
        return eps;
    };
    const Sla& sla = setup.sla;
    auto ranked = [](const ServingConfig& c) {
        return std::make_tuple(c.gpus, -c.outputTokensPerSPerGpu, c.ttftP99S, c.tp, c.ep, c.batchCap,
                               static_cast<int>(c.precision));
    };
    auto before = [&](const ServingConfig& x, const ServingConfig& y) { return ranked(x) < ranked(y); };
    const int topK = std::max(options.topK, 1);
    // Deployments that differ only in a batch cap the load never reaches score alike: the list
    // keeps the first of them (the smallest cap).
    auto offerServing = [&](std::vector<ServingConfig>& top, const ServingConfig& cfg) {
        const auto twin = std::find_if(top.begin(), top.end(), [&](const ServingConfig& t) {
            return t.gpus == cfg.gpus && t.tp == cfg.tp && t.ep == cfg.ep && t.precision == cfg.precision &&
                   t.ttftP99S == cfg.ttftP99S && t.itlP99S == cfg.itlP99S &&
                   t.outputTokensPerS == cfg.outputTokensPerS && t.memoryBytes == cfg.memoryBytes;
        });
        if (twin != top.end()) {
            if (!before(cfg, *twin))
                return;
            top.erase(twin);
        }
        top.insert(std::upper_bound(top.begin(), top.end(), cfg, before), cfg);
        if (static_cast<int>(top.size()) > topK)
            top.pop_back();
    };

    struct Part
    {
        std::vector<ServingConfig> top, front;
        long long feasible = 0, configurations = 0;
        double closestTtft = std::numeric_limits<double>::infinity(); // the best P99 TTFT any reached
        double closestItl = std::numeric_limits<double>::infinity();  // ... and inter-token latency
        bool anyFits = false;
    };
    // P99 TTFT against GPUs: a deployment stays unless another needs no more GPUs and waits no
    // longer.
    auto addToServingFront = [&](std::vector<ServingConfig>& front, const ServingConfig& cfg) {
        addToFront(
            front, cfg, [](const ServingConfig& c) { return static_cast<double>(c.gpus); },
            [](const ServingConfig& c) { return c.ttftP99S; }, before);
    };
    const int workers = std::max(1, std::min(parallelWorkers(), static_cast<int>(cells.size())));
    std::vector<Part> parts(static_cast<std::size_t>(workers));
    std::atomic<std::size_t> nextCell{0};
    std::atomic<bool> cancelled{false};
    long long total = 0; // for the progress callback: deployments over every cell
    for (const Cell& c : cells)
        total += static_cast<long long>(precisions.size() * epsFor(c.tp, c.gpus / c.tp).size()) *
                 static_cast<long long>(capsFor(c.gpus / c.tp).size());
    std::atomic<long long> done{0};
    std::mutex progressMutex;
    runParts(workers, [&](int w) {
        Part& part = parts[static_cast<std::size_t>(w)];
        ServingCache cache;
        for (std::size_t i = nextCell++; i < cells.size(); i = nextCell++) {
            if (options.progress && i > 0) { // the cells before this one's worker took it
                const std::lock_guard lock(progressMutex);
                options.progress(done.load(), total);
            }
            if (stopRequested(options)) {
                cancelled = true;
                return;
            }
            const Cell& c = cells[i];
            const int replicas = c.gpus / c.tp;
            const std::vector<int> eps = epsFor(c.tp, replicas);
            for (const int ep : eps)
                for (const Precision precision : precisions)
                    for (const int cap : capsFor(replicas)) {
                        ++part.configurations;
                        ServingConfig cfg;
                        cfg.gpus = c.gpus;
                        cfg.tp = c.tp;
                        cfg.replicas = replicas;
                        cfg.ep = ep;
                        cfg.batchCap = cap;
                        cfg.precision = precision;
                        const Job job = withServingConfig(base, cfg);
                        const CommBandwidth comm =
                            expertGroupComm(jobSearchComm(setup, c.tp), *setup.gpu, job.parallelism, setup.gpusPerNode,
                                            setup.nvlinkDomainGpus, setup.networkGBpsPerGpu);
                        const MemoryBreakdown fixed =
                            servingMemory(a, job, chunk, setup.runtimeOverheadBytes, 1, job.inference->contextTokens);
                        const double fixedBytes = fixed.totalBytes() - fixed.kvCacheBytes.value_or(0.0);
                        ServingPlacement whole;
                        whole.tensorParallelGBps = comm.tensorParallelGBps;
                        whole.expertParallelGBps = comm.expertParallelGBps;
                        whole.moeLoadImbalance = setup.moeLoadImbalance;
                        whole.kvBudgetBytesPerGpu = engine.kvBudgetBytes(setup.capacityBytes, fixedBytes);
                        if (whole.kvBudgetBytesPerGpu <= 0)
                            continue; // the weights and workspace alone do not fit
                        const ServingAnswer& ans = cache.answer(a, job, *setup.gpu, engine, sla, whole, fixedBytes,
                                                                setup.runtimeOverheadBytes);
                        const ServingResult& sv = ans.shared;
                        part.anyFits = part.anyFits || sv.fits;
                        cfg.ttftP99S = sv.ttftP99S;
                        cfg.itlP99S = sv.itlP99S;
                        cfg.outputTokensPerS = sv.outputTokensPerS;
                        cfg.outputTokensPerSPerGpu = sv.outputTokensPerS / c.gpus;
                        cfg.memoryBytes = fixedBytes + sv.kvCacheBytesPerGpu;
                        cfg.meetsSlo = sv.fits && !sv.saturated &&
                                       (!sla.ttftP99Ms || sv.ttftP99S * 1e3 <= *sla.ttftP99Ms + 1e-9) &&
                                       (!sla.itlP99Ms || sv.itlP99S * 1e3 <= *sla.itlP99Ms + 1e-9);
                        if (sv.fits && !sv.saturated) {
                            part.closestTtft = std::min(part.closestTtft, sv.ttftP99S);
                            part.closestItl = std::min(part.closestItl, sv.itlP99S);
                        }
                        if (!cfg.meetsSlo)
                            continue;
                        ++part.feasible;
                        offerServing(part.top, cfg);
                        addToServingFront(part.front, cfg);
                    }
            done += static_cast<long long>(precisions.size() * eps.size()) *
                    static_cast<long long>(capsFor(replicas).size());
        }
    });
    if (options.progress && !cancelled) {
        const std::lock_guard lock(progressMutex);
        options.progress(done.load(), total);
    }
    Part all;
    for (const Part& part : parts) {
        all.configurations += part.configurations;
        all.feasible += part.feasible;
        all.anyFits = all.anyFits || part.anyFits;
        all.closestTtft = std::min(all.closestTtft, part.closestTtft);
        all.closestItl = std::min(all.closestItl, part.closestItl);
        for (const ServingConfig& cfg : part.top)
            offerServing(all.top, cfg);
        for (const ServingConfig& cfg : part.front)
            addToServingFront(all.front, cfg);
    }
    std::sort(all.front.begin(), all.front.end(),
              [](const ServingConfig& x, const ServingConfig& y) { return x.gpus < y.gpus; });
    result.configurations = all.configurations;
    result.feasible = all.feasible;
    result.cancelled = cancelled.load();
    result.top = std::move(all.top);
    result.paretoGpus = std::move(all.front);
    if (result.feasible == 0 && !result.cancelled) {
        char why[256];
        if (cells.empty())
            std::snprintf(why, sizeof why, "no TP up to %d divides %d heads on %d-%d GPUs", tpLimit, a.attentionHeads,
                          setup.gpusMin, setup.gpusMax);
        else if (!all.anyFits)
            std::snprintf(why, sizeof why,
                          "no deployment holds the weights, workspace and one sequence of %d tokens in %.0f %% of "
                          "%.1f GiB per GPU",
                          base.inference->contextTokens, engine.memoryFraction * 100.0, setup.capacityBytes / kGiB);
        else if (!std::isfinite(all.closestTtft))
            std::snprintf(why, sizeof why, "every deployment that fits is saturated by %.2f requests/s",
                          base.inference->requestsPerS);
        else
            std::snprintf(why, sizeof why,
                          "no deployment meets both objectives: the shortest P99 time to first token any reaches is "
                          "%.0f ms (the SLA asks %.0f ms), the shortest P99 inter-token latency %.1f ms (the SLA "
                          "asks %.1f ms)",
                          all.closestTtft * 1e3, sla.ttftP99Ms.value_or(0.0), all.closestItl * 1e3,
                          sla.itlP99Ms.value_or(0.0));
        result.infeasibleReason = why;
    }
    result.elapsedMs = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    return result;
}

} // namespace gp::calc
