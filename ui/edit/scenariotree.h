// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#pragma once

#include "calc/evaluation.h"
#include "model/catalog.h"
#include "model/scenario.h"

#include <QTreeWidget>

namespace gp::ui {

/// A read-only outline of the open scenario: groups, nodes with their GPUs and sharing
/// configuration, switches, links, tenants and jobs. A view: rebuilt from the scenario.
class ScenarioTree : public QTreeWidget
{
    Q_OBJECT

public:
    explicit ScenarioTree(QWidget* parent = nullptr);
    /// Rebuilds the outline; each job shows its evaluation result (placement, memory, penalty).
    void showScenario(const Scenario& scenario, const Catalog& catalog, const calc::Evaluation& evaluation);
    /// Ids of the selected nodes (a selected GPU row counts for its node).
    QStringList selectedNodeIds() const;
};

/// "MIG 3g.40gb@0 + 4g.40gb@4", "time-slicing x4", ... for one GPU's sharing.
QString describeGpuSharing(const SharingConfig& sharing);

} // namespace gp::ui
