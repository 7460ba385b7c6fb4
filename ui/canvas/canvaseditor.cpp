// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#include "canvaseditor.h"

#include "canvasscene.h"
#include "canvasview.h"
#include "nodeitem.h"
#include "switchitem.h"

#include "document/commands.h"
#include "document/topologyedits.h"
#include "ui/workbench.h"

#include <cmath>

namespace gp::ui {

CanvasEditor::CanvasEditor(Workbench& workbench, CanvasScene& scene, QObject* parent)
    : QObject(parent), mWorkbench(workbench), mScene(scene)
{
}

void CanvasEditor::commitDrag()
{
    if (!mWorkbench.editable())
        return;
    const Scenario& s = mWorkbench.document()->scenario();
    auto moved = mScene.movedItems(s, CanvasView::kGrid);
    if (!moved.empty())
        mWorkbench.push(document::moveItems(s, moved), tr("Cannot move"));
}

void CanvasEditor::addFromTemplate(const QString& key, QPointF at)
{
    if (!mWorkbench.editable())
        return;
    const Scenario& s = mWorkbench.document()->scenario();
    const Catalog& catalog = mWorkbench.catalog();
    // Centred under the pointer, snapped to the grid (an item's position is its top-left).
    const bool isNode = key.startsWith("node:") || key.startsWith("rack:"); // a rack: its first tray
    const QPointF half = isNode ? QPointF(NodeItem::kWidth, NodeItem::kHeight) / 2
                                : QPointF(SwitchItem::kWidth, SwitchItem::kHeight) / 2;
    const Point pos{std::round((at.x() - half.x()) / CanvasView::kGrid) * CanvasView::kGrid,
                    std::round((at.y() - half.y()) / CanvasView::kGrid) * CanvasView::kGrid};
    const std::string id = key.section(':', 1).toStdString();
    if (key.startsWith("job:")) { // the Add Job dialog, pinned to the node under it
        const std::string node = mScene.idAt(at).toStdString();
        const bool isNode = s.topology.findNode(node) != nullptr;
        Q_EMIT jobTemplateDropped(QString::fromStdString(id), isNode ? node : std::string());
        return;
    }
    document::TopologyItems items;
    if (key.startsWith("rack:")) { // a rack-scale NVLink domain and its trays
        const RackTemplate* t = catalog.rackTemplate(id);
        if (!t)
            return;
        auto rack = document::rackFromTemplate(
            *t, catalog, s, pos, {NodeItem::kWidth + 2 * CanvasView::kGrid, NodeItem::kHeight + 2 * CanvasView::kGrid});
        if (!rack) {
            Q_EMIT mWorkbench.message(
                tr("Cannot add %1: %2")
                    .arg(QString::fromStdString(t->name), QString::fromStdString(rack.issues.front().message)),
                8000);
            return;
        }
        items = std::move(*rack.value);
    } else if (isNode) {
        if (const NodeTemplate* t = catalog.nodeTemplate(id))
            items.nodes.push_back(document::nodeFromTemplate(*t, s, pos));
    } else if (const SwitchTemplate* t = catalog.switchTemplate(id)) {
        items.switches.push_back(document::switchFromTemplate(*t, s, pos, "leaf"));
    }
    if (items.empty())
        return;
    const QString name = QString::fromStdString(!items.groups.empty() ? items.groups[0].name
                                                : items.nodes.empty() ? items.switches[0].id
                                                                      : items.nodes[0].id);
    mWorkbench.push(document::addItems(s, catalog, items, tr("Add %1").arg(name).toStdString()),
                    tr("Cannot add %1").arg(name));
}

bool CanvasEditor::pinJobAt(const QString& jobId, QPointF at)
{
    if (!mWorkbench.editable())
        return false;
    NodeItem* target = nullptr;
    for (QGraphicsItem* item : mScene.items(at))
        if ((target = qgraphicsitem_cast<NodeItem*>(item)))
            break;
    if (!target) {
        Q_EMIT mWorkbench.message(tr("Drop the job on a node, a GPU or a MIG instance"), 5000);
        return false;
    }
    const Scenario& s = mWorkbench.document()->scenario();
    Pin pin;
    pin.node = target->id().toStdString();
    if (const auto hit = target->slotAt(target->mapFromScene(at))) {
        pin.gpu = hit->first;
        const Node* node = s.topology.findNode(pin.node);
        if (node && node->sharingOf(hit->first).mode == SharingMode::Mig && hit->second >= 0)
            pin.migInstance = hit->second;
    }
    return mWorkbench.push(document::pinJob(s, mWorkbench.catalog(), jobId.toStdString(), pin),
                           tr("Cannot pin %1 there").arg(jobId));
}

bool CanvasEditor::addLink(const QString& fromId, const QString& toId)
{
    if (!mWorkbench.editable())
        return false;
    return mWorkbench.push(document::addLink(mWorkbench.document()->scenario(), mWorkbench.catalog(),
                                             fromId.toStdString(), toId.toStdString()),
                           tr("Cannot link %1 and %2").arg(fromId, toId));
}

} // namespace gp::ui
