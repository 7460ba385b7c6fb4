// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#pragma once

#include <map>
#include <string>
#include <vector>

namespace gp {

/// What a cluster team applies to carry out a scenario's sharing plan on Kubernetes with the
/// NVIDIA GPU Operator (docs/export.md): mig-parted configurations for the MIG layouts,
/// device-plugin sharing configurations for time-slicing and MPS, node labels that select
/// them, and per tenant the pods' resource requests where the placement put its jobs.
/// Plain data: calc builds it from an evaluation, io writes it as YAML.
struct MigPartedConfig
{
    struct Entry
    {
        std::vector<int> devices; ///< GPU indices on the node
        bool migEnabled = false;
        std::map<std::string, int> instances; ///< MIG profile -> count (mig-parted "mig-devices")
    };
    std::string name; ///< "gpuplan-mig-1", ...
    std::vector<Entry> entries;
    std::vector<std::string> nodes; ///< node ids that use it
};

struct DevicePluginConfig
{
    std::string name;    ///< "ts-4", "mps-2"
    std::string sharing; ///< "timeSlicing" or "mps"
    int replicas = 1;
};

struct NodeConfig
{
    std::string id;
    std::string name;
    std::map<std::string, std::string> labels; ///< label -> value
    std::vector<std::string> notes;            ///< what the configs cannot express on this node
};

struct PodRequest
{
    std::string job;
    std::string jobName;
    std::string node;
    std::string nodeName;
    std::map<std::string, int> resources; ///< "nvidia.com/gpu", "nvidia.com/mig-3g.40gb" -> count
};

struct TenantConfig
{
    std::string id;
    std::string name;
    std::vector<PodRequest> pods;      ///< one per job and node it runs on
    std::vector<std::string> unplaced; ///< job names the placement could not place
};

struct ClusterConfigPlan
{
    std::vector<MigPartedConfig> migConfigs;
    std::vector<DevicePluginConfig> pluginConfigs;
    std::vector<NodeConfig> nodes;
    std::vector<TenantConfig> tenants;
    std::vector<std::string> notes; ///< cluster-wide remarks (vGPU and passthrough nodes, ...)
};

} // namespace gp
