#include "assumptions.h"

#include <stdexcept>

namespace gp {

const std::vector<Assumption>& assumptionRegistry()
{
    // Each default cites where it comes from; docs/model-reference.md explains them.
    static const std::vector<Assumption> registry = {
        {"runtime_overhead_gib", 1.0, 0.0, 64.0, "GiB",
         "Per-GPU memory taken before the job's tensors: CUDA context with its kernel images, "
         "cuBLAS/NCCL workspaces and the caching allocator's reserve.",
         "Planner's assumption; a CUDA context alone is several hundred MiB on Ampere/Hopper "
         "(measure with torch.cuda.mem_get_info() after initialisation); see "
         "docs/model-reference.md#runtime-overhead"},
        {"achievable_mfu", 0.40, 0.01, 1.0, "fraction",
         "Fraction of the GPU's dense peak a well-tuned large training job sustains.",
         "Llama 3 (Dubey et al., 2024, 'The Llama 3 Herd of Models', Table 4): 38-43% BF16 MFU "
         "on 8k-16k H100 GPUs"},
        {"interruptions_per_gpu_day", 419.0 / (54.0 * 16384.0), 0.0, 1.0, "1/GPU-day",
         "Rate of unexpected job interruptions (hardware and software faults) per GPU per day.",
         "Llama 3 (Dubey et al., 2024), Section 3.3.4: 419 unexpected interruptions in a "
         "54-day snapshot of pre-training on 16,384 H100 GPUs"},
        {"inference_prefill_chunk_tokens", 2048.0, 1.0, 1e6, "tokens",
         "Tokens of one prefill chunk the serving engine processes at once; sizes the activation "
         "workspace of inference jobs.",
         "Planner's assumption of the order of vLLM's chunked-prefill token budget "
         "(engine argument max_num_batched_tokens); set it to your engine's value"},
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
