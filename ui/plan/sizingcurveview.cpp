// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#include "sizingcurveview.h"

#include "io/textformat.h"
#include "ui/figures/charttheme.h"

#include <QChartView>
#include <QHeaderView>
#include <QLineSeries>
#include <QTableWidget>
#include <QValueAxis>

#include <algorithm>

namespace gp::ui {

using text::q;

namespace {

/// The template of the month-by-month curve: the chosen one, or for a mix the cheapest single
/// template (study::sizeCluster sizes the months on it).
std::string curveTemplate(const study::SizingResult& r)
{
    if (r.mix.size() == 1)
        return r.nodeTemplate;
    const study::SizedTemplate* best = nullptr;
    for (const study::SizedTemplate& c : r.candidates)
        if (c.nodes && c.costPerMonthUsd && (!best || *c.costPerMonthUsd < *best->costPerMonthUsd))
            best = &c;
    return best ? best->nodeTemplate : r.mix.front().first;
}

QTableWidgetItem* curveCell(const QString& text, bool number)
{
    auto* item = new QTableWidgetItem(text);
    item->setTextAlignment((number ? Qt::AlignRight : Qt::AlignLeft) | Qt::AlignVCenter);
    return item;
}

} // namespace

SizingCurveView::SizingCurveView(const Catalog& catalog, QWidget* parent) : QTabWidget(parent), mCatalog(catalog)
{
    setObjectName("SizingCurve");
    mChart = new QChart;
    themeChart(mChart);
    auto* view = new QChartView(mChart, this);
    view->setObjectName("SizingChart");
    view->setRenderHint(QPainter::Antialiasing);
    view->setMinimumSize(300, 180);
    addTab(view, tr("Capacity curve"));
    mMonths = new QTableWidget(0, 5, this);
    mMonths->setObjectName("SizingMonthsTable");
    mMonths->setHorizontalHeaderLabels(
        {tr("Month"), tr("Jobs"), tr("Nodes"), tr("$/month"), tr("The plan's own cluster")});
    mMonths->setEditTriggers(QAbstractItemView::NoEditTriggers);
    mMonths->setSelectionBehavior(QAbstractItemView::SelectRows);
    mMonths->verticalHeader()->setVisible(false);
    mMonths->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    mMonths->horizontalHeader()->setStretchLastSection(true);
    addTab(mMonths, tr("Month by month"));
    clear();
}

void SizingCurveView::clear()
{
    mMonths->setRowCount(0);
    clearChart(mChart);
    mChart->setTitle(tr("Give a growth and a horizon for the month-by-month curve"));
}

void SizingCurveView::showResult(const study::SizingResult& r)
{
    clear();
    if (r.months.empty())
        return;
    const NodeTemplate* nt = mCatalog.nodeTemplate(curveTemplate(r));
    const QString name = nt ? q(nt->name.empty() ? nt->id : nt->name) : q(curveTemplate(r));
    mMonths->setRowCount(static_cast<int>(r.months.size()));
    mMonths->horizontalHeaderItem(2)->setText(tr("Nodes of %1").arg(name));
    auto* nodes = new QLineSeries;
    nodes->setName(tr("Nodes needed (%1)").arg(name));
    int top = 1;
    for (std::size_t i = 0; i < r.months.size(); ++i) {
        const study::SizingMonth& m = r.months[i];
        const int row = static_cast<int>(i);
        mMonths->setItem(row, 0, curveCell(QString::number(m.month), true));
        mMonths->setItem(row, 1, curveCell(text::grouped(m.jobs), true));
        mMonths->setItem(row, 2, curveCell(m.nodes ? QString::number(*m.nodes) : tr("–"), true));
        mMonths->setItem(row, 3, curveCell(m.nodes ? text::usd(m.costPerMonthUsd) : tr("–"), true));
        const bool firstShort = r.currentRunsOutMonth && m.month == *r.currentRunsOutMonth;
        mMonths->setItem(row, 4,
                         curveCell(m.currentHosts ? tr("hosts it")
                                   : firstShort   ? tr("✗ runs out")
                                                  : tr("✗ does not host it"),
                                   false));
        if (!m.currentHosts)
            mMonths->item(row, 4)->setForeground(QColor("#c62828"));
        if (m.nodes) {
            nodes->append(m.month, *m.nodes);
            top = std::max(top, *m.nodes);
        }
    }
    auto* x = new QValueAxis;
    x->setTitleText(tr("month"));
    x->setRange(0, r.months.back().month);
    x->setLabelFormat("%d");
    x->setTickCount(std::min(r.months.back().month, 12) + 1);
    auto* y = new QValueAxis;
    y->setTitleText(tr("nodes"));
    y->setRange(0, top * 1.15 + 1);
    y->applyNiceNumbers(); // whole, round node counts on the axis
    y->setLabelFormat("%d");
    mChart->addAxis(x, Qt::AlignBottom);
    mChart->addAxis(y, Qt::AlignLeft);
    mChart->addSeries(nodes);
    nodes->attachAxis(x);
    nodes->attachAxis(y);
    nodes->setPointsVisible(true);
    if (r.currentRunsOutMonth) { // where the plan as drawn stops being enough
        auto* runsOut = new QLineSeries;
        runsOut->setName(tr("Current cluster runs out: month %1").arg(*r.currentRunsOutMonth));
        runsOut->append(*r.currentRunsOutMonth, 0);
        runsOut->append(*r.currentRunsOutMonth, y->max());
        runsOut->setPen(QPen(QColor("#c62828"), 2, Qt::DashLine));
        mChart->addSeries(runsOut);
        runsOut->attachAxis(x);
        runsOut->attachAxis(y);
    }
    mChart->setTitle(tr("Nodes needed, month 0 to %1").arg(r.months.back().month));
    mChart->legend()->setAlignment(Qt::AlignBottom);
}

} // namespace gp::ui
