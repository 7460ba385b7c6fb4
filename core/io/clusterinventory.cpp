// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#include "clusterinventory.h"

#include "model/ids.h"
#include "model/validation.h"

#include <algorithm>
#include <cctype>
#include <map>
#include <set>
#include <tuple>
#include <utility>

namespace gp::io {

namespace {

std::string importLower(std::string s)
{
    std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    return s;
}

/// A product string in one spelling: lower case, spaces and underscores as dashes, without the
/// vendor and brand words NVIDIA's tools put in front ("NVIDIA-H100-80GB-HBM3" -> "h100-80gb-hbm3").
std::string normalisedProduct(const std::string& product)
{
    std::string s = importLower(product);
    std::replace(s.begin(), s.end(), ' ', '-');
    std::replace(s.begin(), s.end(), '_', '-');
    for (const char* prefix : {"nvidia-", "tesla-"})
        if (s.rfind(prefix, 0) == 0)
            s = s.substr(std::char_traits<char>::length(prefix));
    return s;
}

/// The names nvidia-smi (NVML's nvmlDeviceGetName) prints for the catalog's NVIDIA GPUs, as GPU
/// Feature Discovery writes them into nvidia.com/gpu.product (spaces as dashes) and the DRA
/// driver into productName, normalised. Sources: the GFD README's label examples
/// (NVIDIA/k8s-device-plugin docs/gpu-feature-discovery/README.md: "A100-SXM4-40GB"), NVIDIA's
/// GPU Operator and MIG user guides' nvidia-smi listings ("NVIDIA A100-SXM4-80GB",
/// "NVIDIA H100 80GB HBM3", "NVIDIA H100 PCIe", "NVIDIA H100 NVL", "NVIDIA H200", "NVIDIA B200",
/// "NVIDIA L40S", "NVIDIA GB200"). A product not listed (or a short Slurm GRES type such as
/// "h100", which could be any H100) is mapped by the user with --map-gpu.
const std::map<std::string, std::string>& productTable()
{
    static const std::map<std::string, std::string> t{
        {"a100-sxm4-40gb", "a100-40gb"}, {"a100-sxm4-80gb", "a100-80gb"},    {"h100-80gb-hbm3", "h100-80gb"},
        {"h100-sxm5-80gb", "h100-80gb"}, {"h100-pcie", "h100-pcie-80gb"},    {"h100-nvl", "h100-nvl-94gb"},
        {"h200", "h200-141gb"},          {"h200-141gb-hbm3e", "h200-141gb"}, {"b200", "b200-180gb"},
        {"l40s", "l40s-48gb"},           {"gb200", "gb200-186gb"},
    };
    return t;
}

std::string catalogGpuIds(const Catalog& catalog)
{
    std::string ids;
    for (const GpuSpec& g : catalog.gpus)
        ids += (ids.empty() ? "" : ", ") + g.id;
    return ids;
}

/// Grid positions on the canvas: eight nodes a row.
Point importGridPosition(std::size_t i)
{
    return {80.0 + static_cast<double>(i % 8) * 200.0, 80.0 + static_cast<double>(i / 8) * 180.0};
}

const std::vector<std::string>& importTenantColors()
{
    static const std::vector<std::string> c{"#4e79a7", "#f28e2b", "#e15759", "#76b7b2", "#59a14f",
                                            "#edc948", "#b07aa1", "#ff9da7", "#9c755f", "#bab0ac"};
    return c;
}

/// The placeholder model of an imported job: the shape of Llama 3.2 1B (its config.json on
/// Hugging Face: 16 layers, hidden 2048, 32 heads, 8 KV heads, FFN 8192, vocabulary 128256),
/// small enough for any GPU unit, so the imported plan holds what the cluster holds until the
/// planner names the real model. Always listed in imported.unknown.
ModelArchitecture placeholderModel()
{
    ModelArchitecture a;
    a.layers = 16;
    a.hiddenSize = 2048;
    a.attentionHeads = 32;
    a.kvHeads = 8;
    a.ffnHiddenSize = 8192;
    a.vocabSize = 128256;
    a.sequenceLength = 4096;
    return a;
}

void setImportedSharing(Node& node, const std::vector<SharingConfig>& gpus)
{
    // The most common configuration is the node's; the others are per-GPU overrides.
    std::size_t best = 0;
    std::size_t bestCount = 0;
    for (std::size_t i = 0; i < gpus.size(); ++i) {
        const auto n = static_cast<std::size_t>(std::count(gpus.begin(), gpus.end(), gpus[i]));
        if (n > bestCount) {
            best = i;
            bestCount = n;
        }
    }
    node.sharing = gpus.empty() ? SharingConfig{} : gpus[best];
    for (std::size_t i = 0; i < gpus.size(); ++i)
        if (!(gpus[i] == node.sharing))
            node.gpuSharing[static_cast<int>(i)] = gpus[i];
}

void pinToMigInstance(const Scenario& s, Pin& pin, const std::string& profile,
                      std::set<std::tuple<std::string, int, int>>& taken)
{
    const Node* node = s.topology.findNode(pin.node);
    for (int g = 0; node && g < node->gpuCount; ++g) {
        const SharingConfig& c = node->sharingOf(g);
        if (c.mode != SharingMode::Mig)
            continue;
        for (std::size_t i = 0; i < c.migInstances.size(); ++i)
            if (c.migInstances[i].profile == profile && taken.insert({pin.node, g, static_cast<int>(i)}).second) {
                pin.gpu = g;
                pin.migInstance = static_cast<int>(i);
                return;
            }
    }
}

} // namespace

Result<std::string> gpuForProduct(const std::string& product, const std::string& where,
                                  const ClusterImportOptions& options, const Catalog& catalog)
{
    for (const auto& [from, to] : options.gpuMap)
        if (importLower(from) == importLower(product)) {
            if (!catalog.gpu(to))
                return failure(where, "--map-gpu maps '" + product + "' to '" + to +
                                          "', which is not a GPU of the catalog (" + catalogGpuIds(catalog) + ")");
            return Result<std::string>::success(to);
        }
    if (const GpuSpec* g = catalog.findGpu(product))
        return Result<std::string>::success(g->id);
    const std::string key = normalisedProduct(product);
    for (const GpuSpec& g : catalog.gpus)
        if (key == importLower(g.id) || key == normalisedProduct(g.name))
            return Result<std::string>::success(g.id);
    if (auto it = productTable().find(key); it != productTable().end() && catalog.gpu(it->second))
        return Result<std::string>::success(it->second);
    return failure(where, "GPU product '" + product +
                              "' is not a GPU gpuplan knows; name the catalog GPU it is with --map-gpu '" + product +
                              "=ID' (one of " + catalogGpuIds(catalog) +
                              "), or add it to a user catalog (--catalog, docs/catalog.md)");
}

const MigProfile* migProfileOf(const GpuSpec& gpu, const std::string& name)
{
    for (const MigProfile& p : gpu.migProfiles)
        if (p.name == name)
            return &p;
    return nullptr;
}

std::vector<mig::Layout> packMigInstances(const GpuSpec& gpu, std::vector<std::string> instances)
{
    // Largest first: NVIDIA's placement rules leave the small starts for the small instances.
    std::stable_sort(instances.begin(), instances.end(), [&](const std::string& a, const std::string& b) {
        const MigProfile* pa = migProfileOf(gpu, a);
        const MigProfile* pb = migProfileOf(gpu, b);
        return (pa ? pa->memorySlices : 0) > (pb ? pb->memorySlices : 0);
    });
    std::vector<mig::Layout> layouts;
    for (const std::string& name : instances) {
        const MigProfile* p = migProfileOf(gpu, name);
        if (!p)
            continue;
        bool placed = false;
        for (mig::Layout& layout : layouts) {
            for (int start : p->startSlices) {
                mig::Layout tried = layout;
                tried.push_back({name, start});
                if (mig::check(gpu, tried).empty()) {
                    layout = std::move(tried);
                    placed = true;
                    break;
                }
            }
            if (placed)
                break;
        }
        if (!placed && !p->startSlices.empty())
            layouts.push_back({{name, p->startSlices.front()}});
    }
    for (mig::Layout& layout : layouts)
        std::sort(layout.begin(), layout.end(),
                  [](const MigInstance& a, const MigInstance& b) { return a.start < b.start; });
    return layouts;
}

Result<Scenario> buildImportedScenario(const std::vector<InventoryNode>& nodes,
                                       const std::vector<InventoryWorkload>& workloads, const std::string& source,
                                       const ClusterImportOptions& options, const Catalog& catalog, Issues notes)
{
    Scenario s;
    s.name = options.name.empty() ? "Imported cluster" : options.name;
    s.description = "Imported from " + source + " by gpuplan-cli import-cluster: " + std::to_string(nodes.size()) +
                    " GPU nodes, " + std::to_string(workloads.size()) +
                    " workloads holding GPUs. Each job's model, kind and parallelism are placeholders "
                    "(imported.unknown) until set.";
    IdAllocator ids(s);
    std::map<std::string, std::string> nodeIds; // cluster node name -> scenario id
    for (const InventoryNode& in : nodes) {
        if (in.gpus.empty())
            continue;
        Node n;
        n.id = ids.named(idFromName(in.name, "node"));
        n.name = in.name;
        n.gpuId = in.gpuId;
        n.gpuCount = static_cast<int>(in.gpus.size());
        n.position = importGridPosition(s.topology.nodes.size());
        setImportedSharing(n, in.gpus);
        nodeIds[in.name] = n.id;
        s.topology.nodes.push_back(std::move(n));
    }
    std::set<std::tuple<std::string, int, int>> takenInstances; // node, GPU, MIG instance pinned so far
    std::map<std::string, std::size_t> tenantIndex;
    for (const InventoryWorkload& w : workloads) {
        if (w.units <= 0)
            continue;
        auto [it, added] = tenantIndex.try_emplace(w.tenant, s.tenants.size());
        if (added) {
            Tenant t;
            t.id = ids.named(idFromName(w.tenant, "tenant"));
            t.name = w.tenant;
            t.color = importTenantColors()[s.tenants.size() % importTenantColors().size()];
            s.tenants.push_back(std::move(t));
        }
        Job j;
        j.id = ids.named(idFromName(w.name, "job"));
        j.name = w.name;
        j.model.custom = placeholderModel();
        j.parallelism.dp = w.units;
        j.batch = {1, w.units};
        if (w.serving) {
            j.kind = JobKind::Inference;
            InferenceSpec in;
            in.load = ServingLoad::Closed;
            in.concurrency = w.units;
            in.inputTokens = 1792;
            in.outputTokens = 256;
            in.contextTokens = 2048;
            j.inference = in;
        } else {
            j.kind = JobKind::Pretraining;
            j.training = TrainingSpec{1e9, 60.0};
        }
        ImportedFrom from;
        from.source = source;
        from.workload = w.workload;
        from.scope = w.scope;
        from.members = w.members;
        for (const std::string& node : w.nodes)
            if (auto n = nodeIds.find(node); n != nodeIds.end())
                from.nodes.push_back(n->second);
        from.unknown = {"model", "kind", "parallelism"};
        j.imported = std::move(from);
        if (j.imported->nodes.size() == 1 && w.nodes.size() == 1) {
            j.pin = Pin{j.imported->nodes.front(), std::nullopt, std::nullopt};
            // One MIG instance of a known profile: pinned to a free instance of that profile on its
            // node, so the plan puts it where the cluster did (not on whichever slice fits first).
            if (w.units == 1 && w.migProfiles.size() == 1 && !w.wholeGpus)
                pinToMigInstance(s, *j.pin, *w.migProfiles.begin(), takenInstances);
        }
        s.tenants[it->second].jobs.push_back(std::move(j));
    }
    Issues issues = validateScenario(s, catalog);
    if (hasErrors(issues)) {
        for (Issue& i : issues)
            if (i.isError())
                i.message = "the imported scenario is not valid: " + i.message;
        return Result<Scenario>::failure(std::move(issues));
    }
    for (Issue& i : notes)
        issues.push_back(std::move(i));
    return Result<Scenario>::success(std::move(s), std::move(issues));
}

} // namespace gp::io
