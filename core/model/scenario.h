#pragma once

#include "tenant.h"
#include "topology.h"

#include <map>
#include <string>
#include <vector>

namespace gp {

/// Which prices the cost model uses: a preset, with per-GPU overrides.
struct Pricing
{
    std::string preset; ///< price preset id, "" for none
    std::map<std::string, double> gpuHourUsd; ///< gpu id -> $/GPU-hour, wins over the preset
    bool operator==(const Pricing&) const = default;
};

/// A complete plan: the cluster, who runs what on it, and the assumptions it is judged by.
/// Plain data; the io layer reads and writes it, calc evaluates it.
struct Scenario
{
    static constexpr int kFormatVersion = 1;

    std::string name;
    std::string description;
    Topology topology;
    std::vector<Tenant> tenants;
    Pricing pricing;
    std::map<std::string, double> assumptions; ///< overrides of model defaults (assumptions.h)

    bool operator==(const Scenario&) const = default;
};

} // namespace gp
