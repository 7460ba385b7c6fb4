// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace gp {

/// How one physical GPU is shared between workloads.
enum class SharingMode
{
    Exclusive,
    Passthrough,
    Mig,
    Vgpu,
    TimeSlicing,
    Mps
};

/// vGPU scheduler policies of NVIDIA vGPU software.
enum class VgpuScheduler
{
    BestEffort,
    EqualShare,
    FixedShare
};

/// One MIG GPU instance: a profile placed at a start slice (memory-slice index).
struct MigInstance
{
    std::string profile;
    int start = 0;
    bool operator==(const MigInstance&) const = default;
    bool operator<(const MigInstance& o) const // ordered: layouts can key a map
    {
        return profile != o.profile ? profile < o.profile : start < o.start;
    }
};

/// The sharing configuration of one GPU. Only the fields of `mode` are meaningful; the
/// others keep their defaults so that a read-write round trip is exact.
struct SharingConfig
{
    SharingMode mode = SharingMode::Exclusive;
    std::vector<MigInstance> migInstances;                   ///< Mig
    std::string vgpuProfile;                                 ///< Vgpu
    VgpuScheduler vgpuScheduler = VgpuScheduler::BestEffort; ///< Vgpu
    int replicas = 1;                                        ///< TimeSlicing
    int mpsActiveThreadPct = 100;                            ///< Mps
    std::optional<double> mpsMemoryLimitGiB;                 ///< Mps, per client

    bool operator==(const SharingConfig&) const = default;
};

} // namespace gp
