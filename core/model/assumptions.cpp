// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#include "assumptions.h"

#include <stdexcept>

namespace gp {

const std::vector<Assumption>& assumptionRegistry()
{
    // Each default cites where it comes from; docs/model-reference.md explains them.
    static const std::vector<Assumption> registry = {
        {"runtime_overhead_gib", "Runtime overhead per GPU", 1.0, 0.0, 64.0, "GiB",
         "Per-GPU memory taken before the job's tensors: CUDA context with its kernel images, "
         "cuBLAS/NCCL workspaces and the caching allocator's reserve.",
         "Planner's assumption; a CUDA context alone is several hundred MiB on Ampere/Hopper "
         "(measure with torch.cuda.mem_get_info() after initialisation); see "
         "docs/model-reference.md#runtime-overhead"},
        {"interruptions_per_gpu_day", "Interruption rate", 419.0 / (54.0 * 16384.0), 0.0, 1.0, "1/GPU-day",
         "Rate of unexpected job interruptions (hardware and software faults) per GPU per day.",
         "Llama 3 (Dubey et al., 2024), Section 3.3.4: 419 unexpected interruptions in a "
         "54-day snapshot of pre-training on 16,384 H100 GPUs"},
        {"inference_prefill_chunk_tokens", "Serving token budget per iteration", 2048.0, 1.0, 1e6, "tokens",
         "Token budget of one serving iteration (prefill chunk plus decode tokens); sizes the "
         "activation workspace of inference jobs and, with chunked prefill, how much of a prompt "
         "one iteration processes.",
         "vLLM's max_num_batched_tokens for chunked prefill (2048 in vLLM's online-serving "
         "defaults); set it to your engine's value"},
        {"chunked_prefill", "Chunked prefill", 1.0, 0.0, 1.0, "0 or 1",
         "1: the engine splits prompts into chunks that ride with the decode tokens of each "
         "iteration (vLLM V1, Sarathi-Serve); 0: a prompt is prefilled whole in one iteration and "
         "the decoders wait for it (TensorRT-LLM's default, enable_chunked_prefill = False).",
         "Agrawal et al. 2024 (Sarathi-Serve, OSDI '24); vLLM V1 enables chunked prefill by default; "
         "TensorRT-LLM LlmArgs.enable_chunked_prefill defaults to False"},
        {"serving_memory_fraction", "Serving engine's memory share", 0.9, 0.05, 1.0, "fraction",
         "Share of a GPU's (or MIG instance's) memory the serving engine may use for weights, "
         "activations and KV cache; the rest is its reserve.",
         "vLLM gpu_memory_utilization default 0.9; TensorRT-LLM kv_cache_free_gpu_mem_fraction 0.9"},
        {"kv_block_tokens", "KV-cache page size", 16.0, 1.0, 1024.0, "tokens",
         "Tokens per KV-cache page: a sequence holds whole pages.",
         "vLLM PagedAttention block_size default 16 (Kwon et al. 2023, SOSP '23)"},
        {"serving_length_sigma", "Spread of request lengths", 0.5, 0.0, 3.0, "log-space standard deviation",
         "Spread of prompt and output lengths around their configured means (simulation: one "
         "request per trial, lognormal with the mean kept).",
         "Planner's assumption: chat traces such as ShareGPT spread prompt and output lengths over "
         "more than an order of magnitude; set 0 for fixed lengths, as synthetic benchmarks use"},
        {"time_slice_switch_us", "Context switch per time slice", 100.0, 0.0, 100000.0, "µs",
         "Time one turn on a time-sliced GPU loses to the context switch (save and restore), for "
         "compute-bound work; the share lost is this over time_slice_ms.",
         "Fitted to Colfax Research (2024), 'Sharing NVIDIA GPUs at the System Level: Time-Sliced "
         "and MIG-Backed vGPUs': on an A30 a large TF32 GEMM in each of four time-sliced vGPUs ran "
         "about 5 % slower than in each of four MIG-backed 1g.6gb vGPUs with the same SM share: "
         "5 % of the 2 ms time_slice_ms"},
        {"time_slice_cache_refill_us", "Cache refill per time slice", 268.0, 0.0, 100000.0, "µs",
         "What memory-bound work loses on top of the switch in each turn: the L2 and TLB warm-up "
         "after another tenant's turn.",
         "Fitted to Colfax Research (2024), same study: each of four time-sliced vGPUs measured "
         "160 GB/s of memory bandwidth against 196 GB/s for each MIG 1g.6gb instance holding the "
         "same share of the memory: 1 - 160/196 = 18.4 % of a 2 ms turn = 368 us, less the switch"},
        {"mps_memory_contention", "MPS memory contention", 0.86, 0.0, 5.0, "extra DRAM traffic per overlapping client",
         "MPS: L2 thrashing between memory-bound clients; a memory-bound client's bandwidth is "
         "1 / (1 + (1 + this) x the co-tenants' memory-bound share).",
         "Fitted to Villarrubia, Costero, Igual, Olcoz (2026), 'A comprehensive evaluation of "
         "spatial co-execution on GPUs using MPS and MIG technologies' (arXiv 2604.22430): under "
         "memory contention MPS co-execution worsens performance by about 30 % against running the "
         "pair one after the other; two memory-bound clients then take (2 + x) / 2 of the "
         "sequential time: x = 2 / 0.7 - 2 = 0.86"},
        {"virtualization_io_overhead_pct", "Virtualization I/O overhead", 6.0, 0.0, 100.0, "%",
         "Slowdown of a VM's host/PCIe and network transfers (passthrough and vGPU: IOMMU "
         "translation, virtualised interrupts); the GPU's kernels run unchanged.",
         "VMware (2023), MLPerf Inference v3.0 on vSphere with NVIDIA vGPUs (4 x A100-SXM-80GB, "
         "2 x H100-PCIe): 94-105 % of the same system on bare metal; the 6 % at the low end taken "
         "as the transfers' cost"},
        {"time_slice_ms", "Time slice", 2.0, 0.05, 1000.0, "ms",
         "Length of one process's turn on a time-sliced GPU (time-slicing replicas, vGPU time-sliced "
         "schedulers): a serving iteration that a switch interrupts waits the other busy tenants' turns.",
         "Planner's assumption: NVIDIA documents time slices per context in microseconds with a 1 ms "
         "minimum (DRIVE OS GPU scheduling, NVRM_GPU_CHANNEL_TIMESLICE) and leaves the data-center "
         "driver's default unstated (nvidia-smi compute-policy --set-timeslice: default, short, "
         "medium, long); measure yours"},
        {"comm_overlap", "Data-parallel communication overlap", 0.7, 0.0, 1.0, "fraction",
         "Share of the data-parallel gradient reduction that may hide behind the last micro-batch's "
         "backward pass (never more than that pass takes).",
         "Planner's assumption: Megatron-LM (--overlap-grad-reduce) and PyTorch DDP/FSDP overlap "
         "gradient buckets with backward; the last bucket and the tail stay exposed; set 0 for no overlap"},
        {"tp_comm_overlap", "Tensor-parallel communication overlap", 0.0, 0.0, 1.0, "fraction",
         "Share of the tensor-parallel collectives hidden behind the GEMMs next to them.",
         "Megatron-LM runs them in the critical path by default (Korthikanti et al. 2022 measured "
         "that way); Transformer Engine's userbuffer overlap (--tp-comm-overlap) hides part of them"},
        {"moe_load_imbalance", "MoE load imbalance", 1.25, 1.0, 8.0, "busiest rank's tokens / mean",
         "Mixture of experts with expert parallelism: tokens routed to the busiest expert-parallel rank "
         "over the mean; its expert GEMMs, their activations and the all-to-all it waits for scale "
         "with it (1: perfectly balanced routing).",
         "Capacity factor 1.25, the bound token-dropping MoE training keeps the busiest expert under: "
         "GShard (Lepikhin et al. 2021, §2.2) and Switch Transformer (Fedus et al. 2022, Table 1); "
         "dropless training (Megatron-Core's default, moe_expert_capacity_factor None) with an "
         "auxiliary balancing loss stays near it; set it from your router's statistics"},
        {"link_efficiency", "Link efficiency", 0.8, 0.05, 1.0, "fraction",
         "Bus bandwidth a collective reaches as a fraction of the link's line rate.",
         "nccl-tests all_reduce_perf on DGX A100 reaches about 230 GB/s bus bandwidth over NVLink3 "
         "(300 GB/s per direction): about 0.77; InfiniBand NDR reaches a similar share of 50 GB/s per port"},
        {"no_gpudirect_bandwidth_factor", "Bandwidth without GPUDirect RDMA", 0.5, 0.05, 1.0, "fraction",
         "Network bandwidth left when GPUDirect RDMA is off and traffic is staged through host memory.",
         "Planner's assumption; NVIDIA's GPUDirect RDMA documentation describes the extra host copy it removes"},
        {"step_jitter_cv", "Step-time jitter", 0.02, 0.0, 1.0, "coefficient of variation",
         "Run-to-run variation of a job's mean step time on dedicated hardware (simulation: one "
         "lognormal factor per trial).",
         "Planner's assumption of a few percent, the order of step-time noise seen in large "
         "synchronous training; measure yours from step logs"},
        {"cotenant_busy_fraction", "Co-tenant busy fraction", 0.8, 0.0, 1.0, "fraction",
         "Probability that a co-tenant on a time-shared GPU is computing at a given moment (simulation).",
         "Planner's assumption; evaluate() assumes 1 (every co-tenant always busy); a trial's idle "
         "co-tenants take no turns, SMs or bandwidth from the job (docs/model-reference.md#sharing)"},
        {"restart_overhead_min", "Restart time after an interruption", 10.0, 0.0, 1440.0, "minutes",
         "Time to restart a job after an interruption or an out-of-memory kill: rescheduling, "
         "loading the checkpoint, warming up (simulation).",
         "Planner's assumption; the lost work since the last checkpoint is drawn separately"},
    };
    return registry;
}

const Assumption* findAssumption(const std::string& key)
{
    for (const auto& a : assumptionRegistry())
        if (a.key == key)
            return &a;
    return nullptr;
}

double assumptionValue(const std::map<std::string, double>& overrides, const std::string& key)
{
    auto it = overrides.find(key);
    if (it != overrides.end())
        return it->second;
    const Assumption* a = findAssumption(key);
    if (!a)
        throw std::out_of_range("unknown assumption " + key);
    return a->defaultValue;
}

} // namespace gp
