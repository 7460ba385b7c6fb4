// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#include "slots.h"
#include "model/units.h"

#include <map>

#include <algorithm>

namespace gp::calc {

int nvlinkDomainGpus(const Node& node, const Catalog& catalog)
{
    if (const NodeTemplate* t = catalog.nodeTemplate(node.templateId))
        if (t->gpuId == node.gpuId)
            return std::max(1, std::min(t->scaleUpDomainGpus, node.gpuCount));
    const GpuSpec* g = catalog.gpu(node.gpuId);
    const bool nvlink = g && g->scaleUpKind.rfind("nvlink", 0) == 0 && g->scaleUpKind != "nvlink-bridge";
    return nvlink || (g && g->scaleUpKind == "infinity-fabric") ? std::max(node.gpuCount, 1) : 1;
}

int rackDomainGpus(const Topology& topology, const Node& node)
{
    if (node.group.empty())
        return 0;
    const auto g = std::find_if(topology.groups.begin(), topology.groups.end(),
                                [&](const Group& h) { return h.id == node.group; });
    if (g == topology.groups.end() || !g->isNvlinkDomain())
        return 0;
    int gpus = 0;
    for (const Node& n : topology.nodes)
        if (n.group == node.group)
            gpus += std::max(n.gpuCount, 0);
    return gpus;
}

std::vector<Slot> buildSlots(const Scenario& scenario, const Catalog& catalog)
{
    std::vector<Slot> out;
    const auto& nodes = scenario.topology.nodes;
    for (int n = 0; n < static_cast<int>(nodes.size()); ++n) {
        const Node& node = nodes[static_cast<std::size_t>(n)];
        const GpuSpec* gpu = catalog.gpu(node.gpuId);
        if (!gpu)
            continue;
        const double gpuBytes = gpu->memoryUsableGiB * kGiB;
        for (int g = 0; g < node.gpuCount; ++g) {
            const SharingConfig& c = node.sharingOf(g);
            Slot base;
            base.node = n;
            base.gpu = g;
            base.mode = c.mode;
            base.capacityBytes = gpuBytes;
            switch (c.mode) {
            case SharingMode::Exclusive:
            case SharingMode::Passthrough: out.push_back(base); break;
            case SharingMode::Mig:
                for (int i = 0; i < static_cast<int>(c.migInstances.size()); ++i) {
                    const MigProfile* p = gpu->migProfile(c.migInstances[static_cast<std::size_t>(i)].profile);
                    if (!p)
                        continue;
                    Slot s = base;
                    s.index = i;
                    s.capacityBytes = p->usableGiB * kGiB;
                    s.gpuFraction = static_cast<double>(p->computeSlices) / 7.0;
                    s.smShare = static_cast<double>(p->smCount) / std::max(gpu->smCount, 1);
                    s.bandwidthShare = static_cast<double>(p->memorySlices) / 8.0;
                    s.peerToPeer = false; // MIG instances have no NVLink peer access (MIG User Guide)
                    s.profile = &p->name;
                    s.start = c.migInstances[static_cast<std::size_t>(i)].start;
                    out.push_back(s);
                }
                break;
            case SharingMode::Vgpu: {
                const VgpuProfile* p = gpu->vgpuProfile(c.vgpuProfile);
                if (!p)
                    break;
                for (int i = 0; i < p->maxPerGpu; ++i) {
                    Slot s = base;
                    s.index = i;
                    s.capacityBytes = std::min(p->framebufferGiB * kGiB, gpuBytes);
                    s.gpuFraction = 1.0 / p->maxPerGpu;
                    s.peerToPeer = p->maxPerGpu == 1; // NVLink P2P only with full-framebuffer profiles
                    s.fixedShareOf = c.vgpuScheduler == VgpuScheduler::FixedShare ? p->maxPerGpu : 0;
                    s.vgpuScheduler = c.vgpuScheduler;
                    s.profile = &p->name;
                    out.push_back(s);
                }
                break;
            }
            case SharingMode::TimeSlicing:
                for (int i = 0; i < c.replicas; ++i) {
                    Slot s = base;
                    s.index = i;
                    s.memoryIsolated = false;
                    s.gpuFraction = 1.0 / c.replicas;
                    out.push_back(s);
                }
                break;
            case SharingMode::Mps: {
                const int clients = std::max(1, 100 / std::max(c.mpsActiveThreadPct, 1));
                for (int i = 0; i < clients; ++i) {
                    Slot s = base;
                    s.index = i;
                    s.memoryIsolated = c.mpsMemoryLimitGiB.has_value();
                    if (c.mpsMemoryLimitGiB)
                        s.capacityBytes = std::min(*c.mpsMemoryLimitGiB * kGiB, gpuBytes);
                    s.gpuFraction = 1.0 / clients;
                    s.smShare = std::min(1.0, c.mpsActiveThreadPct / 100.0);
                    out.push_back(s);
                }
                break;
            }
            }
        }
    }
    return out;
}

double offeredMemoryBytes(const std::vector<Slot>& slots)
{
    std::map<std::pair<int, int>, std::pair<double, double>> perGpu; // (node, gpu) -> (isolated sum, shared max)
    for (const Slot& s : slots) {
        auto& [isolated, shared] = perGpu[{s.node, s.gpu}];
        if (s.memoryIsolated)
            isolated += s.capacityBytes;
        else
            shared = std::max(shared, s.capacityBytes);
    }
    double total = 0.0;
    for (const auto& [gpu, bytes] : perGpu)
        total += bytes.second > 0.0 ? bytes.second : bytes.first;
    return total;
}

std::string Slot::label() const
{
    switch (mode) {
    case SharingMode::Exclusive:
    case SharingMode::Passthrough: return "GPU";
    case SharingMode::Mig: return (profile ? *profile : std::string("?")) + "@" + std::to_string(start);
    case SharingMode::Vgpu: return (profile ? *profile : std::string("?")) + " #" + std::to_string(index);
    case SharingMode::TimeSlicing: return "replica " + std::to_string(index);
    case SharingMode::Mps: return "MPS client " + std::to_string(index);
    }
    return {};
}

} // namespace gp::calc
