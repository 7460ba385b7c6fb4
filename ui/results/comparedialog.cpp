// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#include "comparedialog.h"

#include "calc/evaluate.h"
#include "calc/kpiregistry.h"
#include "model/scenariodiff.h"
#include "presentationwindow.h"
#include "ui/canvas/canvasscene.h"
#include "ui/figures/charttheme.h"
#include "ui/figures/recommendation.h"

#include <QApplication>
#include <QBarCategoryAxis>
#include <QBarSet>
#include <QChartView>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QFileDialog>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QInputDialog>
#include <QLabel>
#include <QLineSeries>
#include <QListWidget>
#include <QMessageBox>
#include <QPainter>
#include <QPushButton>
#include <QScatterSeries>
#include <QSplitter>
#include <QStackedBarSeries>
#include <QTabWidget>
#include <QTableWidget>
#include <QVBoxLayout>
#include <QValueAxis>

#include <algorithm>

namespace gp::ui {

namespace {

const QColor kColours[] = {QColor("#4e79a7"), QColor("#f28e2b"), QColor("#59a14f"), QColor("#b07aa1")};

QString letter(std::size_t i) { return QString(QChar('A' + static_cast<int>(i))); }

QChart* addChart(QWidget* parent, QLayout* layout, const QString& title)
{
    auto* chart = new QChart;
    themeChart(chart);
    chart->setTitle(title);
    auto* view = new QChartView(chart, parent);
    view->setRenderHint(QPainter::Antialiasing);
    view->setMinimumHeight(260);
    layout->addWidget(view);
    return chart;
}

} // namespace

CompareDialog::CompareDialog(const Catalog& catalog, std::vector<std::shared_ptr<const sim::PlanResults>> results,
                             QWidget* parent)
    : QDialog(parent), mCatalog(catalog), mResults(std::move(results)), mKpis(new QTableWidget(this)),
      mDiff(new QListWidget(this))
{
    setWindowTitle(tr("Compare %n scenario(s)", nullptr, static_cast<int>(mResults.size())));
    std::vector<std::map<std::string, double>> values;
    for (const auto& r : mResults) {
        mScenarios.push_back(*r->scenario);
        mEvaluations.push_back(*r->evaluation);
        mSimulations.push_back(*r->simulation);
        values.push_back(sim::kpiValues(*r));
    }
    mRows = calc::compareKpis(values);

    // The KPI table: values, and each change against A marked better (green) or worse (red).
    mKpis->setColumnCount(static_cast<int>(mScenarios.size()));
    mKpis->setRowCount(static_cast<int>(mRows.size()));
    QStringList headers, labels;
    for (std::size_t i = 0; i < mScenarios.size(); ++i)
        headers << QString("%1: %2").arg(letter(i), QString::fromStdString(mScenarios[i].name));
    mKpis->setHorizontalHeaderLabels(headers);
    for (int r = 0; r < static_cast<int>(mRows.size()); ++r) {
        const calc::KpiComparison& row = mRows[static_cast<std::size_t>(r)];
        labels << QString::fromStdString(row.spec.label);
        for (int c = 0; c < static_cast<int>(row.values.size()); ++c) {
            const auto i = static_cast<std::size_t>(c);
            QString text = QString::fromStdString(calc::formatKpiValue(row.spec, row.values[i]));
            if (c > 0 && row.verdicts[i] != calc::Verdict::Same)
                text += QString("  (%1, %2)")
                            .arg(QString::fromStdString(calc::formatKpiDelta(row.spec, row.deltas[i])),
                                 row.verdicts[i] == calc::Verdict::Better ? tr("better") : tr("worse"));
            auto* item = new QTableWidgetItem(text);
            item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
            if (c > 0 && row.verdicts[i] == calc::Verdict::Better)
                item->setForeground(QColor("#2e7d32"));
            else if (c > 0 && row.verdicts[i] == calc::Verdict::Worse)
                item->setForeground(QColor("#c62828"));
            mKpis->setItem(r, c, item);
        }
    }
    mKpis->setVerticalHeaderLabels(labels);
    mKpis->setEditTriggers(QAbstractItemView::NoEditTriggers);
    mKpis->horizontalHeader()->setSectionResizeMode(QHeaderView::Stretch);

    // What differs in the plans, A against each other.
    for (std::size_t i = 1; i < mScenarios.size(); ++i) {
        const std::vector<std::string> lines = diffScenarios(mScenarios.front(), mScenarios[i], &mCatalog);
        auto* head = new QListWidgetItem(
            tr("A → %1: %n change(s)", nullptr, static_cast<int>(lines.size())).arg(letter(i)), mDiff);
        QFont bold = head->font();
        bold.setBold(true);
        head->setFont(bold);
        for (const std::string& line : lines)
            new QListWidgetItem("    " + QString::fromStdString(line), mDiff);
    }

    auto* tabs = new QTabWidget(this);
    auto* overview = new QWidget(tabs);
    auto* ov = new QVBoxLayout(overview);
    ov->addWidget(mKpis, 3);
    // Topology thumbnails, one per scenario.
    auto* thumbs = new QHBoxLayout;
    for (std::size_t i = 0; i < mScenarios.size(); ++i) {
        CanvasScene scene(catalog);
        scene.rebuild(mScenarios[i]);
        scene.decorate(mScenarios[i], mEvaluations[i]);
        QPixmap pix(320, 200);
        pix.fill(palette().base().color());
        QPainter p(&pix);
        p.setRenderHint(QPainter::Antialiasing);
        scene.render(&p, QRectF(pix.rect()), scene.contentBounds().adjusted(-80, -20, 20, 20), Qt::KeepAspectRatio);
        p.end();
        auto* box = new QVBoxLayout;
        auto* title = new QLabel(
            QString("<b>%1</b>: %2").arg(letter(i), QString::fromStdString(mScenarios[i].name).toHtmlEscaped()));
        auto* picture = new QLabel;
        picture->setPixmap(pix);
        box->addWidget(title);
        box->addWidget(picture);
        thumbs->addLayout(box);
    }
    ov->addLayout(thumbs, 2);
    tabs->addTab(overview, tr("KPIs and topology"));

    auto* charts = new QWidget(tabs);
    auto* cv = new QHBoxLayout(charts);
    mTradeOff = addChart(charts, cv, tr("VRAM utilization against mean penalty"));
    mCost = addChart(charts, cv, tr("Cost per month"));
    mCompletion = addChart(charts, cv, tr("Completion of the slowest training job"));
    tabs->addTab(charts, tr("Charts"));
    tabs->addTab(mDiff, tr("What differs"));

    // Recommended vs current: B (or the plan chosen) against A, in the figures a decision needs.
    auto* verdict = new QWidget(tabs);
    auto* vl = new QVBoxLayout(verdict);
    auto* chooser = new QComboBox(verdict);
    chooser->setObjectName("CompareRecommended");
    for (std::size_t i = 1; i < mScenarios.size(); ++i)
        chooser->addItem(
            tr("Recommended: %1 (%2) — against A").arg(letter(i), QString::fromStdString(mScenarios[i].name)));
    chooser->setVisible(mScenarios.size() > 2);
    mRecommendation = new QLabel(verdict);
    mRecommendation->setObjectName("CompareRecommendation");
    mRecommendation->setWordWrap(true);
    mRecommendation->setTextFormat(Qt::RichText);
    mRecommendation->setAlignment(Qt::AlignTop | Qt::AlignLeft);
    mRecommendation->setTextInteractionFlags(Qt::TextSelectableByMouse);
    vl->addWidget(chooser);
    vl->addWidget(mRecommendation, 1);
    auto showRecommendation = [this](int index) {
        if (index >= 0 && static_cast<std::size_t>(index) + 1 < mResults.size())
            mRecommendation->setText(recommendationPageHtml(
                recommend(*mResults.front(), *mResults[static_cast<std::size_t>(index) + 1], mCatalog)));
    };
    connect(chooser, &QComboBox::currentIndexChanged, this, showRecommendation);
    showRecommendation(0);
    tabs->addTab(verdict, tr("Recommended vs current"));
    mTabs = tabs;

    // Overlaid charts: one point, one bar and one curve per scenario, in the same colours.
    auto* x = new QValueAxis;
    x->setTitleText(tr("VRAM utilization (%)"));
    x->setRange(0, 100);
    auto* y = new QValueAxis;
    y->setTitleText(tr("mean penalty (%)"));
    double maxPenalty = 5;
    mTradeOff->addAxis(x, Qt::AlignBottom);
    mTradeOff->addAxis(y, Qt::AlignLeft);
    // The cost's four parts (calc::costParts): they add up to each plan's cost, so no bar is
    // taller than its bill.
    std::vector<QBarSet*> parts;
    for (const calc::CostPart& part : calc::costParts()) {
        parts.push_back(new QBarSet(QString::fromUtf8(part.label)));
        parts.back()->setColor(QColor(part.color));
    }
    QStringList names;
    auto* days = new QValueAxis;
    days->setTitleText(tr("completion (days)"));
    auto* share = new QValueAxis;
    share->setTitleText(tr("trials (%)"));
    mCompletion->addAxis(days, Qt::AlignBottom);
    mCompletion->addAxis(share, Qt::AlignLeft);
    double lo = 1e300, hi = 0, top = 1;
    for (std::size_t i = 0; i < mScenarios.size(); ++i) {
        const calc::Kpis& k = mEvaluations[i].kpis;
        auto* point = new QScatterSeries;
        point->setName(letter(i));
        point->setColor(kColours[i % 4]);
        point->setMarkerSize(14);
        point->append(k.vramUtilization * 100.0, k.meanPenalty * 100.0);
        maxPenalty = std::max(maxPenalty, k.meanPenalty * 110.0);
        mTradeOff->addSeries(point);
        point->attachAxis(x);
        point->attachAxis(y);
        for (std::size_t p = 0; p < parts.size(); ++p)
            *parts[p] << k.costBreakdown.*calc::costParts()[p].value / 1000.0;
        names << letter(i);
        // The slowest training job's histogram as a line.
        const sim::JobSimulation* slowest = nullptr;
        for (const sim::JobSimulation& j : mSimulations[i].jobs)
            if (j.training && !j.histogram.empty() && (!slowest || j.completionDays.p95 > slowest->completionDays.p95))
                slowest = &j;
        if (!slowest)
            continue;
        auto* curve = new QLineSeries;
        curve->setName(QString("%1: P95 %2 d").arg(letter(i)).arg(slowest->completionDays.p95, 0, 'f', 1));
        curve->setPen(QPen(kColours[i % 4], 2));
        int total = 0;
        for (int c : slowest->histogram)
            total += c;
        const double width =
            (slowest->histogramMaxDays - slowest->histogramMinDays) / static_cast<double>(slowest->histogram.size());
        for (std::size_t b = 0; b < slowest->histogram.size(); ++b) {
            const double pctTrials = total > 0 ? 100.0 * slowest->histogram[b] / total : 0.0;
            curve->append(slowest->histogramMinDays + width * (static_cast<double>(b) + 0.5), pctTrials);
            top = std::max(top, pctTrials);
        }
        lo = std::min(lo, slowest->histogramMinDays);
        hi = std::max(hi, slowest->histogramMaxDays);
        mCompletion->addSeries(curve);
        curve->attachAxis(days);
        curve->attachAxis(share);
    }
    y->setRange(0, maxPenalty);
    if (hi > lo) {
        days->setRange(lo, hi);
        days->applyNiceNumbers();
    }
    share->setRange(0, top * 1.1);
    auto* bars = new QStackedBarSeries;
    for (QBarSet* set : parts)
        bars->append(set);
    mCost->addSeries(bars);
    auto* cats = new QBarCategoryAxis;
    cats->append(names);
    mCost->addAxis(cats, Qt::AlignBottom);
    bars->attachAxis(cats);
    auto* usd = new QValueAxis;
    usd->setTitleText(tr("$ thousand per month"));
    mCost->addAxis(usd, Qt::AlignLeft);
    bars->attachAxis(usd);

    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    QPushButton* presentButton = buttons->addButton(tr("Present…"), QDialogButtonBox::ActionRole);
    QPushButton* slidesButton = buttons->addButton(tr("Export Slides (PDF)…"), QDialogButtonBox::ActionRole);
    connect(slidesButton, &QPushButton::clicked, this, [this] {
        const QString pdf =
            QFileDialog::getSaveFileName(this, tr("Export Comparison Slides"), tr("comparison.pdf"), tr("PDF (*.pdf)"));
        if (pdf.isEmpty())
            return;
        QApplication::setOverrideCursor(Qt::WaitCursor);
        const Status written = SlideDeck(mResults, mCatalog, QString()).writePdf(pdf);
        QApplication::restoreOverrideCursor();
        if (!written)
            QMessageBox::critical(this, tr("Cannot export the slides"), QString::fromStdString(written.errorText()));
    });
    connect(presentButton, &QPushButton::clicked, this, [this] {
        bool ok = false;
        const QString text = QInputDialog::getMultiLineText(
            this, tr("Present"), tr("Your recommendation, for the last slide:"), QString(), &ok);
        if (ok)
            present(text);
    });
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(tabs);
    layout->addWidget(buttons);
    resize(1280, 820);
}

PresentationWindow* CompareDialog::present(const QString& recommendation, bool fullScreen)
{
    return PresentationWindow::open(std::make_unique<SlideDeck>(mResults, mCatalog, recommendation), this, fullScreen);
}

} // namespace gp::ui
