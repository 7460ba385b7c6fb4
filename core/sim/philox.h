// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#pragma once

#include "hostdevice.h"

#include <cstdint>

// Random123 (its authors' reference implementation, Debian librandom123-dev), header-only.
// Its functions are __device__ only under nvcc unless told otherwise; the simulation kernel
// calls them from code built for both sides (GP_HD).
#if defined(__CUDACC__) && !defined(R123_CUDA_DEVICE)
#define R123_CUDA_DEVICE __host__ __device__
#endif
#include <Random123/philox.h>

namespace gp::sim {

/// Philox4x32-10, the counter-based generator of Salmon, Moraes, Dror and Shaw, "Parallel
/// Random Numbers: As Easy as 1, 2, 3" (SC'11), from Random123, their reference
/// implementation. The output is a pure function of (counter, key), so trial t of job j draws
/// the same numbers on the CPU and on the GPU, in any order; tst_philox checks the published
/// known answers.
struct Philox4x32
{
    struct Block
    {
        std::uint32_t v[4];
    };

    GP_HD static Block generate(Block counter, std::uint32_t key0, std::uint32_t key1)
    {
        const r123::Philox4x32::ctr_type c = {{counter.v[0], counter.v[1], counter.v[2], counter.v[3]}};
        const r123::Philox4x32::key_type k = {{key0, key1}};
        const r123::Philox4x32::ctr_type r = r123::Philox4x32()(c, k);
        return Block{{r[0], r[1], r[2], r[3]}};
    }

    /// Uniform double in [0, 1) from two 32-bit words (53 random bits).
    GP_HD static double toUnit(std::uint32_t hi, std::uint32_t lo)
    {
        const std::uint64_t bits = (static_cast<std::uint64_t>(hi) << 21) ^ (static_cast<std::uint64_t>(lo) >> 11);
        return static_cast<double>(bits & ((1ull << 53) - 1)) * (1.0 / 9007199254740992.0);
    }
};

} // namespace gp::sim
