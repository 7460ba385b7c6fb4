// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#pragma once

#include "model/scenario.h"
#include "sim/simulation.h"
#include "sim/timeline.h"
#include "ui/figures/simulationfigures.h"

#include <QWidget>

#include <memory>

class QChart;
class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QPushButton;

namespace gp::ui {

/// Completion-time distribution of one training job from the latest Monte Carlo: the quick
/// preview that follows every evaluation, or a full run the button asks for. Histogram of
/// days with the P50 and P95 marked and the tenant's deadline when it has one.
class CompletionView : public QWidget
{
    Q_OBJECT

public:
    explicit CompletionView(QWidget* parent = nullptr);
    void showSimulation(const Scenario& scenario, std::shared_ptr<const sim::SimulationResult> result);
    /// The full run is under way (the button waits) or done.
    void setRunning(bool running);
    QChart* chart() const { return mChart; }
    QString summary() const;
    /// Job ids offered in the selector (training jobs the simulation covered).
    QStringList jobIds() const;
    void selectJob(const QString& jobId);
    int trialsShown() const;

Q_SIGNALS:
    void fullSimulationRequested(int trials);

private:
    void draw();

    std::shared_ptr<const sim::SimulationResult> mResult;
    CompletionLabels mLabels; ///< names and deadlines of the scenario's jobs
    QComboBox* mJob;
    QLabel* mSummary;
    QPushButton* mFull;
    QChart* mChart;
};

/// Allocation, fragmentation and VRAM use over time from the timeline simulation (jobs
/// arriving, queueing, starting and finishing), with the horizon editable.
class TimelineView : public QWidget
{
    Q_OBJECT

public:
    explicit TimelineView(QWidget* parent = nullptr);
    void showTimeline(const std::shared_ptr<const sim::TimelineResult>& timeline, double horizonDays);
    QChart* chart() const { return mChart; }
    QString summary() const;

Q_SIGNALS:
    void horizonChanged(double days);

private:
    QDoubleSpinBox* mHorizon;
    QLabel* mSummary;
    QChart* mChart;
};

} // namespace gp::ui
