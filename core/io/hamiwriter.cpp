// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#include "hamiwriter.h"

#include "drawriter.h"
#include "yamlout.h"

#include <QStringList>

#include <algorithm>
#include <cmath>
#include <map>
#include <string>
#include <tuple>

namespace gp::io {

namespace {

// HAMi's resource names (Project-HAMi/HAMi charts/hami/values.yaml) and pod annotations
// (pkg/device/nvidia/device.go).
constexpr const char* kGpu = "nvidia.com/gpu";
constexpr const char* kGpuMem = "nvidia.com/gpumem";
constexpr const char* kGpuMemPct = "nvidia.com/gpumem-percentage";
constexpr const char* kGpuCores = "nvidia.com/gpucores";

/// The short GPU type HAMi matches against the registered device type ("H100" in "NVIDIA H100 80GB HBM3").
std::string gpuType(const std::string& name) { return name.substr(0, name.find(' ')); }

struct Container
{
    std::string name;
    std::map<std::string, long long> limits;
};

std::vector<Container> hamiContainers(const PodRequest& p, std::string& mode)
{
    std::vector<Container> out;
    if (p.wholeGpus > 0)
        out.push_back({"gpus", {{kGpu, p.wholeGpus}, {kGpuMemPct, 100}, {kGpuCores, 100}}});
    if (!p.migUnits.empty()) {
        Container c{"mig", {}};
        for (const auto& [profile, n] : p.migUnits)
            c.limits[migResourceName(profile)] = n;
        out.push_back(c);
    }
    // Shared GPUs with the same per-GPU share are one container: HAMi gives every GPU of a
    // container the same memory and cores.
    std::map<std::tuple<std::string, long long, int>, int> groups; // (strategy, MiB, cores %) -> GPUs
    for (const SharedGpuUse& s : p.sharedGpus) {
        const long long mib = static_cast<long long>(std::floor(s.slotMemoryGiB * s.units * 1024.0));
        const int cores = s.strategy == "MPS" ? std::min(100, s.mpsActiveThreadPct * s.units) : 0;
        ++groups[{s.strategy, mib, cores}];
        if (mode.empty())
            mode = s.strategy == "MPS" ? "mps" : "hami-core";
    }
    int i = 0;
    for (const auto& [key, gpus] : groups) {
        const auto& [strategy, mib, cores] = key;
        Container c{"shared-" + std::to_string(i++), {{kGpu, gpus}, {kGpuMem, mib}}};
        if (cores > 0)
            c.limits[kGpuCores] = cores;
        out.push_back(c);
    }
    return out;
}

QByteArray hamiTenantFile(const TenantConfig& t, const std::string& scenario)
{
    YamlOut y("HAMi resource requests of this tenant's jobs: one pod per job and node, one container per "
              "kind of GPU unit.",
              scenario);
    YAML::Emitter& o = y.out();
    o << YAML::BeginMap << YAML::Key << "tenant" << YAML::Value << Quoted{t.id} << YAML::Key << "name" << YAML::Value
      << Quoted{t.name} << YAML::Key << "namespace" << YAML::Value << Quoted{tenantNamespace(t.id)};
    o << YAML::Key << "pods" << YAML::Value;
    if (t.pods.empty())
        o << YAML::Flow;
    o << YAML::BeginSeq;
    for (const PodRequest& p : t.pods) {
        std::string mode;
        const std::vector<Container> cs = hamiContainers(p, mode);
        o << YAML::BeginMap << YAML::Key << "job" << YAML::Value << Quoted{p.job} << YAML::Key << "job_name"
          << YAML::Value << Quoted{p.jobName} << YAML::Key << "node" << YAML::Value << Quoted{p.node};
        o << YAML::Key << "annotations" << YAML::Value << YAML::BeginMap << YAML::Key << "nvidia.com/use-gputype"
          << YAML::Value << Quoted{gpuType(p.gpuName)};
        if (!mode.empty())
            o << YAML::Key << "nvidia.com/vgpu-mode" << YAML::Value << Quoted{mode};
        o << YAML::EndMap;
        o << YAML::Key << "nodeSelector" << YAML::Value << YAML::BeginMap << YAML::Key << "kubernetes.io/hostname"
          << YAML::Value << Quoted{p.nodeName} << YAML::EndMap;
        o << YAML::Key << "containers" << YAML::Value << YAML::BeginSeq;
        for (const Container& c : cs) {
            o << YAML::BeginMap << YAML::Key << "name" << YAML::Value << c.name << YAML::Key << "resources"
              << YAML::Value << YAML::BeginMap << YAML::Key << "limits" << YAML::Value << YAML::BeginMap;
            for (const auto& [k, v] : c.limits)
                o << YAML::Key << Quoted{k} << YAML::Value << v;
            o << YAML::EndMap << YAML::EndMap << YAML::EndMap;
        }
        o << YAML::EndSeq << YAML::EndMap;
    }
    o << YAML::EndSeq;
    unplacedJobs(o, t.unplaced);
    o << YAML::EndMap;
    return y.bytes();
}

} // namespace

std::vector<std::pair<QString, QByteArray>> hamiFiles(const ClusterConfigPlan& plan, const std::string& scenarioName)
{
    std::vector<std::pair<QString, QByteArray>> files;
    QStringList used;
    for (const TenantConfig& t : plan.tenants) {
        QString name = QString::fromStdString(tenantNamespace(t.id));
        while (used.contains(name))
            name += "_";
        used << name;
        files.push_back({"hami/tenants/" + name + ".yaml", hamiTenantFile(t, scenarioName)});
    }
    QString r = QString("# HAMi requests for %1\n\nExported by gpuplan (docs/export.md, \"HAMi\") for HAMi's "
                        "scheduler and device plugin. Files:\n\n")
                    .arg(QString::fromStdString(scenarioName));
    r += markdownFileList(files);
    r += "\n## Apply\n\nIn each job's pod: the `annotations` under `metadata.annotations`, the `nodeSelector`, "
         "and each listed container's `resources.limits` on a container of the job (one container per kind of "
         "GPU unit). `nvidia.com/gpumem` is MiB per GPU; `nvidia.com/gpucores` is the percentage of each GPU's "
         "SMs (an MPS client's active-thread share); time-sliced GPUs get a memory share and no core limit.\n"
         "MIG instances are asked for as `nvidia.com/mig-<profile>`: partition the GPUs as the operator "
         "export's `mig-parted.yaml` says.\n";
    files.push_back({"hami/README.md", r.toUtf8()});
    return files;
}

} // namespace gp::io
