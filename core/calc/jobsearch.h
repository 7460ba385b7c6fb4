// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#pragma once

#include "perfmodel.h"

#include "model/catalog.h"
#include "model/gpuspec.h"
#include "model/job.h"
#include "model/modelpreset.h"
#include "model/scenario.h"

#include <atomic>
#include <chrono>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace gp::calc {

/// Sequences from this length on (tokens) search context parallelism too: 32K, where Megatron-
/// Bridge's and NeMo's long-context recipes start to use CP (docs/model-reference.md,
/// "Context parallelism"); shorter ones keep cp 1, so the search space is unchanged for them.
inline constexpr int kContextParallelFromTokens = 32768;

/// Where one training job runs for the job search: GPUs of one kind in nodes of `gpusPerNode`,
/// NVLink domains of `nvlinkDomainGpus`, and `networkGBpsPerGpu` between nodes under a
/// non-blocking fabric (nicGBpsPerGpu), with evaluate's assumptions.
struct JobSearchSetup
{
    ModelArchitecture arch;
    /// The job as given: kind, precision, optimizer, attention, LoRA, batch.global (its
    /// parallelism and micro-batch are what the search chooses).
    Job job;
    const GpuSpec* gpu = nullptr;
    /// The catalog `gpu` points into when the scenario's own calibration profile made a copy of
    /// it (null otherwise: the caller's catalog outlives the setup).
    std::shared_ptr<const Catalog> calibratedCatalog;
    int gpusPerNode = 8;
    int nvlinkDomainGpus = 8;
    /// The node is a tray of a rack-scale NVLink domain of this many GPUs (GB200 NVL72: 72):
    /// TP up to it, and every collective of a job that fits in it, over NVLink; 0 otherwise.
    int rackDomainGpus = 0;
    double networkGBpsPerGpu = 0.0;
    double linkEfficiency = 0.8;
    double capacityBytes = 0.0; ///< what a GPU offers the job (its usable memory)
    double runtimeOverheadBytes = 0.0;
    double commOverlap = 0.7;
    double tpCommOverlap = 0.0;
    double moeLoadImbalance = 1.0; ///< moe_load_imbalance
    /// The job's software-stack profile (catalog), when known: its FSDP overlap, overheads and,
    /// for serving, its KV-cache fraction and basis (docs/catalog.md#software-stacks).
    std::optional<SoftwareStack> stack;
    int gpusMin = 8; ///< GPU counts searched: every count from min to max the space divides
    int gpusMax = 8;
    /// Serving: the tenant's objectives and the scenario's assumptions (the engine's settings).
    Sla sla;
    std::map<std::string, double> assumptions;
};

/// One configuration the search evaluated and found to fit.
struct JobConfig
{
    Parallelism parallelism;
    int microBatch = 1;
    int gpus = 0;
    double stepTimeS = 0.0;
    double memoryBytes = 0.0; ///< per GPU, most loaded pipeline stage
    double mfu = 0.0;
    double tokensPerS = 0.0;
};

struct JobSearchOptions
{
    int topK = 10;
    /// Called now and then from the searching threads with the configurations enumerated so
    /// far and the total; may be empty.
    std::function<void(long long done, long long total)> progress;
    const std::atomic<bool>* stop = nullptr; ///< read between configurations: true cancels
    /// Refuse by the weights-only lower bound before the full memory model (off: every
    /// configuration gets the full model; the same answer, slower — what the tests compare).
    bool memoryBound = true;
    /// Past this instant the search stops as if cancelled, with what it found so far (read with
    /// `stop`; the plan search passes its time limit down).
    std::optional<std::chrono::steady_clock::time_point> deadline = std::nullopt;
};

struct JobSearchResult
{
    long long configurations = 0; ///< enumerated (every one counted, pruned or evaluated)
    long long feasible = 0;       ///< those whose memory fits
    long long pruned = 0;         ///< refused by the memory lower bound before the full model
    double elapsedMs = 0.0;
    bool cancelled = false;
    /// Fastest first (then fewer GPUs, less memory); of configurations the models score alike
    /// that differ only in ZeRO/FSDP or recomputation, the first.
    std::vector<JobConfig> top;
    std::vector<JobConfig> paretoMemory; ///< step time against memory per GPU, less memory first
    std::vector<JobConfig> paretoGpus;   ///< step time against GPU count, fewer GPUs first
    /// Why nothing fits, when nothing does: the least memory any configuration needs at least
    /// (its bound or its full model) against the capacity, or the divisibility rule that leaves
    /// no parallelism.
    std::string infeasibleReason;
    double configurationsPerS() const { return elapsedMs > 0 ? configurations / (elapsedMs / 1000.0) : 0.0; }
};

/// Searches a training job's parallelism (docs/model-reference.md, "Job search"): TP within the
/// NVLink domain dividing the heads (and the KV heads as evaluate requires), PP dividing the
/// layers, virtual stages dividing each stage's layers, DP from the GPU count, ZeRO stage 0-3 or
/// FSDP, micro-batch dividing each replica's share of the global batch, recomputation none,
/// selective or full, and sequence parallelism with TP. A weights-only lower bound refuses
/// configurations before the full memory model; the rest are evaluated with evaluate's memory
/// and step-time models on whole GPUs. Runs on calc's parallel-for (parallel.h).
JobSearchResult searchJob(const JobSearchSetup& setup, const JobSearchOptions& options = {});

/// One serving deployment the serving search scored: TP and replicas on `gpus` GPUs, the batch
/// cap (sequences in flight, all replicas), the precision (the KV cache follows it: fp8 with
/// fp8 weights, 16-bit otherwise), and what the serving model predicts for the job's load.
struct ServingConfig
{
    int gpus = 0;
    int tp = 1;
    int replicas = 1;
    int ep = 1; ///< MoE models: experts split over ep of the replicas (data-parallel attention)
    int batchCap = 1;
    Precision precision = Precision::Bf16;
    bool meetsSlo = false; ///< fits, not saturated, P99 TTFT and inter-token latency within the SLA
    double ttftP99S = 0.0;
    double itlP99S = 0.0;
    double outputTokensPerS = 0.0; ///< all replicas, at the job's load
    double outputTokensPerSPerGpu = 0.0;
    double memoryBytes = 0.0; ///< per GPU: weights, workspace and the KV cache at that load
};

struct ServingSearchResult
{
    long long configurations = 0;
    long long feasible = 0; ///< those that meet the SLOs
    double elapsedMs = 0.0;
    bool cancelled = false;
    std::vector<ServingConfig> top;        ///< fewest GPUs first, then most tokens/s per GPU
    std::vector<ServingConfig> paretoGpus; ///< P99 TTFT against GPU count, fewer GPUs first
    std::string infeasibleReason;
    double configurationsPerS() const { return elapsedMs > 0 ? configurations / (elapsedMs / 1000.0) : 0.0; }
};

/// Searches a serving job's deployment (docs/model-reference.md, "Job search"): TP within the
/// NVLink domain dividing the heads as evaluate requires, replicas from the GPU count, the batch
/// cap (the job's own and the powers of two from one sequence per replica up to 512), and the
/// precisions the GPU runs (BF16, FP8 where it has FP8 tensor cores, INT8, INT4), each scored
/// with evaluate's serving model on whole GPUs against the job's open load and the tenant's
/// P99 TTFT and inter-token latency objectives.
ServingSearchResult searchServing(const JobSearchSetup& setup, const JobSearchOptions& options = {});

/// The same job with a serving configuration's TP, replicas, batch cap and precision.
Job withServingConfig(const Job& job, const ServingConfig& config);

/// The same job with a configuration's parallelism and micro-batch.
Job withConfig(const Job& job, const JobConfig& config);

/// The bandwidths a job of `gpus` GPUs sees in the search's setting: inside one node (over
/// NVLink within one domain) up to a node's GPUs, else the NICs' share per GPU.
CommBandwidth jobSearchComm(const JobSearchSetup& setup, int gpus);

/// One configuration (the job's parallelism and batch) scored as the search scores it: its
/// memory per GPU, and when that fits the GPU, its step time, MFU and tokens/s (stepTimeS 0
/// when it does not fit).
JobConfig scoreConfig(const JobSearchSetup& setup, const Job& job, const CommBandwidth& comm);

/// The search's setting for `job` on GPUs like those of `node` in scenario `s` (its assumptions;
/// the node's GPU, NVLink domain and NICs), for the job's own GPU count.
JobSearchSetup jobSearchSetup(const Scenario& s, const Catalog& c, const Job& job, const Node& node);
/// The same with the job's tenant's SLA given (no search of the scenario's tenants for the job:
/// what the plan search uses for every job of a large plan).
JobSearchSetup jobSearchSetup(const Scenario& s, const Catalog& c, const Job& job, const Node& node, const Sla& sla);

} // namespace gp::calc
