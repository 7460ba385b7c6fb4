// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#include "alternatives.h"

#include "evaluate.h"
#include "model/enumnames.h"
#include "model/miglayout.h"
#include "slots.h"

#include <algorithm>
#include <map>
#include <set>

namespace gp::calc {

IsolationLevels isolationOf(SharingMode mode)
{
    // NVIDIA MIG User Guide ("Introduction": dedicated memory, cache and SMs, error
    // containment per instance); vGPU software user guide (framebuffer statically split,
    // per-VM faults; time-sliced scheduler shares the engines); CUDA MPS documentation
    // (clients share one context: a fatal fault ends all clients; a per-client pinned
    // memory limit and an active-thread percentage are optional, software-set limits);
    // Kubernetes GPU time-slicing (NVIDIA device plugin): "no memory or fault isolation".
    switch (mode) {
    case SharingMode::Exclusive: return {2, 2, 2};
    case SharingMode::Passthrough: return {2, 2, 2};
    case SharingMode::Mig: return {2, 2, 2};
    case SharingMode::Vgpu: return {2, 2, 1};
    case SharingMode::TimeSlicing: return {0, 0, 0};
    case SharingMode::Mps: return {1, 0, 1};
    }
    return {};
}

namespace {

struct Candidate
{
    std::string label;
    std::map<std::string, SharingConfig> byGpu; ///< gpu id -> setting; a GPU not listed keeps its nodes' sharing
};

/// The settings tried for one mode, per GPU type of the scenario.
std::vector<Candidate> candidates(SharingMode mode, const Scenario& s, const Catalog& catalog)
{
    std::vector<std::string> gpuIds;
    for (const Node& n : s.topology.nodes)
        if (std::find(gpuIds.begin(), gpuIds.end(), n.gpuId) == gpuIds.end())
            gpuIds.push_back(n.gpuId);

    // For every GPU type, its options; candidate k takes each type's k-th option (the last when it has fewer).
    std::map<std::string, std::vector<std::pair<std::string, SharingConfig>>> options;
    for (const std::string& id : gpuIds) {
        const GpuSpec* g = catalog.gpu(id);
        if (!g)
            continue;
        auto& o = options[id];
        SharingConfig c;
        c.mode = mode;
        switch (mode) {
        case SharingMode::Exclusive: o.push_back({"bare metal", c}); break;
        case SharingMode::Passthrough: o.push_back({"passthrough VM", c}); break;
        case SharingMode::Mig:
            for (const MigProfile& p : g->migProfiles) {
                const auto layouts = mig::enumerate(*g, {p.name}, true);
                if (layouts.empty())
                    continue;
                c.migInstances = layouts.front();
                o.push_back({p.name + " x" + std::to_string(c.migInstances.size()), c});
            }
            break;
        case SharingMode::Vgpu:
            for (const VgpuProfile& p : g->vgpuProfiles) {
                c.vgpuProfile = p.name;
                o.push_back({p.name, c});
            }
            break;
        case SharingMode::TimeSlicing:
            for (int r : {2, 4, 8}) {
                c.replicas = r;
                o.push_back({std::to_string(r) + " replicas", c});
            }
            break;
        case SharingMode::Mps:
            for (int pct : {100, 50, 25}) {
                c.mpsActiveThreadPct = pct;
                o.push_back({std::to_string(pct) + " % threads", c});
            }
            break;
        }
        if (o.empty())
            options.erase(id);
    }
    std::size_t count = 0;
    for (const auto& [id, o] : options)
        count = std::max(count, o.size());
    std::vector<Candidate> out(count);
    for (std::size_t k = 0; k < count; ++k) {
        std::set<std::string> labels; // GPU types with the same option name it once
        for (const auto& [id, o] : options) {
            const auto& [label, cfg] = o[std::min(k, o.size() - 1)];
            out[k].byGpu[id] = cfg;
            if (labels.insert(label).second)
                out[k].label += (out[k].label.empty() ? "" : ", ") + label;
        }
    }
    return out;
}

bool better(const Kpis& a, const Kpis& b)
{
    if (a.unplacedJobs != b.unplacedJobs)
        return a.unplacedJobs < b.unplacedJobs;
    if (a.allocationRatio != b.allocationRatio)
        return a.allocationRatio < b.allocationRatio; // the same mix in less of the cluster leaves more room
    if (a.meanPenalty != b.meanPenalty)
        return a.meanPenalty < b.meanPenalty;
    return a.vramUtilization > b.vramUtilization;
}

} // namespace

std::vector<SharingAlternative> compareSharing(const Scenario& scenario, const Catalog& catalog,
                                               const std::atomic<bool>* stop)
{
    Scenario base = scenario;
    for (Tenant& t : base.tenants)
        for (Job& j : t.jobs)
            if (j.pin)
                j.pin->migInstance.reset(); // an instance index means nothing under another layout
    for (Node& n : base.topology.nodes)
        n.gpuSharing.clear();

    Scenario bare = base;
    for (Node& n : bare.topology.nodes)
        n.sharing = SharingConfig{};
    const double bareBytes = offeredMemoryBytes(buildSlots(bare, catalog));

    std::vector<SharingAlternative> out;
    for (const auto& [mode, name] : EnumNames<SharingMode>::table) {
        SharingAlternative alt;
        alt.mode = mode;
        alt.isolation = isolationOf(mode);
        bool first = true;
        for (const Candidate& c : candidates(mode, base, catalog)) {
            if (stop && stop->load())
                return {};
            Scenario s = base;
            int kept = 0;
            for (Node& n : s.topology.nodes) {
                if (auto it = c.byGpu.find(n.gpuId); it != c.byGpu.end())
                    n.sharing = it->second;
                else
                    ++kept;
            }
            Evaluation e = evaluate(s, catalog);
            const Kpis k = e.kpis;
            ++alt.candidatesTried;
            if (first || better(k, alt.kpis)) {
                alt.kpis = k;
                alt.scenario = std::make_shared<const Scenario>(std::move(s));
                alt.evaluation = std::make_shared<const Evaluation>(std::move(e));
                alt.setting = c.label;
                alt.nodesKept = kept;
                alt.memoryOverhead =
                    bareBytes > 0
                        ? std::max(0.0, 1.0 - offeredMemoryBytes(buildSlots(*alt.scenario, catalog)) / bareBytes)
                        : 0.0;
                first = false;
            }
        }
        if (first) { // no GPU of the scenario offers this mode: nothing to show
            alt.offered = false;
            alt.setting = "not offered by these GPUs";
            alt.nodesKept = static_cast<int>(base.topology.nodes.size());
        }
        out.push_back(std::move(alt));
    }
    return out;
}

} // namespace gp::calc
