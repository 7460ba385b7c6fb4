// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#pragma once

// Importing a running cluster as a scenario (issue 38; docs/cluster-import.md): Kubernetes
// objects as `kubectl get nodes,pods -o json` prints them, or what Slurm prints about its nodes
// and jobs (sinfo/squeue --json, or scontrol show nodes/jobs --oneliner). What the cluster says
// (nodes, GPU models, sharing, which pods or jobs hold how many GPU units, who owns them) becomes
// the scenario; what it does not say (the model a job runs, its kind, its parallelism) becomes a
// placeholder named in the job's `imported.unknown`, which validation warns about.
#include "model/catalog.h"
#include "model/issue.h"
#include "model/scenario.h"

#include <QByteArray>
#include <QString>

#include <map>
#include <string>

namespace gp::io {

/// How the cluster's objects become tenants, jobs and GPUs.
struct ClusterImportOptions
{
    std::string name;                          ///< the scenario's name; "" for "Imported cluster"
    std::string tenantLabel;                   ///< Kubernetes: a pod label naming the tenant; "" = the namespace
    bool slurmTenantByUser = false;            ///< Slurm: tenants are users instead of accounts
    std::map<std::string, std::string> gpuMap; ///< product string (as the cluster spells it) -> catalog GPU id
};

/// One input as it was read, and what messages call it (a file name, "standard input",
/// "kubectl get nodes,pods -o json").
struct ClusterInput
{
    QByteArray bytes;
    QString name;
};

/// A scenario from a Kubernetes List (v1 Nodes and Pods; resource.k8s.io ResourceSlices and
/// ResourceClaims where present). Errors name the input and the JSON path.
Result<Scenario> importKubernetes(const ClusterInput& input, const ClusterImportOptions& options,
                                  const Catalog& catalog);

/// A scenario from Slurm: `nodes` is `sinfo --json` or `scontrol show nodes --oneliner`, `jobs`
/// is `squeue --json` or `scontrol show jobs --oneliner` (each recognised by its first character).
Result<Scenario> importSlurm(const ClusterInput& nodes, const ClusterInput& jobs, const ClusterImportOptions& options,
                             const Catalog& catalog);

/// The catalog GPU a product string names (GPU Feature Discovery's nvidia.com/gpu.product, the
/// DRA driver's productName, a Slurm GRES type): the user's map first, then the catalog's ids
/// and names, then the product names NVIDIA's tools print (docs/cluster-import.md). An unknown
/// or ambiguous product is an error at `where` saying how to map it, never a guess.
Result<std::string> gpuForProduct(const std::string& product, const std::string& where,
                                  const ClusterImportOptions& options, const Catalog& catalog);

} // namespace gp::io
