#include "canvasview.h"

#include "canvasscene.h"
#include "ui/palette.h"

#include <QMimeData>

#include <QGraphicsLineItem>
#include <QMouseEvent>

#include <algorithm>
#include <cmath>
#include <QScrollBar>
#include <QWheelEvent>

namespace gp::ui {

CanvasView::CanvasView(CanvasScene* scene, QWidget* parent) : QGraphicsView(scene, parent), mScene(scene)
{
    setDragMode(QGraphicsView::RubberBandDrag);
    setRenderHint(QPainter::Antialiasing);
    setTransformationAnchor(QGraphicsView::AnchorUnderMouse);
    setViewportUpdateMode(QGraphicsView::SmartViewportUpdate);
    setBackgroundBrush(palette().window());
    setAcceptDrops(true);
}

void CanvasView::fitAll()
{
    const QRectF bounds = mScene->itemsBoundingRect();
    if (!bounds.isEmpty())
        fitInView(bounds.adjusted(-40, -40, 40, 40), Qt::KeepAspectRatio);
    mAutoFit = true;
}

void CanvasView::dragEnterEvent(QDragEnterEvent* event)
{
    if (event->mimeData()->hasFormat(Palette::kMimeType) || event->mimeData()->hasFormat(kJobMimeType))
        event->acceptProposedAction();
}

void CanvasView::dragMoveEvent(QDragMoveEvent* event)
{
    if (event->mimeData()->hasFormat(Palette::kMimeType) || event->mimeData()->hasFormat(kJobMimeType))
        event->acceptProposedAction();
}

void CanvasView::dropEvent(QDropEvent* event)
{
    if (event->mimeData()->hasFormat(kJobMimeType)) {
        Q_EMIT jobDropped(QString::fromUtf8(event->mimeData()->data(kJobMimeType)),
                          mapToScene(event->position().toPoint()));
        event->acceptProposedAction();
        return;
    }
    if (!event->mimeData()->hasFormat(Palette::kMimeType))
        return;
    Q_EMIT templateDropped(QString::fromUtf8(event->mimeData()->data(Palette::kMimeType)),
                           mapToScene(event->position().toPoint()));
    event->acceptProposedAction();
}

void CanvasView::resizeEvent(QResizeEvent* event)
{
    QGraphicsView::resizeEvent(event);
    if (mAutoFit)
        fitAll();
}

void CanvasView::zoomBy(double factor)
{
    mAutoFit = false;
    const double current = transform().m11();
    const double next = std::clamp(current * factor, 0.005, 8.0);
    scale(next / current, next / current);
}

void CanvasView::wheelEvent(QWheelEvent* event)
{
    zoomBy(std::pow(1.0015, event->angleDelta().y()));
    event->accept();
}

void CanvasView::mousePressEvent(QMouseEvent* event)
{
    if (event->button() == Qt::MiddleButton) {
        mPanning = true;
        mAutoFit = false;
        mLastPan = event->position().toPoint();
        setCursor(Qt::ClosedHandCursor);
        event->accept();
        return;
    }
    if (event->button() == Qt::LeftButton && (event->modifiers() & Qt::ShiftModifier)) {
        const QString id = mScene->idAt(mapToScene(event->position().toPoint()));
        if (!id.isEmpty()) {
            mLinkFrom = id;
            const QPointF c = mScene->item(id)->sceneBoundingRect().center();
            mRubberLink = mScene->addLine(QLineF(c, c), QPen(palette().highlight().color(), 2, Qt::DashLine));
            event->accept();
            return;
        }
    }
    mDragging = event->button() == Qt::LeftButton && itemAt(event->position().toPoint()) != nullptr;
    QGraphicsView::mousePressEvent(event);
}

void CanvasView::mouseMoveEvent(QMouseEvent* event)
{
    if (mPanning) {
        const QPoint delta = event->position().toPoint() - mLastPan;
        mLastPan = event->position().toPoint();
        horizontalScrollBar()->setValue(horizontalScrollBar()->value() - delta.x());
        verticalScrollBar()->setValue(verticalScrollBar()->value() - delta.y());
        event->accept();
        return;
    }
    if (mRubberLink) {
        QLineF line = mRubberLink->line();
        line.setP2(mapToScene(event->position().toPoint()));
        mRubberLink->setLine(line);
        event->accept();
        return;
    }
    QGraphicsView::mouseMoveEvent(event);
    if (mDragging)
        mScene->updateLinks(); // links follow the live preview
}

void CanvasView::mouseReleaseEvent(QMouseEvent* event)
{
    if (mPanning && event->button() == Qt::MiddleButton) {
        mPanning = false;
        unsetCursor();
        event->accept();
        return;
    }
    if (mRubberLink && event->button() == Qt::LeftButton) {
        delete mRubberLink;
        mRubberLink = nullptr;
        const QString to = mScene->idAt(mapToScene(event->position().toPoint()));
        const QString from = mLinkFrom;
        mLinkFrom.clear();
        if (!to.isEmpty() && to != from)
            Q_EMIT linkRequested(from, to);
        event->accept();
        return;
    }
    QGraphicsView::mouseReleaseEvent(event);
    if (mDragging && event->button() == Qt::LeftButton) {
        mDragging = false;
        Q_EMIT dragFinished();
    }
}

} // namespace gp::ui
