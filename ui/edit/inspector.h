// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#pragma once

#include "model/catalog.h"
#include "model/scenario.h"

#include <QWidget>

class QComboBox;
class QGroupBox;
class QLabel;
class QPushButton;
class QSpinBox;

namespace gp::ui {

/// Edits the sharing of the selected nodes — one node or many at once, or one GPU of a node
/// (a per-GPU override). It offers only what fits their GPU: the vGPU profiles it has, the
/// valid maximal MIG layouts as presets, and a MIG layout editor whose profile and start-slice
/// choices are only those the MIG placement rules allow next to the instances already laid
/// out; the core's validation message shows inline and Apply stays off while it fails.
class Inspector : public QWidget
{
    Q_OBJECT

public:
    Inspector(const Catalog& catalog, QWidget* parent = nullptr);
    /// The Inspector dock's contents: `properties` over `sharing` ("Properties", "GPU sharing"),
    /// scrolled vertically, the wheel scrolling the pane rather than the field under it.
    /// One subject at a time (issue 36): the GPU-sharing box hides while the properties show a job
    /// or a tenant.
    static QWidget* pane(class PropertiesPanel* properties, Inspector* sharing);
    /// Follows the workbench's document and the nodes selected on `scene` from now on.
    void follow(class Workbench& workbench, class CanvasScene* scene);
    /// Shows the nodes `ids` of `scenario` (several GPU models: only modes they all support).
    void showNodes(const Scenario& scenario, const QStringList& ids);
    /// The configuration the controls describe now.
    SharingConfig sharing() const;
    QString message() const;
    bool canApply() const;
    /// For tests: choose mode/parameters as a user would.
    void choose(SharingMode mode, int replicasOrPct = 0, int layoutIndex = 0);
    /// Edit one GPU of a single selected node (-1: the whole node, the default).
    void chooseGpu(int gpuIndex);
    /// The MIG editor: profiles that can still be added to the layout being edited, and the
    /// start slices a profile may take now.
    QStringList addableProfiles() const;
    QList<int> startsFor(const QString& profile) const;
    /// Adds an instance through the editor (false when the rules do not allow it there).
    bool addInstance(const QString& profile, int start);
    void removeInstance(int index);
    /// Moves an instance to another start (false, and nothing changed, when the rules forbid it).
    bool moveInstance(int index, int start);
    class MigLayoutView* migView() const { return mMigView; }
    /// Presses Apply.
    void apply();

Q_SIGNALS:
    void applyRequested(const QStringList& ids, const SharingConfig& sharing);
    /// One GPU's own sharing (an override of the node's).
    void applyGpuRequested(const QString& nodeId, int gpuIndex, const SharingConfig& sharing);

private:
    void rebuildChoices();
    void revalidate();
    void loadSharing(const SharingConfig& sharing);
    void refreshMigEditor();
    void refreshStarts();

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
    std::vector<Node> mNodes; ///< the selected nodes as shown
    QComboBox* mGpuChoice;    ///< whole node, or one GPU
    QGroupBox* mMigBox;
    class MigLayoutView* mMigView;
    QComboBox* mAddProfile;
    QComboBox* mAddStart;
    QPushButton* mAdd;
    QPushButton* mRemove;
    std::vector<MigInstance> mMigLayout; ///< the MIG layout being edited
};

} // namespace gp::ui
