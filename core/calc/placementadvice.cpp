// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#include "placementadvice.h"

#include "evaluate.h"

#include "model/scenariodiff.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <optional>
#include <set>
#include <tuple>

namespace gp::calc {

namespace {

const JobResult* resultOf(const Evaluation& ev, const std::string& id)
{
    for (const JobResult& j : ev.jobs)
        if (j.id == id)
            return &j;
    return nullptr;
}

} // namespace

Result<PlacementAdvice> bestNodeFor(const Scenario& scenario, const Catalog& catalog, const std::string& jobId)
{
    using R = Result<PlacementAdvice>;
    Scenario trial = scenario;
    Job* job = trial.findJob(jobId);
    if (!job)
        return R::failure("jobs[" + jobId + "]", "no job has this id");
    // Where everything runs now (this job too: where its pin or the policy put it).
    const Evaluation now = evaluate(scenario, catalog);
    const JobResult* current = resultOf(now, jobId);
    std::set<std::string> currentNodes;
    if (current)
        for (const UnitLocation& u : current->placement)
            currentNodes.insert(u.node);
    std::map<std::string, std::set<std::string>> others; // node -> the other jobs on it
    for (const JobResult& j : now.jobs)
        if (j.id != jobId)
            for (const UnitLocation& u : j.placement)
                others[u.node].insert(j.id);
    std::set<std::string> kinds;
    PlacementAdvice best;
    bool found = false;
    // Placed, within the SLA, then the smallest penalty, then the smallest cost; the node it
    // is on now wins a tie.
    auto key = [](const JobResult& r, bool there) {
        return std::make_tuple(!r.placed, !r.meetsSla, std::round(r.penalty * 1e6), std::round(r.costPerMonthUsd),
                               !there);
    };
    std::optional<decltype(key(JobResult{}, false))> bestKey;
    for (const Node& n : scenario.topology.nodes) {
        std::string kind = n.gpuId + "|" + describeSharing(n.sharing);
        for (const auto& [gpu, cfg] : n.gpuSharing)
            kind += "|" + std::to_string(gpu) + ":" + describeSharing(cfg);
        for (const std::string& other : others[n.id])
            kind += "|" + other;
        if (!currentNodes.count(n.id) && !kinds.insert(kind).second)
            continue;
        job->pin = Pin{n.id, std::nullopt, std::nullopt};
        const Evaluation ev = evaluate(trial, catalog);
        const JobResult* r = resultOf(ev, jobId);
        ++best.candidates;
        if (!r || !r->placed)
            continue;
        const bool there = currentNodes.count(n.id) > 0;
        const auto k = key(*r, there);
        if (!bestKey || k < *bestKey) {
            bestKey = k;
            best.node = n.id;
            best.penalty = r->penalty;
            best.costPerMonth = r->costPerMonthUsd;
            best.meetsSla = r->meetsSla;
            best.alreadyThere = there;
            found = true;
        }
    }
    if (!found)
        return R::failure("jobs[" + jobId + "]",
                          "no node can host it: pinned to each kind of node in turn (" +
                              std::to_string(best.candidates) + "), it was never placed" +
                              (currentNodes.size() > 1 ? "; it runs on " + std::to_string(currentNodes.size()) +
                                                             " nodes now, and a pin keeps a job on one node"
                                                       : std::string()));
    return R::success(best);
}

} // namespace gp::calc
