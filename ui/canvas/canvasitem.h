// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#pragma once

#include <QFont>
#include <QFontInfo>
#include <QGraphicsItem>
#include <QGraphicsScene>
#include <QPainter>

#include <algorithm>
#include <cmath>

namespace gp::ui {

/// The canvas's kinds of graphics item, numbered in one place: each item class returns its own
/// from type() (`enum { Type = … }`), so `qgraphicsitem_cast` tells them apart without RTTI.
enum class CanvasItemKind : int
{
    Node = QGraphicsItem::UserType + 1,
    Switch = QGraphicsItem::UserType + 2,
    Link = QGraphicsItem::UserType + 3,
    LinkLayer = QGraphicsItem::UserType + 4,
    RackFrame = QGraphicsItem::UserType + 5,
};

constexpr int itemType(CanvasItemKind kind) { return static_cast<int>(kind); }

/// Text on the canvas is readable or not drawn (issue 36; docs/user-guide.md, "Zoom and
/// readable labels"): a name is at least kMinNamePx pixels high on screen, any other text at least
/// kMinTextPx. Zoomed out, a label's font grows in scene units to stay that large; whoever draws
/// it leaves it out where it no longer fits its item.
inline constexpr double kMinNamePx = 12.0;
inline constexpr double kMinTextPx = 11.0;

/// The scene's font, in pixels: what labels are at 1:1.
inline double canvasFontPx(const QFont& sceneFont)
{
    return sceneFont.pixelSize() > 0 ? sceneFont.pixelSize() : std::max(1, QFontInfo(sceneFont).pixelSize());
}

/// `base` at `nominalPx` scene pixels, or larger where that would be under `minPx` on screen at
/// the level of detail `lod` (the view's scale).
inline QFont canvasLabelFont(QFont base, double nominalPx, double minPx, double lod, bool bold)
{
    base.setBold(bold);
    base.setPixelSize(static_cast<int>(std::ceil(std::max(nominalPx, minPx / std::max(lod, 1e-3)) - 1e-9)));
    return base;
}

/// The canvas view does not save and restore the painter around each item
/// (QGraphicsView::DontSavePainterState, for speed with thousands of items): each paint()
/// starts by setting what it relies on.
inline void beginPaint(QPainter* p, const QGraphicsItem* item, bool antialias)
{
    p->setRenderHint(QPainter::Antialiasing, antialias);
    p->setFont(item->scene() ? item->scene()->font() : QFont());
}

} // namespace gp::ui
