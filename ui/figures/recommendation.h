// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#pragma once

#include "sim/planresults.h"

#include <QString>
#include <QStringList>

namespace gp::ui {

/// A recommended plan against the current one, in the figures a decision rests on: what
/// changes, what it saves per month, and what it costs in penalty and predictability. The same
/// page in the compare view ("Recommended vs current"), the comparison slides and the report.
struct PlanRecommendation
{
    QString currentName, recommendedName;
    QStringList changes;             ///< diffScenarios, one line each
    double costNowUsd = 0.0;         ///< per month
    double costThenUsd = 0.0;        ///< per month
    double savingsPerMonthUsd = 0.0; ///< now − then (negative: it costs more)
    double meanPenaltyNow = 0.0, meanPenaltyThen = 0.0;
    double maxPenaltyNow = 0.0, maxPenaltyThen = 0.0;
    double vramNow = 0.0, vramThen = 0.0;
    int outsideSlaNow = 0, outsideSlaThen = 0;  ///< jobs unplaced or outside their tenant's SLA
    double p95DaysNow = 0.0, p95DaysThen = 0.0; ///< the slowest job's P95 completion
    /// The largest chance that a tenant misses its deadline (0 without deadlines).
    double deadlineMissNow = 0.0, deadlineMissThen = 0.0;
};

/// From the two plans' results (complete or core: evaluation and Monte Carlo); the changes name
/// things as `catalog` does (diffScenarios).
PlanRecommendation recommend(const sim::PlanResults& current, const sim::PlanResults& recommended,
                             const Catalog& catalog);

/// The page as rich text (headings, one paragraph per question, the changes as a list of at most
/// `maxChanges` lines, the rest counted).
QString recommendationPageHtml(const PlanRecommendation& r, int maxChanges = 12);

/// Why a job is in trouble, the first cause that holds in this order (issue 36: the report and the
/// slides name them); None when it is not.
enum class JobTrouble
{
    None,
    NotPlaced,
    Saturated,  ///< a service whose queue grows without bound
    OutsideSla, ///< placed, but past its tenant's penalty limit, deadline or objectives
    OomRisk,    ///< within its SLA, on an overcommitted GPU
};
JobTrouble troubleOf(const calc::JobResult& job);

/// What a plan's own numbers recommend when nobody wrote a recommendation (issue 36: the slides
/// shipped a placeholder): the jobs in trouble by name and why (troubleOf), the planning target,
/// and where the money that does no work goes, largest part first. Plain text, one finding per line.
QString planFindings(const calc::Evaluation& evaluation);

} // namespace gp::ui
