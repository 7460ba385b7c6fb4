// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#pragma once

#include "perfmodel.h"

#include <algorithm>

namespace gp::calc {

/// The GPU-side cost model of one block: kernel times on the GPU's efficiency curves.
class Kernels
{
public:
    /// `computeShare` and `bandwidthShare` scale the tensor-core peak and HBM bandwidth to a
    /// unit's share of the GPU (a MIG instance's SMs and memory slices).
    Kernels(const GpuSpec& gpu, Precision precision, double computeShare = 1.0, double bandwidthShare = 1.0)
        : mEff(gpu.efficiency), mPeak(peakFlops(gpu, precision) * computeShare),
          mPeak16(peakFlops(gpu, Precision::Bf16) * computeShare),
          mHbm(gpu.hbmBandwidthGBps * 1e9 * gpu.efficiency.memoryBound * bandwidthShare),
          mIn(precision == Precision::Fp32 ? 4.0 : (precision == Precision::Bf16 || precision == Precision::Fp16) ? 2.0 : 1.0),
          mW(mIn)
    {
        if (precision == Precision::Fp32)
            mPeak16 = mPeak;
        // 4-bit weights (AWQ/GPTQ-style W4A16): half a byte per weight, dequantised inside a
        // 16-bit GEMM.
        if (precision == Precision::Int4) {
            mPeak = mPeak16;
            mIn = 2.0;
            mW = 0.5;
        }
    }

    /// `count` GEMMs of (m x k) by (k x n) on the weights: the slower of the tensor-core time
    /// at the curve's efficiency for one call's size and the HBM time of its operands (16-bit
    /// output). In 8-bit, each call first casts its 16-bit activation input (Transformer
    /// Engine's cast kernels: 2 bytes read, 1 written per element).
    double gemm(double m, double n, double k, double count = 1.0) const
    {
        return matmul(m, n, k, count, mPeak, mIn, mW) +
               (mIn < 2.0 && m > 0 && k > 0 ? count * stream(m * k * 3.0) : 0.0);
    }
    /// The attention core's batched GEMMs stay 16-bit whatever the job's precision.
    double attentionGemm(double m, double n, double k, double count) const
    {
        const double in = std::max(mIn, 2.0);
        return matmul(m, n, k, count, mPeak16, in, in);
    }
    /// A memory-bound kernel moving `bytes` through HBM.
    double stream(double bytes) const { return bytes / mHbm; }
    /// Fused attention doing `flops` of 16-bit tensor-core work.
    double flash(double flops) const { return flops / (mPeak16 * mEff.flashAttention); }

private:
    double matmul(double m, double n, double k, double count, double peak, double in, double w) const
    {
        if (m <= 0 || n <= 0 || k <= 0 || count <= 0)
            return 0.0;
        const double flops = 2.0 * m * n * k;
        const double compute = flops / (peak * mEff.gemmAt(flops / 1e9));
        const double memory = (m * k * in + k * n * w + m * n * 2.0) / mHbm;
        return count * std::max(compute, memory);
    }

    const KernelEfficiency& mEff;
    double mPeak, mPeak16, mHbm, mIn, mW;
};

} // namespace gp::calc
