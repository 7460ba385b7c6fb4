// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#pragma once

#include "model/clusterconfig.h"

#include <QByteArray>
#include <QString>

#include <utility>
#include <vector>

namespace gp::io {

/// The plan's sharing as Kubernetes Dynamic Resource Allocation objects for the NVIDIA DRA driver
/// (docs/export.md, "DRA"), as relative paths and contents, all under dra/:
/// - tenants/<tenant>.yaml: the tenant's objects in its namespace: a ResourceClaimTemplate
///   (resource.k8s.io/v1) per job and distinct per-pod shape of whole GPUs (gpu.nvidia.com) and
///   MIG devices by profile (mig.nvidia.com); a ResourceClaim per time-sliced or MPS GPU only its
///   jobs share, carrying the driver's GpuConfig; a ComputeDomain (resource.nvidia.com/v1beta1)
///   per job with two or more trays in an NVLink domain (a GB200 NVL72 rack);
/// - shared.yaml: the ResourceClaims of GPUs that jobs of several tenants share (namespace
///   gpuplan-shared), when there are any;
/// - placement.yaml: per pod, its namespace, node selector and the `resourceClaims` its pod spec
///   lists; and what DRA cannot express, per node;
/// - README.md.
std::vector<std::pair<QString, QByteArray>> draFiles(const ClusterConfigPlan& plan, const std::string& scenarioName);

/// The namespace of a tenant's objects in the DRA and HAMi exports.
std::string tenantNamespace(const std::string& tenantId);

} // namespace gp::io
