// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#pragma once

#include "calc/plansearch.h"
#include "document/latestonly.h"

#include <QDialog>
#include <QTimer>

#include <memory>

class QChart;
class QCheckBox;
class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QProgressBar;
class QPushButton;
class QSpinBox;
class QTableWidget;

namespace gp::ui {

/// Plan > Optimize…: the plan search (calc/plansearch.h) on the open scenario, in the background
/// with a progress bar, the best plan so far and Cancel. It shows the Pareto set of plans within
/// every SLA as a chart (VRAM utilization against the largest penalty, cost as colour, the
/// 80 % / 3 % target zone, the current plan marked) and a table; the plan selected is previewed
/// on the canvas (previewChanged), its changes listed in a table (what, from, to, why), and it
/// can be applied as one undoable edit, saved to the library as a variant, compared with the
/// current plan or reported on. What the search may change in the jobs (parallelism, batch,
/// precision) and the headroom it keeps are set in the dialog (issue 36).
class OptimizeDialog : public QDialog
{
    Q_OBJECT

public:
    OptimizeDialog(const Catalog& catalog, Scenario current, QWidget* parent = nullptr);
    ~OptimizeDialog() override;

    /// Starts the search with the settings in the dialog (the Optimize button).
    void start();
    /// Asks a running search to stop; the plans found so far are shown (the Cancel button).
    void cancel();
    bool running() const { return static_cast<bool>(mJob); }
    const calc::PlanSearchResult& result() const { return mResult; }
    /// The scenario searched from (the open one when the dialog opened).
    const Scenario& searched() const { return mCurrent; }
    /// The plan selected in the table, or null.
    const calc::PlanCandidate* selectedPlan() const;
    QTableWidget* table() const { return mTable; }
    /// The selected plan's changes: what, from, to, why.
    QTableWidget* changesTable() const { return mChanges; }
    QChart* chart() const { return mChart; }
    QLabel* status() const { return mStatus; }

Q_SIGNALS:
    /// The plan to preview on the canvas; null clears the preview.
    void previewChanged(const gp::Scenario* plan);
    void applyRequested(const gp::Scenario& plan, const QString& changes);
    void saveVariantRequested(const gp::Scenario& plan, const QString& note);
    void compareRequested(const gp::Scenario& plan);
    void reportRequested(const gp::Scenario& plan);
    /// A search ended (done, at its time limit, or cancelled) and its plans are shown.
    void searchFinished();

protected:
    void closeEvent(QCloseEvent* event) override;

private:
    struct Job;
    void finished();
    void tick();
    void showResult();
    void fillChart();
    void fillChanges();
    void selectionChanged();
    void updateEnabled();
    /// The selected plan named for the library or a comparison: "<scenario> — optimized (plan N)".
    Scenario namedPlan() const;

    const Catalog& mCatalog;
    Scenario mCurrent;
    calc::PlanSearchResult mResult;
    std::shared_ptr<Job> mJob;
    document::LatestOnly<bool> mRunner{[this](std::optional<bool>) { finished(); }};
    QTimer mTicker;
    QComboBox* mObjective = nullptr;
    QCheckBox* mCapPenalty = nullptr;
    QDoubleSpinBox* mMaxPenalty = nullptr;
    QCheckBox* mRemoveNodes = nullptr;
    QCheckBox* mAllowParallelism = nullptr;
    QCheckBox* mAllowBatch = nullptr;
    QCheckBox* mAllowPrecision = nullptr;
    QDoubleSpinBox* mHeadroom = nullptr;
    QSpinBox* mTimeLimit = nullptr;
    QSpinBox* mSeed = nullptr;
    QPushButton* mStart = nullptr;
    QPushButton* mCancel = nullptr;
    QProgressBar* mProgress = nullptr;
    QLabel* mStatus = nullptr;
    QChart* mChart = nullptr;
    QTableWidget* mTable = nullptr;
    QTableWidget* mChanges = nullptr;
    QPushButton* mApply = nullptr;
    QPushButton* mVariant = nullptr;
    QPushButton* mCompare = nullptr;
    QPushButton* mReport = nullptr;
};

} // namespace gp::ui
