// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#include "palette.h"

#include <QMimeData>

namespace gp::ui {

Palette::Palette(const Catalog& catalog, QWidget* parent) : QListWidget(parent)
{
    setDragEnabled(true);
    setDragDropMode(QAbstractItemView::DragOnly);
    setSelectionMode(QAbstractItemView::SingleSelection);
    for (const NodeTemplate& t : catalog.nodeTemplates) {
        const GpuSpec* g = catalog.gpu(t.gpuId);
        auto* item = new QListWidgetItem(tr("%1\n%2 x %3, %4 x %5 Gb/s")
                                             .arg(QString::fromStdString(t.name))
                                             .arg(t.gpuCount)
                                             .arg(g ? QString::fromStdString(g->name) : QString::fromStdString(t.gpuId))
                                             .arg(t.nicCount)
                                             .arg(t.nicSpeedGbps),
                                         this);
        item->setData(Qt::UserRole, QStringLiteral("node:") + QString::fromStdString(t.id));
        item->setToolTip(tr("Drag onto the canvas to add a node"));
    }
    for (const SwitchTemplate& t : catalog.switchTemplates) {
        auto* item = new QListWidgetItem(tr("%1\n%2 x %3 Gb/s %4")
                                             .arg(QString::fromStdString(t.name))
                                             .arg(t.ports)
                                             .arg(t.portSpeedGbps)
                                             .arg(QString::fromStdString(t.fabric)),
                                         this);
        item->setData(Qt::UserRole, QStringLiteral("switch:") + QString::fromStdString(t.id));
        item->setToolTip(tr("Drag onto the canvas to add a switch"));
    }
    for (const ModelPreset& m : catalog.models) {
        auto* item =
            new QListWidgetItem(tr("Job: %1\n%2 layers, %3 heads%4")
                                    .arg(QString::fromStdString(m.name))
                                    .arg(m.arch.layers)
                                    .arg(m.arch.attentionHeads)
                                    .arg(m.arch.experts > 1 ? tr(", %1 experts").arg(m.arch.experts) : QString()),
                                this);
        item->setData(Qt::UserRole, QStringLiteral("job:") + QString::fromStdString(m.id));
        item->setToolTip(tr("Drag onto a node to add a job of this model pinned there, or double-click to add one"));
    }
    auto* custom = new QListWidgetItem(tr("Job: custom model\nyour own layers, sizes and experts"), this);
    custom->setData(Qt::UserRole, QStringLiteral("job:"));
    custom->setToolTip(tr("Double-click or drag onto the canvas to add a job with a model shape you enter"));
    connect(this, &QListWidget::itemDoubleClicked, this,
            [this](QListWidgetItem* item) { Q_EMIT templateActivated(item->data(Qt::UserRole).toString()); });
}

QMimeData* Palette::mimeData(const QList<QListWidgetItem*>& items) const
{
    auto* data = new QMimeData;
    if (!items.isEmpty())
        data->setData(kMimeType, items.front()->data(Qt::UserRole).toString().toUtf8());
    return data;
}

} // namespace gp::ui
