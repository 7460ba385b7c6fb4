// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#pragma once

#include <string>

namespace gp {

/// Transformer shape: what the memory and FLOP formulas need. The member defaults are the one
/// set of defaults for a custom model: the scenario reader, `gpuplan-cli memory` and the Add
/// Job dialog all start from them (docs/scenario-format.md).
struct ModelArchitecture
{
    int layers = 0;
    int hiddenSize = 0;
    int attentionHeads = 0;
    int kvHeads = 0; ///< < attentionHeads for grouped-query attention
    int ffnHiddenSize = 0;
    int vocabSize = 0;
    int sequenceLength = 0;
    int experts = 1;       ///< MoE experts per layer (1 = dense)
    int activeExperts = 1; ///< experts each token visits
    bool gatedFfn = true;  ///< SwiGLU-style FFN with three matrices (Llama, Mixtral)
    bool dropout = false;  ///< dropout layers whose masks are kept for backward (GPT-3 era)

    bool operator==(const ModelArchitecture&) const = default;
};

/// A named model shape from data/models/, with the model card it comes from.
struct ModelPreset
{
    std::string id; ///< e.g. "llama3-70b"
    std::string name;
    ModelArchitecture arch;
    double statedParamsB = 0.0; ///< parameter count the source states, in billions
    std::string source;
};

} // namespace gp
