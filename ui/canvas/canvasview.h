#pragma once

#include <QGraphicsView>

class QGraphicsLineItem;

namespace gp::ui {

class CanvasScene;

/// The view onto the cluster canvas, acting as the select-and-move tool: click and Ctrl-click
/// select, drag on empty space rubber-band selects, dragging items moves them (one command on
/// release, snapped to the grid), the wheel zooms around the cursor, the middle button pans,
/// and fitAll() frames everything.
class CanvasView : public QGraphicsView
{
    Q_OBJECT

public:
    static constexpr double kGrid = 20.0;
    static constexpr const char* kJobMimeType = "application/x-gpuplan-job";

    CanvasView(CanvasScene* scene, QWidget* parent = nullptr);
    /// Frames every item, and keeps doing so when the view resizes until the user zooms or pans.
    void fitAll();
    void zoomBy(double factor);

Q_SIGNALS:
    /// A drag of items ended: the scene's items may now differ from the model.
    void dragFinished();
    /// A palette template ("node:<id>" or "switch:<id>") was dropped at a scene position.
    void templateDropped(const QString& key, QPointF scenePos);
    /// A job from the workloads panel was dropped at a scene position (to pin it there).
    void jobDropped(const QString& jobId, QPointF scenePos);
    /// Shift-drag from one item to another asks for a link between them.
    void linkRequested(const QString& fromId, const QString& toId);

protected:
    void wheelEvent(QWheelEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;
    void mouseReleaseEvent(QMouseEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;
    void dragEnterEvent(QDragEnterEvent* event) override;
    void dragMoveEvent(QDragMoveEvent* event) override;
    void dropEvent(QDropEvent* event) override;

private:
    CanvasScene* mScene;
    bool mPanning = false;
    bool mDragging = false;
    bool mAutoFit = false; ///< keep framing everything on resize until the user zooms or pans
    QString mLinkFrom;                     ///< Shift-drag: the item a new link starts at
    QGraphicsLineItem* mRubberLink = nullptr; ///< its preview
    QPoint mLastPan;
};

} // namespace gp::ui
