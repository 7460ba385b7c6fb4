#pragma once

#include "model/catalog.h"
#include "model/scenario.h"

#include <QWidget>

class QComboBox;
class QLabel;
class QPushButton;
class QSpinBox;

namespace gp::ui {

/// Edits the sharing of the selected nodes — one node or many at once. It offers only what
/// fits their GPU: the vGPU profiles it has and the valid MIG layouts from the MIG placement
/// rules; the core's validation message shows inline and Apply stays off while it fails.
class Inspector : public QWidget
{
    Q_OBJECT

public:
    Inspector(const Catalog& catalog, QWidget* parent = nullptr);
    /// Shows the nodes `ids` of `scenario` (several GPU models: only modes they all support).
    void showNodes(const Scenario& scenario, const QStringList& ids);
    /// The configuration the controls describe now.
    SharingConfig sharing() const;
    QString message() const;
    bool canApply() const;
    /// For tests: choose mode/parameters as a user would.
    void choose(SharingMode mode, int replicasOrPct = 0, int layoutIndex = 0);

Q_SIGNALS:
    void applyRequested(const QStringList& ids, const SharingConfig& sharing);

private:
    void rebuildChoices();
    void revalidate();

    const Catalog& mCatalog;
    QStringList mIds;
    const GpuSpec* mGpu = nullptr; ///< common GPU model, or null when the selection mixes models
    QLabel* mTitle;
    QComboBox* mMode;
    QSpinBox* mAmount;
    QComboBox* mChoice; ///< vGPU profile or MIG layout
    QLabel* mMessage;
    QPushButton* mApply;
    std::vector<std::vector<MigInstance>> mLayouts;
};

} // namespace gp::ui
