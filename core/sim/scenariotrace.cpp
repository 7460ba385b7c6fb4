// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#include "scenariotrace.h"

#include "calc/evaluate.h"
#include "model/units.h"

#include <algorithm>
#include <cmath>
#include <map>

namespace gp::sim {

ScenarioTrace traceOfScenario(const Scenario& s, const Catalog& catalog)
{
    ScenarioTrace t;
    std::map<std::string, int> gpusByModel;
    int largestNode = 1;
    for (const Node& n : s.topology.nodes) {
        t.nodes.push_back({n.id, 1'000'000'000, 1'000'000'000'000'000LL, std::max(n.gpuCount, 0), n.gpuId});
        gpusByModel[n.gpuId] += std::max(n.gpuCount, 0);
        largestNode = std::max(largestNode, n.gpuCount);
    }
    const auto common = std::max_element(gpusByModel.begin(), gpusByModel.end(),
                                         [](const auto& a, const auto& b) { return a.second < b.second; });
    const GpuSpec* gpu = common == gpusByModel.end() ? nullptr : catalog.gpu(common->first);
    const double usable = gpu ? gpu->memoryUsableGiB * kGiB : 0.0;
    for (const Tenant& tenant : s.tenants)
        for (const Job& job : tenant.jobs) {
            const calc::JobMemoryNeed need = calc::jobMemoryNeed(job, s, catalog);
            if (!need.arch)
                continue;
            const int gpus = std::max(job.parallelism.gpus(), 1);
            if (gpus == 1) {
                const double share = usable > 0 ? need.demandBytes / usable : 1.0;
                const int milli = std::clamp(static_cast<int>(std::ceil(share * 1000.0)), 1, 1000);
                t.tasks.push_back({job.id, 0, 0, 1, milli, {}, 0});
                continue;
            }
            for (int left = gpus; left > 0; left -= largestNode)
                t.tasks.push_back({job.id, 0, 0, std::min(left, largestNode), 1000, {}, 0});
        }
    return t;
}

} // namespace gp::sim
