// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#pragma once

#include "canvastool.h"

#include <QPointF>
#include <QString>

namespace gp::ui {

/// Shift + left button from a node or switch to another: links them (the editor's addLink),
/// with a dashed preview line while dragging.
class ConnectTool : public CanvasTool
{
public:
    using CanvasTool::CanvasTool;
    bool press(QMouseEvent* event) override;
    void move(QMouseEvent* event) override;
    void release(QMouseEvent* event) override;
    void abort() override;

private:
    QString mFrom;
    QPointF mStart; ///< the centre of the item the link starts at, in scene coordinates
};

} // namespace gp::ui
