// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#pragma once

#include "job.h"

#include <optional>
#include <string>
#include <vector>

namespace gp {

/// What a tenant was promised.
struct Sla
{
    double maxPenaltyPct = 5.0; ///< largest acceptable sharing overhead (penalty) against the same resources dedicated
    std::optional<double> deadlineDays; ///< jobs should finish within this many days
    std::optional<double> ttftP99Ms;    ///< serving: 99th percentile of time to first token
    std::optional<double> itlP99Ms;     ///< serving: 99th percentile of inter-token latency
    bool operator==(const Sla&) const = default;
};

/// How far a tenant's jobs must be kept apart from other work on the GPUs they run on
/// (docs/model-reference.md, "Isolation"): `Memory` — only where the share has memory of its own
/// (whole GPUs, MIG instances, vGPUs, MPS clients with a memory limit; not time-slicing);
/// `Hardware` — only where the SMs, memory and faults are its own (whole GPUs, MIG instances).
enum class Isolation
{
    None,
    Memory,
    Hardware
};

/// Jobs a tenant keeps submitting, for the timeline simulation: Poisson arrivals of copies of
/// one of its jobs, with lognormal durations.
struct ArrivalProcess
{
    std::string templateJob; ///< id of the tenant's job each arrival copies
    double jobsPerDay = 1.0;
    double durationMedianH = 24.0;
    double durationSigma = 0.5; ///< of the duration's logarithm
    bool operator==(const ArrivalProcess&) const = default;
};

struct Tenant
{
    std::string id;
    std::string name;
    std::string color = "#4e79a7"; ///< #RRGGBB
    int priority = 0;              ///< higher is placed first
    Sla sla;
    Isolation isolation = Isolation::None; ///< where its jobs may be placed
    std::vector<Job> jobs;
    std::optional<ArrivalProcess> arrivals;
    /// How often its jobs keep a shared GPU busy, as the jobs sharing it feel it (format 4;
    /// docs/model-reference.md#co-tenant-busy-fraction); unset: the scenario's
    /// cotenant_busy_fraction. A calibration fits it per tenant ("tenant.ID.busy_fraction").
    std::optional<double> busyFraction;
    bool operator==(const Tenant&) const = default;
};

} // namespace gp
