// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#include "switchitem.h"

#include "nodeitem.h"

#include <QFontMetricsF>
#include <QPaintEngine>
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
    // Its name and tier as readable text, or none where that no longer fits (canvasitem.h); a PDF
    // or SVG page keeps them at their size at 1:1.
    const QPaintEngine* engine = p->paintEngine();
    const bool vectors = engine && (engine->type() == QPaintEngine::Pdf || engine->type() == QPaintEngine::SVG);
    const double scale = vectors ? 1.0 : lod;
    const QFont sceneFont = p->font();
    const double px = canvasFontPx(sceneFont);
    const QFont nameFont = canvasLabelFont(sceneFont, px, kMinNamePx, scale, false);
    const QFont subtitleFont = canvasLabelFont(sceneFont, px * 0.8, kMinTextPx, scale, false);
    const QFontMetricsF nm(nameFont), sm(subtitleFont);
    const QRectF inside = boundingRect().adjusted(8, 3, -8, -3);
    const bool subtitled = nm.height() + sm.height() <= inside.height();
    if (nm.height() > inside.height())
        return;
    const double top = inside.top() + (inside.height() - nm.height() - (subtitled ? sm.height() : 0.0)) / 2;
    p->setPen(pal.buttonText().color());
    p->setFont(nameFont);
    p->drawText(QRectF(inside.left(), top, inside.width(), nm.height()), Qt::AlignCenter,
                nm.elidedText(mName, Qt::ElideRight, inside.width()));
    if (subtitled) {
        p->setFont(subtitleFont);
        p->drawText(QRectF(inside.left(), top + nm.height(), inside.width(), sm.height()), Qt::AlignCenter,
                    sm.elidedText(mSubtitle, Qt::ElideRight, inside.width()));
    }
}

} // namespace gp::ui
