// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#include "canvasview.h"

#include "canvaseditor.h"
#include "canvasscene.h"
#include "connecttool.h"
#include "linkitem.h"
#include "nodeitem.h"
#include "pantool.h"
#include "selecttool.h"
#include "switchitem.h"

#include "ui/actionregistry.h"
#include "ui/palette.h"
#include "ui/workbench.h"

#include <QAction>
#include <QContextMenuEvent>
#include <QKeyEvent>
#include <QMimeData>
#include <QMouseEvent>
#include <QScrollBar>
#include <QWheelEvent>

#include <algorithm>
#include <cmath>

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
    // An edit that grows or shrinks the scene must not move what the user looks at: the view
    // keeps showing the same part of the scene (its own scene rect covers what was visible, so
    // a scene smaller than the view is not re-centred), unless it is still framing everything.
    connect(scene, &CanvasScene::sceneRectAboutToChange, this,
            [this] { mVisible = mapToScene(viewport()->rect()).boundingRect(); });
    connect(scene, &QGraphicsScene::sceneRectChanged, this, [this](const QRectF& rect) {
        if (mFraming != Framing::None) {
            reframe();
        } else if (mVisible) {
            setSceneRect(rect.united(*mVisible));
            // Scroll back by whole pixels so that what was at the top left is there again.
            const QPoint drift = mapFromScene(mVisible->topLeft());
            horizontalScrollBar()->setValue(horizontalScrollBar()->value() + drift.x());
            verticalScrollBar()->setValue(verticalScrollBar()->value() + drift.y());
        }
        mVisible.reset();
    });
    mTools.push_back(std::make_unique<PanTool>(this));
    mTools.push_back(std::make_unique<ConnectTool>(this));
    mTools.push_back(std::make_unique<SelectTool>(this));
}

CanvasView::~CanvasView()
{
    // The overlays (legend, minimap, search) ask this view things when they hide or see its
    // viewport's events: they go while it is whole.
    const QObjectList kids = children(); // a copy: each delete changes the list
    for (QObject* child : kids)
        if (child->inherits("gp::ui::CanvasOverlay"))
            delete child;
}

void CanvasView::flyTo(const QRectF& sceneRect)
{
    stopAutoFit();
    const QRectF target = sceneRect.adjusted(-120, -120, 120, 120);
    fitInView(target, Qt::KeepAspectRatio);
    if (transform().m11() > 1.0) {
        const QPointF centre = target.center();
        setTransform(QTransform());
        centerOn(centre);
    }
    syncDetail();
    Q_EMIT visibleAreaChanged();
}

void CanvasView::scrollContentsBy(int dx, int dy)
{
    QGraphicsView::scrollContentsBy(dx, dy);
    if (scene()) // not while the scene goes
        Q_EMIT visibleAreaChanged();
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
    const QPointF at = mapToScene(event->position().toPoint());
    stopAutoFit(); // the user places things now: keep the view where it is
    if (event->mimeData()->hasFormat(kJobMimeType)) {
        if (mEditor)
            mEditor->pinJobAt(QString::fromUtf8(event->mimeData()->data(kJobMimeType)), at);
        event->acceptProposedAction();
        return;
    }
    if (!event->mimeData()->hasFormat(Palette::kMimeType))
        return;
    if (mEditor)
        mEditor->addFromTemplate(QString::fromUtf8(event->mimeData()->data(Palette::kMimeType)), at);
    event->acceptProposedAction();
}

void CanvasView::resizeEvent(QResizeEvent* event)
{
    QGraphicsView::resizeEvent(event);
    reframe();
    Q_EMIT visibleAreaChanged();
}

void CanvasView::paintEvent(QPaintEvent* event)
{
    syncDetail(); // whoever changed the transform
    QGraphicsView::paintEvent(event);
}

void CanvasView::setWarnings(const QStringList& lines)
{
    if (lines == mWarnings)
        return;
    mWarnings = lines;
    viewport()->update();
    reframe(); // room for the box
}

void CanvasView::setReservedBottom(int pixels)
{
    if (pixels == mReservedBottom)
        return;
    mReservedBottom = pixels;
    reframe();
}

QStringList CanvasView::shownWarnings() const
{
    // Measured without the scroll bars, which come and go as the view frames the plan.
    if (mWarnings.size() <= 1 || maximumViewportSize().height() >= kShortCanvas)
        return mWarnings;
    return {tr("⚠ %1 warnings — the first: %2").arg(mWarnings.size()).arg(mWarnings.front().mid(2))};
}

QString CanvasView::emptyPlanHint()
{
    return tr("An empty plan: drag a GPU node or a switch from the Palette onto the canvas (or double-click "
              "it), Shift-drag from one to another to link them, then add jobs with Edit > Add Job (Ctrl+J).");
}

int CanvasView::warningsHeight() const
{
    const QStringList shown = shownWarnings();
    return shown.isEmpty() ? 0 : QFontMetrics(font()).lineSpacing() * static_cast<int>(shown.size()) + 22;
}

void CanvasView::setPreviewLine(std::optional<QLineF> line)
{
    mPreview = line;
    viewport()->update();
}

void CanvasView::keyPressEvent(QKeyEvent* event)
{
    if (event->key() == Qt::Key_Escape && mActive) {
        CanvasTool* tool = mActive;
        mActive = nullptr;
        tool->abort();
        event->accept();
        return;
    }
    if (event->key() == Qt::Key_Escape) {
        Q_EMIT highlightDismissed();
        event->accept();
        return;
    }
    QGraphicsView::keyPressEvent(event);
}

void CanvasView::drawForeground(QPainter* p, const QRectF&)
{
    if (mPreview) {
        p->save();
        p->setPen(QPen(palette().highlight().color(), 2 / std::max(transform().m11(), 1e-3), Qt::DashLine));
        p->drawLine(*mPreview);
        p->restore();
    }
    if (mScene && mScene->holdsNothing()) { // nothing yet: how to start, centred
        p->save();
        p->resetTransform();
        p->setPen(palette().placeholderText().color());
        p->drawText(viewport()->rect().adjusted(40, 20, -40, -20), Qt::AlignCenter | Qt::TextWordWrap, emptyPlanHint());
        p->restore();
    }
    const QStringList shown = shownWarnings();
    if (shown.isEmpty())
        return;
    p->save();
    p->resetTransform(); // viewport pixels: the box stays put while the canvas pans and zooms
    p->setRenderHint(QPainter::Antialiasing, true);
    QFont f = font();
    p->setFont(f);
    const QFontMetrics fm(f);
    int width = 0;
    for (const QString& line : shown)
        width = std::max(width, fm.horizontalAdvance(line));
    width = std::min(width, viewport()->width() - 40);
    const QRect box(10, 10, width + 20, fm.lineSpacing() * static_cast<int>(shown.size()) + 12);
    p->setPen(QPen(QColor("#c0392b"), 1.5));
    p->setBrush(QColor(255, 240, 238, 235));
    p->drawRoundedRect(box, 6, 6);
    p->setPen(QColor("#8e1b10"));
    for (int i = 0; i < static_cast<int>(shown.size()); ++i)
        p->drawText(QRect(box.left() + 10, box.top() + 6 + i * fm.lineSpacing(), width, fm.lineSpacing()),
                    Qt::AlignLeft | Qt::AlignVCenter, fm.elidedText(shown[i], Qt::ElideRight, width));
    p->restore();
}

std::pair<QString, int> CanvasView::hit(QPoint at) const
{
    const QPointF scenePos = mapToScene(at);
    for (QGraphicsItem* item : items(at)) {
        if (auto* node = qgraphicsitem_cast<NodeItem*>(item)) {
            const auto slot = node->slotAt(node->mapFromScene(scenePos));
            return {node->id(), slot ? slot->first : -1};
        }
        if (auto* sw = qgraphicsitem_cast<SwitchItem*>(item))
            return {sw->id(), -1};
        if (auto* link = qgraphicsitem_cast<LinkItem*>(item); link && link->isVisible())
            return {link->id(), -1};
    }
    return {QString(), -1};
}

void CanvasView::mouseDoubleClickEvent(QMouseEvent* event)
{
    const auto [id, gpu] = hit(event->position().toPoint());
    if (gpu >= 0 && event->button() == Qt::LeftButton) {
        Q_EMIT gpuActivated(id, gpu);
        event->accept();
        return;
    }
    QGraphicsView::mouseDoubleClickEvent(event);
}

void CanvasView::contextMenuEvent(QContextMenuEvent* event)
{
    if (mActive)
        return; // a gesture is in progress
    const auto [id, gpu] = hit(event->pos());
    // A right-click on something not selected selects it alone, as file managers do.
    if (!id.isEmpty() && !mScene->selectedIds().contains(id))
        mScene->setSelectedIds({id});
    Q_EMIT contextMenuRequested(id, gpu, event->globalPos());
    event->accept();
}

void CanvasView::syncDetail() { mScene->setLinkDetail(transform().m11() >= kLinkDetailScale); }

void CanvasView::follow(Workbench& workbench)
{
    connect(&workbench, &Workbench::documentReplaced, this, [this, &workbench] {
        if (const document::Document* doc = workbench.document())
            mScene->rebuild(doc->scenario());
    });
    connect(&workbench, &Workbench::documentChanged, this, [this, &workbench](const document::Changes& changes) {
        mScene->applyChanges(workbench.document()->scenario(), changes);
    });
    ActionRegistry& actions = workbench.actions();
    connect(actions.add(ActionId::ZoomIn, tr("Zoom &In"), QKeySequence::ZoomIn, false), &QAction::triggered, this,
            [this] { zoomBy(1.25); });
    connect(actions.add(ActionId::ZoomOut, tr("Zoom &Out"), QKeySequence::ZoomOut, false), &QAction::triggered, this,
            [this] { zoomBy(0.8); });
    connect(actions.add(ActionId::FitToView, tr("&Fit to View"), QKeySequence(tr("Ctrl+0")), false),
            &QAction::triggered, this, [this] { fitAll(); });
    connect(&workbench, &Workbench::editableChanged, this, &QGraphicsView::setInteractive);
}

void CanvasView::zoomBy(double factor)
{
    stopAutoFit();
    const double current = transform().m11();
    const double next = std::clamp(current * factor, 0.005, 8.0);
    scale(next / current, next / current);
    syncDetail();
    Q_EMIT visibleAreaChanged();
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
