// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#pragma once

#include <QPoint>
#include <QPointF>
#include <QString>

#include <utility>
#include <vector>

class QMouseEvent;

namespace gp::ui {

class CanvasView;

/// A mouse gesture on the canvas (architecture.md §9.3: mouse logic lives in tools, not in item
/// event handlers). The view offers each press to its tools in order; the first that takes it
/// owns the gesture until the button is released.
class CanvasTool
{
public:
    explicit CanvasTool(CanvasView* view) : mView(view) {}
    virtual ~CanvasTool() = default;
    CanvasTool(const CanvasTool&) = delete;
    CanvasTool& operator=(const CanvasTool&) = delete;

    /// True when this tool takes the gesture that this press starts.
    virtual bool press(QMouseEvent* event) = 0;
    virtual void move(QMouseEvent* event) = 0;
    virtual void release(QMouseEvent* event) = 0;
    /// Esc during the gesture: undo whatever it showed; nothing is asked of the document.
    virtual void abort() = 0;

protected:
    CanvasView* mView;
};

/// Middle button: pans the view.
class PanTool : public CanvasTool
{
public:
    using CanvasTool::CanvasTool;
    bool press(QMouseEvent* event) override;
    void move(QMouseEvent* event) override;
    void release(QMouseEvent* event) override;
    void abort() override;

private:
    QPoint mLast;
};

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
