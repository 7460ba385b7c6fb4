// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#pragma once

// What the Plan vs Measured view (planvsmeasureddialog.h) runs off the GUI thread: a check against
// telemetry, a measurements file beside the plan, or both (its Refresh), on a copy of the plan.
#include "study/measurementsvsplan.h"
#include "study/planvsmeasured.h"

#include "model/catalog.h"
#include "model/scenario.h"

#include <QString>

#include <atomic>
#include <optional>

namespace gp::ui::pvm {

/// What to compare: the telemetry `request`, the measurements `file` at `threshold`, or both.
struct ComparisonAsk
{
    std::optional<study::PlanCheckRequest> request; ///< its stop flag unset
    QString file;
    double threshold = 0.25;
};

/// What came back, each part where it was asked.
struct ComparisonOutcome
{
    ComparisonAsk asked;
    std::optional<study::PlanCheck> check;
    std::optional<study::MeasurementsVsPlan> measurements;
    QString problems; ///< the measurements file's, one a line
};

/// Runs `ask` against `scenario`: blocks on the network and the file; `stop` ends the telemetry's
/// wait early and skips the file.
ComparisonOutcome runComparison(const Scenario& scenario, const Catalog& catalog, const ComparisonAsk& ask,
                                const std::atomic<bool>& stop);

} // namespace gp::ui::pvm
