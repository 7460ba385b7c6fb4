// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#include "perfmodel.h"
#include "model/units.h"

#include "kernels.h"
#include "memorymodel.h"
#include "modelsize.h"
#include "servingmodel.h"

#include <algorithm>
#include <cmath>

namespace gp::calc {

double modelFlopsPerToken(const ModelArchitecture& a, int sequence)
{
    // Multi-token prediction: each module's block and projection, its attention, and a second
    // pass through the shared output head (Megatron-LM training.py num_floating_point_operations
    // counts the same: mtp_num_layers more blocks and logits).
    const double mtp = a.mtpLayers > 0 ? 6.0 * (mtpActiveParameters(a) + a.mtpLayers * embeddingParameters(a)) : 0.0;
    return 6.0 * activeParameterCount(a) + mtp +
           12.0 * (a.layers + a.mtpLayers) * static_cast<double>(a.hiddenSize) * sequence;
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
    case Precision::Int4: return gpu.fp8DenseTflops > 0 ? gpu.fp8DenseTflops * 1e12 : bf16;
    case Precision::Fp32: return bf16 / 2.0;
    case Precision::Bf16:
    case Precision::Fp16: return bf16;
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

const std::vector<StepPart>& stepParts()
{
    static const std::vector<StepPart> parts = {
        {"compute", "Compute",
         "Per block and micro-batch: each GEMM (QKV, projection, FFN in/out; forward, and backward for "
         "inputs and weights) at max(FLOPs / (peak x GEMM efficiency at its size), operand bytes / HBM), "
         "attention (unfused batched GEMMs with softmax/dropout, or flash at the flash efficiency), "
         "memory-bound norms, residuals and activations at HBM x memory efficiency, gradient accumulation; "
         "times blocks per stage plus the output layer, times micro-batches. Curves: catalog, after "
         "Calculon (Isaev et al. SC23) and measured GEMM ceilings",
         &StepBreakdown::compute},
        {"recompute", "Recompute",
         "Full recomputation repeats each block's forward pass; selective repeats the attention core "
         "(Korthikanti et al. 2022 §5); flash attention already recomputes inside its backward",
         &StepBreakdown::recompute},
        {"tp_exposed", "TP exposed",
         "(1 - tp_comm_overlap) x 4 all-reduces of b·s·h per block and micro-batch (6 with full "
         "recomputation, 5 with sequence parallelism's extra all-gathers) at NVLink x scale-up "
         "collective efficiency plus latency (Shoeybi et al. 2019; Korthikanti et al. 2022)",
         &StepBreakdown::tpExposed},
        {"pp_exposed", "PP exposed",
         "2 x v point-to-point sends of b·s·h/t per micro-batch between stages over the placement's "
         "links (Narayanan et al. 2021 §4.1 scatter/gather)",
         &StepBreakdown::ppExposed},
        {"dp_exposed", "DP exposed",
         "Ring all-reduce 2(n-1)/n of the stage's gradients over the slowest data-parallel hop, less what "
         "comm_overlap (the software stack's dp_grad_overlap) hides behind the last backward pass; ZeRO-3/FSDP: "
         "per micro-batch two all-gathers of the parameters and a reduce-scatter of the gradients, (n-1)/n "
         "each, less what the stack's fsdp_overlap hides behind that micro-batch's compute (the first "
         "prefetched layers never hide)",
         &StepBreakdown::dpExposed},
        {"bubble", "Bubble",
         "(p - 1) / v x the time of one micro-batch on a stage: 1F1B fill and drain, shortened v times "
         "by the interleaved schedule (Narayanan et al. 2021 §2.2)",
         &StepBreakdown::bubble},
        {"optimizer", "Optimizer",
         "The optimizer step streams its shard's states: 2 x (weights + gradients + optimizer bytes) + "
         "gradients per parameter at HBM x memory efficiency, plus the software stack's step_overhead_s",
         &StepBreakdown::optimizer},
        {"ep_all_to_all", "EP all-to-all",
         "Per MoE layer and micro-batch: token dispatch and combine all-to-alls forward and again backward "
         "(6 with full recomputation), each sending b·s/t tokens x active experts x h x (ep-1)/ep x "
         "moe_load_imbalance over the expert-parallel group's links (NVLink inside one domain, else the "
         "fabric) plus latency (Megatron-Core MoEAlltoAllTokenDispatcher; Lepikhin et al. 2021 GShard §2.2)",
         &StepBreakdown::epAllToAll},
        {"cp_exposed", "CP exposed",
         "Context-parallel ring: per block and micro-batch (cp - 1) hops of the rank's K and V, "
         "2 x b·(s/cp)·kv_heads/t·d bytes each, forward and twice backward (again forward with full "
         "recomputation), over NVLink inside a node's domain or the network, less (cp - 1)/cp of the "
         "attention kernels they overlap (Megatron-Core context parallelism; Liu et al. 2023)",
         &StepBreakdown::cpExposed},
    };
    return parts;
}

double expertAllToAllS(double tokens, double hidden, double elementBytes, double active, int ep, double imbalance,
                       double gbps, double latencyS, int localRanks, double localGBps)
{
    if (ep <= 1 || tokens <= 0)
        return 0.0;
    const double bytes = tokens * active * hidden * elementBytes * std::max(imbalance, 1.0);
    if (localRanks > 1 && localRanks < ep && localGBps > 0) {
        const double remote = bytes * (ep - localRanks) / ep / std::max(gbps * 1e9, 1e-9);
        const double local = bytes * (localRanks - 1.0) / ep / (localGBps * 1e9);
        return std::max(remote, local) + latencyS;
    }
    return bytes * (ep - 1.0) / ep / std::max(gbps * 1e9, 1e-9) + latencyS;
}

double collectiveS(Collective kind, double bytes, int ranks, int nodes, bool intraNvlink, double busGBps,
                   double baseLatencyS, const SoftwareStack& stack)
{
    if (ranks <= 1 || bytes <= 0)
        return 0.0;
    const double n = ranks;
    const int spanned = std::clamp(nodes, 1, ranks);
    const double bw = std::max(busGBps * 1e9, 1e-9);
    const double intra = (intraNvlink ? stack.ringHopLatencyNvlinkUs : stack.ringHopLatencyPcieUs) * 1e-6;
    const double net = stack.ringHopLatencyNetworkUs * 1e-6;
    const bool allReduce = kind == Collective::AllReduce;
    // Ring (NCCL tuning.cc): nsteps = 2 (n - 1) for an all-reduce, n - 1 for an all-gather or
    // reduce-scatter; nInterSteps = 2 (nodes - 1) or nodes - 1 of them between nodes.
    const double steps = (allReduce ? 2.0 : 1.0) * (n - 1.0);
    const double inter = (allReduce ? 2.0 : 1.0) * (spanned - 1.0);
    const double ring =
        (allReduce ? 2.0 : 1.0) * (n - 1.0) / n * bytes / bw + baseLatencyS + (steps - inter) * intra + inter * net;
    if (!allReduce || stack.treeAllReduceBandwidth <= 0.0 || spanned <= 1)
        return ring;
    // Tree (NCCL tuning.cc): 2 ((ranks per node - 1) intra + log2i(nodes) inter) latency; algorithm
    // bandwidth half the bus bandwidth, times the tree's share of it.
    const double perNode = n / spanned;
    const double tree = 2.0 * bytes / (bw * stack.treeAllReduceBandwidth) + baseLatencyS +
                        2.0 * ((perNode - 1.0) * intra + std::floor(std::log2(static_cast<double>(spanned))) * net);
    return std::min(ring, tree);
}

namespace {

/// Per micro-batch and block on one GPU, unscaled by sharing.
struct BlockTimes
{
    double forward = 0.0;
    double backward = 0.0;
    double recompute = 0.0;
    double tensorParallel = 0.0;
    double allToAll = 0.0;        ///< MoE dispatch and combine over the expert-parallel group
    double contextParallel = 0.0; ///< exposed K/V ring transfers, forward, backward and recompute
};

/// LoRA and QLoRA train adapters on frozen base weights.
bool trainsAdapters(const Job& job) { return job.kind == JobKind::Lora || job.kind == JobKind::Qlora; }

/// Trainable parameters of one block: the adapters for LoRA/QLoRA, every weight otherwise.
double trainableBlockParameters(const ModelArchitecture& a, const Job& job)
{
    return trainsAdapters(job) ? loraBlockParameters(a, job.lora ? job.lora->rank : 16) : blockParameters(a);
}

BlockTimes blockTimes(const PerfInputs& in, const Kernels& k, double gradBytes, bool dense = false)
{
    const ModelArchitecture& a = in.arch;
    const Job& job = in.job;
    const Parallelism& par = job.parallelism;
    // The busiest expert-parallel rank sets the pace: imbalance x the mean tokens per expert.
    const BlockShape shape(a, par.tp, dense, par.ep > 1 ? in.moeLoadImbalance : 1.0, par.ep);
    const double t = shape.t, h = shape.h, heads = shape.heads, d = shape.d, f = shape.f;
    const double b = std::max(job.batch.micro, 1);
    const double s = std::max(a.sequenceLength, 1);
    // Context parallelism: each rank holds sq = s / cp of every sequence's queries (two of 2·cp
    // chunks, so that the causal mask's work is even) and attends over the whole sequence as the
    // K/V blocks pass round the ring (Megatron-Core context parallelism; Liu et al. 2023).
    const double cp = std::max(par.cp, 1);
    const double sq = s / cp;
    const double tokens = b * sq;
    const double act = job.precision == Precision::Fp32 ? 4.0 : 2.0; // activation element
    const bool adapter = trainsAdapters(job);
    const bool flash = job.usesFlashAttention(a);

    // FP8: the recipe's amax reductions and scale updates beside each GEMM (the stack's
    // fp8_recipe_overhead share of its time).
    const double linear = k.linear(shape, tokens) *
                          (job.precision == Precision::Fp8 && in.stack ? 1.0 + in.stack->fp8RecipeOverhead : 1.0);
    // Attention core. Unfused: two batched GEMMs per head (QK^T and PV, b·a/t of them) plus
    // softmax and its dropout over the s x s scores; backward twice the GEMMs. Flash: causal,
    // half the s x s work, 2.5x of it again in backward (Dao 2023 §3.1).
    const double coreFlops = 4.0 * b * sq * s * shape.qWidth() / t;
    double attentionF = 0.0, attentionB = 0.0, scoresF = 0.0;
    if (flash) {
        // At the stack's kernel: its attention_efficiency of the catalog's flash figure (its own
        // figure for the GPU's architecture where the profile gives one).
        const double stackKernel = in.stack ? in.stack->attentionEfficiencyOn(in.gpu->architecture) : 1.0;
        attentionF = k.flash(0.5 * coreFlops / std::max(stackKernel, 1e-3));
        attentionB = 2.5 * attentionF;
    } else {
        const double batch = b * heads / t;
        attentionF = k.attentionGemm(sq, s, d, batch) + k.attentionGemm(sq, d, s, batch);
        attentionB = 2.0 * attentionF;
        const double scores = batch * sq * s;
        // Fused scale-mask-softmax reads and writes the scores; dropout writes a 1-byte mask.
        scoresF = k.stream(scores * 2.0 * act + (a.dropout ? scores * (2.0 * act + 1.0) : 0.0));
    }
    // Memory-bound kernels on the hidden states (split over TP with sequence parallelism):
    // two norms, two residual adds (with bias-dropout when the model has dropout) and the
    // FFN activation; backward moves about twice the bytes.
    const double hidden = tokens * h / (par.sequenceParallel ? t : 1.0);
    const double inner = (shape.routedTokens(tokens) + shape.shared * tokens) * f / t;
    const double elementwise =
        k.stream(2.0 * 2.0 * hidden * act + 2.0 * (3.0 * hidden * act + (a.dropout ? hidden : 0.0)) +
                 (a.gatedFfn ? 3.0 : 2.0) * inner * act);
    // Trainable parameters of the block on this GPU, and the base weights QLoRA dequantizes
    // (NF4 read, 16-bit written) before each pass.
    const double baseParams = (dense ? denseBlockParameters(a) : blockParameters(a)) / t;
    // Routed experts are split over the expert-parallel ranks (Megatron-Core's EP group).
    // Folded (etp set), a rank holds 1/(etp x ep) of them instead of 1/(tp x ep).
    const double expertShare =
        a.isMoe() && !dense ? routedExpertParameters(a) * (1.0 - t / (double(par.expertTp()) * std::max(par.ep, 1)))
                            : 0.0;
    const double trainable =
        (trainsAdapters(job) ? trainableBlockParameters(a, job)
                             : (dense ? denseBlockParameters(a) : blockParameters(a)) - expertShare) /
        t;
    const double dequant = job.kind == JobKind::Qlora ? k.stream(baseParams * (0.5 + 2.0)) : 0.0;
    // MoE token dispatch outside the GEMMs and the all-to-all (the stack's moe_permute_passes and
    // moe_sort_passes): each permute/unpermute pass moves the rank's tokens on one side and their
    // routed copies on the other, each chunk sort (expert parallelism only) the routed copies both
    // ways; backward moves the gradients back the same way (Megatron-Core's alltoall dispatcher).
    double dispatch = 0.0;
    if (!dense && a.isMoe()) {
        const SoftwareStack defaults;
        const SoftwareStack& st = in.stack ? *in.stack : defaults;
        const double local = tokens / (par.sequenceParallel ? t : 1.0);
        const double routed = shape.routedTokens(local);
        dispatch = k.stream(
            (st.moePermutePasses * (routed + local) + (par.ep > 1 ? st.moeSortPasses * 2.0 * routed : 0.0)) * h * act);
    }
    // Weight gradients accumulate over the step's micro-batches: read and write per micro-batch.
    const double accumulate = k.stream(trainable * 2.0 * gradBytes);

    BlockTimes bt;
    bt.forward = linear + attentionF + scoresF + elementwise + dequant + dispatch;
    // Frozen base weights need only the input gradient (one GEMM of each pair).
    bt.backward = (adapter ? 1.0 : 2.0) * linear + attentionB + 2.0 * scoresF + 2.0 * elementwise + dequant +
                  accumulate + dispatch;
    // Full recomputation repeats the forward of its share of the blocks (all, or the first
    // recompute_layers of each chunk: Megatron-Core's recompute_method "block").
    const double fullShare = par.fullRecomputeShare(a.layers);
    if (par.recompute == Recompute::Full)
        bt.recompute = fullShare * bt.forward;
    else if (par.recompute == Recompute::Selective) {
        if (!flash && par.recomputes("core_attn"))
            bt.recompute = attentionF + scoresF;
        // Recomputed modules of an MoE block (recompute_modules): the pre-MLP LayerNorm reads and
        // writes the hidden states again; the experts' activation function reads its input (two
        // inner widths when gated) and writes its output again. Memory-bound, like their forward.
        if (!dense && a.isMoe() && par.recomputes("layernorm"))
            bt.recompute += k.stream(2.0 * hidden * act);
        if (!dense && a.isMoe() && par.recomputes("moe_act"))
            bt.recompute += k.stream((a.gatedFfn ? 3.0 : 2.0) * shape.routedTokens(tokens) * f / t * act);
    }

    // TP collectives over the b·s·h activations: two all-reduces forward and two backward
    // (Shoeybi et al. 2019 §3), the same volume as reduce-scatter + all-gather pairs with
    // sequence parallelism, which also gathers the block's two GEMM inputs again for backward
    // (Korthikanti et al. 2022 §4.2.2); full recomputation repeats the forward ones.
    if (par.tp > 1) {
        const double allReduce =
            2.0 * (t - 1.0) / t * tokens * h * act / std::max(in.comm.tensorParallelGBps * 1e9, 1e-9);
        double count = 4.0;
        if (par.recompute == Recompute::Full)
            count += 2.0 * fullShare;
        else if (par.sequenceParallel)
            count += 1.0;
        const double calls = par.sequenceParallel ? 2.0 * count : count;
        bt.tensorParallel = count * allReduce + calls * in.gpu->efficiency.collectiveLatencyUs * 1e-6;
    }
    // MoE token dispatch and combine over the EP group: two all-to-alls forward, two backward,
    // two more when full recomputation repeats the forward (Megatron-Core's alltoall dispatcher
    // permutes b·s/t tokens per rank with sequence parallelism, the TP group's share).
    if (!dense && a.isMoe() && par.ep > 1) {
        const double one = expertAllToAllS(tokens / t, h, act, shape.active, par.ep, in.moeLoadImbalance,
                                           in.comm.expertParallelGBps, in.gpu->efficiency.collectiveLatencyUs * 1e-6,
                                           in.comm.expertParallelLocalRanks, in.comm.tensorParallelGBps);
        bt.allToAll = (4.0 + 2.0 * fullShare) * one;
    }

    // Context-parallel ring: forward, cp - 1 hops each carrying the rank's K and V for its b·sq
    // tokens (GQA: kv_heads/t heads of d, at least one per TP rank); backward sends K and V
    // again and returns their gradients, twice the bytes. Each hop overlaps the attention of
    // the block already received, so (cp - 1)/cp of the attention kernels hide the transfers
    // (Megatron-Core's P2P ring with overlap; Liu et al. 2023 §3); full recomputation repeats
    // the forward ring.
    if (par.cp > 1) {
        const double kvHeadsPerRank = std::max(1.0, shape.kvHeads / t);
        const double kvBytes = 2.0 * tokens * kvHeadsPerRank * d * act;
        const double hop =
            kvBytes / std::max(in.comm.contextParallelGBps * 1e9, 1e-9) + in.gpu->efficiency.collectiveLatencyUs * 1e-6;
        const double hidden = (cp - 1.0) / cp;
        const double forward = std::max(0.0, (cp - 1.0) * hop - hidden * attentionF);
        const double backward = std::max(0.0, 2.0 * (cp - 1.0) * hop - hidden * attentionB);
        bt.contextParallel = forward + backward + fullShare * forward;
    }
    return bt;
}

PerfResult training(const PerfInputs& in)
{
    const ModelArchitecture& a = in.arch;
    const Job& job = in.job;
    const Parallelism& par = job.parallelism;
    const int gpus = std::max(par.gpus(), 1);
    const int pp = std::max(par.pp, 1);
    const int v = std::max(par.virtualStages, 1);
    const double t = std::max(par.tp, 1);
    const double seq = std::max(a.sequenceLength, 1);
    const double tokensPerStep = static_cast<double>(job.batch.global) * seq;
    // Tokens of one micro-batch on one context-parallel rank.
    const double tokensPerMicro = std::max(job.batch.micro, 1) * seq / std::max(par.cp, 1);
    const int m = job.microBatchesPerStep();
    const double peak = peakFlops(*in.gpu, job.precision);
    const ResourceShares& sh = in.shares;
    const double act = job.precision == Precision::Fp32 ? 4.0 : 2.0;
    const bool adapter = trainsAdapters(job);
    const double latency = in.gpu->efficiency.collectiveLatencyUs * 1e-6;
    const Kernels k(*in.gpu, job.precision, std::max(sh.compute, 1e-9), std::max(sh.bandwidth, 1e-9), sh.spatial);
    const StateBytes sb = trainableStateBytes(job.precision, job.optimizer, job.mainGradsFp32);
    const BlockTimes moe = blockTimes(in, k, sb.gradients);
    // The slowest stage sets the pace: ceil(layers / pp) blocks, plus the output layer and
    // the fp32 cross-entropy on the last stage (the embedding on the first is a gather). An MoE
    // model's first dense_layers sit on stage 0; the slowest stage holds as many MoE blocks
    // as it can, and the rest of its blocks are dense.
    const double evenBlocks = std::ceil(static_cast<double>(std::max(a.layers, 1)) / pp);
    const double denseBlocks = a.isMoe() ? std::max(0.0, evenBlocks - a.moeLayers()) : 0.0;
    BlockTimes bt = moe;
    if (denseBlocks > 0) {
        const BlockTimes dn = blockTimes(in, k, sb.gradients, true);
        const double w = denseBlocks / evenBlocks;
        bt.forward = (1.0 - w) * moe.forward + w * dn.forward;
        bt.backward = (1.0 - w) * moe.backward + w * dn.backward;
        bt.recompute = (1.0 - w) * moe.recompute + w * dn.recompute;
        bt.tensorParallel = (1.0 - w) * moe.tensorParallel + w * dn.tensorParallel;
        bt.allToAll = (1.0 - w) * moe.allToAll;
    }
    // The output layer's GEMMs (forward, input gradient, weight gradient) and the memory-bound
    // passes over the logits: the loss and whatever else the stack runs over them per micro-batch
    // (its loss_bytes_per_logit; 16 for Megatron's fused fp32 cross-entropy).
    const double vocab = a.vocabSize;
    const double logitBytes = in.stack ? in.stack->lossBytesPerLogit : SoftwareStack{}.lossBytesPerLogit;
    const double head = vocab > 0 ? (adapter ? 2.0 : 3.0) * k.gemm(tokensPerMicro, vocab / t, a.hiddenSize) +
                                        k.stream(tokensPerMicro * vocab / t * logitBytes)
                                  : 0.0;
    const double network = std::max(sh.network, 1e-9); // a shared GPU's share of its links
    const double blockMb = bt.forward + bt.backward + bt.recompute +
                           (1.0 - in.tpCommOverlap) * bt.tensorParallel / std::max(sh.time, 1e-9) +
                           (bt.allToAll + bt.contextParallel) / network;
    // Multi-token prediction (mtp_layers) on the last stage: per module one more block (an
    // MoE one where the model has experts: moe's times), the 2h -> h projection's three GEMMs
    // and another pass through the shared output head and its loss (DeepSeek-V3 §2.2;
    // Megatron-Core places the MTP block with the loss, mtp_num_layers).
    const double mtpModules = std::max(a.mtpLayers, 0);
    const double mtpProjection =
        mtpModules > 0 ? (adapter ? 2.0 : 3.0) * k.gemm(tokensPerMicro, a.hiddenSize / t, 2.0 * a.hiddenSize) : 0.0;
    const double mtpComputeMb = mtpModules * (moe.forward + moe.backward + mtpProjection + head);
    const double mtpRecomputeMb = mtpModules * moe.recompute;
    const double mtpTpMb = mtpModules * (1.0 - in.tpCommOverlap) * moe.tensorParallel / std::max(sh.time, 1e-9);
    const double mtpNetMb = mtpModules * (moe.allToAll + moe.contextParallel) / network;
    const double mtpMb = mtpComputeMb + mtpRecomputeMb + mtpTpMb + mtpNetMb;
    double blocks = std::ceil(static_cast<double>(std::max(a.layers, 1)) / pp);
    bool withHead = true;
    if (!par.stageLayers.empty()) {
        // Uneven stages (stage_layers): the heaviest stage by its own blocks, the output layer
        // counted on the last stage only (Narayanan et al. 2021 §2.2: 1F1B advances at the pace
        // of its slowest stage).
        double heaviest = -1.0;
        for (int i = 0; i < pp; ++i) {
            const int n = par.layersOfStage(i, a.layers);
            const double time = n * blockMb + (i == pp - 1 ? head + mtpMb : 0.0);
            if (time > heaviest) {
                heaviest = time;
                blocks = n;
                withHead = i == pp - 1;
            }
        }
    }
    const double kernelComputeShare = k.computeBoundShare(); // of the block's and head's kernels
    const double computeMb = blocks * (bt.forward + bt.backward) + (withHead ? head + mtpComputeMb : 0.0);
    const double recomputeMb = blocks * bt.recompute + (withHead ? mtpRecomputeMb : 0.0);
    const double tpMb =
        (1.0 - in.tpCommOverlap) * blocks * bt.tensorParallel / std::max(sh.time, 1e-9) + (withHead ? mtpTpMb : 0.0);
    const double a2aMb = blocks * bt.allToAll / network + (withHead ? mtpModules * moe.allToAll / network : 0.0);
    const double cpMb =
        blocks * bt.contextParallel / network + (withHead ? mtpModules * moe.contextParallel / network : 0.0);
    const double stageMb = computeMb + recomputeMb + tpMb + a2aMb + cpMb;
    // Megatron-Core's EP all-to-all overlap (moe_a2a_overlap: overlap_moe_expert_parallel_comm).
    // The combined 1F1B schedule runs micro-batch i's forward beside micro-batch j's backward,
    // layer by layer, the all-to-alls on a stream of their own (schedule_layer_1f1b in
    // models/common/model_chunk_schedule_plan.py): the forward's dispatch and combine hide behind
    // the other's expert and attention backward, the backward's behind the other's expert and
    // attention forward. Per block, each direction hides at most the compute beside it:
    // exposed = max(0, forward a2a - backward compute) + max(0, backward a2a - forward compute).
    // Only steady-state steps pair a forward with a backward (combined_1f1b.py: the first forward
    // and the last backward run alone; interleaved, the first stage warms up
    // 2(pp - 1) + (v - 1)pp + 1 of its m·v chunk passes, schedules.py), so that share of the
    // micro-batches hides; the warm-up and cool-down, and the bubble, keep the whole all-to-all.
    double a2aHiddenMb = 0.0;
    if (par.moeA2aOverlap && par.ep > 1 && par.recompute != Recompute::Full && a2aMb > 0) {
        const auto hideable = [&](const BlockTimes& b) {
            const double half = 0.5 * b.allToAll / network; // two of the four all-to-alls each way
            return std::min(half, b.backward + b.recompute) + std::min(half, b.forward);
        };
        const double passes = static_cast<double>(m) * v;
        const double warmup = pp > 1 ? 2.0 * (pp - 1) + (v - 1.0) * pp + 1.0 : 1.0;
        const double steady = passes > 0 ? std::max(0.0, passes - warmup) / passes : 0.0;
        a2aHiddenMb = steady * (blocks * hideable(bt) + (withHead ? mtpModules * hideable(moe) : 0.0));
        a2aHiddenMb = std::clamp(a2aHiddenMb, 0.0, a2aMb);
    }

    // Pipeline: each micro-batch crosses v stage boundaries forward and backward; Megatron's
    // scatter/gather sends 1/t of the activations per TP rank (Narayanan et al. 2021 §4.1).
    // 1F1B bubble (p - 1)/m of the ideal, divided by v with the interleaved schedule (§2.2).
    const double p2pBytes = pp > 1 ? tokensPerMicro * a.hiddenSize * act / t : 0.0;
    const double p2pMb =
        pp > 1 ? 2.0 * v * (p2pBytes / std::max(in.comm.pipelineGBps * 1e9, 1e-9) + latency) / network : 0.0;

    // Data parallel: the stage's gradients (fp32 main grads when set) all-reduced once per
    // step, or reduce-scattered with ZeRO-1/2; the share allowed by comm_overlap (the stack's
    // dp_grad_overlap) hides behind the last micro-batch's backward pass.
    const SoftwareStack defaults;
    const SoftwareStack& stack = in.stack ? *in.stack : defaults;
    const double gradBytes = sb.gradients;
    // With expert parallelism each rank holds 1/ep of the routed experts, and their gradients
    // reduce over the expert-data-parallel group: the dp x cp / ep ranks that hold the same
    // experts (Megatron-Core's expert_data_parallel group), the rest over all dp x cp ranks.
    const int ep = std::max(par.ep, 1);
    const double expertParams = adapter ? 0.0 : a.moeLayers() * routedExpertParameters(a);
    // The heaviest stage's share with uneven stages: its blocks over the even split's.
    const double stageScale = par.stageLayers.empty() ? 1.0 : blocks * pp / std::max(a.layers, 1);
    // The multi-token-prediction modules' weights sit on the last stage, with its gradients.
    const double mtpExperts = withHead && !adapter && a.isMoe() ? a.mtpLayers * routedExpertParameters(a) : 0.0;
    const double mtpDense = withHead && !adapter ? mtpParameters(a) - mtpExperts : 0.0;
    const double expertPerGpu =
        expertParams / ep / (par.expertTp() * pp) * stageScale + mtpExperts / ep / par.expertTp();
    const double densePerGpu =
        (adapter ? a.layers * trainableBlockParameters(a, job) : parameterCount(a) - expertParams) / (t * pp) *
            stageScale +
        mtpDense / t;
    // With context parallelism the gradients are reduced over dp x cp ranks: every CP rank
    // holds the same weights (Megatron-Core's data-parallel group with CP).
    const int ranks = std::max(par.dp, 1) * std::max(par.cp, 1);
    const int expertRanks = par.etp > 0 ? par.expertDataParallel() : std::max(ranks / ep, 1);
    struct Group
    {
        double params; ///< per GPU
        int ranks;     ///< that reduce them
        double ring() const { return ranks > 1 ? (ranks - 1.0) / ranks : 0.0; }
    };
    const Group groups[] = {{densePerGpu, ranks}, {expertPerGpu, expertRanks}};
    const bool shardAll = par.fsdp || par.zeroStage == 3;
    // One data-parallel collective of a buffer over a group: NCCL's ring (or, for all-reduces
    // across nodes, tree) with its per-step latencies over the nodes the group spans (collectiveS).
    const auto dpCollective = [&](Collective kind, double bytes, int groupRanks) {
        return collectiveS(kind, bytes, groupRanks, std::min(in.comm.dataParallelNodes, groupRanks),
                           in.comm.dataParallelIntraNvlink, in.comm.dataParallelGBps, latency, stack);
    };
    // The collectives of every group, each over its own buffer.
    const auto allGroups = [&](Collective kind, double bytesPerParam, double share) {
        double s = 0.0;
        for (const Group& g : groups)
            s += g.params > 0 ? dpCollective(kind, g.params * share * bytesPerParam, g.ranks) : 0.0;
        return s;
    };
    const auto movedBytes = [&](double bytesPerParam) {
        double b = 0.0;
        for (const Group& g : groups)
            b += g.ring() * g.params * bytesPerParam;
        return b;
    };
    const double paramBytes = job.precision == Precision::Fp32 ? 4.0 : 2.0;
    double dpBytes = 0.0, dpS = 0.0, dpHidden = 0.0;
    if (ranks > 1 && shardAll) {
        // Fully sharded (ZeRO-3, FSDP FULL_SHARD): per micro-batch and layer, the parameters are
        // all-gathered for forward and again for backward and the gradients reduce-scattered:
        // 3 collectives of (n-1)/n of the stage's parameters (Rajbhandari et al. 2020 §7; Zhao et
        // al. 2023, PyTorch FSDP §3.3), each a call of its own with the ring's latency. A prefetch
        // overlaps them with the compute of the layers next to them, up to the stack's
        // fsdp_overlap; the first fsdp_prefetch_layers of each gather cannot hide.
        const double perMbBytes = movedBytes(2.0 * paramBytes + gradBytes);
        const double layerShare = 1.0 / std::max(blocks, 1.0);
        const double gatherS = allGroups(Collective::AllGather, paramBytes, layerShare);
        const double perMbS =
            blocks * (2.0 * gatherS + allGroups(Collective::ReduceScatter, gradBytes, layerShare)) / network;
        const double firstS = 2.0 * std::min<double>(stack.fsdpPrefetchLayers, blocks) * gatherS / network;
        const double window = computeMb + recomputeMb;
        const double hiddenMb = std::min(stack.fsdpOverlap * std::max(perMbS - firstS, 0.0), window);
        dpBytes = m * perMbBytes;
        dpS = m * perMbS;
        dpHidden = m * hiddenMb;
    } else if (ranks > 1 && par.zeroStage >= 1) {
        // Sharded optimizer (ZeRO-1/2, Megatron's distributed optimizer): the gradients are
        // reduce-scattered (their own bytes) behind the last backward and the updated 16-bit
        // parameters all-gathered behind the next forward (--overlap-param-gather), each (n-1)/n
        // of the stage's parameters (Rajbhandari et al. 2020 §5; Megatron-LM distrib_optimizer.md).
        // An FSDP trainer (SHARD_GRAD_OP) runs them per block, a call each (perLayerCollectives).
        const double calls = stack.perLayerCollectives ? std::max(blocks, 1.0) : 1.0;
        const double reduceS = calls * allGroups(Collective::ReduceScatter, gradBytes, 1.0 / calls) / network;
        const double gatherS = calls * allGroups(Collective::AllGather, paramBytes, 1.0 / calls) / network;
        dpBytes = movedBytes(gradBytes + paramBytes);
        dpS = reduceS + gatherS;
        dpHidden = std::min(in.commOverlap * reduceS, blocks * bt.backward) +
                   std::min(in.commOverlap * gatherS, blocks * bt.forward);
    } else if (ranks > 1) {
        dpBytes = movedBytes(2.0 * gradBytes);
        dpS = allGroups(Collective::AllReduce, gradBytes, 1.0) / network;
        dpHidden = std::min(in.commOverlap * dpS, blocks * bt.backward);
    }

    // The optimizer step streams every state of its shard once: reads all, writes all but
    // the gradients, plus the gradient-norm read and the zeroing write. Sharded (ZeRO >= 1,
    // FSDP), each group's states are split over the ranks that reduce them: the experts' over
    // the expert-data-parallel dp x cp / ep ranks (as the memory model keeps them).
    const bool shardedStates = par.fsdp || par.zeroStage >= 1;
    double optimizerParams = 0.0;
    for (const Group& g : groups)
        optimizerParams += g.params / (shardedStates ? g.ranks : 1);
    // Plus the stack's fixed per-step overhead (host work the kernels do not show).
    const double optimizerS =
        k.stream(optimizerParams * (2.0 * (sb.weights + sb.gradients + sb.optimizer) + sb.gradients)) +
        stack.stepOverheadS;

    PerfResult r;
    StepBreakdown& br = r.breakdown;
    br.compute = m * computeMb;
    br.recompute = m * recomputeMb;
    br.tpExposed = m * tpMb;
    br.ppExposed = m * p2pMb;
    br.bubble = (pp - 1) / static_cast<double>(v) * stageMb;
    br.dpExposed = dpS - dpHidden;
    br.optimizer = optimizerS;
    br.epAllToAll = m * (a2aMb - a2aHiddenMb);
    r.epAllToAllHiddenS = m * a2aHiddenMb;
    br.cpExposed = m * cpMb;
    r.stepTimeS = br.total();
    r.computeS = br.compute + br.recompute + br.optimizer;
    r.bubbleS = br.bubble;
    r.exposedCommS = br.tpExposed + br.ppExposed + br.dpExposed + br.epAllToAll + br.cpExposed;
    r.dataParallelBytesPerGpu = dpBytes;
    r.pipelineBytesPerGpu = pp > 1 ? 2.0 * m * v * p2pBytes : 0.0;
    r.networkCommS = dpS + br.ppExposed;
    // What bounds the step: the kernels' roofline split, the optimizer's streams, the
    // exposed transfers and collectives.
    if (r.stepTimeS > 0) {
        const double kernels = br.compute + br.recompute + br.bubble;
        r.mix = {kernelComputeShare * kernels / r.stepTimeS,
                 ((1.0 - kernelComputeShare) * kernels + br.optimizer) / r.stepTimeS,
                 (br.ppExposed + br.dpExposed + br.epAllToAll + br.cpExposed) / r.stepTimeS,
                 br.tpExposed / r.stepTimeS};
    }
    r.tokensPerS = tokensPerStep / r.stepTimeS;
    // Adapters skip the base weights' gradients: 4N + 12Lhs model FLOPs per token, not 6N.
    const double modelFlops =
        modelFlopsPerToken(a, static_cast<int>(seq)) - (adapter ? 2.0 * activeParameterCount(a) : 0.0);
    r.mfu = modelFlops * r.tokensPerS / (gpus * peak);
    if (job.training)
        r.daysToComplete = job.training->tokens / r.tokensPerS / 86400.0;
    return r;
}

/// Serving on whole GPUs of the job's kind with the default engine: the KV budget is what
/// the engine's memory share leaves beside weights, workspace and runtime.
PerfResult inference(const PerfInputs& in)
{
    ServingInputs sv;
    sv.arch = in.arch;
    sv.gpu = in.gpu;
    sv.job = in.job;
    sv.engine = withSoftwareStack(sv.engine, in.stack, false);
    sv.placement.computeShare = std::max(in.shares.compute, 1e-9);
    sv.placement.bandwidthShare = std::max(in.shares.bandwidth, 1e-9);
    sv.placement.spatial = in.shares.spatial;
    sv.placement.tensorParallelGBps = in.comm.tensorParallelGBps;
    sv.placement.expertParallelGBps = in.comm.expertParallelGBps;
    sv.placement.moeLoadImbalance = in.moeLoadImbalance;
    const double fixed = servingMemory(in.arch, in.job, sv.engine.tokenBudget, 0.0, 0, 0).totalBytes();
    sv.placement.kvBudgetBytesPerGpu = sv.engine.kvBudgetBytes(in.gpu->memoryUsableGiB * kGiB, fixed);
    return servingPerformance(estimateServing(sv), sv);
}

} // namespace

PerfResult estimatePerformance(const PerfInputs& in)
{
    return in.job.kind == JobKind::Inference ? inference(in) : training(in);
}

} // namespace gp::calc
