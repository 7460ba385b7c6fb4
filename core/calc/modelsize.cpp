// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#include "modelsize.h"

namespace gp::calc {

namespace {

double headDim(const ModelArchitecture& a)
{
    return a.attentionHeads > 0 ? static_cast<double>(a.hiddenSize) / a.attentionHeads : 0.0;
}

double block(const ModelArchitecture& a, int experts)
{
    const double h = a.hiddenSize;
    const double attention = 2.0 * h * h + 2.0 * h * (a.kvHeads * headDim(a));
    const double ffnOne = (a.gatedFfn ? 3.0 : 2.0) * h * a.ffnHiddenSize;
    const double router = a.experts > 1 ? h * a.experts : 0.0;
    return attention + experts * ffnOne + router;
}

} // namespace

double blockParameters(const ModelArchitecture& arch) { return block(arch, arch.experts); }

double embeddingParameters(const ModelArchitecture& arch)
{
    return static_cast<double>(arch.vocabSize) * arch.hiddenSize;
}

double loraBlockParameters(const ModelArchitecture& a, int rank)
{
    const double h = a.hiddenSize;
    const double kv = a.kvHeads * headDim(a);
    const double attention = (h + h) + (h + kv) + (h + kv) + (h + h); // Q, K, V, O
    const double ffn = (a.gatedFfn ? 3.0 : 2.0) * (h + a.ffnHiddenSize);
    return rank * (attention + a.experts * ffn);
}

double parameterCount(const ModelArchitecture& arch)
{
    return arch.layers * block(arch, arch.experts) + 2.0 * embeddingParameters(arch);
}

double activeParameterCount(const ModelArchitecture& arch)
{
    return arch.layers * block(arch, arch.activeExperts) + 2.0 * embeddingParameters(arch);
}

} // namespace gp::calc
