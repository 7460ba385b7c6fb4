// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#include "sweepdialog.h"

#include "sweepcharts.h"
#include "textformat.h"
#include "workbench.h"

#include "io/scenarioreader.h"

#include <QChart>
#include <QChartView>
#include <QDialogButtonBox>
#include <QDir>
#include <QFile>
#include <QHeaderView>
#include <QLabel>
#include <QMessageBox>
#include <QPushButton>
#include <QTabWidget>
#include <QTableWidget>
#include <QVBoxLayout>

namespace gp::ui {

namespace {

QByteArray readFile(const QString& path, QString& error)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly)) {
        error = path + ": " + f.errorString();
        return {};
    }
    return f.readAll();
}

} // namespace

SweepDialog* SweepDialog::open(const QString& folder, const Catalog& catalog, QString& error, QWidget* parent)
{
    const QDir dir(folder);
    if (!dir.exists("results.csv") || !dir.exists("spec.json") || !dir.exists("base.json")) {
        error = tr("%1 is not a sweep's output: it needs results.csv, spec.json and base.json "
                   "(gpuplan-cli sweep or sweep merge writes them)")
                    .arg(folder);
        return nullptr;
    }
    const QByteArray csv = readFile(dir.filePath("results.csv"), error);
    const QByteArray specJson = readFile(dir.filePath("spec.json"), error);
    const QByteArray baseJson = readFile(dir.filePath("base.json"), error);
    if (!error.isEmpty())
        return nullptr;
    Result<document::SweepTable> table = document::readSweepResults(csv);
    Result<document::SweepSpec> spec = document::readSweepSpec(specJson, folder);
    io::ScenarioReadResult base = io::readScenario(baseJson, catalog);
    if (!table || !spec || !base.ok()) {
        error = tr("%1: %2").arg(
            folder, QString::fromStdString(!table  ? table.errorText()
                                           : !spec ? "spec.json: " + spec.errorText()
                                                   : "base.json: " + Result<int>(Failure{base.issues}).errorText()));
        return nullptr;
    }
    return new SweepDialog(folder, catalog, std::move(*table), std::move(*spec), std::move(*base.value), parent);
}

SweepDialog::SweepDialog(const QString& folder, const Catalog& catalog, document::SweepTable results,
                         document::SweepSpec spec, Scenario base, QWidget* parent)
    : QDialog(parent), mCatalog(catalog), mResults(std::move(results)), mSpec(std::move(spec)), mBase(std::move(base))
{
    setObjectName("sweepDialog");
    setWindowTitle(tr("Sweep — %1").arg(QDir(folder).dirName()));
    auto* layout = new QVBoxLayout(this);
    auto* intro = new QLabel(tr("%n point(s) over %1 of <b>%2</b>; each chart shows the mean over the other axes.",
                                nullptr, static_cast<int>(mResults.rows.size()))
                                 .arg(QString::fromStdString([&] {
                                     std::string names;
                                     for (const std::string& a : mResults.axes)
                                         names += (names.empty() ? "" : ", ") + a;
                                     return names;
                                 }()))
                                 .arg(text::q(mBase.name).toHtmlEscaped()),
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
    // The points, one row each: the axis values, the figures, the reason where one did not apply.
    const QStringList figures{"cost_per_month_usd",     "vram_utilization", "max_penalty",
                              "serving_slo_attainment", "sla_violations",   "p95_completion_days"};
    QStringList header{tr("Point")};
    for (const std::string& a : mResults.axes)
        header << QString::fromStdString(a);
    header << tr("$/month") << tr("VRAM") << tr("Max penalty") << tr("SLO attainment") << tr("Outside SLA")
           << tr("P95 days") << tr("Error");
    mTable = new QTableWidget(static_cast<int>(mResults.rows.size()), static_cast<int>(header.size()), mTabs);
    mTable->setObjectName("SweepTable");
    mTable->setHorizontalHeaderLabels(header);
    mTable->setSelectionBehavior(QAbstractItemView::SelectRows);
    mTable->setSelectionMode(QAbstractItemView::SingleSelection);
    mTable->setEditTriggers(QAbstractItemView::NoEditTriggers);
    mTable->verticalHeader()->setVisible(false);
    for (std::size_t r = 0; r < mResults.rows.size(); ++r) {
        const document::SweepTable::Row& row = mResults.rows[r];
        QStringList cells{QString::number(row.point)};
        for (const std::string& v : row.values)
            cells << QString::fromStdString(v);
        auto figure = [&](const char* key) {
            const auto it = row.figures.find(key);
            return it == row.figures.end() ? std::optional<double>() : std::optional<double>(it->second);
        };
        cells << (figure("cost_per_month_usd") ? text::usd(*figure("cost_per_month_usd")) : QString())
              << (figure("vram_utilization") ? text::percent(*figure("vram_utilization")) : QString())
              << (figure("max_penalty") ? text::percent(*figure("max_penalty")) : QString())
              << (figure("serving_slo_attainment") ? text::percent(*figure("serving_slo_attainment")) : QString())
              << (figure("sla_violations") ? QString::number(*figure("sla_violations")) : QString())
              << (figure("p95_completion_days") ? text::days(*figure("p95_completion_days")) : QString())
              << QString::fromStdString(row.error);
        for (int c = 0; c < cells.size(); ++c)
            mTable->setItem(static_cast<int>(r), c, new QTableWidgetItem(cells[c]));
    }
    mTable->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    mTabs->addTab(mTable, tr("Points"));
    layout->addWidget(mTabs, 1);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    mOpen = buttons->addButton(tr("&Open Point as Scenario"), QDialogButtonBox::ActionRole);
    mOpen->setObjectName("SweepOpenPoint");
    mOpen->setEnabled(false);
    connect(mTable, &QTableWidget::itemSelectionChanged, this,
            [this] { mOpen->setEnabled(!mTable->selectedItems().isEmpty()); });
    connect(mOpen, &QPushButton::clicked, this, &SweepDialog::openSelected);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    layout->addWidget(buttons);
    resize(1100, 680);
}

void SweepDialog::openSelected()
{
    const int r = mTable->currentRow();
    if (r < 0 || r >= static_cast<int>(mResults.rows.size()))
        return;
    const long long point = mResults.rows[static_cast<std::size_t>(r)].point;
    Result<Scenario> s = document::sweepPointScenario(mBase, mCatalog, mSpec, point);
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

} // namespace gp::ui
