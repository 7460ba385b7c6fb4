// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#include "simulationcharts.h"
#include "sim/planresults.h"

#include "charttheme.h"

#include <QAreaSeries>
#include <QChart>
#include <QChartView>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLegendMarker>
#include <QLineSeries>
#include <QPushButton>
#include <QVBoxLayout>
#include <QValueAxis>

#include <algorithm>

namespace gp::ui {

namespace {

constexpr int kFullTrials = sim::TrialCounts::kFull;

QChartView* chartView(QChart* chart, QWidget* parent)
{
    themeChart(chart);
    // Wide and short in the bottom dock: the legend beside the plot leaves it the height.
    chart->legend()->setAlignment(Qt::AlignRight);
    auto* view = new QChartView(chart, parent);
    view->setRenderHint(QPainter::Antialiasing);
    return view;
}

/// A vertical marker line from 0 to `top` at `x`, named for the legend.
QLineSeries* marker(double x, double top, const QString& name, const QColor& color, Qt::PenStyle style)
{
    auto* s = new QLineSeries;
    s->setName(name);
    s->append(x, 0);
    s->append(x, top);
    QPen pen(color, 2.0, style);
    s->setPen(pen);
    return s;
}

void attach(QChart* chart, QAbstractSeries* s, QValueAxis* x, QValueAxis* y)
{
    chart->addSeries(s);
    s->attachAxis(x);
    s->attachAxis(y);
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
    mDeadlines.clear();
    mNames.clear();
    for (const Tenant& t : scenario.tenants)
        for (const Job& j : t.jobs) {
            mNames[j.id] = j.name;
            if (t.sla.deadlineDays)
                mDeadlines[j.id] = *t.sla.deadlineDays;
        }
    const QString current = mJob->currentData().toString();
    QSignalBlocker block(mJob);
    mJob->clear();
    // Slowest first: the job that decides when the cluster is done.
    std::vector<const sim::JobSimulation*> jobs;
    for (const sim::JobSimulation& j : mResult->jobs)
        if (j.training && j.completionDays.p95 > 0)
            jobs.push_back(&j);
    std::stable_sort(jobs.begin(), jobs.end(),
                     [](auto* a, auto* b) { return a->completionDays.p95 > b->completionDays.p95; });
    for (const sim::JobSimulation* j : jobs) {
        const auto name = mNames.find(j->id);
        mJob->addItem(QString::fromStdString(name != mNames.end() ? name->second : j->id),
                      QString::fromStdString(j->id));
    }
    const int keep = mJob->findData(current);
    mJob->setCurrentIndex(keep >= 0 ? keep : 0);
    setRunning(false);
    draw();
}

void CompletionView::draw()
{
    clearChart(mChart);
    const QString id = mJob->currentData().toString();
    const sim::JobSimulation* job = nullptr;
    if (mResult)
        for (const sim::JobSimulation& j : mResult->jobs)
            if (QString::fromStdString(j.id) == id)
                job = &j;
    if (!job || job->histogram.empty()) {
        mChart->setTitle(tr("Completion time"));
        mSummary->setText(tr("No training job is placed, so there is no completion time to simulate."));
        return;
    }
    const sim::Percentiles& p = job->completionDays;
    const double lo = job->histogramMinDays, hi = std::max(job->histogramMaxDays, lo + 1e-6);
    const double width = (hi - lo) / static_cast<double>(job->histogram.size());
    int total = 0;
    for (int c : job->histogram)
        total += c;
    // The histogram as a step outline (share of trials per bin), filled.
    auto* upper = new QLineSeries;
    double top = 0;
    for (std::size_t b = 0; b < job->histogram.size(); ++b) {
        const double share = total > 0 ? 100.0 * job->histogram[b] / total : 0.0;
        top = std::max(top, share);
        upper->append(lo + width * static_cast<double>(b), share);
        upper->append(lo + width * static_cast<double>(b + 1), share);
    }
    auto* lower = new QLineSeries;
    lower->append(lo, 0);
    lower->append(hi, 0);
    auto* area = ownedAreaSeries(upper, lower);
    area->setName(tr("Share of trials"));
    area->setColor(QColor("#4e79a7"));
    area->setBorderColor(QColor("#2c4f75"));
    top = std::max(top * 1.15, 1.0);

    // Units in the labels, not in axis titles: Qt Charts gives a bottom axis at most 40 % of a
    // short docked chart's height, and elides labels and title to "…" beyond it.
    auto* x = new QValueAxis;
    x->setLabelFormat(tr("%.1f d")); // completion
    auto* y = new QValueAxis;
    y->setLabelFormat(tr("%.0f %%")); // of the trials
    y->setTickCount(3);               // three labels fit the docked panel's height
    mChart->addAxis(x, Qt::AlignBottom);
    mChart->addAxis(y, Qt::AlignLeft);
    attach(mChart, area, x, y);
    attach(mChart, marker(p.p50, top, tr("P50 %1 d").arg(p.p50, 0, 'f', 1), QColor("#59a14f"), Qt::SolidLine), x, y);
    attach(mChart, marker(p.p95, top, tr("P95 %1 d").arg(p.p95, 0, 'f', 1), QColor("#e15759"), Qt::SolidLine), x, y);
    double xmax = hi, xmin = lo;
    const auto deadline = mDeadlines.find(job->id);
    if (deadline != mDeadlines.end()) {
        attach(mChart,
               marker(deadline->second, top, tr("Deadline %1 d").arg(deadline->second, 0, 'f', 1),
                      darkPalette() ? QColor("#dddddd") : QColor("#333333"), Qt::DashLine),
               x, y);
        xmax = std::max(xmax, deadline->second);
        xmin = std::min(xmin, deadline->second);
    }
    const double pad = (xmax - xmin) * 0.05 + 1e-3;
    x->setRange(std::max(0.0, xmin - pad), xmax + pad);
    x->applyNiceNumbers();
    y->setRange(0, top);
    y->applyNiceNumbers();
    const QString name = mJob->currentText();
    mChart->setTitle(tr("Completion time of %1 — %L2 trials (%3)")
                         .arg(name)
                         .arg(mResult->trials)
                         .arg(QString::fromStdString(mResult->backend)));
    mSummary->setText(tr("P5 %1 · P50 %2 · P95 %3 · P99 %4 days; deadline missed in %5 % of trials; step slowdown "
                         "P95 ×%6 against bare metal. Jitter, co-tenant bursts, out-of-memory restarts, congestion and "
                         "interruptions with checkpoint restarts (docs/model-reference.md#simulation).")
                          .arg(p.p5, 0, 'f', 2)
                          .arg(p.p50, 0, 'f', 2)
                          .arg(p.p95, 0, 'f', 2)
                          .arg(p.p99, 0, 'f', 2)
                          .arg(job->deadlineMissProbability * 100.0, 0, 'f', 1)
                          .arg(job->slowdown.p95, 0, 'f', 3));
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

void TimelineView::showTimeline(std::shared_ptr<const sim::TimelineResult> t, double horizonDays)
{
    {
        QSignalBlocker block(mHorizon);
        mHorizon->setValue(horizonDays);
    }
    clearChart(mChart);
    auto* x = new QValueAxis; // units in the labels (see showSimulation)
    x->setLabelFormat(tr("day %.0f"));
    x->setRange(0, horizonDays);
    x->applyNiceNumbers();
    auto* y = new QValueAxis;
    y->setRange(0, 100);
    y->setLabelFormat(tr("%.0f %%")); // of the cluster
    y->setTickCount(3);
    mChart->addAxis(x, Qt::AlignBottom);
    mChart->addAxis(y, Qt::AlignLeft);
    auto line = [&](const QString& name, const QColor& color, double sim::TimelinePoint::*field) {
        auto* s = new QLineSeries;
        s->setName(name);
        s->setPen(QPen(color, 2.0));
        for (const sim::TimelinePoint& p : t->series)
            s->append(p.hours / 24.0, 100.0 * p.*field);
        attach(mChart, s, x, y);
    };
    line(tr("GPU share allocated"), QColor("#4e79a7"), &sim::TimelinePoint::allocation);
    line(tr("VRAM in use"), QColor("#59a14f"), &sim::TimelinePoint::vramUtilization);
    line(tr("Fragmentation of free capacity"), QColor("#e15759"), &sim::TimelinePoint::fragmentation);
    mSummary->setText(tr("%1 jobs started · mean wait %2 h · longest queue %3 jobs · mean allocation %4 % · mean "
                         "fragmentation %5 % (time-weighted). Jobs arrive at their schedule's hour (and tenants' "
                         "arrival processes), queue by priority, run for their duration or evaluated days.")
                          .arg(t->started)
                          .arg(t->meanWaitH, 0, 'f', 1)
                          .arg(t->maxQueued)
                          .arg(t->meanAllocation * 100.0, 0, 'f', 1)
                          .arg(t->meanFragmentation * 100.0, 0, 'f', 1));
}

QString TimelineView::summary() const { return mSummary->text(); }

} // namespace gp::ui
