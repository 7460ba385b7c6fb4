// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#include "contextmenus.h"

#include "actionregistry.h"
#include "canvas/canvasview.h"
#include "canvasnavigator.h"
#include "document/commands.h"
#include "document/jobedits.h"
#include "document/plansession.h"
#include "editcontroller.h"
#include "io/textformat.h"
#include "parallelismdialog.h"
#include "propertiespanel.h"
#include "resultscontroller.h"
#include "sim/planresults.h"
#include "workbench.h"
#include "workloadspanel.h"

#include <QApplication>
#include <QDockWidget>
#include <QMenu>
#include <QMessageBox>
#include <QTableWidget>

namespace gp::ui {

namespace {
using text::q;

} // namespace

ContextMenus::ContextMenus(Workbench& workbench, const Parts& parts, QObject* parent)
    : QObject(parent), mWorkbench(workbench), mParts(parts)
{
    connect(parts.canvas, &CanvasView::contextMenuRequested, this,
            [this](const QString& id, int gpu, const QPoint& at) { popup(canvasMenu(id, gpu), at); });
    connect(parts.workloads, &WorkloadsPanel::contextMenuRequested, this,
            [this](const QString& kind, const QString& id, const QPoint& at) { popup(workloadsMenu(kind, id), at); });
    connect(parts.canvas, &CanvasView::gpuActivated, this,
            [this](const QString& node, int gpu) { mParts.results->explainGpu(node, gpu); });
}

QWidget* ContextMenus::window() const { return mParts.canvas->window(); }

void ContextMenus::popup(QMenu* menu, const QPoint& globalPos)
{
    if (!menu)
        return;
    menu->setAttribute(Qt::WA_DeleteOnClose);
    menu->popup(globalPos);
}

void ContextMenus::showProperties()
{
    if (auto* dock = window()->findChild<QDockWidget*>("InspectorDock")) {
        dock->show();
        dock->raise();
    }
    mParts.properties->setFocus();
}

QMenu* ContextMenus::canvasMenu(const QString& id, int gpu)
{
    const document::Document* doc = mWorkbench.document();
    if (!doc)
        return nullptr;
    const Scenario& s = doc->scenario();
    const bool editable = mWorkbench.editable();
    const ActionRegistry& actions = mWorkbench.actions();
    auto* menu = new QMenu(mParts.canvas);
    menu->setObjectName("CanvasContextMenu");
    mParts.canvas->setFocus(); // Delete and Duplicate act on the canvas's selection
    if (id.isEmpty()) {
        for (ActionId a : {ActionId::Paste, ActionId::ArrangeFabric, ActionId::FitToView, ActionId::FindOnCanvas})
            menu->addAction(actions.action(a));
        return menu;
    }
    const Node* node = s.topology.findNode(id.toStdString());
    if (node && gpu >= 0)
        menu->addAction(tr("E&xplain GPU %1").arg(gpu), this, [this, id, gpu] { mParts.results->explainGpu(id, gpu); });
    if (node) {
        menu->addAction(tr("&Show Jobs Here"), this, [this, id] {
            QStringList jobs;
            if (const auto results = mWorkbench.session().latest(); results && results->evaluation)
                for (const calc::JobResult& j : results->evaluation->jobs)
                    for (const calc::UnitLocation& u : j.placement)
                        if (q(u.node) == id && !jobs.contains(q(j.id)))
                            jobs << q(j.id);
            mParts.navigator->showJobs(jobs, CanvasNavigator::Framing::Keep);
        });
    }
    menu->addAction(tr("&Edit Properties"), this, [this] { showProperties(); });
    if (node) {
        QMenu* sharing = menu->addMenu(tr("Set &Sharing"));
        sharing->setEnabled(editable);
        for (ActionId a : EditController::kSharingActions)
            sharing->addAction(actions.action(a));
    }
    if (node || s.topology.findSwitch(id.toStdString()))
        menu->addAction(actions.action(ActionId::Duplicate));
    menu->addSeparator();
    menu->addAction(actions.action(ActionId::Delete));
    return menu;
}

QMenu* ContextMenus::workloadsMenu(const QString& kind, const QString& id)
{
    const document::Document* doc = mWorkbench.document();
    if (!doc)
        return nullptr;
    const Scenario& s = doc->scenario();
    const bool editable = mWorkbench.editable();
    auto* menu = new QMenu(mParts.workloads);
    menu->setObjectName(kind == "tenant" ? "TenantContextMenu" : "JobContextMenu");
    if (kind == "tenant") {
        const Tenant* t = s.findTenant(id.toStdString());
        if (!t)
            return nullptr;
        menu->addAction(tr("&Edit Tenant"), this, [this, id] {
            if (const document::Document* d = mWorkbench.document())
                mParts.properties->showTenant(d->scenario(), id);
            showProperties();
        });
        menu->addAction(tr("&Show Its Jobs on the Canvas"), this,
                        [this, id] { mParts.navigator->showTenant(id, CanvasNavigator::Framing::IfHidden); });
        menu->addSeparator();
        menu->addAction(tr("&Delete Tenant and Its Jobs…"), this, [this, id] { mParts.edits->deleteTenant(id); })
            ->setEnabled(editable);
        return menu;
    }
    const Job* job = s.findJob(id.toStdString());
    if (!job)
        return nullptr;
    const std::string jobId = job->id;
    menu->addAction(tr("&Edit Job…"), this, [this, id] { mParts.edits->editJob(id); })->setEnabled(editable);
    menu->addAction(tr("Explain &Penalty"), this, [this, id] { mParts.results->explainJob(id, "penalty"); });
    menu->addAction(tr("Explain &Cost"), this, [this, id] { mParts.results->explainJob(id, "cost"); });
    menu->addAction(tr("&Show on Canvas"), this,
                    [this, id] { mParts.navigator->showJobs({id}, CanvasNavigator::Framing::IfHidden); });
    menu->addSeparator();
    menu->addAction(tr("&Best Placement"), this, [this, jobId] { mParts.edits->placeJobBest(jobId); })
        ->setEnabled(editable);
    menu->addAction(tr("Best Pa&rallelism…"), this, [this, jobId] { bestParallelism(jobId); })->setEnabled(editable);
    menu->addAction(tr("&Unpin"), this, [this, jobId] { mParts.edits->unpinJob(jobId); })
        ->setEnabled(editable && job->pin.has_value());
    menu->addAction(tr("D&uplicate Job"), this, [this, jobId] { mParts.edits->duplicateJob(jobId); })
        ->setEnabled(editable);
    menu->addSeparator();
    menu->addAction(tr("&Delete Job…"), this,
                    [this] {
                        mParts.workloads->table()->setFocus(); // the job in the current row, after asking
                        mParts.edits->deleteSelection();
                    })
        ->setEnabled(editable);
    return menu;
}

ParallelismDialog* ContextMenus::bestParallelism(const std::string& jobId)
{
    const document::Document* doc = mWorkbench.document();
    const Job* job = doc ? doc->scenario().findJob(jobId) : nullptr;
    if (!job)
        return nullptr;
    const Scenario& s = doc->scenario();
    // The GPUs it runs on: where it is pinned, else where the plan placed it, else the first node.
    const Node* node = job->pin ? s.topology.findNode(job->pin->node) : nullptr;
    if (const auto latest = mWorkbench.session().latest(); !node && latest && latest->evaluation)
        for (const calc::JobResult& r : latest->evaluation->jobs)
            if (r.id == jobId && !r.placement.empty())
                node = s.topology.findNode(r.placement.front().node);
    for (const Node& n : s.topology.nodes)
        if (!node && n.gpuCount > 0 && mWorkbench.catalog().gpu(n.gpuId))
            node = &n;
    const calc::JobSearchSetup setup =
        node ? calc::jobSearchSetup(s, mWorkbench.catalog(), *job, *node) : calc::JobSearchSetup{};
    if (!setup.gpu || setup.arch.layers <= 0) {
        QMessageBox::information(window(), tr("Best parallelism"),
                                 tr("The search needs the job's model shape and a node with a known GPU."));
        return nullptr;
    }
    calc::JobConfig current{job->parallelism, job->batch.micro, job->parallelism.gpus(), 0.0, 0.0, 0.0, 0.0};
    if (job->isTraining())
        current = calc::scoreConfig(setup, *job, calc::jobSearchComm(setup, job->parallelism.gpus()));
    const QString where =
        tr("%1 GPUs (%2 per node, like %3)").arg(q(setup.gpu->name)).arg(setup.gpusPerNode).arg(q(node->name));
    auto* dialog = new ParallelismDialog(setup, current, q(job->name), where, window());
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    connect(dialog, &ParallelismDialog::parallelismChosen, this,
            [this, jobId](const Parallelism& p, int micro) { mParts.edits->setJobParallelism(jobId, p, micro); });
    connect(dialog, &ParallelismDialog::deploymentChosen, this,
            [this, jobId](const calc::ServingConfig& c) { mParts.edits->setServingDeployment(jobId, c); });
    dialog->show();
    dialog->search();
    return dialog;
}

} // namespace gp::ui
