// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#pragma once

#include "document/latestonly.h"
#include "sim/replaysummary.h"

#include "model/catalog.h"
#include "model/scenario.h"

#include <QDialog>
#include <QTimer>

#include <array>
#include <functional>
#include <memory>
#include <utility>
#include <vector>

class QCheckBox;
class QChartView;
class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QLineEdit;
class QProgressBar;
class QPushButton;
class QRadioButton;
class QTableWidget;

namespace gp::ui {

/// Results > Placement Replay (issue 18): the trace replay of Weng et al.'s protocol
/// (docs/validation.md) on a trace — the Alibaba v2023 files where they are found, or any node
/// and task files — or on the open scenario's cluster and job mix; the policies and seeds to
/// replay; runs in the background with progress and Cancel; shows the allocation and
/// fragmentation curves and, per policy, the GPUs it leaves unallocated against the best one;
/// exports the charts (PNG, SVG) and their numbers (CSV) as `gpuplan-cli replay --charts` does.
class ReplayDialog : public QDialog
{
    Q_OBJECT

public:
    /// `scenario` gives the open scenario (nullptr when none) and its name.
    ReplayDialog(const Catalog& catalog, std::function<std::pair<const Scenario*, QString>()> scenario,
                 QWidget* parent = nullptr);
    ~ReplayDialog() override;

    /// Writes the charts and replay.csv into `dir`; false (and says why) when it cannot.
    bool exportChartsTo(const QString& dir);
    bool running() const { return mJob != nullptr; }
    const std::vector<std::pair<QString, sim::ReplaySummary>>& results() const { return mResults; }
    /// The gap table's last column for a policy that leaves `more` GPUs unallocated than `best`
    /// (of `unallocated` it leaves): "+238 GPUs: FGD leaves 45 % fewer", or "level with FGD" when
    /// less than a GPU apart.
    static QString gapText(double more, const QString& best, double unallocated);

protected:
    void reject() override;

private:
    struct Job;
    void run();
    void cancel();
    void finished();
    void showResults();
    void fail(const QString& why);
    void updateEnabled();
    void browseTasks();
    void browseNodes();
    void exportCharts();

    const Catalog& mCatalog;
    std::function<std::pair<const Scenario*, QString>()> mScenario;
    QRadioButton* mTraceSource;
    QRadioButton* mScenarioSource;
    QComboBox* mTasks;
    QLineEdit* mNodes;
    std::array<QCheckBox*, 6> mPolicies{};
    QLineEdit* mSeeds;
    QDoubleSpinBox* mInflate;
    QPushButton* mRun;
    QPushButton* mCancel;
    QPushButton* mExport;
    QProgressBar* mProgress;
    QLabel* mStatus;
    QChartView* mAllocation;
    QChartView* mFragmentation;
    QTableWidget* mGap;
    QTimer mTicker; // reads the job's progress
    std::shared_ptr<Job> mJob;
    bool mCancelled = false; ///< of the running job
    document::LatestOnly<bool> mRunner{[this](std::optional<bool>) { finished(); }};
    std::vector<std::pair<QString, sim::ReplaySummary>> mResults;
    double mGpus = 0.0; // the replayed cluster's GPUs
    QString mTitle;
};

} // namespace gp::ui
