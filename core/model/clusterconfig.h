// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace gp {

/// The Kubernetes device plugin's resource name of a MIG profile: its "+" becomes "."
/// ("1g.10gb+me" is nvidia.com/mig-1g.10gb.me: a resource name may hold no "+";
/// NVIDIA/k8s-device-plugin internal/rm/rm.go).
inline std::string migResourceName(const std::string& profile)
{
    std::string p = profile;
    for (char& c : p)
        if (c == '+')
            c = '.';
    return "nvidia.com/mig-" + p;
}

/// The MIG profile a device-plugin resource name stands for ("nvidia.com/mig-1g.10gb.me" →
/// "1g.10gb+me"), or nullopt for another resource.
inline std::optional<std::string> migProfileOfResource(const std::string& resource)
{
    static const std::string prefix = "nvidia.com/mig-";
    if (resource.rfind(prefix, 0) != 0)
        return std::nullopt;
    std::string p = resource.substr(prefix.size());
    // "<g>g.<mem>gb" then, where present, the extension the plugin wrote after a '.'.
    const auto gb = p.find("gb.");
    if (gb != std::string::npos)
        p[gb + 2] = '+';
    return p;
}

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

/// One time-sliced or MPS-shared GPU a pod uses (the DRA and HAMi exports, docs/export.md).
struct SharedGpuUse
{
    int gpu = 0;                             ///< GPU index on the node
    int units = 0;                           ///< the pod's replicas or MPS clients on it
    std::string strategy;                    ///< "TimeSlicing" or "MPS" (the DRA driver's names)
    int ways = 1;                            ///< time-slicing replicas, or MPS clients (100 / thread share)
    int mpsActiveThreadPct = 100;            ///< MPS
    std::optional<double> mpsMemoryLimitGiB; ///< MPS, per client, when the scenario sets one
    double slotMemoryGiB = 0.0;              ///< what one unit may use: the limit, else an equal share
};

struct PodRequest
{
    std::string job;
    std::string jobName;
    std::string node;
    std::string nodeName;
    std::map<std::string, int> resources; ///< "nvidia.com/gpu", "nvidia.com/mig-3g.40gb" -> count
    // The same units by kind, for the DRA and HAMi exports:
    int wholeGpus = 0;                    ///< exclusive GPUs (a vGPU or passed-through GPU counts as one)
    std::map<std::string, int> migUnits;  ///< MIG profile -> instances
    std::vector<SharedGpuUse> sharedGpus; ///< time-sliced and MPS GPUs, by index
    std::string gpuName;                  ///< the node's catalog GPU name ("H100 SXM 80GB")
    double gpuMemoryGiB = 0.0;            ///< its usable memory
};

/// A job on two or more compute trays of a rack-scale NVLink domain (GB200 NVL72): the NVIDIA DRA
/// driver's ComputeDomain runs IMEX on those nodes so the job's GPUs share memory over NVLink. One
/// ComputeDomain may span several NVLink domains (the driver's cliques); IMEX works within each.
struct ComputeDomainPlan
{
    std::string tenant;
    std::string job;
    std::string jobName;
    std::vector<std::string> domains; ///< the nvlink_domain group ids
    std::vector<std::string> nodes;   ///< node ids in those domains, in placement order
};

struct TenantConfig
{
    std::string id;
    std::string name;
    std::vector<PodRequest> pods;      ///< one per job and node it runs on
    std::vector<std::string> unplaced; ///< job names the placement could not place
    int priority = 0;                  ///< the scenario tenant's priority (higher is placed first)
};

struct ClusterConfigPlan
{
    std::vector<MigPartedConfig> migConfigs;
    std::vector<DevicePluginConfig> pluginConfigs;
    std::vector<NodeConfig> nodes;
    std::vector<TenantConfig> tenants;
    std::vector<ComputeDomainPlan> computeDomains;
    std::vector<std::string> notes; ///< cluster-wide remarks (vGPU and passthrough nodes, ...)
};

} // namespace gp
