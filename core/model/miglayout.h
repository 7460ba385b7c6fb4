// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#pragma once

#include "gpuspec.h"
#include "sharing.h"

#include <string>
#include <vector>

namespace gp {

/// MIG placement rules of NVIDIA's MIG User Guide ("Supported MIG Profiles", A100/H100
/// placements): an A100/H100-class GPU has 8 memory slices and 7 compute slices; each GPU
/// instance occupies `memorySlices` consecutive memory slices from one of its profile's
/// allowed start slices; instances may not overlap; their compute slices add up to at most
/// 7; and no profile has more than its maximum instance count.
namespace mig {

inline constexpr int kMemorySlices = 8;
inline constexpr int kComputeSlices = 7;

using Layout = std::vector<MigInstance>;

/// A rule a layout breaks, naming the instance (index into the layout, -1 = whole layout).
struct Violation
{
    int instance = -1;
    std::string message;
};

/// Every rule `layout` breaks on `gpu`; empty when the layout is valid.
std::vector<Violation> check(const GpuSpec& gpu, const Layout& layout);

/// Whether one more instance of `profile` fits beside `layout` at one of the starts NVIDIA's
/// placement rules allow for it.
bool canAdd(const GpuSpec& gpu, const Layout& layout, const MigProfile& profile);

/// What one enumeration found: its layouts, and whether it stopped at a limit before it had them
/// all (then `layouts` are the first ones in its order and `limitReason` says which limit).
struct Enumeration
{
    std::vector<Layout> layouts;
    bool truncated = false;
    std::string limitReason; ///< "" when complete
};

/// Every valid non-empty layout of `gpu` using only `profiles` (all when empty), instances
/// ordered by start slice. With `maximalOnly`, only layouts to which no further instance
/// of those profiles can be added. Deterministic order (depth-first over memory slices,
/// larger instances first). Bounded: it keeps at most `maxLayouts` layouts and visits at most
/// `maxSteps` partial layouts (limits::kMaxMigLayouts, kMaxMigSearchSteps; a user catalog with
/// many small profiles has hundreds of millions of layouts), then stops and says so.
Enumeration enumerateBounded(const GpuSpec& gpu, const std::vector<std::string>& profiles, bool maximalOnly,
                             std::size_t maxLayouts, std::size_t maxSteps);

/// enumerateBounded at the limits of core/model/limits.h, its layouts only (the first
/// limits::kMaxMigLayouts where there are more).
std::vector<Layout> enumerate(const GpuSpec& gpu, const std::vector<std::string>& profiles, bool maximalOnly);

} // namespace mig
} // namespace gp
