// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#pragma once

#include <QWidget>

namespace gp::ui {

class CanvasView;

/// A widget that floats over a corner of the canvas view's viewport and stays there when the
/// view resizes (the legend, the minimap, the search field).
class CanvasOverlay : public QWidget
{
    Q_OBJECT

public:
    CanvasOverlay(CanvasView* view, Qt::Corner corner);
    /// Puts it back into its corner (after its size changed).
    void place();

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;
    CanvasView* view() const { return mView; }
    /// Whether `event` on `watched` is the view's viewport resizing (compared by the pointer
    /// kept at construction: the filter also sees events while the view is being destroyed).
    bool viewportResized(const QObject* watched, const QEvent* event) const;

private:
    CanvasView* mView;
    QWidget* mViewport;
    Qt::Corner mCorner;
};

} // namespace gp::ui
