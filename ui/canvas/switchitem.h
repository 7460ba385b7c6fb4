// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#pragma once

#include "canvasitem.h"

#include <QGraphicsItem>
#include <QString>

namespace gp::ui {

/// A switch of the fabric on the canvas.
class SwitchItem : public QGraphicsItem
{
public:
    enum
    {
        Type = itemType(CanvasItemKind::Switch)
    };
    int type() const override { return Type; }

    static constexpr double kWidth = 200.0;
    static constexpr double kHeight = 56.0;
    SwitchItem(QString id, QString name, QString subtitle);
    QString id() const { return mId; }
    void setLabels(QString name, QString subtitle);
    QRectF boundingRect() const override;
    void paint(QPainter* painter, const QStyleOptionGraphicsItem* option, QWidget* widget) override;

private:
    QString mId, mName, mSubtitle;
};

} // namespace gp::ui
