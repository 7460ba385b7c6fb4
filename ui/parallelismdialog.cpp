// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#include "parallelismdialog.h"

#include "textformat.h"

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
    return {QString::number(c.gpus),
            QString::number(p.tp),
            p.virtualStages > 1 ? QString("%1 × %2").arg(p.pp).arg(p.virtualStages) : QString::number(p.pp),
            QString::number(p.dp),
            p.fsdp ? QStringLiteral("FSDP") : QString("ZeRO-%1").arg(p.zeroStage),
            QString::fromStdString(std::string(enumName(p.recompute))),
            p.sequenceParallel ? QObject::tr("yes") : QObject::tr("no"),
            QString::number(c.microBatch),
            c.stepTimeS > 0 ? QString("%1 s").arg(c.stepTimeS, 0, 'f', 3) : QObject::tr("does not fit"),
            text::gib(c.memoryBytes) + " GiB",
            c.stepTimeS > 0 ? text::percent(c.mfu) : QString("–")};
}

} // namespace

ParallelismDialog::ParallelismDialog(const calc::JobSearchSetup& setup, const calc::JobConfig& current,
                                     const QString& jobName, const QString& where, QWidget* parent)
    : QDialog(parent), mSetup(setup)
{
    setObjectName("parallelismDialog");
    setWindowTitle(tr("Best Parallelism — %1").arg(jobName));
    auto* layout = new QVBoxLayout(this);
    auto* intro = new QLabel(
        tr("The fastest ways to run <b>%1</b> on %2: every TP within the NVLink domain, PP and virtual stages, "
           "DP, ZeRO stage or FSDP, micro-batch, recomputation and sequence parallelism, scored with the same "
           "memory and step-time models as the plan. Now: %3 GPUs, %4 per step, %5 GiB per GPU.")
            .arg(jobName.toHtmlEscaped(), where.toHtmlEscaped())
            .arg(current.gpus)
            .arg(current.stepTimeS > 0 ? QString("%1 s").arg(current.stepTimeS, 0, 'f', 3) : tr("does not fit"))
            .arg(text::gib(current.memoryBytes)),
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
    mTable = new QTableWidget(0, 11, this);
    mTable->setObjectName("ParallelismTable");
    mTable->setHorizontalHeaderLabels({tr("GPUs"), tr("TP"), tr("PP"), tr("DP"), tr("Sharding"), tr("Recompute"),
                                       tr("Seq. parallel"), tr("Micro-batch"), tr("Step"), tr("Memory/GPU"),
                                       tr("MFU")});
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
    mResult = calc::searchJob(mSetup, {10, {}, nullptr});
    QApplication::restoreOverrideCursor();
    mTable->setRowCount(static_cast<int>(mResult.top.size()));
    for (std::size_t r = 0; r < mResult.top.size(); ++r) {
        const QStringList cells = configCells(mResult.top[r]);
        for (int c = 0; c < cells.size(); ++c) {
            auto* item = new QTableWidgetItem(cells[c]);
            item->setTextAlignment(c == 4 || c == 5 ? Qt::AlignLeft | Qt::AlignVCenter
                                                    : Qt::AlignRight | Qt::AlignVCenter);
            mTable->setItem(static_cast<int>(r), c, item);
        }
    }
    if (mResult.top.empty())
        mStatus->setText(tr("<b>Nothing fits</b>: %1.").arg(QString::fromStdString(mResult.infeasibleReason)));
    else
        mStatus->setText(tr("%1 configurations, %2 fit; searched in %3 ms. The fastest first:")
                             .arg(QString::fromStdString(fmt::grouped(static_cast<double>(mResult.configurations))))
                             .arg(QString::fromStdString(fmt::grouped(static_cast<double>(mResult.feasible))))
                             .arg(mResult.elapsedMs, 0, 'f', 0));
    if (!mResult.top.empty())
        mTable->selectRow(0);
}

void ParallelismDialog::apply()
{
    const int row = mTable->currentRow();
    if (row < 0 || row >= static_cast<int>(mResult.top.size()))
        return;
    const calc::JobConfig& c = mResult.top[static_cast<std::size_t>(row)];
    Q_EMIT parallelismChosen(c.parallelism, c.microBatch);
    accept();
}

} // namespace gp::ui
