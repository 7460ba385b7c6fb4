// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#pragma once

#include "calibrationprofile.h"
#include "tenant.h"
#include "topology.h"

#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace gp {

/// Owning the GPUs instead of renting them: capital cost spread over a period, plus power.
struct Ownership
{
    double capexPerGpuUsd = 0.0; ///< purchase price per GPU, its share of the server and network
    double amortizationYears = 4.0;
    double pue = 1.3; ///< data-centre power usage effectiveness
    double usdPerKwh = 0.10;
    bool operator==(const Ownership&) const = default;
};

/// Which prices the cost model uses: a preset with per-GPU overrides, or ownership.
struct Pricing
{
    std::string preset;                       ///< price preset id, "" for none
    std::map<std::string, double> gpuHourUsd; ///< gpu id -> $/GPU-hour, wins over the preset
    std::optional<Ownership> ownership;       ///< when set, replaces rental prices
    bool operator==(const Pricing&) const = default;
};

/// How jobs are placed onto GPUs (core/calc/placement.h).
enum class PlacementPolicy
{
    FirstFit,
    BestFit,
    TopologyAware,
    FragmentationAware
};

/// A complete plan: the cluster, who runs what on it, and the assumptions it is judged by.
/// Plain data; the io layer reads and writes it, calc evaluates it.
struct Scenario
{
    static constexpr int kFormatVersion = 6; ///< io/scenariomigrations reads every earlier one

    std::string name;
    std::string description;
    Topology topology;
    std::vector<Tenant> tenants;
    Pricing pricing;
    PlacementPolicy placementPolicy = PlacementPolicy::TopologyAware;
    std::map<std::string, double> assumptions; ///< overrides of model defaults (assumptions.h)
    /// The calibration profile the plan is evaluated with (format 4; docs/calibration.md#a-scenarios-profile):
    /// calc::evaluate applies its values over the catalog's and the assumptions (withCalibration)
    /// and marks what it changed. A copy, so the file is whole without the library it came from.
    std::optional<CalibrationProfile> calibration;

    bool operator==(const Scenario&) const = default;

    /// The tenant or job with this id; null when there is none (linear searches, as
    /// Topology::findNode).
    const Tenant* findTenant(const std::string& id) const
    {
        for (const Tenant& t : tenants)
            if (t.id == id)
                return &t;
        return nullptr;
    }
    Tenant* findTenant(const std::string& id)
    {
        return const_cast<Tenant*>(
            std::as_const(*this).findTenant(id)); // NOLINT(cppcoreguidelines-pro-type-const-cast)
    }
    const Job* findJob(const std::string& id) const
    {
        for (const Tenant& t : tenants)
            for (const Job& j : t.jobs)
                if (j.id == id)
                    return &j;
        return nullptr;
    }
    Job* findJob(const std::string& id)
    {
        return const_cast<Job*>(std::as_const(*this).findJob(id)); // NOLINT(cppcoreguidelines-pro-type-const-cast)
    }
};

} // namespace gp
