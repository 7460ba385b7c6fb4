// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#include "modelsize.h"

namespace gp::calc {

namespace {

double ffnParameters(const ModelArchitecture& a, double width)
{
    return (a.gatedFfn ? 3.0 : 2.0) * a.hiddenSize * width;
}

/// A block whose FFN holds `experts` FFNs of the expert width (plus the shared ones and the
/// router), or, for a dense block, one FFN of ffnHiddenSize.
double block(const ModelArchitecture& a, int experts, bool dense)
{
    if (dense || !a.isMoe())
        return attentionParameters(a) + ffnParameters(a, a.ffnHiddenSize);
    const double router = static_cast<double>(a.hiddenSize) * a.experts;
    return attentionParameters(a) + (experts + a.sharedExperts) * ffnParameters(a, a.expertFfnHiddenSize()) + router;
}

} // namespace

double attentionParameters(const ModelArchitecture& a)
{
    const double h = a.hiddenSize;
    const double heads = a.attentionHeads;
    const double d = a.headDimension();
    if (a.isMla()) {
        // DeepSeek-V2 §2.1 (eqs. 9-19): Q through a rank-q_lora latent (or directly), K and V
        // from one kv_lora latent plus a shared rotary key, output from heads x v_head_dim.
        const double qk = d + a.qkRopeHeadDim;
        const double v = a.vHeadDim > 0 ? a.vHeadDim : d;
        const double q = a.qLoraRank > 0 ? h * a.qLoraRank + a.qLoraRank * heads * qk : h * heads * qk;
        const double kv = h * (a.kvLoraRank + a.qkRopeHeadDim) + a.kvLoraRank * heads * (d + v);
        return q + kv + heads * v * h;
    }
    return 2.0 * h * heads * d + 2.0 * h * a.kvHeads * d; // Q and O, K and V
}

double expertParameters(const ModelArchitecture& a) { return ffnParameters(a, a.expertFfnHiddenSize()); }

double routedExpertParameters(const ModelArchitecture& a) { return a.isMoe() ? a.experts * expertParameters(a) : 0.0; }

double blockParameters(const ModelArchitecture& arch) { return block(arch, arch.experts, false); }

double denseBlockParameters(const ModelArchitecture& arch) { return block(arch, 1, true); }

double embeddingParameters(const ModelArchitecture& arch)
{
    return static_cast<double>(arch.vocabSize) * arch.hiddenSize;
}

double loraBlockParameters(const ModelArchitecture& a, int rank)
{
    const double h = a.hiddenSize;
    const double q = static_cast<double>(a.attentionHeads) * a.headDimension();
    const double kv = static_cast<double>(a.kvHeads) * a.headDimension();
    const double attention = (h + q) + (h + kv) + (h + kv) + (q + h); // Q, K, V, O
    const double ffn = (a.gatedFfn ? 3.0 : 2.0) * (h + a.expertFfnHiddenSize());
    return rank * (attention + (a.isMoe() ? a.experts + a.sharedExperts : 1) * ffn);
}

double parameterCount(const ModelArchitecture& arch)
{
    return arch.moeLayers() * block(arch, arch.experts, false) +
           (arch.layers - arch.moeLayers()) * block(arch, 1, true) + 2.0 * embeddingParameters(arch);
}

double activeParameterCount(const ModelArchitecture& arch)
{
    return arch.moeLayers() * block(arch, arch.activeExperts, false) +
           (arch.layers - arch.moeLayers()) * block(arch, 1, true) + 2.0 * embeddingParameters(arch);
}

double mtpParameters(const ModelArchitecture& arch)
{
    const double h = arch.hiddenSize;
    return arch.mtpLayers * (block(arch, arch.experts, !arch.isMoe()) + 2.0 * h * h);
}

double mtpActiveParameters(const ModelArchitecture& arch)
{
    const double h = arch.hiddenSize;
    return arch.mtpLayers * (block(arch, arch.activeExperts, !arch.isMoe()) + 2.0 * h * h);
}

double expectedExpertsTouched(double experts, double active, double tokens)
{
    if (experts <= 1.0 || tokens <= 0.0)
        return std::min(experts, active);
    const double k = std::min(active, experts);
    return experts * (1.0 - std::pow(1.0 - k / experts, tokens));
}

} // namespace gp::calc
