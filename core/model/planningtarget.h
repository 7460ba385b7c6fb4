// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#pragma once

#include <string>

namespace gp {

/// The field's benchmark for a shared cluster, defined once (docs/architecture.md §5): at
/// least 80 % of VRAM in use with a mean slowdown against bare metal under 3 %. Every check,
/// colour and sentence about "the target" reads it from here.
struct PlanningTarget
{
    static constexpr double kMinVramUtilization = 0.80; ///< fraction of usable VRAM in use, at least
    static constexpr double kMaxMeanPenalty = 0.03;     ///< mean slowdown against bare metal, below

    static constexpr bool vramMet(double vramUtilization) { return vramUtilization >= kMinVramUtilization; }
    static constexpr bool penaltyMet(double meanPenalty) { return meanPenalty < kMaxMeanPenalty; }
    static constexpr bool met(double vramUtilization, double meanPenalty)
    {
        return vramMet(vramUtilization) && penaltyMet(meanPenalty);
    }
    /// "≥ 80 % VRAM, < 3 % penalty" (`ascii`: ">= 80 % VRAM, < 3 % penalty", for terminals).
    static std::string text(bool ascii = false)
    {
        const auto pct = [](double v) { return std::to_string(static_cast<int>(v * 100.0 + 0.5)) + " %"; };
        return std::string(ascii ? ">= " : "\u2265 ") + pct(kMinVramUtilization) + " VRAM, < " + pct(kMaxMeanPenalty) +
               " penalty";
    }
};

} // namespace gp
