// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#pragma once

#include "scenario.h"

#include <string>
#include <vector>

namespace gp {

/// What differs from `a` to `b`, one readable line each, in the order nodes, switches, links,
/// tenants and jobs, pricing, placement policy and assumptions: "+ node node-009 (dgx-h100,
/// 8 GPUs)", "- switch leaf-03", "node-001 sharing: bare metal -> MIG 3g.40gb x2",
/// "job acme-ft parallelism: TP1 PP1 DP8 -> TP1 PP1 DP4". Positions on the canvas are left
/// out (they change nothing the plan computes). Empty when the plans are the same.
std::vector<std::string> diffScenarios(const Scenario& a, const Scenario& b);

/// "bare metal", "passthrough VM", "MIG 3g.40gb x2 + 1g.10gb", "vGPU A100D-20C", "time-slicing x4",
/// "MPS 50 % threads".
std::string describeSharing(const SharingConfig& sharing);

} // namespace gp
