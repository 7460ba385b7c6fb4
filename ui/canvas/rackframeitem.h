// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#pragma once

#include "canvasitem.h"

#include <QFont>
#include <QGraphicsItem>
#include <QList>
#include <QString>

namespace gp::ui {

/// A rack-scale NVLink domain (a topology group of kind "nvlink_domain", e.g. a GB200 NVL72) on
/// the canvas: a frame round its trays, labelled "NVL72 domain · <name>", drawn behind the trays
/// and above the links (so that no link crosses its label, which sits on an opaque band). A
/// view of one group id: it owns nothing, takes no mouse button (clicks and rubber bands reach
/// what is under it), and follows its trays when they move (CanvasScene::updateRackFrames), so a
/// dragged tray stays inside its domain's frame.
class RackFrameItem : public QGraphicsItem
{
public:
    enum
    {
        Type = itemType(CanvasItemKind::RackFrame)
    };
    int type() const override { return Type; }
    /// Room between the trays and the frame, and the band above them that holds the label.
    static constexpr double kMargin = 24.0;
    static constexpr double kLabelBand = 34.0;

    RackFrameItem(QString groupId, QString label, QList<QGraphicsItem*> trays);
    QString groupId() const { return mGroupId; }
    QString label() const { return mLabel; }
    const QList<QGraphicsItem*>& trays() const { return mTrays; }
    /// The frame round the trays' current places (scene coordinates; the item sits at 0, 0).
    QRectF frame() const { return mFrame; }
    /// Fits the frame round the trays again.
    void follow();
    /// Whether the label is drawn at the view's scale `lod` (it is left out, never drawn
    /// unreadably small, where a readable font no longer fits its band).
    bool labelShownAt(double lod, const QFont& sceneFont) const;

    QRectF boundingRect() const override;
    /// The outline and the label band only: inside the frame, hit tests and tooltips reach the
    /// links and trays, not the frame.
    QPainterPath shape() const override;
    void paint(QPainter* p, const QStyleOptionGraphicsItem* option, QWidget* widget) override;

private:
    QRectF labelBand() const;

    QString mGroupId;
    QString mLabel;
    QList<QGraphicsItem*> mTrays;
    QRectF mFrame;
};

} // namespace gp::ui
