// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#include "nodeitem.h"

#include <QGraphicsSceneHoverEvent>
#include <QPaintEngine>
#include <QPainter>
#include <QPalette>
#include <QPolygonF>
#include <QStyleOptionGraphicsItem>

#include <algorithm>

namespace gp::ui {

NodeItem::NodeItem(QString id, QString name, QString subtitle)
    : mId(std::move(id)), mName(std::move(name)), mSubtitle(std::move(subtitle))
{
    setFlags(ItemIsSelectable | ItemIsMovable);
    setAcceptHoverEvents(true); // a tooltip per GPU (hoverMoveEvent)
    setToolTip(nodeTip());
    // Panning repaints from a per-item pixmap at the current zoom instead of redrawing every
    // GPU slot (bench_canvas, docs/performance.md).
    setCacheMode(DeviceCoordinateCache);
}

void NodeItem::setLabels(QString name, QString subtitle)
{
    mName = std::move(name);
    mSubtitle = std::move(subtitle);
    setToolTip(nodeTip());
    update();
}

QString NodeItem::nodeTip() const
{
    return mName + "\n" + mSubtitle + (mNotes.isEmpty() ? QString() : "\n" + mNotes.join("\n"));
}

void NodeItem::setNotes(const QStringList& notes)
{
    mNotes = notes;
    setToolTip(nodeTip());
}

void NodeItem::hoverMoveEvent(QGraphicsSceneHoverEvent* event)
{
    const auto hit = slotAt(event->pos());
    const QString& gpu = hit && hit->first < static_cast<int>(mGpus.size())
                             ? mGpus[static_cast<std::size_t>(hit->first)].description
                             : QString();
    setToolTip(gpu.isEmpty() ? nodeTip() : mName + " — " + gpu);
    QGraphicsItem::hoverMoveEvent(event);
}

QColor summaryColour(double allocatedShare)
{
    // Near grey, so that the blue highlight, the red out-of-memory block and the badges' bands
    // stand out on a zoomed-out cluster.
    const double s = std::clamp(allocatedShare, 0.0, 1.0);
    return QColor::fromHsvF(0.6, 0.06 + 0.14 * s, 0.93 - 0.5 * s);
}

QString sharingBadge(SharingMode mode)
{
    switch (mode) {
    case SharingMode::Exclusive: return {};
    case SharingMode::Passthrough: return QStringLiteral("VM");
    case SharingMode::Mig: return QStringLiteral("MIG");
    case SharingMode::Vgpu: return QStringLiteral("vGPU");
    case SharingMode::TimeSlicing: return QStringLiteral("TS");
    case SharingMode::Mps: return QStringLiteral("MPS");
    }
    return {};
}

QColor sharingBadgeColor(SharingMode mode)
{
    switch (mode) {
    case SharingMode::Exclusive: return QColor("#7f7f7f");
    case SharingMode::Passthrough: return QColor("#2c6e9b");
    case SharingMode::Mig: return QColor("#6a3d9a");
    case SharingMode::Vgpu: return QColor("#1b7f5e");
    case SharingMode::TimeSlicing: return QColor("#b15928");
    case SharingMode::Mps: return QColor("#a6266e");
    }
    return Qt::gray;
}

void NodeItem::setSharingModes(const std::vector<SharingMode>& modes)
{
    std::vector<std::pair<QString, QColor>> badges;
    for (SharingMode m : modes)
        if (const QString b = sharingBadge(m); !b.isEmpty())
            if (std::none_of(badges.begin(), badges.end(), [&b](const auto& x) { return x.first == b; }))
                badges.emplace_back(b, sharingBadgeColor(m));
    if (badges == mBadges)
        return;
    mBadges = std::move(badges);
    update();
}

void NodeItem::setHighlightedGpus(std::set<int> gpus)
{
    if (gpus == mHighlighted)
        return;
    mHighlighted = std::move(gpus);
    update();
}

void NodeItem::setPreview(QString change, bool removed)
{
    if (change == mPreviewChange && removed == mPreviewRemoved)
        return;
    mPreviewChange = std::move(change);
    mPreviewRemoved = removed;
    update();
}

void NodeItem::drawPreview(QPainter* p, const QRectF& r) const
{
    if (mPreviewChange.isEmpty() && !mPreviewRemoved)
        return;
    const QColor colour = mPreviewRemoved ? QColor("#c62828") : QColor("#e67e22");
    p->setRenderHint(QPainter::Antialiasing, true);
    if (mPreviewRemoved) { // greyed out and crossed: the plan goes without it
        p->setPen(Qt::NoPen);
        p->setBrush(QColor(120, 120, 120, 150));
        p->drawRect(r);
        QPen cross(colour, 4);
        cross.setCosmetic(true);
        p->setPen(cross);
        p->drawLine(r.topLeft(), r.bottomRight());
        p->drawLine(r.topRight(), r.bottomLeft());
    }
    QPen frame(colour, 3, Qt::DashLine); // stays visible zoomed out
    frame.setCosmetic(true);
    p->setPen(frame);
    p->setBrush(Qt::NoBrush);
    p->drawRect(r.adjusted(1.5, 1.5, -1.5, -1.5));
    const QString text = mPreviewRemoved ? QObject::tr("removed") : QStringLiteral("→ ") + mPreviewChange;
    QFont f = p->font();
    f.setBold(true);
    f.setPixelSize(13);
    p->setFont(f);
    const QFontMetricsF fm(f);
    const double w = std::min(r.width() - 12, fm.horizontalAdvance(text) + 14);
    const QRectF box(r.center().x() - w / 2, r.bottom() - 34, w, 22);
    p->setPen(Qt::NoPen);
    p->setBrush(colour);
    p->drawRoundedRect(box, 4, 4);
    p->setPen(Qt::white);
    p->drawText(box.adjusted(6, 0, -6, 0), Qt::AlignCenter, fm.elidedText(text, Qt::ElideRight, w - 12));
    p->setRenderHint(QPainter::Antialiasing, false);
}

void NodeItem::setGpus(std::vector<Gpu> gpus)
{
    mGpus = std::move(gpus);
    update();
}

QRectF NodeItem::boundingRect() const { return {0, 0, kWidth, kHeight}; }

void NodeItem::paint(QPainter* p, const QStyleOptionGraphicsItem* option, QWidget*)
{
    const QPalette pal = option->palette;
    const double lod = option->levelOfDetailFromTransform(p->worldTransform());
    const QRectF r = boundingRect();
    const QPen border(isSelected() ? pal.highlight().color() : pal.mid().color(), isSelected() ? 4 : 1.5);
    beginPaint(p, this, lod >= kSummaryScale);
    if (lod < kSummaryScale) {
        // Zoomed out: one block, darker the more of the node is allocated.
        int used = 0, slots = 0;
        bool oom = false;
        for (const Gpu& g : mGpus) {
            for (const Slot& sl : g.slots)
                used += sl.tenant.isValid() ? 1 : 0;
            slots += static_cast<int>(g.slots.size());
            oom |= g.oomRisk;
        }
        const double share = slots > 0 ? static_cast<double>(used) / slots : 0.0;
        p->setPen(border); // axis-aligned blocks, thousands of them: no antialiasing
        p->setBrush(oom ? QColor("#e15759") : summaryColour(share));
        if (!mHighlighted.empty())
            p->setPen(QPen(pal.highlight().color(), 3, Qt::SolidLine, Qt::SquareCap, Qt::MiterJoin));
        p->drawRect(r);
        if (!mBadges.empty()) { // how it is shared, as a band along the top
            const double w = r.width() / static_cast<double>(mBadges.size());
            for (std::size_t b = 0; b < mBadges.size(); ++b) {
                p->setPen(Qt::NoPen);
                p->setBrush(mBadges[b].second);
                p->drawRect(QRectF(r.left() + static_cast<double>(b) * w, r.top(), w, r.height() * 0.28));
            }
        }
        if (!mHighlighted.empty()) { // a frame that stays visible at any zoom
            QPen frame(pal.highlight().color(), 4);
            frame.setCosmetic(true);
            p->setPen(frame);
            p->setBrush(Qt::NoBrush);
            p->drawRect(r);
        }
        drawPreview(p, r);
        return;
    }
    p->setPen(border);
    p->setBrush(pal.base());
    p->drawRoundedRect(r, 8, 8);
    // The name, the GPUs and the badges, each only where it is readable at this scale. A PDF or
    // SVG (the report's topology page) lays them out as at 1:1: there they are vectors, legible
    // zoomed in.
    const QPaintEngine* engine = p->paintEngine();
    const bool vectors = engine && (engine->type() == QPaintEngine::Pdf || engine->type() == QPaintEngine::SVG);
    const Header h = header(scene() ? scene()->font() : QFont(), vectors ? 1.0 : lod);
    drawHeader(p, h, pal.text().color());
    p->setRenderHint(QPainter::Antialiasing, false); // the cells are axis-aligned rectangles
    for (std::size_t i = 0; i < mGpus.size() && i < 16; ++i) {
        const Gpu& g = mGpus[i];
        const QRectF cell = gpuCell(static_cast<int>(i));
        const double cellW = cell.width(), cellH = cell.height();
        p->setPen(g.oomRisk ? QPen(QColor("#8e1b10"), 3, Qt::DashLine) : QPen(pal.mid().color(), 1));
        p->setBrush(pal.alternateBase());
        p->drawRect(cell);
        for (const Slot& sl : g.slots) {
            const QRectF slot(cell.left() + 2 + sl.from * (cellW - 4), cell.top() + 2, sl.width * (cellW - 4) - 1,
                              cellH - 14);
            p->setPen(Qt::NoPen);
            p->setBrush(sl.tenant.isValid() ? sl.tenant : pal.window().color());
            p->drawRect(slot);
            if (sl.noisiest) {
                // The noisiest neighbour: an orange triangle in the slot's top-right corner.
                const double m = std::min({10.0, slot.width(), slot.height()});
                const QPointF corner = slot.topRight();
                p->setBrush(QColor("#f28e2b"));
                p->setPen(QPen(QColor("#8a4b08"), 1));
                p->drawPolygon(QPolygonF({corner, corner - QPointF(m, 0), corner + QPointF(0, m)}));
                p->setPen(Qt::NoPen);
            }
        }
        // Memory fill bar along the bottom of the cell.
        const QRectF bar(cell.left() + 2, cell.bottom() - 9, cellW - 4, 6);
        p->setBrush(pal.window().color());
        p->drawRect(bar);
        p->setBrush(g.memoryFill > 1.0 ? QColor("#e15759") : QColor("#4e79a7"));
        p->drawRect(QRectF(bar.left(), bar.top(), bar.width() * std::min(g.memoryFill, 1.0), bar.height()));
        if (g.oomRisk)
            drawOomMark(p, cell);
        if (mHighlighted.count(static_cast<int>(i))) {
            p->setPen(QPen(pal.highlight().color(), 4));
            p->setBrush(Qt::NoBrush);
            p->drawRect(cell.adjusted(-3, -3, 3, 3));
        }
    }
    drawPreview(p, r);
}

void NodeItem::drawOomMark(QPainter* p, const QRectF& cell)
{
    // A warning sign, not a red frame: a tenant may well be red.
    const double m = std::min(18.0, cell.height() * 0.45);
    const QPointF top(cell.left() + 3 + m / 2, cell.top() + 3);
    const QPolygonF sign({top, top + QPointF(m / 2, m), top + QPointF(-m / 2, m)});
    p->setRenderHint(QPainter::Antialiasing, true);
    p->setPen(QPen(QColor("#1a1a1a"), 1.2));
    p->setBrush(QColor("#f1c40f"));
    p->drawPolygon(sign);
    QFont f = p->font();
    f.setBold(true);
    f.setPixelSize(std::max(6, static_cast<int>(m * 0.7)));
    p->setFont(f);
    p->drawText(QRectF(top.x() - m / 2, top.y() + m * 0.2, m, m * 0.8), Qt::AlignCenter, QStringLiteral("!"));
    p->setRenderHint(QPainter::Antialiasing, false);
}

QRectF NodeItem::gpuCell(int i)
{
    // GPUs in a grid of four columns.
    constexpr int cols = 4;
    const double cellW = (kWidth - 20 - (cols - 1) * 6) / cols;
    constexpr double cellH = 52;
    return {10 + (i % cols) * (cellW + 6), 48 + (i / cols) * (cellH + 8), cellW, cellH};
}

std::optional<std::pair<int, int>> NodeItem::slotAt(QPointF local) const
{
    for (int i = 0; i < static_cast<int>(mGpus.size()) && i < 16; ++i) {
        const QRectF cell = gpuCell(i);
        if (!cell.contains(local))
            continue;
        const double fraction = (local.x() - cell.left() - 2) / (cell.width() - 4);
        const auto& slots = mGpus[static_cast<std::size_t>(i)].slots;
        for (int s = 0; s < static_cast<int>(slots.size()); ++s)
            if (fraction >= slots[static_cast<std::size_t>(s)].from &&
                fraction < slots[static_cast<std::size_t>(s)].from + slots[static_cast<std::size_t>(s)].width)
                return std::pair{i, s};
        return std::pair{i, -1};
    }
    return std::nullopt;
}

} // namespace gp::ui
