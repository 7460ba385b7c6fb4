// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#include "editcontroller.h"

#include "addjobdialog.h"
#include "document/commands.h"
#include "document/jobedits.h"
#include "io/scenarioreader.h"
#include "io/scenariowriter.h"
#include "scenariotree.h"
#include "ui/canvas/canvaseditor.h"
#include "ui/canvas/canvasscene.h"
#include "ui/canvas/canvasview.h"
#include "ui/workbench.h"
#include "workloadspanel.h"

#include <QAction>
#include <QApplication>
#include <QClipboard>
#include <QGraphicsView>
#include <QGuiApplication>
#include <QInputDialog>
#include <QMenu>
#include <QMessageBox>
#include <QMimeData>

namespace gp::ui {

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

EditController::EditController(Workbench& workbench, CanvasScene* scene, ScenarioTree* outline,
                               WorkloadsPanel* workloads, QWidget* window)
    : QObject(window), mWorkbench(workbench), mScene(scene), mOutline(outline), mWorkloads(workloads), mWindow(window)
{
    connect(mWorkloads, &WorkloadsPanel::editJobRequested, this, &EditController::editJob);
    registerActions();
    registerSubjectActions();
}

void EditController::registerActions()
{
    ActionRegistry& actions = mWorkbench.actions();
    auto add = [&](ActionId id, const QString& text, const QKeySequence& key, auto slot) {
        connect(actions.add(id, text, key), &QAction::triggered, this, slot);
    };
    add(ActionId::AddJob, tr("Add &Job…"), QKeySequence(tr("Ctrl+J")), [this] { addJob(); });
    add(ActionId::EditJob, tr("&Edit Job…"), QKeySequence(tr("Ctrl+Shift+J")),
        [this] { editJob(mWorkloads->selectedJobId()); });
    add(ActionId::Copy, tr("&Copy"), QKeySequence::Copy, [this] { copySelection(); });
    add(ActionId::Paste, tr("&Paste"), QKeySequence::Paste, [this] { paste(); });
    add(ActionId::Duplicate, tr("D&uplicate"), QKeySequence(tr("Ctrl+D")), [this] { duplicateSelection(); });
    add(ActionId::Delete, tr("&Delete"), QKeySequence::Delete, [this] { deleteSelection(); });
    add(ActionId::GenerateFabric, tr("&Generate Fabric…"), QKeySequence(tr("Ctrl+G")), [this] {
        bool ok = false;
        const int nodes = QInputDialog::getInt(
            mWindow, tr("Generate Fabric"),
            tr("DGX H100 nodes under NDR leaf switches (4 per leaf, 2 spines, non-blocking):"), 16, 1, 10000, 1, &ok);
        if (!ok)
            return;
        document::FabricSpec spec;
        spec.nodeTemplate = "dgx-h100";
        spec.switchTemplate = "qm9700";
        spec.nodes = nodes;
        addFabric(spec);
    });
    add(ActionId::ArrangeFabric, tr("&Arrange as Fabric"), QKeySequence(tr("Ctrl+Shift+L")),
        [this] { arrangeFabric(); });
    SharingConfig exclusive, passthrough, ts, mps;
    passthrough.mode = SharingMode::Passthrough;
    ts.mode = SharingMode::TimeSlicing;
    ts.replicas = 4;
    mps.mode = SharingMode::Mps;
    mps.mpsActiveThreadPct = 50;
    auto sharing = [&](ActionId id, const QString& label, const QKeySequence& key, const SharingConfig& cfg) {
        add(id, label, key, [this, cfg] { setSharingOfSelection(cfg); });
    };
    sharing(ActionId::SharingExclusive, tr("Bare Metal (Exclusive)"), QKeySequence(tr("Ctrl+1")), exclusive);
    sharing(ActionId::SharingPassthrough, tr("Passthrough VM"), QKeySequence(tr("Ctrl+2")), passthrough);
    sharing(ActionId::SharingTimeSlicing, tr("Time-Slicing, 4 Replicas"), QKeySequence(tr("Ctrl+3")), ts);
    sharing(ActionId::SharingMps, tr("MPS, 50 % Threads"), QKeySequence(tr("Ctrl+4")), mps);
}

void EditController::addJob(const std::optional<QString>& preset, const std::string& pinNode)
{
    if (!mWorkbench.editable())
        return;
    AddJobDialog dialog(mWorkbench.catalog(), mWorkbench.document()->scenario(), mWindow);
    if (preset)
        dialog.preselect(*preset, pinNode);
    if (dialog.exec() == QDialog::Accepted && dialog.valid())
        mWorkbench.push(dialog.edit(), tr("Cannot add the job"), mWindow);
}

void EditController::editJob(const QString& jobId)
{
    if (jobId.isEmpty() || !mWorkbench.editable())
        return;
    AddJobDialog dialog(mWorkbench.catalog(), mWorkbench.document()->scenario(), mWindow);
    dialog.editJob(jobId.toStdString());
    if (dialog.exec() == QDialog::Accepted && dialog.valid())
        mWorkbench.push(dialog.edit(), tr("Cannot change %1").arg(jobId), mWindow);
}

void EditController::copySelection()
{
    const document::Document* doc = mWorkbench.document();
    if (!doc || mScene->selectedIds().isEmpty())
        return;
    // The clipboard holds a small scenario in the file format: other gpuplan windows read it
    // with the same validation as a file.
    Scenario clip;
    clip.name = "clipboard";
    const document::TopologyItems items = document::copyItems(doc->scenario(), toStd(mScene->selectedIds()));
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

bool EditController::paste()
{
    if (!mWorkbench.editable())
        return false;
    const QMimeData* mime = QGuiApplication::clipboard()->mimeData();
    if (!mime || !mime->hasFormat(kTopologyMime))
        return false;
    const io::ScenarioReadResult r = io::readScenario(mime->data(kTopologyMime), mWorkbench.catalog());
    if (!r.ok()) {
        Q_EMIT mWorkbench.message(tr("The clipboard holds no valid gpuplan items"), 5000);
        return false;
    }
    document::TopologyItems items;
    items.nodes = r.value->topology.nodes;
    items.switches = r.value->topology.switches;
    items.links = r.value->topology.links;
    items = document::renamedCopy(items, mWorkbench.document()->scenario(), {40, 40});
    const int count = static_cast<int>(items.nodes.size() + items.switches.size());
    addAndSelect(items, tr("Paste %n item(s)", nullptr, count));
    return true;
}

void EditController::duplicateSelection()
{
    if (mScene->selectedIds().isEmpty() || !mWorkbench.editable())
        return;
    const Scenario& s = mWorkbench.document()->scenario();
    const document::TopologyItems items =
        document::renamedCopy(document::copyItems(s, toStd(mScene->selectedIds())), s, {40, 40});
    const int count = static_cast<int>(items.nodes.size() + items.switches.size());
    addAndSelect(items, tr("Duplicate %n item(s)", nullptr, count));
}

void EditController::addAndSelect(const document::TopologyItems& items, const QString& text)
{
    QStringList ids;
    for (const Node& n : items.nodes)
        ids << QString::fromStdString(n.id);
    for (const Switch& sw : items.switches)
        ids << QString::fromStdString(sw.id);
    const Scenario& s = mWorkbench.document()->scenario();
    if (mWorkbench.push(document::addItems(s, mWorkbench.catalog(), items, text.toStdString()), tr("Cannot add")))
        mScene->setSelectedIds(ids);
}

void EditController::deleteSelection()
{
    if (!mWorkbench.editable())
        return;
    // Del deletes what the panel with the keyboard focus shows selected, never a selection the
    // user is not looking at (a job row selected in Workloads does not delete the canvas's node).
    const QWidget* focus = QApplication::focusWidget();
    auto within = [focus](const QWidget* w) { return focus && w && (focus == w || w->isAncestorOf(focus)); };
    const Scenario& s = mWorkbench.document()->scenario();
    if (within(mWorkloads)) {
        const QString jobId = mWorkloads->selectedJobId();
        const Job* job = nullptr;
        const Tenant* owner = nullptr;
        for (const Tenant& t : s.tenants)
            for (const Job& j : t.jobs)
                if (j.id == jobId.toStdString()) {
                    job = &j;
                    owner = &t;
                }
        if (!job)
            return;
        QMessageBox ask(QMessageBox::Question, tr("Delete job"),
                        tr("Delete the job '%1' of %2? Edit > Undo brings it back.")
                            .arg(QString::fromStdString(job->name), QString::fromStdString(owner->name)),
                        QMessageBox::Yes | QMessageBox::No, mWindow);
        ask.setObjectName("confirmDeleteJob");
        ask.setDefaultButton(QMessageBox::No);
        if (ask.exec() == QMessageBox::Yes)
            mWorkbench.push(document::removeItems(s, mWorkbench.catalog(), {job->id}),
                            tr("Cannot delete %1").arg(QString::fromStdString(job->name)), mWindow);
        return;
    }
    const QStringList ids = mScene->selectedIds();
    const QList<QGraphicsView*> views = mScene->views();
    const bool canvasFocused =
        std::any_of(views.begin(), views.end(), [&](const QGraphicsView* v) { return within(v); });
    if (!ids.isEmpty() && canvasFocused)
        mWorkbench.push(document::removeItems(s, mWorkbench.catalog(), toStd(ids)), tr("Cannot delete"));
    else if (!ids.isEmpty())
        Q_EMIT mWorkbench.message(tr("Click the canvas first: Del deletes the selection of the panel you work in"),
                                  5000);
}

bool EditController::addFabric(const document::FabricSpec& spec)
{
    if (!mWorkbench.editable())
        return false;
    const Scenario& s = mWorkbench.document()->scenario();
    Result<document::TopologyItems> items = document::generateFabric(spec, mWorkbench.catalog(), s);
    if (!items.ok()) {
        QMessageBox::warning(mWindow, tr("Cannot generate the fabric"), issuesText(items.issues));
        return false;
    }
    const bool pushed =
        mWorkbench.push(document::addItems(s, mWorkbench.catalog(), *items.value,
                                           tr("Generate a fabric of %1 nodes").arg(spec.nodes).toStdString()),
                        tr("Cannot generate the fabric"), mWindow);
    if (pushed)
        Q_EMIT framingRequested();
    return pushed;
}

bool EditController::arrangeFabric()
{
    if (!mWorkbench.editable())
        return false;
    const bool pushed =
        mWorkbench.push(document::arrangeFabric(mWorkbench.document()->scenario()), tr("Cannot arrange"), mWindow);
    if (pushed)
        Q_EMIT framingRequested();
    return pushed;
}

bool EditController::setSharingOfGpu(const QString& nodeId, int gpuIndex, const SharingConfig& sharing)
{
    if (!mWorkbench.editable())
        return false;
    return mWorkbench.push(document::setGpuSharing(mWorkbench.document()->scenario(), mWorkbench.catalog(),
                                                   nodeId.toStdString(), gpuIndex, sharing),
                           tr("Cannot set the sharing"), mWindow);
}

void EditController::setSharingOfSelection(const SharingConfig& sharing)
{
    if (!mWorkbench.editable())
        return;
    const Scenario& s = mWorkbench.document()->scenario();
    QStringList ids = mOutline->selectedNodeIds();
    for (const QString& id : mScene->selectedIds())
        if (s.topology.findNode(id.toStdString()) && !ids.contains(id))
            ids << id;
    if (ids.isEmpty()) {
        Q_EMIT mWorkbench.message(tr("Select nodes on the canvas or in the outline first"), 4000);
        return;
    }
    setSharingOfNodes(ids, sharing);
}

bool EditController::setSharingOfNodes(const QStringList& nodeIds, const SharingConfig& sharing)
{
    if (!mWorkbench.editable())
        return false;
    return mWorkbench.push(
        document::setNodeSharing(mWorkbench.document()->scenario(), mWorkbench.catalog(), toStd(nodeIds), sharing),
        tr("Cannot set sharing"), mWindow);
}

bool EditController::placeJobBest(const std::string& jobId)
{
    if (!mWorkbench.editable())
        return false;
    QApplication::setOverrideCursor(Qt::WaitCursor);
    Result<document::Edit> edit =
        document::placeJobBest(mWorkbench.document()->scenario(), mWorkbench.catalog(), jobId);
    QApplication::restoreOverrideCursor();
    return mWorkbench.push(std::move(edit), tr("No better placement"), mWindow);
}

bool EditController::unpinJob(const std::string& jobId)
{
    return mWorkbench.editable() && mWorkbench.push(document::pinJob(mWorkbench.document()->scenario(),
                                                                     mWorkbench.catalog(), jobId, std::nullopt),
                                                    tr("Cannot unpin"), mWindow);
}

bool EditController::duplicateJob(const std::string& jobId)
{
    return mWorkbench.editable() &&
           mWorkbench.push(document::duplicateJob(mWorkbench.document()->scenario(), mWorkbench.catalog(), jobId),
                           tr("Cannot duplicate"), mWindow);
}

bool EditController::setJobParallelism(const std::string& jobId, const Parallelism& parallelism, int microBatch)
{
    const document::Document* d = mWorkbench.document();
    return d && mWorkbench.push(
                    document::setJobParallelism(d->scenario(), mWorkbench.catalog(), jobId, parallelism, microBatch),
                    tr("Cannot set the parallelism"), mWindow);
}

bool EditController::setServingDeployment(const std::string& jobId, const calc::ServingConfig& c)
{
    const document::Document* d = mWorkbench.document();
    return d && mWorkbench.push(document::setServingDeployment(d->scenario(), mWorkbench.catalog(), jobId, c),
                                tr("Cannot set the deployment"), mWindow);
}

void EditController::deleteTenant(const QString& tenantId)
{
    const document::Document* doc = mWorkbench.document();
    const Tenant* t = doc ? doc->scenario().findTenant(tenantId.toStdString()) : nullptr;
    if (!t)
        return;
    const QString name = QString::fromStdString(t->name);
    QMessageBox ask(QMessageBox::Question, tr("Delete tenant"),
                    tr("Delete the tenant '%1' and its %n job(s)? Edit > Undo brings them back.", nullptr,
                       static_cast<int>(t->jobs.size()))
                        .arg(name),
                    QMessageBox::Yes | QMessageBox::No, mWindow);
    ask.setObjectName("confirmDeleteTenant");
    ask.setDefaultButton(QMessageBox::No);
    if (ask.exec() == QMessageBox::Yes && mWorkbench.document()) // read again: the dialog ran an event loop
        mWorkbench.push(
            document::removeItems(mWorkbench.document()->scenario(), mWorkbench.catalog(), {tenantId.toStdString()}),
            tr("Cannot delete %1").arg(name), mWindow);
}

void EditController::addFromPalette(const QString& key, CanvasView* view)
{
    if (key.startsWith("job:"))
        addJob(key.section(':', 1));
    else if (mWorkbench.document())
        view->editor()->addFromTemplate(key, view->mapToScene(view->viewport()->rect().center()));
}

} // namespace gp::ui
