// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#pragma once

#include "calc/evaluation.h"
#include "model/catalog.h"
#include "model/scenario.h"

#include <QWidget>

class QTableWidget;
class QLabel;
class QChartView;
class QChart;

namespace gp::ui {

/// Tenants' jobs with their evaluation results (placed, memory per GPU, penalty, MFU, days,
/// cost) and, for the selected job, its memory breakdown and per-layer profile with the peak
/// layer marked, and where its step time goes (a stacked bar of calc::stepParts(), each part's
/// formula and source in its tooltip). Serving jobs also show TTFT, ITL, their P99 and SLO
/// attainment in the table and, in place of the per-layer chart, their latency-throughput
/// curve (TTFT and ITL against output tokens/s at 1, 2, 4, ... users) with the operating point
/// marked. A view: rebuilt from the scenario and the latest evaluation.
class WorkloadsPanel : public QWidget
{
    Q_OBJECT

public:
    /// `catalog` (the window's, which outlives the panel) prices the serving curves.
    explicit WorkloadsPanel(const Catalog& catalog, QWidget* parent = nullptr);
    void showEvaluation(const Scenario& scenario, const calc::Evaluation& evaluation);
    int rowCount() const;
    /// The text of a cell, for tests: row by job id, column by header.
    QString cell(const QString& jobId, const QString& column) const;
    /// Shows the memory profile of a job (as selecting its row does); false when the plan has no
    /// such job (nothing changes then).
    bool selectJob(const QString& jobId);
    /// The detail pane's heading: the job it shows, or empty (for tests and the status line).
    QString detailText() const;
    QChart* profileChart() const { return mChart; }
    QChart* stepChart() const { return mStepChart; }
    /// The selected serving job's latency-throughput curve (hidden for other jobs).
    QChart* servingChart() const { return mServingChart; }
    QChartView* servingView() const { return mServingView; }
    QTableWidget* table() const { return mTable; }
    QChartView* stepView() const { return mStepView; }
    /// The parts of the step under the bar, coloured as their segments, with seconds and share.
    QLabel* stepLegend() const { return mStepLegend; }
    /// The selected job's penalty by resource and its noisiest neighbour.
    QLabel* penaltyLine() const { return mPenalty; }
    /// The id of the job in the current row, or "".
    QString selectedJobId() const;

Q_SIGNALS:
    /// A row was double-clicked: the user wants to edit that job.
    void editJobRequested(const QString& jobId);
    /// The user moved to a job's row (any column but the tenant's).
    void jobSelected(const QString& jobId);
    /// The user clicked a tenant cell.
    void tenantSelected(const QString& tenantId);
    /// The user clicked a job's Penalty ("penalty") or $/month ("cost") cell: explain it.
    void explainRequested(const QString& jobId, const QString& figure);
    /// A right-click on a tenant cell ("tenant") or a job's row ("job") at `globalPos`.
    void contextMenuRequested(const QString& kind, const QString& id, const QPoint& globalPos);

private:
    void showProfile(int row);
    void showSteps(const calc::JobResult& job);
    void showServing(const calc::JobResult& job);

    QTableWidget* mTable;
    QLabel* mBreakdown;
    QLabel* mPenalty;
    QChartView* mChartView;
    QChart* mChart;
    QChartView* mStepView;
    QChart* mStepChart;
    QLabel* mStepLegend;
    QChartView* mServingView;
    QChart* mServingChart;
    const Catalog& mCatalog;
    Scenario mScenario;
    calc::Evaluation mEvaluation;
};

} // namespace gp::ui
