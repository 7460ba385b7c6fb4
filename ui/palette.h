#pragma once

#include "model/catalog.h"

#include <QListWidget>

namespace gp::ui {

/// Node and switch templates from the catalog, dragged onto the canvas to create items.
class Palette : public QListWidget
{
    Q_OBJECT

public:
    static constexpr const char* kMimeType = "application/x-gpuplan-template";
    explicit Palette(const Catalog& catalog, QWidget* parent = nullptr);

protected:
    QMimeData* mimeData(const QList<QListWidgetItem*>& items) const override;
    QStringList mimeTypes() const override { return {kMimeType}; }
};

} // namespace gp::ui
