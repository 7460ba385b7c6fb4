// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#include "canvastools.h"

#include "canvasscene.h"
#include "canvasview.h"

#include <QGraphicsLineItem>
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

ConnectTool::~ConnectTool() { delete mPreview; }

bool ConnectTool::press(QMouseEvent* event)
{
    if (event->button() != Qt::LeftButton || !(event->modifiers() & Qt::ShiftModifier))
        return false;
    CanvasScene* scene = mView->canvasScene();
    const QString id = scene->idAt(mView->mapToScene(event->position().toPoint()));
    if (id.isEmpty())
        return false; // Shift on empty space: the select tool's rubber band
    mFrom = id;
    const QPointF c = scene->item(id)->sceneBoundingRect().center();
    mPreview = scene->addLine(QLineF(c, c), QPen(mView->palette().highlight().color(), 2, Qt::DashLine));
    event->accept();
    return true;
}

void ConnectTool::move(QMouseEvent* event)
{
    QLineF line = mPreview->line();
    line.setP2(mView->mapToScene(event->position().toPoint()));
    mPreview->setLine(line);
    event->accept();
}

void ConnectTool::release(QMouseEvent* event)
{
    delete mPreview;
    mPreview = nullptr;
    const QString to = mView->canvasScene()->idAt(mView->mapToScene(event->position().toPoint()));
    const QString from = mFrom;
    mFrom.clear();
    event->accept();
    if (!to.isEmpty() && to != from)
        Q_EMIT mView->linkRequested(from, to);
}

bool SelectTool::press(QMouseEvent* event)
{
    if (event->button() != Qt::LeftButton)
        return false;
    mDragging = mView->itemAt(event->position().toPoint()) != nullptr;
    mView->defaultMousePress(event); // QGraphicsView: selection, rubber band, item moves
    return true;
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
    if (mDragging) {
        mDragging = false;
        Q_EMIT mView->dragFinished();
    }
}

} // namespace gp::ui
