// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#pragma once

#include "calc/jobsearch.h"

#include <QDialog>

#include <optional>
#include <string>

class QLabel;
class QPushButton;
class QSpinBox;
class QTableWidget;

namespace gp::ui {

/// A job's "Best Parallelism…" (its context menu): the job search (calc/jobsearch.h) on the GPUs
/// it runs on, over a range of GPU counts — for a training job the fastest configurations beside
/// its own, for a serving job the deployments that meet its tenant's objectives, fewest GPUs
/// first; Apply sets the chosen one as one undoable edit (parallelismChosen, deploymentChosen).
class ParallelismDialog : public QDialog
{
    Q_OBJECT

public:
    /// `setup`: the search's setting on the job's GPUs (its own GPU count as the range);
    /// `current`: the job's own configuration scored the same way; `where`: the GPUs in words.
    ParallelismDialog(const calc::JobSearchSetup& setup, const calc::JobConfig& current, const QString& jobName,
                      const QString& where, QWidget* parent = nullptr);

    /// Searches the range in the spin boxes and lists the result (also the Search button).
    void search();
    const calc::JobSearchResult& result() const { return mResult; }
    const calc::ServingSearchResult& servingResult() const { return mServing; }
    bool serving() const { return !mSetup.job.isTraining(); }

Q_SIGNALS:
    void parallelismChosen(const gp::Parallelism& parallelism, int microBatch);
    void deploymentChosen(const gp::calc::ServingConfig& deployment);

private:
    void apply();

    calc::JobSearchSetup mSetup;
    calc::JobSearchResult mResult;
    calc::ServingSearchResult mServing;
    QSpinBox* mFrom = nullptr;
    QSpinBox* mTo = nullptr;
    QLabel* mStatus = nullptr;
    QTableWidget* mTable = nullptr;
    QPushButton* mApply = nullptr;
};

} // namespace gp::ui
