// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#include "canvasscene.h"

#include "document/fabriclayout.h"
#include "io/textformat.h"
#include "linkitem.h"
#include "nodeitem.h"
#include "switchitem.h"

#include <cmath>
#include <set>

namespace gp::ui {

// Arrange as Fabric (document::fabricLayout) spaces items by the canvas's own sizes.
static_assert(document::LayoutMetrics{}.node == Point{NodeItem::kWidth, NodeItem::kHeight});
static_assert(document::LayoutMetrics{}.switchBox == Point{SwitchItem::kWidth, SwitchItem::kHeight});

namespace {

using text::q;

QString idOf(const QGraphicsItem* item)
{
    if (auto* n = qgraphicsitem_cast<const NodeItem*>(item))
        return n->id();
    if (auto* s = qgraphicsitem_cast<const SwitchItem*>(item))
        return s->id();
    return {};
}

} // namespace

std::vector<SharingMode> sharingModesOf(const Node& n)
{
    std::vector<SharingMode> modes;
    if (static_cast<int>(n.gpuSharing.size()) < n.gpuCount)
        modes.push_back(n.sharing.mode);
    for (const auto& [gpu, cfg] : n.gpuSharing)
        modes.push_back(cfg.mode);
    return modes;
}

CanvasScene::CanvasScene(const Catalog& catalog, QObject* parent) : QGraphicsScene(parent), mCatalog(catalog)
{
    // A selected switch or node shows its bundled links one by one.
    connect(this, &QGraphicsScene::selectionChanged, this, [this] {
        if (!mBundles.empty())
            updateLinkVisibility();
    });
}

CanvasScene::~CanvasScene()
{
    // The base class deletes the items, which announces selection changes: nothing of ours may
    // run on what is half gone.
    disconnect(this, &QGraphicsScene::selectionChanged, this, nullptr);
    mBundles.clear();
    mLinks.clear();
    mItems.clear();
    mRackFrames.clear();
}

QString CanvasScene::subtitleOf(const Node& n) const
{
    const GpuSpec* g = mCatalog.gpu(n.gpuId);
    return tr("%1 x %2").arg(n.gpuCount).arg(g ? q(g->name) : q(n.gpuId));
}

QString CanvasScene::subtitleOf(const Switch& sw)
{
    return tr("%1, %2 x %3 Gb/s").arg(q(sw.tier)).arg(sw.ports).arg(sw.portSpeedGbps);
}

void CanvasScene::addNode(const Node& n)
{
    auto* item = new NodeItem(q(n.id), q(n.name), subtitleOf(n));
    item->setPos(n.position.x, n.position.y);
    item->setSharingModes(sharingModesOf(n));
    addItem(item);
    mItems.insert(q(n.id), item);
}

void CanvasScene::addSwitch(const Switch& sw)
{
    auto* item = new SwitchItem(q(sw.id), q(sw.name), subtitleOf(sw));
    item->setPos(sw.position.x, sw.position.y);
    addItem(item);
    mItems.insert(q(sw.id), item);
}

void CanvasScene::addLink(const Link& l)
{
    QGraphicsItem* a = mItems.value(q(l.from));
    QGraphicsItem* b = mItems.value(q(l.to));
    if (!a || !b)
        return;
    auto* link = new LinkItem(q(l.id), a, b);
    link->setVisible(mIndividualLinks); // until the next rebundle()
    addItem(link);
    mLinks.insert(q(l.id), link);
}

void CanvasScene::rebuildRackFrames(const Scenario& s)
{
    for (RackFrameItem* f : std::as_const(mRackFrames))
        delete f; // the scene forgets a deleted item
    mRackFrames.clear();
    for (const Group& g : s.topology.groups) {
        if (!g.isNvlinkDomain())
            continue;
        QList<QGraphicsItem*> trays;
        int gpus = 0;
        for (const Node& n : s.topology.nodes)
            if (n.group == g.id)
                if (QGraphicsItem* item = mItems.value(q(n.id))) {
                    trays << item;
                    gpus += n.gpuCount;
                }
        if (trays.isEmpty())
            continue;
        const RackTemplate* rack = mCatalog.rackTemplate(g.rackTemplate);
        const int domain = rack ? rack->domainGpus : gpus;
        auto* frame = new RackFrameItem(q(g.id), tr("NVL%1 domain · %2").arg(domain).arg(q(g.name)), trays);
        addItem(frame);
        mRackFrames.insert(q(g.id), frame);
    }
}

void CanvasScene::updateRackFrames()
{
    for (RackFrameItem* f : std::as_const(mRackFrames))
        f->follow();
}

void CanvasScene::removeLink(const QString& id)
{
    mBundles.clear(); // they point at links; finishLayout() bundles again
    if (LinkItem* link = mLinks.take(id))
        delete link; // the scene forgets a deleted item
}

void CanvasScene::removeItem(const QString& id)
{
    QGraphicsItem* item = mItems.take(id);
    if (!item)
        return;
    mBundles.clear();
    // A link the changes did not name cannot outlive its end.
    for (auto it = mLinks.begin(); it != mLinks.end();)
        if (it.value()->joins(item)) {
            delete it.value();
            it = mLinks.erase(it);
        } else
            ++it;
    delete item;
}

QRectF CanvasScene::contentBounds() const
{
    QRectF bounds;
    for (const QGraphicsItem* item : mItems)
        bounds |= item->sceneBoundingRect();
    return bounds;
}

QRectF CanvasScene::nodeBounds() const
{
    QRectF bounds;
    for (const QGraphicsItem* item : mItems)
        if (item->type() == NodeItem::Type)
            bounds |= item->sceneBoundingRect();
    return bounds;
}

void CanvasScene::rebundle()
{
    mBundles = bundleLinks(mLinks, *this);
    if (mLinkLayer)
        mLinkLayer->update();
    updateLinkVisibility();
}

void CanvasScene::updateLinkVisibility()
{
    for (LinkItem* l : std::as_const(mLinks)) {
        const bool revealed =
            !l->bundled() || l->isSelected() || l->from()->isSelected() || l->to()->isSelected() || l->highlighted();
        l->setVisible(mIndividualLinks && revealed);
    }
}

void CanvasScene::finishLayout()
{
    rebundle();
    const QRectF bounds = contentBounds();
    if (mLinkLayer)
        mLinkLayer->setBounds(bounds);
    const QRectF rect = bounds.adjusted(-400, -400, 400, 400);
    if (rect == sceneRect())
        return;
    Q_EMIT sceneRectAboutToChange(); // views note what they show, to keep showing it
    setSceneRect(rect);
}

void CanvasScene::rebuild(const Scenario& s)
{
    const QStringList selected = selectedIds();
    mBundles.clear();
    clear();
    mItems.clear();
    mLinks.clear();
    mRackFrames.clear();
    for (const Node& n : s.topology.nodes)
        addNode(n);
    for (const Switch& sw : s.topology.switches)
        addSwitch(sw);
    for (const Link& l : s.topology.links)
        addLink(l);
    rebuildRackFrames(s);
    mLinkLayer = new LinkLayerItem(&mLinks, &mBundles);
    addItem(mLinkLayer);
    mLinkLayer->setDrawsSingles(!mIndividualLinks);
    finishLayout();
    setSelectedIds(selected);
    highlightJobs(mHighlightedJobs);
}

void CanvasScene::applyChanges(const Scenario& s, const document::Changes& changes)
{
    using document::ChangeKind;
    using document::ItemKind;
    if (document::anyReset(changes) || !mLinkLayer) {
        rebuild(s);
        return;
    }
    const QStringList selected = selectedIds();
    std::map<std::string, const Node*> nodes;
    std::map<std::string, const Switch*> switches;
    std::map<std::string, const Link*> links;
    auto index = [&] { // only when something is added or updated
        if (!nodes.empty() || !switches.empty() || !links.empty())
            return;
        for (const Node& n : s.topology.nodes)
            nodes[n.id] = &n;
        for (const Switch& sw : s.topology.switches)
            switches[sw.id] = &sw;
        for (const Link& l : s.topology.links)
            links[l.id] = &l;
    };
    // A frame holds its trays' items: none may outlive a tray that goes (rebuilt below).
    for (RackFrameItem* f : std::as_const(mRackFrames))
        delete f;
    mRackFrames.clear();
    // Links go before their ends, and come back after them.
    for (const document::Change& c : changes)
        if (c.item == ItemKind::Link && c.kind != ChangeKind::Added)
            removeLink(q(c.id));
    for (const document::Change& c : changes)
        if ((c.item == ItemKind::Node || c.item == ItemKind::Switch) && c.kind == ChangeKind::Removed)
            removeItem(q(c.id));
    bool moved = false;
    for (const document::Change& c : changes) {
        if (c.item != ItemKind::Node && c.item != ItemKind::Switch)
            continue;
        if (c.kind == ChangeKind::Removed)
            continue;
        index();
        if (c.item == ItemKind::Node) {
            auto it = nodes.find(c.id);
            if (it == nodes.end())
                continue;
            const Node& n = *it->second;
            if (c.kind == ChangeKind::Added)
                addNode(n);
            else if (auto* item = qgraphicsitem_cast<NodeItem*>(mItems.value(q(n.id)))) {
                item->setLabels(q(n.name), subtitleOf(n));
                item->setSharingModes(sharingModesOf(n));
                moved = moved || item->pos() != QPointF(n.position.x, n.position.y);
                item->setPos(n.position.x, n.position.y);
            }
        } else {
            auto it = switches.find(c.id);
            if (it == switches.end())
                continue;
            const Switch& sw = *it->second;
            if (c.kind == ChangeKind::Added)
                addSwitch(sw);
            else if (auto* item = qgraphicsitem_cast<SwitchItem*>(mItems.value(q(sw.id)))) {
                item->setLabels(q(sw.name), subtitleOf(sw));
                moved = moved || item->pos() != QPointF(sw.position.x, sw.position.y);
                item->setPos(sw.position.x, sw.position.y);
            }
        }
    }
    bool relinked = false;
    for (const document::Change& c : changes)
        if (c.item == ItemKind::Link && c.kind != ChangeKind::Removed) {
            index();
            if (auto it = links.find(c.id); it != links.end()) {
                addLink(*it->second);
                relinked = true;
            }
        }
    bool structural = relinked;
    for (const document::Change& c : changes)
        structural = structural || c.kind != ChangeKind::Updated;
    rebuildRackFrames(s); // a tray may have moved, come, gone or changed group
    if (moved)
        updateLinkEnds();
    if (moved || structural)
        finishLayout(); // bundles the links again
    // Only an item that went and came back can have lost its selection; re-selecting what is
    // still selected would announce a selection change (and reset the inspector) for nothing.
    QStringList now = selectedIds(), before = selected;
    now.sort();
    before.sort();
    if (now != before)
        setSelectedIds(selected);
}

void CanvasScene::setLinkDetail(bool individualLinks)
{
    if (individualLinks == mIndividualLinks)
        return;
    mIndividualLinks = individualLinks;
    if (mLinkLayer)
        mLinkLayer->setDrawsSingles(!individualLinks);
    updateLinkVisibility();
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

void CanvasScene::updateLinkEnds()
{
    for (LinkItem* l : std::as_const(mLinks))
        l->updateEnds();
    updateRackFrames(); // what moves its links' ends may be a tray
}

void CanvasScene::updateLinks()
{
    updateLinkEnds();
    rebundle();
    if (mLinkLayer)
        mLinkLayer->setBounds(contentBounds());
}

QString CanvasScene::idAt(QPointF scenePos) const
{
    for (QGraphicsItem* item : items(scenePos))
        if (QString id = idOf(item); !id.isEmpty())
            return id;
    return {};
}

QStringList CanvasScene::selectedIds() const
{
    QStringList ids;
    for (QGraphicsItem* item : selectedItems())
        if (const QString id = idOf(item); !id.isEmpty())
            ids << id;
        else if (auto* link = qgraphicsitem_cast<const LinkItem*>(item))
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
