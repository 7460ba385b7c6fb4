// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#include "linklayer.h"

#include "linkitem.h"

#include <QGraphicsScene>
#include <QLocale>
#include <QPainter>
#include <QStyleOptionGraphicsItem>

#include <algorithm>
#include <map>

namespace gp::ui {

namespace {

/// The links between one row of items and another, lower one.
struct RowPair
{
    std::vector<LinkItem*> links;
    std::map<const QGraphicsItem*, std::vector<const LinkItem*>> upper, lower;
};

double maxUtilization(const std::vector<const LinkItem*>& links)
{
    double u = 0.0;
    for (const LinkItem* l : links)
        u = std::max(u, l->utilization());
    return u;
}

/// Nodes or switches (not links, not the layer) overlapping `band`.
bool anythingIn(const QGraphicsScene& scene, const QRectF& band)
{
    if (band.height() <= 0.0)
        return false;
    for (const QGraphicsItem* item : scene.items(band, Qt::IntersectsItemBoundingRect))
        if (item->zValue() >= 0.0 && item->isVisible())
            return true;
    return false;
}

LinkBundle bundleOf(const RowPair& pair, const QGraphicsScene& scene)
{
    LinkBundle b;
    b.links.assign(pair.links.begin(), pair.links.end());
    double upperBottom = -1e300, lowerTop = 1e300, left = 1e300, right = -1e300;
    for (const auto& [item, links] : pair.upper) {
        const QRectF r = item->sceneBoundingRect();
        upperBottom = std::max(upperBottom, r.bottom());
        left = std::min(left, r.center().x());
        right = std::max(right, r.center().x());
    }
    for (const auto& [item, links] : pair.lower) {
        const QRectF r = item->sceneBoundingRect();
        lowerTop = std::min(lowerTop, r.top());
        left = std::min(left, r.center().x());
        right = std::max(right, r.center().x());
    }
    const QRectF band(left, upperBottom + 1.0, std::max(right - left, 1.0), lowerTop - upperBottom - 2.0);
    auto stubs = [&b](const auto& ends, bool fromBottom, double busY) {
        double from = 1e300, to = -1e300;
        for (const auto& [item, links] : ends) {
            const QRectF r = item->sceneBoundingRect();
            const QPointF end(r.center().x(), fromBottom ? r.bottom() : r.top());
            b.stubs.push_back({QLineF(end, QPointF(end.x(), busY)), links});
            from = std::min(from, end.x());
            to = std::max(to, end.x());
        }
        return std::pair{from, to};
    };
    if (!anythingIn(scene, band)) {
        // Adjacent rows: one bus halfway between them.
        const double busY = (upperBottom + lowerTop) / 2.0;
        stubs(pair.upper, true, busY);
        stubs(pair.lower, false, busY);
        b.spine.push_back(QLineF(left, busY, right, busY));
        b.labelAt = QPointF((left + right) / 2.0, busY);
        return b;
    }
    // Rows with others between: a bus under the upper row, one over the lower, and a trunk left
    // of everything in between joining them.
    double trunkX = left;
    for (const QGraphicsItem* item : scene.items(band.adjusted(-1e6, 0, 0, 0), Qt::IntersectsItemBoundingRect))
        if (item->zValue() >= 0.0)
            trunkX = std::min(trunkX, item->sceneBoundingRect().left());
    trunkX -= 60.0;
    const double y1 = upperBottom + 40.0, y2 = lowerTop - 40.0;
    const auto [u0, u1] = stubs(pair.upper, true, y1);
    const auto [l0, l1] = stubs(pair.lower, false, y2);
    b.spine.push_back(QLineF(trunkX, y1, u1, y1));
    b.spine.push_back(QLineF(trunkX, y1, trunkX, y2));
    b.spine.push_back(QLineF(trunkX, y2, l1, y2));
    b.labelAt = QPointF((u0 + u1) / 2.0, y1);
    return b;
}

} // namespace

std::vector<LinkBundle> bundleLinks(const QHash<QString, LinkItem*>& links, const QGraphicsScene& scene)
{
    std::map<std::pair<qint64, qint64>, RowPair> rows;
    for (LinkItem* l : links) {
        l->setBundled(false);
        const QGraphicsItem* a = l->from();
        const QGraphicsItem* b = l->to();
        qint64 ya = qRound64(a->scenePos().y()), yb = qRound64(b->scenePos().y());
        if (ya == yb)
            continue;
        if (ya > yb) {
            std::swap(a, b);
            std::swap(ya, yb);
        }
        RowPair& pair = rows[{ya, yb}];
        pair.links.push_back(l);
        pair.upper[a].push_back(l);
        pair.lower[b].push_back(l);
    }
    std::vector<LinkBundle> out;
    for (const auto& [key, pair] : rows) {
        const auto n = static_cast<double>(pair.links.size());
        if (n < kMinBundledLinks ||
            n < kMinBundleDensity * static_cast<double>(pair.upper.size()) * static_cast<double>(pair.lower.size()))
            continue;
        for (LinkItem* l : pair.links)
            l->setBundled(true);
        out.push_back(bundleOf(pair, scene));
        out.back().upperRow = key.first;
    }
    return out;
}

LinkLayerItem::LinkLayerItem(const QHash<QString, LinkItem*>* links, const std::vector<LinkBundle>* bundles)
    : mLinks(links), mBundles(bundles)
{
    setZValue(-1);
    setFlag(ItemUsesExtendedStyleOption); // for the exposed rectangle
}

void LinkLayerItem::setBounds(const QRectF& bounds)
{
    prepareGeometryChange();
    mBounds = bounds.adjusted(-200, -200, 200, 200); // the trunks run left of the items
    update();
}

void LinkLayerItem::setDrawsSingles(bool drawsSingles)
{
    if (drawsSingles == mDrawsSingles)
        return;
    mDrawsSingles = drawsSingles;
    update();
}

void LinkLayerItem::paint(QPainter* p, const QStyleOptionGraphicsItem* option, QWidget*)
{
    // Aliased, as LinkItem: axis-aligned or long lines, thousands of them.
    p->setRenderHint(QPainter::Antialiasing, false);
    const QRectF exposed = option->exposedRect;
    auto visible = [&exposed](const QLineF& line) {
        return exposed.isEmpty() ||
               exposed.intersects(QRectF(line.p1(), line.p2()).normalized().adjusted(-2, -2, 2, 2));
    };
    if (mDrawsSingles) {
        std::map<QRgb, std::pair<QPen, QVector<QLineF>>> byColour;
        for (const LinkItem* link : *mLinks) {
            if (link->bundled() || !visible(link->line()))
                continue;
            auto& bucket = byColour[link->pen().color().rgba()];
            if (bucket.second.isEmpty())
                bucket.first = link->pen();
            bucket.second.push_back(link->line());
        }
        for (const auto& [rgb, bucket] : byColour) {
            p->setPen(bucket.first);
            p->drawLines(bucket.second);
        }
    }
    const double lod = option->levelOfDetailFromTransform(p->worldTransform());
    // Bundles from one row (the spines to each pod row) share one label, where the first puts it.
    struct Label
    {
        QPointF at;
        qlonglong links = 0;
        double busiest = 0.0;
    };
    std::map<qint64, Label> labels; // upper row -> label
    for (const LinkBundle& b : *mBundles) {
        const double u = maxUtilization(b.links);
        QPen pen(linkLoadColor(u), u > 0.0 ? 4.0 : 3.0);
        pen.setCosmetic(true);
        p->setPen(pen);
        p->drawLines(b.spine);
        for (const LinkBundle::Stub& s : b.stubs) {
            if (!visible(s.line))
                continue;
            const double su = maxUtilization(s.links);
            QPen stub(linkLoadColor(su), su > 0.0 ? 3.0 : 2.0);
            stub.setCosmetic(true);
            p->setPen(stub);
            p->drawLine(s.line);
        }
        auto [it, fresh] = labels.try_emplace(b.upperRow);
        if (fresh)
            it->second.at = b.labelAt;
        it->second.links += static_cast<qlonglong>(b.links.size());
        it->second.busiest = std::max(it->second.busiest, u);
    }
    if (lod < 0.08) // a label would cover the rows it names
        return;
    p->save();
    const QTransform toView = p->worldTransform();
    p->resetTransform(); // the counts in screen pixels
    if (scene())
        p->setFont(scene()->font());
    const QFontMetrics fm(p->font());
    for (const auto& [row, label] : labels) {
        const QPointF at = toView.map(label.at);
        const QString text = QObject::tr("%1 links, busiest at %2 %")
                                 .arg(QLocale().toString(label.links))
                                 .arg(label.busiest * 100.0, 0, 'f', 0);
        const QRectF box(at.x() - fm.horizontalAdvance(text) / 2.0 - 6, at.y() + 4, fm.horizontalAdvance(text) + 12,
                         fm.height() + 4);
        p->setPen(Qt::NoPen);
        p->setBrush(QColor(255, 255, 255, 220));
        p->drawRoundedRect(box, 4, 4);
        p->setPen(QColor("#333333"));
        p->drawText(box, Qt::AlignCenter, text);
    }
    p->restore();
}

} // namespace gp::ui
