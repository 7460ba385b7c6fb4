// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#include "librarypanel.h"
#include "io/textformat.h"

#include <QAction>
#include <QGridLayout>
#include <QHeaderView>
#include <QLineEdit>
#include <QResizeEvent>
#include <QTableWidget>
#include <QToolButton>
#include <QVBoxLayout>

#include <algorithm>

namespace gp::ui {

namespace {

enum Column
{
    ColName,
    ColGpus,
    ColCost,
    ColRevisions,
    ColUpdated,
    ColCount
};

/// A cell that sorts by its number, not its text.
class NumberItem : public QTableWidgetItem
{
public:
    NumberItem(double value, const QString& text) : QTableWidgetItem(text)
    {
        setData(Qt::UserRole + 1, value);
        setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
    }
    bool operator<(const QTableWidgetItem& other) const override
    {
        return data(Qt::UserRole + 1).toDouble() < other.data(Qt::UserRole + 1).toDouble();
    }
};

} // namespace

LibraryPanel::LibraryPanel(QWidget* parent)
    : QWidget(parent), mFilter(new QLineEdit(this)), mTable(new QTableWidget(0, ColCount, this))
{
    mFilter->setPlaceholderText(tr("Filter by name or tag…"));
    mFilter->setClearButtonEnabled(true);
    mTable->setHorizontalHeaderLabels({tr("Scenario"), tr("GPUs"), tr("$/month"), tr("Rev."), tr("Updated")});
    mTable->setSelectionBehavior(QAbstractItemView::SelectRows);
    mTable->setSelectionMode(QAbstractItemView::ExtendedSelection);
    mTable->setEditTriggers(QAbstractItemView::NoEditTriggers);
    mTable->verticalHeader()->hide();
    // The name takes what the numbers leave, elided (its tooltip has it whole); the numbers
    // are always whole. Revisions and the update time show when the panel is wide enough.
    QHeaderView* header = mTable->horizontalHeader();
    header->setSectionResizeMode(ColName, QHeaderView::Stretch);
    for (int c = ColGpus; c < ColCount; ++c)
        header->setSectionResizeMode(c, QHeaderView::ResizeToContents);
    header->setMinimumSectionSize(40);
    mTable->setTextElideMode(Qt::ElideRight);
    mTable->setWordWrap(false);
    mTable->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    mTable->setSortingEnabled(true);
    mTable->sortByColumn(ColName, Qt::AscendingOrder); // A to Z until the user clicks a header
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addWidget(mFilter);
    layout->addWidget(mTable);
    // Actions on the selection, as buttons and in the context menu.
    auto* buttons = new QGridLayout; // two rows of three: the dock stays narrow
    int slot = 0;
    auto action = [&](const QString& name, const QString& text, const QString& tip, auto emitFor, bool many) {
        auto* a = new QAction(text, this);
        a->setObjectName(name);
        a->setToolTip(tip);
        connect(a, &QAction::triggered, this, [this, emitFor, many] {
            const QList<qint64> ids = selectedIds();
            if (many ? (ids.size() >= 2 && ids.size() <= 4) : ids.size() == 1)
                emitFor(this, ids);
        });
        mTable->addAction(a);
        auto* b = new QToolButton(this);
        b->setDefaultAction(a);
        b->setObjectName(name + "Button");
        b->setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Fixed);
        buttons->addWidget(b, slot / 3, slot % 3);
        ++slot;
    };
    action(
        "compare", tr("Compare"), tr("Compare the selected scenarios (two to four) side by side"),
        [](LibraryPanel* p, const QList<qint64>& ids) { Q_EMIT p->compareRequested(ids); }, true);
    action(
        "revisions", tr("Revisions"), tr("The selected scenario's revisions, with their notes; open one read-only"),
        [](LibraryPanel* p, const QList<qint64>& ids) { Q_EMIT p->revisionsRequested(ids.front()); }, false);
    action(
        "duplicate", tr("Duplicate"), tr("Save a copy of the selected scenario as a new variant"),
        [](LibraryPanel* p, const QList<qint64>& ids) { Q_EMIT p->duplicateRequested(ids.front()); }, false);
    action(
        "rename", tr("Rename"), tr("Rename the selected scenario"),
        [](LibraryPanel* p, const QList<qint64>& ids) { Q_EMIT p->renameRequested(ids.front()); }, false);
    action(
        "tags", tr("Tags"), tr("Set the selected scenario's tags"),
        [](LibraryPanel* p, const QList<qint64>& ids) { Q_EMIT p->tagsRequested(ids.front()); }, false);
    action(
        "delete", tr("Delete"), tr("Delete the selected scenario and its revisions (asks first)"),
        [](LibraryPanel* p, const QList<qint64>& ids) { Q_EMIT p->deleteRequested(ids.front()); }, false);
    layout->addLayout(buttons);
    mTable->setContextMenuPolicy(Qt::ActionsContextMenu);
    connect(mFilter, &QLineEdit::textChanged, this, &LibraryPanel::applyFilter);
    connect(mTable, &QTableWidget::itemActivated, this, [this](QTableWidgetItem* item) {
        Q_EMIT openRequested(mTable->item(item->row(), ColName)->data(Qt::UserRole).toLongLong());
    });
}

int LibraryPanel::rowCount() const { return mTable->rowCount(); }

QList<qint64> LibraryPanel::selectedIds() const
{
    QList<qint64> ids;
    for (int r = 0; r < mTable->rowCount(); ++r)
        if (mTable->item(r, ColName)->isSelected())
            ids << mTable->item(r, ColName)->data(Qt::UserRole).toLongLong();
    return ids;
}

void LibraryPanel::select(const QList<qint64>& ids)
{
    mTable->clearSelection();
    bool first = true;
    for (int r = 0; r < mTable->rowCount(); ++r)
        if (ids.contains(mTable->item(r, ColName)->data(Qt::UserRole).toLongLong())) {
            if (first) // the keyboard continues from there
                mTable->setCurrentItem(mTable->item(r, ColName), QItemSelectionModel::NoUpdate);
            first = false;
            for (int c = 0; c < ColCount; ++c)
                mTable->item(r, c)->setSelected(true);
        }
}

bool LibraryPanel::reload(store::ScenarioLibrary& library)
{
    auto all = library.list();
    if (!all)
        return false;
    // The selection follows the scenarios, not the rows: a rename re-sorts them.
    const QList<qint64> selected = selectedIds();
    const qint64 current = mTable->currentRow() >= 0 && mTable->item(mTable->currentRow(), ColName)
                               ? mTable->item(mTable->currentRow(), ColName)->data(Qt::UserRole).toLongLong()
                               : 0;
    mTable->setSortingEnabled(false);
    mTable->setRowCount(static_cast<int>(all->size()));
    int row = 0;
    for (const auto& s : *all) {
        auto* name = new QTableWidgetItem(s.name);
        name->setData(Qt::UserRole, s.id);
        name->setToolTip(s.description + (s.tags.isEmpty() ? "" : "\n" + tr("Tags: ") + s.tags.join(", ")));
        name->setData(Qt::UserRole + 2, s.tags.join(' '));
        mTable->setItem(row, ColName, name);
        auto kpi = [&](const char* key) {
            auto it = s.latest.kpis.find(key);
            return it == s.latest.kpis.end() ? 0.0 : it->second;
        };
        mTable->setItem(row, ColGpus, new NumberItem(kpi("gpus"), QString::number(kpi("gpus"))));
        mTable->setItem(row, ColCost,
                        new NumberItem(kpi("cost_per_month_usd"), text::grouped(kpi("cost_per_month_usd"))));
        mTable->setItem(row, ColRevisions, new NumberItem(s.revisionCount, QString::number(s.revisionCount)));
        mTable->setItem(row, ColUpdated, new QTableWidgetItem(s.updatedAt.toLocalTime().toString("yyyy-MM-dd HH:mm")));
        ++row;
    }
    mTable->setSortingEnabled(true);
    applyFilter(mFilter->text());
    select(selected);
    for (int r = 0; r < mTable->rowCount(); ++r)
        if (mTable->item(r, ColName)->data(Qt::UserRole).toLongLong() == current && selected.contains(current))
            mTable->setCurrentItem(mTable->item(r, ColName), QItemSelectionModel::NoUpdate);
    fitColumns();
    return true;
}

void LibraryPanel::resizeEvent(QResizeEvent* event)
{
    QWidget::resizeEvent(event);
    fitColumns();
}

void LibraryPanel::fitColumns()
{
    // Revisions and the update time only when the name keeps room for about 14 characters.
    const int room = mTable->viewport()->width();
    const QFontMetrics fm(mTable->font());
    auto need = [&](int column) {
        int width = mTable->horizontalHeader()->sectionSizeHint(column);
        for (int r = 0; r < mTable->rowCount(); ++r)
            width = std::max(width, fm.horizontalAdvance(mTable->item(r, column)->text()) + 16);
        return width;
    };
    const int nameRoom = fm.averageCharWidth() * 14;
    const int essential = need(ColGpus) + need(ColCost);
    mTable->setColumnHidden(ColRevisions, room < nameRoom + essential + need(ColRevisions));
    mTable->setColumnHidden(ColUpdated, room < nameRoom + essential + need(ColRevisions) + need(ColUpdated));
}

void LibraryPanel::applyFilter(const QString& text)
{
    for (int r = 0; r < mTable->rowCount(); ++r) {
        const QTableWidgetItem* name = mTable->item(r, ColName);
        const bool match = text.isEmpty() || name->text().contains(text, Qt::CaseInsensitive) ||
                           name->data(Qt::UserRole + 2).toString().contains(text, Qt::CaseInsensitive);
        mTable->setRowHidden(r, !match);
    }
}

} // namespace gp::ui
