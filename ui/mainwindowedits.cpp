// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
// MainWindow's edits of the scenario from the canvas and the Edit menu: moves, templates
// dropped from the palette, pins, links, clipboard, duplicate, delete, fabric generation,
// sharing and jobs. Each is one command on the document's undo stack.
#include "mainwindow.h"

#include "addjobdialog.h"
#include "canvas/canvasscene.h"
#include "canvas/canvasview.h"
#include "canvas/nodeitem.h"
#include "document/editscenariocmd.h"
#include "document/moveitemscmd.h"
#include "document/setsharingcmd.h"
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

void MainWindow::commitCanvasDrag()
{
    if (!editable())
        return;
    auto moved = mScene->movedItems(mDocument->scenario(), CanvasView::kGrid);
    if (!moved.empty())
        mDocument->undoStack()->push(new document::MoveItemsCmd(mDocument.get(), std::move(moved)));
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
    mDocument->undoStack()->push(new document::AddItemsCmd(mDocument.get(), items, tr("Add %1").arg(name)));
}

void MainWindow::addJob(const std::optional<QString>& preset, const std::string& pinNode)
{
    if (!editable())
        return;
    AddJobDialog dialog(mCatalog, mDocument->scenario(), this);
    if (preset)
        dialog.preselect(*preset, pinNode);
    if (dialog.exec() == QDialog::Accepted && dialog.valid())
        mDocument->undoStack()->push(new document::EditScenarioCmd(mDocument.get(), dialog.result(), tr("Add job")));
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
    Scenario s = mDocument->scenario();
    Pin pin;
    pin.node = target->id().toStdString();
    QString where = target->id();
    if (const auto hit = target->slotAt(target->mapFromScene(at))) {
        pin.gpu = hit->first;
        where += tr(" GPU %1").arg(hit->first);
        for (const Node& n : s.topology.nodes)
            if (n.id == pin.node && n.sharingOf(hit->first).mode == SharingMode::Mig && hit->second >= 0) {
                pin.migInstance = hit->second;
                where += tr(" instance %1").arg(hit->second);
            }
    }
    std::string path;
    for (std::size_t t = 0; t < s.tenants.size(); ++t)
        for (std::size_t j = 0; j < s.tenants[t].jobs.size(); ++j)
            if (s.tenants[t].jobs[j].id == jobId.toStdString()) {
                s.tenants[t].jobs[j].pin = pin;
                path = "tenants[" + std::to_string(t) + "].jobs[" + std::to_string(j) + "]";
            }
    if (path.empty())
        return false;
    QStringList problems;
    for (const Issue& i : validateScenario(s, mCatalog))
        if (i.isError())
            problems << QString::fromStdString(i.toString());
    if (!problems.isEmpty()) {
        statusBar()->showMessage(tr("Cannot pin %1 there: %2").arg(jobId, problems.join("; ")), 8000);
        return false;
    }
    mDocument->undoStack()->push(new document::EditScenarioCmd(mDocument.get(), s, tr("Pin %1 to %2").arg(jobId, where)));
    return true;
}

void MainWindow::addLink(const QString& fromId, const QString& toId)
{
    if (!editable())
        return;
    const Scenario& s = mDocument->scenario();
    const Node* nodes[2] = {nullptr, nullptr};
    const Switch* switches[2] = {nullptr, nullptr};
    const QString ids[2] = {fromId, toId};
    for (int e = 0; e < 2; ++e) {
        for (const Node& n : s.topology.nodes)
            if (n.id == ids[e].toStdString())
                nodes[e] = &n;
        for (const Switch& sw : s.topology.switches)
            if (sw.id == ids[e].toStdString())
                switches[e] = &sw;
    }
    // A node offers all its NICs; a switch one port per NIC of a node on the other end.
    auto side = [&](int e) {
        if (nodes[e])
            return nodes[e]->nics.count * nodes[e]->nics.speedGbps;
        const Node* other = nodes[1 - e];
        return switches[e] ? switches[e]->portSpeedGbps * (other ? std::max(other->nics.count, 1) : 1) : 0.0;
    };
    const double gbps = std::min(side(0), side(1));
    if (gbps <= 0) {
        statusBar()->showMessage(tr("Cannot link %1 and %2: no network ports at one end").arg(fromId, toId), 5000);
        return;
    }
    double latency = 1.0;
    for (int e = 0; e < 2; ++e)
        if (switches[e])
            if (const SwitchTemplate* t = mCatalog.switchTemplate(switches[e]->templateId))
                latency = t->latencyUs;
    document::TopologyItems items;
    std::string id = fromId.toStdString() + "-" + toId.toStdString();
    for (int i = 2; std::any_of(s.topology.links.begin(), s.topology.links.end(), [&](const Link& l) { return l.id == id; }); ++i)
        id = fromId.toStdString() + "-" + toId.toStdString() + "-" + std::to_string(i);
    items.links.push_back({id, fromId.toStdString(), toId.toStdString(), gbps, latency});
    mDocument->undoStack()->push(new document::AddItemsCmd(mDocument.get(), items, tr("Link %1 and %2").arg(fromId, toId)));
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
    addAndSelect(std::move(items), tr("Paste %n item(s)", nullptr, count));
    return true;
}

void MainWindow::editJob(const QString& jobId)
{
    if (!editable() || jobId.isEmpty())
        return;
    AddJobDialog dialog(mCatalog, mDocument->scenario(), this);
    dialog.editJob(jobId.toStdString());
    if (dialog.exec() == QDialog::Accepted && dialog.valid())
        mDocument->undoStack()->push(new document::EditScenarioCmd(mDocument.get(), dialog.result(), tr("Edit job %1").arg(jobId)));
}

void MainWindow::duplicateSelection()
{
    if (!mDocument || mScene->selectedIds().isEmpty())
        return;
    document::TopologyItems items = document::renamedCopy(
        document::copyItems(mDocument->scenario(), toStd(mScene->selectedIds())), mDocument->scenario(), {40, 40});
    const int count = static_cast<int>(items.nodes.size() + items.switches.size());
    addAndSelect(std::move(items), tr("Duplicate %n item(s)", nullptr, count));
}

void MainWindow::addAndSelect(document::TopologyItems items, const QString& text)
{
    QStringList ids;
    for (const Node& n : items.nodes)
        ids << QString::fromStdString(n.id);
    for (const Switch& sw : items.switches)
        ids << QString::fromStdString(sw.id);
    mDocument->undoStack()->push(new document::AddItemsCmd(mDocument.get(), std::move(items), text));
    mScene->setSelectedIds(ids);
}

void MainWindow::deleteSelection()
{
    if (!editable())
        return;
    const QStringList ids = mScene->selectedIds();
    if (!ids.isEmpty())
        mDocument->undoStack()->push(new document::RemoveItemsCmd(mDocument.get(), ids));
}

QString MainWindow::addFabric(const document::FabricSpec& spec)
{
    if (!mDocument)
        return tr("no scenario is open");
    if (!editable())
        return tr("this revision is read-only: save it as a new scenario to edit it");
    std::string error;
    document::TopologyItems items = document::generateFabric(spec, mCatalog, mDocument->scenario(), error);
    if (!error.empty())
        return QString::fromStdString(error);
    mDocument->undoStack()->push(new document::AddItemsCmd(
        mDocument.get(), std::move(items), tr("Generate a fabric of %1 nodes").arg(spec.nodes)));
    mFitPending = true;
    return {};
}

bool MainWindow::setSharingOfGpu(const QString& nodeId, int gpuIndex, const SharingConfig& sharing)
{
    if (!editable())
        return false;
    Scenario s = mDocument->scenario();
    auto node = std::find_if(s.topology.nodes.begin(), s.topology.nodes.end(),
                             [&](const Node& n) { return n.id == nodeId.toStdString(); });
    if (node == s.topology.nodes.end() || gpuIndex < 0 || gpuIndex >= node->gpuCount)
        return false;
    if (sharing == node->sharing)
        node->gpuSharing.erase(gpuIndex); // the same as the node's: no override needed
    else
        node->gpuSharing[gpuIndex] = sharing;
    const Issues issues = validateScenario(s, mCatalog);
    if (hasErrors(issues)) {
        QMessageBox::warning(this, tr("Cannot set the sharing"), issuesText(issues));
        return false;
    }
    mDocument->undoStack()->push(new document::EditScenarioCmd(
        mDocument.get(), std::move(s),
        tr("Set %1 sharing on %2 GPU %3").arg(QString::fromUtf8(displayName(sharing.mode).data())).arg(nodeId).arg(gpuIndex)));
    return true;
}

void MainWindow::setSharingOfSelection(const SharingConfig& sharing)
{
    if (!editable())
        return;
    QStringList ids = mTree->selectedNodeIds();
    for (const QString& id : mScene->selectedIds()) {
        const bool isNode = std::any_of(mDocument->scenario().topology.nodes.begin(),
                                        mDocument->scenario().topology.nodes.end(),
                                        [&](const Node& n) { return n.id == id.toStdString(); });
        if (isNode && !ids.contains(id))
            ids << id;
    }
    if (ids.isEmpty()) {
        statusBar()->showMessage(tr("Select nodes on the canvas or in the outline first"), 4000);
        return;
    }
    const Scenario& s = mDocument->scenario();
    for (const Node& n : s.topology.nodes) {
        if (!ids.contains(QString::fromStdString(n.id)))
            continue;
        const GpuSpec* gpu = mCatalog.gpu(n.gpuId);
        const Issues issues = gpu ? validateSharing(sharing, *gpu, "sharing") : Issues{};
        if (hasErrors(issues)) {
            QMessageBox::warning(this, tr("Cannot set sharing"),
                                 tr("%1: %2").arg(QString::fromStdString(n.id), issuesText(issues)));
            return;
        }
    }
    mDocument->undoStack()->push(new document::SetSharingCmd(mDocument.get(), ids, sharing));
}

} // namespace gp::ui
