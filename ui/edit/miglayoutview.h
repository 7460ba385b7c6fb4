// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#pragma once

#include "model/gpuspec.h"
#include "model/sharing.h"

#include <QWidget>

#include <vector>

namespace gp::ui {

/// The visual MIG layout editor (docs/workbench.md, "MIG layouts"): a GPU's seven compute
/// slices (filled as far as the instances use them) over its eight memory slices, each instance
/// a block over the memory slices it takes, and below them one chip per profile of the GPU.
/// Drag a chip onto the slices to add an instance, or an instance to another start; while
/// dragging, the start slices the MIG placement rules allow are marked green and the block
/// shows where it would land (red where nothing may). Delete (or a double-click) removes the
/// selected instance. The view asks; the Inspector changes the layout and shows it again.
class MigLayoutView : public QWidget
{
    Q_OBJECT

public:
    explicit MigLayoutView(QWidget* parent = nullptr);
    void setGpu(const GpuSpec* gpu);
    void setInstances(std::vector<MigInstance> instances);
    const std::vector<MigInstance>& instances() const { return mInstances; }
    /// The selected instance (index), or -1.
    int selected() const { return mSelected; }
    /// Where memory slice `slice` is drawn, a profile's chip, an instance's block.
    QRect sliceRect(int slice) const;
    QRect chipRect(const QString& profile) const;
    QRect instanceRect(int index) const;
    /// The starts `profile` may take in the layout without instance `except` (-1: none left out).
    QList<int> validStarts(const QString& profile, int except = -1) const;
    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;
    bool hasHeightForWidth() const override { return true; }
    int heightForWidth(int width) const override;

Q_SIGNALS:
    void addRequested(const QString& profile, int start);
    void moveRequested(int index, int start);
    void removeRequested(int index);
    void selectionChanged(int index);

protected:
    void paintEvent(QPaintEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;
    void mouseReleaseEvent(QMouseEvent* event) override;
    void mouseDoubleClickEvent(QMouseEvent* event) override;
    void keyPressEvent(QKeyEvent* event) override;

private:
    const MigProfile* profile(const QString& name) const;
    /// The memory slice under an x position, clamped to 0..7.
    int sliceAt(int x) const;
    /// Where a drag of `profile` over `slice` would land: the latest allowed start whose block
    /// covers the slice, or -1.
    int landing(const QString& profile, int slice, int except) const;
    int instanceAt(QPoint at) const;
    QString chipAt(QPoint at) const;
    std::vector<std::pair<QString, QRect>> chips(int width) const;

    const GpuSpec* mGpu = nullptr;
    std::vector<MigInstance> mInstances;
    int mSelected = -1;
    struct Drag
    {
        QString profile;
        int from = -1; ///< the instance moved, -1 for a new one
        QPoint pressedAt;
        int target = -1; ///< start it would land on, -1 nowhere
        int hoverSlice = -1;
        bool moved = false;
    };
    std::optional<Drag> mDrag;
};

} // namespace gp::ui
