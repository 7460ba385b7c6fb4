// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#include "explaininputs.h"

#include "kpiregistry.h"

#include "model/format.h"

#include <algorithm>
#include <set>

namespace gp::calc {

namespace {

/// A placed job's performance record; one not placed, its memory's (what kept it out).
AssumptionSet performanceOrMemory(const JobResult& j)
{
    return j.placed ? j.performanceAssumptions : j.memoryAssumptions;
}

} // namespace

std::vector<std::string> assumptionsBehindKpi(const std::string& key, const Evaluation& ev)
{
    AssumptionSet read;
    if (key == "vram_utilization") {
        for (const JobResult& j : ev.jobs)
            if (j.placed)
                read |= j.memoryAssumptions;
    } else if (key == "unplaced_jobs") {
        for (const JobResult& j : ev.jobs)
            if (!j.placed)
                read |= j.memoryAssumptions;
    } else if (key == "compute_utilization" || key == "mean_penalty" || key == "waste_per_month_usd") {
        // The waste's idle and stranded parts are the placement's; its sharing overhead is each
        // placed job's cost × penalty ÷ (1 + penalty).
        for (const JobResult& j : ev.jobs)
            if (j.placed)
                read |= j.performanceAssumptions;
    } else if (key == "max_penalty") {
        // The job whose penalty it is: the first of the largest, as the explanation names it.
        const JobResult* top = nullptr;
        for (const JobResult& j : ev.jobs)
            if (j.placed && (!top || j.penalty > top->penalty))
                top = &j;
        if (top)
            read = top->performanceAssumptions;
    } else if (key == "sla_violations") {
        // Every job is judged: a placed one by its penalty and latencies, one not placed misses.
        for (const JobResult& j : ev.jobs)
            read |= performanceOrMemory(j);
    } else if (key == "serving_slo_attainment") {
        for (const JobResult& j : ev.jobs)
            if (j.serving)
                read |= j.performanceAssumptions;
    } else if (const KpiSpec* spec = findKpi(key)) {
        return spec->assumptions;
    }
    return read.keys();
}

std::vector<std::string> assumptionsBehindJob(const std::string& figure, const JobResult& j)
{
    return figure == "penalty" ? performanceOrMemory(j).keys() : std::vector<std::string>{};
}

std::vector<std::string> assumptionsBehindGpu(const std::string& nodeId, int gpu, const Evaluation& ev)
{
    AssumptionSet read;
    for (const JobResult& j : ev.jobs)
        if (std::any_of(j.placement.begin(), j.placement.end(),
                        [&](const UnitLocation& u) { return u.node == nodeId && u.gpu == gpu; }))
            read |= j.memoryAssumptions;
    return read.keys();
}

std::vector<PriceUsed> pricesBehind(const Scenario& s, const Catalog& c, const std::vector<std::string>& gpuIds)
{
    std::vector<PriceUsed> out;
    std::set<std::string> seen;
    for (const std::string& id : gpuIds) {
        if (id.empty() || !seen.insert(id).second)
            continue;
        const GpuSpec* g = c.gpu(id);
        out.push_back({id, g && !g->name.empty() ? g->name : id, gpuHourPriceOf(s, c, id)});
    }
    return out;
}

std::vector<std::string> gpuModelsOf(const Scenario& s)
{
    std::set<std::string> ids;
    for (const Node& n : s.topology.nodes)
        if (n.gpuCount > 0)
            ids.insert(n.gpuId);
    return {ids.begin(), ids.end()};
}

std::string priceText(const PriceUsed& p)
{
    return p.gpuName + ": " +
           (p.price.usd ? "$" + fmt::fixed(*p.price.usd, 2) + "/GPU-hour (" + p.price.source + ")"
                        : "no price (" + p.price.source + ")");
}

} // namespace gp::calc
