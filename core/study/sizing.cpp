// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#include "sizing.h"

#include "document/topologyedits.h"

#include "calc/evaluate.h"
#include "calc/inventory.h"
#include "model/format.h"
#include "model/validation.h"

#include <algorithm>
#include <cmath>

namespace gp::study {

namespace {

constexpr int kMaxNodes = 10000; // document::generateFabric's limit

/// The most nodes a leaf of `st` takes under a non-blocking fabric of `nt`'s NICs (a port per
/// NIC below, as many ports' worth of uplink above).
int nodesPerLeaf(const NodeTemplate& nt, const SwitchTemplate& st)
{
    const double nodeGbps = nt.nicCount * nt.nicSpeedGbps;
    for (int k = std::max(st.ports, 1); k > 1; --k) {
        const int down = k * std::max(nt.nicCount, 1);
        const int up = static_cast<int>(std::ceil(nodeGbps * k / st.portSpeedGbps - 1e-9));
        if (down + up <= st.ports)
            return k;
    }
    return 1;
}

double gpuCountOf(const Scenario& s)
{
    double gpus = 0.0;
    for (const Tenant& t : s.tenants)
        for (const Job& j : t.jobs)
            gpus += std::max(j.parallelism.gpus(), 1);
    return gpus;
}

} // namespace

namespace {

/// The cheapest mix of two priced templates that hosts the load, when it costs less than `bound`
/// (the cheapest single template): for each count a of one template up to its own answer, the
/// fewest b ≥ 1 of the other from the GPU lower bound up; then a node fewer of either while the
/// mix still hosts the load.
std::optional<std::pair<NodeMix, Scenario>> cheapestMix(const Scenario& s, const Catalog& catalog,
                                                        const std::vector<SizedTemplate>& candidates, double bound,
                                                        double headroomPct, const std::atomic<bool>* stop)
{
    const auto stopped = [stop] { return stop && stop->load(); };
    std::optional<std::pair<NodeMix, Scenario>> best;
    double bestCost = bound - 1e-6;
    auto hosts = [&](const NodeMix& mix) -> std::optional<Scenario> {
        std::optional<Scenario> on = onNodeMix(s, catalog, mix);
        if (on && checkHosting(*on, catalog, headroomPct).hosts)
            return on;
        return std::nullopt;
    };
    const double gpus = gpuCountOf(s);
    for (const SizedTemplate& a : candidates)
        for (const SizedTemplate& b : candidates) {
            const NodeTemplate* ta = catalog.nodeTemplate(a.nodeTemplate);
            const NodeTemplate* tb = catalog.nodeTemplate(b.nodeTemplate);
            // b may host nothing alone (that is what a mix is for), but it must have a price.
            if (&a == &b || !a.nodes || !a.costPerMonthUsd || !calc::gpuHourPrice(s, catalog, tb->gpuId))
                continue;
            const int limitB = b.nodes ? *b.nodes : std::max(1, static_cast<int>(std::ceil(gpus / tb->gpuCount)) * 4);
            for (int na = 1; na < *a.nodes && !stopped(); ++na) {
                const double rest = std::max(0.0, gpus - na * ta->gpuCount);
                for (int nb = std::max(1, static_cast<int>(std::ceil(rest / tb->gpuCount - 1e-9))); nb <= limitB;
                     ++nb) {
                    std::optional<Scenario> on = hosts({{a.nodeTemplate, na}, {b.nodeTemplate, nb}});
                    if (!on)
                        continue;
                    const double cost = calc::evaluate(*on, catalog).kpis.costPerMonthUsd;
                    if (cost < bestCost) {
                        bestCost = cost;
                        best = std::make_pair(NodeMix{{a.nodeTemplate, na}, {b.nodeTemplate, nb}}, std::move(*on));
                    }
                    break; // more of b only costs more
                }
            }
        }
    if (!best || stopped())
        return std::nullopt;
    // Minimal: no node of either kind can go (placement is not monotone in every case).
    for (bool shrunk = true; shrunk;) {
        shrunk = false;
        for (auto& [id, count] : best->first) {
            if (count <= 1)
                continue;
            NodeMix fewer = best->first;
            for (auto& [fid, fcount] : fewer)
                fcount -= fid == id ? 1 : 0;
            if (std::optional<Scenario> on = hosts(fewer)) {
                best = std::make_pair(fewer, std::move(*on));
                shrunk = true;
                break;
            }
        }
    }
    return best;
}

} // namespace

std::optional<Scenario> onNodes(const Scenario& s, const Catalog& catalog, const std::string& nodeTemplate, int nodes)
{
    return onNodeMix(s, catalog, {{nodeTemplate, nodes}});
}

std::optional<Scenario> onNodeMix(const Scenario& s, const Catalog& catalog, const NodeMix& mix)
{
    int total = 0;
    for (const auto& [id, nodes] : mix) {
        if (!catalog.nodeTemplate(id) || nodes < 0)
            return std::nullopt;
        total += nodes;
    }
    if (total < 1 || total > kMaxNodes)
        return std::nullopt;
    const SwitchTemplate* st = nullptr;
    for (const Switch& sw : s.topology.switches)
        if (!st)
            st = catalog.switchTemplate(sw.templateId);
    if (!st && !catalog.switchTemplates.empty())
        st = &catalog.switchTemplates.front();
    if (!st)
        return std::nullopt;
    Scenario out = s;
    out.topology = Topology{};
    for (Tenant& t : out.tenants)
        for (Job& j : t.jobs)
            j.pin.reset();
    // One leaf-spine fabric: each template's racks under leaves of their own, every leaf linked to
    // the first template's spines (the later templates' spines are left out).
    std::vector<std::string> spines;
    for (const auto& [id, nodes] : mix) {
        if (nodes == 0)
            continue;
        const NodeTemplate* nt = catalog.nodeTemplate(id);
        const int perLeaf = std::min(nodesPerLeaf(*nt, *st), nodes);
        const Result<document::TopologyItems> items =
            document::generateFabric({nt->id, nodes, st->id, perLeaf, 2, 1.0}, catalog, out);
        if (!items.ok())
            return std::nullopt;
        std::vector<std::string> own;
        for (const Switch& sw : items.value->switches)
            if (sw.tier == "spine")
                own.push_back(sw.id);
        const bool first = spines.empty();
        for (const Switch& sw : items.value->switches)
            if (first || sw.tier != "spine")
                out.topology.switches.push_back(sw);
        for (Link l : items.value->links) {
            if (!first) // re-point the uplinks to the first spines, by position
                for (std::size_t k = 0; k < own.size() && k < spines.size(); ++k)
                    if (l.to == own[k])
                        l.to = spines[k];
            out.topology.links.push_back(l);
        }
        if (first)
            spines = own;
        out.topology.nodes.insert(out.topology.nodes.end(), items.value->nodes.begin(), items.value->nodes.end());
        out.topology.groups.insert(out.topology.groups.end(), items.value->groups.begin(), items.value->groups.end());
    }
    return out;
}

namespace {

/// ceil(jobs × (1 + g/100)^month) of one tenant (its own count without growth).
double grownTenantJobs(const Tenant& t, const std::map<std::string, double>& growthPct, int month)
{
    const auto g = growthPct.find(t.id);
    const auto base = static_cast<double>(t.jobs.size());
    if (g == growthPct.end() || month <= 0 || t.jobs.empty())
        return base;
    return std::ceil(base * std::pow(1.0 + g->second / 100.0, month) - 1e-9);
}

} // namespace

double grownJobCount(const Scenario& s, const std::map<std::string, double>& growthPct, int month)
{
    double jobs = 0.0;
    for (const Tenant& t : s.tenants)
        jobs += grownTenantJobs(t, growthPct, month);
    return jobs;
}

Scenario grownLoad(const Scenario& s, const std::map<std::string, double>& growthPct, int month)
{
    Scenario out = s;
    for (Tenant& t : out.tenants) {
        const std::size_t base = t.jobs.size();
        const auto want = static_cast<std::size_t>(grownTenantJobs(t, growthPct, month));
        for (std::size_t k = base; k < want; ++k) {
            Job copy = t.jobs[k % base];
            copy.id = t.jobs[k % base].id + "-m" + std::to_string(month) + "-" + std::to_string(k);
            copy.name = t.jobs[k % base].name + " (growth " + std::to_string(k - base + 1) + ")";
            copy.pin.reset();
            t.jobs.push_back(std::move(copy));
        }
    }
    return out;
}

HostCheck checkHosting(const Scenario& s, const Catalog& catalog, double headroomPct)
{
    const calc::Evaluation ev = calc::evaluate(s, catalog);
    HostCheck c;
    c.withinSla = ev.kpis.unplacedJobs == 0 && ev.kpis.slaViolations == 0;
    c.allPlaced = ev.kpis.unplacedJobs == 0;
    c.unplaced = ev.kpis.unplacedJobs;
    c.allocationRatio = ev.kpis.allocationRatio;
    const double limit = 1.0 - std::clamp(headroomPct, 0.0, 100.0) / 100.0;
    c.hosts = c.withinSla && c.allocationRatio <= limit + 1e-9;
    c.why = !c.withinSla ? calc::slaShortfall(s, ev)
            : !c.hosts   ? "only " + fmt::percent(1.0 - c.allocationRatio) + " of the GPUs stay free, under the " +
                             fmt::percent(1.0 - limit) + " headroom"
                       : std::string();
    return c;
}

Result<SizingResult> sizeCluster(const Scenario& s, const Catalog& catalog, const SizingRequest& request)
{
    using R = Result<SizingResult>;
    if (request.templates.empty())
        return R::failure("templates", "give at least one node template");
    for (const std::string& id : request.templates)
        if (!catalog.nodeTemplate(id))
            return R::failure("templates", "no node template '" + id + "' in the catalog");
    for (const auto& [tenant, pct] : request.growthPct) {
        if (!s.findTenant(tenant))
            return R::failure("growth." + tenant, "no tenant has this id");
        if (!std::isfinite(pct) || pct < 0.0 || pct > 1000.0)
            return R::failure("growth." + tenant, fmt::fixed(pct, 1) + " % per month must be between 0 and 1,000");
    }
    if (!std::isfinite(request.headroomPct) || request.headroomPct < 0.0 || request.headroomPct > 90.0)
        return R::failure("headroom_pct", "must be between 0 and 90, not " + fmt::fixed(request.headroomPct, 1));
    if (request.months < 0 || request.months > 120)
        return R::failure("months", "must be between 0 and 120, not " + std::to_string(request.months));
    if (gpuCountOf(s) <= 0)
        return R::failure("tenants", "the scenario has no jobs to size for");
    const auto stopped = [&request] { return request.stop && request.stop->load(); };
    const auto cancelled = [] { return R::failure("sizing", "cancelled"); };
    const auto tell = [&request](const std::string& what) {
        if (request.progress)
            request.progress(what);
    };

    // The fewest nodes of one template for one load: from the GPU count's lower bound, doubling
    // until the load fits, then halving the gap, then down while one node fewer still hosts it.
    auto fewest = [&](const Scenario& load, const std::string& id, std::string* why) -> std::optional<int> {
        const NodeTemplate* nt = catalog.nodeTemplate(id);
        const int perNode = std::max(nt->gpuCount, 1);
        auto check = [&](int n) {
            const std::optional<Scenario> on = onNodes(load, catalog, id, n);
            return on ? checkHosting(*on, catalog, request.headroomPct)
                      : HostCheck{false, false, "the fabric cannot be built"};
        };
        int lo = std::max(1, static_cast<int>(std::ceil(gpuCountOf(load) / perNode - 1e-9))) - 1; // does not host
        int hi = lo + 1;
        int unplacedBefore = -1;
        for (HostCheck c = check(hi); !c.hosts; c = check(hi)) {
            if (stopped())
                return std::nullopt;
            // Every job placed and still one outside its SLA: more nodes of this kind give it
            // nothing (its GPUs, their sharing and its links stay the same). Twice the nodes
            // placing no more jobs: what is left needs a GPU or a node this template has not.
            // Within every SLA and short of headroom only: more nodes give it.
            const bool stuck = !c.withinSla && unplacedBefore >= 0 && c.unplaced >= unplacedBefore;
            const bool slaBinds = c.allPlaced && !c.withinSla;
            if (slaBinds || stuck || hi >= kMaxNodes) {
                if (why)
                    *why = (slaBinds ? "every job placed on " + std::to_string(hi) + " nodes, but "
                            : stuck ? std::to_string(hi) + " nodes place no more jobs than " + std::to_string(lo) + ": "
                                    : "not on " + std::to_string(kMaxNodes) + " nodes either: ") +
                           c.why;
                return std::nullopt;
            }
            unplacedBefore = c.unplaced;
            lo = hi;
            hi = std::min(kMaxNodes, hi * 2);
        }
        while (hi - lo > 1 && !stopped()) {
            const int mid = lo + (hi - lo) / 2;
            (check(mid).hosts ? hi : lo) = mid;
        }
        while (hi > 1 && !stopped() && check(hi - 1).hosts) // placement is not monotone in every case
            --hi;
        return hi;
    };
    auto costOf = [&](const Scenario& load, const std::string& id, int n) {
        const std::optional<Scenario> on = onNodes(load, catalog, id, n);
        return on ? calc::evaluate(*on, catalog).kpis.costPerMonthUsd : 0.0;
    };

    SizingResult out;
    for (const std::string& id : request.templates) {
        const NodeTemplate* nt = catalog.nodeTemplate(id);
        tell(nt->name.empty() ? id : nt->name);
        SizedTemplate c{id, std::nullopt, std::nullopt, {}};
        c.nodes = fewest(s, id, &c.why);
        if (stopped())
            return cancelled();
        if (c.nodes && calc::gpuHourPrice(s, catalog, nt->gpuId))
            c.costPerMonthUsd = costOf(s, id, *c.nodes);
        else if (c.nodes) { // named as the catalog names them, not by id
            const GpuSpec* gpu = catalog.gpu(nt->gpuId);
            const PricePreset* prices = catalog.pricePreset(s.pricing.preset);
            c.why = "no price for the " + (gpu ? gpu->name : nt->gpuId) + " in the scenario's pricing" +
                    (prices                     ? " (" + prices->name + ")"
                     : s.pricing.preset.empty() ? ""
                                                : " (" + s.pricing.preset + ")");
        }
        out.candidates.push_back(c);
    }
    // The cheapest of the priced ones; the fewest GPUs when none is priced.
    const SizedTemplate* best = nullptr;
    auto gpusOf = [&](const SizedTemplate& c) { return *c.nodes * catalog.nodeTemplate(c.nodeTemplate)->gpuCount; };
    for (const SizedTemplate& c : out.candidates) {
        if (!c.nodes)
            continue;
        const bool better = !best                                        ? true
                            : c.costPerMonthUsd && best->costPerMonthUsd ? *c.costPerMonthUsd < *best->costPerMonthUsd
                            : c.costPerMonthUsd.has_value() != best->costPerMonthUsd.has_value()
                                ? c.costPerMonthUsd.has_value()
                                : gpusOf(c) < gpusOf(*best);
        if (better)
            best = &c;
    }
    if (!best) {
        std::string why;
        for (const SizedTemplate& c : out.candidates) { // the template by its name, its id beside it for --template
            const NodeTemplate* nt = catalog.nodeTemplate(c.nodeTemplate);
            why += (why.empty() ? "" : "; ") +
                   (nt->name.empty() ? c.nodeTemplate : nt->name + " (" + c.nodeTemplate + ")") + ": " + c.why;
        }
        return R::failure("templates", "no candidate hosts every job within its SLA — " + why);
    }
    out.nodeTemplate = best->nodeTemplate;
    out.nodes = *best->nodes;
    out.mix = {{out.nodeTemplate, out.nodes}};
    out.costPerMonthUsd = best->costPerMonthUsd.value_or(0.0);
    out.sized = *onNodes(s, catalog, out.nodeTemplate, out.nodes);
    const std::string single = out.nodeTemplate;
    if (best->costPerMonthUsd) {
        tell("mixes of two templates");
        if (auto mixed =
                cheapestMix(s, catalog, out.candidates, out.costPerMonthUsd, request.headroomPct, request.stop)) {
            out.mix = mixed->first;
            out.sized = std::move(mixed->second);
            out.costPerMonthUsd = calc::evaluate(out.sized, catalog).kpis.costPerMonthUsd;
            out.nodes = out.mix[0].second + out.mix[1].second;
            out.nodeTemplate = out.mix[0].first + "+" + out.mix[1].first;
        }
    }
    if (stopped())
        return cancelled();
    out.allocationRatio = calc::evaluate(out.sized, catalog).kpis.allocationRatio;

    if (request.months > 0) {
        for (int m = 0; m <= request.months; ++m) {
            tell("month " + std::to_string(m) + " of " + std::to_string(request.months));
            if (stopped())
                return cancelled();
            const Scenario load = grownLoad(s, request.growthPct, m);
            SizingMonth month;
            month.month = m;
            for (const Tenant& t : load.tenants)
                month.jobs += static_cast<int>(t.jobs.size());
            month.nodes = m == 0 && out.mix.size() == 1 ? std::optional<int>(out.nodes) : fewest(load, single, nullptr);
            month.costPerMonthUsd = month.nodes ? costOf(load, single, *month.nodes) : 0.0;
            month.currentHosts = checkHosting(load, catalog, request.headroomPct).hosts;
            if (!month.currentHosts && !out.currentRunsOutMonth)
                out.currentRunsOutMonth = m;
            out.months.push_back(month);
        }
    }
    if (stopped())
        return cancelled();
    return R::success(std::move(out));
}

} // namespace gp::study
