// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
// Kubernetes objects -> the cluster inventory (docs/cluster-import.md#kubernetes). Label names are
// NVIDIA GPU Feature Discovery's and the k8s-device-plugin's (NVIDIA/k8s-device-plugin README.md
// "Catalog of Labels", docs/gpu-feature-discovery/README.md "Generated Labels"); DRA attributes
// are the NVIDIA DRA driver's (NVIDIA/k8s-dra-driver-gpu cmd/gpu-kubelet-plugin: type,
// productName, profile, parentUUID, uuid).
#include "clusterinventory.h"
#include "jsonfile.h"
#include "model/clusterconfig.h"

#include <QJsonArray>
#include <QJsonObject>
#include <QJsonValue>

#include <algorithm>
#include <map>
#include <optional>
#include <regex>
#include <set>

namespace gp::io {

namespace {

const char* kK8sGpu = "nvidia.com/gpu";
const char* kK8sGpuShared = "nvidia.com/gpu.shared";
const char* kK8sDraDriver = "gpu.nvidia.com";

std::string kubeText(const QJsonValue& v) { return v.toString().toStdString(); }
std::string labelKey(const std::string& path, const std::string& k) { return path + "[\"" + k + "\"]"; }

/// A MIG resource or label's profile: "nvidia.com/mig-1g.10gb" -> "1g.10gb".
std::optional<std::string> migResourceProfile(const std::string& resource) { return migProfileOfResource(resource); }

/// Whether a resource name is a GPU or accelerator gpuplan cannot model (so a pod asking for one
/// is refused rather than imported without it).
bool looksLikeAccelerator(const std::string& r)
{
    for (const char* prefix : {"nvidia.com/", "amd.com/", "gpu.intel.com/", "habana.ai/", "aws.amazon.com/neuron"})
        if (r.rfind(prefix, 0) == 0)
            return true;
    return r.find("gpu") != std::string::npos;
}

/// A quantity of an extended resource: a whole number ("8"). Else an error at `where`.
std::optional<int> wholeQuantity(const QJsonValue& v, const std::string& where, Issues& out)
{
    const std::string text = v.isString() ? kubeText(v) : v.isDouble() ? std::to_string(v.toDouble()) : std::string();
    static const std::regex whole("^[0-9]{1,6}$");
    if (v.isDouble() && v.toDouble() >= 0 && v.toDouble() < 1e6 && v.toDouble() == static_cast<int>(v.toDouble()))
        return static_cast<int>(v.toDouble());
    if (std::regex_match(text, whole))
        return std::stoi(text);
    out.push_back(Issue::error(where, "'" + text + "' is not a whole number of devices"));
    return std::nullopt;
}

class KubernetesReader
{
public:
    KubernetesReader(const ClusterImportOptions& options, const Catalog& catalog) : mOptions(options), mCatalog(catalog)
    {
    }

    Result<Scenario> read(const ClusterInput& in)
    {
        Issues parse;
        auto root = parseJsonObject(in.bytes, parse);
        if (!root)
            return named(std::move(parse), in);
        const std::string kind = kubeText(root->value("kind"));
        const std::string api = kubeText(root->value("apiVersion"));
        static const std::set<std::string> lists{"List", "NodeList", "PodList", "ResourceSliceList",
                                                 "ResourceClaimList"};
        if (!lists.count(kind) || !root->value("items").isArray())
            return named({Issue::error("kind", "'" + kind + "' (apiVersion '" + api +
                                                   "') is not a list of Kubernetes objects; give what `kubectl get "
                                                   "nodes,pods -o json` prints (a v1 List of Nodes and Pods)")},
                         in);
        if (kind == "List" && api != "v1")
            return named({Issue::error("apiVersion", "'" + api + "' of a List: gpuplan reads v1 (kubectl's)")}, in);
        const QJsonArray items = root->value("items").toArray();
        for (qsizetype i = 0; i < items.size(); ++i)
            item(items.at(i), "items[" + std::to_string(i) + "]");
        if (!hasErrors(mIssues))
            finishNodes();
        if (!hasErrors(mIssues))
            finishPods();
        if (hasErrors(mIssues))
            return named(std::move(mIssues), in);
        if (mNodes.empty())
            mIssues.push_back(Issue::warning("items", "no node has NVIDIA GPUs (GPU Feature Discovery labels, "
                                                      "nvidia.com/gpu resources or gpu.nvidia.com ResourceSlices)"));
        std::vector<InventoryWorkload> workloads;
        for (auto& [k, w] : mWorkloads)
            workloads.push_back(std::move(w));
        // The input's notes name the input; the scenario's own warnings (validation) name the scenario.
        inFile(mIssues, in.name.toStdString());
        return buildImportedScenario(mNodes, workloads, "kubernetes", mOptions, mCatalog, std::move(mIssues));
    }

private:
    static Result<Scenario> named(Issues issues, const ClusterInput& in)
    {
        inFile(issues, in.name.toStdString());
        return Result<Scenario>::failure(std::move(issues));
    }

    void item(const QJsonValue& v, const std::string& path)
    {
        const QJsonObject o = v.toObject();
        const std::string kind = kubeText(o.value("kind"));
        const std::string api = kubeText(o.value("apiVersion"));
        if (kind == "Node" || kind == "Pod") {
            if (api != "v1") {
                mIssues.push_back(
                    Issue::error(path + ".apiVersion", "'" + api + "' of a " + kind + ": gpuplan reads v1"));
                return;
            }
            (kind == "Node" ? mNodeItems : mPodItems).push_back({o, path});
        } else if (kind == "ResourceSlice" || kind == "ResourceClaim") {
            if (api.rfind("resource.k8s.io/", 0) != 0) {
                mIssues.push_back(Issue::error(path + ".apiVersion",
                                               "'" + api + "' of a " + kind + ": gpuplan reads resource.k8s.io (DRA)"));
                return;
            }
            if (kind == "ResourceSlice")
                mSliceItems.push_back({o, path});
            else
                claim(o);
        } else {
            ++mIgnored[kind.empty() ? "(no kind)" : kind];
        }
    }

    // ---- nodes -------------------------------------------------------------------------------

    void finishNodes()
    {
        std::map<std::string, std::vector<std::pair<QJsonObject, std::string>>> slicesByNode;
        for (const auto& [o, path] : mSliceItems) {
            const QJsonObject spec = o.value("spec").toObject();
            if (kubeText(spec.value("driver")) != kK8sDraDriver)
                continue;
            slicesByNode[kubeText(spec.value("nodeName"))].push_back({spec, path});
        }
        for (const auto& [o, path] : mNodeItems) {
            const std::string name = kubeText(o.value("metadata").toObject().value("name"));
            auto slices = slicesByNode.find(name);
            node(o, path, slices == slicesByNode.end() ? nullptr : &slices->second);
            if (slices != slicesByNode.end())
                slicesByNode.erase(slices);
        }
        for (const auto& [name, slices] : slicesByNode)
            if (!name.empty())
                mIssues.push_back(Issue::warning(slices.front().second + ".spec.nodeName",
                                                 "ResourceSlice of node '" + name +
                                                     "', which is not in the input: its devices are left out"));
    }

    void node(const QJsonObject& o, const std::string& path,
              const std::vector<std::pair<QJsonObject, std::string>>* slices)
    {
        const QJsonObject meta = o.value("metadata").toObject();
        const std::string name = kubeText(meta.value("name"));
        const QJsonObject labels = meta.value("labels").toObject();
        const std::string lpath = path + ".metadata.labels";
        QJsonObject resources = o.value("status").toObject().value("allocatable").toObject();
        std::string rpath = path + ".status.allocatable";
        if (resources.isEmpty()) {
            resources = o.value("status").toObject().value("capacity").toObject();
            rpath = path + ".status.capacity";
        }
        const auto label = [&](const char* k) { return kubeText(labels.value(QLatin1String(k))); };
        const auto labelInt = [&](const char* k) -> std::optional<int> {
            if (!labels.contains(QLatin1String(k)))
                return std::nullopt;
            return wholeQuantity(labels.value(QLatin1String(k)), labelKey(lpath, k), mIssues);
        };

        // Device-plugin resources: whole GPUs (or their time-slicing/MPS replicas) and MIG devices.
        int gpuResource = 0;
        std::map<std::string, int> migResources;
        for (auto it = resources.begin(); it != resources.end(); ++it) {
            const std::string r = it.key().toStdString();
            if (r == kK8sGpu || r == kK8sGpuShared)
                gpuResource = addUnits(gpuResource, wholeQuantity(it.value(), labelKey(rpath, r), mIssues).value_or(0));
            else if (auto p = migResourceProfile(r))
                migResources[*p] =
                    addUnits(migResources[*p], wholeQuantity(it.value(), labelKey(rpath, r), mIssues).value_or(0));
        }
        std::string product = label("nvidia.com/gpu.product");
        const std::string strategy = label("nvidia.com/mig.strategy");
        const std::string migConfig = label("nvidia.com/mig.config");
        std::string singleProfile; // MIG 'single' strategy: the product names the profile
        if (auto m = product.find("-MIG-"); m != std::string::npos) {
            singleProfile = product.substr(m + 5);
            product = product.substr(0, m);
        }
        for (const char* suffix : {"-SHARED"})
            if (product.size() > 7 && product.compare(product.size() - 7, 7, suffix) == 0)
                product.resize(product.size() - 7);
        if (auto p = singleProfile.find("-SHARED"); p != std::string::npos)
            singleProfile.resize(p);

        const bool hasDevicePlugin = gpuResource > 0 || !migResources.empty();
        if (!hasDevicePlugin && product.empty() && !slices)
            return; // not a GPU node
        if (!hasDevicePlugin && slices) {
            draNode(name, path, *slices);
            return;
        }
        if (product.empty()) {
            mIssues.push_back(Issue::error(labelKey(lpath, "nvidia.com/gpu.product"),
                                           "node '" + name +
                                               "' offers NVIDIA GPUs but has no GPU product label (GPU Feature "
                                               "Discovery's); gpuplan cannot tell which GPU it is"));
            return;
        }
        auto gpuId = gpuForProduct(product, labelKey(lpath, "nvidia.com/gpu.product"), mOptions, mCatalog);
        if (!gpuId) {
            mIssues.insert(mIssues.end(), gpuId.issues.begin(), gpuId.issues.end());
            return;
        }
        const GpuSpec& gpu = *mCatalog.gpu(*gpuId);
        InventoryNode n{name, *gpuId, {}};

        // Time-slicing or MPS replicas per GPU (device plugin's sharing config, GFD's labels).
        const int replicas = std::max(labelInt("nvidia.com/gpu.replicas").value_or(1), 1);
        std::string sharingStrategy = label("nvidia.com/gpu.sharing-strategy");
        if (sharingStrategy.empty() && replicas > 1)
            sharingStrategy = label("nvidia.com/mps.capable") == "true" ? "mps" : "time-slicing";
        SharingConfig whole;
        if (replicas > 1 && sharingStrategy == "mps") {
            // Each MPS client gets an equal fraction of memory and compute (k8s-device-plugin README, "With CUDA MPS").
            whole.mode = SharingMode::Mps;
            whole.mpsActiveThreadPct = std::max(1, 100 / replicas);
            whole.mpsMemoryLimitGiB = gpu.memoryUsableGiB / replicas;
        } else if (replicas > 1) {
            whole.mode = SharingMode::TimeSlicing;
            whole.replicas = replicas;
        }

        long long offered = gpuResource;
        for (const auto& [profile, count] : migResources)
            offered += count;
        if (offered > 64LL * kMaxImportedGpus) { // before anything this large is made or packed
            mIssues.push_back(Issue::error(rpath, "node '" + name + "' offers " + std::to_string(offered) +
                                                      " GPU devices; a gpuplan node has at most " +
                                                      std::to_string(kMaxImportedGpus) + " GPUs"));
            return;
        }
        // MIG instances: 'mixed' names each profile's resource; 'single' overloads nvidia.com/gpu.
        std::vector<std::string> instances;
        int wholeGpus = gpuResource / replicas;
        if (!singleProfile.empty() || strategy == "single") {
            if (singleProfile.empty())
                singleProfile = migConfig.rfind("all-", 0) == 0 ? migConfig.substr(4) : std::string();
            if (!migProfileOf(gpu, singleProfile)) {
                mIssues.push_back(Issue::error(labelKey(lpath, "nvidia.com/gpu.product"),
                                               "MIG profile '" + singleProfile + "' of node '" + name +
                                                   "' is not a MIG profile of " + gpu.name));
                return;
            }
            instances.assign(static_cast<std::size_t>(gpuResource), singleProfile);
            wholeGpus = 0;
        }
        for (const auto& [profile, count] : migResources) {
            if (!migProfileOf(gpu, profile)) {
                mIssues.push_back(
                    Issue::error(labelKey(rpath, migResourceName(profile)),
                                 "'" + profile + "' is not a MIG profile of " + gpu.name + " (node '" + name + "')"));
                return;
            }
            instances.insert(instances.end(), static_cast<std::size_t>(count), profile);
        }
        if (instances.size() > 7 * static_cast<std::size_t>(kMaxImportedGpus)) {
            mIssues.push_back(Issue::error(rpath, "node '" + name + "' offers " + std::to_string(instances.size()) +
                                                      " MIG instances; a gpuplan node has at most " +
                                                      std::to_string(kMaxImportedGpus) + " GPUs of 7"));
            return;
        }
        const std::vector<mig::Layout> layouts = packMigInstances(gpu, instances);
        const int physical = labelInt("nvidia.com/gpu.count").value_or(0);
        int counted = wholeGpus + static_cast<int>(layouts.size());
        if (strategy != "single" && physical > counted) {
            // GPUs the labels count but no resource offers (MIG enabled without instances, a GPU
            // held back): bare GPUs, said so.
            mIssues.push_back(Issue::warning(labelKey(lpath, "nvidia.com/gpu.count"),
                                             "node '" + name + "' has " + std::to_string(physical) +
                                                 " GPUs but offers " + std::to_string(counted) +
                                                 "; the others are imported as exclusive GPUs"));
            wholeGpus += physical - counted;
        }
        if (wholeGpus + static_cast<int>(layouts.size()) > kMaxImportedGpus) {
            mIssues.push_back(Issue::error(
                rpath, "node '" + name + "' offers " + std::to_string(wholeGpus + static_cast<int>(layouts.size())) +
                           " GPUs; a gpuplan node has at most " + std::to_string(kMaxImportedGpus)));
            return;
        }
        for (int i = 0; i < wholeGpus; ++i)
            n.gpus.push_back(whole);
        for (const mig::Layout& l : layouts) {
            SharingConfig c;
            c.mode = SharingMode::Mig;
            c.migInstances = l;
            n.gpus.push_back(c);
        }
        mNodes.push_back(std::move(n));
    }

    /// A node whose GPUs only DRA offers: its gpu.nvidia.com devices, full GPUs and MIG devices
    /// grouped by their parent.
    void draNode(const std::string& name, const std::string& path,
                 const std::vector<std::pair<QJsonObject, std::string>>& slices)
    {
        std::string gpuId;
        int wholeGpus = 0;
        std::map<std::string, std::vector<std::string>> migByParent;
        std::set<std::string> gpuUuids;
        for (const auto& [spec, spath] : slices) {
            const QJsonArray devices = spec.value("devices").toArray();
            for (qsizetype d = 0; d < devices.size(); ++d) {
                const QJsonObject dev = devices.at(d).toObject();
                // v1beta1 keeps attributes under "basic"; v1beta2 and v1 directly on the device.
                QJsonObject attrs = dev.value("attributes").toObject();
                if (attrs.isEmpty())
                    attrs = dev.value("basic").toObject().value("attributes").toObject();
                const auto attr = [&](const char* k) {
                    return kubeText(attrs.value(QLatin1String(k)).toObject().value("string"));
                };
                const std::string where = spath + ".spec.devices[" + std::to_string(d) + "]";
                const std::string type = attr("type");
                if (type != "gpu" && type != "mig")
                    continue;
                auto id = gpuForProduct(attr("productName"), where + ".attributes.productName", mOptions, mCatalog);
                if (!id) {
                    mIssues.insert(mIssues.end(), id.issues.begin(), id.issues.end());
                    return;
                }
                if (!gpuId.empty() && *id != gpuId) {
                    mIssues.push_back(Issue::error(where + ".attributes.productName",
                                                   "node '" + name + "' holds " + gpuId + " and " + *id +
                                                       "; a gpuplan node has one GPU model"));
                    return;
                }
                gpuId = *id;
                if (type == "gpu") {
                    ++wholeGpus;
                    gpuUuids.insert(attr("uuid"));
                } else
                    migByParent[attr("parentUUID")].push_back(attr("profile"));
            }
        }
        if (gpuId.empty())
            return;
        std::size_t migDevices = 0;
        for (const auto& [parent, profiles] : migByParent)
            migDevices += profiles.size();
        if (wholeGpus > kMaxImportedGpus || migDevices > 7 * static_cast<std::size_t>(kMaxImportedGpus)) {
            mIssues.push_back(Issue::error(path, "node '" + name + "' has " + std::to_string(wholeGpus) + " GPUs and " +
                                                     std::to_string(migDevices) +
                                                     " MIG devices in its ResourceSlices; a gpuplan node has at most " +
                                                     std::to_string(kMaxImportedGpus) + " GPUs"));
            return;
        }
        const GpuSpec& gpu = *mCatalog.gpu(gpuId);
        InventoryNode n{name, gpuId, {}};
        for (const auto& [parent, profiles] : migByParent) {
            if (gpuUuids.count(parent))
                --wholeGpus; // a MIG-enabled GPU listed as well
            for (const std::string& p : profiles)
                if (!migProfileOf(gpu, p)) {
                    mIssues.push_back(Issue::error(path, "DRA device profile '" + p + "' of node '" + name +
                                                             "' is not a MIG profile of " + gpu.name));
                    return;
                }
            for (const mig::Layout& l : packMigInstances(gpu, profiles)) {
                SharingConfig c;
                c.mode = SharingMode::Mig;
                c.migInstances = l;
                n.gpus.push_back(c);
            }
        }
        for (int i = 0; i < std::max(wholeGpus, 0); ++i)
            n.gpus.insert(n.gpus.begin(), SharingConfig{});
        mNodes.push_back(std::move(n));
    }

    // ---- claims and pods ---------------------------------------------------------------------

    void claim(const QJsonObject& o)
    {
        const QJsonObject meta = o.value("metadata").toObject();
        const QJsonArray results = o.value("status")
                                       .toObject()
                                       .value("allocation")
                                       .toObject()
                                       .value("devices")
                                       .toObject()
                                       .value("results")
                                       .toArray();
        int devices = 0;
        for (const auto& r : results)
            if (kubeText(r.toObject().value("driver")) == kK8sDraDriver)
                ++devices;
        mClaims[kubeText(meta.value("namespace")) + "/" + kubeText(meta.value("name"))] = devices;
    }

    /// GPU units a pod holds through the device plugin: the larger of its containers' sum and its
    /// largest init container (Kubernetes' effective request).
    int podUnits(const QJsonObject& spec, const std::string& path)
    {
        const auto containerUnits = [&](const QJsonObject& c, const std::string& cpath) {
            int units = 0;
            const QJsonObject res = c.value("resources").toObject();
            // Extended resources are given as limits (requests, when given, must equal them).
            for (const char* part : {"limits", "requests"}) {
                const QJsonObject m = res.value(QLatin1String(part)).toObject();
                int here = 0;
                for (auto it = m.begin(); it != m.end(); ++it) {
                    const std::string r = it.key().toStdString();
                    const std::string where = labelKey(cpath + ".resources." + part, r);
                    if (r == kK8sGpu || r == kK8sGpuShared || migResourceProfile(r))
                        here = addUnits(here, wholeQuantity(it.value(), where, mIssues).value_or(0));
                    else if (looksLikeAccelerator(r))
                        mIssues.push_back(
                            Issue::error(where, "pod requests '" + r +
                                                    "', a device gpuplan does not model (it reads nvidia.com/gpu, "
                                                    "nvidia.com/gpu.shared and nvidia.com/mig-<profile>)"));
                }
                units = std::max(units, here);
            }
            return units;
        };
        int sum = 0;
        const QJsonArray containers = spec.value("containers").toArray();
        for (qsizetype c = 0; c < containers.size(); ++c)
            sum = addUnits(
                sum, containerUnits(containers.at(c).toObject(), path + ".spec.containers[" + std::to_string(c) + "]"));
        int init = 0;
        const QJsonArray inits = spec.value("initContainers").toArray();
        for (qsizetype c = 0; c < inits.size(); ++c)
            init = std::max(
                init, containerUnits(inits.at(c).toObject(), path + ".spec.initContainers[" + std::to_string(c) + "]"));
        return std::max(sum, init);
    }

    int claimUnits(const QJsonObject& pod, const std::string& path, const std::string& ns)
    {
        int units = 0;
        std::map<std::string, std::string> claimNames; // pod's claim entry -> ResourceClaim name
        for (const auto& st : pod.value("status").toObject().value("resourceClaimStatuses").toArray())
            claimNames[kubeText(st.toObject().value("name"))] = kubeText(st.toObject().value("resourceClaimName"));
        const QJsonArray claims = pod.value("spec").toObject().value("resourceClaims").toArray();
        for (qsizetype i = 0; i < claims.size(); ++i) {
            const QJsonObject c = claims.at(i).toObject();
            std::string claimName = kubeText(c.value("resourceClaimName"));
            if (claimName.empty())
                claimName = claimNames[kubeText(c.value("name"))];
            auto it = mClaims.find(ns + "/" + claimName);
            if (it == mClaims.end()) {
                mIssues.push_back(Issue::warning(path + ".spec.resourceClaims[" + std::to_string(i) + "]",
                                                 "claim '" + claimName +
                                                     "' is not in the input (kubectl get resourceclaims -A -o json): "
                                                     "its devices are not counted"));
                continue;
            }
            units = addUnits(units, it->second);
        }
        return units;
    }

    /// Which kinds of unit a pod's containers hold: MIG profiles, or whole GPUs and replicas
    /// (DRA devices count as whole).
    static void notePodDevices(const QJsonObject& spec, InventoryWorkload& w)
    {
        if (!spec.value("resourceClaims").toArray().isEmpty())
            w.wholeGpus = true;
        for (const char* list : {"containers", "initContainers"})
            for (const auto& c : spec.value(QLatin1String(list)).toArray())
                for (const char* part : {"limits", "requests"}) {
                    const QJsonObject m =
                        c.toObject().value("resources").toObject().value(QLatin1String(part)).toObject();
                    for (auto it = m.begin(); it != m.end(); ++it) {
                        const std::string r = it.key().toStdString();
                        if (auto p = migResourceProfile(r))
                            w.migProfiles.insert(*p);
                        else if (r == kK8sGpu || r == kK8sGpuShared)
                            w.wholeGpus = true;
                    }
                }
    }

    /// The workload a pod belongs to: its controller, a ReplicaSet standing for its Deployment.
    static std::pair<std::string, std::string> ownerOf(const QJsonObject& meta)
    {
        const QJsonObject labels = meta.value("labels").toObject();
        const auto label = [&](const char* k) { return kubeText(labels.value(QLatin1String(k))); };
        // Higher-level owners that label their pods (LeaderWorkerSet, JobSet, Kubeflow trainers).
        if (!label("leaderworkerset.sigs.k8s.io/name").empty())
            return {"LeaderWorkerSet", label("leaderworkerset.sigs.k8s.io/name")};
        if (!label("jobset.sigs.k8s.io/jobset-name").empty())
            return {"JobSet", label("jobset.sigs.k8s.io/jobset-name")};
        QJsonObject owner;
        for (const auto& r : meta.value("ownerReferences").toArray())
            if (owner.isEmpty() || r.toObject().value("controller").toBool())
                owner = r.toObject();
        if (owner.isEmpty())
            return {"Pod", kubeText(meta.value("name"))};
        std::string kind = kubeText(owner.value("kind"));
        std::string name = kubeText(owner.value("name"));
        if (kind == "ReplicaSet") {
            // A Deployment's ReplicaSet is <deployment>-<pod-template-hash>.
            const std::string hash = label("pod-template-hash");
            if (!hash.empty() && name.size() > hash.size() + 1 &&
                name.compare(name.size() - hash.size() - 1, std::string::npos, "-" + hash) == 0) {
                name.resize(name.size() - hash.size() - 1);
                kind = "Deployment";
            }
        }
        return {kind, name};
    }

    static bool servingOwner(const std::string& kind)
    {
        static const std::set<std::string> serving{
            "Deployment", "StatefulSet", "LeaderWorkerSet", "ReplicaSet", "InferenceService", "DaemonSet", "Pod"};
        return serving.count(kind) > 0;
    }

    void finishPods()
    {
        for (const auto& [o, path] : mPodItems) {
            const QJsonObject meta = o.value("metadata").toObject();
            const std::string phase = kubeText(o.value("status").toObject().value("phase"));
            if (phase == "Succeeded" || phase == "Failed")
                continue;
            const std::string ns = kubeText(meta.value("namespace"));
            const int units = addUnits(podUnits(o.value("spec").toObject(), path), claimUnits(o, path, ns));
            if (units == 0)
                continue;
            std::string tenant = ns;
            if (!mOptions.tenantLabel.empty()) {
                const QJsonValue v =
                    meta.value("labels").toObject().value(QString::fromStdString(mOptions.tenantLabel));
                if (v.isString() && !v.toString().isEmpty())
                    tenant = kubeText(v);
                else
                    mIssues.push_back(
                        Issue::warning(path + ".metadata.labels", "pod '" + kubeText(meta.value("name")) +
                                                                      "' has no label '" + mOptions.tenantLabel +
                                                                      "': its tenant is its namespace '" + ns + "'"));
            }
            const auto [kind, name] = ownerOf(meta);
            InventoryWorkload& w = mWorkloads[tenant + "\n" + ns + "\n" + kind + "/" + name];
            w.tenant = tenant;
            w.scope = ns;
            w.workload = kind + "/" + name;
            w.name = name;
            w.serving = servingOwner(kind);
            w.units = addUnits(w.units, units);
            if (w.units > kMaxWorkloadUnits) {
                mIssues.push_back(Issue::error(path, kind + "/" + name + " holds more than the " +
                                                         std::to_string(kMaxWorkloadUnits) +
                                                         " GPU units one imported workload may hold"));
                continue;
            }
            notePodDevices(o.value("spec").toObject(), w);
            w.members.push_back(kubeText(meta.value("name")));
            const std::string node = kubeText(o.value("spec").toObject().value("nodeName"));
            if (!node.empty())
                w.nodes.insert(node);
        }
        for (const auto& [kind, count] : mIgnored)
            mIssues.push_back(Issue::warning("items", std::to_string(count) + " " + kind +
                                                          " object(s) ignored: the import reads Nodes, Pods, "
                                                          "ResourceSlices and ResourceClaims"));
    }

    const ClusterImportOptions& mOptions;
    const Catalog& mCatalog;
    Issues mIssues;
    std::vector<std::pair<QJsonObject, std::string>> mNodeItems, mPodItems, mSliceItems;
    std::map<std::string, int> mClaims; // namespace/name -> devices allocated
    std::map<std::string, int> mIgnored;
    std::vector<InventoryNode> mNodes;
    std::map<std::string, InventoryWorkload> mWorkloads; // ordered: deterministic output
};

} // namespace

Result<Scenario> importKubernetes(const ClusterInput& input, const ClusterImportOptions& options,
                                  const Catalog& catalog)
{
    return KubernetesReader(options, catalog).read(input);
}

} // namespace gp::io
