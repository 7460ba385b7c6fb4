#include "canvasview.h"

#include "canvasscene.h"
#include "canvastools.h"
#include "ui/palette.h"

#include <QMimeData>

#include <QMouseEvent>

#include <algorithm>
#include <cmath>
#include <QWheelEvent>

namespace gp::ui {

CanvasView::CanvasView(CanvasScene* scene, QWidget* parent) : QGraphicsView(scene, parent), mScene(scene)
{
    setDragMode(QGraphicsView::RubberBandDrag);
    setRenderHint(QPainter::Antialiasing);
    setTransformationAnchor(QGraphicsView::AnchorUnderMouse);
    setViewportUpdateMode(QGraphicsView::SmartViewportUpdate);
    // Thousands of items: no painter save/restore around each (the items set what they use),
    // and no antialiasing margins in the exposed rectangles (bench_canvas, docs/performance.md).
    setOptimizationFlags(QGraphicsView::DontSavePainterState | QGraphicsView::DontAdjustForAntialiasing);
    setBackgroundBrush(palette().window());
    setAcceptDrops(true);
    mTools.push_back(std::make_unique<PanTool>(this));
    mTools.push_back(std::make_unique<ConnectTool>(this));
    mTools.push_back(std::make_unique<SelectTool>(this));
}

CanvasView::~CanvasView() = default;

void CanvasView::fitAll()
{
    const QRectF bounds = mScene->itemsBoundingRect();
    if (!bounds.isEmpty())
        fitInView(bounds.adjusted(-40, -40, 40, 40), Qt::KeepAspectRatio);
    syncDetail();
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

void CanvasView::paintEvent(QPaintEvent* event)
{
    syncDetail(); // whoever changed the transform
    QGraphicsView::paintEvent(event);
}

void CanvasView::syncDetail() { mScene->setLinkDetail(transform().m11() >= kLinkDetailScale); }

void CanvasView::zoomBy(double factor)
{
    stopAutoFit();
    const double current = transform().m11();
    const double next = std::clamp(current * factor, 0.005, 8.0);
    scale(next / current, next / current);
    syncDetail();
}

void CanvasView::wheelEvent(QWheelEvent* event)
{
    zoomBy(std::pow(1.0015, event->angleDelta().y()));
    event->accept();
}

void CanvasView::mousePressEvent(QMouseEvent* event)
{
    if (!mActive)
        for (const auto& tool : mTools)
            if (tool->press(event)) {
                mActive = tool.get();
                return;
            }
    if (!mActive)
        QGraphicsView::mousePressEvent(event);
}

void CanvasView::mouseMoveEvent(QMouseEvent* event)
{
    if (mActive)
        mActive->move(event);
    else
        QGraphicsView::mouseMoveEvent(event); // hover
}

void CanvasView::mouseReleaseEvent(QMouseEvent* event)
{
    if (!mActive) {
        QGraphicsView::mouseReleaseEvent(event);
        return;
    }
    if (event->buttons() != Qt::NoButton)
        return; // another button is still down: the gesture goes on
    CanvasTool* tool = mActive;
    mActive = nullptr;
    tool->release(event);
}

} // namespace gp::ui
