// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#include "contextmenus.h"

#include "canvas/canvasview.h"
#include "ui/edit/editcontroller.h"
#include "ui/edit/workloadspanel.h"
#include "workbench.h"

#include <QAction>
#include <QMenu>

namespace gp::ui {

ContextMenus::ContextMenus(Workbench& workbench, CanvasView* canvas, WorkloadsPanel* workloads, QObject* parent)
    : QObject(parent), mWorkbench(workbench), mCanvas(canvas), mWorkloads(workloads)
{
    connect(canvas, &CanvasView::contextMenuRequested, this,
            [this](const QString& id, int gpu, const QPoint& at) { popup(canvasMenu(id, gpu), at); });
    connect(workloads, &WorkloadsPanel::contextMenuRequested, this,
            [this](const QString& kind, const QString& id, const QPoint& at) { popup(workloadsMenu(kind, id), at); });
}

void ContextMenus::popup(QMenu* menu, const QPoint& globalPos)
{
    if (!menu)
        return;
    menu->setAttribute(Qt::WA_DeleteOnClose);
    menu->popup(globalPos);
}

void ContextMenus::add(QMenu* menu, std::initializer_list<ActionId> ids, bool enabled)
{
    for (ActionId id : ids) {
        QAction* action = mWorkbench.actions().action(id);
        action->setEnabled(enabled);
        menu->addAction(action);
    }
}

QMenu* ContextMenus::canvasMenu(const QString& id, int gpu)
{
    const document::Document* doc = mWorkbench.document();
    if (!doc)
        return nullptr;
    const Scenario& s = doc->scenario();
    const bool editable = mWorkbench.editable();
    ActionRegistry& actions = mWorkbench.actions();
    auto* menu = new QMenu(mCanvas);
    menu->setObjectName("CanvasContextMenu");
    mCanvas->setFocus(); // Delete and Duplicate act on the canvas's selection
    if (id.isEmpty()) {
        for (ActionId a : {ActionId::Paste, ActionId::ArrangeFabric, ActionId::FitToView, ActionId::FindOnCanvas})
            menu->addAction(actions.action(a));
        return menu;
    }
    const Node* node = s.topology.findNode(id.toStdString());
    const bool isSwitch = s.topology.findSwitch(id.toStdString()) != nullptr;
    actions.setSubject({node ? "node" : isSwitch ? "switch" : "link", id, gpu});
    if (node && gpu >= 0) {
        menu->addAction(actions.action(ActionId::ExplainGpu));
        actions.action(ActionId::ExplainGpu)->setText(tr("E&xplain GPU %1").arg(gpu));
    }
    if (node)
        add(menu, {ActionId::ShowJobsHere});
    add(menu, {ActionId::EditProperties});
    if (node) {
        QMenu* sharing = menu->addMenu(tr("Set &Sharing"));
        sharing->setEnabled(editable);
        for (ActionId a : EditController::kSharingActions)
            sharing->addAction(actions.action(a));
    }
    if (node || isSwitch)
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
    auto* menu = new QMenu(mWorkloads);
    menu->setObjectName(kind == "tenant" ? "TenantContextMenu" : "JobContextMenu");
    if (kind == "tenant") {
        if (!s.findTenant(id.toStdString())) {
            delete menu;
            return nullptr;
        }
        mWorkbench.actions().setSubject({kind, id});
        add(menu, {ActionId::EditTenant, ActionId::ShowTenantJobs});
        menu->addSeparator();
        add(menu, {ActionId::DeleteTenant}, editable);
        return menu;
    }
    const Job* job = s.findJob(id.toStdString());
    if (!job) {
        delete menu;
        return nullptr;
    }
    mWorkbench.actions().setSubject({"job", id});
    add(menu, {ActionId::EditThisJob}, editable);
    add(menu, {ActionId::ExplainPenalty, ActionId::ExplainCost, ActionId::ShowJob});
    menu->addSeparator();
    add(menu, {ActionId::PlaceJobBest, ActionId::BestParallelism}, editable);
    add(menu, {ActionId::UnpinJob}, editable && job->pin.has_value());
    add(menu, {ActionId::DuplicateJob}, editable);
    menu->addSeparator();
    add(menu, {ActionId::DeleteJob}, editable);
    return menu;
}

} // namespace gp::ui
