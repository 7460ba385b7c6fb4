// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#include "sizingdialog.h"

#include "io/textformat.h"
#include "sizingcurveview.h"

#include "model/limits.h"

#include <QCloseEvent>
#include <QDialogButtonBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QListWidget>
#include <QProgressBar>
#include <QPushButton>
#include <QScreen>
#include <QSpinBox>
#include <QSplitter>
#include <QTableWidget>
#include <QVBoxLayout>

#include <algorithm>
#include <chrono>
#include <mutex>
#include <set>

namespace gp::ui {

using text::q;

/// One sizing: its input and what it is doing now (read by the GUI's ticker under the mutex);
/// its stop flag is mRunner's.
struct SizingDialog::Job
{
    Scenario scenario;
    const Catalog* catalog = nullptr;
    study::SizingRequest request;
    std::mutex mutex;
    std::string doing;
    std::optional<Result<study::SizingResult>> result;
    std::chrono::steady_clock::time_point started = std::chrono::steady_clock::now();
};

namespace {

QTableWidgetItem* sizingCell(const QString& text, bool number)
{
    auto* item = new QTableWidgetItem(text);
    item->setTextAlignment((number ? Qt::AlignRight : Qt::AlignLeft) | Qt::AlignVCenter);
    item->setToolTip(text);
    return item;
}

QTableWidget* sizingTable(const QStringList& headers, const char* name, QWidget* parent)
{
    auto* t = new QTableWidget(0, static_cast<int>(headers.size()), parent);
    t->setObjectName(name);
    t->setHorizontalHeaderLabels(headers);
    t->setEditTriggers(QAbstractItemView::NoEditTriggers);
    t->setSelectionBehavior(QAbstractItemView::SelectRows);
    t->verticalHeader()->setVisible(false);
    t->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    t->horizontalHeader()->setStretchLastSection(true);
    return t;
}

} // namespace

SizingDialog::SizingDialog(const Catalog& catalog, Scenario current, QWidget* parent)
    : QDialog(parent), mCatalog(catalog), mCurrent(std::move(current))
{
    setObjectName("sizingDialog");
    setWindowTitle(tr("Size Cluster — %1").arg(q(mCurrent.name)));
    auto* layout = new QVBoxLayout(this);
    auto* intro = new QLabel(tr("The fewest nodes of each checked template that host every job within its tenant's "
                                "SLA on whole GPUs under a non-blocking leaf-spine fabric, keeping the headroom free; "
                                "the cheapest wins (or a cheaper mix of two). With growth, the nodes needed month by "
                                "month and when the plan's own cluster runs out."),
                             this);
    intro->setWordWrap(true);
    layout->addWidget(intro);

    auto* settings = new QHBoxLayout;
    auto* candidates = new QGroupBox(tr("Candidate node templates"), this);
    auto* candidatesLayout = new QVBoxLayout(candidates);
    mTemplates = new QListWidget(candidates);
    mTemplates->setObjectName("SizingTemplates");
    std::set<std::string> own;
    for (const Node& n : mCurrent.topology.nodes)
        own.insert(n.templateId);
    for (const NodeTemplate& t : mCatalog.nodeTemplates) {
        const GpuSpec* gpu = mCatalog.gpu(t.gpuId);
        auto* item = new QListWidgetItem(
            tr("%1 — %2 × %3").arg(templateName(t.id)).arg(t.gpuCount).arg(gpu ? q(gpu->name) : q(t.gpuId)),
            mTemplates);
        item->setData(Qt::UserRole, q(t.id));
        item->setFlags(item->flags() | Qt::ItemIsUserCheckable);
        item->setCheckState(own.count(t.id) ? Qt::Checked : Qt::Unchecked);
        item->setToolTip(tr("Catalog id: %1").arg(q(t.id)));
    }
    candidatesLayout->addWidget(mTemplates);
    settings->addWidget(candidates, 3);

    auto* growth = new QGroupBox(tr("Growth (optional)"), this);
    auto* growthLayout = new QVBoxLayout(growth);
    mGrowth = new QTableWidget(static_cast<int>(mCurrent.tenants.size()), 2, growth);
    mGrowth->setObjectName("SizingGrowth");
    mGrowth->setHorizontalHeaderLabels({tr("Tenant"), tr("Growth per month")});
    mGrowth->verticalHeader()->setVisible(false);
    mGrowth->horizontalHeader()->setSectionResizeMode(0, QHeaderView::Stretch);
    mGrowth->horizontalHeader()->setSectionResizeMode(1, QHeaderView::ResizeToContents);
    for (int row = 0; row < mGrowth->rowCount(); ++row) {
        const Tenant& t = mCurrent.tenants[static_cast<std::size_t>(row)];
        auto* name = new QTableWidgetItem(q(t.name));
        name->setFlags(Qt::ItemIsEnabled);
        name->setData(Qt::UserRole, q(t.id));
        mGrowth->setItem(row, 0, name);
        auto* pct = new QDoubleSpinBox(mGrowth);
        pct->setObjectName("SizingGrowth-" + q(t.id));
        pct->setRange(0.0, limits::kMaxGrowthPctPerMonth);
        pct->setDecimals(1);
        pct->setSuffix(tr(" %"));
        pct->setToolTip(tr("How much %1's load grows each month: its jobs are copied in turn.").arg(q(t.name)));
        mGrowth->setCellWidget(row, 1, pct);
    }
    growthLayout->addWidget(mGrowth);
    auto* horizonRow = new QFormLayout;
    mHorizon = new QSpinBox(growth);
    mHorizon->setObjectName("SizingMonths");
    mHorizon->setRange(0, 120);
    mHorizon->setSuffix(tr(" months"));
    mHorizon->setSpecialValueText(tr("none"));
    mHorizon->setToolTip(tr("How far the month-by-month curve goes (0: none)."));
    horizonRow->addRow(tr("Horizon"), mHorizon);
    growthLayout->addLayout(horizonRow);
    settings->addWidget(growth, 3);

    auto* keep = new QGroupBox(tr("Headroom"), this);
    auto* keepLayout = new QVBoxLayout(keep);
    auto* headroomRow = new QFormLayout;
    mHeadroom = new QDoubleSpinBox(keep);
    mHeadroom->setObjectName("SizingHeadroom");
    mHeadroom->setRange(0.0, 90.0);
    mHeadroom->setDecimals(0);
    mHeadroom->setSuffix(tr(" % of GPUs free"));
    mHeadroom->setValue(study::SizingRequest{}.headroomPct);
    headroomRow->addRow(tr("P"), mHeadroom);
    keepLayout->addLayout(headroomRow);
    auto* help = new QLabel(QString::fromUtf8(study::kHeadroomHelp), keep);
    help->setObjectName("SizingHeadroomHelp");
    help->setWordWrap(true);
    mHeadroom->setToolTip(help->text());
    keepLayout->addWidget(help);
    keepLayout->addStretch();
    auto* run = new QHBoxLayout;
    mStart = new QPushButton(tr("&Size"), keep);
    mStart->setObjectName("SizingStart");
    mStart->setDefault(true);
    mCancel = new QPushButton(tr("Cancel"), keep);
    mCancel->setObjectName("SizingCancel");
    run->addWidget(mStart);
    run->addWidget(mCancel);
    keepLayout->addLayout(run);
    settings->addWidget(keep, 2);
    layout->addLayout(settings);

    mProgress = new QProgressBar(this);
    mProgress->setObjectName("SizingProgress");
    mProgress->setRange(0, 1);
    mProgress->setValue(0);
    mProgress->setTextVisible(false);
    mProgress->setMaximumHeight(8);
    layout->addWidget(mProgress);
    mStatus = new QLabel(tr("Check the candidate templates, then Size."), this);
    mStatus->setObjectName("SizingStatus");
    mStatus->setWordWrap(true);
    mStatus->setTextFormat(Qt::RichText);
    mStatus->setMinimumHeight(2 * mStatus->fontMetrics().lineSpacing() + 4); // two lines, never clipped
    layout->addWidget(mStatus);

    auto* results = new QSplitter(Qt::Horizontal, this);
    mCandidates =
        sizingTable({tr("Template"), tr("Nodes"), tr("GPUs"), tr("$/month"), tr("Note")}, "SizingCandidates", results);
    mCandidates->setWordWrap(true);
    mCurve = new SizingCurveView(mCatalog, results);
    results->addWidget(mCandidates);
    results->addWidget(mCurve);
    results->setSizes({560, 520});
    layout->addWidget(results, 1);

    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    mApply = buttons->addButton(tr("&Apply to Plan"), QDialogButtonBox::ActionRole);
    mApply->setObjectName("SizingApply");
    mApply->setToolTip(tr("Replace the plan's nodes, switches and links by the sized cluster (one undoable edit; "
                          "jobs are placed by the plan's placement policy, no longer pinned)"));
    mVariant = buttons->addButton(tr("Save as &Variant"), QDialogButtonBox::ActionRole);
    mVariant->setObjectName("SizingVariant");
    layout->addWidget(buttons);

    connect(mStart, &QPushButton::clicked, this, &SizingDialog::start);
    connect(mCancel, &QPushButton::clicked, this, &SizingDialog::cancel);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(&mTicker, &QTimer::timeout, this, &SizingDialog::tick);
    mTicker.setInterval(100);
    connect(mApply, &QPushButton::clicked, this, [this] {
        if (mResult && mResult->ok())
            Q_EMIT applyRequested((*mResult)->sized, mixText(**mResult));
    });
    connect(mVariant, &QPushButton::clicked, this, [this] {
        if (mResult && mResult->ok())
            Q_EMIT saveVariantRequested(namedSized(), tr("Sized from '%1': %2, headroom %3 %")
                                                          .arg(q(mCurrent.name), mixText(**mResult))
                                                          .arg(mHeadroom->value()));
    });
    updateEnabled();
    // As large as it reads well, never larger than the screen (1366×768 leaves about 1300×700).
    QSize size(1180, 700);
    if (const QScreen* screen = parent ? parent->screen() : QDialog::screen())
        size = size.boundedTo(screen->availableGeometry().size() - QSize(40, 60));
    resize(size.expandedTo(minimumSizeHint()));
}

// mRunner stops the sizing and waits: it reads the job, which the dialog shares.
SizingDialog::~SizingDialog() = default;

void SizingDialog::closeEvent(QCloseEvent* event)
{
    cancel();
    QDialog::closeEvent(event);
}

QString SizingDialog::templateName(const std::string& id) const
{
    const NodeTemplate* t = mCatalog.nodeTemplate(id);
    return t && !t->name.empty() ? q(t->name) : q(id);
}

study::SizingRequest SizingDialog::request() const
{
    study::SizingRequest r;
    for (int i = 0; i < mTemplates->count(); ++i)
        if (mTemplates->item(i)->checkState() == Qt::Checked)
            r.templates.push_back(mTemplates->item(i)->data(Qt::UserRole).toString().toStdString());
    for (int row = 0; row < mGrowth->rowCount(); ++row)
        if (const double pct = static_cast<QDoubleSpinBox*>(mGrowth->cellWidget(row, 1))->value(); pct > 0.0)
            r.growthPct[mGrowth->item(row, 0)->data(Qt::UserRole).toString().toStdString()] = pct;
    r.months = mHorizon->value();
    r.headroomPct = mHeadroom->value();
    return r;
}

void SizingDialog::start()
{
    if (mJob)
        return;
    const study::SizingRequest asked = request();
    QString refusal;
    if (asked.templates.empty())
        refusal = tr("Check at least one candidate node template.");
    else if (!asked.growthPct.empty() && asked.months == 0)
        refusal = tr("A growth needs a horizon: set Horizon to the months the curve should cover.");
    else if (const double jobs = study::grownJobCount(mCurrent, asked.growthPct, asked.months);
             !(jobs <= static_cast<double>(limits::kMaxScenarioJobs)))
        refusal = tr("This growth over %1 months makes about %2 jobs; a plan holds at most %3.")
                      .arg(asked.months)
                      .arg(jobs, 0, 'g', 3)
                      .arg(text::grouped(limits::kMaxScenarioJobs));
    if (!refusal.isEmpty()) {
        mStatus->setStyleSheet("color: #c62828");
        mStatus->setText(refusal.toHtmlEscaped());
        return;
    }
    auto job = std::make_shared<Job>();
    job->scenario = mCurrent;
    job->catalog = &mCatalog;
    job->request = asked;
    Job* raw = job.get(); // the callback lives in the job: no shared_ptr cycle
    job->request.progress = [raw](const std::string& what) {
        const std::lock_guard lock(raw->mutex);
        raw->doing = what;
    };
    mJob = job;
    mResult.reset();
    mCandidates->setRowCount(0);
    mCurve->clear();
    mProgress->setRange(0, 0); // busy: a sizing cannot say how far it is
    mStatus->setStyleSheet({});
    mStatus->setText(tr("Sizing…"));
    updateEnabled();
    mTicker.start();
    mRunner.start([job](const std::atomic<bool>& stop) {
        job->request.stop = &stop;
        job->result = study::sizeCluster(job->scenario, *job->catalog, job->request);
        return true;
    });
}

void SizingDialog::cancel()
{
    if (!mJob)
        return;
    mRunner.supersede();
    mStatus->setText(tr("Cancelling…"));
    mCancel->setEnabled(false);
}

void SizingDialog::tick()
{
    if (!mJob || mRunner.stopping())
        return;
    const double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - mJob->started).count();
    const std::lock_guard lock(mJob->mutex);
    if (!mJob->doing.empty())
        mStatus->setText(tr("Sizing… %1 (%2 s)").arg(q(mJob->doing).toHtmlEscaped()).arg(elapsed, 0, 'f', 0));
}

void SizingDialog::finished(bool delivered)
{
    mTicker.stop();
    const std::shared_ptr<Job> job = std::exchange(mJob, nullptr);
    mProgress->setRange(0, 1);
    mProgress->setValue(delivered ? 1 : 0);
    if (job && delivered) {
        mResult = std::move(job->result);
        showResult();
    } else {
        mStatus->setText(tr("Cancelled. Change the settings and Size again."));
    }
    updateEnabled();
    if (job && delivered)
        Q_EMIT sizingFinished();
}

QString SizingDialog::mixText(const study::SizingResult& r) const
{
    QStringList parts;
    for (const auto& [id, n] : r.mix)
        parts << tr("%1 × %2").arg(n).arg(templateName(id));
    return parts.join(tr(" + "));
}

Scenario SizingDialog::namedSized() const
{
    Scenario s = (*mResult)->sized;
    s.name = tr("%1 — sized (%2)").arg(q(mCurrent.name), mixText(**mResult)).toStdString();
    return s;
}

void SizingDialog::showResult()
{
    if (!mResult)
        return;
    if (!mResult->ok()) { // what binds, in the sizing's words (the path is for the CLI's --json)
        QStringList why;
        for (const Issue& i : mResult->issues)
            why << q(i.message).toHtmlEscaped();
        mStatus->setStyleSheet("color: #c62828");
        mStatus->setText(tr("<b>Cannot size this plan:</b> %1").arg(why.join("; ")));
        return;
    }
    const study::SizingResult& r = **mResult;
    QString curve;
    if (!r.months.empty())
        curve = !r.currentRunsOutMonth
                    ? tr(" The plan's own cluster hosts the load to month %1.").arg(r.months.back().month)
                : *r.currentRunsOutMonth == 0
                    ? tr(" The plan's own cluster runs out in month 0: it does not host even today's load within "
                         "every SLA and the headroom.")
                    : tr(" The plan's own cluster runs out in month %1.").arg(*r.currentRunsOutMonth);
    mStatus->setStyleSheet({});
    mStatus->setText(
        tr("<b>%1</b>: %2 per month, %3 of the GPUs free (headroom %4 %).%5")
            .arg(mixText(r).toHtmlEscaped(), text::usd(r.costPerMonthUsd), text::percent(1.0 - r.allocationRatio))
            .arg(mHeadroom->value())
            .arg(curve));
    fillCandidates(r);
    mCurve->showResult(r);
}

void SizingDialog::fillCandidates(const study::SizingResult& r)
{
    mCandidates->setRowCount(static_cast<int>(r.candidates.size()));
    for (std::size_t i = 0; i < r.candidates.size(); ++i) {
        const study::SizedTemplate& c = r.candidates[i];
        const NodeTemplate* t = mCatalog.nodeTemplate(c.nodeTemplate);
        const auto inMix =
            std::find_if(r.mix.begin(), r.mix.end(), [&](const auto& m) { return m.first == c.nodeTemplate; });
        QString note = !c.nodes ? tr("hosts nothing: %1").arg(q(c.why)) : q(c.why);
        if (inMix != r.mix.end())
            note = r.mix.size() == 1 ? tr("✓ chosen: the cheapest")
                                     : tr("✓ in the chosen mix, %n node(s)", nullptr, inMix->second);
        const int row = static_cast<int>(i);
        mCandidates->setItem(row, 0, sizingCell(templateName(c.nodeTemplate), false));
        mCandidates->setItem(row, 1, sizingCell(c.nodes ? QString::number(*c.nodes) : tr("–"), true));
        mCandidates->setItem(row, 2,
                             sizingCell(c.nodes && t ? QString::number(*c.nodes * t->gpuCount) : tr("–"), true));
        mCandidates->setItem(row, 3, sizingCell(c.costPerMonthUsd ? text::usd(*c.costPerMonthUsd) : tr("–"), true));
        mCandidates->setItem(row, 4, sizingCell(note, false));
        if (inMix != r.mix.end())
            for (int col = 0; col < mCandidates->columnCount(); ++col) {
                QFont bold = mCandidates->item(row, col)->font();
                bold.setBold(true);
                mCandidates->item(row, col)->setFont(bold);
            }
    }
    mCandidates->resizeRowsToContents();
}

void SizingDialog::updateEnabled()
{
    const bool busy = running();
    for (QWidget* w : std::initializer_list<QWidget*>{mTemplates, mGrowth, mHorizon, mHeadroom, mStart})
        w->setEnabled(!busy);
    mCancel->setEnabled(busy && !mRunner.stopping());
    const bool sized = !busy && mResult && mResult->ok();
    mApply->setEnabled(sized);
    mVariant->setEnabled(sized);
}

} // namespace gp::ui
