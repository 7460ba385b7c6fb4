// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#include "parallelismdialog.h"

#include "io/textformat.h"

#include "model/enumnames.h"
#include "model/format.h"

#include <QApplication>
#include <QDialogButtonBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QSpinBox>
#include <QTableWidget>
#include <QVBoxLayout>

#include <algorithm>

namespace gp::ui {

namespace {

QStringList configCells(const calc::JobConfig& c)
{
    const Parallelism& p = c.parallelism;
    return {QString::number(c.gpus), QString::number(p.tp),
            p.virtualStages > 1      ? QString("%1 × %2").arg(p.pp).arg(p.virtualStages)
            : !p.stageLayers.empty() ? QObject::tr("%1 (uneven: %2–%3 layers)")
                                           .arg(p.pp)
                                           .arg(*std::min_element(p.stageLayers.begin(), p.stageLayers.end()))
                                           .arg(*std::max_element(p.stageLayers.begin(), p.stageLayers.end()))
                                     : QString::number(p.pp),
            // Expert parallelism splits the experts over dp ranks: shown beside them.
            (p.ep > 1 ? QString("%1 (EP %2)").arg(p.dp).arg(p.ep) : QString::number(p.dp)) +
                (p.cp > 1 ? QObject::tr(" (CP %1)").arg(p.cp) : QString()),
            p.fsdp ? QStringLiteral("FSDP") : QString("ZeRO-%1").arg(p.zeroStage),
            QString::fromStdString(std::string(enumName(p.recompute))),
            p.sequenceParallel ? QObject::tr("yes") : QObject::tr("no"), QString::number(c.microBatch),
            c.stepTimeS > 0 ? QString("%1 s").arg(c.stepTimeS, 0, 'f', 3) : QObject::tr("does not fit"),
            text::gib(c.memoryBytes) + " GiB", c.stepTimeS > 0 ? text::percent(c.mfu) : QString("–")};
}

QStringList deploymentCells(const calc::ServingConfig& c)
{
    return {QString::number(c.gpus),
            QString::number(c.tp),
            c.ep > 1 ? QString("%1 (EP %2)").arg(c.replicas).arg(c.ep) : QString::number(c.replicas),
            QString::number(c.batchCap),
            QString::fromStdString(std::string(enumName(c.precision))),
            text::latency(c.ttftP99S),
            text::latency(c.itlP99S),
            QString::number(c.outputTokensPerSPerGpu, 'f', 0),
            text::gib(c.memoryBytes) + " GiB"};
}

} // namespace

ParallelismDialog::ParallelismDialog(const calc::JobSearchSetup& setup, const calc::JobConfig& current,
                                     const QString& jobName, const QString& where, QWidget* parent)
    : QDialog(parent), mSetup(setup)
{
    setObjectName("parallelismDialog");
    setWindowTitle(tr("Best Parallelism — %1").arg(jobName));
    auto* layout = new QVBoxLayout(this);
    const QString now = serving() ? tr("Now: %1 GPUs (TP %2 × %3 replicas).")
                                        .arg(current.gpus)
                                        .arg(current.parallelism.tp)
                                        .arg(current.parallelism.dp)
                                  : tr("Now: %1 GPUs, %2 per step, %3 GiB per GPU.")
                                        .arg(current.gpus)
                                        .arg(current.stepTimeS > 0 ? QString("%1 s").arg(current.stepTimeS, 0, 'f', 3)
                                                                   : tr("does not fit"))
                                        .arg(text::gib(current.memoryBytes));
    auto* intro = new QLabel(
        (serving() ? tr("The deployments of <b>%1</b> on %2 that meet its tenant's P99 time-to-first-token and "
                        "inter-token objectives at its load, fewest GPUs first: TP, replicas, batch cap and "
                        "precision, scored with the same serving model as the plan. %3")
                   : tr("The fastest ways to run <b>%1</b> on %2: every TP within the NVLink domain, PP and virtual "
                        "stages, DP, ZeRO stage or FSDP, micro-batch, recomputation and sequence parallelism, scored "
                        "with the same memory and step-time models as the plan. %3"))
            .arg(jobName.toHtmlEscaped(), where.toHtmlEscaped(), now),
        this);
    intro->setWordWrap(true);
    layout->addWidget(intro);

    auto* range = new QHBoxLayout;
    range->addWidget(new QLabel(tr("GPUs from"), this));
    mFrom = new QSpinBox(this);
    mFrom->setObjectName("ParallelismGpusFrom");
    mTo = new QSpinBox(this);
    mTo->setObjectName("ParallelismGpusTo");
    for (QSpinBox* box : {mFrom, mTo}) {
        box->setRange(1, 65536);
        box->setAccelerated(true);
    }
    mFrom->setValue(setup.gpusMin);
    mTo->setValue(setup.gpusMax);
    range->addWidget(mFrom);
    range->addWidget(new QLabel(tr("to"), this));
    range->addWidget(mTo);
    auto* searchButton = new QPushButton(tr("&Search"), this);
    searchButton->setObjectName("ParallelismSearch");
    range->addWidget(searchButton);
    range->addStretch();
    layout->addLayout(range);

    mStatus = new QLabel(this);
    mStatus->setObjectName("ParallelismStatus");
    mStatus->setWordWrap(true);
    layout->addWidget(mStatus);
    const QStringList columns =
        serving()
            ? QStringList{tr("GPUs"),     tr("TP"),      tr("Replicas"),     tr("Batch cap"), tr("Precision"),
                          tr("P99 TTFT"), tr("P99 ITL"), tr("Tokens/s/GPU"), tr("Memory/GPU")}
            : QStringList{
                  tr("GPUs"),          tr("TP"),          tr("PP"),   tr("DP"),         tr("Sharding"), tr("Recompute"),
                  tr("Seq. parallel"), tr("Micro-batch"), tr("Step"), tr("Memory/GPU"), tr("MFU")};
    mTable = new QTableWidget(0, static_cast<int>(columns.size()), this);
    mTable->setObjectName("ParallelismTable");
    mTable->setHorizontalHeaderLabels(columns);
    mTable->setSelectionBehavior(QAbstractItemView::SelectRows);
    mTable->setSelectionMode(QAbstractItemView::SingleSelection);
    mTable->setEditTriggers(QAbstractItemView::NoEditTriggers);
    mTable->verticalHeader()->setVisible(false);
    mTable->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    layout->addWidget(mTable, 1);

    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    mApply = buttons->addButton(tr("&Apply"), QDialogButtonBox::AcceptRole);
    mApply->setObjectName("ParallelismApply");
    mApply->setEnabled(false);
    layout->addWidget(buttons);

    connect(searchButton, &QPushButton::clicked, this, &ParallelismDialog::search);
    connect(mTable, &QTableWidget::itemSelectionChanged, this,
            [this] { mApply->setEnabled(!mTable->selectedItems().isEmpty()); });
    connect(mApply, &QPushButton::clicked, this, &ParallelismDialog::apply);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    resize(980, 460);
}

void ParallelismDialog::search()
{
    if (mTo->value() < mFrom->value()) {
        mStatus->setText(tr("<b>The range is reversed</b>: %1 to %2 GPUs.").arg(mFrom->value()).arg(mTo->value()));
        return;
    }
    if (mTo->value() - mFrom->value() > 4096) {
        mStatus->setText(tr("<b>The range spans more than 4,096 GPU counts</b>; narrow it."));
        return;
    }
    mSetup.gpusMin = mFrom->value();
    mSetup.gpusMax = mTo->value();
    QApplication::setOverrideCursor(Qt::WaitCursor);
    std::vector<QStringList> rows;
    long long configurations = 0, fit = 0;
    double ms = 0.0;
    std::string infeasible;
    auto take = [&](const auto& result, auto cells) {
        for (const auto& c : result.top)
            rows.push_back(cells(c));
        configurations = result.configurations;
        fit = result.feasible;
        ms = result.elapsedMs;
        infeasible = result.infeasibleReason;
    };
    if (serving()) {
        mServing = calc::searchServing(mSetup, {10, {}, nullptr});
        take(mServing, deploymentCells);
    } else {
        mResult = calc::searchJob(mSetup, {10, {}, nullptr});
        take(mResult, configCells);
    }
    QApplication::restoreOverrideCursor();
    mTable->setRowCount(static_cast<int>(rows.size()));
    for (std::size_t r = 0; r < rows.size(); ++r)
        for (int c = 0; c < rows[r].size(); ++c) {
            auto* item = new QTableWidgetItem(rows[r][c]);
            const bool words = serving() ? c == 4 : c == 4 || c == 5;
            item->setTextAlignment(words ? Qt::AlignLeft | Qt::AlignVCenter : Qt::AlignRight | Qt::AlignVCenter);
            mTable->setItem(static_cast<int>(r), c, item);
        }
    if (rows.empty())
        mStatus->setText(tr("<b>Nothing fits</b>: %1.").arg(QString::fromStdString(infeasible)));
    else
        mStatus->setText((serving() ? tr("%1 deployments, %2 fit and meet the objectives; searched in %3 ms. "
                                         "Fewest GPUs first:")
                                    : tr("%1 configurations, %2 fit; searched in %3 ms. The fastest first:"))
                             .arg(QString::fromStdString(fmt::grouped(static_cast<double>(configurations))))
                             .arg(QString::fromStdString(fmt::grouped(static_cast<double>(fit))))
                             .arg(ms, 0, 'f', 0));
    if (!rows.empty())
        mTable->selectRow(0);
}

void ParallelismDialog::apply()
{
    const int row = mTable->currentRow();
    if (serving()) {
        if (row < 0 || row >= static_cast<int>(mServing.top.size()))
            return;
        Q_EMIT deploymentChosen(mServing.top[static_cast<std::size_t>(row)]);
    } else {
        if (row < 0 || row >= static_cast<int>(mResult.top.size()))
            return;
        const calc::JobConfig& c = mResult.top[static_cast<std::size_t>(row)];
        Q_EMIT parallelismChosen(c.parallelism, c.microBatch);
    }
    accept();
}

} // namespace gp::ui
