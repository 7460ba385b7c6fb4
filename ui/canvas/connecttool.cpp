// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#include "connecttool.h"

#include "canvaseditor.h"
#include "canvasscene.h"
#include "canvasview.h"

#include <QGraphicsItem>
#include <QMouseEvent>

namespace gp::ui {

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

void ConnectTool::abort()
{
    mView->setPreviewLine(std::nullopt);
    mFrom.clear();
}

} // namespace gp::ui
