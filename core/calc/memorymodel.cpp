// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#include "memorymodel.h"

#include <algorithm>

namespace gp::calc {

StateBytes trainableStateBytes(Precision precision, Optimizer optimizer, bool mainGradsFp32)
{
    // Mixed precision keeps 16-bit weights and gradients plus fp32 master weights inside the
    // optimizer state (ZeRO §3: K = 12 for Adam: master, momentum, variance). Pure fp32 needs
    // no master copy. 8-bit Adam keeps momentum and variance in one byte each (Dettmers et
    // al. 2022, "8-bit Optimizers via Block-wise Quantization"); SGD keeps one momentum.
    const bool fp32 = precision == Precision::Fp32;
    StateBytes b;
    b.weights = fp32 ? 4.0 : 2.0;
    // Megatron-LM accumulates and all-reduces gradients in fp32 ("main grads") by default for
    // bf16: 2 + 4 + 12 = 18 bytes per parameter with Adam (Korthikanti et al. 2022, Fig. 1;
    // Megatron-LM's distributed-optimizer notes).
    b.gradients = fp32 || mainGradsFp32 ? 4.0 : 2.0;
    const double master = fp32 ? 0.0 : 4.0;
    switch (optimizer) {
    case Optimizer::AdamW: b.optimizer = master + 8.0; break;
    case Optimizer::SgdMomentum: b.optimizer = master + 4.0; break;
    case Optimizer::Adam8bit: b.optimizer = master + 2.0; break;
    }
    return b;
}

double frozenWeightBytes(Precision precision, bool qlora)
{
    if (qlora)
        return 4.127 / 8.0; // NF4 + double-quantised block constants (QLoRA §3)
    switch (precision) {
    case Precision::Fp32: return 4.0;
    case Precision::Bf16:
    case Precision::Fp16: return 2.0;
    case Precision::Fp8:
    case Precision::Int8: return 1.0;
    case Precision::Int4: return 0.5 + 2.0 / 128.0; // fp16 scale per group of 128 (GPTQ/AWQ)
    }
    return 2.0;
}

double activationBytesPerBlock(const ModelArchitecture& arch, int sequence, int microBatch, int tp,
                               bool sequenceParallel, Recompute recompute, Precision precision, bool flashAttention,
                               double moeLoadImbalance, RecomputedParts parts)
{
    const double s = sequence;
    const double b = microBatch;
    const double h = arch.hiddenSize;
    const double a = arch.attentionHeads;
    const double t = std::max(tp, 1);
    const double r = arch.attentionHeads > 0 ? static_cast<double>(arch.kvHeads) / arch.attentionHeads : 1.0;
    // The FFN's inner tensors per token: one FFN of ffn_hidden_size for a dense block; for an MoE
    // block each token's active routed experts (x the busiest rank's imbalance) and the shared
    // experts, each of the expert width, plus the permuted copies of the tokens the experts
    // take as input (Megatron-Core keeps them for backward).
    const double routed =
        arch.isMoe() ? std::clamp(arch.activeExperts, 1, arch.experts) * std::max(moeLoadImbalance, 1.0) : 0.0;
    const double f = arch.isMoe() ? (routed + arch.sharedExperts) * arch.expertFfnHiddenSize() : arch.ffnHiddenSize;
    const double permuted = arch.isMoe() ? 2.0 * routed : 0.0;
    const double d = arch.dropout ? 1.0 : 0.0;
    const double e = precision == Precision::Fp32 ? 2.0 : 1.0; // 16-bit tensors become 32-bit
    const double sbh = s * b * h;
    if (recompute == Recompute::Full)
        return 2.0 * e * sbh / (sequenceParallel ? t : 1.0); // only the block's input is kept
    // Korthikanti et al. 2022 §4.1, per block: LayerNorm inputs 4sbh, QKV input 2sbh, MLP input
    // 2sbh and two dropout masks sbh each stay whole under tensor parallelism ("10") ...
    // Selective recomputation of `layernorm` (Megatron-Core transformer_layer.py,
    // recompute_pre_mlp_layernorm): the MLP's input, the pre-MLP LayerNorm's output, is recomputed
    // where that norm stands alone — in an MoE block, whose router reads it; a dense block's norms
    // are fused into their linear layers (Transformer Engine's LayerNormLinear), which keep it.
    const bool selective = recompute == Recompute::Selective;
    const double normDropped = selective && parts.layernorm && arch.isMoe() ? e * 2.0 * sbh : 0.0;
    const double replicated = e * 8.0 * sbh + d * 2.0 * sbh - normDropped;
    // ... Q, K, V and the attention output (8sbh with MHA; K and V shrink with GQA) and the
    // FFN's inner tensors (16sbh for a 4h GeLU MLP; 6sbf for SwiGLU) split across TP ("24/t") ...
    // Selective recomputation of `moe_act` (Megatron-Core experts.py, activation_recompute): the
    // routed experts' activation output, the second GEMM's input (2 bytes per element of their
    // inner width), is recomputed from the first GEMM's output in backward.
    const double routedF = arch.isMoe() ? routed * arch.expertFfnHiddenSize() : 0.0;
    const double actDropped = selective && parts.moeAct ? e * 2.0 * s * b * routedF : 0.0;
    const double parallel =
        e * 2.0 * (2.0 + 2.0 * r) * sbh + e * (arch.gatedFfn ? 6.0 : 4.0) * s * b * f + e * permuted * sbh - actDropped;
    // ... and the attention core: softmax 2as²b, its dropout mask as²b and output 2as²b ("5as²b"),
    // which selective recomputation drops. Flash attention keeps only its fp32 log-sum-exp per
    // row and head (4asb) and recomputes the rest in backward (Dao et al. 2022 §3.1).
    const double core = flashAttention                ? 4.0 * a * s * b
                        : selective && parts.coreAttn ? 0.0
                                                      : (2.0 * e + d * (1.0 + 2.0 * e)) * a * s * s * b;
    if (sequenceParallel)
        return (replicated + parallel + core) / t;
    return replicated + (parallel + core) / t;
}

RecomputedParts recomputedParts(const Parallelism& par)
{
    return {.coreAttn = par.recomputes("core_attn"),
            .layernorm = par.recomputes("layernorm"),
            .moeAct = par.recomputes("moe_act")};
}

std::string LayerMemory::name() const
{
    switch (kind) {
    case Kind::Embedding: return "embedding";
    case Kind::Block:
        return count > 1 ? "blocks " + std::to_string(block) + "-" + std::to_string(block + count - 1)
                         : "block " + std::to_string(block);
    case Kind::OutputProjection: return "output projection";
    case Kind::Loss: return "loss (fp32 logits)";
    case Kind::Workspace: return "workspace";
    }
    return {};
}

double kvCacheBytesPerBlock(const ModelArchitecture& arch, int tp, Precision precision, int contextTokens,
                            int concurrency)
{
    const double kvBytes = precision == Precision::Fp8 ? 1.0 : (precision == Precision::Fp32 ? 4.0 : 2.0);
    // MLA caches one compressed latent and the shared rotary key per token, whole on every TP
    // rank (DeepSeek-V2 §2.1.2; vLLM's MLA backends).
    if (arch.isMla())
        return (arch.kvLoraRank + arch.qkRopeHeadDim) * static_cast<double>(contextTokens) * concurrency * kvBytes;
    const double headDim = arch.headDimension();
    const double kvHeadsPerGpu = std::max(1.0, static_cast<double>(arch.kvHeads) / std::max(tp, 1));
    return 2.0 * kvHeadsPerGpu * headDim * static_cast<double>(contextTokens) * concurrency * kvBytes;
}

std::vector<LayerMemory> MemoryBreakdown::perLayer() const
{
    std::vector<LayerMemory> out;
    for (const LayerMemory& l : layers)
        for (int i = 0; i < l.count; ++i) {
            LayerMemory one = l;
            one.block = l.block + i;
            one.count = 1;
            out.push_back(one);
        }
    return out;
}

namespace {

/// Divides a state over the data-parallel group when ZeRO (or FSDP) shards it.
double zeroShard(double bytes, int dp, int zeroStage, bool fsdp, int shardedFromStage)
{
    return (fsdp || zeroStage >= shardedFromStage) ? bytes / std::max(dp, 1) : bytes;
}

/// Micro-batches whose activations each layer of stage `stage` keeps at the schedule's peak.
/// 1F1B keeps pp - stage in flight (Narayanan et al. 2021 §2.2; Korthikanti et al. 2022 §4.2).
/// Interleaved 1F1B with v chunks per stage warms up 2(pp - stage - 1) + (v - 1)pp + 1
/// chunk-micro-batches of layers/(pp v) layers each (Megatron-LM's schedule), which is
/// layers x (1 + (pp - 1)/(pp v)) on the first stage (Korthikanti et al. §4.2.3). Never more
/// than the step has.
double inFlightPerLayer(int pp, int stage, int v, int microBatches)
{
    if (v == 1)
        return std::max(1, std::min(pp - stage, microBatches));
    const long long chunks = std::min(2LL * (pp - stage - 1) + static_cast<long long>(v - 1) * pp + 1,
                                      static_cast<long long>(microBatches) * v);
    return std::max(1.0, static_cast<double>(chunks) / v);
}

MemoryBreakdown stageMemory(const MemoryInputs& in, const ModelArchitecture& arch, int stage)
{
    const Parallelism& par = in.parallelism;
    // ZeRO and the distributed optimizer shard over the data-parallel ranks of every context-
    // parallel rank: Megatron-Core's data-parallel group "with CP" holds dp x cp GPUs.
    const int tp = std::max(par.tp, 1), pp = std::max(par.pp, 1), dp = std::max(par.dp, 1) * std::max(par.cp, 1);
    const int layersPerStage = par.layersOfStage(stage, arch.layers);
    const int firstBlock = par.firstLayerOfStage(stage, arch.layers);
    const bool training = in.kind != JobKind::Inference;
    const bool lora = in.kind == JobKind::Lora || in.kind == JobKind::Qlora;
    const bool first = stage == 0, last = stage == pp - 1;
    // Each context-parallel rank keeps the activations of seq / cp tokens (its two chunks).
    const int seq =
        (in.sequenceLength > 0 ? in.sequenceLength : arch.sequenceLength) / (training ? std::max(par.cp, 1) : 1);
    const double h = arch.hiddenSize;
    const double vocab = arch.vocabSize;

    const StateBytes sb = trainableStateBytes(in.precision, in.optimizer, in.mainGradsFp32);
    const double frozen = frozenWeightBytes(in.precision, in.kind == JobKind::Qlora);
    // Model states of `params` parameters of the base model and `adapter` LoRA parameters,
    // ZeRO/FSDP sharding over `dp` ranks (the expert-data-parallel dp / ep ranks for experts).
    auto states = [&](double params, double adapter, int shardDp) {
        StateBytes out;
        if (!training) {
            out.weights = params * frozen;
        } else if (lora) {
            out.weights = zeroShard(params * frozen, shardDp, par.zeroStage, par.fsdp, 3) +
                          zeroShard(adapter * sb.weights, shardDp, par.zeroStage, par.fsdp, 3);
            out.gradients = zeroShard(adapter * sb.gradients, shardDp, par.zeroStage, par.fsdp, 2);
            out.optimizer = zeroShard(adapter * sb.optimizer, shardDp, par.zeroStage, par.fsdp, 1);
        } else {
            out.weights = zeroShard(params * sb.weights, shardDp, par.zeroStage, par.fsdp, 3);
            out.gradients = zeroShard(params * sb.gradients, shardDp, par.zeroStage, par.fsdp, 2);
            out.optimizer = zeroShard(params * sb.optimizer, shardDp, par.zeroStage, par.fsdp, 1);
        }
        return out;
    };

    MemoryBreakdown m;
    m.stage = stage;
    m.runtimeBytes = in.runtimeOverheadBytes;
    using Kind = LayerMemory::Kind;
    // `count` identical layers of this kind, each with these states and activations.
    auto add = [&](Kind kind, int block, int count, const StateBytes& st, double act) {
        m.weightsBytes += count * st.weights;
        m.gradientsBytes += count * st.gradients;
        m.optimizerBytes += count * st.optimizer;
        m.layers.push_back({kind, block, count, st.weights + st.gradients + st.optimizer, act});
    };
    m.layers.reserve(5);

    // Expert parallelism: each rank keeps 1/ep of the routed experts of every MoE block (expert
    // TP = tp, Megatron-Core's default), their states sharded by ZeRO over the dp / ep ranks that
    // hold the same experts; the rest of the block is kept as without experts.
    // With MoE parallel folding (etp set) the experts are split over etp instead of tp and their
    // states sharded over the expert-data-parallel ranks, tp x cp x dp / (etp x ep).
    const int ep = std::max(par.ep, 1);
    const double expertParams = routedExpertParameters(arch) / par.expertTp();
    const double blockParams = (blockParameters(arch) - routedExpertParameters(arch)) / tp;
    const double denseParams = denseBlockParameters(arch) / tp;
    auto plus = [](StateBytes x, const StateBytes& y) {
        x.weights += y.weights;
        x.gradients += y.gradients;
        x.optimizer += y.optimizer;
        return x;
    };
    const StateBytes noStates;
    const StateBytes expertStates =
        arch.isMoe() && !lora
            ? states(expertParams / ep, 0.0, par.etp > 0 ? par.expertDataParallel() : std::max(dp / ep, 1))
            : noStates;
    // The first dense_layers of an MoE model, where they fall on this stage.
    const int denseHere = arch.isMoe() ? std::clamp(arch.layers - arch.moeLayers() - firstBlock, 0, layersPerStage) : 0;
    ModelArchitecture denseArch = arch;
    denseArch.experts = denseArch.activeExperts = 1;
    denseArch.sharedExperts = 0;
    const double imbalance = ep > 1 ? in.moeLoadImbalance : 1.0;
    const double blockAdapter = lora ? loraBlockParameters(arch, in.loraRank) / tp : 0.0;
    const double blockFrozen = lora ? blockParams + expertParams : blockParams; // LoRA keeps whole experts
    const double embedParams = embeddingParameters(arch) / tp;                  // vocabulary-parallel
    const double e = in.precision == Precision::Fp32 ? 2.0 : 1.0;
    double activations = 0.0;
    double kv = 0.0;

    if (training) {
        const double inFlight = inFlightPerLayer(pp, stage, std::max(par.virtualStages, 1), in.microBatchesPerStep);
        const RecomputedParts parts = recomputedParts(par);
        // Full recomputation of some blocks only (recompute_layers): the stage's blocks keep the
        // full-recompute input for that share and all their activations for the rest.
        const double share = par.fullRecomputeShare(arch.layers);
        const auto perBlockOf = [&](const ModelArchitecture& x, double imb) {
            const auto bytes = [&](Recompute r) {
                return activationBytesPerBlock(x, seq, in.microBatch, tp, par.sequenceParallel, r, in.precision,
                                               in.flashAttention, imb, parts);
            };
            if (par.recompute != Recompute::Full || share >= 1.0)
                return bytes(par.recompute);
            return share * bytes(Recompute::Full) + (1.0 - share) * bytes(Recompute::None);
        };
        const double perBlock = perBlockOf(arch, imbalance);
        const double perDense = perBlockOf(denseArch, 1.0);
        m.activationsPerLayerBytes = perBlock;
        const double sbh = static_cast<double>(seq) * in.microBatch * h;
        const double spDiv = par.sequenceParallel ? tp : 1.0;
        if (first) {
            const double act = (arch.dropout ? sbh : 0.0) / spDiv * inFlight; // embedding dropout mask
            add(Kind::Embedding, 0, 1, states(embedParams, 0.0, dp), act);
            activations += act;
        }
        if (denseHere > 0) {
            add(Kind::Block, firstBlock, denseHere, states(denseParams, blockAdapter, dp), perDense * inFlight);
            activations += perDense * inFlight * denseHere;
        }
        if (layersPerStage > denseHere) {
            add(Kind::Block, firstBlock + denseHere, layersPerStage - denseHere,
                plus(states(blockFrozen, blockAdapter, dp), expertStates), perBlock * inFlight);
            activations += perBlock * inFlight * (layersPerStage - denseHere);
        }
        if (last) {
            // Korthikanti §4.3: final LayerNorm and projection inputs 4sbh/t (with SP), and the
            // fp32 logits of the cross-entropy 4sbv/t.
            const double proj = e * 4.0 * sbh / spDiv;
            const double logits = 4.0 * seq * in.microBatch * vocab / tp;
            add(Kind::OutputProjection, 0, 1, states(embedParams, 0.0, dp), proj);
            m.layers.push_back({Kind::Loss, 0, 1, 0.0, logits});
            activations += proj + logits;
            if (arch.mtpLayers > 0) {
                // Multi-token prediction (DeepSeek-V3 §2.2): each module a block (MoE where the
                // model has experts) with its 2h -> h projection, kept in flight as the stage's
                // blocks are, its inputs (the hidden state and the next token's embedding, 2sbh)
                // and its own fp32 logits for the MTP loss.
                const bool moeBlock = arch.isMoe();
                const double projection = 2.0 * h * h / tp;
                const StateBytes mtpStates = moeBlock ? plus(states(blockFrozen + projection, 0.0, dp), expertStates)
                                                      : states(denseParams + projection, 0.0, dp);
                const double mtpAct =
                    ((moeBlock ? perBlock : perDense) + e * 2.0 * 2.0 * sbh / spDiv) * inFlight + logits;
                add(Kind::Block, arch.layers, arch.mtpLayers, mtpStates, mtpAct);
                activations += arch.mtpLayers * mtpAct;
            }
        }
    } else {
        const double kvPerBlock =
            kvCacheBytesPerBlock(arch, tp, in.precision, in.contextTokens, in.inferenceConcurrency);
        if (first)
            add(Kind::Embedding, 0, 1, states(embedParams, 0.0, dp), 0.0);
        if (denseHere > 0)
            add(Kind::Block, firstBlock, denseHere, states(denseParams, 0.0, dp), kvPerBlock);
        if (layersPerStage > denseHere)
            add(Kind::Block, firstBlock + denseHere, layersPerStage - denseHere,
                plus(states(blockParams, 0.0, dp), expertStates), kvPerBlock);
        kv += kvPerBlock * layersPerStage;
        // Workspace of one prefill chunk: hidden states, QKV and FFN intermediates in 16 bits,
        // plus fp32 logits of the last token of every sequence for sampling.
        const double chunk = in.prefillChunkTokens;
        const double workspace = chunk * 2.0 * e * (3.0 * h + (arch.gatedFfn ? 3.0 : 2.0) * arch.ffnHiddenSize / tp) +
                                 4.0 * in.inferenceConcurrency * vocab / tp;
        if (last)
            add(Kind::OutputProjection, 0, 1, states(embedParams, 0.0, dp), 0.0);
        m.layers.push_back({Kind::Workspace, 0, 1, 0.0, workspace});
        activations += workspace;
    }
    m.activationsBytes = activations;
    m.kvCacheBytes = kv;
    double peak = -1.0;
    for (std::size_t i = 0; i < m.layers.size(); ++i)
        if (m.layers[i].total() > peak) {
            peak = m.layers[i].total();
            m.peakLayer = static_cast<int>(i);
        }
    return m;
}

} // namespace

MemoryInputs memoryInputsFor(const Job& job, const ModelArchitecture& arch, double runtimeOverheadBytes,
                             double moeLoadImbalance)
{
    MemoryInputs in;
    in.arch = arch;
    in.kind = job.kind;
    in.precision = job.precision;
    in.optimizer = job.optimizer;
    in.mainGradsFp32 = job.mainGradsFp32;
    in.flashAttention = job.usesFlashAttention(arch);
    in.parallelism = job.parallelism;
    in.microBatch = job.batch.micro;
    in.sequenceLength = arch.sequenceLength;
    in.microBatchesPerStep = job.microBatchesPerStep();
    in.loraRank = job.lora ? job.lora->rank : 0;
    if (job.inference) {
        in.inferenceConcurrency = job.inference->concurrency;
        in.contextTokens = job.inference->contextTokens;
    }
    in.runtimeOverheadBytes = runtimeOverheadBytes;
    in.moeLoadImbalance = moeLoadImbalance;
    return in;
}

MemoryBreakdown estimateMemory(const MemoryInputs& in)
{
    const Parallelism& par = in.parallelism;
    if (!in.arch) {
        // Only the parameter count: model states are known, activations and KV cache are not.
        MemoryBreakdown m;
        const double perGpu = in.paramsOverride / std::max(par.tp * par.pp, 1);
        const int dp = std::max(par.dp, 1) * std::max(par.cp, 1);
        if (in.kind == JobKind::Inference) {
            m.weightsBytes = perGpu * frozenWeightBytes(in.precision, false);
            m.kvCacheBytes = std::nullopt;
        } else {
            const StateBytes sb = trainableStateBytes(in.precision, in.optimizer, in.mainGradsFp32);
            m.weightsBytes = zeroShard(perGpu * sb.weights, dp, par.zeroStage, par.fsdp, 3);
            m.gradientsBytes = zeroShard(perGpu * sb.gradients, dp, par.zeroStage, par.fsdp, 2);
            m.optimizerBytes = zeroShard(perGpu * sb.optimizer, dp, par.zeroStage, par.fsdp, 1);
        }
        m.activationsBytes = std::nullopt;
        m.runtimeBytes = in.runtimeOverheadBytes;
        return m;
    }
    MemoryBreakdown best = stageMemory(in, *in.arch, 0);
    if (!par.stageLayers.empty()) {
        // Uneven stages: any stage may be the heaviest (its own blocks and in-flight
        // micro-batches, the embedding on the first, the output layer and logits on the last).
        for (int stage = 1; stage < par.pp; ++stage)
            if (MemoryBreakdown other = stageMemory(in, *in.arch, stage); other.totalBytes() > best.totalBytes())
                best = std::move(other);
    } else if (par.pp > 1) {
        MemoryBreakdown lastStage = stageMemory(in, *in.arch, par.pp - 1);
        if (lastStage.totalBytes() > best.totalBytes())
            best = std::move(lastStage);
    }
    return best;
}

} // namespace gp::calc
