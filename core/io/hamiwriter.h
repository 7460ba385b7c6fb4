// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#pragma once

#include "model/clusterconfig.h"

#include <QByteArray>
#include <QString>

#include <utility>
#include <vector>

namespace gp::io {

/// The plan's sharing as HAMi resource requests (docs/export.md, "HAMi"), under hami/: per tenant
/// (tenants/<tenant>.yaml) one pod per job and node with its node selector, the annotations HAMi
/// reads (nvidia.com/use-gputype, nvidia.com/vgpu-mode) and one container per kind of unit with
/// the resource limits HAMi's scheduler and device plugin read: nvidia.com/gpu, nvidia.com/gpumem
/// (MiB per GPU), nvidia.com/gpumem-percentage, nvidia.com/gpucores (% of the GPU's SMs) and
/// nvidia.com/mig-<profile>; and README.md.
std::vector<std::pair<QString, QByteArray>> hamiFiles(const ClusterConfigPlan& plan, const std::string& scenarioName);

} // namespace gp::io
