// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#include "evaluate.h"

#include "evaluatecontext.h"
#include "model/calibratedplan.h"
#include "model/format.h"
#include "model/validation.h"

#include <algorithm>
#include <chrono>
#include <cmath>

namespace gp::calc {

using namespace detail;

JobMemoryNeed jobMemoryNeed(const Job& job, const Scenario& s, const Catalog& c)
{
    if (s.calibration)
        return withOwnCalibration(s, c,
                                  [&](const Scenario& cs, const Catalog& cc) { return jobMemoryNeed(job, cs, cc); });
    return detail::jobMemoryNeed(job, EvaluateParams::read(s.assumptions), c);
}

JobMemoryNeed detail::jobMemoryNeed(const Job& job, const EvaluateParams& p, const Catalog& c)
{
    // What each branch reads (a subset of assumptionsReadBy(EvaluatedFigure::Memory)): the
    // runtime overhead always; a serving engine's token budget and memory share.
    static const AssumptionSet servingRead{"runtime_overhead_gib", "inference_prefill_chunk_tokens",
                                           "serving_memory_fraction"};
    static const AssumptionSet inferenceRead{"runtime_overhead_gib", "inference_prefill_chunk_tokens"};
    static const AssumptionSet trainingRead{"runtime_overhead_gib"};
    JobMemoryNeed r;
    r.arch = architectureOf(job.model, c);
    if (r.arch && job.kind == JobKind::Inference && job.inference) {
        r.assumptionsRead = servingRead;
        // A serving engine needs its weights, workspace and one sequence of the longest
        // admitted context within its share of the memory; the KV cache then takes what is
        // left (servingOnSlots).
        r.memory =
            servingMemory(*r.arch, job, p.prefillChunkTokens, p.runtimeOverheadBytes, 1, job.inference->contextTokens);
        r.servingFixedBytes = r.memory.totalBytes() - r.memory.kvCacheBytes.value_or(0.0);
        r.servingWantedKvBytes =
            kvBytesPerTokenPerGpu(*r.arch, job) * (job.inference->promptTokens() + job.inference->outputTokens) *
            std::ceil(static_cast<double>(std::max(job.inference->concurrency, 1)) / std::max(job.parallelism.dp, 1));
        // Placement reserves what makes that one sequence's KV budget: fixed + kv / f where the
        // engine's fraction is of the free memory (TensorRT-LLM), (fixed + kv) / f where it is of
        // the whole GPU.
        const ServingEngine engine = p.engineFor(c.softwareStackFor(job));
        r.demandBytes = engine.kvOfFreeMemory
                            ? r.servingFixedBytes + r.memory.kvCacheBytes.value_or(0.0) / engine.memoryFraction
                            : r.memory.totalBytes() / engine.memoryFraction;
    } else if (r.arch) {
        // The prefill chunk sizes an inference job's workspace only (estimateMemory).
        r.assumptionsRead = job.kind == JobKind::Inference ? inferenceRead : trainingRead;
        MemoryInputs in = memoryInputsFor(job, *r.arch, p.runtimeOverheadBytes, p.moeLoadImbalance);
        in.prefillChunkTokens = p.prefillChunkTokens;
        r.memory = estimateMemory(in);
        r.demandBytes = r.memory.totalBytes();
        if (job.isTraining() && job.parallelism.ep > 1 && r.arch->isMoe()) // the busiest EP rank's activations
            r.assumptionsRead.add("moe_load_imbalance");
    }
    return r;
}

Evaluation evaluate(const Scenario& s, const Catalog& c, std::optional<PlacementPolicy> policy)
{
    if (s.calibration) {
        // The scenario's own profile: its values where the evaluation reads them, on copies.
        const CalibratedPlan plan = withCalibration(s, c, *s.calibration);
        Evaluation ev = evaluate(plan.scenario, plan.catalog, policy);
        ev.calibration = profileLabel(*s.calibration);
        ev.calibrationIssues = plan.issues;
        return ev;
    }
    const auto start = std::chrono::steady_clock::now();
    const EvaluateParams params = EvaluateParams::read(s.assumptions);
    const Context cx = contextOf(s, c, params);
    Evaluation ev;
    Jobs jobs = jobDemands(cx);
    const PlacementOutcome po = orderAndPlace(cx, jobs, policy.value_or(s.placementPolicy), ev.placementMs);
    GpuLoads loads = gpuLoads(cx, jobs);
    ServingCache servingCache;
    bareMetalBaselines(cx, jobs, servingCache);
    const JobTotals totals = jobsOnSlots(cx, jobs, po, loads, servingCache, ev);
    clusterKpis(ev, cx, po, jobs, loads, totals);
    ev.elapsedMs = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    return ev;
}

} // namespace gp::calc

namespace gp::calc {

std::vector<ServingPoint> servingCurveOf(const JobResult& r, const Scenario& s, const Catalog& c)
{
    if (s.calibration)
        return withOwnCalibration(s, c,
                                  [&](const Scenario& cs, const Catalog& cc) { return servingCurveOf(r, cs, cc); });
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
    if (judgedByPenalty(j, sla) && j.penalty * 100.0 > sla.maxPenaltyPct + 1e-9)
        return j.name + " loses " + fmt::percent(j.penalty) + " to sharing against the same GPU share dedicated; " +
               "its tenant accepts " + fmt::fixed(sla.maxPenaltyPct, 1) + " %";
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
