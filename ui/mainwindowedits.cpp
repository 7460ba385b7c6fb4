// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
// MainWindow's edits of the scenario from the canvas and the Edit menu: moves, templates
// dropped from the palette, pins, links, clipboard, duplicate, delete, fabric generation,
// sharing and jobs. The rules are the core's (document/commands.h); this file finds what the
// user pointed at, pushes the edit, and says why when the core refuses it.
#include "mainwindow.h"

#include "addjobdialog.h"
#include "canvas/canvasscene.h"
#include "canvas/canvasview.h"
#include "canvas/nodeitem.h"
#include "document/commands.h"
#include "inspector.h"
#include "io/scenarioreader.h"
#include "io/scenariowriter.h"
#include "model/enumnames.h"
#include "model/validation.h"
#include "scenariotree.h"
#include "workloadspanel.h"

#include <QClipboard>
#include <QGuiApplication>
#include <QInputDialog>
#include <QMessageBox>
#include <QMimeData>
#include <QStatusBar>

namespace gp::ui {
bool MainWindow::editable()
{
    if (!mDocument)
        return false;
    if (!mDocument->isReadOnly())
        return true;
    statusBar()->showMessage(tr("This revision is read-only: File > Save as New Scenario to edit it"), 5000);
    return false;
}

bool MainWindow::pushEdit(Result<document::Edit> edit, const QString& refusal, bool dialog)
{
    if (edit.ok()) {
        mDocument->push(std::move(*edit.value));
        return true;
    }
    const QString why = issuesText(edit.issues);
    if (dialog)
        QMessageBox::warning(this, refusal, why);
    else
        statusBar()->showMessage(tr("%1: %2").arg(refusal, QString(why).replace('\n', "; ")), 8000);
    return false;
}

void MainWindow::commitCanvasDrag()
{
    if (!editable())
        return;
    auto moved = mScene->movedItems(mDocument->scenario(), CanvasView::kGrid);
    if (!moved.empty())
        pushEdit(document::moveItems(mDocument->scenario(), moved), tr("Cannot move"));
}

void MainWindow::addFromTemplate(const QString& key, QPointF at)
{
    if (!editable())
        return;
    const Point pos{std::round(at.x() / CanvasView::kGrid) * CanvasView::kGrid,
                    std::round(at.y() / CanvasView::kGrid) * CanvasView::kGrid};
    document::TopologyItems items;
    const std::string id = key.section(':', 1).toStdString();
    if (key.startsWith("job:")) { // a job template: the Add Job dialog, pinned to the node under it
        const QString node = mScene->idAt(at);
        bool isNode = false;
        for (const Node& n : mDocument->scenario().topology.nodes)
            isNode = isNode || n.id == node.toStdString();
        addJob(QString::fromStdString(id), isNode ? node.toStdString() : std::string());
        return;
    }
    if (key.startsWith("node:")) {
        if (const NodeTemplate* t = mCatalog.nodeTemplate(id))
            items.nodes.push_back(document::nodeFromTemplate(*t, mDocument->scenario(), pos));
    } else if (const SwitchTemplate* t = mCatalog.switchTemplate(id)) {
        items.switches.push_back(document::switchFromTemplate(*t, mDocument->scenario(), pos, "leaf"));
    }
    if (items.empty())
        return;
    const QString name = QString::fromStdString(items.nodes.empty() ? items.switches[0].id : items.nodes[0].id);
    pushEdit(document::addItems(mDocument->scenario(), mCatalog, items, tr("Add %1").arg(name).toStdString()),
             tr("Cannot add %1").arg(name));
}

void MainWindow::addJob(const std::optional<QString>& preset, const std::string& pinNode)
{
    if (!editable())
        return;
    AddJobDialog dialog(mCatalog, mDocument->scenario(), this);
    if (preset)
        dialog.preselect(*preset, pinNode);
    if (dialog.exec() == QDialog::Accepted && dialog.valid())
        pushEdit(dialog.edit(), tr("Cannot add the job"), true);
}

bool MainWindow::pinJobAt(const QString& jobId, QPointF at)
{
    if (!editable())
        return false;
    NodeItem* target = nullptr;
    for (QGraphicsItem* item : mScene->items(at))
        if ((target = dynamic_cast<NodeItem*>(item)))
            break;
    if (!target) {
        statusBar()->showMessage(tr("Drop the job on a node, a GPU or a MIG instance"), 5000);
        return false;
    }
    Pin pin;
    pin.node = target->id().toStdString();
    if (const auto hit = target->slotAt(target->mapFromScene(at))) {
        pin.gpu = hit->first;
        for (const Node& n : mDocument->scenario().topology.nodes)
            if (n.id == pin.node && n.sharingOf(hit->first).mode == SharingMode::Mig && hit->second >= 0)
                pin.migInstance = hit->second;
    }
    return pushEdit(document::pinJob(mDocument->scenario(), mCatalog, jobId.toStdString(), pin),
                    tr("Cannot pin %1 there").arg(jobId));
}

void MainWindow::addLink(const QString& fromId, const QString& toId)
{
    if (!editable())
        return;
    pushEdit(document::addLink(mDocument->scenario(), mCatalog, fromId.toStdString(), toId.toStdString()),
             tr("Cannot link %1 and %2").arg(fromId, toId));
}

namespace {
constexpr const char* kTopologyMime = "application/x-gpuplan-topology";

std::vector<std::string> toStd(const QStringList& ids)
{
    std::vector<std::string> out;
    for (const QString& id : ids)
        out.push_back(id.toStdString());
    return out;
}
} // namespace

void MainWindow::copySelection()
{
    if (!mDocument || mScene->selectedIds().isEmpty())
        return;
    // The clipboard holds a small scenario in the file format: other gpuplan windows read it
    // with the same validation as a file.
    Scenario clip;
    clip.name = "clipboard";
    const document::TopologyItems items = document::copyItems(mDocument->scenario(), toStd(mScene->selectedIds()));
    clip.topology.nodes = items.nodes;
    clip.topology.switches = items.switches;
    clip.topology.links = items.links;
    for (Node& n : clip.topology.nodes)
        n.group.clear();
    for (Switch& sw : clip.topology.switches)
        sw.group.clear();
    auto* mime = new QMimeData;
    mime->setData(kTopologyMime, io::writeScenario(clip));
    QGuiApplication::clipboard()->setMimeData(mime);
}

bool MainWindow::paste()
{
    if (!editable())
        return false;
    const QMimeData* mime = QGuiApplication::clipboard()->mimeData();
    if (!mime || !mime->hasFormat(kTopologyMime))
        return false;
    const io::ScenarioReadResult r = io::readScenario(mime->data(kTopologyMime), mCatalog);
    if (!r.ok()) {
        statusBar()->showMessage(tr("The clipboard holds no valid gpuplan items"), 5000);
        return false;
    }
    document::TopologyItems items;
    items.nodes = r.scenario->topology.nodes;
    items.switches = r.scenario->topology.switches;
    items.links = r.scenario->topology.links;
    items = document::renamedCopy(items, mDocument->scenario(), {40, 40});
    const int count = static_cast<int>(items.nodes.size() + items.switches.size());
    addAndSelect(items, tr("Paste %n item(s)", nullptr, count));
    return true;
}

void MainWindow::editJob(const QString& jobId)
{
    if (!editable() || jobId.isEmpty())
        return;
    AddJobDialog dialog(mCatalog, mDocument->scenario(), this);
    dialog.editJob(jobId.toStdString());
    if (dialog.exec() == QDialog::Accepted && dialog.valid())
        pushEdit(dialog.edit(), tr("Cannot change %1").arg(jobId), true);
}

void MainWindow::duplicateSelection()
{
    if (!mDocument || mScene->selectedIds().isEmpty())
        return;
    document::TopologyItems items = document::renamedCopy(
        document::copyItems(mDocument->scenario(), toStd(mScene->selectedIds())), mDocument->scenario(), {40, 40});
    const int count = static_cast<int>(items.nodes.size() + items.switches.size());
    addAndSelect(items, tr("Duplicate %n item(s)", nullptr, count));
}

void MainWindow::addAndSelect(const document::TopologyItems& items, const QString& text)
{
    QStringList ids;
    for (const Node& n : items.nodes)
        ids << QString::fromStdString(n.id);
    for (const Switch& sw : items.switches)
        ids << QString::fromStdString(sw.id);
    if (pushEdit(document::addItems(mDocument->scenario(), mCatalog, items, text.toStdString()), tr("Cannot add")))
        mScene->setSelectedIds(ids);
}

void MainWindow::deleteSelection()
{
    if (!editable())
        return;
    const QStringList ids = mScene->selectedIds();
    if (!ids.isEmpty())
        pushEdit(document::removeItems(mDocument->scenario(), mCatalog, toStd(ids)), tr("Cannot delete"));
}

QString MainWindow::addFabric(const document::FabricSpec& spec)
{
    if (!mDocument)
        return tr("no scenario is open");
    if (!editable())
        return tr("this revision is read-only: save it as a new scenario to edit it");
    Result<document::TopologyItems> items = document::generateFabric(spec, mCatalog, mDocument->scenario());
    if (!items.ok())
        return QString::fromStdString(items.issues.front().message);
    Result<document::Edit> edit = document::addItems(mDocument->scenario(), mCatalog, *items.value,
                                                     tr("Generate a fabric of %1 nodes").arg(spec.nodes).toStdString());
    if (!edit.ok())
        return issuesText(edit.issues);
    mDocument->push(std::move(*edit.value));
    mFitPending = true;
    return {};
}

bool MainWindow::setSharingOfGpu(const QString& nodeId, int gpuIndex, const SharingConfig& sharing)
{
    if (!editable())
        return false;
    return pushEdit(document::setGpuSharing(mDocument->scenario(), mCatalog, nodeId.toStdString(), gpuIndex, sharing),
                    tr("Cannot set the sharing"), true);
}

void MainWindow::setSharingOfSelection(const SharingConfig& sharing)
{
    if (!editable())
        return;
    QStringList ids = mTree->selectedNodeIds();
    for (const QString& id : mScene->selectedIds()) {
        const bool isNode =
            std::any_of(mDocument->scenario().topology.nodes.begin(), mDocument->scenario().topology.nodes.end(),
                        [&](const Node& n) { return n.id == id.toStdString(); });
        if (isNode && !ids.contains(id))
            ids << id;
    }
    if (ids.isEmpty()) {
        statusBar()->showMessage(tr("Select nodes on the canvas or in the outline first"), 4000);
        return;
    }
    pushEdit(document::setNodeSharing(mDocument->scenario(), mCatalog, toStd(ids), sharing), tr("Cannot set sharing"),
             true);
}

} // namespace gp::ui
