// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#pragma once

#include "model/catalog.h"
#include "model/issue.h"
#include "model/scenario.h"

#include <string>

namespace gp::calc {

/// The node a job does best on, all else staying as it is (a job's "Best Placement").
struct PlacementAdvice
{
    std::string node;          ///< where to pin it
    double penalty = 0.0;      ///< its penalty there
    double costPerMonth = 0.0; ///< its $/month there
    bool meetsSla = true;
    int candidates = 0;        ///< distinct kinds of node tried (nodes alike in GPU, sharing and tenants count once)
    bool alreadyThere = false; ///< it runs on that node now
};

/// Tries the job pinned to each node (one of each kind: same GPU model, sharing and jobs on it)
/// with the whole plan evaluated, and keeps the node where it is placed, meets its tenant's
/// SLA, has the smallest penalty and then the smallest cost — its current node on a tie.
/// Fails, with the reason, when the job is unknown or no node can host it.
Result<PlacementAdvice> bestNodeFor(const Scenario& scenario, const Catalog& catalog, const std::string& jobId);

} // namespace gp::calc
