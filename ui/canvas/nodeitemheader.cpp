// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
// A node's header, the band above its GPUs: its name, the GPUs it has and its sharing badges,
// laid out so that whatever is drawn is readable at the view's scale (issue 36).
#include "nodeitem.h"

#include <QFontMetricsF>
#include <QPainter>

#include <algorithm>

namespace gp::ui {

namespace {

// The band above the GPU cells (NodeItem::gpuCell: the first row starts at 48).
constexpr double kHeaderTop = 4.0;
constexpr double kHeaderBottom = 46.0;
constexpr double kHeaderSide = 10.0;
constexpr double kBadgesRight = NodeItem::kWidth - 8.0;
/// A badge without its letters: a colour chip this wide and high (at least 12 × 10 px on screen).
constexpr double kChipWidth = 22.0;
constexpr double kChipHeight = 16.0;

NodeItem::Header layoutHeader(const QFont& sceneFont, double lod, const QString& name, const QStringList& badges)
{
    NodeItem::Header h;
    const double px = canvasFontPx(sceneFont);
    h.nameFont = canvasLabelFont(sceneFont, px, kMinNamePx, lod, true);
    h.subtitleFont = canvasLabelFont(sceneFont, px * 0.85, kMinTextPx, lod, false);
    h.badgeFont = canvasLabelFont(sceneFont, 11.0, kMinTextPx, lod, true);
    const double room = kHeaderBottom - kHeaderTop;
    const double nameH = QFontMetricsF(h.nameFont).height();
    const double subtitleH = QFontMetricsF(h.subtitleFont).height();
    const bool named = nameH <= room;
    const bool subtitled = named && nameH + subtitleH <= room;
    const double perPx = 1.0 / std::max(lod, 1e-3); // scene units per pixel on screen
    const double chipW = std::max(kChipWidth, 12 * perPx), chipH = std::min(std::max(kChipHeight, 10 * perPx), room);
    // The lines centred in the band.
    const double top = kHeaderTop + (room - (subtitled ? nameH + subtitleH : named ? nameH : chipH)) / 2;

    // The badges, right-aligned on the name's line: with their letters where the name still fits
    // whole beside them, else as colour chips (the legend names the colours). The name comes first.
    const QFontMetricsF bm(h.badgeFont);
    const double pad = bm.height() * 0.35, gap = std::max(4.0, 3 * perPx);
    double lettersWidth = 0;
    for (const QString& b : badges)
        lettersWidth += bm.horizontalAdvance(b) + 2 * pad + gap;
    const double nameW = QFontMetricsF(h.nameFont).horizontalAdvance(name);
    h.badgeLetters = named && bm.height() + 2 <= room && nameW + 6 + lettersWidth <= kBadgesRight - kHeaderSide;
    const double badgeH = h.badgeLetters ? std::min(bm.height() + 2, nameH) : std::min(chipH, named ? nameH : room);
    const double badgeTop = named ? top + (nameH - badgeH) / 2 : top;
    double right = kBadgesRight;
    h.badges.resize(static_cast<std::size_t>(badges.size()));
    for (int b = static_cast<int>(badges.size()) - 1; b >= 0; --b) {
        const double w = h.badgeLetters ? bm.horizontalAdvance(badges[b]) + 2 * pad : chipW;
        h.badges[static_cast<std::size_t>(b)] = QRectF(right - w, badgeTop, w, badgeH);
        right -= w + gap;
    }
    if (named)
        h.name = QRectF(kHeaderSide, top, right - kHeaderSide, nameH);
    if (subtitled)
        h.subtitle = QRectF(kHeaderSide, top + nameH, NodeItem::kWidth - 2 * kHeaderSide, subtitleH);
    return h;
}

} // namespace

NodeItem::Header NodeItem::header(const QFont& sceneFont, double lod) const
{
    QStringList letters;
    for (const auto& badge : mBadges)
        letters << badge.first;
    return layoutHeader(sceneFont, lod, mName, letters);
}

double NodeItem::readableScale(const QFont& sceneFont)
{
    // The name's line grows as the scale falls (canvasLabelFont): the first scale, in steps of
    // 1 %, at which it still fits the header.
    double lod = kSummaryScale;
    while (lod < 1.0 && layoutHeader(sceneFont, lod, {}, {}).name.isEmpty())
        lod += 0.01;
    return lod;
}

void NodeItem::drawHeader(QPainter* p, const Header& h, const QColor& text) const
{
    p->setPen(text);
    if (!h.name.isEmpty()) {
        p->setFont(h.nameFont);
        p->drawText(h.name, Qt::AlignLeft | Qt::AlignVCenter,
                    QFontMetricsF(h.nameFont).elidedText(mName, Qt::ElideRight, h.name.width()));
    }
    if (!h.subtitle.isEmpty()) {
        p->setPen(text);
        p->setFont(h.subtitleFont);
        p->drawText(h.subtitle, Qt::AlignLeft | Qt::AlignVCenter,
                    QFontMetricsF(h.subtitleFont).elidedText(mSubtitle, Qt::ElideRight, h.subtitle.width()));
    }
    p->setFont(h.badgeFont);
    for (std::size_t b = 0; b < mBadges.size() && b < h.badges.size(); ++b) {
        p->setPen(Qt::NoPen);
        p->setBrush(mBadges[b].second);
        p->drawRoundedRect(h.badges[b], 3, 3);
        if (h.badgeLetters) {
            p->setPen(Qt::white);
            p->drawText(h.badges[b], Qt::AlignCenter, mBadges[b].first);
        }
    }
}

} // namespace gp::ui
