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

/// The ways the plan's sharing leaves for a cluster (docs/export.md).
enum class ClusterExportFormat
{
    GpuOperator, ///< clusterConfigFiles: mig-parted, device plugin, labels, tenants' pods
    Dra,         ///< draFiles: DRA objects for the NVIDIA DRA driver, under dra/
    Hami,        ///< hamiFiles: HAMi resource requests, under hami/
    Kai          ///< kaiFiles: KAI Scheduler queues and pod templates, under kai/
};

/// The files of each of `formats`, in that order.
std::vector<std::pair<QString, QByteArray>> clusterExportFiles(const ClusterConfigPlan& plan,
                                                               const std::string& scenarioName,
                                                               const std::vector<ClusterExportFormat>& formats);

} // namespace gp::io
