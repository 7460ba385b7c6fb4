// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#include "sweepcharts.h"

#include "charttheme.h"
#include "planfigures.h"

#include <QBarCategoryAxis>
#include <QBarSeries>
#include <QBarSet>
#include <QChart>
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
/// ("time_slicing 4", "vgpu A100D-20C"); anything else as written.
QString shortLabel(const std::string& value)
{
    const QJsonDocument doc = QJsonDocument::fromJson(QByteArray::fromStdString(value));
    if (!doc.isObject())
        return QString::fromStdString(value).left(28);
    QStringList parts;
    std::function<void(const QJsonObject&)> add = [&](const QJsonObject& o) {
        if (o.contains("mode"))
            parts << o.value("mode").toVariant().toString();
        for (auto it = o.begin(); it != o.end(); ++it)
            if (it.key() != "mode") {
                if (it->isObject())
                    add(it->toObject());
                else if (!it->isArray())
                    parts << it->toVariant().toString();
                else
                    parts << QString("%1×%2").arg(it.key()).arg(it->toArray().size());
            }
    };
    add(doc.object());
    return parts.join(' ').left(28);
}

} // namespace

std::unique_ptr<QChart> sweepAxisChart(const document::SweepTable& table, std::size_t axis)
{
    auto chart = std::make_unique<QChart>();
    themeChart(chart.get());
    const QString name = QString::fromStdString(table.axes.at(axis));
    chart->setTitle(QObject::tr("Along %1 (the mean over the other axes)").arg(name));
    const auto cost = document::sweepMeans(table, axis, "cost_per_month_usd");
    QStringList categories;
    auto* bars = new QBarSet(QObject::tr("$/month"));
    bars->setColor(QColor("#4e79a7"));
    double top = 0.0;
    for (const auto& [value, mean] : cost) {
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
    auto* dollars = new QValueAxis;
    dollars->setTitleText(QObject::tr("$ per month"));
    dollars->setLabelFormat("%.0f");
    dollars->setRange(0, std::max(1.0, top * 1.1));
    chart->addAxis(dollars, Qt::AlignLeft);
    barSeries->attachAxis(dollars);
    auto* percent = new QValueAxis;
    percent->setTitleText(QObject::tr("%"));
    percent->setRange(0, 100);
    chart->addAxis(percent, Qt::AlignRight);
    const std::pair<const char*, QString> lines[] = {
        {"vram_utilization", QObject::tr("VRAM utilization %")},
        {"max_penalty", QObject::tr("largest penalty %")},
        {"serving_slo_attainment", QObject::tr("serving SLO attainment %")}};
    const QColor colours[] = {QColor("#59a14f"), QColor("#e15759"), QColor("#f28e2b")};
    double highest = 100.0;
    for (std::size_t l = 0; l < std::size(lines); ++l) {
        auto* s = new QLineSeries;
        s->setName(lines[l].second);
        s->setColor(colours[l]);
        const auto means = document::sweepMeans(table, axis, lines[l].first);
        for (const auto& point : means) {
            const auto at =
                std::find_if(cost.begin(), cost.end(), [&point](const auto& c) { return c.first == point.first; });
            if (at != cost.end()) { // a line point at its bar's category (index on the category axis)
                s->append(static_cast<double>(at - cost.begin()), point.second * 100.0);
                highest = std::max(highest, point.second * 100.0);
            }
        }
        chart->addSeries(s);
        s->attachAxis(x);
        s->attachAxis(percent);
    }
    percent->setRange(0, std::min(highest * 1.05, 1000.0));
    chart->legend()->setAlignment(Qt::AlignBottom);
    return chart;
}

std::vector<std::pair<QString, QByteArray>> sweepChartFiles(const document::SweepTable& table)
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
