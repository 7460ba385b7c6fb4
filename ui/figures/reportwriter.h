// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#pragma once

#include "model/catalog.h"
#include "model/issue.h"
#include "model/scenario.h"
#include "planvsmeasuredpage.h"
#include "sim/planresults.h"

#include <QString>

namespace gp::ui {

/// The detailed report of one scenario as a PDF (vector text, charts and topology), the same
/// from the workbench and from `gpuplan-cli report`. Six A4 landscape pages: summary and
/// KPIs; topology; cost and memory; sharing trade-offs; predictability and jobs; assumptions.
/// Evaluates the scenario, runs a Monte Carlo of `trials` (CPU, seed 1) and the sharing
/// trade-off matrix. Needs a QApplication (widgets render the charts; offscreen works).
/// Drawn in memory and written through io::writeFileAtomically, so `pdfPath` is the whole report
/// or untouched.
/// Returns the error text, empty on success.
/// Writes the detailed PDF report of a plan from its results (the same figures the workbench
/// shows). With `current`, the plan is a recommendation in place of that one, and a seventh page,
/// "Recommended vs current", says what changes, what it saves and what it costs in penalty and
/// predictability (recommendation.h). With `measured`, the plan's last comparison with what its
/// cluster measured adds the pages "Plan vs measured" (planvsmeasuredpage.h): DCGM telemetry's
/// jobs and GPUs, a measurements file's rows, each table over as many pages as it needs.
Status writeReport(const sim::PlanResults& results, const Catalog& catalog, const QString& pdfPath,
                   const sim::PlanResults* current = nullptr, const MeasuredComparison* measured = nullptr);

/// The number of pages writeReport writes (one more with `current`, measuredReportPages() more).
inline constexpr int kReportPages = 6;

/// The number of "Plan vs measured" pages writeReport adds for `measured`.
int measuredReportPages(const MeasuredComparison& measured);

} // namespace gp::ui
