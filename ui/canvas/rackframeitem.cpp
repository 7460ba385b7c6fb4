// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#include "rackframeitem.h"

#include <QFontMetricsF>
#include <QPainter>
#include <QPainterPath>
#include <QStyleOptionGraphicsItem>

namespace gp::ui {

RackFrameItem::RackFrameItem(QString groupId, QString label, QList<QGraphicsItem*> trays)
    : mGroupId(std::move(groupId)), mLabel(std::move(label)), mTrays(std::move(trays))
{
    setAcceptedMouseButtons(Qt::NoButton);
    setAcceptHoverEvents(false);
    setZValue(-0.5); // behind nodes and switches (0), above links (-1): no link crosses the label
    setToolTip(mLabel);
    follow();
}

void RackFrameItem::follow()
{
    QRectF round;
    for (const QGraphicsItem* t : std::as_const(mTrays))
        round |= t->sceneBoundingRect();
    const QRectF next = round.isNull() ? QRectF() : round.adjusted(-kMargin, -kMargin - kLabelBand, kMargin, kMargin);
    if (next == mFrame)
        return;
    prepareGeometryChange();
    mFrame = next;
}

namespace {

QFont labelFont(const QFont& sceneFont, double lod) { return canvasLabelFont(sceneFont, 18.0, kMinNamePx, lod, true); }

} // namespace

QRectF RackFrameItem::labelBand() const
{
    return {mFrame.left() + 12, mFrame.top() + 4, mFrame.width() - 24, kLabelBand + kMargin - 8};
}

bool RackFrameItem::labelShownAt(double lod, const QFont& sceneFont) const
{
    const QFontMetricsF fm(labelFont(sceneFont, lod));
    const QRectF band = labelBand();
    return !mFrame.isNull() && fm.height() <= band.height() && fm.horizontalAdvance(mLabel) <= band.width();
}

QRectF RackFrameItem::boundingRect() const { return mFrame.adjusted(-2, -2, 2, 2); }

QPainterPath RackFrameItem::shape() const
{
    QPainterPath path;
    if (mFrame.isNull())
        return path;
    QPainterPath outline;
    outline.addRoundedRect(mFrame, 10, 10);
    QPainterPathStroker stroke;
    stroke.setWidth(6);
    path = stroke.createStroke(outline);
    path.addRect(labelBand());
    return path;
}

void RackFrameItem::paint(QPainter* p, const QStyleOptionGraphicsItem* option, QWidget*)
{
    if (mFrame.isNull())
        return;
    beginPaint(p, this, true);
    const double lod = option->levelOfDetailFromTransform(p->worldTransform());
    // An NVLink-green outline on a faint fill: the rack reads as one unit behind its trays.
    QPen pen(QColor("#4d7a00"), 2.5);
    pen.setCosmetic(true);
    p->setPen(pen);
    p->setBrush(QColor(118, 185, 0, 22));
    p->drawRoundedRect(mFrame, 10, 10);
    // The label in the band above the trays, at least kMinNamePx high on screen; left out where
    // it no longer fits the band (the tooltip still names it).
    if (!labelShownAt(lod, p->font()))
        return;
    const QFont font = labelFont(p->font(), lod);
    p->setFont(font);
    const QFontMetricsF fm(font);
    const QRectF band = labelBand();
    const QRectF text(band.left(), band.center().y() - fm.height() / 2, fm.horizontalAdvance(mLabel), fm.height());
    p->setPen(Qt::NoPen);
    p->setBrush(QColor(244, 249, 236)); // opaque: the links under it stop at its edge
    p->drawRoundedRect(text.adjusted(-6, -2, 6, 2), 4, 4);
    p->setPen(QColor("#2f4a00"));
    p->drawText(band, Qt::AlignLeft | Qt::AlignVCenter, mLabel);
}

} // namespace gp::ui
