// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#include "servingcache.h"
#include "model/units.h"

#include <cstring>

#include <algorithm>
#include <cmath>
#include <tuple>

namespace gp::calc {

namespace {
} // namespace

std::size_t ServingCache::KeyHash::operator()(const Key& k) const
{
    // FNV-1a over the key's bytes (-0.0 and 0.0 hash apart and compare equal: a rare extra entry).
    std::uint64_t h = 1469598103934665603ull ^ k.gpu;
    for (double d : k.v) {
        std::uint64_t bits;
        std::memcpy(&bits, &d, sizeof bits);
        h = (h ^ bits) * 1099511628211ull;
    }
    return static_cast<std::size_t>(h ^ (h >> 29));
}

ServingInputs servingInputsFor(const ModelArchitecture& arch, const Job& job, const GpuSpec& gpu,
                               const ServingEngine& engine, const Sla& sla, const ServingPlacement& sp)
{
    ServingInputs si;
    si.arch = arch;
    si.gpu = &gpu;
    si.job = job;
    si.engine = engine;
    si.placement = sp;
    if (sla.ttftP99Ms)
        si.ttftSloS = *sla.ttftP99Ms / 1e3;
    if (sla.itlP99Ms)
        si.itlSloS = *sla.itlP99Ms / 1e3;
    return si;
}

const ServingAnswer& ServingCache::answer(const ModelArchitecture& a, const Job& job, const GpuSpec& gpu,
                                          const ServingEngine& engine, const Sla& sla, const ServingPlacement& sp,
                                          double fixedBytes, double overhead)
{
    const InferenceSpec& in = *job.inference;
    const Parallelism& p = job.parallelism;
    // The model reads a KV budget only as the sequences it holds: key on those, so that GPUs
    // whose co-tenants leave slightly different budgets share an answer.
    const double perToken = kvBytesPerTokenPerGpu(a, job);
    const int block = std::max(engine.blockTokens, 1);
    const int request = in.promptTokens() + in.outputTokens;
    const int longest = std::max(in.contextTokens, request);
    const double bareBudget = engine.kvBudgetBytes(gpu.memoryUsableGiB * kGiB, fixedBytes);
    const auto held = [&](double budget) {
        return std::pair<double, double>(sequencesThatFit(budget, perToken, request, block),
                                         sequencesThatFit(budget, perToken, longest, block) >= 1 ? 1.0 : 0.0);
    };
    const auto [sharedSeqs, sharedFits] = held(sp.kvBudgetBytesPerGpu);
    const auto [bareSeqs, bareFits] = held(bareBudget);
    Key key;
    key.gpu = reinterpret_cast<std::uintptr_t>(&gpu);
    key.v = {static_cast<double>(a.layers),
             static_cast<double>(a.hiddenSize),
             static_cast<double>(a.attentionHeads),
             static_cast<double>(a.kvHeads),
             static_cast<double>(a.ffnHiddenSize),
             static_cast<double>(a.vocabSize),
             static_cast<double>(a.experts),
             static_cast<double>(a.activeExperts),
             a.gatedFfn ? 1.0 : 0.0,
             static_cast<double>(job.precision),
             static_cast<double>(p.tp),
             static_cast<double>(p.pp),
             static_cast<double>(p.dp),
             static_cast<double>(in.promptTokens()),
             static_cast<double>(in.outputTokens),
             static_cast<double>(in.contextTokens),
             static_cast<double>(in.concurrency),
             static_cast<double>(in.load),
             in.requestsPerS,
             sla.ttftP99Ms.value_or(-1.0),
             sla.itlP99Ms.value_or(-1.0),
             sp.computeShare,
             sp.bandwidthShare,
             sp.tensorParallelGBps,
             sharedSeqs + 0.5 * sharedFits,
             bareSeqs + 0.5 * bareFits,
             static_cast<double>(a.sequenceLength),
             a.dropout ? 1.0 : 0.0,
             sp.timeSliceWaitS,
             sp.spatial ? 1.0 : 0.0,
             static_cast<double>(p.ep),
             sp.expertParallelGBps,
             static_cast<double>(a.headDim),
             static_cast<double>(a.moeFfnHiddenSize),
             static_cast<double>(a.sharedExperts),
             static_cast<double>(a.denseLayers),
             static_cast<double>(a.kvLoraRank),
             static_cast<double>(a.qLoraRank),
             static_cast<double>(a.qkRopeHeadDim),
             static_cast<double>(a.vHeadDim),
             sp.moeLoadImbalance,
             engine.iterationOverheadS,
             engine.allReduceStepLatencyS,
             engine.gemmRooflineExponent};
    auto [it, fresh] = mAnswers.try_emplace(key);
    if (!fresh)
        return it->second;
    ServingAnswer& m = it->second;
    ServingInputs si = servingInputsFor(a, job, gpu, engine, sla, sp);
    m.shared = estimateServing(si);
    m.sharedPerf = servingPerformance(m.shared, si);
    // Bare metal: whole GPUs of the same kind, the engine's share of a whole GPU's memory.
    if (sp.computeShare == 1.0 && sp.bandwidthShare == 1.0 && sharedSeqs == bareSeqs && sharedFits == bareFits &&
        sp.timeSliceWaitS == 0.0) {
        m.barePerf = m.sharedPerf;
    } else {
        // The same job on whole GPUs: one memo entry of its own, shared by every slot kind.
        ServingPlacement whole;
        whole.tensorParallelGBps = sp.tensorParallelGBps;
        whole.expertParallelGBps = sp.expertParallelGBps;
        whole.moeLoadImbalance = sp.moeLoadImbalance;
        whole.kvBudgetBytesPerGpu = bareBudget;
        m.barePerf = answer(a, job, gpu, engine, sla, whole, fixedBytes, overhead).sharedPerf;
    }
    const int tokens = (request + block - 1) / block * block;
    const int sequences = static_cast<int>(std::ceil(m.shared.running / std::max(p.dp, 1) - 1e-9));
    m.memory = servingMemory(a, job, engine.tokenBudget, overhead, m.shared.fits ? std::max(sequences, 1) : 0, tokens);
    return m;
}

} // namespace gp::calc
