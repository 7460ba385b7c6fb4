// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#pragma once

#include "model/clusterconfig.h"

#include <QByteArray>
#include <QString>

#include <string>
#include <utility>
#include <vector>

namespace gp::io {

/// The plan's sharing for NVIDIA KAI Scheduler (docs/export.md, "KAI Scheduler"), under kai/:
/// - queues.yaml: scheduling.run.ai/v2 Queues: one parent queue for the cluster and one leaf queue
///   per tenant, whose GPU quota (and limit) is what KAI charges for that tenant's pods below, with
///   the tenant's priority offset onto KAI's default queue priority;
/// - tenants/<tenant>.yaml: per job and node one pod template per kind of GPU unit KAI can put in
///   one pod (whole GPUs as nvidia.com/gpu, MIG instances as nvidia.com/mig-<profile>, shared GPUs
///   as the gpu-fraction or gpu-memory annotation with gpu-fraction-num-devices), each with the
///   queue label kai.scheduler/queue, schedulerName kai-scheduler and the node selector;
/// - README.md.
std::vector<std::pair<QString, QByteArray>> kaiFiles(const ClusterConfigPlan& plan, const std::string& scenarioName);

} // namespace gp::io
