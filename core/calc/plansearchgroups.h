// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
// Inside the plan search (core/calc, not for other callers): the groups of identical nodes it
// sets one sharing for, the index of jobs by id, and the list of a plan's changes against the
// scenario searched from (plansearchchanges.cpp), shared by the search (plansearch.cpp).
#pragma once

#include "plansearch.h"

#include "evaluation.h"
#include "model/catalog.h"
#include "model/miglayout.h"
#include "model/scenario.h"

#include <atomic>
#include <chrono>
#include <map>
#include <string>
#include <unordered_map>
#include <vector>

namespace gp::calc::detail {

/// Nodes alike in GPU model, GPU count and template: one group, one setting.
struct NodeGroup
{
    std::string gpuId;
    int gpuCount = 0;
    std::string templateId;
    std::string label; ///< "dgx-h100" (its template, else its GPU model)
    int size = 0;      ///< its nodes in the scenario as given
};

bool sameGroup(const Node& n, const NodeGroup& g);
/// "MIG 3g.40gb ×2": a MIG layout as the plan search names it.
std::string migLabel(const mig::Layout& layout);
/// A sharing setting as the plan search names it: "bare metal", "time-slicing ×4", "MPS 50 %",
/// "MIG 3g.40gb ×2", "vGPU H100XM-80C".
std::string sharingText(const SharingConfig& c);

/// Which kinds of setting `b` changes against `a`.
JobChangeKinds kindsChanged(const Job& a, const Job& b);
/// Whether every kind `changed` holds is `allowed`.
bool within(const JobChangeKinds& changed, const JobChangeKinds& allowed);

/// Where each job sits in a scenario (tenant and job index), by id: built once, valid for every
/// plan the search makes (moves change jobs and nodes, never which tenant holds which job), so a
/// plan of 10,000 jobs looks each up in constant time, not by a scan of all of them.
using JobIndex = std::unordered_map<std::string, std::pair<std::size_t, std::size_t>>;

JobIndex indexJobs(const Scenario& s);
/// The job `id` of `s` through `index`; null when it is not there.
const Job* findJob(const Scenario& s, const JobIndex& index, const std::string& id);

/// What the search knows beside the two scenarios to list the changes: the groups and the
/// reasons recorded when the moves were taken (by change key: "<group label>" for a sharing,
/// "<job id>" for a job).
struct ChangeContext
{
    const Scenario* original = nullptr;
    const Catalog* catalog = nullptr;
    const JobIndex* jobs = nullptr;
    const std::vector<NodeGroup>* groups = nullptr;
};

/// The plan's changes against the scenario searched from (PlanChange), with the reasons recorded
/// when the moves were taken.
std::vector<PlanChange> listChanges(const Scenario& plan, const ChangeContext& cx,
                                    const std::map<std::string, std::string>& reasons);

struct JobMove
{
    std::string jobId;
    Job job;
};

/// The time limit as the searches see it.
struct Deadline
{
    std::chrono::steady_clock::time_point at;
    const std::atomic<bool>* stop = nullptr;
    bool passed() const { return std::chrono::steady_clock::now() >= at; }
    bool stopped() const { return stop && stop->load(); }
};

/// For each placed job: the fastest parallelism the job search finds on its GPU kind at its own
/// GPU count and at a half and a quarter of it (deadlines decide whether the slower ones do), or
/// the three serving deployments on the fewest GPUs that meet its tenant's objectives. Stops at
/// the deadline (each inner search too) with the moves found so far (plansearchmoves.cpp).
std::vector<JobMove> jobMoves(const Scenario& s, const Catalog& c, const Evaluation& ev, const JobIndex& index,
                              const Deadline& deadline, const JobChangeKinds& allow, bool& cut);

/// The scenario with job `m.jobId` run as `m.job`.
Scenario withJob(const Scenario& s, const JobIndex& index, const JobMove& m);

} // namespace gp::calc::detail
