// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#pragma once

#include "calc/evaluation.h"
#include "model/catalog.h"
#include "model/scenario.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace gp::sim {

struct TimelineConfig
{
    double horizonDays = 30.0;
    double sampleHours = 1.0;              ///< spacing of the regular samples
    std::optional<double> defragThreshold; ///< fragmentation above which running jobs are repacked
    std::uint64_t seed = 1;                ///< for tenants' generated arrivals
    /// Place the queue at every event even when nothing changed since it last failed (the
    /// straightforward loop; tests compare the default, which skips those, with it).
    bool retryUnchangedQueue = false;
};

struct TimelinePoint
{
    double hours = 0;
    double allocation = 0;      ///< GPU share held by running jobs / GPUs
    double vramUtilization = 0; ///< memory running jobs need / usable VRAM
    double fragmentation = 0;   ///< share of free capacity the job mix cannot use
    int queued = 0;
    int running = 0;
};

struct TimelineJob
{
    std::string id;
    double arrivalH = 0;
    std::optional<double> startH; ///< unset: still queued at the horizon
    std::optional<double> endH;   ///< unset: still running at the horizon
    int migrations = 0;
};

struct TimelineResult
{
    std::vector<TimelinePoint> series;
    std::vector<TimelineJob> jobs;
    double meanWaitH = 0; ///< over jobs that started
    int started = 0;
    int maxQueued = 0;
    int migrations = 0;
    double meanAllocation = 0; ///< time-weighted over the horizon
    double meanFragmentation = 0;
};

/// Discrete-event timeline over the horizon: jobs arrive at schedule.arrival_h (and tenants
/// with an arrival process keep submitting copies of their template job: Poisson arrivals,
/// lognormal durations, drawn from Philox keyed by the seed), wait in a
/// queue (by tenant priority, then arrival) until the placement policy finds them room on the
/// free slots, run for schedule.duration_h (or, when 0, the days evaluate() gives them; serving
/// jobs until the horizon) and release their slots. With a defragmentation threshold, when
/// jobs wait and fragmentation exceeds it, the running jobs are repacked from scratch by best
/// fit together with the queue; it is kept only if every running job still fits and more
/// queued jobs start, and each moved job pays the restart_overhead_min assumption (moved at a
/// checkpoint).
TimelineResult runTimeline(const Scenario& scenario, const Catalog& catalog, const calc::Evaluation& evaluation,
                           const TimelineConfig& config);

} // namespace gp::sim
