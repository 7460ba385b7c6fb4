// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#include "revisionsdialog.h"

#include "document/librarygateway.h"
#include "io/textformat.h"

#include <QDialogButtonBox>
#include <QHeaderView>
#include <QPushButton>
#include <QTableWidget>
#include <QVBoxLayout>

namespace gp::ui {

RevisionsDialog::RevisionsDialog(const QString& scenarioName, std::vector<store::RevisionInfo> revisions,
                                 QWidget* parent)
    : QDialog(parent), mRevisions(std::move(revisions)),
      mTable(new QTableWidget(static_cast<int>(mRevisions.size()), 5, this))
{
    setObjectName("revisionsDialog");
    setWindowTitle(tr("Revisions of %1").arg(scenarioName));
    mTable->setObjectName("revisionTable");
    mTable->setHorizontalHeaderLabels({tr("Revision"), tr("Saved"), tr("Note"), tr("$/month"), tr("$ wasted/month")});
    mTable->setSelectionBehavior(QAbstractItemView::SelectRows);
    mTable->setSelectionMode(QAbstractItemView::SingleSelection);
    mTable->setEditTriggers(QAbstractItemView::NoEditTriggers);
    mTable->verticalHeader()->hide();
    mTable->horizontalHeader()->setSectionResizeMode(2, QHeaderView::Stretch);
    for (int r = 0; r < static_cast<int>(mRevisions.size()); ++r) {
        const store::RevisionInfo& rev = mRevisions[static_cast<std::size_t>(r)];
        const auto cost = rev.kpis.find("cost_per_month_usd");
        mTable->setItem(r, 0, new QTableWidgetItem(QString::number(rev.number)));
        mTable->setItem(r, 1, new QTableWidgetItem(rev.createdAt.toLocalTime().toString("yyyy-MM-dd HH:mm")));
        mTable->setItem(r, 2, new QTableWidgetItem(rev.note));
        mTable->setItem(r, 3, new QTableWidgetItem(cost == rev.kpis.end() ? QString() : text::grouped(cost->second)));
        // The waste as the revision stored it: revisions saved before the one cost decomposition
        // (issue 36) keep their figure, labelled as the old definition, whose parts overlapped.
        auto* waste = new QTableWidgetItem;
        switch (document::storedWaste(rev.kpis)) {
        case document::StoredWaste::Current:
            waste->setText(text::grouped(rev.kpis.at("waste_per_month_usd")));
            waste->setToolTip(tr("Idle + sharing overhead + stranded: with the useful part, the cost"));
            break;
        case document::StoredWaste::OldDefinition:
            waste->setText(tr("%1 (old definition)").arg(text::grouped(rev.kpis.at("waste_per_month_usd"))));
            waste->setToolTip(tr("Saved under the old definition of waste (idle, stranded memory and slowdown, which "
                                 "overlapped and could exceed the cost); open the revision to see today's figures"));
            break;
        case document::StoredWaste::SliceAsPenalty:
            waste->setText(tr("%1 (earlier penalty)").arg(text::grouped(rev.kpis.at("waste_per_month_usd"))));
            waste->setToolTip(tr("Saved when the sharing overhead counted a slice's smaller size as penalty; open "
                                 "the revision to see today's figures"));
            break;
        case document::StoredWaste::None:
            waste->setText(tr("not stored"));
            waste->setToolTip(tr("Saved before revisions stored the cost's parts; open the revision to see them"));
            break;
        }
        mTable->setItem(r, 4, waste);
    }
    mTable->selectRow(mTable->rowCount() - 1);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Open | QDialogButtonBox::Close, this);
    connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    QPushButton* compare = buttons->addButton(tr("Compare with Latest"), QDialogButtonBox::ActionRole);
    compare->setObjectName("compareWithLatest");
    compare->setEnabled(mRevisions.size() > 1);
    connect(compare, &QPushButton::clicked, this, [this] {
        const int latest = mRevisions.back().number;
        const int picked = chosen().value_or(latest);
        if (picked != latest) {
            reject();
            Q_EMIT compareRequested(picked, latest);
        }
    });
    connect(mTable, &QTableWidget::cellDoubleClicked, this, &QDialog::accept);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(mTable);
    layout->addWidget(buttons);
    resize(760, 360);
}

std::optional<int> RevisionsDialog::chosen() const
{
    const int row = mTable->currentRow();
    if (row < 0 || row >= static_cast<int>(mRevisions.size()))
        return std::nullopt;
    return mRevisions[static_cast<std::size_t>(row)].number;
}

} // namespace gp::ui
