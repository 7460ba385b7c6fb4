// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#pragma once

#include "canvasitem.h"

#include <QColor>
#include <QGraphicsLineItem>
#include <QString>

namespace gp::ui {

/// The colour of a link at this share of its bandwidth in use (grey idle, green, amber, red).
QColor linkLoadColor(double utilization);

/// A link between two canvas items, coloured by its load (green → amber → red).
class LinkItem : public QGraphicsLineItem
{
public:
    enum
    {
        Type = itemType(CanvasItemKind::Link)
    };
    int type() const override { return Type; }

    LinkItem(QString id, QGraphicsItem* from, QGraphicsItem* to);
    QString id() const { return mId; }
    bool joins(const QGraphicsItem* item) const { return mFrom == item || mTo == item; }
    QGraphicsItem* from() const { return mFrom; }
    QGraphicsItem* to() const { return mTo; }
    void setUtilization(double utilization);
    double utilization() const { return mUtilization; }
    /// Part of a bundle (linklayer.h): drawn by the link layer, shown on its own only while it
    /// or one of its ends is selected or highlighted.
    bool bundled() const { return mBundled; }
    void setBundled(bool bundled) { mBundled = bundled; }
    /// On the path of a highlighted job: drawn with a halo, even when bundled.
    bool highlighted() const { return mHighlighted; }
    void setHighlighted(bool highlighted);
    /// Follows the endpoints after they moved.
    void updateEnds();
    /// A band wider than the drawn line, so a thin link can still be clicked.
    QPainterPath shape() const override;
    QRectF boundingRect() const override;
    void paint(QPainter* painter, const QStyleOptionGraphicsItem* option, QWidget* widget) override;

private:
    QString mId;
    QGraphicsItem* mFrom;
    QGraphicsItem* mTo;
    double mUtilization = 0.0;
    bool mBundled = false;
    bool mHighlighted = false;
};

} // namespace gp::ui
