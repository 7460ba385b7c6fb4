// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#include "canvasminimap.h"

#include "canvasscene.h"
#include "canvasview.h"

#include <QMouseEvent>
#include <QPainter>

#include <algorithm>

namespace gp::ui {

CanvasMinimap::CanvasMinimap(CanvasView* view) : CanvasOverlay(view, Qt::BottomRightCorner)
{
    setObjectName("CanvasMinimap");
    setCursor(Qt::PointingHandCursor);
    setToolTip(tr("The whole canvas; click or drag to move the view"));
    setFixedSize(220, 140);
    mDebounce.setSingleShot(true);
    mDebounce.setInterval(250);
    connect(&mDebounce, &QTimer::timeout, this, [this] { render(); });
    connect(view->canvasScene(), &QGraphicsScene::changed, this, [this] { refresh(); });
    connect(view, &CanvasView::visibleAreaChanged, this, [this] {
        updateShown();
        update();
    });
    hide();
}

void CanvasMinimap::setWanted(bool wanted)
{
    mWanted = wanted;
    updateShown();
}

void CanvasMinimap::refresh()
{
    // Drawn again only while shown (a hidden minimap would render the scene for nothing);
    // updateShown() catches up when it appears.
    mContentStale = mPictureStale = true;
    if (isVisible() && !mDebounce.isActive())
        mDebounce.start();
}

void CanvasMinimap::render()
{
    if (!view()->scene())
        return;
    CanvasScene* scene = view()->canvasScene();
    const QRectF content = scene->contentBounds();
    mContent = content;
    mContentStale = mPictureStale = false;
    if (content.isEmpty()) {
        mPicture = QPixmap();
        updateShown();
        return;
    }
    mSceneArea = content.adjusted(-80, -40, 40, 40);
    // The widget takes the content's shape within 220 × 140, and within a third of a short or
    // narrow canvas's height and a quarter of its width (a 190-px canvas on a 1366×768 screen
    // kept 50 px of plan beside a full-size minimap).
    const QSize box = mBox = maximumBox();
    const double aspect = mSceneArea.width() / std::max(mSceneArea.height(), 1.0);
    const QSize size = aspect >= double(box.width()) / box.height()
                           ? QSize(box.width(), std::max(24, static_cast<int>(box.width() / aspect)))
                           : QSize(std::max(24, static_cast<int>(box.height() * aspect)), box.height());
    setFixedSize(size);
    mPicture = QPixmap(size * devicePixelRatioF());
    mPicture.setDevicePixelRatio(devicePixelRatioF());
    mPicture.fill(Qt::white);
    {
        QPainter p(&mPicture);
        scene->render(&p, QRectF(QPointF(0, 0), QSizeF(size)), mSceneArea, Qt::IgnoreAspectRatio);
    }
    place();
    updateShown();
    update();
}

QSize CanvasMinimap::maximumBox() const
{
    const QSize viewport = view()->viewport()->size();
    return {std::clamp(viewport.width() / 4, 60, 220), std::clamp(viewport.height() / 3, 40, 140)};
}

bool CanvasMinimap::eventFilter(QObject* watched, QEvent* event)
{
    // A resized canvas may want a smaller or larger minimap: drawn again at its next showing.
    if (viewportResized(watched, event) && maximumBox() != mBox) {
        mBox = maximumBox();
        refresh();
    }
    return CanvasOverlay::eventFilter(watched, event);
}

void CanvasMinimap::updateShown()
{
    CanvasView* v = view();
    if (!v->scene())
        return;
    // Called on every pan step: the content's bounds are measured again only after the scene changed.
    if (mContentStale) {
        mContent = v->canvasScene()->contentBounds();
        mContentStale = false;
    }
    const QRectF visible = v->mapToScene(v->viewport()->rect()).boundingRect();
    const bool needed = mWanted && !mContent.isEmpty() && !visible.contains(mContent);
    if (needed && !isVisible() && (mPicture.isNull() || mPictureStale)) {
        render(); // about to appear: with its picture, not blank for a moment (render shows it)
        return;
    }
    if (needed && mPictureStale && !mDebounce.isActive())
        mDebounce.start();
    setVisible(needed);
}

QRectF CanvasMinimap::visibleFrame() const
{
    if (mSceneArea.isEmpty())
        return {};
    const QRectF visible = view()->mapToScene(view()->viewport()->rect()).boundingRect();
    const double sx = width() / mSceneArea.width(), sy = height() / mSceneArea.height();
    return QRectF((visible.left() - mSceneArea.left()) * sx, (visible.top() - mSceneArea.top()) * sy,
                  visible.width() * sx, visible.height() * sy)
        .intersected(QRectF(rect()));
}

void CanvasMinimap::paintEvent(QPaintEvent*)
{
    QPainter p(this);
    p.fillRect(rect(), Qt::white);
    if (!mPicture.isNull())
        p.drawPixmap(0, 0, mPicture);
    p.setPen(QPen(palette().highlight().color(), 2));
    p.setBrush(QColor(61, 174, 233, 40));
    p.drawRect(visibleFrame());
    p.setPen(QPen(palette().mid().color(), 1));
    p.setBrush(Qt::NoBrush);
    p.drawRect(rect().adjusted(0, 0, -1, -1));
}

QPointF CanvasMinimap::toScene(QPointF at) const
{
    return {mSceneArea.left() + at.x() / width() * mSceneArea.width(),
            mSceneArea.top() + at.y() / height() * mSceneArea.height()};
}

void CanvasMinimap::centreViewAt(QPointF at)
{
    if (mSceneArea.isEmpty())
        return;
    view()->stopAutoFit();
    view()->centerOn(toScene(at));
}

void CanvasMinimap::mousePressEvent(QMouseEvent* event)
{
    centreViewAt(event->position());
    event->accept();
}

void CanvasMinimap::mouseMoveEvent(QMouseEvent* event)
{
    if (event->buttons() & Qt::LeftButton)
        centreViewAt(event->position());
    event->accept();
}

} // namespace gp::ui
