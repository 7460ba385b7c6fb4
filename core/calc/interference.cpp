// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#include "interference.h"

#include "model/assumptions.h"

#include <algorithm>

namespace gp::calc {

InterferenceParams InterferenceParams::from(const std::map<std::string, double>& a, const GpuSpec& gpu)
{
    // The catalog's value where the GPU is calibrated, else the scenario's (recorded as read).
    const auto value = [&](const char* key, AssumptionSet& read) {
        const auto it = gpu.sharingCalibration.find(key);
        if (it != gpu.sharingCalibration.end())
            return it->second;
        read.add(key);
        return assumptionValue(a, key);
    };
    InterferenceParams p;
    // The share of a turn lost: switch (and cache refill) time over the turn, at most 90 %.
    const double turnUs = assumptionValue(a, "time_slice_ms") * 1e3;
    p.switchRead.add("time_slice_ms");
    const double switchUs = value("time_slice_switch_us", p.switchRead);
    p.switchCompute = std::min(0.9, switchUs / turnUs);
    p.switchMemory = std::min(0.9, (switchUs + value("time_slice_cache_refill_us", p.switchRead)) / turnUs);
    p.mpsContention = value("mps_memory_contention", p.mpsRead);
    p.virtualizationIo = value("virtualization_io_overhead_pct", p.ioRead) / 100.0;
    return p;
}

const std::vector<PenaltyPart>& penaltyParts()
{
    static const std::vector<PenaltyPart> parts = {
        {"compute", "compute",
         "SM time beyond what its share of the GPU accounts for: turns or MPS threads oversubscribed "
         "past the share it is charged for",
         &PenaltyBreakdown::compute},
        {"memory_bandwidth", "memory bandwidth",
         "HBM bandwidth below its fair share: MPS co-tenants' memory-bound kernels thrashing the L2 "
         "(mps_memory_contention)",
         &PenaltyBreakdown::memoryBandwidth},
        {"context_switch", "context switch",
         "Time-sliced GPUs: the switch and the L2/TLB warm-up each turn costs "
         "(time_slice_switch_us, time_slice_cache_refill_us over time_slice_ms)",
         &PenaltyBreakdown::contextSwitch},
        {"pcie_network", "PCIe/network",
         "Host/PCIe and network transfers: the GPU's link shared with co-tenants transferring at "
         "the same moment, and a VM's IOMMU cost (virtualization_io_overhead_pct)",
         &PenaltyBreakdown::pcieNetwork},
        {"static_loss", "static loss",
         "MIG: SMs or memory bandwidth below the share of the GPU the instance's compute slices "
         "stand for (handed to no instance)",
         &PenaltyBreakdown::staticLoss},
    };
    return parts;
}

namespace {

/// The linear estimate of the shared step over the bare one: each resource's share of the
/// bare step over the share of that resource the unit gets.
double slowdownOf(const ResourceMix& m, const ResourceShares& s)
{
    return m.compute / s.compute + m.memory / s.bandwidth + m.network / s.network + m.other / s.time;
}

/// Splits `extra` (slowdown added by the co-tenants together) over them in proportion to
/// their weights.
void addByNeighbour(UnitInterference& u, const std::vector<CoTenant>& others, double extra,
                    double (*weight)(const CoTenant&))
{
    double sum = 0.0;
    for (const CoTenant& o : others)
        sum += weight(o);
    if (!(sum > 0) || !(extra > 0))
        return;
    for (const CoTenant& o : others) {
        const double w = weight(o);
        if (w <= 0)
            continue;
        auto it =
            std::find_if(u.byNeighbour.begin(), u.byNeighbour.end(), [&](const auto& e) { return e.first == o.job; });
        if (it == u.byNeighbour.end())
            u.byNeighbour.emplace_back(o.job, extra * w / sum);
        else
            it->second += extra * w / sum;
    }
}

/// Host/PCIe: the GPU's link is shared with the co-tenants transferring at the same moment.
double pcieShare(const std::vector<CoTenant>& others)
{
    double load = 0.0;
    for (const CoTenant& o : others)
        load += o.busy * o.mix.network;
    return 1.0 / (1.0 + load);
}

} // namespace

UnitInterference interferenceOf(const Slot& slot, const ResourceMix& self, const std::vector<CoTenant>& others,
                                const InterferenceParams& p)
{
    UnitInterference u;
    ResourceShares& s = u.shares;
    PenaltyBreakdown& parts = u.parts;
    const double c = self.compute + self.other, m = self.memory, n = self.network;
    switch (slot.mode) {
    case SharingMode::Exclusive: break;
    case SharingMode::Passthrough:
        u.assumptionsRead = p.ioRead;
        s.network = 1.0 / (1.0 + p.virtualizationIo);
        parts.pcieNetwork = n * p.virtualizationIo;
        break;
    case SharingMode::Mig: {
        // Its own SMs and memory slices: nothing of a neighbour's kernels reaches it. What it
        // is charged for is its compute slices' share (its size); SMs or bandwidth below that
        // share are the static loss of MIG mode (SMs and slices handed to no instance).
        const double nominal = slot.gpuFraction;
        s.compute = slot.smShare;
        s.bandwidth = slot.bandwidthShare;
        s.time = s.compute;
        s.spatial = true;
        s.network = pcieShare(others);
        const auto split = [&](double work, double actual, double& size, double& lost) {
            const double charged = std::max(actual, std::min(nominal, 1.0));
            size += work * (1.0 / charged - 1.0);
            lost += work * (1.0 / actual - 1.0 / charged);
        };
        split(c, s.compute, u.size.compute, parts.staticLoss);
        split(m, s.bandwidth, u.size.memoryBandwidth, parts.staticLoss);
        parts.pcieNetwork = n * (1.0 / s.network - 1.0);
        addByNeighbour(u, others, parts.pcieNetwork, [](const CoTenant& o) { return o.busy * o.mix.network; });
        break;
    }
    case SharingMode::Vgpu:
    case SharingMode::TimeSlicing: {
        // Turns: fixed-share splits the GPU among every slot the profile allows, equal-share
        // among the running vGPUs (busy or not), best-effort and time-slicing among the busy.
        const bool vgpu = slot.mode == SharingMode::Vgpu;
        double turns = 1.0;
        const bool fixed = vgpu && slot.fixedShareOf > 0;
        const bool equal = vgpu && slot.vgpuScheduler == VgpuScheduler::EqualShare;
        if (fixed)
            turns = slot.fixedShareOf;
        else
            for (const CoTenant& o : others)
                turns += equal ? 1.0 : o.busy;
        const double share = 1.0 / turns;
        const bool switching = turns > 1.0 + 1e-12;
        const double io = vgpu ? p.virtualizationIo : 0.0;
        u.assumptionsRead = (switching ? p.switchRead : AssumptionSet{}) | (vgpu ? p.ioRead : AssumptionSet{});
        s.compute = share * (switching ? 1.0 - p.switchCompute : 1.0);
        s.bandwidth = share * (switching ? 1.0 - p.switchMemory : 1.0);
        s.time = s.compute;
        s.network = share / (1.0 + io); // the PCIe link is the GPU's in its turns only
        // Its size: the turns it is charged for (one in as many as the GPU has slots); turns
        // beyond those, the switch and a VM's I/O are the overhead of sharing.
        const double sized = std::min(turns, slot.gpuFraction > 0 ? 1.0 / slot.gpuFraction : 1.0);
        u.size.compute = c * (sized - 1.0);
        u.size.memoryBandwidth = m * (sized - 1.0);
        u.size.pcieNetwork = n * (sized - 1.0);
        parts.compute = c * (turns - sized);
        parts.memoryBandwidth = m * (turns - sized);
        parts.contextSwitch = c * (1.0 / s.compute - turns) + m * (1.0 / s.bandwidth - turns);
        parts.pcieNetwork = n * (1.0 / s.network - sized);
        double (*turnOf)(const CoTenant&) =
            equal ? +[](const CoTenant&) { return 1.0; } : +[](const CoTenant& o) { return o.busy; };
        if (!fixed)
            addByNeighbour(u, others, parts.total() + u.size.total(), turnOf);
        break;
    }
    case SharingMode::Mps: {
        // SMs: each client asks for its active-thread share while its kernels are resident;
        // oversubscribed SMs are split in proportion. HBM: a memory-bound client shares the
        // bandwidth with the co-tenants' memory-bound kernels, and their L2 thrashing adds
        // `mpsContention` of DRAM traffic per overlapping client.
        const double own = std::clamp(slot.smShare, 1e-6, 1.0);
        double asked = own;
        double memoryLoad = 0.0;
        for (const CoTenant& o : others) {
            asked += o.busy * o.threadShare;
            memoryLoad += o.busy * o.mix.memory;
        }
        s.compute = own * std::min(1.0, 1.0 / asked);
        s.bandwidth = 1.0 / (1.0 + (1.0 + p.mpsContention) * memoryLoad);
        u.assumptionsRead = memoryLoad > 0 ? p.mpsRead : AssumptionSet{};
        s.time = s.compute;
        s.spatial = true;
        s.network = pcieShare(others);
        // Its size: the SMs its thread limit and its share of the GPU give it, and the fair
        // split of the bandwidth among the memory-bound clients (at least its share); the L2
        // thrashing beyond that split, oversubscribed SMs and the split PCIe link are overhead.
        const double dedicatedSms = std::max(s.compute, std::min(own, slot.gpuFraction));
        const double dedicatedBandwidth = std::min(1.0, std::max(slot.gpuFraction, 1.0 / (1.0 + memoryLoad)));
        u.size.compute = c * (1.0 / dedicatedSms - 1.0);
        u.size.memoryBandwidth = m * (1.0 / dedicatedBandwidth - 1.0);
        parts.compute = c * (1.0 / s.compute - 1.0 / dedicatedSms);
        parts.memoryBandwidth = m * (1.0 / s.bandwidth - 1.0 / dedicatedBandwidth);
        parts.pcieNetwork = n * (1.0 / s.network - 1.0);
        // The thread limit alone costs the client what it would lose with every co-tenant idle.
        const double contested = c * (1.0 / s.compute - 1.0 / own);
        addByNeighbour(u, others, contested, [](const CoTenant& o) { return o.busy * o.threadShare; });
        addByNeighbour(u, others, m * (1.0 / s.bandwidth - 1.0),
                       [](const CoTenant& o) { return o.busy * o.mix.memory; });
        addByNeighbour(u, others, parts.pcieNetwork, [](const CoTenant& o) { return o.busy * o.mix.network; });
        break;
    }
    }
    u.slowdown = slowdownOf(self, s);
    double byNeighbours = 0.0;
    for (const auto& [job, extra] : u.byNeighbour)
        byNeighbours += extra;
    u.aloneSlowdown = std::max(1.0, u.slowdown - byNeighbours);
    // Equal- and fixed-share vGPU schedulers keep a vGPU's turn whether its neighbours compute or not.
    if (slot.mode == SharingMode::Vgpu && (slot.fixedShareOf > 0 || slot.vgpuScheduler == VgpuScheduler::EqualShare))
        u.aloneSlowdown = u.slowdown;
    return u;
}

} // namespace gp::calc
