// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#pragma once

#include "study/measurementsvsplan.h"
#include "study/planvsmeasured.h"

#include <QSizeF>
#include <QString>

#include <optional>
#include <string>
#include <vector>

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
    /// The plan was edited after this comparison was made: its figures are an earlier version's.
    bool planEditedSince = false;
};

/// A figure in its unit as the view and the report print it: fractions as "42.0 %", watts whole,
/// the rest with two decimals and the unit.
QString measuredText(double value, const std::string& unit);
/// A difference (measured − predicted) ÷ predicted as "+35 %".
QString differenceText(double difference);

/// A page of the report: its title and the HTML it draws.
struct ReportPage
{
    QString title;
    QString html;
};

/// The report's "Plan vs measured" pages of `c`, laid out on pages of `area` at `pointSize`
/// (htmlpages.h): for telemetry the jobs' table, then the GPUs' (predicted and measured memory,
/// SM activity, link load where the exporter gives it, power), each quantity a row with its
/// difference, flagged rows first — highlighted, with the parameter that would explain them —
/// and the others with their note, each table continued over up to `maxPagesPerTable` pages and
/// the rest counted; then what could not be matched; for a measurements file its rows the same way.
std::vector<ReportPage> measuredComparisonPages(const MeasuredComparison& c, const QSizeF& area, int pointSize,
                                                int maxPagesPerTable = 4);

} // namespace gp::ui
