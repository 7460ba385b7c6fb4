// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#pragma once

#include <algorithm>
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
    /// Per-head dimension; 0: hiddenSize / attentionHeads. Qwen3 and GPT-OSS set it apart
    /// from the hidden size (config.json head_dim). With MLA, the non-rotary Q/K part.
    int headDim = 0;
    // Mixture of experts beyond experts/activeExperts (docs/model-reference.md#mixture-of-experts).
    int moeFfnHiddenSize = 0; ///< each expert's FFN width; 0: ffnHiddenSize (Mixtral)
    int sharedExperts = 0;    ///< experts every token passes through besides the routed ones (DeepSeek)
    int denseLayers = 0;      ///< first layers with a dense FFN of ffnHiddenSize (DeepSeek-V3: 3)
    // Multi-head latent attention (DeepSeek-V2/V3, config.json names); kvLoraRank 0: plain attention.
    int kvLoraRank = 0;    ///< compressed K/V latent (kv_lora_rank); what the KV cache keeps
    int qLoraRank = 0;     ///< compressed Q (q_lora_rank); 0: Q projected directly
    int qkRopeHeadDim = 0; ///< rotary part of each Q/K head, its K shared by the heads
    int vHeadDim = 0;      ///< V head dimension; 0: headDim
    /// Multi-token-prediction modules after the last layer (DeepSeek-V3 §2.2, config.json
    /// num_nextn_predict_layers, Megatron-Core mtp_num_layers): each one more block (an MoE
    /// block when the model has experts), a 2h -> h projection and a second pass through the
    /// shared output head and loss, on the last pipeline stage. Training only; 0: none.
    int mtpLayers = 0;

    bool isMoe() const { return experts > 1; }
    bool isMla() const { return kvLoraRank > 0; }
    int headDimension() const { return headDim > 0 ? headDim : (attentionHeads > 0 ? hiddenSize / attentionHeads : 0); }
    int expertFfnHiddenSize() const { return moeFfnHiddenSize > 0 ? moeFfnHiddenSize : ffnHiddenSize; }
    /// Layers whose FFN is a mixture of experts.
    int moeLayers() const { return isMoe() ? std::max(layers - denseLayers, 0) : 0; }

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
