// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#include "clusterconfigwriter.h"

#include "drawriter.h"
#include "hamiwriter.h"
#include "kaiwriter.h"
#include "yamlout.h"

#include <QDir>
#include <QFileInfo>
#include <QRegularExpression>
#include <QStringList>

#include <iterator>

namespace gp::io {

namespace {

QString safeFileName(const std::string& id)
{
    QString name = QString::fromStdString(id);
    name.replace(QRegularExpression("[^A-Za-z0-9_-]"), "_");
    if (name.isEmpty())
        name = "tenant";
    return name;
}

QByteArray migParted(const ClusterConfigPlan& plan, const std::string& scenario)
{
    YamlOut y("MIG layouts for NVIDIA mig-parted and the GPU Operator's MIG manager "
              "(label a node nvidia.com/mig.config=<name>).",
              scenario);
    YAML::Emitter& o = y.out();
    o << YAML::BeginMap << YAML::Key << "version" << YAML::Value << "v1";
    o << YAML::Key << "mig-configs" << YAML::Value << YAML::BeginMap;
    o << YAML::Key << "all-disabled" << YAML::Value << YAML::BeginSeq << YAML::BeginMap << YAML::Key << "devices"
      << YAML::Value << "all" << YAML::Key << "mig-enabled" << YAML::Value << false << YAML::EndMap << YAML::EndSeq;
    for (const MigPartedConfig& m : plan.migConfigs) {
        std::string nodes;
        for (const std::string& n : m.nodes)
            nodes += (nodes.empty() ? "" : ", ") + n;
        o << YAML::Key << m.name << YAML::Comment("nodes: " + nodes) << YAML::Value << YAML::BeginSeq;
        for (const MigPartedConfig::Entry& e : m.entries) {
            o << YAML::BeginMap << YAML::Key << "devices" << YAML::Value << YAML::Flow << YAML::BeginSeq;
            for (int d : e.devices)
                o << d;
            o << YAML::EndSeq << YAML::Key << "mig-enabled" << YAML::Value << e.migEnabled;
            if (e.migEnabled) {
                o << YAML::Key << "mig-devices" << YAML::Value << YAML::BeginMap;
                for (const auto& [profile, count] : e.instances)
                    o << YAML::Key << Quoted{profile} << YAML::Value << count;
                o << YAML::EndMap;
            }
            o << YAML::EndMap;
        }
        o << YAML::EndSeq;
    }
    o << YAML::EndMap << YAML::EndMap;
    return y.bytes();
}

QByteArray devicePlugin(const ClusterConfigPlan& plan, const std::string& scenario)
{
    YamlOut y("Sharing configurations for the GPU Operator's device plugin (label a node "
              "nvidia.com/device-plugin.config=<key>).",
              scenario);
    YAML::Emitter& o = y.out();
    o << YAML::BeginMap << YAML::Key << "apiVersion" << YAML::Value << "v1" << YAML::Key << "kind" << YAML::Value
      << "ConfigMap";
    o << YAML::Key << "metadata" << YAML::Value << YAML::BeginMap << YAML::Key << "name" << YAML::Value
      << "gpuplan-device-plugin-config" << YAML::Key << "namespace" << YAML::Value << "gpu-operator" << YAML::EndMap;
    o << YAML::Key << "data" << YAML::Value << YAML::BeginMap;
    for (const DevicePluginConfig& d : plan.pluginConfigs) {
        // Each value is a device-plugin configuration file of its own, kept as a literal block.
        YAML::Emitter inner;
        inner << YAML::BeginMap << YAML::Key << "version" << YAML::Value << "v1";
        inner << YAML::Key << "flags" << YAML::Value << YAML::BeginMap << YAML::Key << "migStrategy" << YAML::Value
              << "none" << YAML::EndMap;
        inner << YAML::Key << "sharing" << YAML::Value << YAML::BeginMap << YAML::Key << d.sharing << YAML::Value
              << YAML::BeginMap << YAML::Key << "resources" << YAML::Value << YAML::BeginSeq << YAML::BeginMap
              << YAML::Key << "name" << YAML::Value << "nvidia.com/gpu" << YAML::Key << "replicas" << YAML::Value
              << d.replicas << YAML::EndMap << YAML::EndSeq << YAML::EndMap << YAML::EndMap << YAML::EndMap;
        o << YAML::Key << d.name << YAML::Value << YAML::Literal << std::string(inner.c_str());
    }
    o << YAML::EndMap << YAML::EndMap;
    return y.bytes();
}

QByteArray nodeLabels(const ClusterConfigPlan& plan, const std::string& scenario)
{
    YamlOut y("Node labels that select each node's configuration and mark its tenants.", scenario);
    YAML::Emitter& o = y.out();
    o << YAML::BeginMap << YAML::Key << "nodes" << YAML::Value << YAML::BeginSeq;
    for (const NodeConfig& n : plan.nodes) {
        o << YAML::BeginMap << YAML::Key << "id" << YAML::Value << Quoted{n.id} << YAML::Key << "name" << YAML::Value
          << Quoted{n.name};
        o << YAML::Key << "labels" << YAML::Value;
        if (n.labels.empty())
            o << YAML::Flow;
        o << YAML::BeginMap;
        for (const auto& [k, v] : n.labels)
            o << YAML::Key << Quoted{k} << YAML::Value << Quoted{v};
        o << YAML::EndMap;
        if (!n.notes.empty()) {
            o << YAML::Key << "notes" << YAML::Value << YAML::BeginSeq;
            for (const std::string& note : n.notes)
                o << Quoted{note};
            o << YAML::EndSeq;
        }
        o << YAML::EndMap;
    }
    o << YAML::EndSeq << YAML::EndMap;
    return y.bytes();
}

QByteArray tenantFile(const TenantConfig& t, const std::string& scenario)
{
    YamlOut y("Where this tenant's jobs run: one pod per job and node, with its node selector and "
              "the GPU resources its units use.",
              scenario);
    YAML::Emitter& o = y.out();
    o << YAML::BeginMap << YAML::Key << "tenant" << YAML::Value << Quoted{t.id} << YAML::Key << "name" << YAML::Value
      << Quoted{t.name};
    o << YAML::Key << "pods" << YAML::Value;
    if (t.pods.empty())
        o << YAML::Flow;
    o << YAML::BeginSeq;
    const std::string tenantLabel = "gpuplan.io/tenant-" + t.id;
    const std::string yes = "true";
    for (const PodRequest& p : t.pods) {
        o << YAML::BeginMap << YAML::Key << "job" << YAML::Value << Quoted{p.job} << YAML::Key << "job_name"
          << YAML::Value << Quoted{p.jobName} << YAML::Key << "node" << YAML::Value << Quoted{p.node};
        o << YAML::Key << "nodeSelector" << YAML::Value << YAML::BeginMap << YAML::Key << "kubernetes.io/hostname"
          << YAML::Value << Quoted{p.nodeName} << YAML::Key << Quoted{tenantLabel} << YAML::Value << Quoted{yes}
          << YAML::EndMap;
        o << YAML::Key << "resources" << YAML::Value << YAML::BeginMap << YAML::Key << "limits" << YAML::Value
          << YAML::BeginMap;
        for (const auto& [resource, count] : p.resources)
            o << YAML::Key << Quoted{resource} << YAML::Value << count;
        o << YAML::EndMap << YAML::EndMap << YAML::EndMap;
    }
    o << YAML::EndSeq;
    unplacedJobs(o, t.unplaced);
    o << YAML::EndMap;
    return y.bytes();
}

QByteArray readme(const ClusterConfigPlan& plan, const std::string& scenario,
                  const std::vector<std::pair<QString, QByteArray>>& files)
{
    QString r = QString("# Cluster configuration for %1\n\nExported by gpuplan (docs/export.md). Files:\n\n")
                    .arg(QString::fromStdString(scenario));
    for (const auto& [name, content] : files)
        r += QString("- `%1`\n").arg(name);
    r += "\n## Apply\n\n";
    if (!plan.migConfigs.empty())
        r += "1. MIG: give the GPU Operator's MIG manager `mig-parted.yaml` as its configuration "
             "(`kubectl create configmap gpuplan-mig-parted -n gpu-operator --from-file=config.yaml=mig-parted.yaml`, "
             "then set `migManager.config.name=gpuplan-mig-parted` and `mig.strategy=mixed` in the ClusterPolicy). "
             "mig-parted chooses where each instance starts; gpuplan's start slices are one valid placement of "
             "the same instances.\n";
    if (!plan.pluginConfigs.empty())
        r += "2. Time-slicing and MPS: `kubectl apply -f device-plugin-config.yaml`, then set "
             "`devicePlugin.config.name=gpuplan-device-plugin-config` in the ClusterPolicy.\n";
    r += "3. Label the nodes as `node-labels.yaml` lists, for example:\n\n```sh\n";
    for (const NodeConfig& n : plan.nodes)
        if (!n.labels.empty()) {
            QStringList labels;
            for (const auto& [k, v] : n.labels)
                labels << QString::fromStdString(k + "=" + v);
            r +=
                QString("kubectl label node %1 %2 --overwrite\n").arg(QString::fromStdString(n.name), labels.join(' '));
        }
    r += "```\n\n4. Give each tenant its file under `tenants/`: the node selector and resource limits of "
         "each pod put its jobs where gpuplan placed them.\n";
    QStringList notes;
    for (const std::string& n : plan.notes)
        notes << QString("- %1").arg(QString::fromStdString(n));
    for (const NodeConfig& n : plan.nodes)
        for (const std::string& note : n.notes)
            notes << QString("- %1: %2").arg(QString::fromStdString(n.name), QString::fromStdString(note));
    if (!notes.isEmpty())
        r += "\n## Not expressed by these files\n\n" + notes.join('\n') + "\n";
    return r.toUtf8();
}

} // namespace

std::vector<std::pair<QString, QByteArray>> clusterConfigFiles(const ClusterConfigPlan& plan,
                                                               const std::string& scenarioName)
{
    std::vector<std::pair<QString, QByteArray>> files;
    if (!plan.migConfigs.empty())
        files.push_back({"mig-parted.yaml", migParted(plan, scenarioName)});
    if (!plan.pluginConfigs.empty())
        files.push_back({"device-plugin-config.yaml", devicePlugin(plan, scenarioName)});
    files.push_back({"node-labels.yaml", nodeLabels(plan, scenarioName)});
    QStringList used;
    for (const TenantConfig& t : plan.tenants) {
        QString name = safeFileName(t.id);
        while (used.contains(name))
            name += "_";
        used << name;
        files.push_back({"tenants/" + name + ".yaml", tenantFile(t, scenarioName)});
    }
    files.push_back({"README.md", readme(plan, scenarioName, files)});
    return files;
}

std::vector<std::pair<QString, QByteArray>> clusterExportFiles(const ClusterConfigPlan& plan,
                                                               const std::string& scenarioName,
                                                               const std::vector<ClusterExportFormat>& formats)
{
    std::vector<std::pair<QString, QByteArray>> files;
    for (ClusterExportFormat f : formats) {
        auto more = f == ClusterExportFormat::GpuOperator ? clusterConfigFiles(plan, scenarioName)
                    : f == ClusterExportFormat::Dra       ? draFiles(plan, scenarioName)
                    : f == ClusterExportFormat::Hami      ? hamiFiles(plan, scenarioName)
                                                          : kaiFiles(plan, scenarioName);
        files.insert(files.end(), std::make_move_iterator(more.begin()), std::make_move_iterator(more.end()));
    }
    return files;
}

} // namespace gp::io
