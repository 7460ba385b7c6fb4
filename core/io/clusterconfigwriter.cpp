// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#include "clusterconfigwriter.h"

#include <QDir>
#include <QFileInfo>
#include <QRegularExpression>
#include <QSaveFile>
#include <QStringList>

namespace gp::io {

namespace {

/// A YAML double-quoted scalar.
QString quoted(const std::string& s)
{
    QString q = QString::fromStdString(s);
    q.replace('\\', "\\\\").replace('"', "\\\"").replace('\n', "\\n").replace('\t', "\\t");
    return '"' + q + '"';
}

QString safeFileName(const std::string& id)
{
    QString name = QString::fromStdString(id);
    name.replace(QRegularExpression("[^A-Za-z0-9_-]"), "_");
    if (name.isEmpty())
        name = "tenant";
    return name;
}

QString header(const QString& what, const std::string& scenario)
{
    return QString("# %1\n# Exported by gpuplan from the scenario %2 (docs/export.md).\n").arg(what, quoted(scenario));
}

QByteArray migParted(const ClusterConfigPlan& plan, const std::string& scenario)
{
    QString y = header("MIG layouts for NVIDIA mig-parted and the GPU Operator's MIG manager "
                       "(label a node nvidia.com/mig.config=<name>).",
                       scenario);
    y += "version: v1\nmig-configs:\n  all-disabled:\n    - devices: all\n      mig-enabled: false\n";
    for (const MigPartedConfig& m : plan.migConfigs) {
        QStringList nodes;
        for (const std::string& n : m.nodes)
            nodes << QString::fromStdString(n);
        y += QString("  # nodes: %1\n").arg(nodes.join(", "));
        y += QString("  %1:\n").arg(QString::fromStdString(m.name));
        for (const MigPartedConfig::Entry& e : m.entries) {
            QStringList devices;
            for (int d : e.devices)
                devices << QString::number(d);
            y += QString("    - devices: [%1]\n      mig-enabled: %2\n")
                     .arg(devices.join(", "), e.migEnabled ? "true" : "false");
            if (e.migEnabled) {
                y += "      mig-devices:\n";
                for (const auto& [profile, count] : e.instances)
                    y += QString("        %1: %2\n").arg(quoted(profile)).arg(count);
            }
        }
    }
    return y.toUtf8();
}

QByteArray devicePlugin(const ClusterConfigPlan& plan, const std::string& scenario)
{
    QString y = header("Sharing configurations for the GPU Operator's device plugin (label a node "
                       "nvidia.com/device-plugin.config=<key>).",
                       scenario);
    y += "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: gpuplan-device-plugin-config\n  namespace: "
         "gpu-operator\ndata:\n";
    for (const DevicePluginConfig& d : plan.pluginConfigs) {
        y += QString("  %1: |-\n").arg(QString::fromStdString(d.name));
        y += "    version: v1\n    flags:\n      migStrategy: none\n    sharing:\n";
        y += QString("      %1:\n        resources:\n          - name: nvidia.com/gpu\n            replicas: %2\n")
                 .arg(QString::fromStdString(d.sharing))
                 .arg(d.replicas);
    }
    return y.toUtf8();
}

QByteArray nodeLabels(const ClusterConfigPlan& plan, const std::string& scenario)
{
    QString y = header("Node labels that select each node's configuration and mark its tenants.", scenario);
    y += "nodes:\n";
    for (const NodeConfig& n : plan.nodes) {
        y += QString("  - id: %1\n    name: %2\n").arg(quoted(n.id), quoted(n.name));
        y += n.labels.empty() ? QString("    labels: {}\n") : QString("    labels:\n");
        for (const auto& [k, v] : n.labels)
            y += QString("      %1: %2\n").arg(quoted(k), quoted(v));
        if (!n.notes.empty()) {
            y += "    notes:\n";
            for (const std::string& note : n.notes)
                y += QString("      - %1\n").arg(quoted(note));
        }
    }
    return y.toUtf8();
}

QByteArray tenantFile(const TenantConfig& t, const std::string& scenario)
{
    QString y = header("Where this tenant's jobs run: one pod per job and node, with its node selector and "
                       "the GPU resources its units use.",
                       scenario);
    y += QString("tenant: %1\nname: %2\n").arg(quoted(t.id), quoted(t.name));
    y += t.pods.empty() ? QString("pods: []\n") : QString("pods:\n");
    for (const PodRequest& p : t.pods) {
        y += QString("  - job: %1\n    job_name: %2\n    node: %3\n")
                 .arg(quoted(p.job), quoted(p.jobName), quoted(p.node));
        y += QString("    nodeSelector:\n      kubernetes.io/hostname: %1\n      %2: \"true\"\n")
                 .arg(quoted(p.nodeName), quoted("gpuplan.io/tenant-" + t.id));
        y += "    resources:\n      limits:\n";
        for (const auto& [resource, count] : p.resources)
            y += QString("        %1: %2\n").arg(quoted(resource)).arg(count);
    }
    y += t.unplaced.empty() ? QString("unplaced: []\n") : QString("unplaced:\n");
    for (const std::string& j : t.unplaced)
        y += QString("  - %1\n").arg(quoted(j));
    return y.toUtf8();
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

bool writeFiles(const QString& dir, const std::vector<std::pair<QString, QByteArray>>& files, QString* error)
{
    const QDir root(dir);
    if (QFileInfo(dir).exists() && !QFileInfo(dir).isDir()) {
        *error = QString("%1: exists and is not a folder").arg(dir);
        return false;
    }
    if (!root.mkpath(".")) {
        *error = QString("%1: cannot create the folder").arg(dir);
        return false;
    }
    const QString base = QDir::cleanPath(root.absolutePath()) + '/';
    for (const auto& [relative, content] : files) {
        const QString path = QDir::cleanPath(root.absoluteFilePath(relative));
        if (QDir::isAbsolutePath(relative) || !path.startsWith(base)) {
            *error = QString("%1: refused, it is outside %2").arg(relative, dir);
            return false;
        }
        if (!QDir().mkpath(QFileInfo(path).absolutePath())) {
            *error = QString("%1: cannot create its folder").arg(path);
            return false;
        }
        QSaveFile f(path);
        if (!f.open(QIODevice::WriteOnly) || f.write(content) != content.size() || !f.commit()) {
            *error = QString("%1: %2").arg(path, f.errorString());
            return false;
        }
    }
    return true;
}

} // namespace gp::io
