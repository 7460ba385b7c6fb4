// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#include "kaiwriter.h"

#include "drawriter.h"
#include "model/clusterconfig.h"
#include "yamlout.h"

#include <QRegularExpression>
#include <QStringList>

#include <algorithm>
#include <cmath>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <tuple>

namespace gp::io {

namespace {
// In a namespace of its own: the unity build puts this file beside the other writers.
namespace kai {

// KAI Scheduler's names (NVIDIA/KAI-Scheduler, pkg/common/constants/constants.go: DefaultQueueLabel,
// DefaultSchedulerName, GpuFraction, GpuMemory, GpuFractionsNumDevices, DefaultQueuePriority; the
// Queue CRD deployments/kai-scheduler/crds/scheduling.run.ai_queues.yaml).
constexpr const char* kQueueApi = "scheduling.run.ai/v2";
constexpr const char* kQueueLabel = "kai.scheduler/queue";
constexpr const char* kScheduler = "kai-scheduler";
constexpr const char* kGpu = "nvidia.com/gpu";
constexpr const char* kFraction = "gpu-fraction";
constexpr const char* kMemory = "gpu-memory";
constexpr const char* kNumDevices = "gpu-fraction-num-devices";
constexpr int kDefaultQueuePriority = 100;
// Where KAI's MPS example mounts the MPS server's pipe (docs/gpu-sharing/mps/gpu-sharing-with-mps.yaml).
constexpr const char* kMpsPipe = "/tmp/nvidia-mps";
constexpr const char* kContainer = "gpu-workload";

/// One pod template of a job on a node: KAI takes whole GPUs, MIG instances and a fraction of
/// GPUs only in separate pods (pkg/binder/plugins/gpusharing/gpu-request/gpu_request_validator.go
/// refuses gpu-fraction or gpu-memory beside nvidia.com/gpu; a pod with MIG resources is accounted
/// as MIG only, pkg/scheduler/api/node_info/node_info.go setAcceptedResources).
struct KaiPod
{
    std::string sharing;                ///< "whole", "mig", "time-slicing" or "mps"
    int gpus = 0;                       ///< whole
    std::map<std::string, int> mig;     ///< resource name -> instances
    long long fractionTenThousandths{}; ///< gpu-fraction × 10000, or 0
    long long memoryMiB = 0;            ///< gpu-memory, or 0
    int devices = 0;                    ///< shared GPUs, gpu-fraction-num-devices
    long long chargeHundredths = 0;     ///< what KAI charges the queue, in 0.01 GPU
};

/// What KAI charges a MIG instance against a queue's GPU quota: its compute-slice count as whole
/// GPUs, read from the resource name by `^nvidia.com/mig-(\d+)g\.(\d+)gb$`, and nothing where the
/// name does not match (pkg/scheduler/api/common_info/resources/mig.go,
/// pkg/scheduler/api/resource_info/gpu_resource_requirment.go GetGpusQuota).
int migCharge(const std::string& resource)
{
    static const QRegularExpression re(R"(^nvidia.com/mig-(\d+)g\.(\d+)gb$)");
    const auto m = re.match(QString::fromStdString(resource));
    return m.hasMatch() ? m.captured(1).toInt() : 0;
}

/// KAI's memory of each GPU on a node: GPU Feature Discovery's nvidia.com/gpu.memory label (NVML's
/// total memory in MiB, the catalog's memory_usable_gib × 1024) floored to 100 MiB
/// (pkg/scheduler/api/node_info/node_info.go getNodeGpuMemory); 100 where it is unknown.
long long nodeGpuMemoryMiB(double gpuMemoryGiB)
{
    const auto mib = static_cast<long long>(std::floor(gpuMemoryGiB * 1024.0));
    return std::max(100LL, mib - mib % 100);
}

/// `value` / 10^decimals as a decimal number without trailing zeros: 250, 2 -> "2.5".
std::string decimal(long long value, int decimals)
{
    long long scale = 1;
    for (int i = 0; i < decimals; ++i)
        scale *= 10;
    const bool negative = value < 0;
    const long long a = negative ? -value : value;
    std::string s = std::to_string(a / scale);
    std::string frac = std::to_string(a % scale);
    frac.insert(0, static_cast<std::size_t>(decimals) - frac.size(), '0');
    while (!frac.empty() && frac.back() == '0')
        frac.pop_back();
    if (!frac.empty())
        s += "." + frac;
    return (negative ? "-" : "") + s;
}

std::vector<KaiPod> kaiPods(const PodRequest& p)
{
    std::vector<KaiPod> out;
    int whole = p.wholeGpus;
    const long long nodeMiB = nodeGpuMemoryMiB(p.gpuMemoryGiB);
    // Shared GPUs with the same share are one pod: gpu-fraction-num-devices gives each the same share.
    std::map<std::tuple<std::string, long long, long long>, int> groups; // (strategy, fraction, MiB) -> GPUs
    for (const SharedGpuUse& s : p.sharedGpus) {
        if (s.units >= s.ways) { // every replica or client of the GPU: the GPU is the pod's own
            ++whole;
            continue;
        }
        if (s.strategy == "MPS" && s.mpsMemoryLimitGiB) // the plan fixes memory: gpu-memory
            ++groups[{s.strategy, 0,
                      std::min(nodeMiB, static_cast<long long>(std::floor(*s.mpsMemoryLimitGiB * s.units * 1024.0)))}];
        else // an equal share of the GPU: gpu-fraction, floored so that `ways` of them fit one GPU
            ++groups[{s.strategy, static_cast<long long>(s.units) * 10000 / s.ways, 0}];
    }
    if (whole > 0) {
        KaiPod k;
        k.sharing = "whole";
        k.gpus = whole;
        k.chargeHundredths = 100LL * whole;
        out.push_back(k);
    }
    if (!p.migUnits.empty()) {
        KaiPod k;
        k.sharing = "mig";
        for (const auto& [profile, n] : p.migUnits) {
            k.mig[migResourceName(profile)] += n;
            k.chargeHundredths += 100LL * migCharge(migResourceName(profile)) * n;
        }
        out.push_back(k);
    }
    for (const auto& [key, gpus] : groups) {
        const auto& [strategy, fraction, mib] = key;
        KaiPod k;
        k.sharing = strategy == "MPS" ? "mps" : "time-slicing";
        k.fractionTenThousandths = fraction;
        k.memoryMiB = mib;
        k.devices = gpus;
        // A fraction is charged rounded to 0.01 (getExtendedResourceGpus), a memory share as its
        // part of the node's GPU memory rounded up to 0.01 (gpu_sharing_node_info.go
        // getGpuMemoryFractionalOnNode).
        const long long each = mib > 0 ? (mib * 100 + nodeMiB - 1) / nodeMiB : (fraction + 50) / 100;
        k.chargeHundredths = each * gpus;
        out.push_back(k);
    }
    return out;
}

void stringMap(YAML::Emitter& o, const char* key, const std::map<std::string, std::string>& m)
{
    o << YAML::Key << key << YAML::Value << YAML::BeginMap;
    for (const auto& [k, v] : m)
        o << YAML::Key << Quoted{k} << YAML::Value << Quoted{v};
    o << YAML::EndMap;
}

void podTemplate(YAML::Emitter& o, const KaiPod& k, const std::string& queue, const std::string& nodeName)
{
    std::map<std::string, std::string> annotations;
    if (k.fractionTenThousandths > 0)
        annotations[kFraction] = decimal(k.fractionTenThousandths, 4);
    if (k.memoryMiB > 0)
        annotations[kMemory] = std::to_string(k.memoryMiB);
    if (k.devices > 1)
        annotations[kNumDevices] = std::to_string(k.devices);
    const bool mps = k.sharing == "mps";
    o << YAML::Key << "template" << YAML::Value << YAML::BeginMap;
    o << YAML::Key << "metadata" << YAML::Value << YAML::BeginMap;
    stringMap(o, "labels", {{kQueueLabel, queue}});
    if (!annotations.empty())
        stringMap(o, "annotations", annotations);
    o << YAML::EndMap;
    o << YAML::Key << "spec" << YAML::Value << YAML::BeginMap << YAML::Key << "schedulerName" << YAML::Value
      << kScheduler;
    stringMap(o, "nodeSelector", {{"kubernetes.io/hostname", nodeName}});
    o << YAML::Key << "containers" << YAML::Value << YAML::BeginSeq << YAML::BeginMap << YAML::Key << "name"
      << YAML::Value << kContainer;
    if (k.gpus > 0 || !k.mig.empty()) {
        o << YAML::Key << "resources" << YAML::Value << YAML::BeginMap << YAML::Key << "limits" << YAML::Value
          << YAML::BeginMap;
        if (k.gpus > 0)
            o << YAML::Key << Quoted{kGpu} << YAML::Value << k.gpus;
        for (const auto& [resource, n] : k.mig)
            o << YAML::Key << Quoted{resource} << YAML::Value << n;
        o << YAML::EndMap << YAML::EndMap;
    }
    if (mps)
        o << YAML::Key << "volumeMounts" << YAML::Value << YAML::BeginSeq << YAML::BeginMap << YAML::Key << "name"
          << YAML::Value << "nvidia-mps" << YAML::Key << "mountPath" << YAML::Value << kMpsPipe << YAML::EndMap
          << YAML::EndSeq;
    o << YAML::EndMap << YAML::EndSeq;
    if (mps)
        o << YAML::Key << "volumes" << YAML::Value << YAML::BeginSeq << YAML::BeginMap << YAML::Key << "name"
          << YAML::Value << "nvidia-mps" << YAML::Key << "hostPath" << YAML::Value << YAML::BeginMap << YAML::Key
          << "path" << YAML::Value << kMpsPipe << YAML::Key << "type" << YAML::Value << "DirectoryOrCreate"
          << YAML::EndMap << YAML::EndMap << YAML::EndSeq;
    o << YAML::EndMap << YAML::EndMap;
}

/// A tenant's pods and what KAI charges for them, by kind (in 0.01 GPU).
struct TenantCharge
{
    long long whole = 0;
    long long mig = 0;
    long long shared = 0;
    long long total() const { return whole + mig + shared; }
};

QByteArray tenantFile(const TenantConfig& t, const std::string& queue, const std::string& scenario,
                      TenantCharge& charge)
{
    YamlOut y("KAI Scheduler pod templates of this tenant's jobs: one per job, node and kind of GPU unit; "
              "merge each into the pod template of the job's workload.",
              scenario);
    YAML::Emitter& o = y.out();
    o << YAML::BeginMap << YAML::Key << "tenant" << YAML::Value << Quoted{t.id} << YAML::Key << "name" << YAML::Value
      << Quoted{t.name} << YAML::Key << "queue" << YAML::Value << Quoted{queue};
    o << YAML::Key << "pods" << YAML::Value;
    if (t.pods.empty())
        o << YAML::Flow;
    o << YAML::BeginSeq;
    for (const PodRequest& p : t.pods)
        for (const KaiPod& k : kaiPods(p)) {
            (k.sharing == "whole" ? charge.whole
             : k.sharing == "mig" ? charge.mig
                                  : charge.shared) += k.chargeHundredths;
            o << YAML::BeginMap << YAML::Key << "job" << YAML::Value << Quoted{p.job} << YAML::Key << "job_name"
              << YAML::Value << Quoted{p.jobName} << YAML::Key << "node" << YAML::Value << Quoted{p.node};
            o << YAML::Key << "sharing" << YAML::Value << k.sharing << YAML::Key << "queue_gpus" << YAML::Value
              << decimal(k.chargeHundredths, 2);
            podTemplate(o, k, queue, p.nodeName);
            o << YAML::EndMap;
        }
    o << YAML::EndSeq;
    unplacedJobs(o, t.unplaced);
    o << YAML::EndMap;
    return y.bytes();
}

/// One Queue: GPU quota and limit `gpuHundredths`, CPU and memory unbounded as in KAI's own
/// default queues (docs/quickstart/default-queues.yaml): gpuplan plans GPUs only.
QByteArray queueDoc(const std::string& name, const std::string& displayName, const std::string& parent,
                    std::optional<int> priority, long long gpuHundredths, const std::string& comment)
{
    YAML::Emitter o;
    o << YAML::Comment(comment) << YAML::Newline;
    o << YAML::BeginMap << YAML::Key << "apiVersion" << YAML::Value << kQueueApi << YAML::Key << "kind" << YAML::Value
      << "Queue";
    o << YAML::Key << "metadata" << YAML::Value << YAML::BeginMap << YAML::Key << "name" << YAML::Value << name
      << YAML::EndMap;
    o << YAML::Key << "spec" << YAML::Value << YAML::BeginMap << YAML::Key << "displayName" << YAML::Value
      << Quoted{displayName};
    if (!parent.empty())
        o << YAML::Key << "parentQueue" << YAML::Value << parent;
    if (priority)
        o << YAML::Key << "priority" << YAML::Value << *priority;
    o << YAML::Key << "resources" << YAML::Value << YAML::BeginMap;
    o << YAML::Key << "gpu" << YAML::Value << YAML::BeginMap << YAML::Key << "quota" << YAML::Value
      << decimal(gpuHundredths, 2) << YAML::Key << "limit" << YAML::Value << decimal(gpuHundredths, 2) << YAML::Key
      << "overQuotaWeight" << YAML::Value << 1 << YAML::EndMap;
    for (const char* r : {"cpu", "memory"})
        o << YAML::Key << r << YAML::Value << YAML::BeginMap << YAML::Key << "quota" << YAML::Value << 0 << YAML::Key
          << "limit" << YAML::Value << -1 << YAML::Key << "overQuotaWeight" << YAML::Value << 1 << YAML::EndMap;
    o << YAML::EndMap << YAML::EndMap << YAML::EndMap;
    return QByteArray(o.c_str()) + '\n';
}

} // namespace kai
} // namespace

std::vector<std::pair<QString, QByteArray>> kaiFiles(const ClusterConfigPlan& plan, const std::string& scenarioName)
{
    std::set<std::string> names;
    const std::string parent = "gpuplan-" + dnsLabel(scenarioName, 50);
    names.insert(parent);
    std::vector<std::pair<QString, QByteArray>> files;
    std::vector<QByteArray> children;
    QStringList used;
    long long cluster = 0;
    for (const TenantConfig& t : plan.tenants) {
        std::string queue = dnsLabel(t.id);
        while (!names.insert(queue).second)
            queue += "x";
        kai::TenantCharge c;
        QString file = QString::fromStdString(tenantNamespace(t.id));
        while (used.contains(file))
            file += "_";
        used << file;
        files.push_back({"kai/tenants/" + file + ".yaml", kai::tenantFile(t, queue, scenarioName, c)});
        cluster += c.total();
        const std::string why = "Tenant " + t.name + ": GPU quota and limit " + kai::decimal(c.total(), 2) +
                                " = what KAI charges for the pods of kai/tenants/" + file.toStdString() +
                                ".yaml (whole GPUs " + kai::decimal(c.whole, 2) + ", MIG instances " +
                                kai::decimal(c.mig, 2) + " as their compute slices, shared GPUs " +
                                kai::decimal(c.shared, 2) + "); priority 100 + the tenant's priority " +
                                std::to_string(t.priority) +
                                "; overQuotaWeight 1 as in KAI's default queues, yours to edit.";
        children.push_back(
            kai::queueDoc(queue, t.name, parent, kai::kDefaultQueuePriority + t.priority, c.total(), why));
    }
    QByteArray queues =
        YamlOut("KAI Scheduler queues: one for the cluster, one per tenant under it.", scenarioName).bytes();
    queues +=
        "---\n" + kai::queueDoc(parent, scenarioName, {}, std::nullopt, cluster,
                                "The cluster: its tenants' quotas together (" + kai::decimal(cluster, 2) + " GPUs).");
    for (const QByteArray& d : children)
        queues += "---\n" + d;
    files.insert(files.begin(), {"kai/queues.yaml", queues});

    QString r = QString("# KAI Scheduler objects for %1\n\nExported by gpuplan (docs/export.md, \"KAI Scheduler\") "
                        "for NVIDIA KAI Scheduler v0.6.0 or later (queue label `kai.scheduler/queue`). Files:\n\n")
                    .arg(QString::fromStdString(scenarioName));
    r += markdownFileList(files);
    r += "\n## Apply\n\n"
         "1. Install KAI Scheduler; where a tenant's file has `gpu-fraction` or `gpu-memory` pods, with GPU sharing "
         "on (`--set global.gpuSharing=true`), and for `mps` pods an MPS server on the node with its pipe in "
         "`/tmp/nvidia-mps` (KAI's docs/gpu-sharing/README.md and docs/gpu-sharing/mps/README.md).\n"
         "2. `kubectl apply -f kai/queues.yaml` (Queues are cluster-wide; the parent comes first).\n"
         "3. Merge each pod template of `kai/tenants/` into its job's workload: the queue label, the annotations, "
         "`schedulerName: kai-scheduler`, the `nodeSelector`, the container's `resources.limits` (rename "
         "`gpu-workload` to the job's GPU container, or name it in the `gpu-fraction-container-name` annotation) "
         "and, for MPS, the `nvidia-mps` volume. A job with several templates runs as several pods; keep them in "
         "one workload, whose pods KAI's pod grouper puts in one PodGroup and starts together "
         "(docs/developer/pod-grouper.md).\n"
         "4. MIG instances are asked for as the device plugin's `nvidia.com/mig-<profile>` (mixed strategy): "
         "partition the GPUs as the operator export's `mig-parted.yaml` says.\n"
         "\n## How the quotas are computed\n\n"
         "Each tenant's queue gets as GPU quota what KAI charges for the pods gpuplan placed for it: a whole GPU "
         "(also a vGPU or a passed-through GPU, one `nvidia.com/gpu` inside its VM) 1; a MIG instance its "
         "compute-slice count (a `3g.40gb` is 3: KAI's own accounting, not 3/7); a `gpu-fraction` f rounded to "
         "0.01; a `gpu-memory` of m MiB as ceil(100 m / the node's GPU memory) / 100, the node's GPU memory being "
         "GPU Feature Discovery's `nvidia.com/gpu.memory` (the catalog's usable memory) floored to 100 MiB. "
         "Jobs the placement could not place add nothing. The limit equals the quota, so no tenant takes more "
         "than the plan gives it; raise a limit (-1: none) to let a tenant borrow idle GPUs. `overQuotaWeight` "
         "is 1, as in KAI's own default queues (an equal share of what is left over quota among siblings): a "
         "default to edit. The queue priority is KAI's default 100 plus the tenant's priority "
         "(higher is served first over quota and reclaimed last). CPU and memory are left unbounded (quota 0, "
         "limit -1), as in KAI's default queues.\n";
    QStringList notes;
    notes << "- Time-slicing: KAI shares a GPU by fractions of its memory (`gpu-fraction` = the pod's replicas / the "
             "GPU's replicas, floored to 0.0001) and does not enforce them; it has no replica count. It reserves "
             "the GPU with a pod of its own, so the device plugin's time-slicing replicas are not needed for it.";
    notes << "- MPS: the active-thread share is not a KAI setting: set `CUDA_MPS_ACTIVE_THREAD_PERCENTAGE` for the "
             "MPS server or the pods. A memory limit per client becomes `gpu-memory` (the pod's clients × the "
             "limit, at most the GPU's memory); without one, `gpu-fraction` = clients / the GPU's clients. KAI "
             "does not enforce the memory; `CUDA_MPS_PINNED_DEVICE_MEM_LIMIT` in the pods does.";
    notes << "- A pod that holds every replica or client of a shared GPU asks for it whole.";
    notes << "- KAI counts MIG instances whose profile carries an attribute (`+me`, resource `.me`) as no GPU "
             "against a quota (its resource-name pattern); they add nothing to the quotas here either.";
    for (const NodeConfig& n : plan.nodes)
        for (const std::string& note : n.notes)
            if (note.find("vGPU") != std::string::npos || note.find("passed through") != std::string::npos)
                notes << QString("- %1: %2; the Kubernetes nodes are the VMs there: point the templates' "
                                 "`nodeSelector` at them")
                             .arg(QString::fromStdString(n.name), QString::fromStdString(note));
    r += "\n## Not expressed by these files\n\n" + notes.join('\n') + "\n";
    files.push_back({"kai/README.md", r.toUtf8()});
    return files;
}

} // namespace gp::io
