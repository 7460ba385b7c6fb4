// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#include "sweepcharts.h"

#include "charttheme.h"
#include "planfigures.h"

#include <QBarCategoryAxis>
#include <QBarSeries>
#include <QBarSet>
#include <QChart>
#include <QFileInfo>
#include <QGraphicsScene>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLegend>
#include <QLineSeries>
#include <QRegularExpression>
#include <QValueAxis>

#include <algorithm>
#include <functional>

namespace gp::ui {

namespace {

/// An axis value as a category label: a sharing object as its scalars, the mode first
/// ("time_slicing 4", "vgpu A100D-20C"); a trace as its task file's or scenario's name
/// ("openb_pod_list_default"); anything else as written.
QString shortLabel(const std::string& value)
{
    const QJsonDocument doc = QJsonDocument::fromJson(QByteArray::fromStdString(value));
    const QJsonObject o = doc.object();
    if (doc.isObject() && (o.contains("tasks") || o.contains("scenario")))
        return QFileInfo(o.value(o.contains("tasks") ? "tasks" : "scenario").toString()).completeBaseName().left(28);
    if (!doc.isObject()) {
        const QString text = QString::fromStdString(value);
        return (text.endsWith(".csv") || text.endsWith(".json") ? QFileInfo(text).completeBaseName() : text).left(28);
    }
    QStringList parts;
    std::function<void(const QJsonObject&)> add = [&](const QJsonObject& object) {
        if (object.contains("mode"))
            parts << object.value("mode").toVariant().toString();
        for (auto it = object.begin(); it != object.end(); ++it)
            if (it.key() != "mode") {
                if (it->isObject())
                    add(it->toObject());
                else if (!it->isArray())
                    parts << it->toVariant().toString();
                else
                    parts << QString("%1×%2").arg(it.key()).arg(it->toArray().size());
            }
    };
    add(o);
    return parts.join(' ').left(28);
}

/// What a chart of the kind of sweep draws: the bars (left scale) and the lines (right scale, %;
/// `scale` turns the column into percent).
struct ChartFigures
{
    const char* bars;
    QString barName, barAxis;
    struct Line
    {
        const char* column;
        QString name;
        double scale;
        QColor colour;
    };
    std::vector<Line> lines;
};

ChartFigures chartFigures(study::SweepKind kind)
{
    if (kind == study::SweepKind::Replay)
        return {"unallocated_gpus_at_end",
                QObject::tr("GPUs unallocated when all arrived"),
                QObject::tr("GPUs"),
                {{"allocation_pct_at_100", QObject::tr("allocated % at 100 % arrived"), 1.0, QColor("#59a14f")},
                 {"fragmentation_rate_pct_at_100", QObject::tr("fragmented % of the free GPUs at 100 % arrived"), 1.0,
                  QColor("#e15759")},
                 {"allocation_pct_at_end", QObject::tr("allocated % when all arrived"), 1.0, QColor("#f28e2b")}}};
    return {"cost_per_month_usd",
            QObject::tr("$/month"),
            QObject::tr("$ per month"),
            {{"vram_utilization", QObject::tr("VRAM utilization %"), 100.0, QColor("#59a14f")},
             {"max_penalty", QObject::tr("largest penalty %"), 100.0, QColor("#e15759")},
             {"serving_slo_attainment", QObject::tr("serving SLO attainment %"), 100.0, QColor("#f28e2b")}}};
}

} // namespace

std::unique_ptr<QChart> sweepAxisChart(const study::SweepTable& table, std::size_t axis)
{
    auto chart = std::make_unique<QChart>();
    themeChart(chart.get());
    const ChartFigures figures = chartFigures(table.kind);
    const QString name = QString::fromStdString(table.axes.at(axis));
    chart->setTitle(QObject::tr("Along %1 (the mean over the other axes)").arg(name));
    const auto barMeans = study::sweepMeans(table, axis, figures.bars);
    QStringList categories;
    auto* bars = new QBarSet(figures.barName);
    bars->setColor(QColor("#4e79a7"));
    double top = 0.0;
    for (const auto& [value, mean] : barMeans) {
        categories << shortLabel(value);
        *bars << mean;
        top = std::max(top, mean);
    }
    auto* barSeries = new QBarSeries;
    barSeries->append(bars);
    chart->addSeries(barSeries);
    auto* x = new QBarCategoryAxis;
    x->append(categories);
    x->setTitleText(name);
    chart->addAxis(x, Qt::AlignBottom);
    barSeries->attachAxis(x);
    auto* left = new QValueAxis;
    left->setTitleText(figures.barAxis);
    left->setLabelFormat("%.0f");
    left->setRange(0, std::max(1.0, top * 1.1));
    left->applyNiceNumbers();
    chart->addAxis(left, Qt::AlignLeft);
    barSeries->attachAxis(left);
    auto* percent = new QValueAxis;
    percent->setTitleText(QObject::tr("%"));
    percent->setLabelFormat("%.0f");
    percent->setRange(0, 100);
    chart->addAxis(percent, Qt::AlignRight);
    double highest = 100.0;
    for (const ChartFigures::Line& line : figures.lines) {
        auto* s = new QLineSeries;
        s->setName(line.name);
        s->setColor(line.colour);
        const auto means = study::sweepMeans(table, axis, line.column);
        for (const auto& point : means) {
            const auto at = std::find_if(barMeans.begin(), barMeans.end(),
                                         [&point](const auto& c) { return c.first == point.first; });
            if (at != barMeans.end()) { // a line point at its bar's category (index on the category axis)
                s->append(static_cast<double>(at - barMeans.begin()), point.second * line.scale);
                highest = std::max(highest, point.second * line.scale);
            }
        }
        chart->addSeries(s);
        s->attachAxis(x);
        s->attachAxis(percent);
    }
    percent->setRange(0, std::min(highest * 1.05, 1000.0));
    percent->applyNiceNumbers(); // steps of 20 or 25, not of 26.3
    chart->legend()->setAlignment(Qt::AlignBottom);
    return chart;
}

std::vector<std::pair<QString, QByteArray>> sweepChartFiles(const study::SweepTable& table)
{
    std::vector<std::pair<QString, QByteArray>> files;
    for (std::size_t a = 0; a < table.axes.size(); ++a) {
        QGraphicsScene scene; // a chart draws through its scene, which then owns it
        QChart* chart = sweepAxisChart(table, a).release();
        chart->resize(1600, 900);
        scene.addItem(chart);
        QString name = QString::fromStdString(table.axes[a]).toLower();
        name.replace(QRegularExpression("[^a-z0-9_.]+"), "-");
        while (name.endsWith('-'))
            name.chop(1);
        appendChartPictures(files, QString("%1-%2").arg(a + 1).arg(name), chart);
    }
    return files;
}

} // namespace gp::ui
