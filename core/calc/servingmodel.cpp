// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#include "servingmodel.h"

#include "kernels.h"
#include "memorymodel.h"
#include "model/assumptions.h"
#include "modelsize.h"

#include <algorithm>
#include <cmath>

namespace gp::calc {

ServingEngine servingEngineFrom(const std::map<std::string, double>& a)
{
    ServingEngine e;
    e.tokenBudget = static_cast<int>(assumptionValue(a, "inference_prefill_chunk_tokens"));
    e.chunkedPrefill = assumptionValue(a, "chunked_prefill") >= 0.5;
    e.memoryFraction = assumptionValue(a, "serving_memory_fraction");
    e.blockTokens = static_cast<int>(assumptionValue(a, "kv_block_tokens"));
    return e;
}

ServingEngine withSoftwareStack(ServingEngine e, const SoftwareStack* stack, bool memoryFractionSet)
{
    if (!stack)
        return e;
    if (!memoryFractionSet)
        e.memoryFraction = stack->kvCacheFraction;
    e.kvOfFreeMemory = stack->kvOfFreeMemory;
    e.iterationOverheadS = stack->decodeStepOverheadS;
    e.allReduceStepLatencyS = stack->allReduceStepLatencyUs * 1e-6;
    e.gemmRooflineExponent = stack->gemmRooflineExponent;
    return e;
}

MemoryBreakdown servingMemory(const ModelArchitecture& arch, const Job& job, int tokenBudget,
                              double runtimeOverheadBytes, int sequences, int tokensPerSequence)
{
    MemoryInputs m = memoryInputsFor(job, arch, runtimeOverheadBytes);
    m.prefillChunkTokens = tokenBudget;
    m.inferenceConcurrency = std::max(sequences, 0);
    m.contextTokens = std::max(tokensPerSequence, 0);
    return estimateMemory(m);
}

double kvBytesPerTokenPerGpu(const ModelArchitecture& arch, const Job& job)
{
    const int pp = std::max(job.parallelism.pp, 1);
    const double layers = std::ceil(static_cast<double>(std::max(arch.layers, 1)) / pp);
    return layers * kvCacheBytesPerBlock(arch, job.parallelism.tp, job.precision, 1, 1);
}

int sequencesThatFit(double budgetBytes, double bytesPerToken, int tokens, int blockTokens)
{
    if (budgetBytes <= 0 || bytesPerToken <= 0 || tokens <= 0)
        return 0;
    const double block = std::max(blockTokens, 1);
    const double pages = std::ceil(tokens / block);
    const double perSequence = pages * block * bytesPerToken;
    return static_cast<int>(std::min(1e9, std::floor(budgetBytes / perSequence)));
}

namespace {

constexpr double kNever = 1e30; // an unbounded wait, reported as saturated

/// Time of one engine iteration on one replica.
class Iteration
{
public:
    explicit Iteration(const ServingInputs& in)
        : mK(*in.gpu, in.job.precision, std::max(in.placement.computeShare, 1e-6),
             std::max(in.placement.bandwidthShare, 1e-6), in.placement.spatial),
          mArch(in.arch),
          mShape(in.arch, in.job.parallelism.tp, false, in.job.parallelism.ep > 1 ? in.placement.moeLoadImbalance : 1.0,
                 in.job.parallelism.ep),
          mTp(std::max(in.job.parallelism.tp, 1)), mPp(std::max(in.job.parallelism.pp, 1)),
          mLayers(std::ceil(static_cast<double>(std::max(in.arch.layers, 1)) / mPp)),
          mKvPerToken(kvCacheBytesPerBlock(in.arch, in.job.parallelism.tp, in.job.precision, 1, 1)),
          mTpGBps(in.placement.tensorParallelGBps),
          mEpGBps(in.placement.expertParallelGBps > 0 ? in.placement.expertParallelGBps
                                                      : in.placement.tensorParallelGBps),
          mLatency(in.gpu->efficiency.collectiveLatencyUs * 1e-6),
          mRingLatency(mLatency + 2.0 * (mTp - 1.0) * in.engine.allReduceStepLatencyS),
          mEp(std::max(in.job.parallelism.ep, 1)), mOverhead(in.engine.iterationOverheadS)
    {
        mK.setRooflineExponent(in.engine.gemmRooflineExponent);
    }

    /// `decode` sequences at mean context `context` produce one token each while `prefill`
    /// prompt tokens, attending over `prefix` earlier tokens on average, are processed. With
    /// pipeline parallelism the batch runs as pp micro-batches, one per stage.
    double operator()(double decode, double context, double prefill, double prefix) const
    {
        return mPp * stage(decode / mPp, context, prefill / mPp, prefix) + mOverhead;
    }
    /// The TP all-reduce part of the same iteration.
    double tensorParallel(double tokens) const { return mPp * mLayers * allReduce(tokens / mPp); }
    /// The kernels' accounts of what bound the iterations computed so far.
    const Kernels& kernels() const { return mK; }

private:
    double allReduce(double tokens) const
    {
        if (mTp <= 1 || tokens <= 0)
            return 0.0;
        const double bytes = tokens * mArch.hiddenSize * 2.0;
        // Two all-reduces per block (after attention and after the FFN; Shoeybi et al. 2019), in
        // the critical path. Each is a ring of 2 (tp - 1) steps: the bandwidth term plus the call's
        // fixed cost and the stack's latency per step (NCCL's tuning model; docs/model-reference.md,
        // "TP all-reduce at decode batches").
        return 2.0 * (2.0 * (mTp - 1.0) / mTp * bytes / std::max(mTpGBps * 1e9, 1e-9) + mRingLatency);
    }

    double stage(double decode, double context, double prefill, double prefix) const
    {
        const BlockShape& b = mShape;
        const double t = b.t, h = b.h;
        const double tokens = decode + prefill;
        if (tokens <= 0)
            return 0.0;
        const double linear = mK.linear(b, tokens);
        // Decode attention streams each sequence's K and V (paged, bandwidth-bound); prefill
        // attention is a causal flash kernel over the prompt's prefix.
        const double decodeAttention = mK.stream(decode * context * mKvPerToken);
        const double prefillAttention = prefill > 0 ? mK.flash(4.0 * prefill * prefix * b.qWidth() / t) : 0.0;
        // Norms, residual adds and the FFN activation (16-bit), as in training's forward pass.
        const double elementwise =
            mK.stream(2.0 * 2.0 * tokens * h * 2.0 + 2.0 * 3.0 * tokens * h * 2.0 +
                      (b.gated ? 3.0 : 2.0) * (b.routedTokens(tokens) + b.shared * tokens) * b.f / t * 2.0);
        // Expert parallelism: each MoE layer dispatches its tokens to the ranks of their experts
        // and combines the results back, two all-to-alls (vLLM / SGLang EP with DP attention).
        const double allToAll =
            mArch.isMoe() && mEp > 1
                ? 2.0 * expertAllToAllS(tokens, h, 2.0, b.active, static_cast<int>(mEp), b.imbalance, mEpGBps, mLatency)
                : 0.0;
        // The output layer runs for the decoding sequences and each prompt's last token.
        const double logits = decode + (prefill > 0 ? 1.0 : 0.0);
        const double head = mArch.vocabSize > 0 ? mK.gemm(logits, mArch.vocabSize / t, h) / mPp : 0.0;
        return mLayers * (linear + decodeAttention + prefillAttention + elementwise + allReduce(tokens) + allToAll) +
               head;
    }

    Kernels mK;
    const ModelArchitecture& mArch;
    BlockShape mShape;
    double mTp, mPp, mLayers, mKvPerToken, mTpGBps, mEpGBps, mLatency, mRingLatency, mEp, mOverhead;
};

/// The engine of one replica at a steady rate of requests, with `running` sequences.
struct Steady
{
    double decodeIteration = 0.0; ///< iteration of the running batch alone
    double chunkIteration = 0.0;  ///< an iteration that carries one of the prompt's chunks
    double chunks = 1.0;          ///< iterations one prompt's prefill takes
    double perPrompt = 0.0;       ///< engine time one prompt adds to the iterations it rides in
    double service = 0.0;         ///< wall time of one prompt's prefill
    double rate = 0.0;            ///< requests/s of this replica
    double rho = 0.0;             ///< share of engine time spent on prefill
    double iteration = 0.0;       ///< mean iteration: the decodes plus the prefill that rides along
    double prefillWait = 0.0;     ///< mean wait for the prompts ahead of this one
    double ttft = 0.0;            ///< without the admission queue
    double response = 0.0;        ///< ttft + (O - 1) iterations
};

struct Load
{
    double input;
    double output;
    double budget;
    bool chunked;
};

/// The iterations of a batch of `running` sequences: they do not depend on the rate.
Steady batchOf(const Iteration& it, const Load& l, double running)
{
    Steady s;
    const double context = l.input + l.output / 2.0;
    s.decodeIteration = it(running, context, 0.0, 0.0);
    const double chunk = l.chunked ? std::min(l.input, std::max(l.budget - running, 16.0)) : l.input;
    const double full = std::floor(l.input / chunk);
    const double rest = l.input - full * chunk; // the last, shorter chunk
    s.chunks = full + (rest > 0 ? 1.0 : 0.0);
    s.chunkIteration = it(running, context, chunk, l.input / 2.0);
    const double restIteration = rest > 0 ? it(running, context, rest, l.input / 2.0) : 0.0;
    s.perPrompt = full * std::max(s.chunkIteration - s.decodeIteration, 0.0) +
                  (rest > 0 ? std::max(restIteration - s.decodeIteration, 0.0) : 0.0);
    s.service = full * s.chunkIteration + restIteration;
    return s;
}

/// Steady state of that batch at `rate` requests/s. Each prompt adds `perPrompt` of engine
/// time to the iterations it rides in, so the mean iteration is decode / (1 - rate x
/// perPrompt); its prefill waits for the prompts ahead (M/D/1).
Steady atRate(Steady s, const Load& l, double rate)
{
    s.rate = rate;
    s.rho = std::min(rate * s.perPrompt, 0.999999);
    s.iteration = s.decodeIteration / (1.0 - s.rho);
    s.prefillWait = s.rho / (2.0 * (1.0 - s.rho)) * s.service;
    s.ttft = s.iteration / 2.0 + s.prefillWait + s.service;
    s.response = s.ttft + (l.output - 1.0) * s.iteration;
    return s;
}

Steady steadyAt(const Iteration& it, const Load& l, double running, double rate)
{
    return atRate(batchOf(it, l, running), l, rate);
}

/// Closed load of `running` users on one replica: the rate at which rate x response = running.
Steady closedLoop(const Iteration& it, const Load& l, double running)
{
    const Steady batch = batchOf(it, l, running);
    const Steady idle = atRate(batch, l, 0.0);
    double hi = batch.perPrompt > 0 ? 1.0 / batch.perPrompt : running / std::max(idle.response, 1e-12);
    double lo = 0.0;
    for (int i = 0; i < 50; ++i) {
        const double mid = 0.5 * (lo + hi);
        (mid * atRate(batch, l, mid).response > running ? hi : lo) = mid;
    }
    return atRate(batch, l, lo);
}

/// Erlang C: probability that an arrival waits, `servers` slots at offered load `a`.
double erlangC(double servers, double a)
{
    if (a >= servers)
        return 1.0;
    double b = 1.0;
    const int c = static_cast<int>(servers);
    for (int k = 1; k <= c; ++k)
        b = a * b / (k + a * b);
    return c * b / (c - a * (1.0 - b));
}

/// P99 of a wait that is 0 with probability 1 - p and exponential with mean mean / p
/// otherwise (the tail of M/D/1 and M/M/c waits).
double tailP99(double p, double mean)
{
    if (p <= 0.01 || mean <= 0)
        return 0.0;
    return mean / p * std::log(100.0 * p);
}

/// Share of requests whose TTFT is within `slo`: the fixed part `base` plus two independent
/// exponential-tailed waits (each 0 with probability 1 - p).
double ttftWithin(double slo, double base, double p1, double mean1, double p2, double mean2)
{
    if (slo < base)
        return 0.0;
    double miss = 0.0;
    if (p1 > 0 && mean1 > 0)
        miss += p1 * std::exp(-(slo - base) * p1 / mean1);
    if (p2 > 0 && mean2 > 0)
        miss += p2 * std::exp(-(slo - base) * p2 / mean2);
    return std::clamp(1.0 - miss, 0.0, 1.0);
}

} // namespace

ServingResult estimateServing(const ServingInputs& in)
{
    ServingResult r;
    const InferenceSpec spec = in.job.inference.value_or(InferenceSpec{});
    const double replicas = std::max(in.job.parallelism.dp, 1);
    const int input = spec.promptTokens();
    const int output = std::max(spec.outputTokens, 1);
    const double perToken = kvBytesPerTokenPerGpu(in.arch, in.job);
    const int blockTokens = std::max(in.engine.blockTokens, 1);
    // The engine admits a context_tokens sequence; each request reserves prompt + output
    // (TensorRT-LLM's guaranteed-no-evict scheduling; vLLM grows pages and preempts instead).
    r.fits = in.gpu && sequencesThatFit(in.placement.kvBudgetBytesPerGpu, perToken,
                                        std::max(spec.contextTokens, input + output), blockTokens) >= 1;
    const int perReplica = sequencesThatFit(in.placement.kvBudgetBytesPerGpu, perToken, input + output, blockTokens);
    r.maxBatch = r.fits ? static_cast<int>(std::min(1e9, perReplica * replicas)) : 0;
    if (!r.fits) {
        r.saturated = true;
        r.sloAttainment = 0.0;
        r.sloJudged = true;
        return r;
    }
    const Iteration it(in);
    const Load l{static_cast<double>(input), static_cast<double>(output),
                 static_cast<double>(std::max(in.engine.tokenBudget, 1)), in.engine.chunkedPrefill};
    const double users = std::max(spec.concurrency, 1) / replicas; // per replica
    const double cap = std::min<double>(perReplica, users);        // the batch the engine runs at most
    Steady s;
    double admissionWait = 0.0, admissionP = 0.0, admissionMean = 0.0;
    if (spec.load == ServingLoad::Closed) {
        s = closedLoop(it, l, cap);
        if (users > cap) {
            // Users beyond the KV cache's batch wait for a slot: each cycles through in
            // users / rate, of which the response is the engine's part.
            admissionWait = std::max(users / s.rate - s.response, 0.0);
        }
        r.running = cap * replicas;
        r.queued = (users - cap) * replicas;
    } else {
        const double rate = spec.requestsPerS / replicas;
        const Steady most = closedLoop(it, l, cap); // the most this replica serves (one batch's iterations)
        if (rate >= most.rate) {
            r.saturated = true;
            s = most;
            admissionWait = kNever;
            r.running = cap * replicas;
        } else {
            // Little's law: running = rate x response, a fixed point on [0, cap]; the
            // response grows slowly with the batch, so a few steps converge.
            double running = std::min(cap, rate * steadyAt(it, l, 1.0, rate).response);
            for (int i = 0; i < 12 && running < cap; ++i) {
                const double next = std::min(cap, rate * steadyAt(it, l, std::max(running, 1e-9), rate).response);
                const bool done = std::abs(next - running) <= 1e-3 * std::max(running, 1.0);
                running = next;
                if (done)
                    break;
            }
            s = running >= cap ? atRate(most, l, rate) : steadyAt(it, l, std::max(running, 1e-9), rate);
            if (rate * s.response >= cap * 0.999) {
                // The batch is full: requests queue for a KV slot (M/M/c with c = the batch).
                const double a = rate * s.response;
                admissionP = erlangC(std::floor(cap), a);
                admissionMean = admissionP / std::max(std::floor(cap) / s.response - rate, 1e-12);
                admissionWait = admissionMean;
            }
            r.running = std::min(rate * s.response, cap) * replicas;
            r.queued = rate * admissionWait * replicas;
        }
    }
    const double pages = std::ceil(static_cast<double>(input + output) / blockTokens);
    r.kvCacheBytesPerGpu = std::ceil(r.running / replicas) * pages * blockTokens * perToken;
    r.decodeIterationS = s.decodeIteration;
    r.prefillS = s.service;
    r.queueS = std::min(admissionWait + s.prefillWait, kNever);
    r.itlS = s.iteration;
    r.ttftS = std::min(s.ttft + admissionWait, kNever);
    r.requestsPerS = s.rate * replicas;
    r.outputTokensPerS = r.requestsPerS * output;
    r.tensorParallelS = it.tensorParallel(r.running / replicas + s.rate * l.input * s.iteration);
    // What bounds the iterations at this operating point: the running batch's decode and
    // chunk-carrying iterations, counted afresh.
    const Iteration probe(in);
    batchOf(probe, l, std::max(r.running / replicas, 1e-9));
    r.computeBoundShare = probe.kernels().computeBoundShare();
    // Token gaps: an iteration that carries a prompt chunk is as long as that iteration;
    // they are a share rate x chunks x iteration of all iterations.
    const double chunkShare = std::min(1.0, s.rate * s.chunks * s.iteration);
    r.itlP99S = chunkShare >= 0.01 ? std::max(s.chunkIteration, s.iteration) : s.iteration;
    const double prefillP = s.rho, prefillMean = s.prefillWait;
    const double closedWait = spec.load == ServingLoad::Closed ? admissionWait : 0.0;
    r.chunkIterationS = std::max(s.chunkIteration, s.iteration);
    r.chunkShare = chunkShare;
    r.chunkExtraS = s.perPrompt / std::max(s.chunks, 1.0);
    r.prefillBusy = prefillP;
    r.engineBusy = spec.load == ServingLoad::Closed || r.saturated ? 1.0 : 1.0 - std::exp(-r.running / replicas);
    r.prefillWaitS = prefillMean;
    r.admissionProbability = admissionP;
    r.admissionMeanS = admissionMean;
    r.admissionFixedS = std::min(closedWait, kNever);
    // On a time-sliced GPU an iteration that a switch interrupts waits the other tenants'
    // turns: a share (own GPU time per iteration / one turn) of iterations, at most all.
    if (in.placement.timeSliceWaitS > 0 && in.placement.timeSliceS > 0) {
        r.switchWaitS = in.placement.timeSliceWaitS;
        r.switchShare = std::min(1.0, s.iteration * std::min(in.placement.computeShare, in.placement.bandwidthShare) /
                                          in.placement.timeSliceS);
    }
    const double switchP99 = r.switchShare >= 0.01 ? r.switchWaitS : 0.0;
    r.itlP99S += switchP99;
    r.ttftP99S = std::min(s.service + s.iteration + closedWait + tailP99(prefillP, prefillMean) +
                              tailP99(admissionP, admissionMean) + switchP99,
                          kNever);
    if (r.saturated) {
        r.ttftP99S = r.ttftS = kNever;
        r.queueS = kNever;
    }
    // SLO attainment: share of requests within the TTFT objective times the share of token
    // gaps within the ITL objective.
    double attain = 1.0;
    if (in.ttftSloS)
        attain *= r.saturated ? 0.0
                              : ttftWithin(*in.ttftSloS, s.service + s.iteration / 2.0 + closedWait, prefillP,
                                           prefillMean, admissionP, admissionMean);
    if (in.itlSloS) {
        // Token gaps: plain or carrying a chunk, each interrupted by a switch or not.
        const double gap = s.iteration, chunkGap = std::max(s.chunkIteration, gap);
        const auto share = [&](double g) {
            return (g <= *in.itlSloS ? 1.0 - r.switchShare : 0.0) +
                   (g + r.switchWaitS <= *in.itlSloS ? r.switchShare : 0.0);
        };
        attain *= (1.0 - chunkShare) * share(gap) + chunkShare * share(chunkGap);
    }
    // A saturated service meets no objective, whichever the tenant sets, or none.
    r.sloJudged = in.ttftSloS || in.itlSloS || r.saturated;
    r.sloAttainment = r.saturated ? 0.0 : attain;
    return r;
}

PerfResult servingPerformance(const ServingResult& sv, const ServingInputs& in)
{
    PerfResult r;
    const InferenceSpec spec = in.job.inference.value_or(InferenceSpec{});
    r.stepTimeS = sv.itlS;
    r.breakdown.tpExposed = std::min(sv.tensorParallelS, sv.itlS);
    r.breakdown.compute = sv.itlS - r.breakdown.tpExposed;
    r.computeS = r.breakdown.compute;
    r.exposedCommS = r.breakdown.tpExposed;
    if (sv.itlS > 0) {
        const double kernels = r.breakdown.compute / sv.itlS;
        r.mix = {sv.computeBoundShare * kernels, (1.0 - sv.computeBoundShare) * kernels, 0.0,
                 r.breakdown.tpExposed / sv.itlS};
    }
    r.tokensPerS = sv.outputTokensPerS;
    const double processed = sv.requestsPerS * (spec.promptTokens() + spec.outputTokens);
    const double gpus = std::max(in.job.parallelism.gpus(), 1);
    if (in.gpu)
        r.mfu = 2.0 * activeParameterCount(in.arch) * processed / (gpus * peakFlops(*in.gpu, in.job.precision));
    r.demandTokensPerS = spec.load == ServingLoad::Open ? spec.requestsPerS * spec.outputTokens : sv.outputTokensPerS;
    return r;
}

std::vector<ServingPoint> servingCurve(const ServingInputs& in)
{
    std::vector<ServingPoint> out;
    ServingInputs x = in;
    if (!x.job.inference)
        return out;
    x.job.inference->load = ServingLoad::Closed;
    const ServingResult base = estimateServing(in);
    // Up to twice the batch the KV cache holds (past it only the queue grows), at most 2^20 users.
    const int top =
        std::min(std::max({2 * std::min(base.maxBatch, 1 << 20), in.job.inference->concurrency, 1}), 1 << 20);
    for (int c = 1;; c = std::min(c * 2, top)) {
        x.job.inference->concurrency = c;
        const ServingResult r = estimateServing(x);
        out.push_back({c, r.ttftS, r.itlS, r.outputTokensPerS});
        if (c >= top)
            break;
    }
    return out;
}

} // namespace gp::calc
