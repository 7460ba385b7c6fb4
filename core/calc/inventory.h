// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#pragma once

#include "model/catalog.h"
#include "model/scenario.h"

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace gp::calc {

/// What a scenario holds and what its GPUs cost to rent, before any workload model:
/// counts, memory, sharing modes and the price of the fleet. The headless main job prints
/// this for every sample; the full evaluation (memory fit, penalties, links) builds on it.
struct Inventory
{
    int nodes = 0;
    int switches = 0;
    int links = 0;
    int gpus = 0;
    double vramGiB = 0.0;                   ///< usable memory of all GPUs
    std::map<std::string, int> gpusByModel; ///< gpu id -> count
    std::map<SharingMode, int> gpusByMode;
    int migInstances = 0;
    int tenants = 0;
    int jobs = 0;
    long long gpusRequested = 0; ///< sum of tp x pp x dp over jobs
    double costPerHourUsd = 0.0;
    double costPerMonthUsd = 0.0;          ///< costPerHourUsd x kHoursPerMonth
    std::vector<std::string> unpricedGpus; ///< gpu ids with no price (counted as 0)

    static constexpr double kHoursPerMonth = 730.0; ///< 8,760 h / 12
};

/// A GPU model's price under a scenario's pricing, and where it comes from.
struct GpuHourPrice
{
    std::optional<double> usd; ///< $/GPU-hour; nullopt: no price (counted as $0)
    /// In words: "price preset Lambda Cloud on-demand 8-GPU instances (2025), as of 2025-06-01",
    /// "this scenario's price (pricing.gpu_hour_usd)", "ownership: …", or why there is none.
    std::string source;
};

/// $/GPU-hour of `gpuId` under the scenario's pricing. Owned: capex / (years x 8,760 h) +
/// TDP x PUE x $/kWh. Rented: the override, else the preset, else nullopt.
std::optional<double> gpuHourPrice(const Scenario& s, const Catalog& c, const std::string& gpuId);
/// The same price with its source (what the cost explanations name).
GpuHourPrice gpuHourPriceOf(const Scenario& s, const Catalog& c, const std::string& gpuId);

Inventory takeInventory(const Scenario& scenario, const Catalog& catalog);

} // namespace gp::calc
