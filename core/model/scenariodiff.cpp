// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#include "scenariodiff.h"

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
template <typename T, typename Describe, typename Changes>
void diffItems(const char* kind, const std::vector<T>& a, const std::vector<T>& b, Describe describe, Changes changes,
               std::vector<std::string>& out)
{
    const auto left = byId(a), right = byId(b);
    for (const T& item : b)
        if (!left.count(item.id))
            out.push_back(std::string("+ ") + kind + " " + item.id + describe(item));
    for (const T& item : a)
        if (!right.count(item.id))
            out.push_back(std::string("- ") + kind + " " + item.id + describe(item));
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
    if (p.virtualStages > 1)
        s += " (interleaved x" + std::to_string(p.virtualStages) + ")";
    if (p.zeroStage > 0)
        s += " ZeRO-" + std::to_string(p.zeroStage);
    if (p.fsdp)
        s += " FSDP";
    return s;
}

std::string model(const ModelChoice& m)
{
    if (!m.preset.empty())
        return m.preset;
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

std::vector<std::string> diffScenarios(const Scenario& a, const Scenario& b)
{
    std::vector<std::string> out;
    changed(out, "name", a.name, b.name);
    diffItems(
        "node", a.topology.nodes, b.topology.nodes,
        [](const Node& n) {
            return " (" + n.templateId + ", " + std::to_string(n.gpuCount) + " GPUs, " + describeSharing(n.sharing) +
                   ")";
        },
        [](const Node& x, const Node& y, std::vector<std::string>& o) {
            changed(o, "node " + x.id + " name", x.name, y.name);
            changed(o, "node " + x.id + " GPUs", std::to_string(x.gpuCount) + " x " + x.gpuId,
                    std::to_string(y.gpuCount) + " x " + y.gpuId);
            changed(o, "node " + x.id + " sharing", describeSharing(x.sharing), describeSharing(y.sharing));
            const int gpus = std::max(x.gpuCount, y.gpuCount);
            for (int g = 0; g < gpus; ++g)
                if (x.gpuSharing.count(g) || y.gpuSharing.count(g))
                    changed(o, "node " + x.id + " GPU " + std::to_string(g) + " sharing",
                            describeSharing(x.sharingOf(g)), describeSharing(y.sharingOf(g)));
            changed(o, "node " + x.id + " NICs",
                    std::to_string(x.nics.count) + " x " + num(x.nics.speedGbps) + " Gb/s" +
                        (x.nics.gpudirectRdma ? " RDMA" : ""),
                    std::to_string(y.nics.count) + " x " + num(y.nics.speedGbps) + " Gb/s" +
                        (y.nics.gpudirectRdma ? " RDMA" : ""));
        },
        out);
    diffItems(
        "switch", a.topology.switches, b.topology.switches,
        [](const Switch& s) { return " (" + s.templateId + ", " + s.tier + ")"; },
        [](const Switch& x, const Switch& y, std::vector<std::string>& o) {
            changed(o, "switch " + x.id + " tier", x.tier, y.tier);
            changed(o, "switch " + x.id + " ports", std::to_string(x.ports) + " x " + num(x.portSpeedGbps) + " Gb/s",
                    std::to_string(y.ports) + " x " + num(y.portSpeedGbps) + " Gb/s");
        },
        out);
    diffItems(
        "link", a.topology.links, b.topology.links,
        [](const Link& l) { return " (" + l.from + " - " + l.to + ", " + num(l.bandwidthGbps) + " Gb/s)"; },
        [](const Link& x, const Link& y, std::vector<std::string>& o) {
            changed(o, "link " + x.id + " bandwidth", num(x.bandwidthGbps) + " Gb/s", num(y.bandwidthGbps) + " Gb/s");
            changed(o, "link " + x.id + " ends", x.from + " - " + x.to, y.from + " - " + y.to);
        },
        out);
    diffItems(
        "tenant", a.tenants, b.tenants,
        [](const Tenant& t) { return " (" + t.name + ", " + std::to_string(t.jobs.size()) + " jobs)"; },
        [](const Tenant& x, const Tenant& y, std::vector<std::string>& o) {
            changed(o, "tenant " + x.id + " name", x.name, y.name);
            changed(o, "tenant " + x.id + " priority", std::to_string(x.priority), std::to_string(y.priority));
            changed(o, "tenant " + x.id + " isolation", std::string(enumName(x.isolation)),
                    std::string(enumName(y.isolation)));
            changed(o, "tenant " + x.id + " SLA max penalty", num(x.sla.maxPenaltyPct) + " %",
                    num(y.sla.maxPenaltyPct) + " %");
            changed(o, "tenant " + x.id + " SLA deadline",
                    x.sla.deadlineDays ? num(*x.sla.deadlineDays) + " days" : "none",
                    y.sla.deadlineDays ? num(*y.sla.deadlineDays) + " days" : "none");
            diffItems(
                "job", x.jobs, y.jobs,
                [](const Job& j) {
                    return " (" + std::string(enumName(j.kind)) + ", " + model(j.model) + ", " +
                           parallelism(j.parallelism) + ")";
                },
                [](const Job& p, const Job& q, std::vector<std::string>& oo) {
                    changed(oo, "job " + p.id + " kind", std::string(enumName(p.kind)), std::string(enumName(q.kind)));
                    changed(oo, "job " + p.id + " model", model(p.model), model(q.model));
                    changed(oo, "job " + p.id + " parallelism", parallelism(p.parallelism), parallelism(q.parallelism));
                    changed(oo, "job " + p.id + " batch",
                            std::to_string(p.batch.micro) + " / " + std::to_string(p.batch.global),
                            std::to_string(q.batch.micro) + " / " + std::to_string(q.batch.global));
                    changed(oo, "job " + p.id + " precision", std::string(enumName(p.precision)),
                            std::string(enumName(q.precision)));
                    changed(oo, "job " + p.id + " gradients", p.mainGradsFp32 ? "fp32 main" : "as the weights",
                            q.mainGradsFp32 ? "fp32 main" : "as the weights");
                    const auto attention = [](const Job& j) {
                        return j.flashAttention ? (*j.flashAttention ? "flash" : "unfused") : "as the model";
                    };
                    changed(oo, "job " + p.id + " attention", attention(p), attention(q));
                    changed(oo, "job " + p.id + " work", work(p), work(q));
                    changed(oo, "job " + p.id + " pin", p.pin ? p.pin->node : "none", q.pin ? q.pin->node : "none");
                },
                o);
        },
        out);
    changed(out, "price preset", a.pricing.preset.empty() ? "none" : a.pricing.preset,
            b.pricing.preset.empty() ? "none" : b.pricing.preset);
    for (const auto& [gpu, price] : b.pricing.gpuHourUsd)
        if (!a.pricing.gpuHourUsd.count(gpu) || a.pricing.gpuHourUsd.at(gpu) != price)
            out.push_back("price of " + gpu + ": " +
                          (a.pricing.gpuHourUsd.count(gpu) ? "$" + num(a.pricing.gpuHourUsd.at(gpu)) : "preset") +
                          " -> $" + num(price) + " per GPU-hour");
    changed(out, "ownership costing", a.pricing.ownership ? "yes" : "no", b.pricing.ownership ? "yes" : "no");
    changed(out, "placement policy", std::string(enumName(a.placementPolicy)),
            std::string(enumName(b.placementPolicy)));
    for (const auto& [key, value] : b.assumptions)
        if (!a.assumptions.count(key) || a.assumptions.at(key) != value)
            out.push_back("assumption " + key + ": " +
                          (a.assumptions.count(key) ? num(a.assumptions.at(key)) : "default") + " -> " + num(value));
    for (const auto& [key, value] : a.assumptions)
        if (!b.assumptions.count(key))
            out.push_back("assumption " + key + ": " + num(value) + " -> default");
    return out;
}

} // namespace gp
