// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#pragma once

#include "calc/comparison.h"
#include "calc/evaluation.h"
#include "model/catalog.h"
#include "model/scenario.h"
#include "sim/planresults.h"
#include "sim/simulation.h"

#include <QDialog>

#include <memory>
#include <vector>

class QChart;
class QLabel;
class QListWidget;
class QTabWidget;
class QTableWidget;

namespace gp::ui {

/// Two to four scenarios side by side (issue: compare): a KPI table with each one's change
/// against the first marked better or worse, overlaid charts (VRAM utilization against mean
/// penalty, the cost breakdown, the slowest job's completion-time distribution), a topology
/// thumbnail of each, and what differs in the plans.
class CompareDialog : public QDialog
{
    Q_OBJECT

public:
    /// From each plan's results (sim::computePlanResults): nothing is computed here.
    CompareDialog(const Catalog& catalog, std::vector<std::shared_ptr<const sim::PlanResults>> results,
                  QWidget* parent = nullptr);
    /// Presents the comparison full-screen (the Present button); returns the window.
    class PresentationWindow* present(const QString& recommendation, bool fullScreen = true);

    QTableWidget* kpiTable() const { return mKpis; }
    QListWidget* differences() const { return mDiff; }
    QChart* tradeOffChart() const { return mTradeOff; }
    QChart* costChart() const { return mCost; }
    QChart* completionChart() const { return mCompletion; }
    const std::vector<calc::KpiComparison>& rows() const { return mRows; }
    /// The "Recommended vs current" page: B (or the chosen plan) against A.
    QLabel* recommendation() const { return mRecommendation; }
    QTabWidget* tabs() const { return mTabs; }

private:
    const Catalog& mCatalog;
    std::vector<std::shared_ptr<const sim::PlanResults>> mResults;
    std::vector<Scenario> mScenarios;
    std::vector<calc::Evaluation> mEvaluations;
    std::vector<sim::SimulationResult> mSimulations;
    std::vector<calc::KpiComparison> mRows;
    QTableWidget* mKpis;
    QListWidget* mDiff;
    QChart* mTradeOff;
    QChart* mCost;
    QChart* mCompletion;
    QLabel* mRecommendation = nullptr;
    QTabWidget* mTabs = nullptr;
};

} // namespace gp::ui
