// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#include "canvasnavigator.h"

#include "document/plansession.h"
#include "io/textformat.h"
#include "sim/planresults.h"
#include "ui/actionregistry.h"
#include "ui/canvas/canvaslegend.h"
#include "ui/canvas/canvasminimap.h"
#include "ui/canvas/canvasscene.h"
#include "ui/canvas/canvassearch.h"
#include "ui/canvas/canvasview.h"
#include "ui/workbench.h"
#include "workloadspanel.h"

#include <QAction>
#include <QMenu>
#include <QSettings>

namespace gp::ui {

namespace {
using text::q;
} // namespace

CanvasNavigator::CanvasNavigator(Workbench& workbench, CanvasScene* scene, CanvasView* view, WorkloadsPanel* workloads,
                                 QObject* parent)
    : QObject(parent), mWorkbench(workbench), mScene(scene), mView(view), mLegend(new CanvasLegend(view)),
      mMinimap(new CanvasMinimap(view)), mSearch(new CanvasSearch(view))
{
    connect(&mWorkbench.session(), &document::PlanSession::resultsChanged, this, [this] { updateLegend(); });
    connect(mSearch, &CanvasSearch::found, this, &CanvasNavigator::found);
    connect(workloads, &WorkloadsPanel::jobSelected, this,
            [this](const QString& id) { showJobs({id}, Framing::IfHidden); });
    connect(workloads, &WorkloadsPanel::tenantSelected, this,
            [this](const QString& id) { showTenant(id, Framing::IfHidden); });
    connect(view, &CanvasView::highlightDismissed, this, [this] { mScene->highlightJobs({}); });
    connect(&mWorkbench, &Workbench::documentReplaced, this, [this] { mScene->highlightJobs({}); });
    // The context menus' Show entries, on what the menu was opened on.
    ActionRegistry& actions = mWorkbench.actions();
    auto subject = [this] { return mWorkbench.actions().subject().id; };
    connect(actions.add(ActionId::ShowJobsHere, tr("&Show Jobs Here"), {}, false), &QAction::triggered, this,
            [this, subject] {
                const QString node = subject();
                QStringList jobs;
                if (const auto results = mWorkbench.session().latest(); results && results->evaluation)
                    for (const calc::JobResult& j : results->evaluation->jobs)
                        for (const calc::UnitLocation& u : j.placement)
                            if (q(u.node) == node && !jobs.contains(q(j.id)))
                                jobs << q(j.id);
                showJobs(jobs, Framing::Keep);
            });
    connect(actions.add(ActionId::ShowJob, tr("&Show on Canvas"), {}, false), &QAction::triggered, this,
            [this, subject] { showJobs({subject()}, Framing::IfHidden); });
    connect(actions.add(ActionId::ShowTenantJobs, tr("&Show Its Jobs on the Canvas"), {}, false), &QAction::triggered,
            this, [this, subject] { showTenant(subject(), Framing::IfHidden); });
    mLegend->show();
    mLegend->place();
}

void CanvasNavigator::addViewActions(QMenu* view)
{
    QAction* find = mWorkbench.actions().add(ActionId::FindOnCanvas, tr("&Find on Canvas…"), QKeySequence::Find, false);
    connect(find, &QAction::triggered, this, &CanvasNavigator::openSearch);
    view->addAction(find);
    addToggle(view, tr("Show &Legend"), "canvas/legend", [this](bool on) { mLegend->setVisible(on); });
    addToggle(view, tr("Show &Minimap"), "canvas/minimap", [this](bool on) { mMinimap->setWanted(on); });
}

void CanvasNavigator::addToggle(QMenu* view, const QString& text, const QString& key,
                                const std::function<void(bool)>& apply)
{
    QAction* action = view->addAction(text);
    action->setCheckable(true);
    action->setChecked(QSettings().value(key, true).toBool());
    apply(action->isChecked());
    connect(action, &QAction::toggled, this, [key, apply](bool on) {
        apply(on);
        QSettings().setValue(key, on);
    });
}

void CanvasNavigator::openSearch()
{
    const document::Document* doc = mWorkbench.document();
    if (!doc)
        return;
    const Scenario& s = doc->scenario();
    std::vector<CanvasSearch::Candidate> c;
    for (const Node& n : s.topology.nodes)
        c.push_back({tr("%1 — node").arg(q(n.name)), "node", q(n.id)});
    for (const Switch& sw : s.topology.switches)
        c.push_back({tr("%1 — %2 switch").arg(q(sw.name), q(sw.tier)), "switch", q(sw.id)});
    for (const Tenant& t : s.tenants) {
        c.push_back({tr("%1 — tenant").arg(q(t.name)), "tenant", q(t.id)});
        for (const Job& j : t.jobs)
            c.push_back({tr("%1 — job of %2").arg(q(j.name), q(t.name)), "job", q(j.id)});
    }
    mSearch->setCandidates(std::move(c));
    mSearch->open();
}

bool CanvasNavigator::showJobs(const QStringList& jobIds, Framing framing)
{
    mScene->highlightJobs(jobIds);
    const QRectF where = mScene->jobsBounds(jobIds);
    if (where.isEmpty())
        return false;
    const QRectF visible = mView->mapToScene(mView->viewport()->rect()).boundingRect();
    if (framing == Framing::Always || (framing == Framing::IfHidden && !visible.intersects(where)))
        mView->flyTo(where);
    return true;
}

bool CanvasNavigator::showTenant(const QString& tenantId, Framing framing)
{
    QStringList jobs;
    if (const document::Document* doc = mWorkbench.document())
        if (const Tenant* t = doc->scenario().findTenant(tenantId.toStdString()))
            for (const Job& j : t->jobs)
                jobs << q(j.id);
    return showJobs(jobs, framing);
}

void CanvasNavigator::found(const QString& kind, const QString& id)
{
    if (kind == "node" || kind == "switch") {
        mScene->setSelectedIds({id});
        if (QGraphicsItem* item = mScene->item(id))
            mView->flyTo(item->sceneBoundingRect());
        return;
    }
    const bool placed = kind == "tenant" ? showTenant(id, Framing::Always) : showJobs({id}, Framing::Always);
    if (!placed)
        Q_EMIT mWorkbench.message(tr("%1 runs nowhere: it is not placed").arg(mSearch->field()->text()), 5000);
}

void CanvasNavigator::updateLegend()
{
    const document::Document* doc = mWorkbench.document();
    if (!doc)
        return;
    const Scenario& s = doc->scenario();
    std::vector<CanvasLegend::Tenant> tenants;
    for (const Tenant& t : s.tenants)
        tenants.push_back({q(t.name), QColor(q(t.color))});
    std::vector<SharingMode> modes;
    for (const Node& n : s.topology.nodes)
        for (SharingMode m : sharingModesOf(n))
            modes.push_back(m);
    mLegend->setContent(std::move(tenants), std::move(modes));
}

} // namespace gp::ui
