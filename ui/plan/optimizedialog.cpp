// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#include "optimizedialog.h"

#include "io/textformat.h"
#include "ui/figures/charttheme.h"

#include "model/planningtarget.h"

#include <QAreaSeries>
#include <QChartView>
#include <QCheckBox>
#include <QCloseEvent>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLegendMarker>
#include <QLineSeries>
#include <QProgressBar>
#include <QPushButton>
#include <QScatterSeries>
#include <QSpinBox>
#include <QSplitter>
#include <QTableWidget>
#include <QVBoxLayout>
#include <QValueAxis>

#include <algorithm>
#include <chrono>
#include <mutex>

namespace gp::ui {

using text::q;

/// One search: its input, and what the search reports while it runs (read by the GUI's ticker
/// under the mutex); its stop flag is mRunner's.
struct OptimizeDialog::Job
{
    Scenario scenario;
    const Catalog* catalog = nullptr;
    calc::PlanSearchOptions options;
    std::mutex mutex;
    int evaluated = 0;
    std::optional<calc::Kpis> best;
    calc::PlanSearchResult result;
    std::chrono::steady_clock::time_point started = std::chrono::steady_clock::now();
};

namespace {

/// Green for the cheapest plan, red for the dearest, through amber.
QColor costColour(double cost, double cheapest, double dearest)
{
    const double t = dearest > cheapest ? std::clamp((cost - cheapest) / (dearest - cheapest), 0.0, 1.0) : 0.0;
    const QColor a("#2e7d32"), b("#f2a900"), c("#c62828");
    const auto mix = [](const QColor& x, const QColor& y, double u) {
        return QColor::fromRgbF(static_cast<float>(x.redF() + (y.redF() - x.redF()) * u),
                                static_cast<float>(x.greenF() + (y.greenF() - x.greenF()) * u),
                                static_cast<float>(x.blueF() + (y.blueF() - x.blueF()) * u));
    };
    return t < 0.5 ? mix(a, b, t * 2) : mix(b, c, (t - 0.5) * 2);
}

QString kpiLine(const calc::Kpis& k)
{
    return QObject::tr("%1/month, VRAM %2, largest penalty %3")
        .arg(text::usd(k.costPerMonthUsd), text::percent(k.vramUtilization), text::percent(k.maxPenalty));
}

} // namespace

OptimizeDialog::OptimizeDialog(const Catalog& catalog, Scenario current, QWidget* parent)
    : QDialog(parent), mCatalog(catalog), mCurrent(std::move(current))
{
    setObjectName("optimizeDialog");
    setWindowTitle(tr("Optimize — %1").arg(q(mCurrent.name)));
    auto* layout = new QVBoxLayout(this);
    auto* intro = new QLabel(
        tr("Searches every sharing setting of each group of identical nodes — bare metal, time-slicing, MPS, every "
           "valid MIG layout, vGPU profiles — fewer nodes and, where you allow it, other ways to run the tenants' "
           "jobs (their parallelism, batch or precision: these change the tenants' own jobs, and precision changes "
           "a model's quality). A plan must keep every job placed and within its tenant's SLA and isolation, and "
           "keep the headroom free: at most 100 % − headroom of its GPUs allocated to jobs. Of plans equal in cost "
           "and SLA outcome, the one with the fewest changes comes first; each plan lists its changes below. Each "
           "plan is scored by the same model as the canvas."),
        this);
    intro->setWordWrap(true);
    layout->addWidget(intro);

    auto* settings = new QHBoxLayout;
    auto* form = new QFormLayout;
    mObjective = new QComboBox(this);
    mObjective->setObjectName("OptimizeObjective");
    mObjective->addItem(tr("Least cost, then highest VRAM utilization"));
    mObjective->addItem(tr("Highest VRAM utilization, then least cost"));
    form->addRow(tr("Objective"), mObjective);
    auto* cap = new QHBoxLayout;
    mCapPenalty = new QCheckBox(tr("Largest penalty at most"), this);
    mCapPenalty->setObjectName("OptimizeCapPenalty");
    mMaxPenalty = new QDoubleSpinBox(this);
    mMaxPenalty->setObjectName("OptimizeMaxPenalty");
    mMaxPenalty->setRange(0.0, 1000.0);
    mMaxPenalty->setDecimals(1);
    mMaxPenalty->setSuffix(tr(" %"));
    mMaxPenalty->setValue(PlanningTarget::kMaxMeanPenalty * 100.0);
    mMaxPenalty->setEnabled(false);
    cap->addWidget(mCapPenalty);
    cap->addWidget(mMaxPenalty);
    cap->addStretch();
    form->addRow(tr("Constraints"), cap);
    mRemoveNodes = new QCheckBox(tr("May remove nodes"), this);
    mRemoveNodes->setObjectName("OptimizeRemoveNodes");
    mRemoveNodes->setChecked(true);
    form->addRow(QString(), mRemoveNodes);
    auto* jobs = new QHBoxLayout;
    mAllowParallelism = new QCheckBox(tr("Change parallelism"), this);
    mAllowParallelism->setObjectName("OptimizeAllowParallelism");
    mAllowBatch = new QCheckBox(tr("Change batch"), this);
    mAllowBatch->setObjectName("OptimizeAllowBatch");
    mAllowPrecision = new QCheckBox(tr("Change precision (changes model quality)"), this);
    mAllowPrecision->setObjectName("OptimizeAllowPrecision");
    const calc::JobChangeKinds defaults; // the CLI's default: parallelism and batch
    mAllowParallelism->setChecked(defaults.parallelism);
    mAllowBatch->setChecked(defaults.batch);
    mAllowPrecision->setChecked(defaults.precision);
    for (QCheckBox* b : {mAllowParallelism, mAllowBatch, mAllowPrecision}) {
        b->setToolTip(tr("Untick all three to keep every job exactly as given."));
        jobs->addWidget(b);
    }
    jobs->addStretch();
    form->addRow(tr("Jobs"), jobs);
    mHeadroom = new QDoubleSpinBox(this);
    mHeadroom->setObjectName("OptimizeHeadroom");
    mHeadroom->setRange(0.0, 90.0);
    mHeadroom->setDecimals(0);
    mHeadroom->setSuffix(tr(" % of GPUs free"));
    mHeadroom->setValue(calc::PlanSearchOptions{}.headroom * 100.0);
    mHeadroom->setToolTip(tr("Spare capacity kept free for failures and growth: a plan is acceptable only if at most "
                             "100 % − this of its GPUs are allocated to jobs (where the plan as drawn already "
                             "keeps less free, no less than it does)."));
    settings->addLayout(form, 2);
    auto* form2 = new QFormLayout;
    mTimeLimit = new QSpinBox(this);
    mTimeLimit->setObjectName("OptimizeTimeLimit");
    mTimeLimit->setRange(1, 3600);
    mTimeLimit->setValue(10);
    mTimeLimit->setSuffix(tr(" s"));
    form2->addRow(tr("Headroom"), mHeadroom);
    form2->addRow(tr("Time limit"), mTimeLimit);
    mSeed = new QSpinBox(this);
    mSeed->setObjectName("OptimizeSeed");
    mSeed->setRange(1, 1000000);
    form2->addRow(tr("Seed"), mSeed);
    settings->addLayout(form2, 1);
    auto* run = new QVBoxLayout;
    mStart = new QPushButton(tr("&Optimize"), this);
    mStart->setObjectName("OptimizeStart");
    mStart->setDefault(true);
    mCancel = new QPushButton(tr("Cancel"), this);
    mCancel->setObjectName("OptimizeCancel");
    run->addWidget(mStart);
    run->addWidget(mCancel);
    settings->addLayout(run);
    layout->addLayout(settings);

    mProgress = new QProgressBar(this);
    mProgress->setObjectName("OptimizeProgress");
    mProgress->setRange(0, 1000);
    mProgress->setValue(0);
    mProgress->setTextVisible(false);
    layout->addWidget(mProgress);
    mStatus = new QLabel(tr("Choose the objective and the constraints, then Optimize."), this);
    mStatus->setObjectName("OptimizeStatus");
    mStatus->setWordWrap(true);
    mStatus->setMinimumHeight(2 * mStatus->fontMetrics().lineSpacing() + 4); // two lines, never clipped
    layout->addWidget(mStatus);

    auto* split = new QSplitter(Qt::Horizontal, this);
    mChart = new QChart;
    themeChart(mChart);
    mChart->setTitle(tr("Plans within every SLA"));
    auto* view = new QChartView(mChart, split);
    view->setObjectName("OptimizeChart");
    view->setRenderHint(QPainter::Antialiasing);
    view->setMinimumSize(360, 200);
    auto* plans = new QSplitter(Qt::Vertical, this);
    split->setParent(plans);
    plans->addWidget(split);
    mTable = new QTableWidget(0, 8, split);
    mTable->setObjectName("OptimizeTable");
    mTable->setHorizontalHeaderLabels({tr("Plan"), tr("$/month"), tr("Saves/month"), tr("VRAM"), tr("Mean penalty"),
                                       tr("Max penalty"), tr("Fragmentation"), tr("Changes")});
    mTable->setSelectionBehavior(QAbstractItemView::SelectRows);
    mTable->setSelectionMode(QAbstractItemView::SingleSelection);
    mTable->setEditTriggers(QAbstractItemView::NoEditTriggers);
    mTable->verticalHeader()->setVisible(false);
    mTable->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    mTable->horizontalHeader()->setStretchLastSection(true);
    split->setSizes({540, 620});
    mChanges = new QTableWidget(0, 4, plans);
    mChanges->setObjectName("OptimizeChanges");
    mChanges->setHorizontalHeaderLabels({tr("What"), tr("From"), tr("To"), tr("Why it helps")});
    mChanges->setEditTriggers(QAbstractItemView::NoEditTriggers);
    mChanges->setSelectionBehavior(QAbstractItemView::SelectRows);
    mChanges->setWordWrap(true);
    mChanges->verticalHeader()->setVisible(false);
    mChanges->horizontalHeader()->setSectionResizeMode(QHeaderView::Stretch);
    mChanges->verticalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    mChanges->setToolTip(tr("What the selected plan changes against the plan as drawn, and why it helps"));
    plans->addWidget(mChanges);
    plans->setSizes({420, 200});
    layout->addWidget(plans, 1);

    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    mApply = buttons->addButton(tr("&Apply to Plan"), QDialogButtonBox::ActionRole);
    mApply->setObjectName("OptimizeApply");
    mVariant = buttons->addButton(tr("Save as &Variant"), QDialogButtonBox::ActionRole);
    mVariant->setObjectName("OptimizeVariant");
    mCompare = buttons->addButton(tr("&Compare with Current…"), QDialogButtonBox::ActionRole);
    mCompare->setObjectName("OptimizeCompare");
    mReport = buttons->addButton(tr("&Report…"), QDialogButtonBox::ActionRole);
    mReport->setObjectName("OptimizeReport");
    layout->addWidget(buttons);

    connect(mCapPenalty, &QCheckBox::toggled, mMaxPenalty, &QWidget::setEnabled);
    connect(mStart, &QPushButton::clicked, this, &OptimizeDialog::start);
    connect(mCancel, &QPushButton::clicked, this, &OptimizeDialog::cancel);
    connect(&mTicker, &QTimer::timeout, this, &OptimizeDialog::tick);
    mTicker.setInterval(100);
    connect(mTable, &QTableWidget::itemSelectionChanged, this, &OptimizeDialog::selectionChanged);
    connect(mApply, &QPushButton::clicked, this, [this] {
        if (const calc::PlanCandidate* p = selectedPlan()) {
            QStringList changes;
            for (const calc::PlanChange& c : p->changes)
                changes << q(calc::changeText(c));
            Q_EMIT applyRequested(p->scenario, changes.join("; "));
        }
    });
    connect(mVariant, &QPushButton::clicked, this, [this] {
        if (selectedPlan())
            Q_EMIT saveVariantRequested(
                namedPlan(), tr("Optimized from '%1' (%2)").arg(q(mCurrent.name), mObjective->currentText()));
    });
    connect(mCompare, &QPushButton::clicked, this, [this] {
        if (selectedPlan())
            Q_EMIT compareRequested(namedPlan());
    });
    connect(mReport, &QPushButton::clicked, this, [this] {
        if (selectedPlan())
            Q_EMIT reportRequested(namedPlan());
    });
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    fillChart();
    updateEnabled();
    resize(1180, 720);
}

// mRunner stops the search and waits: it reads the job, which the dialog shares.
OptimizeDialog::~OptimizeDialog() = default;

void OptimizeDialog::closeEvent(QCloseEvent* event)
{
    cancel();
    Q_EMIT previewChanged(nullptr);
    QDialog::closeEvent(event);
}

void OptimizeDialog::start()
{
    if (mJob)
        return;
    auto job = std::make_shared<Job>();
    job->scenario = mCurrent;
    job->catalog = &mCatalog;
    job->options.objective =
        mObjective->currentIndex() == 0 ? calc::PlanObjective::Cost : calc::PlanObjective::Utilization;
    job->options.timeLimitS = mTimeLimit->value();
    job->options.seed = static_cast<std::uint64_t>(mSeed->value());
    if (mCapPenalty->isChecked())
        job->options.maxPenalty = mMaxPenalty->value() / 100.0;
    job->options.removeNodes = mRemoveNodes->isChecked();
    job->options.allow = {mAllowParallelism->isChecked(), mAllowBatch->isChecked(), mAllowPrecision->isChecked()};
    job->options.headroom = mHeadroom->value() / 100.0;
    Job* raw = job.get(); // the options live in the job: no shared_ptr cycle
    job->options.progress = [raw](int evaluated, const calc::PlanCandidate& best) {
        const std::lock_guard lock(raw->mutex);
        raw->evaluated = evaluated;
        raw->best = best.kpis;
    };
    mJob = job;
    Q_EMIT previewChanged(nullptr);
    mTable->setRowCount(0);
    mChanges->setRowCount(0);
    mResult = {};
    fillChart();
    mProgress->setValue(0);
    mStatus->setStyleSheet({});
    mStatus->setText(tr("Searching…"));
    updateEnabled();
    mTicker.start();
    mRunner.start([job](const std::atomic<bool>& stop) {
        job->options.stop = &stop;
        job->result = calc::searchPlan(job->scenario, *job->catalog, job->options);
        return true;
    });
}

void OptimizeDialog::cancel()
{
    if (!mJob)
        return;
    mRunner.stop();
    mStatus->setText(tr("Cancelling… the plans found so far will be shown."));
    mCancel->setEnabled(false);
}

void OptimizeDialog::tick()
{
    if (!mJob)
        return;
    const double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - mJob->started).count();
    mProgress->setValue(static_cast<int>(std::min(1.0, elapsed / mJob->options.timeLimitS) * 1000.0));
    const std::lock_guard lock(mJob->mutex);
    if (mJob->best && !mRunner.stopping())
        mStatus->setText(tr("Searching… %1 plans evaluated; the best so far: %2.")
                             .arg(text::grouped(mJob->evaluated), kpiLine(*mJob->best)));
}

void OptimizeDialog::finished()
{
    mTicker.stop();
    const std::shared_ptr<Job> job = std::exchange(mJob, nullptr);
    if (!job)
        return;
    mResult = std::move(job->result);
    mProgress->setValue(1000);
    showResult();
    updateEnabled();
    Q_EMIT searchFinished();
}

void OptimizeDialog::showResult()
{
    const calc::PlanSearchResult& r = mResult;
    const QString how = r.cancelled ? tr("cancelled") : r.timedOut ? tr("at the time limit") : tr("no move improves");
    if (r.pareto.empty()) {
        mStatus->setStyleSheet("color: #c62828");
        mStatus->setText(tr("<b>No plan found</b> (%1 plans, %2): %3.")
                             .arg(text::grouped(r.evaluated), how, q(r.infeasibleReason).toHtmlEscaped()));
    } else {
        const calc::Kpis& best = r.pareto.front().kpis;
        const double gap =
            best.costPerMonthUsd > 0 ? (best.costPerMonthUsd - r.costLowerBoundUsd) / best.costPerMonthUsd : 0.0;
        mStatus->setText(
            tr("%1 plans in %2 s (%3); %4 on the Pareto front. The best: %5 — now %6. No plan can "
               "cost less than %7/month, so the best is at most %8 above the optimum.")
                .arg(text::grouped(r.evaluated))
                .arg(r.elapsedMs / 1000.0, 0, 'f', 1)
                .arg(how)
                .arg(r.pareto.size())
                .arg(kpiLine(best), kpiLine(r.current.kpis), text::usd(r.costLowerBoundUsd), text::percent(gap)));
    }
    mTable->setRowCount(static_cast<int>(r.pareto.size()));
    for (std::size_t i = 0; i < r.pareto.size(); ++i) {
        const calc::Kpis& k = r.pareto[i].kpis;
        QStringList changes;
        for (const calc::PlanChange& c : r.pareto[i].changes)
            changes << q(calc::changeText(c));
        const QStringList cells{QString::number(i + 1),
                                text::usd(k.costPerMonthUsd),
                                text::usd(r.current.kpis.costPerMonthUsd - k.costPerMonthUsd),
                                text::percent(k.vramUtilization),
                                text::percent(k.meanPenalty),
                                text::percent(k.maxPenalty),
                                text::percent(k.fragmentation),
                                changes.isEmpty() ? tr("none: as drawn") : tr("%n change(s)", nullptr, changes.size())};
        for (int c = 0; c < cells.size(); ++c) {
            auto* item = new QTableWidgetItem(cells[c]);
            item->setTextAlignment((c == cells.size() - 1 ? Qt::AlignLeft : Qt::AlignRight) | Qt::AlignVCenter);
            if (c == cells.size() - 1)
                item->setToolTip(changes.join('\n'));
            mTable->setItem(static_cast<int>(i), c, item);
        }
    }
    fillChart();
    if (!r.pareto.empty())
        mTable->selectRow(0);
}

void OptimizeDialog::fillChart()
{
    clearChart(mChart);
    auto* x = new QValueAxis;
    x->setTitleText(tr("VRAM utilization (%)"));
    x->setRange(0, 100);
    auto* y = new QValueAxis;
    y->setTitleText(tr("largest penalty (%)"));
    // The plans set the scale (the current plan may be far off it: it is then drawn on the top edge).
    double top = 5.0;
    for (const calc::PlanCandidate& p : mResult.pareto)
        top = std::max(top, p.kpis.maxPenalty * 100.0 * 1.3);
    y->setRange(0, std::min(top, 1000.0));
    mChart->addAxis(x, Qt::AlignBottom);
    mChart->addAxis(y, Qt::AlignLeft);
    auto attach = [&](QAbstractSeries* s) {
        mChart->addSeries(s);
        s->attachAxis(x);
        s->attachAxis(y);
    };
    // The field's benchmark: at least 80 % of VRAM in use, under 3 % penalty.
    auto* zone = new QAreaSeries;
    auto* upper = new QLineSeries(zone); // the area series does not own its bounds: its child does go with it
    upper->append(PlanningTarget::kMinVramUtilization * 100.0, PlanningTarget::kMaxMeanPenalty * 100.0);
    upper->append(100.0, PlanningTarget::kMaxMeanPenalty * 100.0);
    zone->setUpperSeries(upper);
    zone->setName(tr("Target: %1").arg(q(PlanningTarget::text())));
    zone->setColor(QColor(46, 125, 50, 50));
    zone->setBorderColor(QColor(46, 125, 50, 140));
    attach(zone);
    const calc::PlanCandidate* selected = selectedPlan();
    double cheapest = 0.0, dearest = 0.0;
    for (std::size_t i = 0; i < mResult.pareto.size(); ++i) {
        const double c = mResult.pareto[i].kpis.costPerMonthUsd;
        cheapest = i == 0 ? c : std::min(cheapest, c);
        dearest = i == 0 ? c : std::max(dearest, c);
    }
    for (std::size_t i = 0; i < mResult.pareto.size(); ++i) {
        const calc::PlanCandidate& p = mResult.pareto[i];
        auto* s = new QScatterSeries;
        s->setName(tr("Plan %1").arg(i + 1));
        s->setMarkerSize(&p == selected ? 18 : 12);
        s->setColor(costColour(p.kpis.costPerMonthUsd, cheapest, dearest));
        s->setBorderColor(&p == selected ? QColor("#1f3b57") : QColor(Qt::white));
        s->append(p.kpis.vramUtilization * 100.0, p.kpis.maxPenalty * 100.0);
        attach(s);
        const int row = static_cast<int>(i);
        connect(s, &QScatterSeries::clicked, this, [this, row] { mTable->selectRow(row); });
        for (QLegendMarker* m : mChart->legend()->markers(s))
            m->setVisible(false);
    }
    if (!mResult.pareto.empty()) { // the plan as drawn, for reference
        const calc::Kpis& now = mResult.current.kpis;
        auto* current = new QScatterSeries;
        const bool above = now.maxPenalty * 100.0 > y->max();
        current->setName(above ? tr("Current plan: %1/month, penalty %2 (above)")
                                     .arg(text::usd(now.costPerMonthUsd), text::percent(now.maxPenalty))
                               : tr("Current plan: %1/month").arg(text::usd(now.costPerMonthUsd)));
        current->setMarkerShape(QScatterSeries::MarkerShapeRectangle);
        current->setMarkerSize(13);
        current->setColor(QColor("#1f3b57"));
        current->setBorderColor(Qt::white);
        current->append(now.vramUtilization * 100.0, std::min(now.maxPenalty * 100.0, y->max()));
        attach(current);
        mChart->setTitle(tr("Colour: $/month, green %1 … red %2").arg(text::usd(cheapest), text::usd(dearest)));
    }
    mChart->legend()->setAlignment(Qt::AlignBottom);
}

const calc::PlanCandidate* OptimizeDialog::selectedPlan() const
{
    const QList<QTableWidgetItem*> items = mTable->selectedItems();
    if (items.isEmpty())
        return nullptr;
    const int row = items.front()->row();
    return row >= 0 && row < static_cast<int>(mResult.pareto.size()) ? &mResult.pareto[static_cast<std::size_t>(row)]
                                                                     : nullptr;
}

Scenario OptimizeDialog::namedPlan() const
{
    Scenario s = selectedPlan()->scenario;
    s.name = tr("%1 — optimized (plan %2)").arg(q(mCurrent.name)).arg(mTable->currentRow() + 1).toStdString();
    return s;
}

void OptimizeDialog::fillChanges()
{
    const calc::PlanCandidate* p = selectedPlan();
    mChanges->setRowCount(0);
    if (!p)
        return;
    mChanges->setRowCount(static_cast<int>(p->changes.size()));
    for (std::size_t i = 0; i < p->changes.size(); ++i) {
        const calc::PlanChange& c = p->changes[i];
        QString what = q(c.field);
        if (!c.job.empty()) {
            const gp::Job* job = mCurrent.findJob(c.job);
            what = tr("%1 — %2").arg(job ? q(job->name) : q(c.job), what);
        } else if (!what.isEmpty()) {
            what[0] = what[0].toUpper();
        }
        const QStringList cells{what, q(c.from), q(c.to), q(c.reason)};
        for (int col = 0; col < cells.size(); ++col) {
            auto* item = new QTableWidgetItem(cells[col]);
            item->setToolTip(cells[col]);
            mChanges->setItem(static_cast<int>(i), col, item);
        }
    }
    mChanges->resizeRowsToContents();
}

void OptimizeDialog::selectionChanged()
{
    fillChanges();
    fillChart();
    updateEnabled();
    const calc::PlanCandidate* p = selectedPlan();
    Q_EMIT previewChanged(p ? &p->scenario : nullptr);
}

void OptimizeDialog::updateEnabled()
{
    const bool busy = running();
    const bool chosen = !busy && selectedPlan();
    for (QWidget* w :
         std::initializer_list<QWidget*>{mObjective, mCapPenalty, mRemoveNodes, mAllowParallelism, mAllowBatch,
                                         mAllowPrecision, mHeadroom, mTimeLimit, mSeed, mStart})
        w->setEnabled(!busy);
    mMaxPenalty->setEnabled(!busy && mCapPenalty->isChecked());
    mCancel->setEnabled(busy && !mRunner.stopping());
    for (QPushButton* b : {mApply, mVariant, mCompare, mReport})
        b->setEnabled(chosen);
}

} // namespace gp::ui
