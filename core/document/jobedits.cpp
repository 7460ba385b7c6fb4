// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#include "jobedits.h"

#include "commands.h"
#include "rulesupport.h"

#include "calc/placementadvice.h"
#include "model/enumnames.h"
#include "model/format.h"
#include "model/ids.h"

namespace gp::document {

Result<Edit> duplicateJob(const Scenario& s, const Catalog& catalog, const std::string& jobId)
{
    for (const Tenant& t : s.tenants)
        for (const Job& j : t.jobs)
            if (j.id == jobId) {
                IdAllocator ids(s);
                Job copy = j;
                copy.id = ids.named(j.id + "-copy");
                copy.name = j.name + " (copy)";
                copy.pin.reset();
                EditBuilder b(s);
                b.add(copy, t.id);
                return rules::validated(std::move(b), catalog, "Duplicate " + j.name);
            }
    return Result<Edit>::failure("jobs[" + jobId + "]", "no job has this id");
}

Result<Edit> setJobParallelism(const Scenario& s, const Catalog& catalog, const std::string& jobId,
                               const Parallelism& parallelism, int microBatch)
{
    const Job* job = s.findJob(jobId);
    if (!job)
        return Result<Edit>::failure("jobs[" + jobId + "]", "no job has this id");
    Job changed = *job;
    changed.parallelism = parallelism;
    changed.batch.micro = microBatch;
    EditBuilder b(s);
    if (!b.update(changed))
        return Result<Edit>::failure("jobs[" + jobId + "].parallelism", "is that already");
    const Parallelism& p = parallelism;
    return rules::validated(std::move(b), catalog,
                            "Parallelism of " + job->name + ": TP " + std::to_string(p.tp) + ", PP " +
                                std::to_string(p.pp) + ", DP " + std::to_string(p.dp) +
                                (p.cp > 1 ? ", CP " + std::to_string(p.cp) : ""));
}

Result<Edit> setServingDeployment(const Scenario& s, const Catalog& catalog, const std::string& jobId,
                                  const calc::ServingConfig& c)
{
    const Job* job = s.findJob(jobId);
    if (!job || !job->inference)
        return Result<Edit>::failure("jobs[" + jobId + "]", "no serving job has this id");
    EditBuilder b(s);
    if (!b.update(calc::withServingConfig(*job, c)))
        return Result<Edit>::failure("jobs[" + jobId + "].parallelism", "is that already");
    return rules::validated(std::move(b), catalog,
                            "Deployment of " + job->name + ": TP " + std::to_string(c.tp) + " × " +
                                std::to_string(c.replicas) + " replicas" +
                                (c.ep > 1 ? ", EP " + std::to_string(c.ep) : "") + ", batch cap " +
                                std::to_string(c.batchCap) + ", " + std::string(enumName(c.precision)));
}

Result<Edit> placeJobBest(const Scenario& s, const Catalog& catalog, const std::string& jobId)
{
    const Result<calc::PlacementAdvice> advice = calc::bestNodeFor(s, catalog, jobId);
    if (!advice.ok())
        return Result<Edit>::failure(advice.issues);
    const Job* job = s.findJob(jobId);
    if (advice.value->alreadyThere && job && job->pin && job->pin->node == advice.value->node && !job->pin->gpu)
        return Result<Edit>::failure("jobs[" + jobId + "]",
                                     "already pinned to " + advice.value->node + ", the best of " +
                                         std::to_string(advice.value->candidates) + " kinds of node");
    Result<Edit> pinned = pinJob(s, catalog, jobId, Pin{advice.value->node, std::nullopt, std::nullopt});
    const Node* node = s.topology.findNode(advice.value->node);
    if (pinned.ok())
        pinned.value->text = "Place " + (job ? job->name : jobId) + " on " + (node ? node->name : advice.value->node) +
                             " (penalty " + fmt::percent(advice.value->penalty) + ", " +
                             fmt::usd(advice.value->costPerMonth) + "/month)";
    return pinned;
}

} // namespace gp::document
