// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#pragma once

#include "evaluation.h"
#include "memorymodel.h"

#include "model/catalog.h"
#include "model/scenario.h"

#include <optional>

namespace gp::calc {

/// The whole calculation for one validated scenario: memory per job, placement under the
/// scenario's policy (or `policy`), throughput on the slots it got against bare metal,
/// link loads, cluster KPIs and cost. Pure: same inputs, same result; no Qt.
Evaluation evaluate(const Scenario& scenario, const Catalog& catalog,
                    std::optional<PlacementPolicy> policy = std::nullopt);

/// What one job needs on each GPU it runs on, as evaluate() reckons it before placement: the
/// memory model (training) or the serving engine's weights, workspace and one longest sequence
/// (inference, whose KV cache then takes the engine's share of what is left).
struct JobMemoryNeed
{
    std::optional<ModelArchitecture> arch; ///< nullopt: the model preset is unknown
    MemoryBreakdown memory;
    double demandBytes = 0.0;          ///< what placement reserves per GPU (serving: over the engine's memory share)
    double servingFixedBytes = 0.0;    ///< serving: per GPU outside the KV cache
    double servingWantedKvBytes = 0.0; ///< serving: the KV cache of its whole concurrency per replica
    AssumptionSet assumptionsRead;     ///< what the memory figure read (JobResult::memoryAssumptions)
};
JobMemoryNeed jobMemoryNeed(const Job& job, const Scenario& scenario, const Catalog& catalog);

/// What keeps an evaluated plan from hosting every job within its SLA, in words: the first job
/// not placed and why, else the first outside its tenant's SLA and by how much (penalty against
/// the tenant's maximum, days against its deadline, or the serving latencies); empty when none.
std::string slaShortfall(const Scenario& scenario, const Evaluation& evaluation);

/// The latency-throughput curve of a placed serving job (closed load of 1, 2, 4, ... users)
/// on the GPUs and memory its placement gave it; empty for other jobs.
std::vector<ServingPoint> servingCurveOf(const JobResult& result, const Scenario& scenario, const Catalog& catalog);

} // namespace gp::calc
