// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#pragma once

#include "perfmodel.h"

#include <algorithm>
#include <cmath>

namespace gp::calc {

/// A transformer block's dimensions on one GPU of a `tp`-way tensor-parallel group
/// (grouped-query attention, gated FFN, mixture of experts).
struct BlockShape
{
    BlockShape(const ModelArchitecture& a, int tp, bool dense = false, double imbalance = 1.0, int ep = 1)
        : t(std::max(tp, 1)), h(a.hiddenSize), heads(std::max(a.attentionHeads, 1)),
          kvHeads(a.kvHeads > 0 ? a.kvHeads : heads), d(a.headDimension() > 0 ? a.headDimension() : h / heads),
          f(dense || !a.isMoe() ? (a.ffnHiddenSize > 0 ? a.ffnHiddenSize : 4.0 * h)
                                : (a.expertFfnHiddenSize() > 0 ? a.expertFfnHiddenSize() : 4.0 * h)),
          experts(dense ? 1.0 : std::max(a.experts, 1)),
          active(dense ? 1.0 : std::clamp(a.activeExperts, 1, std::max(a.experts, 1))),
          shared(dense || !a.isMoe() ? 0.0 : std::max(a.sharedExperts, 0)), imbalance(std::max(imbalance, 1.0)),
          ep(dense ? 1.0 : std::max(ep, 1)), gated(a.gatedFfn)
    {
    }
    double t, h, heads, kvHeads, d, f, experts, active, shared, imbalance, ep;
    bool gated;
    /// Routed token-expert pairs this GPU computes when `tokens` pass the block on each rank of
    /// the expert-parallel group: k per token on average, imbalance x that on the busiest rank.
    double routedTokens(double tokens) const { return tokens * active * (experts > 1 ? imbalance : 1.0); }
    /// Distinct local experts (experts / ep on this GPU) that the group's tokens reach, each
    /// token choosing `active` of `experts` uniformly: E/ep · (1 − (1 − k/E)^(tokens·ep)). All
    /// of them at training batch sizes; few at small decode batches (docs/model-reference.md).
    double touchedExperts(double tokens) const
    {
        if (experts <= 1)
            return 1.0;
        const double local = experts / ep;
        return std::max(local * (1.0 - std::pow(1.0 - active / experts, std::max(tokens * ep, 0.0))), 1e-9);
    }
    /// Tokens each touched expert processes.
    double perExpert(double tokens) const { return routedTokens(tokens) / touchedExperts(tokens); }
    /// Width of all attention heads (heads x head dimension; h unless head_dim is set).
    double qWidth() const { return heads * d; }
};

/// The GPU-side cost model of one block: kernel times on the GPU's efficiency curves.
class Kernels
{
public:
    /// `computeShare` and `bandwidthShare` scale the tensor-core peak and HBM bandwidth to a
    /// unit's share of the GPU. `spatial`: the share is a partition of the SMs (a MIG instance,
    /// MPS clients side by side). A GEMM that reaches `e` of the whole GPU's peak fills about
    /// e / ceiling of its SMs (the curve's shortfall below its ceiling is taken as SMs left
    /// idle); on a partition of share s it keeps its own speed while it fits, reaching
    /// min(e / s, ceiling) of the partition's peak. In time (time-slicing) a kernel gains
    /// nothing from the turns it does not fill.
    Kernels(const GpuSpec& gpu, Precision precision, double computeShare = 1.0, double bandwidthShare = 1.0,
            bool spatial = false)
        : mEff(gpu.efficiency), mPartition(spatial ? computeShare : 1.0), mCeiling(ceilingOf(gpu.efficiency)),
          mPeak(peakFlops(gpu, precision) * computeShare), mPeak16(peakFlops(gpu, Precision::Bf16) * computeShare),
          mHbm(gpu.hbmBandwidthGBps * 1e9 * gpu.efficiency.memoryBound * bandwidthShare),
          mIn(precision == Precision::Fp32                                     ? 4.0
              : (precision == Precision::Bf16 || precision == Precision::Fp16) ? 2.0
                                                                               : 1.0),
          mW(mIn)
    {
        if (precision == Precision::Fp32)
            mPeak16 = mPeak;
        // An 8-bit GEMM does its FLOPs in bf16/fp8 of the 16-bit time, while the costs that shape
        // the curve below its ceiling (launch, tail wave, prologue and epilogue, operand loads) do
        // not shrink: it sits on the curve where a 16-bit GEMM of as much time would
        // (docs/model-reference.md, "FP8 GEMMs").
        if (mPeak > mPeak16 && mPeak16 > 0)
            mSizeScale = mPeak16 / mPeak;
        // 4-bit weights (AWQ/GPTQ-style W4A16): half a byte per weight, dequantised inside a
        // 16-bit GEMM.
        if (precision == Precision::Int4) {
            mPeak = mPeak16;
            mIn = 2.0;
            mW = 0.5;
        }
    }

    /// GEMMs near the roofline's ridge: with `p` > 0 a GEMM takes (compute^p + memory^p)^(1/p)
    /// rather than the larger of the two (the operand loads and the tensor-core work of a
    /// skinny decode GEMM overlap imperfectly; docs/model-reference.md, "Decode GEMMs near the
    /// ridge"). 0 keeps max(compute, memory); only the serving model sets it.
    void setRooflineExponent(double p) { mRooflineP = std::max(p, 0.0); }

    /// `count` GEMMs of (m x k) by (k x n) on the weights: the slower of the tensor-core time
    /// at the curve's efficiency for one call's size and the HBM time of its operands (16-bit
    /// output). In 8-bit, each call first casts its 16-bit activation input (Transformer
    /// Engine's cast kernels: 2 bytes read, 1 written per element).
    double gemm(double m, double n, double k, double count = 1.0) const
    {
        return matmul(m, n, k, count, mPeak, mIn, mW) +
               (mIn < 2.0 && m > 0 && k > 0 ? count * stream(m * k * 3.0) : 0.0);
    }
    /// Megatron's block GEMMs for `tokens` tokens (Shoeybi et al. 2019; Korthikanti et al. 2022
    /// §3): QKV, attention projection, FFN in (gate and up fused when gated) and out, column/row
    /// split over TP, and the MoE router; each touched expert's weights are read once whatever
    /// it gets, and shared experts see every token.
    double linear(const BlockShape& b, double tokens) const
    {
        const double perExpert = b.perExpert(tokens);
        const double touched = b.touchedExperts(tokens);
        return gemm(tokens, (b.qWidth() + 2.0 * b.kvHeads * b.d) / b.t, b.h) + gemm(tokens, b.h, b.qWidth() / b.t) +
               gemm(perExpert, b.f * (b.gated ? 2.0 : 1.0) / b.t, b.h, touched) +
               gemm(perExpert, b.h, b.f / b.t, touched) + (b.experts > 1 ? gemm(tokens, b.experts, b.h) : 0.0) +
               (b.shared > 0 ? gemm(tokens, b.f * (b.gated ? 2.0 : 1.0) / b.t, b.h, b.shared) +
                                   gemm(tokens, b.h, b.f / b.t, b.shared)
                             : 0.0);
    }
    /// The attention core's batched GEMMs stay 16-bit whatever the job's precision.
    double attentionGemm(double m, double n, double k, double count) const
    {
        const double in = std::max(mIn, 2.0);
        return matmul(m, n, k, count, mPeak16, in, in);
    }
    /// A memory-bound kernel moving `bytes` through HBM.
    double stream(double bytes) const
    {
        const double t = bytes / mHbm;
        mMemoryBound += t;
        return t;
    }
    /// Fused attention doing `flops` of 16-bit tensor-core work.
    double flash(double flops) const
    {
        const double t = flops / (mPeak16 * mEff.flashAttention);
        mComputeBound += t;
        return t;
    }

    /// Kernel time so far bound by the SMs and by HBM (each kernel counts where its roofline
    /// puts it); callers scale them as they scale the kernels.
    double computeBoundS() const { return mComputeBound; }
    double memoryBoundS() const { return mMemoryBound; }
    /// The share of the counted kernel time bound by the SMs (1 when nothing was counted).
    double computeBoundShare() const
    {
        const double all = mComputeBound + mMemoryBound;
        return all > 0 ? mComputeBound / all : 1.0;
    }

private:
    double matmul(double m, double n, double k, double count, double peak, double in, double w) const
    {
        if (m <= 0 || n <= 0 || k <= 0 || count <= 0)
            return 0.0;
        const double flops = 2.0 * m * n * k;
        const double whole = mEff.gemmAt(flops / 1e9 * (peak > mPeak16 ? mSizeScale : 1.0));
        const double efficiency = mPartition < 1.0 ? std::min(whole / mPartition, std::max(mCeiling, whole)) : whole;
        const double compute = flops / (peak * efficiency);
        const double memory = (m * k * in + k * n * w + m * n * 2.0) / mHbm;
        const double t = mRooflineP > 0.0
                             ? std::pow(std::pow(compute, mRooflineP) + std::pow(memory, mRooflineP), 1.0 / mRooflineP)
                             : std::max(compute, memory);
        (compute >= memory ? mComputeBound : mMemoryBound) += count * t;
        return count * t;
    }

    static double ceilingOf(const KernelEfficiency& e)
    {
        double most = 0.0;
        for (const EfficiencyPoint& p : e.gemm)
            most = std::max(most, p.efficiency);
        return most > 0 ? most : 1.0;
    }

    const KernelEfficiency& mEff;
    double mPartition, mCeiling;
    double mSizeScale = 1.0; ///< 8-bit GEMMs: the 16-bit size of as much tensor-core time
    double mRooflineP = 0.0; ///< setRooflineExponent
    double mPeak, mPeak16, mHbm, mIn, mW;
    mutable double mComputeBound = 0.0, mMemoryBound = 0.0;
};

} // namespace gp::calc
