// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#include "canvaslegend.h"

#include "canvasview.h"
#include "linkitem.h"
#include "model/enumnames.h"
#include "nodeitem.h"

#include <QMouseEvent>
#include <QPainter>
#include <QSettings>

#include <algorithm>

namespace gp::ui {

CanvasLegend::CanvasLegend(CanvasView* view) : CanvasOverlay(view, Qt::BottomLeftCorner)
{
    setObjectName("CanvasLegend");
    setCursor(Qt::ArrowCursor);
    setToolTip(tr("What the canvas's colours and marks mean; click the title to fold it"));
    const QVariant folded = QSettings().value("canvas/legendFolded");
    mUserFolded = folded.isValid();
    mCollapsed = folded.toBool();
    setContent({}, {});
}

void CanvasLegend::setContent(std::vector<Tenant> tenants, std::vector<SharingMode> modes)
{
    mEntries.clear();
    auto add = [this](Mark mark, QColor color, QString text, QString badge = {}, bool newLine = false) {
        mEntries.push_back({mark, color, std::move(text), std::move(badge), newLine, {}});
    };
    add(Mark::Title, {}, tr("Legend"), {}, true);
    bool first = true;
    for (Tenant& t : tenants) {
        add(Mark::Swatch, t.color, std::move(t.name), {}, first);
        first = false;
    }
    std::sort(modes.begin(), modes.end());
    modes.erase(std::unique(modes.begin(), modes.end()), modes.end());
    first = true;
    for (SharingMode m : modes)
        if (const QString badge = sharingBadge(m); !badge.isEmpty()) {
            add(Mark::Badge, sharingBadgeColor(m), QString::fromUtf8(displayName(m)), badge, first);
            first = false;
        }
    add(Mark::Line, linkLoadColor(0.0), tr("idle link"), {}, true);
    add(Mark::Line, linkLoadColor(0.2), tr("< 50 %"));
    add(Mark::Line, linkLoadColor(0.6), tr("50–90 %"));
    add(Mark::Line, linkLoadColor(0.95), tr("≥ 90 % of bandwidth"));
    add(Mark::Sign, QColor("#f1c40f"), tr("may run out of memory"), {}, true);
    add(Mark::Corner, QColor("#f28e2b"), tr("noisiest neighbour"));
    add(Mark::Frame, palette().highlight().color(), tr("where the chosen job runs"));
    add(Mark::Swatch, summaryColour(0.0), tr("zoomed out: a free node"), {}, true);
    add(Mark::Swatch, summaryColour(1.0), tr("a node in full use"));
    relayout();
}

QStringList CanvasLegend::entries() const
{
    QStringList out;
    for (const Entry& e : mEntries)
        if (e.mark != Mark::Title)
            out << (e.badge.isEmpty() ? e.text : e.badge + " " + e.text);
    return out;
}

void CanvasLegend::setCollapsed(bool collapsed)
{
    mCollapsed = collapsed;
    relayout();
}

QRect CanvasLegend::titleRect() const { return mEntries.empty() ? QRect() : mEntries.front().rect; }

void CanvasLegend::relayout()
{
    const QFontMetrics fm(font());
    QFont bold = font();
    bold.setBold(true);
    const QFontMetrics boldMetrics(bold);
    const int maxWidth = std::clamp(view()->viewport()->width() - 24, 160, 620);
    const int line = fm.height() + 6;
    int x = 8, y = 6, width = 0;
    for (Entry& e : mEntries) {
        int w = e.mark == Mark::Title ? boldMetrics.horizontalAdvance(e.text + " ▾") + 4
                                      : fm.horizontalAdvance(e.text) + 26;
        if (e.mark == Mark::Badge)
            w += fm.horizontalAdvance(e.badge) + 12;
        if (e.mark != Mark::Title && mCollapsed) {
            e.rect = QRect();
            continue;
        }
        if (e.newLine && (x > 8 || e.mark != Mark::Title)) {
            x = 8;
            y += e.mark == Mark::Title ? 0 : line;
        }
        if (x > 8 && x + w > maxWidth) { // wrap within a group
            x = 8;
            y += line;
        }
        e.rect = QRect(x, y, w, line);
        x += w + 14;
        width = std::max(width, x);
    }
    setFixedSize(std::min(width, maxWidth + 8), y + line + 6);
    place();
    reserve();
    update();
}

void CanvasLegend::reserve() { view()->setReservedBottom(isVisibleTo(view()) ? height() + 12 : 0); }

void CanvasLegend::showEvent(QShowEvent* event)
{
    CanvasOverlay::showEvent(event);
    reserve();
}

void CanvasLegend::hideEvent(QHideEvent* event)
{
    CanvasOverlay::hideEvent(event);
    reserve();
}

bool CanvasLegend::eventFilter(QObject* watched, QEvent* event)
{
    if (viewportResized(watched, event)) {
        if (!mUserFolded) // a short canvas keeps its room for the plan until asked
            mCollapsed = view()->viewport()->height() < kUnfoldedFrom;
        relayout();
    }
    return CanvasOverlay::eventFilter(watched, event);
}

void CanvasLegend::mousePressEvent(QMouseEvent* event)
{
    if (titleRect().contains(event->position().toPoint())) {
        mUserFolded = true;
        setCollapsed(!mCollapsed);
        QSettings().setValue("canvas/legendFolded", mCollapsed);
    }
    event->accept(); // nothing under the legend gets the click
}

void CanvasLegend::paintEvent(QPaintEvent*)
{
    QPainter p(this);
    p.setRenderHint(QPainter::Antialiasing, true);
    p.setPen(QPen(palette().mid().color(), 1));
    p.setBrush(QColor(255, 255, 255, 235));
    p.drawRoundedRect(QRectF(rect()).adjusted(0.5, 0.5, -0.5, -0.5), 6, 6);
    const QFontMetrics fm(font());
    for (const Entry& e : mEntries) {
        if (e.rect.isNull())
            continue;
        const QRect r = e.rect;
        const QRect mark(r.left(), r.center().y() - 6, 18, 12);
        int textLeft = r.left() + 24;
        p.setPen(QColor("#222222"));
        switch (e.mark) {
        case Mark::Title: {
            QFont f = font();
            f.setBold(true);
            p.setFont(f);
            p.drawText(r, Qt::AlignLeft | Qt::AlignVCenter, e.text + (mCollapsed ? " ▸" : " ▾"));
            p.setFont(font());
            continue;
        }
        case Mark::Swatch:
            p.setPen(Qt::NoPen);
            p.setBrush(e.color);
            p.drawRect(mark);
            break;
        case Mark::Badge: {
            const int w = fm.horizontalAdvance(e.badge) + 10;
            const QRect box(r.left(), r.center().y() - fm.height() / 2, w, fm.height());
            p.setPen(Qt::NoPen);
            p.setBrush(e.color);
            p.drawRoundedRect(box, 3, 3);
            p.setPen(Qt::white);
            p.drawText(box, Qt::AlignCenter, e.badge);
            textLeft = box.right() + 6;
            break;
        }
        case Mark::Line:
            p.setPen(QPen(e.color, 3));
            p.drawLine(mark.left(), mark.center().y(), mark.right(), mark.center().y());
            break;
        case Mark::Sign: {
            const QPolygonF sign({QPointF(mark.center().x(), mark.top() - 1), QPointF(mark.right() - 2, mark.bottom()),
                                  QPointF(mark.left() + 2, mark.bottom())});
            p.setPen(QPen(QColor("#1a1a1a"), 1));
            p.setBrush(e.color);
            p.drawPolygon(sign);
            break;
        }
        case Mark::Corner:
            p.setPen(QPen(QColor("#8a4b08"), 1));
            p.setBrush(e.color);
            p.drawPolygon(QPolygonF({QPointF(mark.right(), mark.top()), QPointF(mark.right() - 10, mark.top()),
                                     QPointF(mark.right(), mark.top() + 10)}));
            break;
        case Mark::Frame:
            p.setPen(QPen(e.color, 3));
            p.setBrush(Qt::NoBrush);
            p.drawRect(mark.adjusted(1, 1, -1, -1));
            break;
        }
        p.setPen(QColor("#222222"));
        p.drawText(QRect(textLeft, r.top(), r.right() - textLeft, r.height()), Qt::AlignLeft | Qt::AlignVCenter,
                   e.text);
    }
}

} // namespace gp::ui
