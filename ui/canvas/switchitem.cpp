// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#include "switchitem.h"

#include "nodeitem.h"

#include <QPainter>
#include <QPalette>
#include <QStyleOptionGraphicsItem>

namespace gp::ui {

void SwitchItem::setLabels(QString name, QString subtitle)
{
    mName = std::move(name);
    mSubtitle = std::move(subtitle);
    setToolTip(mName + "\n" + mSubtitle);
    update();
}

SwitchItem::SwitchItem(QString id, QString name, QString subtitle)
    : mId(std::move(id)), mName(std::move(name)), mSubtitle(std::move(subtitle))
{
    setFlags(ItemIsSelectable | ItemIsMovable);
    setToolTip(mName + "\n" + mSubtitle);
}

QRectF SwitchItem::boundingRect() const { return {0, 0, kWidth, kHeight}; }

void SwitchItem::paint(QPainter* p, const QStyleOptionGraphicsItem* option, QWidget*)
{
    const QPalette pal = option->palette;
    const double lod = option->levelOfDetailFromTransform(p->worldTransform());
    beginPaint(p, this, lod >= NodeItem::kSummaryScale);
    p->setPen(QPen(isSelected() ? pal.highlight().color() : pal.mid().color(), isSelected() ? 4 : 1.5));
    p->setBrush(pal.button());
    p->drawRoundedRect(boundingRect(), 14, 14);
    if (lod < NodeItem::kSummaryScale)
        return;
    p->setPen(pal.buttonText().color());
    p->drawText(boundingRect().adjusted(8, 4, -8, -26), Qt::AlignCenter, mName);
    QFont f = p->font();
    f.setPointSizeF(f.pointSizeF() * 0.8);
    p->setFont(f);
    p->drawText(boundingRect().adjusted(8, 26, -8, -4), Qt::AlignCenter, mSubtitle);
}

} // namespace gp::ui
