// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#pragma once

#include "canvasitem.h"

#include <QGraphicsItem>
#include <QHash>
#include <QLineF>
#include <QString>
#include <QVector>

#include <vector>

namespace gp::ui {

class LinkItem;

/// Many links between two rows of the canvas that join (nearly) every item of one row to every
/// item of the other — spines to leaves — drawn as a bus: a short stub from each end to a
/// shared line, instead of |upper| × |lower| crossing lines. When other items sit between the
/// rows (pod rows of racks), each row gets its own bus and a trunk at the left joins them.
struct LinkBundle
{
    QVector<QLineF> spine; ///< the bus (and trunk) segments
    struct Stub
    {
        QLineF line;
        std::vector<const LinkItem*> links; ///< the bundle's links at this end
    };
    std::vector<Stub> stubs;
    std::vector<const LinkItem*> links;
    QPointF labelAt;     ///< where the link count is written
    qint64 upperRow = 0; ///< the upper row's y: bundles from one row share one label
};

/// Links bundled when at least this many join the same two rows…
inline constexpr int kMinBundledLinks = 8;
/// …and they are at least this share of all pairs of the two rows' items (nearly every one to every one:
/// a bus must not suggest links that are not there).
inline constexpr double kMinBundleDensity = 0.9;

/// The bundles of these links, from the items' current places; marks each bundled link
/// (LinkItem::setBundled) and unmarks the rest. `scene` answers what sits between two rows.
std::vector<LinkBundle> bundleLinks(const QHash<QString, LinkItem*>& links, const QGraphicsScene& scene);

/// All links drawn by one item: the bundles always, and, when the view is zoomed out so far
/// that single links cannot be told apart (their items are hidden then), every other link,
/// batched by colour: thousands of lines in a few drawLines calls instead of thousands of
/// items (bench_canvas, docs/performance.md).
class LinkLayerItem : public QGraphicsItem
{
public:
    enum
    {
        Type = itemType(CanvasItemKind::LinkLayer)
    };
    int type() const override { return Type; }

    LinkLayerItem(const QHash<QString, LinkItem*>* links, const std::vector<LinkBundle>* bundles);
    QRectF boundingRect() const override { return mBounds; }
    void setBounds(const QRectF& bounds);
    /// Whether the links outside bundles are drawn here (zoomed out) or by their items.
    void setDrawsSingles(bool drawsSingles);
    bool drawsSingles() const { return mDrawsSingles; }
    void paint(QPainter* painter, const QStyleOptionGraphicsItem* option, QWidget* widget) override;

private:
    const QHash<QString, LinkItem*>* mLinks;
    const std::vector<LinkBundle>* mBundles;
    QRectF mBounds;
    bool mDrawsSingles = false;
};

} // namespace gp::ui
