// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#include "resultscharts.h"
#include "simulationcharts.h"
#include "ui/figures/charttheme.h"
#include "ui/figures/resultsfigures.h"

#include <QChart>
#include <QChartView>
#include <QDialog>
#include <QHeaderView>
#include <QLabel>
#include <QTableWidget>
#include <QToolButton>
#include <QVBoxLayout>

#include <algorithm>

namespace gp::ui {

QChart* ResultsCharts::addChart(const QString& title)
{
    auto* chart = new QChart;
    themeChart(chart);
    if (mDocked) // the tab names it; every pixel of height goes to the axes and bars
        compactChart(chart);
    else
        chart->setTitle(title);
    auto* view = new QChartView(chart, this);
    view->setRenderHint(QPainter::Antialiasing);
    // What the chart cannot show on a plan, in its place (hidden while it shows something).
    auto* note = new QLabel(view->viewport());
    note->setObjectName("ChartNote");
    note->setWordWrap(true);
    note->setAlignment(Qt::AlignCenter);
    note->setMargin(24);
    note->hide();
    auto* layout = new QVBoxLayout(view->viewport());
    layout->addWidget(note);
    mNotes.insert(chart, note);
    addTab(view, title);
    return chart;
}

void ResultsCharts::setNote(QChart* chart, const QString& text)
{
    QLabel* note = mNotes.value(chart);
    note->setText(text);
    note->setVisible(!text.isEmpty());
    chart->setVisible(text.isEmpty());
}

QString ResultsCharts::note(const QChart* chart) const
{
    const QLabel* note = mNotes.value(chart);
    return note && !note->isHidden() ? note->text() : QString();
}

ResultsCharts::ResultsCharts(QWidget* parent, bool docked) : QTabWidget(parent), mDocked(docked)
{
    mCost = addChart(resultsChartTitle(ResultsChart::Cost));
    mMemory = addChart(resultsChartTitle(ResultsChart::Memory));
    mTradeOff = addChart(resultsChartTitle(ResultsChart::TradeOff));
    mLinks = addChart(resultsChartTitle(ResultsChart::Links));
    mCompletion = new CompletionView(this);
    addTab(mCompletion, tr("Completion times"));
    mTimeline = new TimelineView(this);
    addTab(mTimeline, tr("Timeline"));
    mModes = addChart(resultsChartTitle(ResultsChart::SharingModes));
    mTradeOff->setToolTip(tr("Each placed job: its memory per GPU as a share of its slot (across) against its "
                             "sharing penalty (up), coloured by tenant"));
    mModes->setToolTip(tr("The tenant mix under each sharing mode at its best setting: VRAM utilization (across) "
                          "against the mean sharing penalty (up); the green zone is the planning target"));
    mMatrix = new QTableWidget(this);
    mMatrix->setEditTriggers(QAbstractItemView::NoEditTriggers);
    mMatrix->horizontalHeader()->setSectionResizeMode(QHeaderView::Stretch);
    mMatrix->setToolTip(tr("The current tenant mix with every GPU shared one way, each mode at its best setting "
                           "(its densest packing: fewest unplaced jobs, then the least GPU share allocated, then the "
                           "lowest penalty). Isolation "
                           "per NVIDIA's MIG, vGPU and MPS documentation; see docs/model-reference.md."));
    addTab(mMatrix, tr("Sharing trade-offs"));
    if (docked) {
        compactChart(mCompletion->chart());
        compactChart(mTimeline->chart());
        auto* popOut = new QToolButton(this);
        popOut->setObjectName("PopOutChart");
        popOut->setText(tr("Open in Window"));
        popOut->setToolTip(tr("Show this tab in a window of its own, as large as you like; closing the window "
                              "puts it back"));
        popOut->setAutoRaise(true);
        connect(popOut, &QToolButton::clicked, this, [this] { popOutCurrent(); });
        setCornerWidget(popOut, Qt::TopRightCorner);
    }
}

QWidget* ResultsCharts::popOutCurrent()
{
    const int index = currentIndex();
    QWidget* page = currentWidget();
    if (!page || page->objectName() == "PoppedOut") // its window is open already
        return nullptr;
    const QString title = tabText(index);
    auto* window = new QDialog(this, Qt::Window);
    window->setObjectName("ChartWindow");
    window->setAttribute(Qt::WA_DeleteOnClose);
    window->setWindowTitle(title);
    auto* layout = new QVBoxLayout(window);
    auto* placeholder = new QLabel(tr("%1 is open in its own window; close that window to bring it back.").arg(title));
    placeholder->setObjectName("PoppedOut");
    placeholder->setAlignment(Qt::AlignCenter);
    removeTab(index);
    insertTab(index, placeholder, title);
    setCurrentIndex(index);
    layout->addWidget(page);
    page->show();
    auto* chartView = qobject_cast<QChartView*>(page);
    if (chartView)
        chartView->chart()->setTitle(title);
    // Back in its tab when the window closes (the page outlives the window: it is re-parented
    // before the window deletes its children).
    connect(window, &QDialog::finished, this, [this, page, placeholder, title, chartView] {
        const int at = indexOf(placeholder);
        if (chartView && mDocked)
            chartView->chart()->setTitle(QString());
        page->setParent(nullptr);
        removeTab(at);
        insertTab(at, page, title);
        setCurrentIndex(at);
        delete placeholder;
    });
    window->resize(std::max(900, width()), 600);
    window->show();
    return window;
}

void ResultsCharts::showAlternatives(const std::vector<calc::SharingAlternative>& alts)
{
    const SharingMatrix m = sharingMatrix(alts);
    mMatrix->clear();
    mMatrix->setRowCount(static_cast<int>(m.rows.size()));
    mMatrix->setColumnCount(static_cast<int>(m.columns.size()));
    mMatrix->setVerticalHeaderLabels(m.rows);
    for (int c = 0; c < static_cast<int>(m.columns.size()); ++c)
        for (int r = 0; r < static_cast<int>(m.rows.size()); ++r) {
            const MatrixCell& cell = m.cells[static_cast<std::size_t>(r)][static_cast<std::size_t>(c)];
            auto* item = new QTableWidgetItem(cell.text);
            item->setTextAlignment(Qt::AlignCenter);
            if (cell.colour.isValid())
                item->setForeground(cell.colour);
            if (!cell.toolTip.isEmpty())
                item->setToolTip(cell.toolTip);
            mMatrix->setItem(r, c, item);
        }
    mMatrix->setHorizontalHeaderLabels(m.columns);
    drawSharingModesChart(mModes, alts, mCurrent, mDocked);
}

void ResultsCharts::showEvaluation(const Scenario& s, const calc::Evaluation& ev)
{
    mCurrent = ev.kpis;
    setNote(mCost, drawCostChart(mCost, ev));
    setNote(mMemory, drawMemoryChart(mMemory, s, ev, mDocked));
    setNote(mTradeOff, drawTradeOffChart(mTradeOff, s, ev, mDocked));
    setNote(mLinks, drawLinksChart(mLinks, ev, mDocked));
}

} // namespace gp::ui
