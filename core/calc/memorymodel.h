// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#pragma once

#include "model/job.h"
#include "model/modelpreset.h"
#include "modelsize.h"

#include <optional>
#include <string>
#include <vector>

namespace gp::calc {

/// Everything the per-GPU memory formulas need, independent of where the job runs.
struct MemoryInputs
{
    std::optional<ModelArchitecture> arch; ///< nullopt: only the parameter count is known
    double paramsOverride = 0.0;           ///< used when arch is nullopt
    JobKind kind = JobKind::Pretraining;
    Precision precision = Precision::Bf16;
    Optimizer optimizer = Optimizer::AdamW;
    bool mainGradsFp32 = false;  ///< 4-byte gradients with 16-bit weights (Megatron's main grads)
    bool flashAttention = false; ///< fused attention: no s x s tensors kept
    Parallelism parallelism;
    int microBatch = 1;
    int sequenceLength = 0;      ///< training sequence length (0 = the model's)
    int microBatchesPerStep = 1; ///< global / (micro x dp): bounds the pipeline's in-flight micro-batches
    int loraRank = 0;
    int inferenceConcurrency = 1;
    int contextTokens = 0;
    int prefillChunkTokens = 2048;
    double runtimeOverheadBytes = 0.0;
    double moeLoadImbalance = 1.0; ///< moe_load_imbalance: the busiest expert's tokens over the mean
};

/// One entry of the per-layer profile on the reported GPU.
struct LayerMemory
{
    enum class Kind
    {
        Embedding,
        Block,
        OutputProjection,
        Loss,
        Workspace
    };
    Kind kind = Kind::Block;
    int block = 0; ///< the first block's index in the model, for Kind::Block
    int count = 1; ///< identical consecutive blocks this entry stands for (each with these bytes)
    /// "embedding", "block 12", "output projection", "loss (fp32 logits)", "workspace"
    std::string name() const;
    double modelStateBytes = 0.0; ///< weights + gradients + optimizer states of one layer's shard
    double activationBytes = 0.0; ///< activations (or KV cache) one layer keeps
    double total() const { return modelStateBytes + activationBytes; }
};

/// Memory per GPU of one job, on its most loaded pipeline stage.
struct MemoryBreakdown
{
    double weightsBytes = 0.0;
    double gradientsBytes = 0.0;
    double optimizerBytes = 0.0;
    std::optional<double> activationsBytes;         ///< nullopt when the shape is unknown
    std::optional<double> activationsPerLayerBytes; ///< one block, one micro-batch
    std::optional<double> kvCacheBytes = 0.0;       ///< inference only; nullopt when unknown
    double runtimeBytes = 0.0;
    int stage = 0;                   ///< the pipeline stage reported (0 or pp-1)
    std::vector<LayerMemory> layers; ///< empty when the shape is unknown; blocks of a stage are one entry
    int peakLayer = -1;              ///< index into layers, -1 when unknown

    /// The profile with one entry per block ("block 0", "block 1", ...), as reports list it.
    std::vector<LayerMemory> perLayer() const;

    double modelStatesBytes() const { return weightsBytes + gradientsBytes + optimizerBytes; }
    double totalBytes() const
    {
        return modelStatesBytes() + activationsBytes.value_or(0.0) + kvCacheBytes.value_or(0.0) + runtimeBytes;
    }
};

/// Bytes per parameter of trainable weights, their gradients and optimizer states under
/// mixed precision (Rajbhandari et al. 2020, ZeRO §3: 2 + 2 + K with K = 12 for Adam).
struct StateBytes
{
    double weights = 0.0;
    double gradients = 0.0;
    double optimizer = 0.0;
};
StateBytes trainableStateBytes(Precision precision, Optimizer optimizer, bool mainGradsFp32 = false);

/// Bytes per weight when serving or when frozen (LoRA base); QLoRA's NF4 with double
/// quantisation is 4.127 bits (Dettmers et al. 2023, §3).
double frozenWeightBytes(Precision precision, bool qlora);

/// The parts of a block selective recomputation recomputes (Megatron-Core's recompute_modules):
/// the attention core (its default), the non-fused LayerNorm and the MoE activation function.
struct RecomputedParts
{
    bool coreAttn = true;
    bool layernorm = false;
    bool moeAct = false;
};
/// The parts a job's parallelism recomputes when its recompute is selective.
RecomputedParts recomputedParts(const Parallelism& par);

/// Activations of one transformer block for one micro-batch on one GPU (Korthikanti et al.
/// 2022, §4, generalised to grouped-query attention and gated FFNs; docs/model-reference.md).
double activationBytesPerBlock(const ModelArchitecture& arch, int sequence, int microBatch, int tp,
                               bool sequenceParallel, Recompute recompute, Precision precision,
                               bool flashAttention = false, double moeLoadImbalance = 1.0, RecomputedParts parts = {});

/// Per-GPU memory of a job on its most loaded pipeline stage (stage 0, or the last stage
/// when its output layer and logits weigh more).
MemoryBreakdown estimateMemory(const MemoryInputs& in);

/// KV cache of one transformer block on one GPU: K and V for every KV head the GPU holds
/// (heads are replicated when TP exceeds the KV heads), per token of context and sequence.
double kvCacheBytesPerBlock(const ModelArchitecture& arch, int tp, Precision precision, int contextTokens,
                            int concurrency);

/// The memory inputs of a scenario job with a resolved model shape.
MemoryInputs memoryInputsFor(const Job& job, const ModelArchitecture& arch, double runtimeOverheadBytes,
                             double moeLoadImbalance = 1.0);

} // namespace gp::calc
