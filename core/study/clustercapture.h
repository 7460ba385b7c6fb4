// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#pragma once

// What a running cluster prints about itself, read by running its own tools (issue 38;
// docs/cluster-import.md): `kubectl get nodes,pods -o json` through the user's kubeconfig, and
// Slurm's `sinfo --json`/`squeue --json` (or `scontrol show nodes|jobs --oneliner` where the
// installed Slurm has no --json). Shared by gpuplan-cli import-cluster and the Import Cluster
// dialog; the readers that turn the output into a scenario are io/clusterimport.h. The one place
// the product starts programs (tst_layering: fixed names, argv without a shell).
#include "io/clusterimport.h"
#include "model/issue.h"

#include <QString>
#include <QStringList>

#include <atomic>
#include <utility>

namespace gp::study {

/// `kubectl [--kubeconfig K] [--context C] get nodes,pods[,resourceslices,resourceclaims] -A -o json`.
/// DRA objects are asked for only where the server serves them (kubectl api-resources). `stop`,
/// set from another thread, kills the running tool within 100 ms (an error "cancelled").
Result<io::ClusterInput> captureKubernetes(const QString& kubeconfig, const QString& context, int timeoutMs,
                                           const std::atomic<bool>* stop = nullptr);

/// Slurm's nodes and jobs: --json where the installed sinfo has it, else scontrol's one-liners.
Result<std::pair<io::ClusterInput, io::ClusterInput>> captureSlurm(int timeoutMs,
                                                                   const std::atomic<bool>* stop = nullptr);

/// The message of a capture stopped through its `stop` flag.
inline constexpr const char* kCaptureCancelled = "cancelled";

} // namespace gp::study
