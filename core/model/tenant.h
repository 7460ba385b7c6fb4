#pragma once

#include "job.h"

#include <optional>
#include <string>
#include <vector>

namespace gp {

/// What a tenant was promised.
struct Sla
{
    double maxPenaltyPct = 5.0;         ///< largest acceptable slowdown against bare metal
    std::optional<double> deadlineDays; ///< jobs should finish within this many days
    bool operator==(const Sla&) const = default;
};

struct Tenant
{
    std::string id;
    std::string name;
    std::string color = "#4e79a7"; ///< #RRGGBB
    int priority = 0;              ///< higher is placed first
    Sla sla;
    std::vector<Job> jobs;
    bool operator==(const Tenant&) const = default;
};

} // namespace gp
