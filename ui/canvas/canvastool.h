// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#pragma once

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

} // namespace gp::ui
