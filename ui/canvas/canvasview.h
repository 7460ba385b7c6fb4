// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#pragma once

#include <QGraphicsView>
#include <QLineF>

#include <optional>

#include <memory>
#include <vector>

namespace gp::ui {

class CanvasEditor;
class CanvasScene;
class CanvasTool;

/// The view onto the cluster canvas. Mouse gestures go to its tools (canvastool.h): pan
/// (middle button), connect (Shift-drag between items) and select/move (left button: click,
/// Ctrl-click, rubber band, drag = one snapped move command on release). The wheel zooms
/// around the cursor, fitAll() frames everything, fitReadable() (a plan as it opens) frames as much
/// as it can with the nodes' names readable. Finished gestures and drops of palette
/// templates and jobs go to its editor (canvaseditor.h), which pushes them onto the document;
/// without an editor (a view that only shows) they change nothing.
class CanvasView : public QGraphicsView
{
    Q_OBJECT

public:
    static constexpr double kGrid = 20.0;
    /// Below this scale links are drawn as one batched layer (and nodes as summaries).
    static constexpr double kLinkDetailScale = 0.2;
    /// The scale of an empty canvas (a new plan): four nodes side by side fit 700 pixels.
    static constexpr double kEmptyScale = 0.5;
    static constexpr const char* kJobMimeType = "application/x-gpuplan-job";

    CanvasView(CanvasScene* scene, QWidget* parent = nullptr);
    ~CanvasView() override;
    CanvasScene* canvasScene() const { return mScene; }
    /// What the tools change the document through; null in a view that only shows.
    CanvasEditor* editor() const { return mEditor; }
    void setEditor(CanvasEditor* editor) { mEditor = editor; }
    /// Keeps its scene's items in step with the workbench's open document (rebuilt when another
    /// one opens, changed where an edit, undo or redo changed it; the scene, below the workbench,
    /// knows no workbench), registers the View menu's zoom and fit actions (ActionRegistry) and
    /// takes gestures only while the document may be edited.
    void follow(class Workbench& workbench);
    /// Frames every item, and keeps doing so when the view resizes until the user zooms or pans
    /// (View > Fit to View: the whole plan, however small it is drawn).
    void fitAll();
    /// Frames a plan as it opens: everything, where that leaves the nodes' names readable
    /// (NodeItem::readableScale: names at least 12 px, GPUs drawn); else the nodes alone where
    /// they fit; else the readable scale at the nodes' top-left (the first rack), centred across
    /// where they fit across, the rest a scroll away (the minimap shows where). Keeps doing so when
    /// the view resizes until the user zooms or pans (docs/user-guide.md, "Zoom and readable labels").
    void fitReadable();
    void zoomBy(double factor);
    /// Frames a part of the scene (a found node, a job's nodes), never closer than 1:1.
    void flyTo(const QRectF& sceneRect);
    /// Warnings drawn over the top-left corner of the view (unplaced jobs, out-of-memory
    /// risks), one per line; empty hides the box.
    void setWarnings(const QStringList& lines);
    QStringList warnings() const { return mWarnings; }
    /// The lines the box shows: all of them, or on a short canvas (under kShortCanvas pixels)
    /// one that counts them, so that the plan keeps the room (issue 36: four lines left a
    /// thumbnail on a 1366×768 screen). The Workloads table and the report list them all.
    QStringList shownWarnings() const;
    /// What an empty plan says where the canvas would be: how to start.
    static QString emptyPlanHint();
    static constexpr int kShortCanvas = 320;
    /// The warnings box's height with its margins, in viewport pixels (0 without warnings).
    int warningsHeight() const;
    /// Pixels at the bottom of the viewport that an overlay covers (the legend): fitAll()
    /// frames everything above them.
    void setReservedBottom(int pixels);
    /// The user took over the framing (zoom, pan): stop re-fitting on resize.
    void stopAutoFit() { mFraming = Framing::None; }
    /// QGraphicsView's own handling, for the select tool (selection, rubber band, item moves).
    void defaultMousePress(QMouseEvent* event) { QGraphicsView::mousePressEvent(event); }
    void defaultMouseMove(QMouseEvent* event) { QGraphicsView::mouseMoveEvent(event); }
    void defaultMouseRelease(QMouseEvent* event) { QGraphicsView::mouseReleaseEvent(event); }
    /// A line drawn over the scene while a gesture previews it (the connect tool's link), in
    /// scene coordinates; nullopt hides it. The view draws it, so no scene item can be left
    /// dangling when the scene rebuilds mid-gesture.
    void setPreviewLine(std::optional<QLineF> line);
    std::optional<QLineF> previewLine() const { return mPreview; }
    /// Whether a tool owns a gesture now (a button is down on the canvas).
    bool gestureActive() const { return mActive != nullptr; }

Q_SIGNALS:
    /// What the view shows changed (a pan, a zoom, a resize, a fit): the minimap follows.
    void visibleAreaChanged();
    /// Esc with no gesture in progress: let go of the highlight.
    void highlightDismissed();
    /// A double-click on a GPU of a node: explain that GPU.
    void gpuActivated(const QString& nodeId, int gpu);
    /// A right-click on a node, switch or link (its id; over a node's GPU, its index, else -1),
    /// or on empty canvas ("").
    void contextMenuRequested(const QString& id, int gpu, const QPoint& globalPos);

protected:
    void scrollContentsBy(int dx, int dy) override;
    void mouseDoubleClickEvent(QMouseEvent* event) override;
    void contextMenuEvent(QContextMenuEvent* event) override;
    void wheelEvent(QWheelEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;
    void mouseReleaseEvent(QMouseEvent* event) override;
    /// Esc aborts the gesture in progress (a drag goes back, a link is not made).
    void keyPressEvent(QKeyEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;
    void paintEvent(QPaintEvent* event) override;
    void drawForeground(QPainter* painter, const QRectF& rect) override;
    void dragEnterEvent(QDragEnterEvent* event) override;
    void dragMoveEvent(QDragMoveEvent* event) override;
    void dropEvent(QDropEvent* event) override;

private:
    /// Links as single items or one layer, by the current scale.
    void syncDetail();
    /// Frames again as last asked (fitAll or fitReadable) while the user has not taken over.
    void reframe();
    /// The part of the viewport a framing fills: below the warnings box, above the legend's band;
    /// `withoutScrollBars`: of the viewport as large as it is without scroll bars.
    QRectF framingArea(bool withoutScrollBars = false) const;
    /// The item id and GPU index under a viewport point ("" and -1 over nothing).
    std::pair<QString, int> hit(QPoint viewportPos) const;

    CanvasScene* mScene;
    CanvasEditor* mEditor = nullptr;
    /// How the view keeps framing the plan on resize until the user zooms or pans.
    enum class Framing
    {
        None,
        All,
        Readable
    };
    Framing mFraming = Framing::None;
    std::vector<std::unique_ptr<CanvasTool>> mTools; ///< offered each press in this order
    CanvasTool* mActive = nullptr;                   ///< the tool that owns the current gesture
    QStringList mWarnings;
    std::optional<QLineF> mPreview;
    std::optional<QRectF> mVisible; ///< the part of the scene in view while the scene rect changes
    int mReservedBottom = 0;
};

} // namespace gp::ui
