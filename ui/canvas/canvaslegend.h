// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#pragma once

#include "canvasoverlay.h"
#include "model/sharing.h"

#include <QColor>
#include <QRect>
#include <QString>
#include <QStringList>

#include <vector>

namespace gp::ui {

/// What the canvas's colours and marks mean: the tenants' colours, the sharing badges of the
/// modes the plan uses, the link loads, the out-of-memory sign, the noisiest-neighbour corner
/// and the highlight. A click on its title folds it to one line and back.
class CanvasLegend : public CanvasOverlay
{
    Q_OBJECT

public:
    struct Tenant
    {
        QString name;
        QColor color;
    };
    /// Until the user folds or unfolds it (remembered), a canvas shorter than this starts folded.
    static constexpr int kUnfoldedFrom = 480;
    explicit CanvasLegend(CanvasView* view);
    void setContent(std::vector<Tenant> tenants, std::vector<SharingMode> modes);
    bool collapsed() const { return mCollapsed; }
    void setCollapsed(bool collapsed);
    /// The text of every entry, in order (what a reader of the legend sees).
    QStringList entries() const;
    /// The title's rectangle, in the legend's coordinates (what a click folds it with).
    QRect titleRect() const;

protected:
    void paintEvent(QPaintEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
    bool eventFilter(QObject* watched, QEvent* event) override;
    void showEvent(QShowEvent* event) override;
    void hideEvent(QHideEvent* event) override;

private:
    /// Tells the view how much of its bottom the legend covers (fitAll keeps it free).
    void reserve();
    enum class Mark
    {
        Title,
        Swatch,
        Badge,
        Line,
        Sign,
        Corner,
        Frame
    };
    struct Entry
    {
        Mark mark;
        QColor color;
        QString text;
        QString badge;
        bool newLine = false; ///< starts a line (a group)
        QRect rect;           ///< laid out
    };
    void relayout();

    std::vector<Entry> mEntries;
    bool mCollapsed = false;
    bool mUserFolded = false; ///< until the user folds or unfolds it, a short view folds it
};

} // namespace gp::ui
