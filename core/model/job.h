// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#pragma once

#include "modelpreset.h"

#include <algorithm>
#include <array>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace gp {

enum class JobKind
{
    Pretraining,
    FullFinetune,
    Lora,
    Qlora,
    Inference
};
enum class Precision
{
    Fp32,
    Bf16,
    Fp16,
    Fp8,
    Int8,
    Int4
};
enum class Optimizer
{
    AdamW,
    SgdMomentum,
    Adam8bit
};
enum class Recompute
{
    None,
    Selective,
    Full
};

/// Which model a job runs: a preset from data/models, or a custom shape.
struct ModelChoice
{
    std::string preset;       ///< preset id; "" for a custom model
    ModelArchitecture custom; ///< used when preset is ""
    bool operator==(const ModelChoice&) const = default;
};

/// The modules `recompute_modules` may name (Megatron-Core TransformerConfig.recompute_modules
/// that the memory and step model know): the attention core, the block's non-fused LayerNorm
/// and the MoE experts' activation function.
inline constexpr std::array<std::string_view, 3> kRecomputeModules{"core_attn", "layernorm", "moe_act"};

struct Parallelism
{
    int tp = 1;
    int pp = 1;
    int dp = 1;
    int zeroStage = 0; ///< 0-3
    bool fsdp = false;
    bool sequenceParallel = false;
    Recompute recompute = Recompute::None;
    /// Model chunks per pipeline stage: 1 is plain 1F1B, v > 1 Megatron's interleaved 1F1B
    /// (Narayanan et al. 2021 §2.2), which divides the bubble by v and keeps more in flight.
    int virtualStages = 1;

    // Expert parallelism, last so that positional initialisers {tp, pp, dp, zero, ...} keep
    // their meaning.
    /// Expert parallelism (mixture-of-experts models): the routed experts of each MoE layer
    /// are split over `ep` ranks taken from the data-parallel ones (Megatron-Core's
    /// expert_model_parallel_size), so ep divides dp and adds no GPUs; 1 = every rank holds
    /// every expert. docs/model-reference.md#mixture-of-experts.
    int ep = 1;

    // Issue 37: context parallelism and uneven pipeline stages (docs/model-reference.md,
    // "Context parallelism" and "Uneven pipeline stages").
    /// Context-parallel ranks: each holds seq / cp of every sequence's tokens and exchanges K/V
    /// blocks in a ring (Megatron-Core context parallelism; Liu et al. 2023, Ring Attention).
    int cp = 1;
    /// Transformer blocks of each pipeline stage (pp entries summing to the model's layers);
    /// empty: layers / pp on every stage.
    std::vector<int> stageLayers{};
    /// Blocks on `stage` of a model with `layers` blocks: stageLayers, else the even split.
    int layersOfStage(int stage, int layers) const
    {
        if (!stageLayers.empty() && stage >= 0 && stage < static_cast<int>(stageLayers.size()))
            return stageLayers[static_cast<std::size_t>(stage)];
        return std::max(layers / std::max(pp, 1), 1);
    }
    /// The first block of `stage`.
    int firstLayerOfStage(int stage, int layers) const
    {
        int first = 0;
        for (int i = 0; i < stage; ++i)
            first += layersOfStage(i, layers);
        return first;
    }
    /// `layers` blocks on `stages` pipeline stages when they do not divide evenly: the
    /// heavier stages (layers / stages + 1 blocks) in the middle and the lighter ones at both
    /// ends, where the embedding and the output layer live (Llama 3 405B's 126 layers on 16
    /// stages: 7, 8 × 14, 7; Megatron-LM's --decoder-first/last-pipeline-num-layers). Empty
    /// when they divide evenly or there are fewer blocks than stages.
    static std::vector<int> balancedStageLayers(int layers, int stages)
    {
        if (stages <= 1 || layers < stages || layers % stages == 0)
            return {};
        const int light = stages - layers % stages; // stages with layers / stages blocks
        std::vector<int> out(static_cast<std::size_t>(stages), layers / stages + 1);
        for (int i = 0; i < light; ++i) // alternately from the first and the last stage inwards
            out[static_cast<std::size_t>(i % 2 == 0 ? i / 2 : stages - 1 - i / 2)] = layers / stages;
        return out;
    }
    /// GPUs of the job: expert parallelism reuses data-parallel ranks, context parallelism adds its own.
    /// Expert-tensor-parallel size (Megatron-Core's expert_tensor_parallel_size) for MoE
    /// parallel folding; 0 = not set: the experts are split over tp like the rest of the block
    /// and the `ep` ranks are data-parallel ranks (ep divides dp). Set, the expert layers get a
    /// grid of their own over the same tp x cp x dp ranks of a pipeline stage (order etp-ep-edp,
    /// megatron/core/parallel_state.py initialize_model_parallel): each rank holds 1/(etp x ep) of
    /// the routed experts, an EP group is ep ranks `etp` apart (etp x ep consecutive slots), and
    /// etp x ep divides tp x cp x dp. docs/model-reference.md#moe-parallel-folding.
    int etp = 0;
    /// The tensor-parallel size of the routed experts: etp where set, else tp.
    int expertTp() const { return etp > 0 ? etp : std::max(tp, 1); }
    /// Consecutive slots one expert-parallel group spans: expertTp() x ep.
    int expertGroupSpan() const { return expertTp() * std::max(ep, 1); }
    /// Ranks that hold the same routed experts (Megatron-Core's expert-data-parallel group):
    /// tp x cp x dp / (etp x ep) when folded, dp / ep otherwise.
    int expertDataParallel() const
    {
        return etp > 0 ? std::max(std::max(tp, 1) * std::max(cp, 1) * std::max(dp, 1) / expertGroupSpan(), 1)
                       : std::max(std::max(dp, 1) / std::max(ep, 1), 1);
    }
    /// Megatron-Core's recompute_modules under selective recomputation (recompute "selective"):
    /// the parts of a block recomputed in backward instead of kept. Empty: core_attn alone,
    /// Megatron's default and what "selective" means without a list. Known modules:
    /// kRecomputeModules. docs/model-reference.md#recomputed-modules.
    std::vector<std::string> recomputeModules{};
    /// Full recomputation of only some blocks (Megatron-Core's recompute_method "block" with
    /// recompute_num_layers): the first `recomputeLayers` blocks of each pipeline stage's model
    /// chunk are recomputed whole, the others keep their activations; 0 = every block.
    /// docs/model-reference.md#recomputed-modules.
    int recomputeLayers = 0;
    /// Megatron-Core's EP all-to-all overlap (overlap_moe_expert_parallel_comm, Megatron-Bridge's
    /// moe_a2a_overlap): the combined 1F1B schedule runs one micro-batch's forward beside another's
    /// backward, layer by layer, so each dispatch/combine of one hides behind the other's attention
    /// or expert compute (megatron/core/pipeline_parallel/combined_1f1b.py,
    /// models/common/model_chunk_schedule_plan.py schedule_layer_1f1b). Needs ep > 1, no full
    /// recomputation and, with pp > 1, interleaved stages. docs/model-reference.md#ep-a2a-overlap.
    bool moeA2aOverlap = false;
    /// The share of a stage's blocks that full recomputation recomputes: 1 for every block, the
    /// first recomputeLayers of each of the v chunks of layers / pp blocks otherwise; 0 without it.
    double fullRecomputeShare(int layers) const
    {
        if (recompute != Recompute::Full)
            return 0.0;
        if (recomputeLayers <= 0 || layers <= 0)
            return 1.0;
        const double perChunk = static_cast<double>(layers) / (std::max(pp, 1) * std::max(virtualStages, 1));
        return std::min(1.0, recomputeLayers / perChunk);
    }
    /// Whether selective recomputation recomputes `module` (core_attn, layernorm, moe_act).
    bool recomputes(std::string_view module) const
    {
        if (recompute != Recompute::Selective)
            return false;
        if (recomputeModules.empty())
            return module == "core_attn";
        return std::find(recomputeModules.begin(), recomputeModules.end(), module) != recomputeModules.end();
    }
    int gpus() const { return tp * pp * dp * cp; }
    bool operator==(const Parallelism&) const = default;
};

struct BatchConfig
{
    int micro = 1;  ///< sequences per micro-batch per data-parallel rank
    int global = 1; ///< sequences per optimizer step
    bool operator==(const BatchConfig&) const = default;
};

/// Training-only settings (pre-training, fine-tuning, LoRA, QLoRA).
struct TrainingSpec
{
    double tokens = 0.0; ///< tokens to train on
    double checkpointIntervalMin = 60.0;
    bool operator==(const TrainingSpec&) const = default;
};

/// How requests reach a serving job: a fixed number of users who each send the next request
/// when the last one completes (closed, as AIPerf, genai-perf and vLLM's benchmarks measure),
/// or Poisson arrivals at a rate (open).
enum class ServingLoad
{
    Open,
    Closed
};

/// Serving-only settings (docs/model-reference.md#serving).
struct InferenceSpec
{
    double requestsPerS = 0.0; ///< open load: mean arrival rate of requests (all replicas)
    int contextTokens = 0;     ///< the longest context (prompt plus output) the server admits
    int outputTokens = 0;      ///< generated tokens per request
    int concurrency = 1;       ///< the most sequences the tenant keeps in flight (all replicas)
    int inputTokens = 0;       ///< prompt tokens per request; 0: context_tokens - output_tokens
    ServingLoad load = ServingLoad::Open;
    /// Prompt tokens, derived from the context for files written before input_tokens existed.
    int promptTokens() const { return inputTokens > 0 ? inputTokens : std::max(contextTokens - outputTokens, 1); }
    bool operator==(const InferenceSpec&) const = default;
};

struct LoraSpec
{
    int rank = 16;
    double alpha = 32.0;
    bool operator==(const LoraSpec&) const = default;
};

/// Arrival and length in the timeline simulation (hours from its start).
struct ScheduleSpec
{
    double arrivalH = 0.0;
    double durationH = 0.0; ///< 0: derive from the job's own step time
    bool operator==(const ScheduleSpec&) const = default;
};

/// A request to run a job on a given node (and GPU, and MIG instance) instead of letting
/// the placement policy choose.
struct Pin
{
    std::string node;
    std::optional<int> gpu;
    std::optional<int> migInstance; ///< index into that GPU's MIG layout
    bool operator==(const Pin&) const = default;
};

/// Where an imported job came from (gpuplan-cli import-cluster, docs/cluster-import.md): the cluster
/// object it was made from and what the cluster did not say. Each field named in `unknown` holds a
/// placeholder, not a fact; validation warns about each one until the planner sets it (and
/// removes it from `unknown`). Format 3; absent on jobs a person typed in.
struct ImportedFrom
{
    std::string source;   ///< "kubernetes" or "slurm"
    std::string workload; ///< the owner, "Kind/name" (Deployment/vllm-llama, PyTorchJob/bert, slurm job name)
    std::string scope;    ///< its namespace (Kubernetes) or account (Slurm)
    std::vector<std::string> members; ///< its pods (Kubernetes) or job ids (Slurm)
    std::vector<std::string> nodes;   ///< the nodes they run on, "" none yet
    std::vector<std::string> unknown; ///< job fields holding placeholders: model, kind, parallelism
    bool operator==(const ImportedFrom&) const = default;
};

struct Job
{
    std::string id;
    std::string name;
    JobKind kind = JobKind::Pretraining;
    ModelChoice model;
    Precision precision = Precision::Bf16;
    Optimizer optimizer = Optimizer::AdamW;
    /// Megatron-LM's fp32 gradient accumulation (`--accumulate-allreduce-grads-in-fp32`): 4-byte
    /// gradients beside 16-bit weights, 18 bytes per trainable parameter with Adam (training only).
    bool mainGradsFp32 = false;
    /// Fused (flash) attention kernels (Dao et al. 2022): the attention core keeps no s x s
    /// tensors and runs at the GPU's flash-attention efficiency (catalog). Unset: see
    /// usesFlashAttention().
    std::optional<bool> flashAttention;
    Parallelism parallelism;
    BatchConfig batch;
    std::optional<TrainingSpec> training;
    std::optional<InferenceSpec> inference;
    std::optional<LoraSpec> lora;
    ScheduleSpec schedule;
    std::optional<Pin> pin;
    /// The software-stack profile (catalog "software_stacks") the job runs on; "" for the
    /// default by kind (defaultSoftwareStack, softwarestack.h).
    std::string softwareStack;
    /// Set on a job made by a cluster import (format 3).
    std::optional<ImportedFrom> imported;

    bool isTraining() const { return kind != JobKind::Inference; }
    /// Whether the attention core is fused. Unset, it follows the model's era: flash for
    /// models without dropout (Llama-style stacks use FlashAttention, cuDNN or Transformer
    /// Engine attention), unfused for models with dropout (GPT-3-era Megatron-LM, as
    /// Korthikanti et al. 2022 measured). docs/model-reference.md#attention.
    bool usesFlashAttention(const ModelArchitecture& arch) const { return flashAttention.value_or(!arch.dropout); }
    /// Micro-batches per optimizer step, global / (micro x dp), at least 1: what the pipeline
    /// schedule, its bubble and its in-flight activations are counted in.
    int microBatchesPerStep() const
    {
        const long long perStep = std::max(1LL, static_cast<long long>(batch.micro) * std::max(parallelism.dp, 1));
        return static_cast<int>(std::max(1LL, batch.global / perStep));
    }
    bool operator==(const Job&) const = default;
};

/// An imported job's placeholders that an edit has replaced: each field listed in
/// `after.imported->unknown` (model, kind, parallelism) that differs from `before` is no longer a
/// placeholder, and leaves the list (the edit rules call this, so setting the field in the
/// workbench or with `gpuplan-cli edit` clears its warning).
inline void settlePlaceholders(const Job& before, Job& after)
{
    if (!after.imported)
        return;
    std::vector<std::string>& unknown = after.imported->unknown;
    unknown.erase(std::remove_if(unknown.begin(), unknown.end(),
                                 [&](const std::string& f) {
                                     return (f == "model" && !(after.model == before.model)) ||
                                            (f == "kind" && after.kind != before.kind) ||
                                            (f == "parallelism" && !(after.parallelism == before.parallelism));
                                 }),
                  unknown.end());
}

} // namespace gp
