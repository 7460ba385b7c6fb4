// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#pragma once

#include <QFont>
#include <QGraphicsItem>
#include <QGraphicsScene>
#include <QPainter>

namespace gp::ui {

/// The canvas's kinds of graphics item, numbered in one place: each item class returns its own
/// from type() (`enum { Type = … }`), so `qgraphicsitem_cast` tells them apart without RTTI.
enum class CanvasItemKind : int
{
    Node = QGraphicsItem::UserType + 1,
    Switch = QGraphicsItem::UserType + 2,
    Link = QGraphicsItem::UserType + 3,
    LinkLayer = QGraphicsItem::UserType + 4,
};

constexpr int itemType(CanvasItemKind kind) { return static_cast<int>(kind); }

/// The canvas view does not save and restore the painter around each item
/// (QGraphicsView::DontSavePainterState, for speed with thousands of items): each paint()
/// starts by setting what it relies on.
inline void beginPaint(QPainter* p, const QGraphicsItem* item, bool antialias)
{
    p->setRenderHint(QPainter::Antialiasing, antialias);
    p->setFont(item->scene() ? item->scene()->font() : QFont());
}

} // namespace gp::ui
