// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#include "canvasscene.h"

#include <set>

#include "nodeitem.h"
#include "calc/slots.h"

#include <cmath>

namespace gp::ui {

namespace {

QString q(const std::string& s) { return QString::fromStdString(s); }
QString idOf(const QGraphicsItem* item)
{
    if (auto* n = dynamic_cast<const NodeItem*>(item))
        return n->id();
    if (auto* s = dynamic_cast<const SwitchItem*>(item))
        return s->id();
    return {};
}

} // namespace

CanvasScene::CanvasScene(const Catalog& catalog, QObject* parent) : QGraphicsScene(parent), mCatalog(catalog) {}

void CanvasScene::rebuild(const Scenario& s)
{
    const QStringList selected = selectedIds();
    clear();
    mItems.clear();
    mLinks.clear();
    for (const Node& n : s.topology.nodes) {
        const GpuSpec* g = mCatalog.gpu(n.gpuId);
        auto* item = new NodeItem(q(n.id), q(n.name),
                                  tr("%1 x %2").arg(n.gpuCount).arg(g ? q(g->name) : q(n.gpuId)));
        item->setPos(n.position.x, n.position.y);
        addItem(item);
        mItems.insert(q(n.id), item);
    }
    for (const Switch& sw : s.topology.switches) {
        auto* item = new SwitchItem(q(sw.id), q(sw.name), tr("%1, %2 x %3 Gb/s").arg(q(sw.tier)).arg(sw.ports).arg(sw.portSpeedGbps));
        item->setPos(sw.position.x, sw.position.y);
        addItem(item);
        mItems.insert(q(sw.id), item);
    }
    for (const Link& l : s.topology.links) {
        QGraphicsItem* a = mItems.value(q(l.from));
        QGraphicsItem* b = mItems.value(q(l.to));
        if (!a || !b)
            continue;
        auto* link = new LinkItem(q(l.id), a, b);
        addItem(link);
        mLinks.insert(q(l.id), link);
    }
    mLinkLayer = new LinkLayerItem(&mLinks);
    addItem(mLinkLayer);
    mLinkLayer->setBounds(itemsBoundingRect());
    mLinkLayer->setVisible(!mIndividualLinks);
    for (LinkItem* l : std::as_const(mLinks))
        l->setVisible(mIndividualLinks);
    setSceneRect(itemsBoundingRect().adjusted(-400, -400, 400, 400));
    setSelectedIds(selected);
}

void CanvasScene::setLinkDetail(bool individualLinks)
{
    if (individualLinks == mIndividualLinks)
        return;
    mIndividualLinks = individualLinks;
    if (mLinkLayer) {
        mLinkLayer->setVisible(!individualLinks);
        if (!individualLinks) { // the links may have moved or changed colour while it was hidden
            mLinkLayer->setBounds(itemsBoundingRect());
            mLinkLayer->update();
        }
    }
    for (LinkItem* l : std::as_const(mLinks))
        l->setVisible(individualLinks);
}

void CanvasScene::setSelectedIds(const QStringList& ids)
{
    clearSelection();
    for (const QString& id : ids)
        if (QGraphicsItem* item = mItems.value(id))
            item->setSelected(true);
        else if (LinkItem* link = mLinks.value(id))
            link->setSelected(true);
}

void CanvasScene::decorate(const Scenario& s, const calc::Evaluation& ev)
{
    // Which tenant holds each slot, and the memory on each GPU.
    std::map<std::string, QColor> tenantColor;
    for (const Tenant& t : s.tenants)
        tenantColor[t.id] = QColor(q(t.color));
    std::map<std::pair<std::string, int>, std::map<std::string, QColor>> held; // (node, gpu) -> slot label -> colour
    for (const calc::JobResult& j : ev.jobs)
        for (const calc::UnitLocation& u : j.placement)
            held[{u.node, u.gpu}][u.slot] = tenantColor[j.tenant];
    // Each job's noisiest neighbour: its slots on the GPUs the two share get the mark, and
    // the node's tooltip says whom they cost most.
    std::map<std::string, const calc::JobResult*> byId;
    for (const calc::JobResult& j : ev.jobs)
        byId[j.id] = &j;
    std::map<std::pair<std::string, int>, std::set<std::string>> noisy; // (node, gpu) -> slot labels
    std::map<std::string, QStringList> notes;                           // node -> tooltip lines
    for (const calc::JobResult& j : ev.jobs) {
        const auto it = byId.find(j.noisiestNeighbour);
        if (j.noisiestNeighbour.empty() || it == byId.end())
            continue;
        for (const calc::UnitLocation& mine : j.placement)
            for (const calc::UnitLocation& theirs : it->second->placement)
                if (theirs.node == mine.node && theirs.gpu == mine.gpu &&
                    noisy[{theirs.node, theirs.gpu}].insert(theirs.slot).second)
                    notes[theirs.node] << QObject::tr("GPU %1: %2 costs %3 most (+%4 % of its bare-metal step)")
                                              .arg(theirs.gpu)
                                              .arg(q(j.noisiestNeighbour), q(j.id))
                                              .arg(j.noisiestNeighbourCost * 100.0, 0, 'f', 1);
    }
    std::map<std::pair<std::string, int>, const calc::GpuResult*> gpuResults;
    for (const calc::GpuResult& g : ev.gpus)
        gpuResults[{g.node, g.gpu}] = &g;

    Scenario one; // the slots of one node at a time, labelled as evaluate() labels them
    for (const Node& n : s.topology.nodes) {
        auto* item = dynamic_cast<NodeItem*>(mItems.value(q(n.id)));
        if (!item)
            continue;
        one.topology.nodes = {n};
        const std::vector<calc::Slot> slots = calc::buildSlots(one, mCatalog);
        std::vector<NodeItem::Gpu> gpus(static_cast<std::size_t>(std::max(n.gpuCount, 0)));
        std::map<int, int> perGpu;
        for (const calc::Slot& sl : slots)
            ++perGpu[sl.gpu];
        std::map<int, int> seen;
        for (const calc::Slot& sl : slots) {
            if (sl.gpu < 0 || sl.gpu >= n.gpuCount)
                continue;
            NodeItem::Slot v;
            const int k = seen[sl.gpu]++;
            if (sl.mode == SharingMode::Mig) {
                const MigProfile* p = mCatalog.gpu(n.gpuId) ? mCatalog.gpu(n.gpuId)->migProfile(*sl.profile) : nullptr;
                v.from = sl.start / 8.0;
                v.width = p ? p->memorySlices / 8.0 : 1.0 / 8.0;
            } else {
                v.from = static_cast<double>(k) / perGpu[sl.gpu];
                v.width = 1.0 / perGpu[sl.gpu];
            }
            const auto& labels = held[{n.id, sl.gpu}];
            if (auto it = labels.find(sl.label()); it != labels.end())
                v.tenant = it->second;
            if (auto it = noisy.find({n.id, sl.gpu}); it != noisy.end())
                v.noisiest = it->second.count(sl.label()) > 0;
            gpus[static_cast<std::size_t>(sl.gpu)].slots.push_back(v);
        }
        for (int g = 0; g < n.gpuCount; ++g)
            if (auto it = gpuResults.find({n.id, g}); it != gpuResults.end() && it->second->capacityBytes > 0) {
                gpus[static_cast<std::size_t>(g)].memoryFill = it->second->usedBytes / it->second->capacityBytes;
                gpus[static_cast<std::size_t>(g)].oomRisk = it->second->oomRisk;
            }
        item->setGpus(std::move(gpus));
        item->setNotes(notes[n.id]);
    }
    for (const calc::LinkResult& l : ev.links)
        if (LinkItem* link = mLinks.value(q(l.id)))
            link->setUtilization(l.utilization);
}

void CanvasScene::syncPositions(const Scenario& s, const QStringList& ids)
{
    for (const Node& n : s.topology.nodes)
        if (ids.contains(q(n.id)))
            if (QGraphicsItem* item = mItems.value(q(n.id)))
                item->setPos(n.position.x, n.position.y);
    for (const Switch& sw : s.topology.switches)
        if (ids.contains(q(sw.id)))
            if (QGraphicsItem* item = mItems.value(q(sw.id)))
                item->setPos(sw.position.x, sw.position.y);
    updateLinks();
}

void CanvasScene::updateLinks()
{
    for (LinkItem* l : std::as_const(mLinks))
        l->updateEnds();
    if (mLinkLayer && mLinkLayer->isVisible()) { // zoomed out: the layer draws the links
        mLinkLayer->setBounds(itemsBoundingRect());
        mLinkLayer->update();
    }
}

QString CanvasScene::idAt(QPointF scenePos) const
{
    for (QGraphicsItem* item : items(scenePos))
        if (const QString id = idOf(item); !id.isEmpty())
            return id;
    return {};
}

QStringList CanvasScene::selectedIds() const
{
    QStringList ids;
    for (QGraphicsItem* item : selectedItems())
        if (const QString id = idOf(item); !id.isEmpty())
            ids << id;
        else if (auto* link = dynamic_cast<const LinkItem*>(item))
            ids << link->id();
    return ids;
}

std::map<std::string, Point> CanvasScene::movedItems(const Scenario& s, double grid) const
{
    std::map<std::string, Point> moved;
    auto check = [&](const std::string& id, const Point& model) {
        QGraphicsItem* item = mItems.value(q(id));
        if (!item)
            return;
        const Point at{std::round(item->pos().x() / grid) * grid, std::round(item->pos().y() / grid) * grid};
        if (std::abs(at.x - model.x) > 1e-9 || std::abs(at.y - model.y) > 1e-9)
            moved[id] = at;
    };
    for (const Node& n : s.topology.nodes)
        check(n.id, n.position);
    for (const Switch& sw : s.topology.switches)
        check(sw.id, sw.position);
    return moved;
}

} // namespace gp::ui
