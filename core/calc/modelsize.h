// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#pragma once

#include "model/modelpreset.h"

namespace gp::calc {

/// Parameters of a decoder-only transformer, counted from its shape:
///   embeddings   V·h for the input table and V·h for the (untied) output projection;
///   attention    h·h (Q) + 2·h·(kv·h/heads) (K, V with grouped-query attention) + h·h (O);
///   feed-forward 3·h·f when gated (SwiGLU: gate, up, down), else 2·h·f; × experts for MoE,
///                plus the router's h·experts;
/// per layer, times layers. Norms and biases (< 0.1 %) are left out. Sources: Llama 3 and
/// Mixtral configs; the formula reproduces their stated sizes (tests/tst_catalog.cpp).
double parameterCount(const ModelArchitecture& arch);

/// Parameters of one transformer block (attention + FFN x experts + router).
double blockParameters(const ModelArchitecture& arch);

/// Input embedding (and, untied, output projection) parameters: V x h.
double embeddingParameters(const ModelArchitecture& arch);

/// LoRA adapter parameters of one block: r (d_in + d_out) for every linear layer of the
/// attention and of every expert's FFN (the QLoRA recipe: adapters on all linear layers).
double loraBlockParameters(const ModelArchitecture& arch, int rank);

/// Parameters one token passes through: as parameterCount() but with activeExperts FFNs.
double activeParameterCount(const ModelArchitecture& arch);

} // namespace gp::calc
