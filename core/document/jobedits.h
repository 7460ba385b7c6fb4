// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#pragma once

// Rules for a job as a whole, behind its context menu: a copy of it, its parallelism, and its
// best node.
#include "edit.h"

#include "calc/jobsearch.h"

#include "model/catalog.h"
#include "model/issue.h"
#include "model/scenario.h"

#include <string>

namespace gp::document {

/// A copy of the job in the same tenant, with a fresh id, named "… (copy)", unpinned.
Result<Edit> duplicateJob(const Scenario& s, const Catalog& catalog, const std::string& jobId);
/// Sets the job's parallelism and micro-batch (the job search's choice, calc/jobsearch.h), as one
/// undoable edit; refused with the reason when it breaks a rule or changes nothing.
Result<Edit> setJobParallelism(const Scenario& s, const Catalog& catalog, const std::string& jobId,
                               const Parallelism& parallelism, int microBatch);
/// Sets a serving job's deployment to the serving search's choice (TP, replicas, expert
/// parallelism, batch cap and precision: the job exactly as calc::withServingConfig made it for the
/// search), as one undoable edit; refused with the reason when it breaks a rule or changes nothing.
Result<Edit> setServingDeployment(const Scenario& s, const Catalog& catalog, const std::string& jobId,
                                  const calc::ServingConfig& config);
/// Pins the job to the node where it does best (calc::bestNodeFor); refused with the reason
/// when no node hosts it or it is there already.
Result<Edit> placeJobBest(const Scenario& s, const Catalog& catalog, const std::string& jobId);

} // namespace gp::document
