// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#pragma once

#include "calc/alternatives.h"
#include "calc/evaluation.h"
#include "model/scenario.h"

#include <QHash>
#include <QTabWidget>

class QChart;
class QTableWidget;
class QLabel;

namespace gp::ui {

class CompletionView;
class TimelineView;

/// The trade-off charts of the latest evaluation (architecture.md §9.4: views, rebuilt from the
/// Evaluation): where the money goes (useful, idle, stranded, overhead), each job's memory
/// per GPU by kind (stacked bars), its memory use of its GPU share against its penalty, and the busiest links; beside
/// them the sharing trade-off matrix: the tenant mix under each sharing mode (calc::compareSharing).
class ResultsCharts : public QTabWidget
{
    Q_OBJECT

public:
    /// `docked`: the workbench's panel, where the tabs name each chart (no chart titles), the
    /// margins are small, the bar charts show their eight largest bars, and a corner button
    /// opens the current tab in a window of its own. Otherwise (the report's and slides'
    /// figures) every chart carries its title and up to twenty bars.
    explicit ResultsCharts(QWidget* parent = nullptr, bool docked = false);
    void showEvaluation(const Scenario& scenario, const calc::Evaluation& evaluation);
    /// The line a chart shows in its place when it has nothing to show on this plan (no link
    /// carries traffic, no job is placed: resultsfigures.h), or "" while it shows the chart.
    QString note(const QChart* chart) const;
    QChart* costChart() const { return mCost; }
    QChart* memoryChart() const { return mMemory; }
    QChart* tradeOffChart() const { return mTradeOff; }
    QChart* linksChart() const { return mLinks; }
    void showAlternatives(const std::vector<calc::SharingAlternative>& alternatives);
    QTableWidget* tradeOffMatrix() const { return mMatrix; }
    QChart* sharingModesChart() const { return mModes; }
    CompletionView* completion() const { return mCompletion; }
    TimelineView* timeline() const { return mTimeline; }
    /// Opens the current tab in a window of its own (the corner button); closing the window
    /// puts it back. Returns the window (nullptr when that tab is already out).
    QWidget* popOutCurrent();

private:
    QChart* addChart(const QString& title);
    /// Shows `note` instead of `chart`, or the chart again when `note` is empty.
    void setNote(QChart* chart, const QString& note);
    QChart* mCost;
    QChart* mMemory;
    QChart* mTradeOff;
    QChart* mLinks;
    QChart* mModes;
    QTableWidget* mMatrix;
    CompletionView* mCompletion;
    TimelineView* mTimeline;
    QHash<const QChart*, QLabel*> mNotes; ///< each chart's line, over its view
    calc::Kpis mCurrent; ///< of the latest evaluation, the "this scenario" point beside the alternatives
    bool mDocked;
};

} // namespace gp::ui
