// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#include "scenariodiff.h"

#include "catalog.h"
#include "checks.h"
#include "enumnames.h"

#include <map>

namespace gp {

using checks::num;

namespace {

template <typename T> std::map<std::string, const T*> byId(const std::vector<T>& items)
{
    std::map<std::string, const T*> out;
    for (const T& i : items)
        out[i.id] = &i;
    return out;
}

/// Added, removed and changed items of one kind; `describe` names an item, `changes` lists
/// what changed in one present on both sides.
/// How the lines name things: by id, as `compare --json` has always written them (a contract), or,
/// given a catalog, as a planner knows them — nodes, switches, tenants and jobs by their names,
/// templates, GPUs, models and price lists as the catalog names them, enums in words.
struct DiffNamer
{
    const Catalog* catalog = nullptr;
    std::map<std::string, std::string> names; ///< item id -> its name, of both scenarios

    DiffNamer(const Catalog* c, const Scenario& a, const Scenario& b) : catalog(c)
    {
        if (!c)
            return;
        for (const Scenario* s : {&a, &b}) {
            for (const Node& n : s->topology.nodes)
                names.emplace(n.id, n.name);
            for (const Switch& w : s->topology.switches)
                names.emplace(w.id, w.name);
            for (const Tenant& t : s->tenants) {
                names.emplace(t.id, t.name);
                for (const Job& j : t.jobs)
                    names.emplace(j.id, j.name);
            }
        }
    }
    std::string item(const std::string& id) const
    {
        const auto it = names.find(id);
        return it != names.end() && !it->second.empty() ? it->second : id;
    }
    std::string nodeTemplate(const std::string& id) const
    {
        const NodeTemplate* t = catalog ? catalog->nodeTemplate(id) : nullptr;
        return t && !t->name.empty() ? t->name : id;
    }
    std::string switchTemplate(const std::string& id) const
    {
        const SwitchTemplate* t = catalog ? catalog->switchTemplate(id) : nullptr;
        return t && !t->name.empty() ? t->name : id;
    }
    std::string gpu(const std::string& id) const
    {
        const GpuSpec* g = catalog ? catalog->gpu(id) : nullptr;
        return g && !g->name.empty() ? g->name : id;
    }
    std::string prices(const std::string& id) const
    {
        const PricePreset* p = catalog ? catalog->pricePreset(id) : nullptr;
        return id.empty() ? "none" : p && !p->name.empty() ? p->name : id;
    }
    std::string modelPreset(const std::string& id) const
    {
        const ModelPreset* m = catalog ? catalog->model(id) : nullptr;
        return m && !m->name.empty() ? m->name : id;
    }
    template <typename E> std::string words(E e) const { return std::string(catalog ? displayName(e) : enumName(e)); }
};

template <typename T, typename Describe, typename Changes>
void diffItems(const char* kind, const std::vector<T>& a, const std::vector<T>& b, Describe describe, Changes changes,
               std::vector<std::string>& out, const DiffNamer& namer)
{
    const auto left = byId(a), right = byId(b);
    for (const T& item : b)
        if (!left.count(item.id))
            out.push_back(std::string("+ ") + kind + " " + namer.item(item.id) + describe(item));
    for (const T& item : a)
        if (!right.count(item.id))
            out.push_back(std::string("- ") + kind + " " + namer.item(item.id) + describe(item));
    for (const T& item : a)
        if (const auto it = right.find(item.id); it != right.end())
            changes(item, *it->second, out);
}

void changed(std::vector<std::string>& out, const std::string& what, const std::string& from, const std::string& to)
{
    if (from != to)
        out.push_back(what + ": " + from + " -> " + to);
}

std::string parallelism(const Parallelism& p)
{
    std::string s = "TP" + std::to_string(p.tp) + " PP" + std::to_string(p.pp) + " DP" + std::to_string(p.dp);
    if (p.cp > 1)
        s += " CP" + std::to_string(p.cp);
    if (p.virtualStages > 1)
        s += " (interleaved x" + std::to_string(p.virtualStages) + ")";
    if (p.ep > 1)
        s += " EP" + std::to_string(p.ep);
    if (p.etp > 0)
        s += " ETP" + std::to_string(p.etp);
    if (p.moeA2aOverlap)
        s += " (EP all-to-all overlapped)";
    if (!p.stageLayers.empty()) {
        s += " stages ";
        for (std::size_t i = 0; i < p.stageLayers.size(); ++i)
            s += (i ? "," : "") + std::to_string(p.stageLayers[i]);
    }
    if (p.zeroStage > 0)
        s += " ZeRO-" + std::to_string(p.zeroStage);
    if (p.fsdp)
        s += " FSDP";
    return s;
}

std::string model(const ModelChoice& m, const DiffNamer& namer)
{
    if (!m.preset.empty())
        return namer.modelPreset(m.preset);
    return "custom (" + std::to_string(m.custom.layers) + " layers, hidden " + std::to_string(m.custom.hiddenSize) +
           ")";
}

std::string work(const Job& j)
{
    if (j.training)
        return num(j.training->tokens / 1e9) + "B tokens";
    if (j.inference)
        return num(j.inference->requestsPerS) + " req/s, " + std::to_string(j.inference->contextTokens) + " context";
    return "-";
}

} // namespace

std::string describeSharing(const SharingConfig& c)
{
    switch (c.mode) {
    case SharingMode::Exclusive: return "bare metal";
    case SharingMode::Passthrough: return "passthrough VM";
    case SharingMode::Mig: {
        std::map<std::string, int> counts;
        for (const MigInstance& i : c.migInstances)
            ++counts[i.profile];
        std::string s = "MIG";
        bool first = true;
        for (const auto& [profile, n] : counts) {
            s += (first ? " " : " + ") + profile + (n > 1 ? " x" + std::to_string(n) : std::string());
            first = false;
        }
        return s;
    }
    case SharingMode::Vgpu: return "vGPU " + c.vgpuProfile;
    case SharingMode::TimeSlicing: return "time-slicing x" + std::to_string(c.replicas);
    case SharingMode::Mps:
        return "MPS " + std::to_string(c.mpsActiveThreadPct) + " % threads" +
               (c.mpsMemoryLimitGiB ? ", " + num(*c.mpsMemoryLimitGiB) + " GiB limit" : std::string());
    }
    return "?";
}

std::vector<std::string> diffScenarios(const Scenario& a, const Scenario& b, const Catalog* names)
{
    const DiffNamer namer(names, a, b);
    const auto& n = namer;
    std::vector<std::string> out;
    changed(out, "name", a.name, b.name);
    diffItems(
        "node", a.topology.nodes, b.topology.nodes,
        [&n](const Node& node) {
            return " (" + n.nodeTemplate(node.templateId) + ", " + std::to_string(node.gpuCount) + " GPUs, " +
                   describeSharing(node.sharing) + ")";
        },
        [&n](const Node& x, const Node& y, std::vector<std::string>& o) {
            const std::string at = "node " + n.item(x.id);
            changed(o, at + " name", x.name, y.name);
            changed(o, at + " GPUs", std::to_string(x.gpuCount) + " x " + n.gpu(x.gpuId),
                    std::to_string(y.gpuCount) + " x " + n.gpu(y.gpuId));
            changed(o, at + " sharing", describeSharing(x.sharing), describeSharing(y.sharing));
            const int gpus = std::max(x.gpuCount, y.gpuCount);
            for (int g = 0; g < gpus; ++g)
                if (x.gpuSharing.count(g) || y.gpuSharing.count(g))
                    changed(o, at + " GPU " + std::to_string(g) + " sharing", describeSharing(x.sharingOf(g)),
                            describeSharing(y.sharingOf(g)));
            changed(o, at + " NICs",
                    std::to_string(x.nics.count) + " x " + num(x.nics.speedGbps) + " Gb/s" +
                        (x.nics.gpudirectRdma ? " RDMA" : ""),
                    std::to_string(y.nics.count) + " x " + num(y.nics.speedGbps) + " Gb/s" +
                        (y.nics.gpudirectRdma ? " RDMA" : ""));
        },
        out, namer);
    diffItems(
        "switch", a.topology.switches, b.topology.switches,
        [&n](const Switch& s) { return " (" + n.switchTemplate(s.templateId) + ", " + s.tier + ")"; },
        [&n](const Switch& x, const Switch& y, std::vector<std::string>& o) {
            changed(o, "switch " + n.item(x.id) + " tier", x.tier, y.tier);
            changed(o, "switch " + n.item(x.id) + " ports",
                    std::to_string(x.ports) + " x " + num(x.portSpeedGbps) + " Gb/s",
                    std::to_string(y.ports) + " x " + num(y.portSpeedGbps) + " Gb/s");
        },
        out, namer);
    diffItems(
        "link", a.topology.links, b.topology.links,
        [&n](const Link& l) {
            return " (" + n.item(l.from) + " - " + n.item(l.to) + ", " + num(l.bandwidthGbps) + " Gb/s)";
        },
        [&n](const Link& x, const Link& y, std::vector<std::string>& o) {
            changed(o, "link " + x.id + " bandwidth", num(x.bandwidthGbps) + " Gb/s", num(y.bandwidthGbps) + " Gb/s");
            changed(o, "link " + x.id + " ends", n.item(x.from) + " - " + n.item(x.to),
                    n.item(y.from) + " - " + n.item(y.to));
        },
        out, namer);
    diffItems(
        "tenant", a.tenants, b.tenants,
        [](const Tenant& t) { return " (" + t.name + ", " + std::to_string(t.jobs.size()) + " jobs)"; },
        [&n](const Tenant& x, const Tenant& y, std::vector<std::string>& o) {
            const std::string at = "tenant " + n.item(x.id);
            changed(o, at + " name", x.name, y.name);
            changed(o, at + " priority", std::to_string(x.priority), std::to_string(y.priority));
            changed(o, at + " isolation", std::string(enumName(x.isolation)), std::string(enumName(y.isolation)));
            changed(o, at + " SLA max penalty", num(x.sla.maxPenaltyPct) + " %", num(y.sla.maxPenaltyPct) + " %");
            changed(o, at + " SLA deadline", x.sla.deadlineDays ? num(*x.sla.deadlineDays) + " days" : "none",
                    y.sla.deadlineDays ? num(*y.sla.deadlineDays) + " days" : "none");
            diffItems(
                "job", x.jobs, y.jobs,
                [&n](const Job& j) {
                    return " (" + n.words(j.kind) + ", " + model(j.model, n) + ", " + parallelism(j.parallelism) + ")";
                },
                [&n](const Job& p, const Job& q, std::vector<std::string>& oo) {
                    const std::string at = "job " + n.item(p.id);
                    changed(oo, at + " kind", n.words(p.kind), n.words(q.kind));
                    changed(oo, at + " model", model(p.model, n), model(q.model, n));
                    changed(oo, at + " parallelism", parallelism(p.parallelism), parallelism(q.parallelism));
                    changed(oo, at + " batch", std::to_string(p.batch.micro) + " / " + std::to_string(p.batch.global),
                            std::to_string(q.batch.micro) + " / " + std::to_string(q.batch.global));
                    changed(oo, at + " precision", std::string(enumName(p.precision)),
                            std::string(enumName(q.precision)));
                    changed(oo, at + " gradients", p.mainGradsFp32 ? "fp32 main" : "as the weights",
                            q.mainGradsFp32 ? "fp32 main" : "as the weights");
                    const auto attention = [](const Job& j) {
                        return j.flashAttention ? (*j.flashAttention ? "flash" : "unfused") : "as the model";
                    };
                    changed(oo, at + " attention", attention(p), attention(q));
                    changed(oo, at + " work", work(p), work(q));
                    changed(oo, at + " pin", p.pin ? n.item(p.pin->node) : "none",
                            q.pin ? n.item(q.pin->node) : "none");
                },
                o, n);
        },
        out, namer);
    changed(out, "price preset", namer.prices(a.pricing.preset), namer.prices(b.pricing.preset));
    for (const auto& [gpu, price] : b.pricing.gpuHourUsd)
        if (!a.pricing.gpuHourUsd.count(gpu) || a.pricing.gpuHourUsd.at(gpu) != price)
            out.push_back("price of " + namer.gpu(gpu) + ": " +
                          (a.pricing.gpuHourUsd.count(gpu) ? "$" + num(a.pricing.gpuHourUsd.at(gpu)) : "preset") +
                          " -> $" + num(price) + " per GPU-hour");
    changed(out, "ownership costing", a.pricing.ownership ? "yes" : "no", b.pricing.ownership ? "yes" : "no");
    changed(out, "placement policy", namer.words(a.placementPolicy), namer.words(b.placementPolicy));
    for (const auto& [key, value] : b.assumptions)
        if (!a.assumptions.count(key) || a.assumptions.at(key) != value)
            out.push_back("assumption " + key + ": " +
                          (a.assumptions.count(key) ? num(a.assumptions.at(key)) : "default") + " -> " + num(value));
    for (const auto& [key, value] : a.assumptions)
        if (!b.assumptions.count(key))
            out.push_back("assumption " + key + ": " + num(value) + " -> default");
    const auto profile = [](const std::optional<CalibrationProfile>& p) {
        return p ? profileLabel(*p) : std::string("none");
    };
    changed(out, "calibration profile", profile(a.calibration), profile(b.calibration));
    if (a.calibration && b.calibration && profileLabel(*a.calibration) == profileLabel(*b.calibration) &&
        *a.calibration != *b.calibration)
        out.push_back("calibration profile " + profileLabel(*b.calibration) + ": its values differ");
    if (names) // the arrow the workbench's pages use
        for (std::string& line : out)
            if (const auto at = line.rfind(" -> "); at != std::string::npos)
                line.replace(at, 4, " → ");
    return out;
}

} // namespace gp
