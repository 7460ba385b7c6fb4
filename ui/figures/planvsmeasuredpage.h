// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#pragma once

#include "study/measurementsvsplan.h"
#include "study/planvsmeasured.h"

#include <QString>

#include <optional>
#include <string>

namespace gp::ui {

/// The last plan-vs-measured comparison of a plan (issue 38): DCGM telemetry from Prometheus
/// (study::checkPlan), a measurements file (study::compareMeasurements), or both; what the
/// workbench's Plan vs Measured view made in the session, or what `gpuplan-cli report
/// --check-plan/--measurements` reads. The report draws it as its "Plan vs measured" pages.
struct MeasuredComparison
{
    std::optional<study::PlanVsMeasured> telemetry;
    std::optional<study::MeasurementsVsPlan> measurements;
    QString when; ///< when it was made, "2026-12-05 12:30 UTC" ("" unknown)
    bool empty() const { return !telemetry && !measurements; }
    /// The report's pages it fills: one per part.
    int pages() const { return (telemetry ? 1 : 0) + (measurements ? 1 : 0); }
};

/// A figure in its unit as the view and the report print it: fractions as "42.0 %", watts whole,
/// the rest with two decimals and the unit.
QString measuredText(double value, const std::string& unit);
/// A difference (measured − predicted) ÷ predicted as "+35 %".
QString differenceText(double difference);

/// The report page of a check against telemetry: per job predicted, measured and difference,
/// flagged rows first and marked with the parameter that would explain them, at most `maxRows`
/// rows (the rest counted), then what could not be matched.
QString planVsMeasuredHtml(const study::PlanVsMeasured& r, int maxRows = 24);
/// The report page of a measurements file beside the plan, in the same shape.
QString measurementsVsPlanHtml(const study::MeasurementsVsPlan& r, int maxRows = 26);

} // namespace gp::ui
