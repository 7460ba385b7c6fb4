// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#pragma once

#include <map>
#include <string>

namespace gp {

struct Job;

/// A software stack's implementation figures (catalog "software_stacks",
/// data/catalog/software-stacks.json; docs/catalog.md#software-stacks): what a trainer or a
/// serving engine hides, reserves and adds beyond the kernels. A job selects one with
/// `software_stack`; a profile fitted to a user's own measurements is one more entry of the same
/// kind in the user catalog. Every figure is cited in `sources`.
struct SoftwareStack
{
    std::string id;   ///< "megatron-lm", "fsdp", "tensorrt-llm", …
    std::string name; ///< display name
    std::string kind; ///< "training" or "serving"

    // Training.
    double stepOverheadS = 0.0; ///< per optimizer step: host-side work outside the kernels (logging, launch gaps)
    double dpGradOverlap = 0.7; ///< share of the data-parallel gradient reduction hidden behind backward
    double tpCommOverlap = 0.0; ///< share of the tensor-parallel collectives hidden behind their GEMMs
    /// Share of the fully sharded (ZeRO-3/FSDP) per-layer all-gathers and reduce-scatters that a
    /// prefetch can hide behind the compute of the layers next to them.
    double fsdpOverlap = 0.0;
    int fsdpPrefetchLayers = 1;     ///< layers gathered ahead: the first that many per pass cannot hide
    double fp8RecipeOverhead = 0.0; ///< extra share of each FP8 GEMM's time: amax reductions, scale updates, casts
    /// The stack's fused-attention kernel against the catalog's flash_attention figure (1: the
    /// kernel the catalog cites, e.g. FlashAttention-3 on Hopper; below 1 an older kernel).
    double attentionEfficiency = 1.0;
    /// Per GPU architecture (the catalog's `architecture`, e.g. "Hopper"), the stack's kernel
    /// against that GPU's flash_attention figure where it differs from attentionEfficiency: an
    /// Ampere-style kernel on Hopper falls further behind the Hopper kernels the catalog cites.
    std::map<std::string, double> attentionEfficiencyByArchitecture;
    /// HBM bytes moved per logit (token x vocabulary entry) per micro-batch by the loss and
    /// whatever else the trainer runs over the logits (e.g. training metrics): 16 for
    /// Megatron's fused fp32 vocab-parallel cross-entropy.
    double lossBytesPerLogit = 16.0;
    /// Mixture of experts: the token dispatcher's HBM passes outside the GEMMs and the all-to-all,
    /// per MoE layer forward (backward runs as many): each permute/unpermute pass reads and writes
    /// every token's hidden vector on one side and its k routed copies on the other; each chunk
    /// sort (expert parallelism only) reads and writes the routed copies. Megatron-Core's alltoall
    /// dispatcher: permute and unpermute (2), sort_chunks_by_idxs after the dispatch and before the
    /// combine (2).
    double moePermutePasses = 2.0;
    double moeSortPasses = 2.0;

    /// The communication library's cost model of a collective (NCCL, src/graph/tuning.cc, Simple
    /// protocol; docs/model-reference.md, "Collective latency"): on top of the GPU's
    /// collective_latency_us, each step of a ring adds the latency of the link it crosses, n − 1
    /// steps for an all-gather or reduce-scatter over n ranks, 2 (n − 1) for an all-reduce, of
    /// which nodes − 1 (2 (nodes − 1)) cross the network. The defaults are NCCL's hwLat for the
    /// Ring algorithm (2.18 to 2.29).
    double ringHopLatencyNvlinkUs = 3.4;
    double ringHopLatencyPcieUs = 5.7;
    double ringHopLatencyNetworkUs = 14.0;
    /// NCCL's tree for all-reduces across nodes (latency 2 ((ranks per node − 1) × intra-node hop +
    /// floor(log2 nodes) × network hop)): its bus bandwidth against the ring's, 0.92 in NCCL's model;
    /// the library takes whichever of ring and tree is faster. 0: the ring only.
    double treeAllReduceBandwidth = 0.92;

    /// The trainer shards by wrapping each transformer block (PyTorch FSDP units): with sharded
    /// gradients only (FSDP SHARD_GRAD_OP, ZeRO-2) each block's parameters are all-gathered and
    /// its gradients reduce-scattered in a call of their own, each with the collective's
    /// latency, rather than in one flat buffer per step (Megatron's distributed optimizer).
    bool perLayerCollectives = false;

    /// attentionEfficiency, or the figure for `architecture` where the profile gives one.
    double attentionEfficiencyOn(const std::string& architecture) const
    {
        const auto it = attentionEfficiencyByArchitecture.find(architecture);
        return it != attentionEfficiencyByArchitecture.end() ? it->second : attentionEfficiency;
    }

    // Serving.
    double kvCacheFraction = 0.9; ///< share of memory the engine may use (of free memory when kvOfFreeMemory)
    /// TensorRT-LLM's kv_cache_free_gpu_mem_fraction takes a share of what the weights and
    /// activations leave; vLLM's gpu_memory_utilization and SGLang's mem_fraction_static a share
    /// of the whole GPU.
    bool kvOfFreeMemory = false;
    double decodeStepOverheadS = 0.0; ///< scheduler and host work per engine iteration
    /// Latency of each step of the ring all-reduce the engine's TP collectives run (NCCL's
    /// tuning model: 2 (tp - 1) steps per all-reduce), on top of the GPU's collective_latency_us.
    double allReduceStepLatencyUs = 0.0;
    /// How the engine's GEMMs combine their tensor-core and operand-load times near the
    /// roofline's ridge: (compute^p + memory^p)^(1/p); 0 takes the larger (kernels.h).
    double gemmRooflineExponent = 0.0;

    std::map<std::string, std::string> sources; ///< figure name -> citation
    bool operator==(const SoftwareStack&) const = default;
};

/// The profile a job runs on when it names none: training → "megatron-lm", except fully sharded
/// jobs (FSDP, ZeRO-3) → "fsdp"; serving → "tensorrt-llm".
std::string defaultSoftwareStack(const Job& job);

/// The job's profile id: its own `software_stack`, or the default above.
std::string softwareStackOf(const Job& job);

} // namespace gp
