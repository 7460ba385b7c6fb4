// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#include "drawriter.h"

#include "yamlout.h"

#include <QStringList>

#include <algorithm>
#include <cmath>
#include <map>
#include <set>
#include <string>

namespace gp::io {

namespace {

// The NVIDIA DRA driver's names (k8s-dra-driver-gpu: deployments/helm/.../deviceclass-*.yaml,
// api/nvidia.com/resource/v1beta1).
constexpr const char* kResourceApi = "resource.k8s.io/v1";
constexpr const char* kNvidiaApi = "resource.nvidia.com/v1beta1";
constexpr const char* kDriver = "gpu.nvidia.com";
constexpr const char* kGpuClass = "gpu.nvidia.com";
constexpr const char* kMigClass = "mig.nvidia.com";
constexpr const char* kSharedNamespace = "gpuplan-shared";

/// A time-sliced or MPS GPU as one claim: where it is and how it is shared.
struct SharedClaim
{
    std::string name;
    std::string node;
    std::string nodeName;
    SharedGpuUse sharing;
    std::set<std::string> tenants;
    std::string nameSpace;
};

/// A pod's claims: (claim name in the pod, template or claim) pairs, template first.
struct PodClaims
{
    std::string templateName; ///< "" when the pod needs no template
    std::vector<std::string> sharedClaims;
    std::string computeDomainTemplate; ///< "" when the job has no ComputeDomain
};

/// A pod's devices as a key: pods of one job with the same key share one template.
std::string shapeKey(const PodRequest& p)
{
    std::string k = "gpu:" + std::to_string(p.wholeGpus);
    for (const auto& [profile, n] : p.migUnits)
        k += ";" + profile + ":" + std::to_string(n);
    return k;
}

std::string gibQuantity(double gib)
{
    // Whole MiB: the driver turns the limit into MB for CUDA_MPS_PINNED_DEVICE_MEM_LIMIT.
    return std::to_string(static_cast<long long>(std::floor(gib * 1024.0))) + "Mi";
}

void draHeader(YAML::Emitter& o, const char* apiVersion, const char* kind, const std::string& name,
               const std::string& nameSpace, const std::map<std::string, std::string>& annotations)
{
    o << YAML::Key << "apiVersion" << YAML::Value << apiVersion << YAML::Key << "kind" << YAML::Value << kind;
    o << YAML::Key << "metadata" << YAML::Value << YAML::BeginMap << YAML::Key << "name" << YAML::Value << name;
    if (!nameSpace.empty())
        o << YAML::Key << "namespace" << YAML::Value << nameSpace;
    if (!annotations.empty()) {
        o << YAML::Key << "annotations" << YAML::Value << YAML::BeginMap;
        for (const auto& [k, v] : annotations)
            o << YAML::Key << k << YAML::Value << Quoted{v};
        o << YAML::EndMap;
    }
    o << YAML::EndMap;
}

/// `devices` of a claim spec for a pod's whole GPUs and MIG instances.
void exclusiveDevices(YAML::Emitter& o, const PodRequest& p)
{
    o << YAML::Key << "devices" << YAML::Value << YAML::BeginMap << YAML::Key << "requests" << YAML::Value
      << YAML::BeginSeq;
    if (p.wholeGpus > 0)
        o << YAML::BeginMap << YAML::Key << "name" << YAML::Value << "gpus" << YAML::Key << "exactly" << YAML::Value
          << YAML::BeginMap << YAML::Key << "deviceClassName" << YAML::Value << kGpuClass << YAML::Key
          << "allocationMode" << YAML::Value << "ExactCount" << YAML::Key << "count" << YAML::Value << p.wholeGpus
          << YAML::EndMap << YAML::EndMap;
    for (const auto& [profile, n] : p.migUnits) {
        const std::string expression = "device.attributes['gpu.nvidia.com'].profile == '" + profile + "'";
        o << YAML::BeginMap << YAML::Key << "name" << YAML::Value << "mig-" + dnsLabel(profile) << YAML::Key
          << "exactly" << YAML::Value << YAML::BeginMap << YAML::Key << "deviceClassName" << YAML::Value << kMigClass
          << YAML::Key << "selectors" << YAML::Value << YAML::BeginSeq << YAML::BeginMap << YAML::Key << "cel"
          << YAML::Value << YAML::BeginMap << YAML::Key << "expression" << YAML::Value << Quoted{expression}
          << YAML::EndMap << YAML::EndMap << YAML::EndSeq << YAML::Key << "allocationMode" << YAML::Value
          << "ExactCount" << YAML::Key << "count" << YAML::Value << n << YAML::EndMap << YAML::EndMap;
    }
    o << YAML::EndSeq << YAML::EndMap;
}

QByteArray sharedClaimDoc(const SharedClaim& c)
{
    YAML::Emitter o;
    o << YAML::BeginMap;
    const SharedGpuUse& s = c.sharing;
    std::string tenants;
    for (const std::string& t : c.tenants)
        tenants += (tenants.empty() ? "" : ",") + t;
    draHeader(o, kResourceApi, "ResourceClaim", c.name, c.nameSpace,
              {{"gpuplan.io/node", c.nodeName},
               {"gpuplan.io/gpu-index", std::to_string(s.gpu)},
               {"gpuplan.io/tenants", tenants},
               {"gpuplan.io/ways", std::to_string(s.ways)}});
    o << YAML::Key << "spec" << YAML::Value << YAML::BeginMap << YAML::Key << "devices" << YAML::Value
      << YAML::BeginMap;
    o << YAML::Key << "requests" << YAML::Value << YAML::BeginSeq << YAML::BeginMap << YAML::Key << "name"
      << YAML::Value << "gpu" << YAML::Key << "exactly" << YAML::Value << YAML::BeginMap << YAML::Key
      << "deviceClassName" << YAML::Value << kGpuClass << YAML::EndMap << YAML::EndMap << YAML::EndSeq;
    o << YAML::Key << "config" << YAML::Value << YAML::BeginSeq << YAML::BeginMap << YAML::Key << "requests"
      << YAML::Value << YAML::Flow << YAML::BeginSeq << "gpu" << YAML::EndSeq << YAML::Key << "opaque" << YAML::Value
      << YAML::BeginMap << YAML::Key << "driver" << YAML::Value << kDriver << YAML::Key << "parameters" << YAML::Value
      << YAML::BeginMap << YAML::Key << "apiVersion" << YAML::Value << kNvidiaApi << YAML::Key << "kind" << YAML::Value
      << "GpuConfig" << YAML::Key << "sharing" << YAML::Value << YAML::BeginMap << YAML::Key << "strategy"
      << YAML::Value << s.strategy;
    if (s.strategy == "MPS") {
        o << YAML::Key << "mpsConfig" << YAML::Value << YAML::BeginMap << YAML::Key << "defaultActiveThreadPercentage"
          << YAML::Value << s.mpsActiveThreadPct;
        if (s.mpsMemoryLimitGiB)
            o << YAML::Key << "defaultPinnedDeviceMemoryLimit" << YAML::Value << gibQuantity(*s.mpsMemoryLimitGiB);
        o << YAML::EndMap;
    } else {
        // gpuplan models no time-slice length: the driver's default one.
        o << YAML::Key << "timeSlicingConfig" << YAML::Value << YAML::BeginMap << YAML::Key << "interval" << YAML::Value
          << "Default" << YAML::EndMap;
    }
    o << YAML::EndMap << YAML::EndMap << YAML::EndMap << YAML::EndMap << YAML::EndSeq;
    o << YAML::EndMap << YAML::EndMap << YAML::EndMap;
    return QByteArray(o.c_str()) + '\n';
}

QByteArray templateDoc(const std::string& name, const std::string& nameSpace, const PodRequest& p)
{
    YAML::Emitter o;
    o << YAML::BeginMap;
    draHeader(o, kResourceApi, "ResourceClaimTemplate", name, nameSpace, {{"gpuplan.io/job", p.job}});
    o << YAML::Key << "spec" << YAML::Value << YAML::BeginMap << YAML::Key << "spec" << YAML::Value << YAML::BeginMap;
    exclusiveDevices(o, p);
    o << YAML::EndMap << YAML::EndMap << YAML::EndMap;
    return QByteArray(o.c_str()) + '\n';
}

QByteArray computeDomainDoc(const std::string& name, const std::string& nameSpace, const ComputeDomainPlan& cd)
{
    YAML::Emitter o;
    o << YAML::BeginMap;
    std::string domains;
    for (const std::string& d : cd.domains)
        domains += (domains.empty() ? "" : ",") + d;
    draHeader(o, kNvidiaApi, "ComputeDomain", name, nameSpace,
              {{"gpuplan.io/job", cd.job},
               {"gpuplan.io/nvlink-domains", domains},
               {"gpuplan.io/nodes", std::to_string(cd.nodes.size())}});
    // numNodes stays at its default 0, as the driver recommends with IMEXDaemonsWithDNSNames (the
    // CRD's description); the node count is in the annotation above.
    o << YAML::Key << "spec" << YAML::Value << YAML::BeginMap << YAML::Key << "channel" << YAML::Value << YAML::BeginMap
      << YAML::Key << "resourceClaimTemplate" << YAML::Value << YAML::BeginMap << YAML::Key << "name" << YAML::Value
      << name + "-channel" << YAML::EndMap << YAML::EndMap << YAML::EndMap << YAML::EndMap;
    return QByteArray(o.c_str()) + '\n';
}

QByteArray stream(const QString& what, const std::string& scenario, const std::vector<QByteArray>& docs)
{
    YamlOut y(what, scenario);
    QByteArray bytes = y.bytes();
    for (const QByteArray& d : docs)
        bytes += "---\n" + d;
    return bytes;
}

} // namespace

std::string tenantNamespace(const std::string& tenantId) { return dnsLabel(tenantId); }

std::vector<std::pair<QString, QByteArray>> draFiles(const ClusterConfigPlan& plan, const std::string& scenarioName)
{
    // Shared GPUs first: each is one claim, in the namespace of the one tenant that uses it, else in
    // gpuplan-shared (a pod can only reference a claim of its own namespace).
    std::map<std::pair<std::string, int>, SharedClaim> shared;
    for (const TenantConfig& t : plan.tenants)
        for (const PodRequest& p : t.pods)
            for (const SharedGpuUse& s : p.sharedGpus) {
                SharedClaim& c = shared[{p.node, s.gpu}];
                c.node = p.node;
                c.nodeName = p.nodeName;
                c.sharing = s;
                c.tenants.insert(t.id);
                c.name = dnsLabel(p.nodeName, 50) + "-gpu" + std::to_string(s.gpu);
            }
    std::set<std::string> claimNames;
    for (auto& [key, c] : shared) {
        while (!claimNames.insert(c.name).second)
            c.name += "x";
    }
    for (auto& [key, c] : shared)
        c.nameSpace = c.tenants.size() == 1 ? tenantNamespace(*c.tenants.begin()) : kSharedNamespace;

    std::vector<std::pair<QString, QByteArray>> files;
    YamlOut placement("Where each job's pods run and the resourceClaims their pod spec lists (DRA).", scenarioName);
    YAML::Emitter& pl = placement.out();
    pl << YAML::BeginMap << YAML::Key << "pods" << YAML::Value << YAML::BeginSeq;
    QStringList used;
    std::vector<std::string> crossTenant;
    std::vector<QByteArray> crossDocs; // objects in gpuplan-shared
    std::set<std::string> names;       // of templates, unique over the export
    for (const TenantConfig& t : plan.tenants) {
        const std::string ns = tenantNamespace(t.id);
        std::vector<QByteArray> docs;
        std::set<std::string> claimsWritten;
        std::map<std::string, std::map<std::string, std::string>> templates; // job -> shape -> name
        for (const PodRequest& p : t.pods) {
            // A pod that shares a GPU with other tenants runs in gpuplan-shared, where its claims are.
            std::string podNs = ns;
            for (const SharedGpuUse& s : p.sharedGpus)
                if (shared.at({p.node, s.gpu}).nameSpace == kSharedNamespace)
                    podNs = kSharedNamespace;
            PodClaims pc;
            if (p.wholeGpus > 0 || !p.migUnits.empty()) {
                auto& byShape = templates[p.job + "\n" + podNs];
                const std::string key = shapeKey(p);
                if (!byShape.count(key)) {
                    std::string name = dnsLabel(p.job, 55) + "-" + std::to_string(byShape.size() + 1);
                    while (names.count(name))
                        name += "x";
                    names.insert(name);
                    byShape[key] = name;
                    if (podNs == ns)
                        docs.push_back(templateDoc(name, ns, p));
                    else
                        crossDocs.push_back(templateDoc(name, podNs, p));
                }
                pc.templateName = byShape[key];
            }
            for (const SharedGpuUse& s : p.sharedGpus) {
                const SharedClaim& c = shared.at({p.node, s.gpu});
                pc.sharedClaims.push_back(c.name);
                if (c.nameSpace == ns && claimsWritten.insert(c.name).second)
                    docs.push_back(sharedClaimDoc(c));
            }
            for (const ComputeDomainPlan& cd : plan.computeDomains)
                if (cd.tenant == t.id && cd.job == p.job &&
                    std::find(cd.nodes.begin(), cd.nodes.end(), p.node) != cd.nodes.end())
                    pc.computeDomainTemplate = dnsLabel(cd.job, 45) + "-domain-channel";

            pl << YAML::BeginMap << YAML::Key << "tenant" << YAML::Value << Quoted{t.id} << YAML::Key << "job"
               << YAML::Value << Quoted{p.job} << YAML::Key << "job_name" << YAML::Value << Quoted{p.jobName};
            pl << YAML::Key << "namespace" << YAML::Value << Quoted{podNs};
            pl << YAML::Key << "nodeSelector" << YAML::Value << YAML::BeginMap << YAML::Key << "kubernetes.io/hostname"
               << YAML::Value << Quoted{p.nodeName} << YAML::EndMap;
            pl << YAML::Key << "resourceClaims" << YAML::Value << YAML::BeginSeq;
            if (!pc.templateName.empty())
                pl << YAML::BeginMap << YAML::Key << "name" << YAML::Value << "gpus" << YAML::Key
                   << "resourceClaimTemplateName" << YAML::Value << pc.templateName << YAML::EndMap;
            for (std::size_t i = 0; i < pc.sharedClaims.size(); ++i)
                pl << YAML::BeginMap << YAML::Key << "name" << YAML::Value << "shared-gpu-" + std::to_string(i)
                   << YAML::Key << "resourceClaimName" << YAML::Value << pc.sharedClaims[i] << YAML::EndMap;
            if (!pc.computeDomainTemplate.empty())
                pl << YAML::BeginMap << YAML::Key << "name" << YAML::Value << "compute-domain-channel" << YAML::Key
                   << "resourceClaimTemplateName" << YAML::Value << pc.computeDomainTemplate << YAML::EndMap;
            pl << YAML::EndSeq;
            // The same units as the device plugin's resources, so nothing is dropped in between.
            pl << YAML::Key << "units" << YAML::Value << YAML::BeginMap << YAML::Key << "gpus" << YAML::Value
               << p.wholeGpus;
            for (const auto& [profile, n] : p.migUnits)
                pl << YAML::Key << Quoted{"mig-" + profile} << YAML::Value << n;
            int sharedUnits = 0;
            for (const SharedGpuUse& s : p.sharedGpus)
                sharedUnits += s.units;
            pl << YAML::Key << "shared" << YAML::Value << sharedUnits << YAML::EndMap << YAML::EndMap;
        }
        for (const ComputeDomainPlan& cd : plan.computeDomains)
            if (cd.tenant == t.id)
                docs.push_back(computeDomainDoc(dnsLabel(cd.job, 45) + "-domain", ns, cd));
        QString file = QString::fromStdString(ns);
        while (used.contains(file))
            file += "_";
        used << file;
        files.push_back({"dra/tenants/" + file + ".yaml",
                         stream("DRA objects of tenant " + QString::fromStdString(t.name) + " (namespace " +
                                    QString::fromStdString(ns) + "), for the NVIDIA DRA driver.",
                                scenarioName, docs)});
    }
    pl << YAML::EndSeq;
    pl << YAML::Key << "unplaced" << YAML::Value << YAML::BeginSeq;
    for (const TenantConfig& t : plan.tenants)
        for (const std::string& j : t.unplaced)
            pl << Quoted{j};
    pl << YAML::EndSeq << YAML::EndMap;

    for (const auto& [key, c] : shared)
        if (c.nameSpace == kSharedNamespace) {
            crossDocs.push_back(sharedClaimDoc(c));
            std::string tenants;
            for (const std::string& t : c.tenants)
                tenants += (tenants.empty() ? "" : ", ") + t;
            crossTenant.push_back(c.nodeName + " GPU " + std::to_string(c.sharing.gpu) + " (" + tenants + ")");
        }
    if (!crossDocs.empty())
        files.push_back({"dra/shared.yaml", stream("ResourceClaims of GPUs that jobs of several tenants share, and "
                                                   "the templates of their pods (namespace gpuplan-shared).",
                                                   scenarioName, crossDocs)});
    files.push_back({"dra/placement.yaml", placement.bytes()});

    QString r = QString("# DRA objects for %1\n\nExported by gpuplan (docs/export.md, \"DRA\") for the NVIDIA DRA "
                        "driver for GPUs (k8s-dra-driver-gpu) on Kubernetes with resource.k8s.io/v1 (1.34 or later). "
                        "Files:\n\n")
                    .arg(QString::fromStdString(scenarioName));
    r += markdownFileList(files);
    r += "\n## Apply\n\n1. Install the NVIDIA DRA driver with its `gpu.nvidia.com` and `mig.nvidia.com` "
         "DeviceClasses (and ComputeDomains enabled where `ComputeDomain` objects appear); enable its "
         "`TimeSlicingSettings` and `MPSSupport` feature gates where the claims share GPUs.\n"
         "2. Create each tenant's namespace, then `kubectl apply -f dra/tenants/`" +
         QString(crossDocs.empty() ? "" : " and, in namespace gpuplan-shared, `dra/shared.yaml`") +
         ".\n"
         "3. In each job's pod spec, list the `resourceClaims` and the `nodeSelector` that `dra/placement.yaml` "
         "gives its pod, and name the claims in the containers' `resources.claims`.\n"
         "4. MIG layouts are not made by DRA here: partition the GPUs as the operator export's `mig-parted.yaml` "
         "says (`gpuplan-cli export-config`).\n";
    QStringList notes;
    for (const std::string& n : crossTenant)
        notes << QString::fromStdString("- " + n +
                                        ": a ResourceClaim is referenced only from its own namespace, so these "
                                        "tenants' pods that share it run in namespace gpuplan-shared");
    for (const NodeConfig& n : plan.nodes)
        for (const std::string& note : n.notes)
            if (note.find("vGPU") != std::string::npos || note.find("passed through") != std::string::npos)
                notes << QString("- %1: %2").arg(QString::fromStdString(n.name), QString::fromStdString(note));
    notes << "- Time-slicing has no replica count in DRA: the GPU is one claim its pods share, with the driver's "
             "default time slice (gpuplan models no slice length).";
    r += "\n## Not expressed by these files\n\n" + notes.join('\n') + "\n";
    files.push_back({"dra/README.md", r.toUtf8()});
    return files;
}

} // namespace gp::io
