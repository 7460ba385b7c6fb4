// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#include "replaydialog.h"

#include "study/replayinput.h"
#include "ui/figures/replaycharts.h"
#include "ui/workbench.h"

#include "io/clusterconfigwriter.h"
#include "model/format.h"

#include <QButtonGroup>
#include <QChart>
#include <QChartView>
#include <QCheckBox>
#include <QComboBox>
#include <QDir>
#include <QDoubleSpinBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QGridLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QRadioButton>
#include <QTabWidget>
#include <QTableWidget>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>
#include <thread>
#include <utility>

namespace gp::ui {

/// One run in the background: its input, what it replays, and what it found.
struct ReplayDialog::Job
{
    study::ReplayInput input;
    sim::ReplayConfig config;
    sim::SeedRange seeds;
    std::vector<std::pair<QString, sim::ReplayPolicy>> policies;
    std::atomic<std::size_t> done{0};
    std::vector<std::pair<QString, sim::ReplaySummary>> results;
};

namespace {

constexpr const char* kNodeFile = "openb_node_list_gpu_node.csv";

} // namespace

QString ReplayDialog::gapText(double more, const QString& best, double unallocated)
{
    if (std::round(more) < 1.0) // less than a GPU apart, as the table shows GPUs
        return tr("level with %1").arg(best);
    return tr("+%1 GPUs: %2 leaves %3 % fewer")
        .arg(QString::fromStdString(fmt::grouped(more)))
        .arg(best)
        .arg(unallocated > 0 ? 100.0 * more / unallocated : 0.0, 0, 'f', 0);
}

ReplayDialog::ReplayDialog(const Catalog& catalog, std::function<std::pair<const Scenario*, QString>()> scenario,
                           QWidget* parent)
    : QDialog(parent), mCatalog(catalog), mScenario(std::move(scenario)),
      mTraceSource(new QRadioButton(tr("&Trace"), this)),
      mScenarioSource(new QRadioButton(tr("The open &scenario's cluster and jobs"), this)), mTasks(new QComboBox(this)),
      mNodes(new QLineEdit(this)), mSeeds(new QLineEdit("42-44", this)), mInflate(new QDoubleSpinBox(this)),
      mRun(new QPushButton(tr("&Run"), this)), mCancel(new QPushButton(tr("Cancel"), this)),
      mExport(new QPushButton(tr("&Export Charts…"), this)), mProgress(new QProgressBar(this)),
      mStatus(new QLabel(this)), mAllocation(new QChartView(this)), mFragmentation(new QChartView(this)),
      mGap(new QTableWidget(this))
{
    setWindowTitle(tr("Placement Replay"));
    setObjectName("ReplayDialog");
    auto* sources = new QButtonGroup(this);
    sources->addButton(mTraceSource);
    sources->addButton(mScenarioSource);
    mTraceSource->setChecked(true);

    // The task files of the trace folder, the default one first; Browse adds others.
    mTasks->setObjectName("ReplayTasks");
    mTasks->setEditable(false);
    mNodes->setObjectName("ReplayNodes");
    if (const QString dir = study::defaultTraceDirectory(); !dir.isEmpty()) {
        QStringList files = QDir(dir).entryList({"openb_pod_list_*.csv"}, QDir::Files, QDir::Name);
        files.removeAll("openb_pod_list_default.csv");
        files.prepend("openb_pod_list_default.csv");
        for (const QString& f : files)
            if (QFileInfo(QDir(dir).filePath(f)).isFile())
                mTasks->addItem(f, QDir(dir).filePath(f));
        mNodes->setText(QDir(dir).filePath(kNodeFile));
    }
    auto* browseTasks = new QPushButton(tr("Browse…"), this);
    auto* browseNodes = new QPushButton(tr("Browse…"), this);
    connect(browseTasks, &QPushButton::clicked, this, &ReplayDialog::browseTasks);
    connect(browseNodes, &QPushButton::clicked, this, &ReplayDialog::browseNodes);

    auto* source = new QGroupBox(tr("Workload"), this);
    auto* sourceGrid = new QGridLayout(source);
    sourceGrid->addWidget(mTraceSource, 0, 0, 1, 3);
    sourceGrid->addWidget(new QLabel(tr("Tasks:"), source), 1, 0);
    sourceGrid->addWidget(mTasks, 1, 1);
    sourceGrid->addWidget(browseTasks, 1, 2);
    sourceGrid->addWidget(new QLabel(tr("Nodes:"), source), 2, 0);
    sourceGrid->addWidget(mNodes, 2, 1);
    sourceGrid->addWidget(browseNodes, 2, 2);
    sourceGrid->addWidget(mScenarioSource, 3, 0, 1, 3);
    sourceGrid->setColumnStretch(1, 1);

    auto* policies = new QGroupBox(tr("Policies"), this);
    auto* policyGrid = new QGridLayout(policies);
    for (std::size_t i = 0; i < mPolicies.size(); ++i) {
        mPolicies[i] = new QCheckBox(sim::kReplayPolicies[i].label, policies);
        mPolicies[i]->setChecked(true);
        mPolicies[i]->setObjectName(QString("ReplayPolicy_%1").arg(sim::kReplayPolicies[i].key));
        policyGrid->addWidget(mPolicies[i], static_cast<int>(i / 2), static_cast<int>(i % 2));
        connect(mPolicies[i], &QCheckBox::toggled, this, &ReplayDialog::updateEnabled);
    }

    mSeeds->setObjectName("ReplaySeeds");
    mSeeds->setToolTip(tr("A seed (42) or a range (42-51, the artifact's experiments); the curves are the mean over "
                          "the seeds."));
    mInflate->setRange(0.1, 10.0);
    mInflate->setSingleStep(0.1);
    mInflate->setDecimals(2);
    mInflate->setValue(1.3);
    mInflate->setSuffix(tr(" × capacity"));
    auto* settings = new QFormLayout;
    settings->addRow(tr("See&ds:"), mSeeds);
    settings->addRow(tr("&Arrived workload up to:"), mInflate);

    mRun->setDefault(true);
    mRun->setObjectName("ReplayRun");
    mCancel->setObjectName("ReplayCancel");
    mExport->setObjectName("ReplayExport");
    mProgress->setTextVisible(true);
    mProgress->setObjectName("ReplayProgress");
    mStatus->setWordWrap(true);
    mStatus->setObjectName("ReplayStatus");
    mStatus->setTextInteractionFlags(Qt::TextSelectableByMouse);
    connect(mRun, &QPushButton::clicked, this, &ReplayDialog::run);
    connect(mCancel, &QPushButton::clicked, this, &ReplayDialog::cancel);
    connect(mExport, &QPushButton::clicked, this, &ReplayDialog::exportCharts);
    connect(mTraceSource, &QRadioButton::toggled, this, &ReplayDialog::updateEnabled);

    auto* buttons = new QHBoxLayout;
    buttons->addWidget(mRun);
    buttons->addWidget(mCancel);
    buttons->addStretch();
    auto* controls = new QVBoxLayout;
    controls->addWidget(source);
    controls->addWidget(policies);
    controls->addLayout(settings);
    controls->addLayout(buttons);
    controls->addWidget(mProgress);
    controls->addWidget(mStatus);
    controls->addStretch();
    controls->addWidget(mExport);

    for (QChartView* view : {mAllocation, mFragmentation}) {
        view->setRenderHint(QPainter::Antialiasing);
        view->setMinimumSize(420, 260);
    }
    auto* tabs = new QTabWidget(this);
    tabs->addTab(mAllocation, tr("A&llocation"));
    tabs->addTab(mFragmentation, tr("&Fragmentation"));
    mGap->setObjectName("ReplayGap");
    mGap->setColumnCount(5);
    mGap->setHorizontalHeaderLabels({tr("Policy"), tr("Allocated at 100 % arrived"), tr("Allocated at the end"),
                                     tr("Unallocated GPUs at the end"), tr("Against the policy leaving the fewest")});
    mGap->setWordWrap(false);
    mGap->verticalHeader()->hide();
    mGap->setEditTriggers(QAbstractItemView::NoEditTriggers);
    mGap->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    mGap->horizontalHeader()->setStretchLastSection(true);
    mGap->setMinimumHeight(mGap->horizontalHeader()->sizeHint().height() +
                           6 * mGap->verticalHeader()->defaultSectionSize() + 4);
    auto* results = new QVBoxLayout;
    results->addWidget(tabs, 1);
    results->addWidget(mGap, 0);

    auto* layout = new QHBoxLayout(this);
    layout->addLayout(controls, 0);
    layout->addLayout(results, 1);

    mTicker.setInterval(100);
    connect(&mTicker, &QTimer::timeout, this, [this] {
        if (mJob)
            mProgress->setValue(static_cast<int>(mJob->done.load()));
    });
    if (mTasks->count() == 0 && mScenario().first)
        mScenarioSource->setChecked(true); // no trace here: the scenario is what there is
    mStatus->setText(mTasks->count() == 0 ? tr("No trace folder found (GPUPLAN_TRACE_DIR): browse for the node and "
                                               "task files, or replay the open scenario.")
                                          : QString());
    updateEnabled();
}

// The job keeps its own data; mRunner stops it and waits, so nothing outlives the dialog.
ReplayDialog::~ReplayDialog() = default;

void ReplayDialog::reject()
{
    if (mJob)
        cancel();
    QDialog::reject();
}

void ReplayDialog::updateEnabled()
{
    const bool idle = !mJob;
    const bool anyPolicy = std::any_of(mPolicies.begin(), mPolicies.end(), [](QCheckBox* c) { return c->isChecked(); });
    mRun->setEnabled(idle && anyPolicy);
    mCancel->setEnabled(!idle);
    mExport->setEnabled(idle && !mResults.empty());
    mTasks->setEnabled(mTraceSource->isChecked());
    mNodes->setEnabled(mTraceSource->isChecked());
    mScenarioSource->setEnabled(mScenario().first != nullptr);
}

void ReplayDialog::fail(const QString& why)
{
    mStatus->setStyleSheet("color: #b3261e;");
    mStatus->setText(why);
}

void ReplayDialog::run()
{
    auto job = std::make_shared<Job>();
    sim::SeedRange seeds;
    if (const std::string why = sim::parseSeedRange(mSeeds->text().trimmed().toStdString(), seeds); !why.empty())
        return fail(tr("Seeds: %1").arg(QString::fromStdString(why)));
    job->seeds = seeds;
    job->config.inflate = mInflate->value();
    for (std::size_t i = 0; i < mPolicies.size(); ++i)
        if (mPolicies[i]->isChecked())
            job->policies.push_back({sim::kReplayPolicies[i].label, sim::kReplayPolicies[i].policy});
    if (mScenarioSource->isChecked()) {
        const auto [scenario, name] = mScenario();
        if (!scenario)
            return fail(tr("No scenario is open."));
        job->input = study::scenarioInput(*scenario, mCatalog, name, job->config.inflate);
    } else {
        if (mTasks->currentIndex() < 0 || mNodes->text().trimmed().isEmpty())
            return fail(tr("Choose the task file and the node file of a trace."));
        job->input =
            study::readTraceInput(mNodes->text().trimmed(), mTasks->currentData().toString(), job->config.inflate);
    }
    if (!job->input.ok())
        return fail(issuesText(job->input.issues));
    mStatus->setStyleSheet({});
    mStatus->setText(job->input.issues.empty() ? tr("Replaying…") : issuesText(job->input.issues));
    mGpus = job->input.gpus();
    mTitle = tr("%1, seeds %2–%3").arg(QFileInfo(job->input.name).completeBaseName()).arg(seeds.first).arg(seeds.last);
    mProgress->setRange(0, static_cast<int>(job->policies.size() * seeds.count()));
    mProgress->setValue(0);
    mJob = job;
    mCancelled = false;
    updateEnabled();
    mTicker.start();
    mRunner.start([job](const std::atomic<bool>& stop) {
        const unsigned threads = std::max(1U, std::thread::hardware_concurrency());
        for (const auto& [label, policy] : job->policies) {
            sim::ReplayConfig config = job->config;
            config.policy = policy;
            sim::ReplaySummary s =
                sim::replaySeeds(job->input.nodes, job->input.tasks, config, job->seeds, threads, {&stop, &job->done});
            if (stop)
                return false;
            job->results.emplace_back(label, std::move(s));
        }
        return true;
    });
}

void ReplayDialog::cancel()
{
    if (!mJob)
        return;
    mCancelled = true;
    mRunner.stop();
    mStatus->setText(tr("Cancelling…"));
    mCancel->setEnabled(false);
}

void ReplayDialog::finished()
{
    mTicker.stop();
    const std::shared_ptr<Job> job = std::exchange(mJob, nullptr);
    if (!job)
        return;
    if (mCancelled) {
        mStatus->setText(tr("Cancelled: %1 of %2 replays had run; nothing shown changed.")
                             .arg(job->done.load())
                             .arg(mProgress->maximum()));
    } else {
        mProgress->setValue(mProgress->maximum());
        mResults = std::move(job->results);
        showResults();
    }
    updateEnabled();
}

void ReplayDialog::showResults()
{
    mAllocation->setChart(replayChart(mResults, ReplayMeasure::Allocation, mTitle).release());
    mFragmentation->setChart(replayChart(mResults, ReplayMeasure::Fragmentation, mTitle).release());
    // Per policy: allocation at 100 % arrived and at the end, the GPUs it leaves unallocated,
    // and how many more than the policy that leaves the fewest.
    struct Row
    {
        QString name;
        double at100 = -1.0, atEnd = 0.0, unallocated = 0.0;
    };
    std::vector<Row> rows;
    for (const auto& [name, s] : mResults) {
        Row r{name};
        for (std::size_t k = 0; k < s.arrivedPct.size(); ++k)
            if (s.arrivedPct[k] == 100)
                r.at100 = s.allocationPct.mean[k];
        r.atEnd = s.allocationPct.mean.empty() ? 0.0 : s.allocationPct.mean.back();
        r.unallocated = (100.0 - r.atEnd) / 100.0 * mGpus;
        rows.push_back(r);
    }
    std::stable_sort(rows.begin(), rows.end(), [](const Row& a, const Row& b) { return a.atEnd > b.atEnd; });
    mGap->setRowCount(static_cast<int>(rows.size()));
    for (std::size_t i = 0; i < rows.size(); ++i) {
        const Row& r = rows[i];
        const Row& best = rows.front();
        QString against = tr("the fewest");
        if (i > 0) {
            against = gapText(r.unallocated - best.unallocated, best.name, r.unallocated);
        }
        const QStringList cells{
            r.name, r.at100 < 0 ? tr("–") : QString("%1 %").arg(r.at100, 0, 'f', 2),
            QString("%1 %").arg(r.atEnd, 0, 'f', 2),
            tr("%1 of %2")
                .arg(QString::fromStdString(fmt::grouped(r.unallocated)), QString::fromStdString(fmt::grouped(mGpus))),
            against};
        for (int c = 0; c < cells.size(); ++c) {
            auto* item = new QTableWidgetItem(cells[c]);
            if (c > 0 && c < 4)
                item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
            mGap->setItem(static_cast<int>(i), c, item);
        }
    }
    double elapsed = 0.0;
    for (const auto& [name, s] : mResults)
        elapsed += s.elapsedMs;
    const int runs = mProgress->maximum();
    mStatus->setText((runs == 1 ? tr("1 replay of %2 GPUs in %3 s.") : tr("%1 replays of %2 GPUs in %3 s."))
                         .arg(runs)
                         .arg(QString::fromStdString(fmt::grouped(mGpus)))
                         .arg(elapsed / 1000.0, 0, 'f', 1));
}

bool ReplayDialog::exportChartsTo(const QString& dir)
{
    if (mResults.empty())
        return false;
    const Status written = io::writeFiles(dir, replayChartFiles(mResults, mTitle));
    if (!written) {
        fail(issuesText(written.issues));
        return false;
    }
    mStatus->setStyleSheet({});
    mStatus->setText(tr("Charts and replay.csv written to %1").arg(dir));
    return true;
}

void ReplayDialog::exportCharts()
{
    const QString dir = QFileDialog::getExistingDirectory(this, tr("Export Replay Charts (PNG, SVG) and CSV Into"));
    if (!dir.isEmpty())
        exportChartsTo(dir);
}

void ReplayDialog::browseTasks()
{
    const QString file = QFileDialog::getOpenFileName(this, tr("Task File"), {}, tr("Task list CSV (*.csv)"));
    if (file.isEmpty())
        return;
    mTasks->addItem(QFileInfo(file).fileName(), file);
    mTasks->setCurrentIndex(mTasks->count() - 1);
    mTraceSource->setChecked(true);
}

void ReplayDialog::browseNodes()
{
    const QString file = QFileDialog::getOpenFileName(this, tr("Node File"), {}, tr("Node list CSV (*.csv)"));
    if (!file.isEmpty())
        mNodes->setText(file);
}

} // namespace gp::ui
