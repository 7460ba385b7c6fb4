// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#pragma once

#include "filewriter.h"
#include "model/clusterconfig.h"
#include "model/issue.h"

#include <QByteArray>
#include <QString>

#include <utility>
#include <vector>

namespace gp::io {

/// The files of a cluster-configuration export (docs/export.md), as relative paths and
/// contents: mig-parted.yaml (MIG layouts), device-plugin-config.yaml (a ConfigMap of
/// time-slicing and MPS configurations for the GPU Operator's device plugin), node-labels.yaml,
/// tenants/<tenant>.yaml (pods' node selectors and resource limits) and README.md (how to
/// apply them, and what they cannot express). Paths never leave the export folder: tenant
/// ids are reduced to letters, digits, '-', '_' and '.'.
std::vector<std::pair<QString, QByteArray>> clusterConfigFiles(const ClusterConfigPlan& plan,
                                                               const std::string& scenarioName);

} // namespace gp::io
