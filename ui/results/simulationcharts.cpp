// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#include "simulationcharts.h"
#include "sim/planresults.h"
#include "ui/figures/simulationfigures.h"

#include <QChart>
#include <QChartView>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QVBoxLayout>

namespace gp::ui {

namespace {

constexpr int kFullTrials = sim::TrialCounts::kFull;

QChartView* chartView(QChart* chart, QWidget* parent)
{
    themeSimulationChart(chart);
    auto* view = new QChartView(chart, parent);
    view->setRenderHint(QPainter::Antialiasing);
    return view;
}

} // namespace

CompletionView::CompletionView(QWidget* parent)
    : QWidget(parent), mJob(new QComboBox(this)), mSummary(new QLabel(this)),
      mFull(new QPushButton(tr("Run Full Simulation (%L1 trials)").arg(kFullTrials), this)), mChart(new QChart)
{
    mSummary->setWordWrap(true);
    mJob->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    mFull->setToolTip(tr("Re-runs the Monte Carlo with %L1 trials on the fastest backend (CUDA when a GPU is "
                         "present) for smoother tails; the quick preview after each edit uses 256 trials on the CPU.")
                          .arg(kFullTrials));
    auto* top = new QHBoxLayout;
    top->addWidget(new QLabel(tr("Job:"), this));
    top->addWidget(mJob);
    top->addStretch(1);
    top->addWidget(mFull);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addLayout(top);
    layout->addWidget(mSummary);
    layout->addWidget(chartView(mChart, this), 1);
    mChart->setTitle(tr("Completion time"));
    connect(mJob, &QComboBox::currentIndexChanged, this, [this] { draw(); });
    connect(mFull, &QPushButton::clicked, this, [this] {
        setRunning(true);
        Q_EMIT fullSimulationRequested(kFullTrials);
    });
}

void CompletionView::setRunning(bool running)
{
    mFull->setEnabled(!running);
    mFull->setText(running ? tr("Simulating %L1 trials…").arg(kFullTrials)
                           : tr("Run Full Simulation (%L1 trials)").arg(kFullTrials));
}

void CompletionView::showSimulation(const Scenario& scenario, std::shared_ptr<const sim::SimulationResult> result)
{
    mResult = std::move(result);
    mLabels = completionLabels(scenario);
    const QString current = mJob->currentData().toString();
    QSignalBlocker block(mJob);
    mJob->clear();
    for (const sim::JobSimulation* j : completionJobs(*mResult)) {
        const auto name = mLabels.names.find(j->id);
        mJob->addItem(QString::fromStdString(name != mLabels.names.end() ? name->second : j->id),
                      QString::fromStdString(j->id));
    }
    const int keep = mJob->findData(current);
    mJob->setCurrentIndex(keep >= 0 ? keep : 0);
    setRunning(false);
    draw();
}

void CompletionView::draw()
{
    const QString id = mJob->currentData().toString();
    const sim::JobSimulation* job = nullptr;
    if (mResult)
        for (const sim::JobSimulation& j : mResult->jobs)
            if (QString::fromStdString(j.id) == id)
                job = &j;
    mSummary->setText(drawCompletionChart(mChart, mResult.get(), job, mJob->currentText(), mLabels));
}

QString CompletionView::summary() const { return mSummary->text(); }

QStringList CompletionView::jobIds() const
{
    QStringList ids;
    for (int i = 0; i < mJob->count(); ++i)
        ids << mJob->itemData(i).toString();
    return ids;
}

void CompletionView::selectJob(const QString& jobId) { mJob->setCurrentIndex(mJob->findData(jobId)); }

int CompletionView::trialsShown() const { return mResult ? mResult->trials : 0; }

TimelineView::TimelineView(QWidget* parent)
    : QWidget(parent), mHorizon(new QDoubleSpinBox(this)), mSummary(new QLabel(this)), mChart(new QChart)
{
    mHorizon->setRange(1, 730);
    mHorizon->setDecimals(0);
    mHorizon->setValue(30);
    mHorizon->setSuffix(tr(" days"));
    mHorizon->setKeyboardTracking(false);
    mSummary->setWordWrap(true);
    auto* top = new QHBoxLayout;
    top->addWidget(new QLabel(tr("Horizon:"), this));
    top->addWidget(mHorizon);
    top->addStretch(1);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addLayout(top);
    layout->addWidget(mSummary);
    layout->addWidget(chartView(mChart, this), 1);
    mChart->setTitle(tr("Allocation and fragmentation over time"));
    connect(mHorizon, &QDoubleSpinBox::valueChanged, this, [this](double d) { Q_EMIT horizonChanged(d); });
}

void TimelineView::showTimeline(const std::shared_ptr<const sim::TimelineResult>& t, double horizonDays)
{
    {
        QSignalBlocker block(mHorizon);
        mHorizon->setValue(horizonDays);
    }
    mSummary->setText(drawTimelineChart(mChart, *t, horizonDays));
}

QString TimelineView::summary() const { return mSummary->text(); }

} // namespace gp::ui
