// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#pragma once

#include "model/modelpreset.h"

#include <algorithm>
#include <cmath>

namespace gp::calc {

/// Parameters of a decoder-only transformer, counted from its shape:
///   embeddings   V·h for the input table and V·h for the (untied) output projection;
///   attention    h·heads·d (Q) + 2·h·kv·d (K, V with grouped-query attention) + heads·d·h
///                (O), d the head dimension; MLA as attentionParameters() says;
///   feed-forward 3·h·f when gated (SwiGLU: gate, up, down), else 2·h·f; for MoE layers
///                (experts + shared experts) FFNs of the expert width plus the router's
///                h·experts, the first dense_layers keep one FFN of ffn_hidden_size;
/// per layer, summed over the layers. Norms and biases (< 0.1 %) are left out. Sources: Llama 3 and
/// Mixtral configs; the formula reproduces their stated sizes (tests/tst_catalog.cpp).
double parameterCount(const ModelArchitecture& arch);

/// Parameters of one transformer block (attention + FFN x experts + router); for MoE models
/// an MoE block, the heaviest.
double blockParameters(const ModelArchitecture& arch);

/// Parameters of one of the first dense_layers of an MoE model (or any block of a dense one).
double denseBlockParameters(const ModelArchitecture& arch);

/// Attention parameters of one block: grouped-query attention, or multi-head latent attention
/// (DeepSeek-V2, Liu et al. 2024, §2.1): h·q_lora + q_lora·heads·(d + rope) for Q,
/// h·(kv_lora + rope) + kv_lora·heads·(d + v) for K and V, heads·v·h for the output.
double attentionParameters(const ModelArchitecture& arch);

/// One expert's FFN: 3·h·f_expert when gated, else 2·h·f_expert.
double expertParameters(const ModelArchitecture& arch);

/// The routed experts of one MoE block (what expert parallelism shards): experts x one
/// expert's FFN; 0 for dense models.
double routedExpertParameters(const ModelArchitecture& arch);

/// Expected distinct experts that `tokens` independent tokens, each routed to `active` of
/// `experts`, touch in one layer: E·(1 − (1 − k/E)^tokens), uniform routing assumed.
double expectedExpertsTouched(double experts, double active, double tokens);

/// Input embedding (and, untied, output projection) parameters: V x h.
double embeddingParameters(const ModelArchitecture& arch);

/// LoRA adapter parameters of one block: r (d_in + d_out) for every linear layer of the
/// attention and of every expert's FFN (the QLoRA recipe: adapters on all linear layers).
double loraBlockParameters(const ModelArchitecture& arch, int rank);

/// Parameters one token passes through: as parameterCount() but with activeExperts FFNs.
double activeParameterCount(const ModelArchitecture& arch);

/// Parameters of the multi-token-prediction modules (mtp_layers; DeepSeek-V3 §2.2, Fig. 3):
/// per module one block (an MoE block when the model has experts) and the projection M of
/// the concatenated [h; embedding] (2h·h); the embedding table and output head are shared
/// with the main model, the two RMSNorms left out as elsewhere. Not in parameterCount(): the
/// model cards' totals leave them out (DeepSeek-V3: 671B plus a 14B MTP module in the
/// released checkpoint, which stores its own copies of the 0.9B embedding and head).
double mtpParameters(const ModelArchitecture& arch);

/// Parameters one token passes through in the multi-token-prediction modules: as
/// mtpParameters() with activeExperts FFNs.
double mtpActiveParameters(const ModelArchitecture& arch);

} // namespace gp::calc
