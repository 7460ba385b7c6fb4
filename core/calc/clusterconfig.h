// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#pragma once

#include "evaluation.h"
#include "model/catalog.h"
#include "model/clusterconfig.h"
#include "model/scenario.h"

namespace gp::calc {

/// The sharing plan of `scenario` as GPU Operator configuration (docs/export.md): one
/// mig-parted configuration per distinct MIG layout of a node (instance counts per GPU group;
/// mig-parted chooses the placements), one device-plugin configuration per time-slicing
/// replica count and MPS client count, per node the labels that select them and the tenants
/// that run there, and per tenant one pod per job and node with the resources its units use
/// in `evaluation`'s placement. What the configuration cannot express (per-GPU time-slicing,
/// vGPU, passthrough, MPS memory limits other than an equal split) is listed in notes. Each pod
/// also carries its units by kind (whole GPUs, MIG instances, shared GPUs with their setting) and
/// each job on two or more trays of an NVLink domain a ComputeDomain, for the DRA and HAMi exports.
ClusterConfigPlan buildClusterConfig(const Scenario& scenario, const Catalog& catalog, const Evaluation& evaluation);

} // namespace gp::calc
