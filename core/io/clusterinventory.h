// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#pragma once

// What the Kubernetes and Slurm readers hand the scenario builder: the nodes with their GPUs
// and sharing, and the workloads with the GPU units they hold. Internal to the cluster import.
#include "clusterimport.h"
#include "model/miglayout.h"

#include <set>
#include <string>
#include <vector>

namespace gp::io {

/// GPUs of one node, as the scenario format allows (docs/scenario-format.md, `gpu_count`).
inline constexpr int kMaxImportedGpus = 64;
/// GPU units one imported workload (a pod's owner, a Slurm job or array) may hold: ten times the
/// GPUs of the largest published cluster, so any real inventory fits and sums cannot overflow.
inline constexpr int kMaxWorkloadUnits = 1000000;

/// a + b for unit counts (each >= 0), saturating just above kMaxWorkloadUnits so that sums over
/// hostile inputs (thousands of containers, each asking for 999,999) cannot overflow.
inline int addUnits(int a, int b)
{
    const long long sum = static_cast<long long>(a) + b;
    return sum > kMaxWorkloadUnits ? kMaxWorkloadUnits + 1 : static_cast<int>(sum);
}

struct InventoryNode
{
    std::string name;
    std::string gpuId;
    std::vector<SharingConfig> gpus; ///< one per physical GPU
};

struct InventoryWorkload
{
    std::string tenant;   ///< namespace, label value, account or user
    std::string scope;    ///< namespace or account
    std::string workload; ///< "Kind/name"
    std::string name;     ///< the job's name: the workload's name (DCGM's pod-name prefix, Slurm's job name)
    bool serving = false; ///< the placeholder's kind: serving for long-running owners, else training
    int units = 0;        ///< GPU units held: whole GPUs, MIG instances, time-slicing or MPS replicas
    std::vector<std::string> members; ///< pods or Slurm job ids
    std::set<std::string> nodes;
    std::set<std::string> migProfiles; ///< the MIG profiles its units are (Kubernetes' nvidia.com/mig-<profile>)
    bool wholeGpus = false;            ///< whether any unit is a whole GPU or a replica
};

/// The profiles of `gpu`'s MIG instances packed onto as few GPUs as NVIDIA's placement rules
/// allow (largest first, lowest start): one layout per GPU. Empty `instances` gives none.
std::vector<mig::Layout> packMigInstances(const GpuSpec& gpu, std::vector<std::string> instances);

/// The MIG profile a name means on `gpu` ("1g.10gb"), or null.
const MigProfile* migProfileOf(const GpuSpec& gpu, const std::string& name);

/// The scenario: nodes on a grid, tenants by name, one job per workload with placeholders for
/// what the cluster did not say; checked by validateScenario (errors refuse it).
Result<Scenario> buildImportedScenario(const std::vector<InventoryNode>& nodes,
                                       const std::vector<InventoryWorkload>& workloads, const std::string& source,
                                       const ClusterImportOptions& options, const Catalog& catalog, Issues notes);

} // namespace gp::io
