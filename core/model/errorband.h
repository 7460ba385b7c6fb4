// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#pragma once

#include <string>
#include <vector>

namespace gp {

/// One class of held-out validation rows and the model's error on them (data/validation/error-bands.json,
/// written by `gpuplan-cli validate-model --write-bands`; docs/model-reference.md, "Error bands").
struct ErrorBandClass
{
    std::string metric;        ///< "step_time" or "output_tokens_per_s"
    std::string generation;    ///< the catalog GPU's architecture: "Ampere", "Hopper", "Blackwell", ...
    std::string family;        ///< megatron | fsdp | torchtitan | tensorrt-llm | vllm | sglang
    std::string parallelism;   ///< dense-3d | fully-sharded | moe-ep
    double sizeB = 0.0;        ///< model size, billions of parameters (rounded as the class key)
    double meanAbsError = 0.0; ///< mean |predicted / measured − 1| over the class's rows
    double maxAbsError = 0.0;
    int rows = 0;
    std::vector<std::string> sources;

    bool operator==(const ErrorBandClass&) const = default;
};

} // namespace gp
