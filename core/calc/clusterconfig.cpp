// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#include "clusterconfig.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <string>
#include <vector>

namespace gp::calc {

namespace {

std::string num(double v)
{
    std::string s = std::to_string(v);
    s.erase(s.find_last_not_of('0') + 1);
    if (!s.empty() && s.back() == '.')
        s.pop_back();
    return s;
}

/// The mig-parted entries of one node: GPUs grouped by identical MIG use, in index order.
std::vector<MigPartedConfig::Entry> migEntries(const Node& node)
{
    std::vector<MigPartedConfig::Entry> entries;
    for (int g = 0; g < node.gpuCount; ++g) {
        const SharingConfig& c = node.sharingOf(g);
        MigPartedConfig::Entry e;
        e.migEnabled = c.mode == SharingMode::Mig;
        for (const MigInstance& inst : c.migInstances)
            if (e.migEnabled)
                ++e.instances[inst.profile];
        auto same = std::find_if(entries.begin(), entries.end(), [&](const MigPartedConfig::Entry& x) {
            return x.migEnabled == e.migEnabled && x.instances == e.instances;
        });
        if (same != entries.end())
            same->devices.push_back(g);
        else {
            e.devices.push_back(g);
            entries.push_back(std::move(e));
        }
    }
    return entries;
}

bool sameEntries(const std::vector<MigPartedConfig::Entry>& a, const std::vector<MigPartedConfig::Entry>& b)
{
    if (a.size() != b.size())
        return false;
    for (std::size_t i = 0; i < a.size(); ++i)
        if (a[i].devices != b[i].devices || a[i].migEnabled != b[i].migEnabled || a[i].instances != b[i].instances)
            return false;
    return true;
}

int mpsClients(const SharingConfig& c) { return std::max(1, 100 / std::max(c.mpsActiveThreadPct, 1)); }

/// One placed unit of a job, by kind: a whole GPU, a MIG instance, or a share of a time-sliced
/// or MPS GPU (docs/export.md, "DRA" and "HAMi").
void addUnit(PodRequest& pod, const Node& node, const UnitLocation& u, const SharingConfig& c, const Catalog& catalog)
{
    const GpuSpec* gpu = catalog.gpu(node.gpuId);
    if (gpu) {
        pod.gpuName = gpu->name;
        pod.gpuMemoryGiB = gpu->memoryUsableGiB;
    }
    if (c.mode == SharingMode::Mig) {
        ++pod.migUnits[u.slot.substr(0, u.slot.find('@'))];
        return;
    }
    if (c.mode != SharingMode::TimeSlicing && c.mode != SharingMode::Mps) {
        ++pod.wholeGpus;
        return;
    }
    auto use = std::find_if(pod.sharedGpus.begin(), pod.sharedGpus.end(),
                            [&](const SharedGpuUse& x) { return x.gpu == u.gpu; });
    if (use == pod.sharedGpus.end()) {
        SharedGpuUse x;
        x.gpu = u.gpu;
        x.strategy = c.mode == SharingMode::Mps ? "MPS" : "TimeSlicing";
        x.ways = c.mode == SharingMode::Mps ? mpsClients(c) : std::max(c.replicas, 1);
        x.mpsActiveThreadPct = c.mpsActiveThreadPct;
        if (c.mode == SharingMode::Mps)
            x.mpsMemoryLimitGiB = c.mpsMemoryLimitGiB;
        const double usable = gpu ? gpu->memoryUsableGiB : 0.0;
        x.slotMemoryGiB = x.mpsMemoryLimitGiB ? *x.mpsMemoryLimitGiB : usable / x.ways;
        pod.sharedGpus.push_back(x);
        use = pod.sharedGpus.end() - 1;
    }
    ++use->units;
}

/// A job with two or more nodes in one NVLink domain gets a ComputeDomain over the nodes it has in
/// such domains; a job on one node needs none (its GPUs share the node's NVLink).
void addComputeDomain(ClusterConfigPlan& plan, const Scenario& s, const std::string& tenant, const Job& j,
                      const std::vector<std::string>& nodes)
{
    std::map<std::string, std::vector<std::string>> byDomain;
    for (const std::string& id : nodes) {
        const Node* n = s.topology.findNode(id);
        const auto g = n ? std::find_if(s.topology.groups.begin(), s.topology.groups.end(),
                                        [&](const Group& x) { return x.id == n->group; })
                         : s.topology.groups.end();
        if (g != s.topology.groups.end() && g->isNvlinkDomain())
            byDomain[g->id].push_back(id);
    }
    ComputeDomainPlan cd{tenant, j.id, j.name, {}, {}};
    for (const std::string& id : nodes)
        for (const auto& [domain, members] : byDomain)
            if (members.size() >= 2 && std::find(members.begin(), members.end(), id) != members.end()) {
                cd.nodes.push_back(id);
                if (std::find(cd.domains.begin(), cd.domains.end(), domain) == cd.domains.end())
                    cd.domains.push_back(domain);
            }
    if (!cd.nodes.empty())
        plan.computeDomains.push_back(std::move(cd));
}

} // namespace

ClusterConfigPlan buildClusterConfig(const Scenario& s, const Catalog& catalog, const Evaluation& ev)
{
    ClusterConfigPlan plan;
    std::map<std::string, NodeConfig*> byId;
    plan.nodes.reserve(s.topology.nodes.size());
    for (const Node& node : s.topology.nodes) {
        NodeConfig nc;
        nc.id = node.id;
        nc.name = node.name.empty() ? node.id : node.name;
        const SharingConfig& base = node.sharing;

        // MIG: a mig-parted configuration per distinct layout of the node's GPUs.
        bool anyMig = false;
        for (int g = 0; g < node.gpuCount; ++g)
            anyMig = anyMig || node.sharingOf(g).mode == SharingMode::Mig;
        if (anyMig) {
            std::vector<MigPartedConfig::Entry> entries = migEntries(node);
            auto same = std::find_if(plan.migConfigs.begin(), plan.migConfigs.end(),
                                     [&](const MigPartedConfig& m) { return sameEntries(m.entries, entries); });
            if (same == plan.migConfigs.end()) {
                MigPartedConfig m;
                m.name = "gpuplan-mig-" + std::to_string(plan.migConfigs.size() + 1);
                m.entries = std::move(entries);
                plan.migConfigs.push_back(std::move(m));
                same = plan.migConfigs.end() - 1;
            }
            same->nodes.push_back(node.id);
            nc.labels["nvidia.com/mig.config"] = same->name;
        }

        // Time-slicing and MPS: the device plugin's sharing configuration, one per node.
        std::string plugin;
        if (base.mode == SharingMode::TimeSlicing)
            plugin = "ts-" + std::to_string(base.replicas);
        else if (base.mode == SharingMode::Mps)
            plugin = "mps-" + std::to_string(mpsClients(base));
        if (!plugin.empty()) {
            if (std::none_of(plan.pluginConfigs.begin(), plan.pluginConfigs.end(),
                             [&](const DevicePluginConfig& d) { return d.name == plugin; }))
                plan.pluginConfigs.push_back(
                    {plugin, base.mode == SharingMode::TimeSlicing ? "timeSlicing" : "mps",
                     base.mode == SharingMode::TimeSlicing ? base.replicas : mpsClients(base)});
            nc.labels["nvidia.com/device-plugin.config"] = plugin;
        }
        for (const auto& [g, c] : node.gpuSharing)
            if ((c.mode == SharingMode::TimeSlicing || c.mode == SharingMode::Mps ||
                 base.mode == SharingMode::TimeSlicing || base.mode == SharingMode::Mps) &&
                !(c == base))
                nc.notes.push_back("GPU " + std::to_string(g) + " has its own " +
                                   std::string(c.mode == SharingMode::Mps           ? "MPS"
                                               : c.mode == SharingMode::TimeSlicing ? "time-slicing"
                                                                                    : "sharing") +
                                   " setting; the device plugin's sharing applies to the whole node (" +
                                   (plugin.empty() ? std::string("none") : plugin) + ")");
        if (base.mode == SharingMode::Mps && base.mpsMemoryLimitGiB) {
            const GpuSpec* gpu = catalog.gpu(node.gpuId);
            const double equal = gpu ? gpu->memoryUsableGiB / mpsClients(base) : 0.0;
            nc.notes.push_back("MPS memory limit " + num(*base.mpsMemoryLimitGiB) +
                               " GiB per client: the device plugin " + "gives each of its " +
                               std::to_string(mpsClients(base)) + " clients an equal share (" +
                               num(std::round(equal * 10) / 10) +
                               " GiB); set CUDA_MPS_PINNED_DEVICE_MEM_LIMIT in the pods " + "for another limit");
        }
        if (base.mode == SharingMode::Vgpu)
            nc.notes.push_back("vGPU " + base.vgpuProfile +
                               ": set in the hypervisor's NVIDIA vGPU Manager, not by the GPU " +
                               "Operator; inside each VM the vGPU is one nvidia.com/gpu");
        if (base.mode == SharingMode::Passthrough)
            nc.notes.push_back("GPUs passed through to VMs: run the GPU Operator inside the guests (or its sandbox "
                               "workloads with KubeVirt); each VM sees whole GPUs as nvidia.com/gpu");
        plan.nodes.push_back(std::move(nc));
    }
    for (NodeConfig& nc : plan.nodes)
        byId[nc.id] = &nc;
    if (!plan.migConfigs.empty())
        for (NodeConfig& nc : plan.nodes)
            if (!nc.labels.count("nvidia.com/mig.config"))
                nc.labels["nvidia.com/mig.config"] = "all-disabled";

    // Tenants: pods where the placement put their jobs, and a label on those nodes.
    std::map<std::string, const Node*> nodes;
    for (const Node& n : s.topology.nodes)
        nodes[n.id] = &n;
    std::map<std::string, const JobResult*> results;
    for (const JobResult& r : ev.jobs)
        results[r.id] = &r;
    for (const Tenant& t : s.tenants) {
        TenantConfig tc{t.id, t.name, {}, {}};
        tc.priority = t.priority;
        for (const Job& j : t.jobs) {
            const auto r = results.find(j.id);
            if (r == results.end() || !r->second->placed) {
                tc.unplaced.push_back(j.name);
                continue;
            }
            std::map<std::string, PodRequest> pods; // by node, in first-use order below
            std::vector<std::string> order;
            for (const UnitLocation& u : r->second->placement) {
                const auto n = nodes.find(u.node);
                if (n == nodes.end())
                    continue;
                const SharingConfig& c = n->second->sharingOf(u.gpu);
                const std::string resource = c.mode == SharingMode::Mig
                                                 ? migResourceName(u.slot.substr(0, u.slot.find('@')))
                                                 : std::string("nvidia.com/gpu");
                if (!pods.count(u.node)) {
                    order.push_back(u.node);
                    PodRequest& pod = pods[u.node];
                    pod.job = j.id;
                    pod.jobName = j.name;
                    pod.node = u.node;
                    pod.nodeName = n->second->name.empty() ? u.node : n->second->name;
                }
                PodRequest& pod = pods[u.node];
                ++pod.resources[resource];
                addUnit(pod, *n->second, u, c, catalog);
                if (NodeConfig* nc = byId[u.node])
                    nc->labels["gpuplan.io/tenant-" + t.id] = "true";
            }
            addComputeDomain(plan, s, t.id, j, order);
            for (const std::string& n : order)
                tc.pods.push_back(std::move(pods[n]));
        }
        plan.tenants.push_back(std::move(tc));
    }
    if (plan.migConfigs.empty() && plan.pluginConfigs.empty())
        plan.notes.push_back("No GPU is shared by MIG, time-slicing or MPS: the GPU Operator's defaults apply.");
    return plan;
}

} // namespace gp::calc
