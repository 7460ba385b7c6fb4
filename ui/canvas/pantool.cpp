// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#include "pantool.h"

#include "canvasview.h"

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

} // namespace gp::ui
