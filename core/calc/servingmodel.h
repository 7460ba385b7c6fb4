// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#pragma once

#include "model/gpuspec.h"
#include "model/job.h"
#include "model/modelpreset.h"

#include "memorymodel.h"
#include "perfmodel.h"

#include "model/softwarestack.h"
#include <map>
#include <optional>
#include <string>

#include <vector>

namespace gp::calc {

/// Engine settings of a serving job (assumptions, docs/model-reference.md#serving).
struct ServingEngine
{
    int tokenBudget = 2048;      ///< tokens one iteration processes (inference_prefill_chunk_tokens)
    bool chunkedPrefill = true;  ///< prompts ride in chunks with the decodes (chunked_prefill)
    double memoryFraction = 0.9; ///< share of a unit's memory the engine may use (serving_memory_fraction)
    int blockTokens = 16;        ///< tokens per KV-cache page (kv_block_tokens)
    /// The software stack's basis of memoryFraction: of what weights and workspace leave
    /// (TensorRT-LLM's kv_cache_free_gpu_mem_fraction) rather than of the whole unit (vLLM, SGLang).
    bool kvOfFreeMemory = false;
    double iterationOverheadS = 0.0;    ///< the stack's scheduler and host time per iteration
    double allReduceStepLatencyS = 0.0; ///< the stack's latency per ring step of a TP all-reduce
    double gemmRooflineExponent = 0.0;  ///< the stack's GEMM roofline near the ridge (kernels.h)

    /// The KV-cache budget on a unit of `capacityBytes` holding `fixedBytes` of weights,
    /// activations and workspace (may be negative: nothing fits).
    double kvBudgetBytes(double capacityBytes, double fixedBytes) const
    {
        return kvOfFreeMemory ? memoryFraction * (capacityBytes - fixedBytes)
                              : memoryFraction * capacityBytes - fixedBytes;
    }
};

/// The engine settings a scenario's assumptions give.
ServingEngine servingEngineFrom(const std::map<std::string, double>& assumptions);

/// The engine on a serving software stack (catalog): its KV-cache fraction and basis and its
/// per-iteration overhead; `memoryFractionSet` keeps the scenario's serving_memory_fraction.
ServingEngine withSoftwareStack(ServingEngine engine, const SoftwareStack* stack, bool memoryFractionSet);

/// What a placement gives a serving job: the slowest unit's shares of its GPU, the TP
/// collectives' bandwidth and the KV-cache budget of its tightest GPU.
struct ServingPlacement
{
    double computeShare = 1.0;        ///< the slowest unit's share of the GPU's SMs (MIG: its slices)
    double bandwidthShare = 1.0;      ///< ... of its memory bandwidth
    double tensorParallelGBps = 0.0;  ///< bus bandwidth of the TP group's all-reduces (NVLink or PCIe)
    double expertParallelGBps = 0.0;  ///< the EP group's all-to-alls (ep > 1); 0: as tensorParallelGBps
    double moeLoadImbalance = 1.0;    ///< moe_load_imbalance, applied with ep > 1
    double kvBudgetBytesPerGpu = 0.0; ///< memory for the KV cache on the tightest GPU of a replica
    double timeSliceWaitS = 0.0;      ///< time-sliced GPU: the other busy tenants' turns an interrupted iteration waits
    double timeSliceS = 0.0;          ///< ... and the length of one turn
    bool spatial = false;             ///< the shares partition the SMs (MIG, MPS): small GEMMs gain (kernels.h)
};

/// Everything the serving model needs about one replica's GPUs and the job's load.
struct ServingInputs
{
    ModelArchitecture arch;
    const GpuSpec* gpu = nullptr;
    Job job; ///< an inference job: its inference section, precision, tp, pp, dp (replicas)
    ServingEngine engine;
    ServingPlacement placement;     ///< shares, TP bandwidth, KV budget and time slices of its GPUs
    std::optional<double> ttftSloS; ///< the tenant's TTFT objective (P99), seconds
    std::optional<double> itlSloS;  ///< the tenant's inter-token-latency objective (P99), seconds
};

/// What a serving job delivers at its load (docs/model-reference.md#serving).
struct ServingResult
{
    bool fits = false;               ///< at least one sequence of context_tokens fits the KV budget
    int maxBatch = 0;                ///< sequences the KV cache holds, all replicas
    double running = 0.0;            ///< sequences in the engines on average, all replicas
    double queued = 0.0;             ///< requests waiting for a KV slot on average, all replicas
    bool saturated = false;          ///< open load at or above what the job can serve: the queue grows without bound
    double kvCacheBytesPerGpu = 0.0; ///< KV cache the running sequences hold on each GPU
    double ttftS = 0.0;              ///< mean time to first token (queue, own prefill, the iteration in progress)
    double itlS = 0.0;               ///< mean inter-token latency (one iteration with the others' prefill)
    double ttftP99S = 0.0;
    double itlP99S = 0.0;
    double outputTokensPerS = 0.0; ///< all replicas
    double requestsPerS = 0.0;     ///< all replicas
    double sloAttainment = 1.0;    ///< share of requests within both objectives (0 saturated; n/a unless judged)
    /// Whether SLO attainment has a value: the tenant sets a TTFT or ITL objective, or the
    /// service is saturated or does not fit (it then meets no objective, 0). A service without
    /// objectives that keeps up is "n/a (no objective)", never 100 %.
    bool sloJudged = false;
    double computeBoundShare = 1.0; ///< share of the iterations' kernel time bound by the SMs
    double decodeIterationS = 0.0;  ///< an iteration of the running batch without prefill
    double prefillS = 0.0;          ///< the own prompt's prefill at this load, without queueing
    double queueS = 0.0;            ///< mean wait before the prefill starts
    double tensorParallelS = 0.0;   ///< TP all-reduce share of a mean iteration
    // The distribution behind the means, for the Monte Carlo (core/sim).
    double chunkIterationS = 0.0; ///< an iteration that carries a prompt chunk
    double chunkShare = 0.0;      ///< chunk-carrying iterations per decode iteration
    double chunkExtraS = 0.0;     ///< what such an iteration adds on average (a prompt's last chunk is shorter)
    double prefillBusy = 0.0;     ///< share of engine time on prefill: P(a prompt waits for others)
    /// Share of wall time the engine iterates (at least one sequence running): 1 under a closed
    /// load or saturated; under an open load 1 − e^(−n), n the mean running sequences per
    /// replica (M/G/∞: the number in service is Poisson with mean rate × response).
    double engineBusy = 1.0;
    double prefillWaitS = 0.0;         ///< mean wait for the prompts ahead
    double admissionProbability = 0.0; ///< open load: P(a request waits for a KV slot)
    double admissionMeanS = 0.0;       ///< open load: mean of that wait
    double admissionFixedS = 0.0;      ///< closed load past the batch: every user's wait for a slot
    double switchShare = 0.0;          ///< time-sliced GPU: share of iterations a switch interrupts
    double switchWaitS = 0.0;          ///< ... and what such an iteration waits
};

/// Memory per GPU of a serving job holding `sequences` sequences of `tokensPerSequence`
/// context: weights, the workspace of one iteration's token budget, the runtime reserve and
/// that much KV cache (the memory model's profile, docs/model-reference.md#memory).
MemoryBreakdown servingMemory(const ModelArchitecture& arch, const Job& job, int tokenBudget,
                              double runtimeOverheadBytes, int sequences, int tokensPerSequence);

/// KV-cache bytes one token of context holds on one GPU (K and V of every block of a stage,
/// GQA-aware, fp8 with fp8 weights, 16-bit otherwise).
double kvBytesPerTokenPerGpu(const ModelArchitecture& arch, const Job& job);

/// Sequences of `tokens` context that `budgetBytes` of KV cache holds in pages of
/// `blockTokens` (PagedAttention: a sequence holds whole pages).
int sequencesThatFit(double budgetBytes, double bytesPerToken, int tokens, int blockTokens);

/// Continuous batching of the job's load on its replicas: iteration times from a roofline of
/// their prefill and decode tokens on the GPU's kernel-efficiency curves, the KV-cache
/// capacity as the batch limit, queueing in front of it, and latency percentiles.
ServingResult estimateServing(const ServingInputs& in);

/// The serving result as the step-time view of a job shows it: the time per output token
/// (compute and TP parts of the mean iteration), output tokens/s of all replicas, MFU of the
/// prefill and decode tokens processed.
PerfResult servingPerformance(const ServingResult& serving, const ServingInputs& in);

/// One point of the latency-throughput curve.
struct ServingPoint
{
    int concurrency = 0;
    double ttftS = 0.0;
    double itlS = 0.0;
    double outputTokensPerS = 0.0;
};
/// The job under a closed load of 1, 2, 4, ... users up to twice what its KV cache holds (and
/// its own concurrency; at most 2^20), with the same engine and GPUs.
std::vector<ServingPoint> servingCurve(const ServingInputs& in);

} // namespace gp::calc
