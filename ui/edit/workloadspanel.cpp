// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#include "workloadspanel.h"
#include "model/units.h"

#include "calc/kpiexplain.h"
#include "io/textformat.h"

#include "ui/figures/charttheme.h"

#include "calc/comparison.h"
#include "calc/evaluate.h"
#include "calc/kpiregistry.h"
#include "model/enumnames.h"
#include "ui/canvas/canvasview.h"

#include <QMimeData>

#include <QBarCategoryAxis>
#include <QBarSeries>
#include <QBarSet>
#include <QChart>
#include <QChartView>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QHorizontalStackedBarSeries>
#include <QLabel>
#include <QLegendMarker>
#include <QLineSeries>
#include <QLogValueAxis>
#include <QScatterSeries>
#include <QScrollArea>
#include <QScrollBar>
#include <QSplitter>
#include <QTableWidget>
#include <QVBoxLayout>
#include <QValueAxis>

namespace gp::ui {

namespace {

/// The jobs table; dragging a row carries its job id to the canvas (to pin the job).
class JobTable : public QTableWidget
{
public:
    JobTable(int rows, int columns, QWidget* parent) : QTableWidget(rows, columns, parent)
    {
        setDragEnabled(true);
        setDragDropMode(QAbstractItemView::DragOnly);
    }

protected:
    QStringList mimeTypes() const override { return {CanvasView::kJobMimeType}; }
    QMimeData* mimeData(const QList<QTableWidgetItem*>& items) const override
    {
        auto* data = new QMimeData;
        if (!items.isEmpty())
            if (QTableWidgetItem* job = item(items.front()->row(), 1))
                data->setData(CanvasView::kJobMimeType, job->data(Qt::UserRole).toString().toUtf8());
        return data;
    }
};

const QStringList kColumns = {"Tenant", "Job", "Kind",     "Model",   "TP×PP×DP", "Placed", "GiB/GPU", "Penalty",
                              "TTFT",   "ITL", "TTFT P99", "ITL P99", "SLO",      "MFU",    "Days",    "$/month"};
constexpr int kFirstServing = 8, kLastServing = 12; // TTFT .. SLO
constexpr int kPenaltyColumn = 7;
constexpr int kCostColumn = 15; // "$/month"

using text::q;

/// A latency as the table shows it: ms below a second, "unbounded" for a saturated queue.
using text::latency;
using text::percent;

/// A placed job's penalty by resource and the co-tenant that costs it most (by its name, one of
/// `all`), in one line.
QString penaltyExplanation(const calc::JobResult& r, const std::vector<calc::JobResult>& all)
{
    QString neighbour = q(r.noisiestNeighbour);
    for (const calc::JobResult& other : all)
        if (other.id == r.noisiestNeighbour && !other.name.empty())
            neighbour = q(other.name);
    QStringList parts;
    for (const calc::PenaltyPart& part : calc::penaltyParts())
        if (r.penaltyBreakdown.*part.value >= 0.0005)
            parts << QObject::tr("%1 %2").arg(QObject::tr(part.label), percent(r.penaltyBreakdown.*part.value));
    QString text = QObject::tr("Penalty %1 against the same share dedicated").arg(percent(r.penalty));
    if (!parts.isEmpty())
        text += QObject::tr(" — %1").arg(parts.join(" · "));
    if (r.slowdownVsDedicated >= 0.0005)
        text += QObject::tr("; its share runs %1 slower than whole GPUs (a sizing choice)")
                    .arg(percent(r.slowdownVsDedicated));
    text += r.noisiestNeighbour.empty()
                ? QObject::tr("; no co-tenant adds to it")
                : QObject::tr("; noisiest neighbour %1 (+%2)").arg(neighbour, percent(r.noisiestNeighbourCost));
    return text;
}

/// What each part counts (the explanation's tooltip).
QString penaltyMeanings()
{
    QStringList lines;
    for (const calc::PenaltyPart& part : calc::penaltyParts())
        lines << QObject::tr("<b>%1</b>: %2")
                     .arg(QObject::tr(part.label), QString::fromUtf8(part.meaning).toHtmlEscaped());
    return lines.join("<br>") + QObject::tr("<br>docs/model-reference.md#sharing-modes-corecalcslotscpp");
}

} // namespace

WorkloadsPanel::WorkloadsPanel(const Catalog& catalog, QWidget* parent)
    : QWidget(parent), mTable(new JobTable(0, static_cast<int>(kColumns.size()), this)), mBreakdown(new QLabel(this)),
      mPenalty(new QLabel(this)), mChartView(new QChartView(this)), mChart(new QChart), mStepView(new QChartView(this)),
      mStepChart(new QChart), mStepLegend(new QLabel(this)), mServingView(new QChartView(this)),
      mServingChart(new QChart), mCatalog(catalog)
{
    mTable->setHorizontalHeaderLabels(kColumns);
    mTable->setSelectionBehavior(QAbstractItemView::SelectRows);
    mTable->setSelectionMode(QAbstractItemView::SingleSelection);
    mTable->setEditTriggers(QAbstractItemView::NoEditTriggers);
    mTable->verticalHeader()->hide();
    mTable->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    themeChart(mChart);
    mChart->legend()->hide();
    mChart->setTitle(tr("Memory per layer (GiB per GPU)"));
    QChart* placeholder = mChartView->chart(); // the view made its own; setChart hands it back
    mChartView->setChart(mChart);
    delete placeholder;
    mChartView->setRenderHint(QPainter::Antialiasing);
    themeChart(mStepChart);
    mStepChart->setTitle(tr("Step time"));
    QChart* stepPlaceholder = mStepView->chart();
    mStepView->setChart(mStepChart);
    delete stepPlaceholder;
    mStepView->setRenderHint(QPainter::Antialiasing);
    mStepView->setMinimumHeight(80);
    mStepView->setMaximumHeight(105); // a title and one bar: the per-layer chart keeps the rest
    mStepChart->setMargins(QMargins(4, 0, 4, 0));
    mStepChart->legend()->hide();
    mStepLegend->setWordWrap(true);
    mStepLegend->setTextFormat(Qt::RichText);
    mBreakdown->setWordWrap(true);
    mBreakdown->setTextFormat(Qt::RichText);
    mPenalty->setWordWrap(true);
    mPenalty->setToolTip(penaltyMeanings());
    themeChart(mServingChart);
    QChart* servingPlaceholder = mServingView->chart();
    mServingView->setChart(mServingChart);
    delete servingPlaceholder;
    mServingView->setRenderHint(QPainter::Antialiasing);
    mServingView->setMinimumHeight(150);
    mServingView->hide();

    auto* right = new QWidget(this);
    auto* rv = new QVBoxLayout(right);
    rv->setContentsMargins(0, 0, 0, 0);
    rv->addWidget(mBreakdown);
    rv->addWidget(mPenalty);
    rv->addWidget(mChartView, 1);
    rv->addWidget(mServingView, 1);
    rv->addWidget(mStepView);
    rv->addWidget(mStepLegend);
    // The job's details scroll in a short dock instead of making the window taller than a
    // 1366×768 screen (issue 36: their minimum alone was 315 px).
    auto* details = new QScrollArea(this);
    details->setObjectName("jobDetails");
    details->setWidgetResizable(true);
    details->setFrameShape(QFrame::NoFrame);
    details->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    details->setWidget(right);
    details->setMinimumWidth(360 + details->verticalScrollBar()->sizeHint().width());
    auto* split = new QSplitter(Qt::Horizontal, this);
    split->addWidget(mTable);
    split->addWidget(details);
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 2);
    split->setSizes({640, 480});
    mChartView->setMinimumHeight(150);
    right->setMinimumWidth(360);
    auto* layout = new QHBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(split);
    connect(mTable, &QTableWidget::currentCellChanged, this, [this](int row, int column) {
        showProfile(row);
        if (row < 0)
            return;
        // The tenant column selects the tenant (for the inspector); any other cell the job.
        if (column == 0)
            Q_EMIT tenantSelected(mTable->item(row, 0)->data(Qt::UserRole).toString());
        else
            Q_EMIT jobSelected(mTable->item(row, 1)->data(Qt::UserRole).toString());
    });
    connect(mTable, &QTableWidget::cellClicked, this, [this](int row, int column) {
        const QTableWidgetItem* job = mTable->item(row, 1);
        if (!job)
            return;
        if (column == kPenaltyColumn)
            Q_EMIT explainRequested(job->data(Qt::UserRole).toString(), "penalty");
        else if (column == kCostColumn)
            Q_EMIT explainRequested(job->data(Qt::UserRole).toString(), "cost");
    });
    mTable->setContextMenuPolicy(Qt::CustomContextMenu);
    connect(mTable, &QWidget::customContextMenuRequested, this, [this](const QPoint& at) {
        const QModelIndex index = mTable->indexAt(at);
        const QTableWidgetItem* tenant = index.isValid() ? mTable->item(index.row(), 0) : nullptr;
        const QTableWidgetItem* job = index.isValid() ? mTable->item(index.row(), 1) : nullptr;
        if (!tenant || !job)
            return;
        const QPoint global = mTable->viewport()->mapToGlobal(at);
        if (index.column() == 0)
            Q_EMIT contextMenuRequested("tenant", tenant->data(Qt::UserRole).toString(), global);
        else {
            mTable->setCurrentCell(index.row(), index.column()); // the menu is about this row
            Q_EMIT contextMenuRequested("job", job->data(Qt::UserRole).toString(), global);
        }
    });
    connect(mTable, &QTableWidget::cellDoubleClicked, this, [this](int row) {
        if (const QTableWidgetItem* item = mTable->item(row, 1))
            Q_EMIT editJobRequested(item->data(Qt::UserRole).toString());
    });
}

int WorkloadsPanel::rowCount() const { return mTable->rowCount(); }

QString WorkloadsPanel::selectedJobId() const
{
    const QTableWidgetItem* item = mTable->currentRow() >= 0 ? mTable->item(mTable->currentRow(), 1) : nullptr;
    return item ? item->data(Qt::UserRole).toString() : QString();
}

void WorkloadsPanel::showEvaluation(const Scenario& s, const calc::Evaluation& ev)
{
    const QString current = selectedJobId();
    mEvaluation = ev;
    mScenario = s;
    std::map<std::string, const Job*> jobs;
    std::map<std::string, const Tenant*> tenants;
    for (const Tenant& t : s.tenants) {
        tenants[t.id] = &t;
        for (const Job& j : t.jobs)
            jobs[j.id] = &j;
    }
    // Models as the catalog names them ("Llama 3 70B"); a custom shape as such.
    const auto modelName = [this](const std::string& preset) {
        const ModelPreset* m = preset.empty() ? nullptr : mCatalog.model(preset);
        return preset.empty() ? tr("custom") : q(m && !m->name.empty() ? m->name : preset);
    };
    QSignalBlocker block(mTable);
    mTable->setRowCount(static_cast<int>(ev.jobs.size()));
    for (int row = 0; row < static_cast<int>(ev.jobs.size()); ++row) {
        const calc::JobResult& r = ev.jobs[static_cast<std::size_t>(row)];
        const Job* job = jobs.count(r.id) ? jobs[r.id] : nullptr;
        const Tenant* tenant = tenants.count(r.tenant) ? tenants[r.tenant] : nullptr;
        const QString parallel =
            job ? QString("%1×%2×%3").arg(job->parallelism.tp).arg(job->parallelism.pp).arg(job->parallelism.dp) +
                      (job->parallelism.cp > 1 ? QString("×%1 CP").arg(job->parallelism.cp) : QString())
                : QString();
        const QStringList cells = {tenant ? q(tenant->name) : q(r.tenant),
                                   job ? q(job->name) : q(r.id),
                                   job ? q(std::string(displayName(job->kind))) : QString(),
                                   job ? modelName(job->model.preset) : QString(),
                                   parallel,
                                   r.placed ? (r.oomRisk ? tr("yes, OOM risk") : tr("yes")) : tr("no"),
                                   QString::number(r.memory.totalBytes() / kGiB, 'f', 1),
                                   r.placed ? percent(r.penalty) : "–",
                                   r.serving ? latency(r.serving->ttftS) : "–",
                                   r.serving ? latency(r.serving->itlS) : "–",
                                   r.serving ? latency(r.serving->ttftP99S) : "–",
                                   r.serving ? latency(r.serving->itlP99S) : "–",
                                   r.serving ? QString::fromStdString(calc::formatSloAttainment(*r.serving)) : "–",
                                   r.placed ? percent(r.perf.mfu) : "–",
                                   r.placed && r.perf.daysToComplete ? QString::number(*r.perf.daysToComplete, 'f', 1)
                                                                     : "–",
                                   text::usd(r.costPerMonthUsd)};
        for (int c = 0; c < cells.size(); ++c) {
            auto* item = new QTableWidgetItem(cells[c]);
            if (c >= 6)
                item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
            if (!r.placed || r.oomRisk)
                item->setForeground(QColor("#c0392b"));
            if (!r.placed)
                item->setToolTip(tr("Not placed: %1").arg(q(r.reason)));
            else if (c == 4 && !r.tpLink.empty()) // parallelism: the link its TP groups use
                item->setToolTip(r.tpLink == "pcie" ? tr("Warning: %1").arg(q(calc::tpLinkWarning(r)))
                                                    : tr("Tensor parallelism over NVLink"));
            else if (c == kPenaltyColumn) {
                // A job outside its tenant's SLA: flagged in red, with why.
                const std::string miss = calc::slaMissReason(r, s);
                item->setToolTip(miss.empty() ? penaltyExplanation(r, ev.jobs)
                                              : tr("Outside its SLA: %1").arg(q(miss)) + "\n\n" +
                                                    penaltyExplanation(r, ev.jobs));
                if (!miss.empty()) {
                    item->setForeground(QColor("#c0392b"));
                    item->setText(item->text() + " ⚠");
                }
            } else if (c == kCostColumn && r.tokenCost) {
                // What its tokens cost, priced by the engine time of each phase (issue 39, item 5).
                item->setToolTip(tr("%1 per month for its GPU share; %2. Input and output priced by the engine "
                                    "time of prefill and decode; used: the useful cost while the engine is busy. "
                                    "docs/model-reference.md#cost-per-million-tokens")
                                     .arg(text::usd(r.costPerMonthUsd), q(calc::tokenCostText(*r.tokenCost))));
            } else if (r.serving && c >= kFirstServing && c <= kLastServing) {
                const calc::ServingResult& v = *r.serving;
                item->setToolTip(tr("%1 users in the batch of %2 the KV cache holds%3; %4 req/s, %5 output tok/s; "
                                    "own prefill %6, queue %7. docs/model-reference.md#serving")
                                     .arg(QString::number(v.running, 'f', 0))
                                     .arg(v.maxBatch)
                                     .arg(v.saturated       ? tr(", saturated: the queue grows")
                                          : v.queued >= 0.5 ? tr(", %1 queued").arg(v.queued, 0, 'f', 0)
                                                            : QString())
                                     .arg(v.requestsPerS, 0, 'f', 2)
                                     .arg(v.outputTokensPerS, 0, 'f', 0)
                                     .arg(latency(v.prefillS), latency(v.queueS)));
                // Red only where this figure misses: a P99 past its objective (or unbounded), an
                // attainment below 99 % (issue 36: a job outside its SLA for its penalty turned
                // perfect latencies red).
                const std::optional<double> limitMs = !tenant                  ? std::nullopt
                                                      : c == kFirstServing + 2 ? tenant->sla.ttftP99Ms
                                                      : c == kFirstServing + 3 ? tenant->sla.itlP99Ms
                                                                               : std::nullopt;
                const bool misses = c == kFirstServing + 2   ? v.saturated || (limitMs && v.ttftP99S * 1e3 > *limitMs)
                                    : c == kFirstServing + 3 ? limitMs && v.itlP99S * 1e3 > *limitMs
                                    : c == kLastServing      ? v.sloJudged && v.sloAttainment < 0.99
                                                             : false;
                if (misses)
                    item->setForeground(QColor("#c0392b"));
            }
            mTable->setItem(row, c, item);
        }
        if (tenant)
            mTable->item(row, 0)->setForeground(QColor(q(tenant->color)));
        mTable->item(row, 0)->setData(Qt::UserRole, q(r.tenant));
        mTable->item(row, 1)->setData(Qt::UserRole, q(r.id));
    }
    // The detail pane follows the selection in this plan: the job chosen before if this plan has
    // it, else nothing — never a job of the plan shown before (another scenario, a deleted job).
    if (!current.isEmpty()) {
        if (!selectJob(current)) {
            mTable->setCurrentCell(-1, -1);
            showProfile(-1);
        }
    } else if (mTable->rowCount() > 0) {
        showProfile(mTable->currentRow() >= 0 ? mTable->currentRow() : 0);
    } else {
        showProfile(-1);
    }
}

QString WorkloadsPanel::cell(const QString& jobId, const QString& column) const
{
    const int c = static_cast<int>(kColumns.indexOf(column));
    for (int row = 0; row < mTable->rowCount(); ++row)
        if (mTable->item(row, 1)->data(Qt::UserRole).toString() == jobId)
            return c >= 0 ? mTable->item(row, c)->text() : QString();
    return {};
}

QString WorkloadsPanel::detailText() const { return mBreakdown->text(); }

bool WorkloadsPanel::selectJob(const QString& jobId)
{
    for (int row = 0; row < mTable->rowCount(); ++row)
        if (mTable->item(row, 1)->data(Qt::UserRole).toString() == jobId) {
            mTable->setCurrentCell(row, 1);
            showProfile(row);
            return true;
        }
    return false;
}

void WorkloadsPanel::showSteps(const calc::JobResult& r)
{
    clearChart(mStepChart);
    mStepView->setToolTip({});
    mStepLegend->clear();
    mStepLegend->setToolTip({});
    if (!r.placed) {
        mStepChart->setTitle(tr("Step time: %1 is not placed").arg(q(r.id)));
        return;
    }
    const double step = r.perf.stepTimeS;
    const bool training = r.perf.daysToComplete.has_value();
    const auto seconds = [](double s) {
        return s >= 1.0 ? QString::number(s, 'f', 2) + " s" : QString::number(s * 1e3, 'f', 2) + " ms";
    };
    auto* series = new QHorizontalStackedBarSeries;
    series->setBarWidth(0.6);
    static const char* colours[] = {"#4e79a7", "#f28e2b", "#e15759", "#76b7b2",
                                    "#59a14f", "#edc948", "#b07aa1", "#9c755f"};
    QStringList all, legend;
    int c = 0;
    for (const calc::StepPart& part : calc::stepParts()) {
        const double v = r.perf.breakdown.*part.value;
        const QString share = QString::number(v / std::max(step, 1e-300) * 100.0, 'f', 1);
        const QString label = tr(part.label);
        auto* set = new QBarSet(label);
        const QColor colour(colours[c++ % 8]);
        set->setColor(colour);
        *set << v / std::max(step, 1e-300) * 100.0;
        const QString tip = tr("<b>%1</b>: %2 (%3 % of the step)<br>%4")
                                .arg(label, seconds(v), share, QString::fromUtf8(part.formula).toHtmlEscaped());
        all << tip;
        if (v > 0)
            legend << QString("<span style=\"color:%1\">&#9632;</span>&nbsp;%2&nbsp;%3&nbsp;(%4&nbsp;%)")
                          .arg(colour.name(), label.toHtmlEscaped(), seconds(v), share);
        connect(set, &QBarSet::hovered, mStepView,
                [this, tip](bool on, int) { mStepView->setToolTip(on ? tip : QString()); });
        series->append(set);
    }
    mStepChart->addSeries(series);
    auto* y = new QBarCategoryAxis;
    y->append(training ? tr("step") : tr("token"));
    y->setLabelsVisible(false); // one bar; the title says what it is
    auto* x = new QValueAxis;
    x->setRange(0, 100);
    x->setTickCount(5);
    x->setLabelsVisible(false); // the parts' shares are in the legend below; no room for labels

    mStepChart->addAxis(y, Qt::AlignLeft);
    mStepChart->addAxis(x, Qt::AlignBottom);
    series->attachAxis(y);
    series->attachAxis(x);
    mStepLegend->setText(legend.join(" &nbsp; "));
    mStepLegend->setToolTip(all.join("<br><br>"));
    mStepChart->setTitle(training ? tr("Step time %1 — where it goes (MFU %2 %)")
                                        .arg(seconds(step), QString::number(r.perf.mfu * 100.0, 'f', 1))
                                  : tr("Time per output token %1 — where it goes").arg(seconds(step)));
}

void WorkloadsPanel::showServing(const calc::JobResult& r)
{
    clearChart(mServingChart);
    const std::vector<calc::ServingPoint> curve =
        r.serving ? calc::servingCurveOf(r, mScenario, mCatalog) : std::vector<calc::ServingPoint>{};
    // A serving job's step is one "compute" part: its curve says more and takes the space.
    mServingView->setVisible(!curve.empty());
    mChartView->setVisible(curve.empty());
    mStepView->setVisible(curve.empty());
    mStepLegend->setVisible(curve.empty());
    if (curve.empty())
        return;
    auto* ttft = new QLineSeries;
    ttft->setName(tr("TTFT"));
    auto* itl = new QLineSeries;
    itl->setName(tr("ITL"));
    double most = 0.0, low = 1e30, high = 1e-3;
    for (const calc::ServingPoint& p : curve) {
        most = std::max(most, p.outputTokensPerS);
        for (double v : {p.ttftS, p.itlS})
            if (v < 1e29) {
                low = std::min(low, v * 1e3);
                high = std::max(high, v * 1e3);
            }
        if (p.ttftS < 1e29)
            ttft->append(p.outputTokensPerS, p.ttftS * 1e3);
        itl->append(p.outputTokensPerS, p.itlS * 1e3);
    }
    ttft->setColor(QColor("#4e79a7"));
    itl->setColor(QColor("#f28e2b"));
    mServingChart->addSeries(ttft);
    mServingChart->addSeries(itl);
    // The job's operating point: its load on its GPUs.
    auto* here = new QScatterSeries;
    here->setName(tr("this job"));
    here->setMarkerSize(9);
    here->setColor(QColor("#e15759"));
    const calc::ServingResult& v = *r.serving;
    if (v.ttftS < 1e29)
        here->append(v.outputTokensPerS, v.ttftS * 1e3);
    here->append(v.outputTokensPerS, v.itlS * 1e3);
    mServingChart->addSeries(here);
    auto* x = new QValueAxis;
    x->setRange(0, std::max(most, v.outputTokensPerS) * 1.05 + 1e-9);
    x->setLabelFormat("%.0f");
    x->setTickCount(4);
    x->setTitleText(tr("output tokens/s"));
    auto* y = new QLogValueAxis;
    y->setBase(10);
    y->setRange(std::max(low * 0.7, 1e-3), high * 1.5);
    y->setLabelFormat("%g");
    y->setTitleText(tr("ms"));
    mServingChart->addAxis(x, Qt::AlignBottom);
    mServingChart->addAxis(y, Qt::AlignLeft);
    for (QAbstractSeries* series : mServingChart->series()) {
        series->attachAxis(x);
        series->attachAxis(y);
    }
    mServingChart->legend()->setAlignment(Qt::AlignRight);
    mServingChart->legend()->show();
    mServingChart->setMargins(QMargins(2, 2, 2, 2));
    mServingChart->setTitle(tr("TTFT and ITL against output tokens/s, 1–%1 users; ● this job at %2 tok/s")
                                .arg(curve.back().concurrency)
                                .arg(v.outputTokensPerS, 0, 'f', 0));
    QStringList tip;
    for (const calc::ServingPoint& p : curve)
        tip << tr("%1 users: %2 tok/s, TTFT %3, ITL %4")
                   .arg(p.concurrency)
                   .arg(p.outputTokensPerS, 0, 'f', 0)
                   .arg(latency(p.ttftS), latency(p.itlS));
    mServingView->setToolTip(tip.join("\n"));
}

void WorkloadsPanel::showProfile(int row)
{
    clearChart(mChart);
    if (row < 0 || row >= static_cast<int>(mEvaluation.jobs.size())) {
        mBreakdown->clear();
        mPenalty->clear();
        clearChart(mStepChart);
        clearChart(mServingChart);
        mStepLegend->clear();
        mServingView->hide();
        mChartView->show();
        mStepView->show();
        return;
    }
    const calc::JobResult& r = mEvaluation.jobs[static_cast<std::size_t>(row)];
    mPenalty->setText(r.placed ? penaltyExplanation(r, mEvaluation.jobs) : QString());
    showSteps(r);
    showServing(r);
    const calc::MemoryBreakdown& m = r.memory;
    auto g = [](double b) { return QString::number(b / kGiB, 'f', 2); };
    mBreakdown->setText(
        tr("<b>%1</b> — per GPU (pipeline stage %2): weights %3 · gradients %4 · optimizer %5 · "
           "activations %6 · KV cache %7 · runtime %8 · <b>total %9 GiB</b>%10")
            .arg(q(r.name.empty() ? r.id : r.name).toHtmlEscaped())
            .arg(m.stage)
            .arg(g(m.weightsBytes), g(m.gradientsBytes), g(m.optimizerBytes), g(m.activationsBytes.value_or(0)),
                 g(m.kvCacheBytes.value_or(0)), g(m.runtimeBytes), g(m.totalBytes()))
            .arg(r.placed ? QString()
                          : tr("<br><font color=#c0392b>Not placed: %1</font>").arg(q(r.reason).toHtmlEscaped())));
    // One bar per layer; the peak layer in its own colour.
    const std::vector<calc::LayerMemory> layers = m.perLayer();
    std::size_t peak = 0;
    for (std::size_t i = 0; i < layers.size(); ++i)
        if (layers[i].total() > layers[peak].total())
            peak = i;
    auto* normal = new QBarSet(tr("layer"));
    auto* top = new QBarSet(tr("peak"));
    normal->setColor(QColor("#4e79a7"));
    top->setColor(QColor("#e15759"));
    QStringList names;
    double most = 0.0;
    // About sixteen labels fit under the bars (an 80-layer model's every label elided to "…"
    // or ":"): every step-th block is numbered, the rest carry an invisible label.
    const std::size_t step = std::max<std::size_t>(1, (layers.size() + 15) / 16);
    for (std::size_t i = 0; i < layers.size(); ++i) {
        const double v = layers[i].total() / kGiB;
        most = std::max(most, v);
        *normal << (i == peak ? 0.0 : v);
        *top << (i == peak ? v : 0.0);
        // Category labels must be unique (equal ones merge): blocks by number, others short,
        // the unlabelled ones a different number of zero-width spaces each.
        using Kind = calc::LayerMemory::Kind;
        switch (layers[i].kind) {
        case Kind::Block:
            names << (layers[i].block % static_cast<int>(step) == 0 ? QString::number(layers[i].block)
                                                                    : QString(static_cast<int>(i) + 1, QChar(0x200B)));
            break;
        case Kind::Embedding: names << tr("emb"); break;
        case Kind::OutputProjection: names << tr("out"); break;
        case Kind::Loss: names << tr("loss"); break;
        case Kind::Workspace: names << tr("ws"); break;
        }
    }
    auto* series = new QBarSeries;
    series->setBarWidth(0.9);
    series->append(normal);
    series->append(top);
    mChart->addSeries(series);
    auto* x = new QBarCategoryAxis;
    x->append(names);
    x->setTruncateLabels(false); // short numbers, spaced out above
    QFont small = x->labelsFont();
    small.setPointSizeF(small.pointSizeF() * 0.8);
    x->setLabelsFont(small);
    auto* y = new QValueAxis;
    y->setRange(0, most * 1.1 + 1e-9);
    y->setLabelFormat("%.1f");
    mChart->addAxis(x, Qt::AlignBottom);
    mChart->addAxis(y, Qt::AlignLeft);
    series->attachAxis(x);
    series->attachAxis(y);
    mChart->setTitle(
        tr("Memory per layer, GiB per GPU — peak: %1").arg(q(layers.empty() ? std::string() : layers[peak].name())));
}

} // namespace gp::ui
