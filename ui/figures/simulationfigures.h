// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#pragma once

#include "model/scenario.h"
#include "sim/simulation.h"
#include "sim/timeline.h"

#include <QString>

#include <map>
#include <string>
#include <vector>

class QChart;

namespace gp::ui {

/// The predictability charts as functions of the simulations' results: the workbench's
/// CompletionView and TimelineView and the report's and slides' pages draw them alike.

/// Each job's name and its tenant's deadline in days (when it has one), for the completion chart.
struct CompletionLabels
{
    std::map<std::string, std::string> names;
    std::map<std::string, double> deadlines;
};
CompletionLabels completionLabels(const Scenario& scenario);
/// The training jobs a completion chart offers, slowest (by P95) first.
std::vector<const sim::JobSimulation*> completionJobs(const sim::SimulationResult& result);
/// The completion-time distribution of `job` (nullptr: none) of `result`: a histogram of days
/// with the P50 and P95 marked and the deadline when it has one. `name` titles it. Returns the
/// summary line under the chart.
QString drawCompletionChart(QChart* chart, const sim::SimulationResult* result, const sim::JobSimulation* job,
                            const QString& name, const CompletionLabels& labels);
/// Allocation, fragmentation and VRAM use over `horizonDays`. Returns the summary line.
QString drawTimelineChart(QChart* chart, const sim::TimelineResult& timeline, double horizonDays);
/// A chart's look in the workbench's bottom dock and on pages: themed, its legend beside the plot.
void themeSimulationChart(QChart* chart);

} // namespace gp::ui
