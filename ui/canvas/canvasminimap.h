// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#pragma once

#include "canvasoverlay.h"

#include <QPixmap>
#include <QRectF>
#include <QTimer>

namespace gp::ui {

/// The whole canvas in miniature with the part in view framed; a click or drag there moves
/// the view. Shown while the view does not show everything (and View > Show Minimap is on).
class CanvasMinimap : public CanvasOverlay
{
    Q_OBJECT

public:
    explicit CanvasMinimap(CanvasView* view);
    /// Whether the user wants it (it still hides while everything is in view).
    void setWanted(bool wanted);
    bool wanted() const { return mWanted; }
    /// The picture is drawn again (debounced) after the scene changes.
    void refresh();
    /// The view's visible area in minimap pixels.
    QRectF visibleFrame() const;

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;
    void paintEvent(QPaintEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;

private:
    void render();
    /// The largest the minimap may be on the view's canvas now.
    QSize maximumBox() const;
    void updateShown();
    void centreViewAt(QPointF minimapPos);
    QPointF toScene(QPointF minimapPos) const;

    QPixmap mPicture;
    QRectF mSceneArea; ///< the scene rectangle the picture shows
    QRectF mContent;   ///< the nodes' and switches' bounds when last measured
    bool mContentStale = true;
    bool mPictureStale = true;
    QTimer mDebounce;
    bool mWanted = true;
    QSize mBox; ///< the largest size when last drawn
};

} // namespace gp::ui
