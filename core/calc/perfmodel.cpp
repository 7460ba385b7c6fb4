// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#include "perfmodel.h"

#include "memorymodel.h"
#include "modelsize.h"

#include <algorithm>

namespace gp::calc {

double modelFlopsPerToken(const ModelArchitecture& a, int sequence)
{
    return 6.0 * activeParameterCount(a) + 12.0 * a.layers * static_cast<double>(a.hiddenSize) * sequence;
}

double hardwareFlopsPerToken(const ModelArchitecture& a, int sequence, Recompute recompute)
{
    const double attentionForward = 4.0 * a.layers * static_cast<double>(a.hiddenSize) * sequence;
    double extra = 0.0;
    if (recompute == Recompute::Full)
        extra = 2.0 * activeParameterCount(a) + attentionForward;
    else if (recompute == Recompute::Selective)
        extra = attentionForward;
    return modelFlopsPerToken(a, sequence) + extra;
}

double peakFlops(const GpuSpec& gpu, Precision precision)
{
    const double bf16 = gpu.bf16DenseTflops * 1e12;
    switch (precision) {
    case Precision::Fp8:
    case Precision::Int8:
    case Precision::Int4:
        return gpu.fp8DenseTflops > 0 ? gpu.fp8DenseTflops * 1e12 : bf16;
    case Precision::Fp32:
        return bf16 / 2.0;
    case Precision::Bf16:
    case Precision::Fp16:
        return bf16;
    }
    return bf16;
}

double megatronTrainingTimeS(double tokens, double params, int gpus, double flopsPerGpu, bool recompute)
{
    return (recompute ? 8.0 : 6.0) * tokens * params / (gpus * flopsPerGpu);
}

double modelFlopsUtilization(double achievedFlopsPerGpu, double peakFlopsPerGpu)
{
    return peakFlopsPerGpu > 0 ? achievedFlopsPerGpu / peakFlopsPerGpu : 0.0;
}

namespace {

/// Ring all-reduce moves 2(n-1)/n of the buffer through every GPU's link.
double allReduceS(double bytes, int n, double gbps)
{
    if (n <= 1 || bytes <= 0)
        return 0.0;
    if (gbps <= 0)
        return 1e30;
    return 2.0 * (n - 1) / n * bytes / (gbps * 1e9);
}

PerfResult training(const PerfInputs& in)
{
    const ModelArchitecture& a = in.arch;
    const Job& job = in.job;
    const Parallelism& par = job.parallelism;
    const int gpus = std::max(par.gpus(), 1);
    const int seq = a.sequenceLength;
    const double tokensPerStep = static_cast<double>(job.batch.global) * seq;
    const int m = job.microBatchesPerStep();
    const double peak = peakFlops(*in.gpu, job.precision);

    PerfResult r;
    r.computeS = tokensPerStep * hardwareFlopsPerToken(a, seq, par.recompute) /
                 (gpus * peak * in.achievableMfu * std::max(in.throughputFactor, 1e-9));
    // 1F1B bubble (p - 1)/m of the ideal time, divided by v with the interleaved schedule,
    // whose micro-batches then cross v times as many stage boundaries (Narayanan et al. 2021 §2.2).
    const int v = std::max(par.virtualStages, 1);
    r.bubbleS = r.computeS * (par.pp - 1) / (static_cast<double>(m) * v);

    const double actBytes = static_cast<double>(job.batch.micro) * seq * a.hiddenSize * 2.0;
    const int layersPerStage = std::max(a.layers / std::max(par.pp, 1), 1);
    // Megatron TP: two all-reduces forward and two backward per block and micro-batch
    // (Shoeybi et al. 2019 §3); full recomputation repeats the forward pair.
    const int tpCollectives = par.recompute == Recompute::Full ? 6 : 4;
    const double tpS = layersPerStage * m * tpCollectives * allReduceS(actBytes, par.tp, in.comm.tensorParallelGBps);
    const double ppS = par.pp > 1 ? 2.0 * m * v * actBytes / (par.sequenceParallel ? par.tp : 1) /
                                        std::max(in.comm.pipelineGBps * 1e9, 1e-9)
                                  : 0.0;
    // Data parallel: all-reduce of the GPU's 16-bit gradients; ZeRO-3/FSDP moves 1.5x as much
    // (parameter all-gathers plus gradient reduce-scatter, ZeRO §7).
    const bool adapter = job.kind == JobKind::Lora || job.kind == JobKind::Qlora;
    const double paramsPerGpu =
        (adapter ? a.layers * loraBlockParameters(a, job.lora ? job.lora->rank : 16) : parameterCount(a)) /
        (std::max(par.tp, 1) * std::max(par.pp, 1));
    double dpS = allReduceS(paramsPerGpu * 2.0, par.dp, in.comm.dataParallelGBps);
    if (par.fsdp || par.zeroStage == 3)
        dpS *= 1.5;
    r.exposedCommS = (1.0 - in.commOverlap) * (tpS + dpS) + ppS;
    r.dataParallelBytesPerGpu = par.dp > 1 ? 2.0 * (par.dp - 1) / par.dp * paramsPerGpu * 2.0 *
                                                 ((par.fsdp || par.zeroStage == 3) ? 1.5 : 1.0)
                                           : 0.0;
    r.pipelineBytesPerGpu = par.pp > 1 ? 2.0 * m * v * actBytes / (par.sequenceParallel ? par.tp : 1) : 0.0;
    r.networkCommS = dpS + ppS;
    r.stepTimeS = r.computeS + r.bubbleS + r.exposedCommS;
    r.tokensPerS = tokensPerStep / r.stepTimeS;
    r.mfu = modelFlopsPerToken(a, seq) * r.tokensPerS / (gpus * peak);
    if (job.training)
        r.daysToComplete = job.training->tokens / r.tokensPerS / 86400.0;
    return r;
}

PerfResult inference(const PerfInputs& in)
{
    const ModelArchitecture& a = in.arch;
    const Job& job = in.job;
    const Parallelism& par = job.parallelism;
    const InferenceSpec spec = job.inference.value_or(InferenceSpec{});
    const int batch = std::max(spec.concurrency, 1);
    // Decode reads every weight and the batch's KV cache once per token (memory-bound), or
    // is bound by 2·N FLOPs per token per sequence, whichever is slower.
    // On average half the context is filled.
    const int shards = std::max(par.tp, 1) * std::max(par.pp, 1);
    const double weights = parameterCount(a) / shards * frozenWeightBytes(job.precision, false);
    const double kv = a.layers / std::max(par.pp, 1) *
                      kvCacheBytesPerBlock(a, par.tp, job.precision, std::max(spec.contextTokens / 2, 1), batch);
    const double bytesPerStep = weights + kv;
    const double bandwidth = in.gpu->hbmBandwidthGBps * 1e9 * in.memoryBandwidthEfficiency;
    const double memoryS = bytesPerStep / (bandwidth * std::max(in.throughputFactor, 1e-9));
    const double peak = peakFlops(*in.gpu, job.precision);
    const double computeS = 2.0 * activeParameterCount(a) * batch /
                            (std::max(par.tp * par.pp, 1) * peak * in.achievableMfu * std::max(in.throughputFactor, 1e-9));
    // Two all-reduces of the batch's hidden states per block for TP.
    const double tpS = a.layers / std::max(par.pp, 1) * 2 *
                       allReduceS(static_cast<double>(batch) * a.hiddenSize * 2.0, par.tp, in.comm.tensorParallelGBps);
    PerfResult r;
    r.computeS = std::max(memoryS, computeS);
    r.exposedCommS = tpS;
    r.stepTimeS = (r.computeS + r.exposedCommS) * std::max(par.pp, 1);
    r.tokensPerS = batch * std::max(par.dp, 1) / r.stepTimeS;
    r.mfu = 2.0 * activeParameterCount(a) * r.tokensPerS / (std::max(par.gpus(), 1) * peak);
    r.demandTokensPerS = spec.requestsPerS * spec.outputTokens;
    return r;
}

} // namespace

PerfResult estimatePerformance(const PerfInputs& in)
{
    return in.job.kind == JobKind::Inference ? inference(in) : training(in);
}

} // namespace gp::calc
