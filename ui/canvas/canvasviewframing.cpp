// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
// How the canvas view frames the plan: everything (View > Fit to View), or as much as keeps the
// nodes' names readable (how a plan opens; issue 36, docs/user-guide.md "Zoom and readable
// labels").
#include "canvasscene.h"
#include "canvasview.h"
#include "nodeitem.h"

#include <algorithm>

namespace gp::ui {

QRectF CanvasView::framingArea(bool withoutScrollBars) const
{
    // Everything in view below the warnings box, which would hide the top row otherwise. The
    // legend's band is kept free only while that leaves most of the height.
    const QRectF shown = withoutScrollBars ? QRectF(QPointF(0, 0), QSizeF(maximumViewportSize())) : viewport()->rect();
    const int bottom = mReservedBottom < shown.height() / 3 ? mReservedBottom : 0;
    return shown.adjusted(0, warningsHeight(), 0, -bottom);
}

void CanvasView::fitAll()
{
    setSceneRect(QRectF()); // follow the scene's own rectangle again
    const QRectF content = mScene->contentBounds();
    const QRectF bounds = content.adjusted(-40, -40, 40, 40);
    if (content.isNull()) {
        // An empty plan: a scale at which a few nodes side by side fit, around the origin.
        setTransform(QTransform::fromScale(kEmptyScale, kEmptyScale));
        centerOn(0.0, 0.0);
    } else {
        const QRectF area = framingArea();
        const double s = std::min(area.width() / bounds.width(), area.height() / std::max(bounds.height(), 1.0));
        if (s > 0.0) {
            setTransform(QTransform::fromScale(s, s));
            centerOn(bounds.center() + (QRectF(viewport()->rect()).center() - area.center()) / s);
        }
    }
    syncDetail();
    mFraming = Framing::All;
    Q_EMIT visibleAreaChanged();
}

void CanvasView::fitReadable()
{
    fitAll();
    mFraming = Framing::Readable;
    const QRectF nodes = mScene->nodeBounds();
    if (nodes.isNull())
        return; // no node to read
    // What fits is measured as if the scroll bars were hidden: they come and go with the scale,
    // and a choice that depends on them flips back and forth.
    const double readable = NodeItem::readableScale(mScene->font());
    const QRectF area = framingArea(true);
    const QRectF everything = mScene->contentBounds().adjusted(-40, -40, 40, 40);
    if (std::min(area.width() / everything.width(), area.height() / everything.height()) >= readable) {
        if (transform().m11() < readable) { // a scroll bar's width short: readable all the same
            const QPointF centre = mapToScene(viewport()->rect().center());
            setTransform(QTransform::fromScale(readable, readable));
            centerOn(centre);
            syncDetail();
            Q_EMIT visibleAreaChanged();
        }
        return; // everything in view, readable
    }
    // The nodes alone, at most 1:1, where they fit readable; else the readable scale.
    const QRectF around = nodes.adjusted(-40, -40, 40, 40);
    const double fit = std::min(area.width() / around.width(), area.height() / around.height());
    const double s = std::max(readable, std::min(fit, 1.0));
    setTransform(QTransform::fromScale(s, s));
    // Centred on the nodes along a direction where they fit; from their start (the first rack,
    // the top row) where they do not.
    const QSizeF shown = area.size() / s;
    const QPointF centre(around.width() <= shown.width() ? around.center().x() : around.left() + shown.width() / 2,
                         around.height() <= shown.height() ? around.center().y() : around.top() + shown.height() / 2);
    centerOn(centre + (QRectF(viewport()->rect()).center() - area.center()) / s);
    syncDetail();
    Q_EMIT visibleAreaChanged();
}

void CanvasView::reframe()
{
    if (mFraming == Framing::All)
        fitAll();
    else if (mFraming == Framing::Readable)
        fitReadable();
}

} // namespace gp::ui
