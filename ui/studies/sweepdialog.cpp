// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#include "sweepdialog.h"

#include "io/textformat.h"
#include "ui/figures/replaycharts.h"
#include "ui/figures/sweepcharts.h"
#include "ui/workbench.h"

#include "io/jsonfile.h"
#include "io/scenarioreader.h"

#include <QChart>
#include <QChartView>
#include <QDialogButtonBox>
#include <QDir>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QMessageBox>
#include <QPushButton>
#include <QTabWidget>
#include <QTableWidget>
#include <QVBoxLayout>

namespace gp::ui {

namespace {

/// A file of the sweep's folder, read as every input is (a regular file within its limit).
QByteArray readFile(const QString& path, QString& error, qint64 maxBytes = io::kMaxJsonBytes)
{
    Issues issues;
    const std::optional<QByteArray> bytes = io::readFileBytes(path, issues, maxBytes);
    if (!bytes) {
        error = path + ": " + QString::fromStdString(issueLines(issues, "; "));
        return {};
    }
    return *bytes;
}

/// A column of the points table: the figure, its header and how it is written.
struct Column
{
    const char* figure;
    QString header;
    QString (*write)(double);
};

std::vector<Column> columnsOf(study::SweepKind kind)
{
    auto count = [](double v) { return QString::number(v, 'f', 0); };
    auto pct = [](double v) { return text::percent(v / 100.0); }; // a replay's figures are in %
    if (kind == study::SweepKind::Replay)
        return {{"tasks", SweepDialog::tr("Tasks"), count},
                {"failed_tasks", SweepDialog::tr("Failed"), count},
                {"allocation_pct_at_100", SweepDialog::tr("Allocated at 100 %"), pct},
                {"fragmentation_rate_pct_at_100", SweepDialog::tr("Fragmented of free at 100 %"), pct},
                {"allocation_pct_at_end", SweepDialog::tr("Allocated at the end"), pct},
                {"unallocated_gpus_at_end", SweepDialog::tr("GPUs unallocated"), count}};
    return {{"cost_per_month_usd", SweepDialog::tr("$/month"), [](double v) { return text::usd(v); }},
            {"vram_utilization", SweepDialog::tr("VRAM"), [](double v) { return text::percent(v); }},
            {"max_penalty", SweepDialog::tr("Max penalty"), [](double v) { return text::percent(v); }},
            {"serving_slo_attainment", SweepDialog::tr("SLO attainment"), [](double v) { return text::percent(v); }},
            {"sla_violations", SweepDialog::tr("Outside SLA"), count},
            {"p95_completion_days", SweepDialog::tr("P95 days"), [](double v) { return text::days(v); }}};
}

} // namespace

SweepDialog* SweepDialog::open(const QString& folder, const Catalog& catalog, QString& error, QWidget* parent)
{
    const QDir dir(folder);
    if (!dir.exists("results.csv") || !dir.exists("spec.json") || !dir.exists("sweep.json")) {
        error = tr("%1 is not a sweep's output: it needs results.csv, sweep.json and spec.json "
                   "(gpuplan-cli sweep or sweep merge writes them)")
                    .arg(folder);
        return nullptr;
    }
    const QByteArray csv = readFile(dir.filePath("results.csv"), error, limits::kMaxSweepResultsBytes);
    const QByteArray specJson = readFile(dir.filePath("spec.json"), error);
    const QByteArray summary = readFile(dir.filePath("sweep.json"), error);
    if (!error.isEmpty())
        return nullptr;
    // A replay sweep's trace files are named relative to where its spec was.
    const QString specFolder = QJsonDocument::fromJson(summary).object().value("spec_folder").toString(folder);
    Result<study::SweepTable> table = study::readSweepResults(csv);
    Result<study::SweepSpec> spec = study::readSweepSpec(specJson, specFolder);
    if (!table || !spec) {
        error = tr("%1: %2").arg(folder,
                                 QString::fromStdString(!table ? table.errorText() : "spec.json: " + spec.errorText()));
        return nullptr;
    }
    std::optional<Scenario> base;
    if (spec->kind == study::SweepKind::WhatIf || dir.exists("base.json")) {
        io::ScenarioReadResult read = io::readScenario(readFile(dir.filePath("base.json"), error), catalog);
        if (!error.isEmpty() || !read.ok()) {
            error = error.isEmpty()
                        ? tr("%1: base.json: %2")
                              .arg(folder, QString::fromStdString(Result<int>(Failure{read.issues}).errorText()))
                        : tr("%1 is not a what-if sweep's whole output: %2").arg(folder, error);
            return nullptr;
        }
        base = std::move(*read.value);
    }
    return new SweepDialog(folder, catalog, std::move(*table), std::move(*spec), std::move(base), parent);
}

SweepDialog::SweepDialog(const QString& folder, const Catalog& catalog, study::SweepTable results,
                         study::SweepSpec spec, std::optional<Scenario> base, QWidget* parent)
    : QDialog(parent), mCatalog(catalog), mResults(std::move(results)), mSpec(std::move(spec)), mBase(std::move(base))
{
    setObjectName("sweepDialog");
    setWindowTitle(tr("Sweep — %1").arg(QDir(folder).dirName()));
    auto* layout = new QVBoxLayout(this);
    const bool replay = mSpec.kind == study::SweepKind::Replay;
    std::string names;
    for (const std::string& a : mResults.axes)
        names += (names.empty() ? "" : ", ") + a;
    auto* intro =
        new QLabel((replay ? tr("%n placement replay(s) over %1; each chart shows the mean over the other axes.",
                                nullptr, static_cast<int>(mResults.rows.size()))
                                 .arg(QString::fromStdString(names))
                           : tr("%n point(s) over %1 of <b>%2</b>; each chart shows the mean over the other axes.",
                                nullptr, static_cast<int>(mResults.rows.size()))
                                 .arg(QString::fromStdString(names))
                                 .arg(text::q(mBase ? mBase->name : std::string()).toHtmlEscaped())),
                   this);
    intro->setWordWrap(true);
    layout->addWidget(intro);
    mTabs = new QTabWidget(this);
    mTabs->setObjectName("SweepTabs");
    for (std::size_t a = 0; a < mResults.axes.size(); ++a) {
        auto* view = new QChartView(sweepAxisChart(mResults, a).release(), mTabs);
        view->setRenderHint(QPainter::Antialiasing);
        mTabs->addTab(view, QString::fromStdString(mResults.axes[a]));
    }
    fillTable();
    mTabs->addTab(mTable, tr("Points"));
    layout->addWidget(mTabs, 1);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    mOpen =
        buttons->addButton(replay ? tr("&Replay Point") : tr("&Open Point as Scenario"), QDialogButtonBox::ActionRole);
    mOpen->setObjectName("SweepOpenPoint");
    mOpen->setToolTip(replay ? tr("Replay the selected point again and show its allocation and fragmentation curves")
                             : tr("Open the selected what-if as an unsaved scenario"));
    mOpen->setEnabled(false);
    connect(mTable, &QTableWidget::itemSelectionChanged, this,
            [this] { mOpen->setEnabled(!mTable->selectedItems().isEmpty() && !mReplay.running()); });
    connect(mOpen, &QPushButton::clicked, this, replay ? &SweepDialog::replaySelected : &SweepDialog::openSelected);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    layout->addWidget(buttons);
    resize(1100, 680);
}

SweepDialog::~SweepDialog() = default; // mReplay waits for a replay still running

void SweepDialog::replayFinished(const Result<sim::ReplaySummary>& r)
{
    mOpen->setEnabled(!mTable->selectedItems().isEmpty());
    unsetCursor();
    if (!r) {
        QMessageBox::warning(this, tr("Cannot replay the point"),
                             tr("Point %1: %2").arg(mReplayPoint).arg(QString::fromStdString(r.errorText())));
        return;
    }
    showReplay(*r);
}

void SweepDialog::fillTable()
{
    // The points, one row each: the axis values, the figures, the reason where one did not apply.
    const std::vector<Column> columns = columnsOf(mResults.kind);
    QStringList header{tr("Point")};
    for (const std::string& a : mResults.axes)
        header << QString::fromStdString(a);
    for (const Column& c : columns)
        header << c.header;
    header << tr("Error");
    mTable = new QTableWidget(static_cast<int>(mResults.rows.size()), static_cast<int>(header.size()), mTabs);
    mTable->setObjectName("SweepTable");
    mTable->setHorizontalHeaderLabels(header);
    mTable->setSelectionBehavior(QAbstractItemView::SelectRows);
    mTable->setSelectionMode(QAbstractItemView::SingleSelection);
    mTable->setEditTriggers(QAbstractItemView::NoEditTriggers);
    mTable->verticalHeader()->setVisible(false);
    for (std::size_t r = 0; r < mResults.rows.size(); ++r) {
        const study::SweepTable::Row& row = mResults.rows[r];
        QStringList cells{QString::number(row.point)};
        for (const std::string& v : row.values)
            cells << QString::fromStdString(v);
        for (const Column& c : columns) {
            const auto it = row.figures.find(c.figure);
            cells << (it == row.figures.end() ? QString() : c.write(it->second));
        }
        cells << QString::fromStdString(row.error);
        for (int c = 0; c < cells.size(); ++c)
            mTable->setItem(static_cast<int>(r), c, new QTableWidgetItem(cells[c]));
    }
    mTable->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
}

void SweepDialog::openSelected()
{
    const int r = mTable->currentRow();
    if (r < 0 || r >= static_cast<int>(mResults.rows.size()) || !mBase)
        return;
    const long long point = mResults.rows[static_cast<std::size_t>(r)].point;
    Result<Scenario> s = study::sweepPointScenario(*mBase, mCatalog, mSpec, point);
    if (!s) {
        QMessageBox::warning(this, tr("Cannot open the point"),
                             tr("Point %1 does not apply to the base scenario: %2")
                                 .arg(point)
                                 .arg(QString::fromStdString(s.errorText())));
        return;
    }
    s->name += tr(" — sweep point %1").arg(point).toStdString();
    Q_EMIT pointOpened(*s);
}

void SweepDialog::replaySelected()
{
    const int r = mTable->currentRow();
    if (r < 0 || r >= static_cast<int>(mResults.rows.size()) || mReplay.running())
        return;
    mReplayPoint = mResults.rows[static_cast<std::size_t>(r)].point;
    mOpen->setEnabled(false);
    setCursor(Qt::BusyCursor);
    // The spec's traces are read again (they may have moved since the sweep ran: said), then the
    // point's one replay, off the window's thread.
    mReplay.start([spec = mSpec, catalog = &mCatalog, point = mReplayPoint](const std::atomic<bool>&) {
        using R = Result<sim::ReplaySummary>;
        const Result<study::SweepInputs> inputs = study::loadSweepInputs(spec, *catalog);
        if (!inputs)
            return R::failure(inputs.issues);
        const study::SweepReplayPoint p = study::sweepReplayPoint(spec, point);
        if (p.trace >= inputs->traces.size())
            return R::failure("", "no trace to replay");
        const study::ReplayInput& trace = inputs->traces[p.trace];
        return R::success(sim::replaySeeds(trace.nodes, trace.tasks, p.config, {p.config.seed, p.config.seed}, 1));
    });
}

void SweepDialog::showReplay(const sim::ReplaySummary& summary)
{
    const study::SweepReplayPoint p = study::sweepReplayPoint(mSpec, mReplayPoint);
    const QString title = tr("Point %1: %2, seed %3, inflate %4")
                              .arg(mReplayPoint)
                              .arg(p.policy)
                              .arg(p.config.seed)
                              .arg(p.config.inflate);
    auto* page = new QWidget(mTabs);
    page->setObjectName(QString("SweepPoint%1").arg(mReplayPoint));
    auto* row = new QHBoxLayout(page);
    const std::vector<std::pair<QString, sim::ReplaySummary>> runs{{p.policy, summary}};
    for (const ReplayMeasure m : {ReplayMeasure::Allocation, ReplayMeasure::Fragmentation}) {
        std::unique_ptr<QChart> chart = replayChart(runs, m, title);
        chart->legend()->hide(); // one policy, named in the title
        auto* view = new QChartView(chart.release(), page);
        view->setRenderHint(QPainter::Antialiasing);
        row->addWidget(view);
    }
    mTabs->setCurrentIndex(mTabs->addTab(page, tr("Point %1").arg(mReplayPoint)));
}

} // namespace gp::ui
