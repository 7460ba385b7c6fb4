// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#pragma once

// Rules for a job as a whole, behind its context menu: a copy of it, and its best node.
#include "edit.h"

#include "model/catalog.h"
#include "model/issue.h"
#include "model/scenario.h"

#include <string>

namespace gp::document {

/// A copy of the job in the same tenant, with a fresh id, named "… (copy)", unpinned.
Result<Edit> duplicateJob(const Scenario& s, const Catalog& catalog, const std::string& jobId);
/// Pins the job to the node where it does best (calc::bestNodeFor); refused with the reason
/// when no node hosts it or it is there already.
Result<Edit> placeJobBest(const Scenario& s, const Catalog& catalog, const std::string& jobId);

} // namespace gp::document
