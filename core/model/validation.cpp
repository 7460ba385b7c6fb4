// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#include "validation.h"

#include "assumptions.h"
#include "checks.h"
#include "enumnames.h"
#include "limits.h"
#include "miglayout.h"

#include <algorithm>
#include <cstdio>
#include <regex>
#include <set>

namespace gp {

using checks::field;
using checks::idx;
using checks::inRange;
using checks::num;

Issues validateSharing(const SharingConfig& sharing, const GpuSpec& gpu, const std::string& path)
{
    Issues out;
    switch (sharing.mode) {
    case SharingMode::Exclusive:
    case SharingMode::Passthrough: break;
    case SharingMode::Mig: {
        if (!gpu.supportsMig()) {
            out.push_back(Issue::error(field(path, "mode"), "mig: " + gpu.name + " does not support MIG"));
            break;
        }
        if (sharing.migInstances.empty()) {
            out.push_back(Issue::error(field(path, "mig"), "a MIG layout needs at least one instance"));
            break;
        }
        for (const auto& v : mig::check(gpu, sharing.migInstances)) {
            std::string p =
                v.instance < 0 ? field(path, "mig") : idx(field(path, "mig"), static_cast<std::size_t>(v.instance));
            out.push_back(Issue::error(p, v.message));
        }
        break;
    }
    case SharingMode::Vgpu:
        if (gpu.vgpuProfiles.empty())
            out.push_back(Issue::error(field(path, "mode"), "vgpu: no vGPU profiles are known for " + gpu.name));
        else if (!gpu.vgpuProfile(sharing.vgpuProfile)) {
            std::string names;
            for (const auto& p : gpu.vgpuProfiles)
                names += (names.empty() ? "" : ", ") + p.name;
            out.push_back(Issue::error(field(path, "vgpu.profile"), "'" + sharing.vgpuProfile +
                                                                        "' is not a vGPU profile of " + gpu.name +
                                                                        " (profiles: " + names + ")"));
        } else if (const VgpuProfile* p = gpu.vgpuProfile(sharing.vgpuProfile); !p->schedulers.empty()) {
            const std::string wanted(enumName(sharing.vgpuScheduler));
            if (std::find(p->schedulers.begin(), p->schedulers.end(), wanted) == p->schedulers.end()) {
                std::string names;
                for (const auto& n : p->schedulers)
                    names += (names.empty() ? "" : ", ") + n;
                out.push_back(Issue::error(field(path, "vgpu.scheduler"),
                                           "'" + wanted + "': " + p->name + " runs only under " + names));
            }
        }
        break;
    case SharingMode::TimeSlicing: inRange(out, field(path, "replicas"), sharing.replicas, 1, 64); break;
    case SharingMode::Mps:
        inRange(out, field(path, "mps.active_thread_pct"), sharing.mpsActiveThreadPct, 1, 100);
        if (sharing.mpsMemoryLimitGiB)
            inRange(out, field(path, "mps.memory_limit_gib"), *sharing.mpsMemoryLimitGiB, 0.001, gpu.memoryUsableGiB,
                    gpu.name + " has " + num(gpu.memoryUsableGiB) + " GiB");
        break;
    }
    return out;
}

std::string textProblem(std::string_view text, TextKind kind)
{
    const std::size_t limit = kind == TextKind::Id     ? limits::kMaxIdChars
                              : kind == TextKind::Name ? limits::kMaxNameChars
                                                       : limits::kMaxTextChars;
    const char* what = kind == TextKind::Id ? "an id" : kind == TextKind::Name ? "a name" : "a text";
    std::size_t chars = 0;
    for (std::size_t i = 0; i < text.size(); ++i) {
        const auto c = static_cast<unsigned char>(text[i]);
        if ((c & 0xC0) != 0x80)
            ++chars;
        // C0 controls and DEL; C1 controls (U+0080..U+009F, UTF-8 C2 80..C2 9F) are terminal
        // escapes too. Neither is valid in XML 1.0 (the SVG figures) except tab and line breaks.
        const bool c1 = c == 0xC2 && i + 1 < text.size() && static_cast<unsigned char>(text[i + 1]) <= 0x9F &&
                        static_cast<unsigned char>(text[i + 1]) >= 0x80;
        const bool lineBreak = c == '\t' || c == '\n' || c == '\r';
        if (c < 0x20 || c == 0x7F || c1) {
            if (lineBreak && kind == TextKind::Text)
                continue;
            char code[8];
            std::snprintf(code, sizeof code, "U+%04X",
                          c1 ? static_cast<unsigned>(static_cast<unsigned char>(text[i + 1]))
                             : static_cast<unsigned>(c));
            return std::string("holds the control character ") + code + " at character " + std::to_string(chars) +
                   "; " + what + " cannot" + (kind == TextKind::Text ? "" : " (not even a tab or a line break)");
        }
    }
    if (chars > limit)
        return "is " + std::to_string(chars) + " characters long; " + what + " has at most " + std::to_string(limit);
    return {};
}

namespace {

/// Reports `text` at `path` when it breaks the rules of `kind` (textProblem).
void checkText(Issues& out, const std::string& path, const std::string& text, TextKind kind)
{
    if (std::string why = textProblem(text, kind); !why.empty())
        out.push_back(Issue::error(path, std::move(why)));
}

/// What nodes and switches share: a unique id among both, a known template, a known
/// group and a finite position.
template <typename Item> void validateEndpoint(const Item& item, const std::string& p, bool templateKnown,
                                               const char* templateKind, const std::set<std::string>& groupIds,
                                               std::set<std::string>& endpointIds, Issues& out)
{
    checkText(out, field(p, "id"), item.id, TextKind::Id);
    checkText(out, field(p, "name"), item.name, TextKind::Name);
    if (item.id.empty())
        out.push_back(Issue::error(field(p, "id"), "must not be empty"));
    else if (!endpointIds.insert(item.id).second)
        out.push_back(Issue::error(field(p, "id"), "'" + item.id + "' is used by another node or switch"));
    if (!item.templateId.empty() && !templateKnown)
        out.push_back(Issue::error(field(p, "template"),
                                   "'" + item.templateId + "' is not a " + templateKind + " template in the catalog"));
    if (!item.group.empty() && !groupIds.count(item.group))
        out.push_back(Issue::error(field(p, "group"), "'" + item.group + "' is not a group"));
    inRange(out, field(p, "position.x"), item.position.x, -1e7, 1e7);
    inRange(out, field(p, "position.y"), item.position.y, -1e7, 1e7);
}

void validateTopology(const Topology& topo, const Catalog& catalog, Issues& out)
{
    const std::string base = "topology";
    std::set<std::string> groupIds;
    for (std::size_t i = 0; i < topo.groups.size(); ++i) {
        const Group& g = topo.groups[i];
        const std::string p = idx(base + ".groups", i);
        checkText(out, field(p, "id"), g.id, TextKind::Id);
        checkText(out, field(p, "name"), g.name, TextKind::Name);
        if (g.id.empty())
            out.push_back(Issue::error(field(p, "id"), "must not be empty"));
        else if (!groupIds.insert(g.id).second)
            out.push_back(Issue::error(field(p, "id"), "'" + g.id + "' is used by another group"));
    }
    for (std::size_t i = 0; i < topo.groups.size(); ++i) {
        const Group& g = topo.groups[i];
        if (g.parent.empty())
            continue;
        const std::string p = field(idx(base + ".groups", i), "parent");
        if (!groupIds.count(g.parent)) {
            out.push_back(Issue::error(p, "'" + g.parent + "' is not a group"));
            continue;
        }
        // Walk up the parent chain; a chain longer than the group count is a cycle.
        std::string cur = g.parent;
        for (std::size_t steps = 0; !cur.empty(); ++steps) {
            if (cur == g.id || steps > topo.groups.size()) {
                out.push_back(Issue::error(p, "'" + g.parent + "' makes the groups a cycle"));
                break;
            }
            std::string next;
            for (const auto& h : topo.groups)
                if (h.id == cur)
                    next = h.parent;
            cur = next;
        }
    }

    std::set<std::string> endpointIds;
    for (std::size_t i = 0; i < topo.nodes.size(); ++i) {
        const Node& n = topo.nodes[i];
        const std::string p = idx(base + ".nodes", i);
        validateEndpoint(n, p, catalog.nodeTemplate(n.templateId) != nullptr, "node", groupIds, endpointIds, out);
        const GpuSpec* gpu = catalog.gpu(n.gpuId);
        if (!gpu)
            out.push_back(Issue::error(field(p, "gpu"), "'" + n.gpuId + "' is not a GPU in the catalog"));
        inRange(out, field(p, "gpu_count"), n.gpuCount, 1, 64);
        inRange(out, field(p, "nics.count"), n.nics.count, 0, 64);
        inRange(out, field(p, "nics.speed_gbps"), n.nics.speedGbps, n.nics.count > 0 ? 1 : 0, 3200);
        if (!gpu)
            continue;
        for (const auto& e : validateSharing(n.sharing, *gpu, field(p, "sharing")))
            out.push_back(e);
        std::size_t k = 0;
        for (const auto& [gpuIndex, cfg] : n.gpuSharing) {
            const std::string q = idx(field(p, "gpu_sharing"), k++);
            if (gpuIndex < 0 || gpuIndex >= n.gpuCount)
                out.push_back(Issue::error(field(q, "gpu"), num(gpuIndex) + " is not a GPU of this node (0.." +
                                                                num(n.gpuCount - 1) + ")"));
            for (const auto& e : validateSharing(cfg, *gpu, q))
                out.push_back(e);
        }
    }
    static const std::set<std::string> tiers{"leaf", "spine", "core"};
    for (std::size_t i = 0; i < topo.switches.size(); ++i) {
        const Switch& s = topo.switches[i];
        const std::string p = idx(base + ".switches", i);
        validateEndpoint(s, p, catalog.switchTemplate(s.templateId) != nullptr, "switch", groupIds, endpointIds, out);
        if (!tiers.count(s.tier))
            out.push_back(Issue::error(field(p, "tier"), "'" + s.tier + "' must be leaf, spine or core"));
        inRange(out, field(p, "ports"), s.ports, 1, 4096);
        inRange(out, field(p, "port_speed_gbps"), s.portSpeedGbps, 1, 3200);
    }
    std::set<std::string> linkIds;
    for (std::size_t i = 0; i < topo.links.size(); ++i) {
        const Link& l = topo.links[i];
        const std::string p = idx(base + ".links", i);
        checkText(out, field(p, "id"), l.id, TextKind::Id);
        if (l.id.empty())
            out.push_back(Issue::error(field(p, "id"), "must not be empty"));
        else if (!linkIds.insert(l.id).second)
            out.push_back(Issue::error(field(p, "id"), "'" + l.id + "' is used by another link"));
        if (!endpointIds.count(l.from))
            out.push_back(Issue::error(field(p, "from"), "'" + l.from + "' is not a node or switch"));
        if (!endpointIds.count(l.to))
            out.push_back(Issue::error(field(p, "to"), "'" + l.to + "' is not a node or switch"));
        else if (l.from == l.to)
            out.push_back(Issue::error(field(p, "to"), "a link cannot connect '" + l.to + "' to itself"));
        inRange(out, field(p, "bandwidth_gbps"), l.bandwidthGbps, 0.001, 1e6);
        inRange(out, field(p, "latency_us"), l.latencyUs, 0, 1e6);
    }
}

void validatePricing(const Scenario& s, const Catalog& catalog, Issues& out)
{
    const PricePreset* preset = nullptr;
    if (!s.pricing.preset.empty()) {
        preset = catalog.pricePreset(s.pricing.preset);
        if (!preset)
            out.push_back(
                Issue::error("pricing.preset", "'" + s.pricing.preset + "' is not a price preset in the catalog"));
    }
    for (const auto& [gpuId, price] : s.pricing.gpuHourUsd) {
        const std::string p = "pricing.gpu_hour_usd." + gpuId;
        if (!catalog.gpu(gpuId))
            out.push_back(Issue::error(p, "'" + gpuId + "' is not a GPU in the catalog"));
        inRange(out, p, price, 0, 10000);
    }
    if (const auto& o = s.pricing.ownership) {
        inRange(out, "pricing.ownership.capex_per_gpu_usd", o->capexPerGpuUsd, 0, 1e7);
        inRange(out, "pricing.ownership.amortization_years", o->amortizationYears, 0.1, 30);
        inRange(out, "pricing.ownership.pue", o->pue, 1.0, 5.0);
        inRange(out, "pricing.ownership.usd_per_kwh", o->usdPerKwh, 0, 10);
        return; // owned GPUs need no rental price
    }
    std::set<std::string> unpriced;
    for (const auto& n : s.topology.nodes) {
        if (s.pricing.gpuHourUsd.count(n.gpuId) || !catalog.gpu(n.gpuId))
            continue;
        if (!preset || !preset->gpuHourUsd.count(n.gpuId))
            unpriced.insert(n.gpuId);
    }
    for (const auto& g : unpriced)
        out.push_back(
            Issue::warning("pricing", "no $/GPU-hour for '" + g + "': its cost counts as 0 until you set one"));
}

void validateAssumptions(const Scenario& s, Issues& out)
{
    for (const auto& [key, value] : s.assumptions) {
        const std::string p = "assumptions." + key;
        const Assumption* a = findAssumption(key);
        if (!a && (key == "achievable_mfu" || key == "memory_bandwidth_efficiency")) {
            out.push_back(Issue::warning(p, "retired and ignored: serving uses the GPU's kernel-efficiency curves "
                                            "and memory_bound efficiency from the catalog "
                                            "(docs/model-reference.md#serving)"));
            continue;
        }
        if (!a && (key == "passthrough_overhead_pct" || key == "vgpu_overhead_pct" ||
                   key == "time_slicing_switch_overhead_pct" || key == "mps_interference_pct")) {
            out.push_back(Issue::warning(p, "retired and ignored: sharing penalties come from the interference "
                                            "model (time_slice_switch_us, time_slice_cache_refill_us, "
                                            "mps_memory_contention, virtualization_io_overhead_pct; "
                                            "docs/model-reference.md#sharing-modes-corecalcslotscpp)"));
            continue;
        }
        if (!a) {
            out.push_back(Issue::error(p, "unknown assumption (see docs/model-reference.md)"));
            continue;
        }
        inRange(out, p, value, a->minValue, a->maxValue, a->unit);
    }
}

void validateTenants(const Scenario& s, const Catalog& catalog, Issues& out)
{
    static const std::regex colour("^#[0-9a-fA-F]{6}$");
    // What the cluster offers as schedulable GPU units: whole GPUs, MIG instances, vGPUs,
    // time-slicing replicas and MPS clients (the counts a Kubernetes device plugin advertises).
    long long clusterUnits = 0;
    for (const Node& n : s.topology.nodes) {
        const GpuSpec* gpu = catalog.gpu(n.gpuId);
        for (int g = 0; g < n.gpuCount; ++g) {
            const SharingConfig& c = n.sharingOf(g);
            switch (c.mode) {
            case SharingMode::Mig: clusterUnits += static_cast<long long>(c.migInstances.size()); break;
            case SharingMode::Vgpu: {
                const VgpuProfile* p = gpu ? gpu->vgpuProfile(c.vgpuProfile) : nullptr;
                clusterUnits += p ? p->maxPerGpu : 1;
                break;
            }
            case SharingMode::TimeSlicing: clusterUnits += std::max(c.replicas, 1); break;
            case SharingMode::Mps: clusterUnits += std::max(1, 100 / std::max(c.mpsActiveThreadPct, 1)); break;
            case SharingMode::Exclusive:
            case SharingMode::Passthrough: clusterUnits += 1; break;
            }
        }
    }
    std::set<std::string> tenantIds;
    std::set<std::string> jobIds;
    for (std::size_t i = 0; i < s.tenants.size(); ++i) {
        const Tenant& t = s.tenants[i];
        const std::string p = idx("tenants", i);
        checkText(out, field(p, "id"), t.id, TextKind::Id);
        checkText(out, field(p, "name"), t.name, TextKind::Name);
        if (t.id.empty())
            out.push_back(Issue::error(field(p, "id"), "must not be empty"));
        else if (!tenantIds.insert(t.id).second)
            out.push_back(Issue::error(field(p, "id"), "'" + t.id + "' is used by another tenant"));
        if (t.name.empty())
            out.push_back(Issue::error(field(p, "name"), "must not be empty"));
        if (!std::regex_match(t.color, colour))
            out.push_back(Issue::error(field(p, "color"), "'" + t.color + "' must be #RRGGBB"));
        inRange(out, field(p, "priority"), t.priority, -1000, 1000);
        if (t.busyFraction)
            inRange(out, field(p, "busy_fraction"), *t.busyFraction, 0, 1, "a fraction of the time");
        inRange(out, field(p, "sla.max_penalty_pct"), t.sla.maxPenaltyPct, 0, 1000);
        if (t.sla.deadlineDays)
            inRange(out, field(p, "sla.deadline_days"), *t.sla.deadlineDays, 0.001, 36500);
        if (t.sla.ttftP99Ms)
            inRange(out, field(p, "sla.ttft_p99_ms"), *t.sla.ttftP99Ms, 0.001, 1e9,
                    "a latency objective must be positive");
        if (t.sla.itlP99Ms)
            inRange(out, field(p, "sla.itl_p99_ms"), *t.sla.itlP99Ms, 0.001, 1e9,
                    "a latency objective must be positive");
        if (const auto& a = t.arrivals) {
            const bool known =
                std::any_of(t.jobs.begin(), t.jobs.end(), [&](const Job& j) { return j.id == a->templateJob; });
            if (!known)
                out.push_back(Issue::error(field(p, "arrivals.template"),
                                           "'" + a->templateJob + "' is not a job of this tenant"));
            inRange(out, field(p, "arrivals.jobs_per_day"), a->jobsPerDay, 0.000001, 10000);
            inRange(out, field(p, "arrivals.duration_median_h"), a->durationMedianH, 0.001, 1e6);
            inRange(out, field(p, "arrivals.duration_sigma"), a->durationSigma, 0, 5);
        }
        for (std::size_t j = 0; j < t.jobs.size(); ++j) {
            const std::string q = idx(field(p, "jobs"), j);
            const Job& job = t.jobs[j];
            checkText(out, field(q, "id"), job.id, TextKind::Id);
            checkText(out, field(q, "name"), job.name, TextKind::Name);
            if (!job.id.empty() && !jobIds.insert(job.id).second)
                out.push_back(Issue::error(field(q, "id"), "'" + job.id + "' is used by another job"));
            for (auto& e : validateJob(job, s, catalog, q))
                out.push_back(std::move(e));
            const Parallelism& jp = job.parallelism;
            const long long gpus = static_cast<long long>(jp.tp) * jp.pp * jp.dp * std::max(jp.cp, 1);
            if (jp.tp > 0 && jp.pp > 0 && jp.dp > 0 && gpus > clusterUnits)
                out.push_back(Issue::error(field(q, "parallelism"),
                                           std::string(jp.cp > 1 ? "tp x pp x dp x cp = " : "tp x pp x dp = ") +
                                               num(static_cast<double>(gpus)) + " GPUs; the cluster offers " +
                                               num(static_cast<double>(clusterUnits)) +
                                               " (GPUs, MIG instances, vGPUs, replicas and MPS clients)"));
        }
    }
}

} // namespace

Issues validateScenario(const Scenario& scenario, const Catalog& catalog)
{
    Issues out;
    if (scenario.name.empty())
        out.push_back(Issue::error("name", "must not be empty"));
    checkText(out, "name", scenario.name, TextKind::Name);
    checkText(out, "description", scenario.description, TextKind::Text);
    validateTopology(scenario.topology, catalog, out);
    validateRackDomains(scenario.topology, catalog, out);
    validateTenants(scenario, catalog, out);
    validatePricing(scenario, catalog, out);
    validateAssumptions(scenario, out);
    return out;
}

} // namespace gp
