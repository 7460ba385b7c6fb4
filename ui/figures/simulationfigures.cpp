// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#include "simulationfigures.h"
#include "charttheme.h"

#include <QChart>
#include <QCoreApplication>
#include <QLegend>
#include <QLineSeries>
#include <QPen>
#include <QValueAxis>

#include <algorithm>

namespace gp::ui {

namespace {

/// The texts keep the workbench views' translation contexts.
struct CompletionTr
{
    Q_DECLARE_TR_FUNCTIONS(gp::ui::CompletionView)
};
struct TimelineTr
{
    Q_DECLARE_TR_FUNCTIONS(gp::ui::TimelineView)
};

/// Where the trials ran, as a reader says it: "CPU", "CUDA on NVIDIA H100 80GB HBM3" (the
/// simulation's backend field is "cpu" or "cuda (<device>)", the CLI's --backend words).
QString backendLabel(const std::string& backend)
{
    const QString b = QString::fromStdString(backend);
    if (b == "cpu")
        return CompletionTr::tr("CPU");
    if (b.startsWith("cuda (") && b.endsWith(')'))
        return CompletionTr::tr("CUDA on %1").arg(b.mid(6, b.size() - 7));
    return b == "cuda" ? CompletionTr::tr("CUDA") : b;
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

void themeSimulationChart(QChart* chart)
{
    themeChart(chart);
    // Wide and short in the bottom dock: the legend beside the plot leaves it the height.
    chart->legend()->setAlignment(Qt::AlignRight);
}

CompletionLabels completionLabels(const Scenario& scenario)
{
    CompletionLabels labels;
    for (const Tenant& t : scenario.tenants)
        for (const Job& j : t.jobs) {
            labels.names[j.id] = j.name;
            if (t.sla.deadlineDays)
                labels.deadlines[j.id] = *t.sla.deadlineDays;
        }
    return labels;
}

std::vector<const sim::JobSimulation*> completionJobs(const sim::SimulationResult& result)
{
    // Slowest first: the job that decides when the cluster is done.
    std::vector<const sim::JobSimulation*> jobs;
    for (const sim::JobSimulation& j : result.jobs)
        if (j.training && j.completionDays.p95 > 0)
            jobs.push_back(&j);
    std::stable_sort(jobs.begin(), jobs.end(),
                     [](auto* a, auto* b) { return a->completionDays.p95 > b->completionDays.p95; });
    return jobs;
}

QString drawCompletionChart(QChart* chart, const sim::SimulationResult* result, const sim::JobSimulation* job,
                            const QString& name, const CompletionLabels& labels)
{
    clearChart(chart);
    if (!job || job->histogram.empty()) {
        chart->setTitle(CompletionTr::tr("Completion time"));
        return CompletionTr::tr("No training job is placed, so there is no completion time to simulate.");
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
    area->setName(CompletionTr::tr("Share of trials"));
    area->setColor(QColor("#4e79a7"));
    area->setBorderColor(QColor("#2c4f75"));
    top = std::max(top * 1.15, 1.0);

    // Units in the labels, not in axis titles: Qt Charts gives a bottom axis at most 40 % of a
    // short docked chart's height, and elides labels and title to "…" beyond it.
    auto* x = new QValueAxis;
    x->setLabelFormat(CompletionTr::tr("%.1f d")); // completion
    auto* y = new QValueAxis;
    y->setLabelFormat(CompletionTr::tr("%.0f %%")); // of the trials
    y->setTickCount(3);                             // three labels fit the docked panel's height
    chart->addAxis(x, Qt::AlignBottom);
    chart->addAxis(y, Qt::AlignLeft);
    attach(chart, area, x, y);
    attach(chart,
           marker(p.p50, top, CompletionTr::tr("P50 %1 d").arg(p.p50, 0, 'f', 1), QColor("#59a14f"), Qt::SolidLine), x,
           y);
    attach(chart,
           marker(p.p95, top, CompletionTr::tr("P95 %1 d").arg(p.p95, 0, 'f', 1), QColor("#e15759"), Qt::SolidLine), x,
           y);
    double xmax = hi, xmin = lo;
    const auto deadline = labels.deadlines.find(job->id);
    if (deadline != labels.deadlines.end()) {
        attach(chart,
               marker(deadline->second, top, CompletionTr::tr("Deadline %1 d").arg(deadline->second, 0, 'f', 1),
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
    chart->setTitle(CompletionTr::tr("Completion time of %1 — %L2 trials (%3)")
                        .arg(name)
                        .arg(result->trials)
                        .arg(backendLabel(result->backend)));
    return CompletionTr::tr(
               "P5 %1 · P50 %2 · P95 %3 · P99 %4 days; deadline missed in %5 % of trials; step slowdown "
               "P95 ×%6 against bare metal. Jitter, co-tenant bursts, out-of-memory restarts, congestion and "
               "interruptions with checkpoint restarts (docs/model-reference.md#simulation).")
        .arg(p.p5, 0, 'f', 2)
        .arg(p.p50, 0, 'f', 2)
        .arg(p.p95, 0, 'f', 2)
        .arg(p.p99, 0, 'f', 2)
        .arg(job->deadlineMissProbability * 100.0, 0, 'f', 1)
        .arg(job->slowdown.p95, 0, 'f', 3);
}

QString drawTimelineChart(QChart* chart, const sim::TimelineResult& timeline, double horizonDays)
{
    const sim::TimelineResult* t = &timeline;
    clearChart(chart);
    auto* x = new QValueAxis; // units in the labels (see showSimulation)
    x->setLabelFormat(TimelineTr::tr("day %.0f"));
    x->setRange(0, horizonDays);
    x->applyNiceNumbers();
    auto* y = new QValueAxis;
    y->setRange(0, 100);
    y->setLabelFormat(TimelineTr::tr("%.0f %%")); // of the cluster
    y->setTickCount(3);
    chart->addAxis(x, Qt::AlignBottom);
    chart->addAxis(y, Qt::AlignLeft);
    auto line = [&](const QString& name, const QColor& color, double sim::TimelinePoint::*field) {
        auto* s = new QLineSeries;
        s->setName(name);
        s->setPen(QPen(color, 2.0));
        for (const sim::TimelinePoint& p : t->series)
            s->append(p.hours / 24.0, 100.0 * p.*field);
        attach(chart, s, x, y);
    };
    line(TimelineTr::tr("GPU share allocated"), QColor("#4e79a7"), &sim::TimelinePoint::allocation);
    line(TimelineTr::tr("VRAM in use"), QColor("#59a14f"), &sim::TimelinePoint::vramUtilization);
    line(TimelineTr::tr("Fragmentation of free capacity"), QColor("#e15759"), &sim::TimelinePoint::fragmentation);
    return TimelineTr::tr("%1 jobs started · mean wait %2 h · longest queue %3 jobs · mean allocation %4 % · mean "
                          "fragmentation %5 % (time-weighted). Jobs arrive at their schedule's hour (and tenants' "
                          "arrival processes), queue by priority, run for their duration or evaluated days.")
        .arg(t->started)
        .arg(t->meanWaitH, 0, 'f', 1)
        .arg(t->maxQueued)
        .arg(t->meanAllocation * 100.0, 0, 'f', 1)
        .arg(t->meanFragmentation * 100.0, 0, 'f', 1);
}

} // namespace gp::ui
