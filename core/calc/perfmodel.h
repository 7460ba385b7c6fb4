// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#pragma once

#include "model/gpuspec.h"
#include "model/job.h"
#include "model/modelpreset.h"

#include <optional>

namespace gp::calc {

/// Model FLOPs per trained token: 6N + 12·L·h·s (PaLM, Chowdhery et al. 2022, Appendix B),
/// N the parameters a token passes through (active experts only).
double modelFlopsPerToken(const ModelArchitecture& arch, int sequence);

/// Hardware FLOPs per token: model FLOPs plus what recomputation repeats — the whole
/// forward pass (2N + 4·L·h·s) for full, the attention core (4·L·h·s) for selective.
double hardwareFlopsPerToken(const ModelArchitecture& arch, int sequence, Recompute recompute);

/// Dense peak at the job's precision: BF16/FP16, FP8 (BF16 where the GPU has none), FP32
/// as TF32 tensor cores (half the BF16 rate; A100 and H100 datasheets).
double peakFlops(const GpuSpec& gpu, Precision precision);

/// End-to-end training time of Narayanan et al. 2021 (SC21), eq. 4: 8·T·P / (n·X) with
/// activation recomputation (6·T·P / (n·X) without), T tokens, P parameters, n GPUs and X
/// achieved FLOP/s per GPU. Returns seconds.
double megatronTrainingTimeS(double tokens, double params, int gpus, double flopsPerGpu, bool recompute);

/// MFU from a measured per-GPU throughput: achieved model FLOP/s over the dense peak.
double modelFlopsUtilization(double achievedFlopsPerGpu, double peakFlopsPerGpu);

/// The bandwidths (GB/s per GPU, one direction, link efficiency applied) the job's
/// collectives run over, as its placement decides them.
struct CommBandwidth
{
    double tensorParallelGBps = 0.0;   ///< the NVLink domain of a TP group
    double pipelineGBps = 0.0;         ///< between consecutive stages
    double dataParallelGBps = 0.0;     ///< the slowest hop of the data-parallel ring
};

struct PerfInputs
{
    ModelArchitecture arch;
    const GpuSpec* gpu = nullptr;
    Job job;
    double throughputFactor = 1.0; ///< the slowest unit's share of a whole GPU (slots.h)
    double achievableMfu = 0.4;
    double commOverlap = 0.7;
    double memoryBandwidthEfficiency = 0.8;
    CommBandwidth comm;
};

struct PerfResult
{
    double stepTimeS = 0.0;      ///< training: optimizer step; inference: time per output token
    double computeS = 0.0;
    double bubbleS = 0.0;
    double exposedCommS = 0.0;
    double tokensPerS = 0.0;     ///< trained tokens/s, or generated tokens/s of all replicas
    double mfu = 0.0;
    std::optional<double> daysToComplete; ///< training only
    double demandTokensPerS = 0.0;        ///< inference: requests/s x output tokens
    double dataParallelBytesPerGpu = 0.0; ///< per step, through each GPU's data-parallel link
    double pipelineBytesPerGpu = 0.0;     ///< per step, to the next pipeline stage
    double networkCommS = 0.0;            ///< data-parallel and pipeline transfer time per step, hidden or not
};

PerfResult estimatePerformance(const PerfInputs& in);

} // namespace gp::calc
