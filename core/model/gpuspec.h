// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#pragma once

#include <cmath>
#include <map>
#include <string>
#include <vector>

namespace gp {

/// One MIG GPU-instance profile of one GPU, as `nvidia-smi mig -lgip` and `-lgipp` list it.
struct MigProfile
{
    std::string name;       ///< e.g. "3g.40gb", "1g.10gb+me"
    int profileId = 0;      ///< nvidia-smi GPU instance profile id
    int computeSlices = 0;  ///< "g" count, out of 7
    int memorySlices = 0;   ///< out of 8; also the placement size
    double usableGiB = 0.0; ///< memory the instance offers to applications
    int smCount = 0;
    int maxInstances = 0;
    std::vector<int> startSlices; ///< allowed placement starts, in memory slices
    bool mediaExtensions = false; ///< the "+me" variants
};

/// One vGPU type (framebuffer profile) of one GPU from NVIDIA's vGPU software guide.
struct VgpuProfile
{
    std::string name; ///< e.g. "A100-10C"
    double framebufferGiB = 0.0;
    int maxPerGpu = 0;
    /// Time-sliced schedulers the profile runs under ("best_effort", "equal_share",
    /// "fixed_share"); empty: all three (NVIDIA vGPU software user guide, "vGPU schedulers").
    std::vector<std::string> schedulers;
};

/// One point of an efficiency curve: at `size` (GFLOP of one GEMM call), the share of the
/// dense peak the kernel reaches.
struct EfficiencyPoint
{
    double size = 0.0;
    double efficiency = 0.0;
    bool operator==(const EfficiencyPoint&) const = default;
};

/// How close the GPU's kernels come to its datasheet figures (catalog "efficiency"; every
/// figure is an assumption with its source, docs/model-reference.md#step-time). The member
/// defaults are what a user-catalog GPU without an "efficiency" object gets.
struct KernelEfficiency
{
    /// GEMM throughput over the GEMM's size, ascending in size; interpolated linearly in
    /// log(size) and held flat beyond the ends.
    std::vector<EfficiencyPoint> gemm = {{0.01, 0.084}, {1.0, 0.506}, {16.0, 0.758}, {128.0, 0.80}};
    double memoryBound = 0.7;          ///< share of the HBM bandwidth memory-bound kernels reach
    double flashAttention = 0.5;       ///< share of the dense peak fused (flash) attention reaches
    double scaleUpCollective = 0.65;   ///< NCCL bus bandwidth over the scale-up domain / line rate
    double collectiveLatencyUs = 10.0; ///< fixed cost of one collective call

    /// The GEMM curve at `gflop`.
    double gemmAt(double gflop) const;
    bool operator==(const KernelEfficiency&) const = default;
};

/// A GPU model from the hardware catalog (vendor datasheets; see data/catalog/gpus.json).
struct GpuSpec
{
    std::string id;   ///< stable key, e.g. "h100-sxm-80gb"
    std::string name; ///< display name, e.g. "H100 SXM 80GB"
    std::string vendor;
    std::string architecture;
    double memoryGB = 0.0;         ///< as the datasheet states it
    double memoryUsableGiB = 0.0;  ///< total memory the driver reports to applications
    double hbmBandwidthGBps = 0.0; ///< memory bandwidth, gigabytes per second
    double bf16DenseTflops = 0.0;
    double fp8DenseTflops = 0.0;       ///< 0 where the GPU has no FP8 tensor cores
    double fp4DenseTflops = 0.0;       ///< 0 where the GPU has no FP4 tensor cores (or the catalog omits it)
    std::string scaleUpKind;           ///< "nvlink3", "nvlink4", "nvlink5", "infinity-fabric", "none"
    double scaleUpBandwidthGBps = 0.0; ///< per GPU, bidirectional total
    int pcieGen = 0;
    double tdpW = 0.0;
    int smCount = 0;                     ///< SMs (NVIDIA) or compute units (AMD)
    std::vector<MigProfile> migProfiles; ///< empty where MIG is not supported
    std::vector<VgpuProfile> vgpuProfiles;
    KernelEfficiency efficiency;
    /// Interference calibration for this GPU (catalog "sharing": time_slice_switch_us,
    /// time_slice_cache_refill_us, mps_memory_contention, virtualization_io_overhead_pct);
    /// an absent key takes the scenario's assumption.
    std::map<std::string, double> sharingCalibration;
    std::map<std::string, std::string> sources; ///< figure name -> citation

    bool supportsMig() const { return !migProfiles.empty(); }
    const MigProfile* migProfile(const std::string& name) const
    {
        for (const auto& p : migProfiles)
            if (p.name == name)
                return &p;
        return nullptr;
    }
    const VgpuProfile* vgpuProfile(const std::string& name) const
    {
        for (const auto& p : vgpuProfiles)
            if (p.name == name)
                return &p;
        return nullptr;
    }
};

inline double KernelEfficiency::gemmAt(double gflop) const
{
    if (gemm.empty())
        return 1.0;
    if (!(gflop > gemm.front().size))
        return gemm.front().efficiency;
    for (std::size_t i = 1; i < gemm.size(); ++i)
        if (gflop <= gemm[i].size) {
            const EfficiencyPoint& lo = gemm[i - 1];
            const EfficiencyPoint& hi = gemm[i];
            const double w = std::log(gflop / lo.size) / std::log(hi.size / lo.size);
            return lo.efficiency + w * (hi.efficiency - lo.efficiency);
        }
    return gemm.back().efficiency;
}

} // namespace gp
