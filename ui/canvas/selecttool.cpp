// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#include "selecttool.h"

#include "canvaseditor.h"
#include "canvasscene.h"
#include "canvasview.h"

#include <QCursor>
#include <QGraphicsItem>
#include <QMouseEvent>

namespace gp::ui {

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
