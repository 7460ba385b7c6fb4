// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#pragma once

#include "calc/evaluation.h"
#include "document/edit.h"
#include "model/catalog.h"
#include "model/scenario.h"

#include "linklayer.h"
#include "rackframeitem.h"

#include <QGraphicsScene>
#include <QHash>
#include <QSet>

#include <map>
#include <set>

namespace gp::ui {

/// The sharing modes a node's GPUs use (its own unless every GPU overrides it, then each override).
std::vector<SharingMode> sharingModesOf(const Node& node);

/// The cluster canvas: one item per node and switch id and one per link, built from the
/// scenario; decorations (tenant colours, memory fill, link load) come from an Evaluation
/// (canvasdecorations.cpp: decorate, previewPlan, highlightJobs).
class CanvasScene : public QGraphicsScene
{
    Q_OBJECT

public:
    explicit CanvasScene(const Catalog& catalog, QObject* parent = nullptr);
    ~CanvasScene() override;
    /// Rebuilds every item; the selection survives for ids that still exist.
    void rebuild(const Scenario& scenario);
    /// Adds, removes and updates only the items the changes name (a Reset rebuilds); the
    /// selection survives for ids that still exist.
    void applyChanges(const Scenario& scenario, const document::Changes& changes);
    void decorate(const Scenario& scenario, const calc::Evaluation& evaluation);
    QGraphicsItem* item(const QString& id) const { return mItems.value(id); }
    /// The id of the node or switch at a scene position, or "".
    QString idAt(QPointF scenePos) const;
    /// Ids of the selected nodes, switches and links.
    QStringList selectedIds() const;
    /// Selects exactly the given nodes, switches and links (unknown ids are ignored).
    void setSelectedIds(const QStringList& ids);
    /// Items whose position differs from the model's, with their new (grid-snapped) positions.
    std::map<std::string, Point> movedItems(const Scenario& scenario, double grid) const;
    /// Whether the plan drawn has no node and no switch yet.
    bool holdsNothing() const { return mItems.isEmpty(); }
    void updateLinks();
    /// The frames of the rack-scale NVLink domains (groups of kind "nvlink_domain"), by group id.
    QList<RackFrameItem*> rackFrames() const { return mRackFrames.values(); }
    RackFrameItem* rackFrame(const QString& groupId) const { return mRackFrames.value(groupId); }
    /// The nodes' and switches' bounding rectangle (the links and their layer left out).
    QRectF contentBounds() const;
    /// The nodes' bounding rectangle (what a plan opens on when all of it is too large to read).
    QRectF nodeBounds() const;
    /// Zoomed in, each link is its own (selectable) item; zoomed out, one layer draws them all.
    /// Bundled links (linklayer.h) are drawn by the layer at every scale.
    void setLinkDetail(bool individualLinks);
    const std::vector<LinkBundle>& bundles() const { return mBundles; }
    /// Jobs whose GPUs (a frame round each) and links (shown even when bundled) stand out;
    /// empty clears it. Ids of jobs not placed are ignored.
    void highlightJobs(const QStringList& jobIds);
    QStringList highlightedJobs() const { return mHighlightedJobs; }
    /// Marks on each node what `plan` (the same cluster, as a proposed plan) changes there: its
    /// new sharing, or that it goes; nodes the plan keeps as they are stay unmarked. The nodes
    /// marked, by id. A null plan clears every mark.
    QStringList previewPlan(const Scenario& current, const Scenario* plan);
    /// The rectangle round the nodes these jobs run on (empty when none is placed).
    QRectF jobsBounds(const QStringList& jobIds) const;

Q_SIGNALS:
    /// The scene rectangle is about to change (items were added, removed or moved past it).
    void sceneRectAboutToChange();

private:
    void addNode(const Node& n);
    void addSwitch(const Switch& sw);
    void addLink(const Link& l);
    /// A frame round the trays of each nvlink_domain group, made anew from the scenario.
    void rebuildRackFrames(const Scenario& s);
    /// Every rack frame fits its trays again (after they moved).
    void updateRackFrames();
    void removeLink(const QString& id);
    void removeItem(const QString& id);
    void finishLayout();
    /// Every link's line follows its ends again.
    void updateLinkEnds();
    /// Bundles the links again (after items moved or links changed) and shows each as it should.
    void rebundle();
    void updateLinkVisibility();
    QString subtitleOf(const Node& n) const;
    static QString subtitleOf(const Switch& sw);

    const Catalog& mCatalog;
    QHash<QString, QGraphicsItem*> mItems;
    QHash<QString, LinkItem*> mLinks;
    QHash<QString, RackFrameItem*> mRackFrames;
    LinkLayerItem* mLinkLayer = nullptr;
    std::vector<LinkBundle> mBundles;
    bool mIndividualLinks = true;
    QStringList mHighlightedJobs;
    QSet<QString> mHighlightedLinks;
    /// Where each job runs (node id -> GPU indices), from the last evaluation shown.
    std::map<std::string, std::map<std::string, std::set<int>>> mJobGpus;
};

} // namespace gp::ui
