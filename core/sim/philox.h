// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#pragma once

#include "hostdevice.h"

#include <cstdint>

namespace gp::sim {

/// Philox4x32-10, the counter-based generator of Salmon, Moraes, Dror and Shaw, "Parallel
/// Random Numbers: As Easy as 1, 2, 3" (SC'11). The output is a pure function of (counter,
/// key), so trial t of job j draws the same numbers on the CPU and on the GPU, in any order.
struct Philox4x32
{
    struct Block
    {
        std::uint32_t v[4];
    };

    GP_HD static Block generate(Block counter, std::uint32_t key0, std::uint32_t key1)
    {
        constexpr std::uint32_t kM0 = 0xD2511F53u;
        constexpr std::uint32_t kM1 = 0xCD9E8D57u;
        constexpr std::uint32_t kW0 = 0x9E3779B9u; // golden ratio
        constexpr std::uint32_t kW1 = 0xBB67AE85u; // sqrt(3) - 1
        for (int round = 0; round < 10; ++round) {
            const std::uint64_t p0 = static_cast<std::uint64_t>(kM0) * counter.v[0];
            const std::uint64_t p1 = static_cast<std::uint64_t>(kM1) * counter.v[2];
            const auto hi0 = static_cast<std::uint32_t>(p0 >> 32);
            const auto lo0 = static_cast<std::uint32_t>(p0);
            const auto hi1 = static_cast<std::uint32_t>(p1 >> 32);
            const auto lo1 = static_cast<std::uint32_t>(p1);
            counter = Block{{hi1 ^ counter.v[1] ^ key0, lo1, hi0 ^ counter.v[3] ^ key1, lo0}};
            key0 += kW0;
            key1 += kW1;
        }
        return counter;
    }

    /// Uniform double in [0, 1) from two 32-bit words (53 random bits).
    GP_HD static double toUnit(std::uint32_t hi, std::uint32_t lo)
    {
        const std::uint64_t bits = (static_cast<std::uint64_t>(hi) << 21) ^ (static_cast<std::uint64_t>(lo) >> 11);
        return static_cast<double>(bits & ((1ull << 53) - 1)) * (1.0 / 9007199254740992.0);
    }
};

} // namespace gp::sim
