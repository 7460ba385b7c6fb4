// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#pragma once

#include "canvastool.h"

#include <QPointF>
#include <QString>

#include <utility>
#include <vector>

namespace gp::ui {

/// Left button: click and Ctrl-click select, a drag on empty space selects with a rubber
/// band, a drag on items moves them (links follow live; the editor's one move command on release).
class SelectTool : public CanvasTool
{
public:
    using CanvasTool::CanvasTool;
    bool press(QMouseEvent* event) override;
    void move(QMouseEvent* event) override;
    void release(QMouseEvent* event) override;
    /// Puts the dragged items back where they were when the drag began.
    void abort() override;

private:
    bool mDragging = false;
    std::vector<std::pair<QString, QPointF>> mStartPositions; ///< of the items a drag moves, by id
};

} // namespace gp::ui
