// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#pragma once

#include "canvastool.h"

#include <QPoint>

namespace gp::ui {

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

} // namespace gp::ui
