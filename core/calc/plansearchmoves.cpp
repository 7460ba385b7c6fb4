// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
// The plan search's job moves: each placed job's better parallelism or serving deployment, found
// by the job search (docs/model-reference.md, "Plan search").
#include "plansearchgroups.h"

#include "evaluate.h"
#include "jobsearch.h"

#include <algorithm>
#include <unordered_map>

namespace gp::calc::detail {

/// For each placed job: the fastest parallelism the job search finds on its GPU kind at its own
/// GPU count and at a half and a quarter of it (deadlines decide whether the slower ones do), or
/// the three serving deployments on the fewest GPUs that meet its tenant's objectives. Stops at
/// the deadline (each inner search too) with the moves found so far.
std::vector<JobMove> jobMoves(const Scenario& s, const Catalog& c, const Evaluation& ev, const JobIndex& index,
                              const Deadline& deadline, const JobChangeKinds& allow, bool& cut)
{
    std::unordered_map<std::string, const Node*> nodes;
    for (const Node& n : s.topology.nodes)
        nodes.emplace(n.id, &n);
    // Everything allowed: the best configuration(s); else more of them, the first allowed kept.
    const bool filtered = !(allow == JobChangeKinds{true, true, true});
    JobSearchOptions training{filtered ? 64 : 1, {}, deadline.stop, true, deadline.at};
    JobSearchOptions serving{filtered ? 256 : 3, {}, deadline.stop, true, deadline.at};
    auto allowed = [&](const Job& j, const Job& alt) {
        const JobChangeKinds k = kindsChanged(j, alt);
        return (k.parallelism || k.batch || k.precision) && within(k, allow);
    };
    std::vector<JobMove> out;
    cut = false;
    for (const JobResult& r : ev.jobs) {
        if (deadline.stopped() || deadline.passed()) {
            cut = true;
            break;
        }
        const Job* job = findJob(s, index, r.id);
        const auto node = r.placement.empty() ? nodes.end() : nodes.find(r.placement.front().node);
        if (!job || node == nodes.end() || !c.gpu(node->second->gpuId))
            continue;
        const Tenant& tenant = s.tenants[index.at(r.id).first];
        const JobSearchSetup base = jobSearchSetup(s, c, *job, *node->second, tenant.sla);
        const int gpus = std::max(job->parallelism.gpus(), 1);
        std::vector<Job> alternatives;
        if (job->isTraining()) {
            for (int count : {gpus, gpus / 2, gpus / 4}) {
                if (count < 1 || (count < gpus && gpus % count != 0))
                    continue;
                JobSearchSetup setup = base;
                setup.gpusMin = setup.gpusMax = count;
                const JobSearchResult found = searchJob(setup, training);
                cut = cut || found.cancelled;
                for (const JobConfig& config : found.top)
                    if (Job alt = withConfig(*job, config); allowed(*job, alt)) {
                        alternatives.push_back(alt);
                        break;
                    }
            }
        } else if (job->inference) {
            JobSearchSetup setup = base;
            setup.gpusMin = 1;
            setup.gpusMax = gpus;
            const ServingSearchResult found = searchServing(setup, serving);
            cut = cut || found.cancelled;
            for (const ServingConfig& d : found.top)
                if (Job alt = withServingConfig(*job, d); alternatives.size() < 3 && allowed(*job, alt))
                    alternatives.push_back(alt);
        }
        for (Job& j : alternatives) {
            if (j.parallelism.gpus() != gpus && j.pin && (j.pin->gpu || j.pin->migInstance))
                j.pin.reset(); // a pin to some of its GPUs no longer says where all of them go
            out.push_back({j.id, j});
        }
    }
    return out;
}

/// The scenario with job `m.jobId` run as `m.job`.
Scenario withJob(const Scenario& s, const JobIndex& index, const JobMove& m)
{
    Scenario out = s;
    const auto it = index.find(m.jobId);
    if (it != index.end())
        out.tenants[it->second.first].jobs[it->second.second] = m.job;
    return out;
}

} // namespace gp::calc::detail
