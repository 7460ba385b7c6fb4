// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#include "canvastools.h"

#include "canvaseditor.h"
#include "canvasscene.h"
#include "canvasview.h"

#include <QCursor>
#include <QGraphicsItem>
#include <QMouseEvent>
#include <QScrollBar>

namespace gp::ui {

bool PanTool::press(QMouseEvent* event)
{
    if (event->button() != Qt::MiddleButton)
        return false;
    mView->stopAutoFit();
    mLast = event->position().toPoint();
    mView->setCursor(Qt::ClosedHandCursor);
    event->accept();
    return true;
}

void PanTool::move(QMouseEvent* event)
{
    const QPoint delta = event->position().toPoint() - mLast;
    mLast = event->position().toPoint();
    mView->horizontalScrollBar()->setValue(mView->horizontalScrollBar()->value() - delta.x());
    mView->verticalScrollBar()->setValue(mView->verticalScrollBar()->value() - delta.y());
    event->accept();
}

void PanTool::release(QMouseEvent* event)
{
    mView->unsetCursor();
    event->accept();
}

void PanTool::abort() { mView->unsetCursor(); }

bool ConnectTool::press(QMouseEvent* event)
{
    if (event->button() != Qt::LeftButton || !(event->modifiers() & Qt::ShiftModifier))
        return false;
    CanvasScene* scene = mView->canvasScene();
    const QString id = scene->idAt(mView->mapToScene(event->position().toPoint()));
    if (id.isEmpty())
        return false; // Shift on empty space: the select tool's rubber band
    mFrom = id;
    mStart = scene->item(id)->sceneBoundingRect().center();
    mView->setPreviewLine(QLineF(mStart, mStart));
    event->accept();
    return true;
}

void ConnectTool::move(QMouseEvent* event)
{
    mView->setPreviewLine(QLineF(mStart, mView->mapToScene(event->position().toPoint())));
    event->accept();
}

void ConnectTool::release(QMouseEvent* event)
{
    mView->setPreviewLine(std::nullopt);
    const QString to = mView->canvasScene()->idAt(mView->mapToScene(event->position().toPoint()));
    const QString from = mFrom;
    mFrom.clear();
    event->accept();
    if (!to.isEmpty() && to != from && mView->editor())
        mView->editor()->addLink(from, to);
}

bool SelectTool::press(QMouseEvent* event)
{
    if (event->button() != Qt::LeftButton)
        return false;
    mDragging = mView->itemAt(event->position().toPoint()) != nullptr;
    mView->defaultMousePress(event); // QGraphicsView: selection, rubber band, item moves
    mStartPositions.clear();
    if (mDragging)
        for (const QString& id : mView->canvasScene()->selectedIds())
            if (QGraphicsItem* item = mView->canvasScene()->item(id))
                mStartPositions.emplace_back(id, item->pos());
    return true;
}

void ConnectTool::abort()
{
    mView->setPreviewLine(std::nullopt);
    mFrom.clear();
}

void SelectTool::move(QMouseEvent* event)
{
    mView->defaultMouseMove(event);
    if (mDragging)
        mView->canvasScene()->updateLinks(); // links follow the live preview
}

void SelectTool::release(QMouseEvent* event)
{
    mView->defaultMouseRelease(event);
    mStartPositions.clear();
    if (mDragging) {
        mDragging = false;
        if (mView->editor())
            mView->editor()->commitDrag();
    }
}

void SelectTool::abort()
{
    // QGraphicsView still thinks the button is down: a release with no button ends its drag
    // or rubber band without moving anything further.
    QMouseEvent up(QEvent::MouseButtonRelease, mView->viewport()->mapFromGlobal(QCursor::pos()),
                   mView->viewport()->mapToGlobal(mView->viewport()->mapFromGlobal(QCursor::pos())), Qt::LeftButton,
                   Qt::NoButton, Qt::NoModifier);
    mView->defaultMouseRelease(&up);
    for (const auto& [id, at] : mStartPositions) // by id: the scene may have been rebuilt meanwhile
        if (QGraphicsItem* item = mView->canvasScene()->item(id))
            item->setPos(at);
    mStartPositions.clear();
    mDragging = false;
    mView->canvasScene()->updateLinks();
}

} // namespace gp::ui
