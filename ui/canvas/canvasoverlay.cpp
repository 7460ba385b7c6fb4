// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#include "canvasoverlay.h"

#include "canvasview.h"

#include <QEvent>

namespace gp::ui {

CanvasOverlay::CanvasOverlay(CanvasView* view, Qt::Corner corner)
    : QWidget(view), mView(view), mViewport(view->viewport()), mCorner(corner)
{
    mViewport->installEventFilter(this);
}

bool CanvasOverlay::viewportResized(const QObject* watched, const QEvent* event) const
{
    return watched == mViewport && event->type() == QEvent::Resize;
}

void CanvasOverlay::place()
{
    const QRect area = mViewport->geometry();
    constexpr int kMargin = 8;
    const bool right = mCorner == Qt::TopRightCorner || mCorner == Qt::BottomRightCorner;
    const bool bottom = mCorner == Qt::BottomLeftCorner || mCorner == Qt::BottomRightCorner;
    move(right ? area.right() - width() - kMargin : area.left() + kMargin,
         bottom ? area.bottom() - height() - kMargin : area.top() + kMargin);
}

bool CanvasOverlay::eventFilter(QObject* watched, QEvent* event)
{
    if (viewportResized(watched, event))
        place();
    return QWidget::eventFilter(watched, event);
}

} // namespace gp::ui
