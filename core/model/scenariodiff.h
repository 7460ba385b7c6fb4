// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#pragma once

#include "scenario.h"

#include <string>
#include <vector>

namespace gp {

struct Catalog;

/// What differs from `a` to `b`, one readable line each, in the order nodes, switches, links,
/// tenants and jobs, pricing, placement policy and assumptions: "+ node node-009 (dgx-h100,
/// 8 GPUs)", "- switch leaf-03", "node-001 sharing: bare metal -> MIG 3g.40gb x2",
/// "job acme-ft parallelism: TP1 PP1 DP8 -> TP1 PP1 DP4". Positions on the canvas are left
/// out (they change nothing the plan computes). Empty when the plans are the same. Without
/// `names` things are named by id (`compare --json`'s contract); with the catalog as a planner
/// knows them ("+ node dgx-h100-3 (NVIDIA DGX H100, 8 GPUs, bare metal)", "job Llama 3 8B full
/// fine-tune parallelism: … → …", "price preset: AWS EC2 on-demand, us-east-1 (2024) → …").
std::vector<std::string> diffScenarios(const Scenario& a, const Scenario& b, const Catalog* names = nullptr);

/// "bare metal", "passthrough VM", "MIG 3g.40gb x2 + 1g.10gb", "vGPU A100D-20C", "time-slicing x4",
/// "MPS 50 % threads".
std::string describeSharing(const SharingConfig& sharing);

} // namespace gp
