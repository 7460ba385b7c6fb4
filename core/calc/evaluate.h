// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#pragma once

#include "evaluation.h"

#include "model/catalog.h"
#include "model/scenario.h"

#include <optional>

namespace gp::calc {

/// The whole calculation for one validated scenario: memory per job, placement under the
/// scenario's policy (or `policy`), throughput on the slots it got against bare metal,
/// link loads, cluster KPIs and cost. Pure: same inputs, same result; no Qt.
Evaluation evaluate(const Scenario& scenario, const Catalog& catalog,
                    std::optional<PlacementPolicy> policy = std::nullopt);

/// The latency-throughput curve of a placed serving job (closed load of 1, 2, 4, ... users)
/// on the GPUs and memory its placement gave it; empty for other jobs.
std::vector<ServingPoint> servingCurveOf(const JobResult& result, const Scenario& scenario, const Catalog& catalog);

} // namespace gp::calc
