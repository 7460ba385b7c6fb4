// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#pragma once

#include "fabricindex.h"
#include "fragmentation.h"
#include "slots.h"

#include "model/catalog.h"
#include "model/scenario.h"

#include <array>
#include <optional>
#include <string>
#include <vector>

namespace gp::calc {

struct JobPlacement
{
    bool placed = false;
    std::string reason;     ///< why not, when not placed
    std::vector<int> slots; ///< indices into the slot list, group by group
};

struct PlacementOutcome
{
    std::vector<JobPlacement> jobs; ///< one per demand, same order
    std::vector<int> owner;         ///< per slot: the demand index using it, or -1
};

/// Places the demands in the order given (callers sort by pin, priority, size) with one of
/// the policies of docs/model-reference.md#placement. A demand that cannot be placed
/// whole takes nothing and says why.
/// `held` (optional, one entry per slot): slots already in use (>= 0) that nothing may take;
/// the outcome marks them kHeld.
/// `search`: best-fit and fragmentation-aware placement score each distinct node state once
/// (Indexed, nodestates.h) or every node (Scan); both place alike (tst_placementindex).
inline constexpr int kHeld = -2;
enum class PlacementSearch
{
    Indexed,
    Scan
};
PlacementOutcome placeJobs(const Scenario& scenario, const Catalog& catalog, const FabricIndex& fabric,
                           const std::vector<Slot>& slots, const std::vector<JobDemand>& demands,
                           PlacementPolicy policy, const std::vector<int>* held = nullptr,
                           PlacementSearch search = PlacementSearch::Indexed);

} // namespace gp::calc
