// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#pragma once

#include "model/catalog.h"

#include <QListWidget>

namespace gp::ui {

/// Node and switch templates from the catalog, dragged onto the canvas to create items, and
/// job templates from the model presets ("job:<preset>", "job:" for a custom model), dropped
/// on a node to add a job pinned there or double-clicked to add one.
class Palette : public QListWidget
{
    Q_OBJECT

public:
    static constexpr const char* kMimeType = "application/x-gpuplan-template";
    explicit Palette(const Catalog& catalog, QWidget* parent = nullptr);

Q_SIGNALS:
    /// A template was double-clicked.
    void templateActivated(const QString& key);

protected:
    QMimeData* mimeData(const QList<QListWidgetItem*>& items) const override;
    QStringList mimeTypes() const override { return {kMimeType}; }
};

} // namespace gp::ui
