// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#include "linkitem.h"

#include <QPainter>
#include <QPainterPathStroker>
#include <QPalette>
#include <QWidget>

namespace gp::ui {

QColor linkLoadColor(double u)
{
    if (u <= 0.0)
        return QColor(150, 150, 150, 120);
    if (u < 0.5)
        return QColor("#59a14f");
    if (u < 0.9)
        return QColor("#f28e2b");
    return QColor("#e15759");
}

LinkItem::LinkItem(QString id, QGraphicsItem* from, QGraphicsItem* to) : mId(std::move(id)), mFrom(from), mTo(to)
{
    setZValue(-1);
    setFlag(ItemIsSelectable);
    setUtilization(0.0);
    updateEnds();
}

QPainterPath LinkItem::shape() const
{
    QPainterPath path(line().p1());
    path.lineTo(line().p2());
    QPainterPathStroker stroker;
    stroker.setWidth(12.0);
    return stroker.createStroke(path);
}

QRectF LinkItem::boundingRect() const
{
    // Cheap, since the scene index and every paint ask for it: the line's box with the click band.
    return QRectF(line().p1(), line().p2()).normalized().adjusted(-6, -6, 6, 6);
}

void LinkItem::paint(QPainter* p, const QStyleOptionGraphicsItem*, QWidget* widget)
{
    // Aliased: an antialiased wide line costs five times as much in the raster engine, and a
    // one-pixel line three times as much as a 1.5-pixel one (measured with 2,048 long lines).
    beginPaint(p, this, false);
    if (isSelected() || mHighlighted) {
        QPen halo(widget ? widget->palette().highlight().color() : QColor("#3daee9"), 9.0);
        halo.setCosmetic(true);
        halo.setCapStyle(Qt::RoundCap);
        p->setPen(halo);
        p->drawLine(line());
    }
    p->setPen(pen());
    p->drawLine(line());
}

void LinkItem::setHighlighted(bool highlighted)
{
    if (highlighted == mHighlighted)
        return;
    mHighlighted = highlighted;
    update();
}

void LinkItem::setUtilization(double u)
{
    mUtilization = u;
    QPen pen(linkLoadColor(u), u > 0.0 ? 3.0 : 1.5);
    pen.setCosmetic(true);
    setPen(pen);
    setToolTip(QObject::tr("%1: %2 % of its bandwidth in use").arg(mId).arg(u * 100.0, 0, 'f', 1));
}

void LinkItem::updateEnds() { setLine(QLineF(mFrom->sceneBoundingRect().center(), mTo->sceneBoundingRect().center())); }

} // namespace gp::ui
