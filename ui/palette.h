// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#pragma once

#include "model/catalog.h"

#include <QWidget>

class QLineEdit;
class QTreeWidget;
class QTreeWidgetItem;

namespace gp::ui {

/// The building blocks, in groups with icons and a filter field: GPU nodes by vendor and
/// architecture ("NVIDIA Hopper"), switches by fabric, and jobs (every model preset and a custom
/// model). Drag a node or switch onto the canvas to add it; drop a job on a node to add a job
/// pinned there, or double-click any entry ("node:<id>", "switch:<id>", "job:<preset>", "job:"
/// for a custom model) to add it.
class Palette : public QWidget
{
    Q_OBJECT

public:
    static constexpr const char* kMimeType = "application/x-gpuplan-template";
    explicit Palette(const Catalog& catalog, QWidget* parent = nullptr);
    /// Every entry's key, in order.
    QStringList keys() const;
    /// The keys the filter leaves visible.
    QStringList visibleKeys() const;
    /// The group titles the filter leaves visible.
    QStringList visibleGroups() const;
    QLineEdit* filter() const { return mFilter; }
    QTreeWidget* tree() const { return mTree; }
    /// The entry with this key (for a test's drag), or null.
    QTreeWidgetItem* entry(const QString& key) const;

Q_SIGNALS:
    /// An entry was double-clicked.
    void templateActivated(const QString& key);

private:
    void applyFilter(const QString& text);
    QTreeWidgetItem* group(const QString& title);

    QLineEdit* mFilter;
    QTreeWidget* mTree;
};

} // namespace gp::ui
