// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#include "replaycharts.h"

#include "planfigures.h"

#include <QChart>
#include <QGraphicsScene>
#include <QLineSeries>
#include <QValueAxis>

#include <memory>

namespace gp::ui {

namespace {

std::unique_ptr<QChart> chartOf(const std::vector<std::pair<QString, sim::ReplaySummary>>& policies,
                                const sim::Spread sim::ReplaySummary::*series, const QString& title,
                                const QString& yTitle)
{
    auto chart = std::make_unique<QChart>();
    chart->setTitle(title);
    static const QColor colours[] = {QColor("#bab0ac"), QColor("#f28e2b"), QColor("#76b7b2"),
                                     QColor("#4e79a7"), QColor("#b07aa1"), QColor("#e15759")};
    auto* x = new QValueAxis;
    x->setTitleText(QObject::tr("Arrived workload, % of the cluster's GPU capacity"));
    x->setLabelFormat("%.0f");
    auto* y = new QValueAxis;
    y->setTitleText(yTitle);
    y->setLabelFormat("%.0f");
    chart->addAxis(x, Qt::AlignBottom);
    chart->addAxis(y, Qt::AlignLeft);
    double top = 0.0, right = 0.0;
    std::size_t i = 0;
    for (const auto& [name, s] : policies) {
        auto* line = new QLineSeries;
        line->setName(name);
        QPen pen(colours[i++ % 6], 2.5);
        line->setPen(pen);
        const sim::Spread& values = s.*series;
        for (std::size_t k = 0; k < s.arrivedPct.size() && k < values.mean.size(); ++k) {
            line->append(s.arrivedPct[k], values.mean[k]);
            top = std::max(top, values.mean[k]);
            right = std::max(right, static_cast<double>(s.arrivedPct[k]));
        }
        chart->addSeries(line);
        line->attachAxis(x);
        line->attachAxis(y);
    }
    x->setRange(0, std::max(right, 1.0));
    x->setTickType(QValueAxis::TicksDynamic); // a tick every 10 % of arrived workload
    x->setTickAnchor(0);
    x->setTickInterval(10);
    if (top > 60.0) { // shares of capacity that reach high: the whole 0–100 % scale
        y->setRange(0, 100);
        y->setTickType(QValueAxis::TicksDynamic);
        y->setTickAnchor(0);
        y->setTickInterval(10);
    } else {
        y->setRange(0, std::max(5.0, top * 1.08));
        y->applyNiceNumbers();
    }
    chart->legend()->setAlignment(Qt::AlignRight);
    return chart;
}

void addPictures(std::vector<std::pair<QString, QByteArray>>& files, const QString& name, std::unique_ptr<QChart> owned)
{
    QGraphicsScene scene; // a chart draws through its scene, which then owns it
    QChart* chart = owned.release();
    scene.addItem(chart);
    appendChartPictures(files, name, chart);
}

} // namespace

std::unique_ptr<QChart> replayChart(const std::vector<std::pair<QString, sim::ReplaySummary>>& policies,
                                    ReplayMeasure measure, const QString& title)
{
    if (measure == ReplayMeasure::Allocation)
        return chartOf(policies, &sim::ReplaySummary::allocationPct, QObject::tr("GPU allocation — %1").arg(title),
                       QObject::tr("Allocated, % of GPU capacity"));
    return chartOf(policies, &sim::ReplaySummary::fragmentationPct, QObject::tr("GPU fragmentation — %1").arg(title),
                   QObject::tr("Fragmented, % of GPU capacity"));
}

std::vector<std::pair<QString, QByteArray>> replayChartFiles(
    const std::vector<std::pair<QString, sim::ReplaySummary>>& policies, const QString& title)
{
    std::vector<std::pair<QString, QByteArray>> files;
    addPictures(files, "replay-allocation", replayChart(policies, ReplayMeasure::Allocation, title));
    addPictures(files, "replay-fragmentation", replayChart(policies, ReplayMeasure::Fragmentation, title));
    QString csv = "policy,arrived_pct,allocation_pct_mean,allocation_pct_sd,fragmentation_pct_mean,"
                  "fragmentation_pct_sd,fragmentation_rate_pct_mean,fragmentation_rate_pct_sd\n";
    for (const auto& [name, s] : policies)
        for (std::size_t k = 0; k < s.arrivedPct.size(); ++k)
            csv += QString("%1,%2,%3,%4,%5,%6,%7,%8\n")
                       .arg(name)
                       .arg(s.arrivedPct[k])
                       .arg(s.allocationPct.mean[k], 0, 'f', 4)
                       .arg(s.allocationPct.sd[k], 0, 'f', 4)
                       .arg(s.fragmentationPct.mean[k], 0, 'f', 4)
                       .arg(s.fragmentationPct.sd[k], 0, 'f', 4)
                       .arg(s.fragmentationRatePct.mean[k], 0, 'f', 4)
                       .arg(s.fragmentationRatePct.sd[k], 0, 'f', 4);
    files.push_back({"replay.csv", csv.toUtf8()});
    return files;
}

} // namespace gp::ui
