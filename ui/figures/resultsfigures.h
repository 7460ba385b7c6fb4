// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#pragma once

#include "calc/alternatives.h"
#include "calc/evaluation.h"
#include "model/scenario.h"

#include <QColor>
#include <QString>
#include <QStringList>

#include <cstddef>
#include <vector>

class QChart;

namespace gp::ui {

/// The trade-off charts of one evaluation as functions of the results (architecture.md §9.4):
/// the workbench's results panel (ResultsCharts, `docked`) and the report's and slides' pages
/// (PlanFigures) draw the same charts with them. Each empties its chart first (clearChart). Those
/// that can have nothing to show on a plan return why in one line (issue 36, item 7: a chart of
/// no bars or of bars too short to see said nothing), or an empty string when they show something;
/// the workbench's panel shows that line in the chart's place (ResultsCharts::note).
enum class ResultsChart
{
    Cost,
    Memory,
    TradeOff,
    Links,
    SharingModes
};
/// The chart's name: the docked panel's tab, a page's chart title.
QString resultsChartTitle(ResultsChart chart);
/// The bars a bar chart shows of `available`: eight in the docked panel, twenty on a page.
int resultsBarsShown(std::size_t available, bool docked);

/// Where the money goes (useful, idle, stranded, overhead), one stacked bar; nothing without a cost.
QString drawCostChart(QChart* chart, const calc::Evaluation& evaluation);
/// Each job's memory per GPU by kind, largest first, its slot in the label; nothing without a job.
QString drawMemoryChart(QChart* chart, const Scenario& scenario, const calc::Evaluation& evaluation, bool docked);
/// Each placed job: how much of its GPU share its memory fills, against its penalty; nothing
/// without a placed job.
QString drawTradeOffChart(QChart* chart, const Scenario& scenario, const calc::Evaluation& evaluation, bool docked);
/// The busiest links (ten, eight when docked); nothing when no link carries traffic, or none
/// 1 % of its bandwidth (the bars would not show): the line says which link is busiest then.
QString drawLinksChart(QChart* chart, const calc::Evaluation& evaluation, bool docked);
/// The sharing alternatives as points (VRAM utilization against mean penalty) with the planning
/// target's zone and `current` (this scenario as it is).
void drawSharingModesChart(QChart* chart, const std::vector<calc::SharingAlternative>& alternatives,
                           const calc::Kpis& current, bool docked);

/// One cell of the sharing trade-off matrix: its text, and a colour and tool tip where it has one.
struct MatrixCell
{
    QString text;
    QColor colour; ///< invalid: the table's own
    QString toolTip;
};
/// The tenant mix under each sharing mode (calc::compareSharing): a row per figure, a column per
/// mode; what the workbench's table shows and the report prints.
struct SharingMatrix
{
    QStringList rows;
    QStringList columns;
    std::vector<std::vector<MatrixCell>> cells; ///< [row][column]
};
SharingMatrix sharingMatrix(const std::vector<calc::SharingAlternative>& alternatives);

} // namespace gp::ui
