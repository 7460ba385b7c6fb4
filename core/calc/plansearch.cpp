// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
// The plan search: sharing settings and cluster size for a whole scenario, by local search over
// groups of identical nodes, every plan scored by evaluate (docs/model-reference.md, "Plan search").
#include "plansearch.h"

#include "evaluate.h"
#include "inventory.h"
#include "jobsearch.h"

#include "model/enumnames.h"
#include "model/format.h"
#include "model/miglayout.h"
#include "model/units.h"
#include "model/validation.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <map>
#include <random>
#include <tuple>

namespace gp::calc {

namespace {

/// Nodes alike in GPU model, GPU count and template: one group, one setting.
struct NodeGroup
{
    std::string gpuId;
    int gpuCount = 0;
    std::string templateId;
    std::string label; ///< "dgx-h100" (its template, else its GPU model)
    int size = 0;      ///< its nodes in the scenario as given
};

struct Option
{
    std::string label;
    SharingConfig config;
};

std::string migLabel(const mig::Layout& layout)
{
    std::map<std::string, int> counts;
    for (const MigInstance& i : layout)
        ++counts[i.profile];
    std::string out;
    for (const auto& [profile, n] : counts)
        out += (out.empty() ? "" : ", ") + profile + (n > 1 ? " ×" + std::to_string(n) : "");
    return "MIG " + out;
}

/// Every setting a GPU offers, as the plan search tries them.
std::vector<Option> optionsFor(const GpuSpec& g)
{
    std::vector<Option> out;
    SharingConfig c;
    out.push_back({"bare metal", c});
    for (int r : {2, 4, 8}) {
        SharingConfig t;
        t.mode = SharingMode::TimeSlicing;
        t.replicas = r;
        out.push_back({"time-slicing ×" + std::to_string(r), t});
    }
    for (int pct : {50, 25}) {
        SharingConfig m;
        m.mode = SharingMode::Mps;
        m.mpsActiveThreadPct = pct;
        m.mpsMemoryLimitGiB = std::floor(g.memoryUsableGiB * pct / 100.0);
        out.push_back({"MPS " + std::to_string(pct) + " %", m});
    }
    if (g.supportsMig())
        for (const mig::Layout& layout : mig::enumerate(g, {}, true)) {
            SharingConfig m;
            m.mode = SharingMode::Mig;
            m.migInstances = layout;
            out.push_back({migLabel(layout), m});
        }
    for (const VgpuProfile& p : g.vgpuProfiles) {
        SharingConfig v;
        v.mode = SharingMode::Vgpu;
        v.vgpuProfile = p.name;
        out.push_back({"vGPU " + p.name, v});
    }
    return out;
}

bool sameGroup(const Node& n, const NodeGroup& g)
{
    return n.gpuId == g.gpuId && n.gpuCount == g.gpuCount && n.templateId == g.templateId;
}

int countIn(const Scenario& s, const NodeGroup& g)
{
    return static_cast<int>(std::count_if(s.topology.nodes.begin(), s.topology.nodes.end(),
                                          [&](const Node& n) { return sameGroup(n, g); }));
}

/// The scenario with every node of group `g` shared as `config` (per-GPU overrides dropped).
Scenario withSetting(const Scenario& s, const NodeGroup& g, const SharingConfig& config)
{
    Scenario out = s;
    for (Node& n : out.topology.nodes)
        if (sameGroup(n, g)) {
            n.sharing = config;
            n.gpuSharing.clear();
        }
    for (Tenant& t : out.tenants) // a pin to a MIG instance or GPU of a changed node may no longer exist
        for (Job& j : t.jobs)
            if (j.pin && (j.pin->gpu || j.pin->migInstance))
                if (const Node* n = out.topology.findNode(j.pin->node); n && sameGroup(*n, g))
                    j.pin.reset();
    return out;
}

/// The scenario without the last node of group `g` (its links and the pins to it go too).
std::optional<std::pair<Scenario, std::string>> withoutOne(const Scenario& s, const NodeGroup& g)
{
    const auto it = std::find_if(s.topology.nodes.rbegin(), s.topology.nodes.rend(),
                                 [&](const Node& n) { return sameGroup(n, g); });
    if (it == s.topology.nodes.rend())
        return std::nullopt;
    const std::string id = it->id;
    Scenario out = s;
    std::erase_if(out.topology.nodes, [&](const Node& n) { return n.id == id; });
    std::erase_if(out.topology.links, [&](const Link& l) { return l.from == id || l.to == id; });
    for (Tenant& t : out.tenants)
        for (Job& j : t.jobs)
            if (j.pin && j.pin->node == id)
                j.pin.reset();
    return std::make_pair(std::move(out), id);
}

/// Jobs unplaced or outside their SLA, and one more when the plan's largest penalty passes the
/// search's cap.
/// The scenario without the last `count` nodes of group `g` (a bigger step down for big groups).
std::optional<std::pair<Scenario, std::string>> withoutSome(const Scenario& s, const NodeGroup& g, int count)
{
    std::optional<std::pair<Scenario, std::string>> out;
    std::string first;
    for (int i = 0; i < count; ++i) {
        auto next = withoutOne(out ? out->first : s, g);
        if (!next)
            return std::nullopt;
        if (i == 0)
            first = next->second;
        out = std::move(next);
    }
    if (out && count > 1)
        out->second = std::to_string(count) + " nodes (" + first + " … " + out->second + ")";
    return out;
}

/// Another way to run one job: its parallelism from the job search on the GPUs it runs on, or
/// its deployment from the serving search.
struct JobMove
{
    std::string jobId;
    Job job;
    std::string label;
};

std::string parallelismLabel(const Job& j)
{
    const Parallelism& p = j.parallelism;
    return "TP" + std::to_string(p.tp) + " PP" + std::to_string(p.pp) + " DP" + std::to_string(p.dp) + " on " +
           std::to_string(p.gpus()) + " GPUs";
}

/// For each placed job: the fastest parallelism the job search finds on its GPU kind at its own
/// GPU count and at a half and a quarter of it (deadlines decide whether the slower ones do), or
/// the three serving deployments on the fewest GPUs that meet its tenant's objectives.
std::vector<JobMove> jobMoves(const Scenario& s, const Catalog& c, const Evaluation& ev, const std::atomic<bool>* stop)
{
    std::vector<JobMove> out;
    for (const JobResult& r : ev.jobs) {
        const Job* job = s.findJob(r.id);
        const Node* node = r.placement.empty() ? nullptr : s.topology.findNode(r.placement.front().node);
        if (!job || !node || !c.gpu(node->gpuId) || (stop && stop->load()))
            continue;
        const JobSearchSetup base = jobSearchSetup(s, c, *job, *node);
        const int gpus = std::max(job->parallelism.gpus(), 1);
        std::vector<Job> alternatives;
        if (job->isTraining()) {
            for (int count : {gpus, gpus / 2, gpus / 4}) {
                if (count < 1 || (count < gpus && gpus % count != 0))
                    continue;
                JobSearchSetup setup = base;
                setup.gpusMin = setup.gpusMax = count;
                const JobSearchResult found = searchJob(setup, {1, {}, stop, true});
                if (!found.top.empty())
                    alternatives.push_back(withConfig(*job, found.top.front()));
            }
        } else if (job->inference) {
            JobSearchSetup setup = base;
            setup.gpusMin = 1;
            setup.gpusMax = gpus;
            const ServingSearchResult found = searchServing(setup, {3, {}, stop, true});
            for (const ServingConfig& d : found.top)
                alternatives.push_back(withServingConfig(*job, d));
        }
        for (Job& j : alternatives) {
            if (j.parallelism == job->parallelism && j.batch == job->batch && j.precision == job->precision &&
                j.inference == job->inference)
                continue;
            if (j.parallelism.gpus() != gpus && j.pin && (j.pin->gpu || j.pin->migInstance))
                j.pin.reset(); // a pin to some of its GPUs no longer says where all of them go
            const bool serving = !j.isTraining();
            out.push_back({j.id, j,
                           j.name + ": " + parallelismLabel(j) +
                               (serving ? ", batch cap " + std::to_string(j.inference->concurrency) + ", " +
                                              std::string(enumName(j.precision))
                                        : std::string())});
        }
    }
    return out;
}

/// The scenario with job `m.jobId` run as `m.job`.
Scenario withJob(const Scenario& s, const JobMove& m)
{
    Scenario out = s;
    for (Tenant& t : out.tenants)
        for (Job& j : t.jobs)
            if (j.id == m.jobId)
                j = m.job;
    return out;
}

int violations(const Kpis& k, const std::optional<double>& maxPenalty)
{
    return k.unplacedJobs + k.slaViolations + (maxPenalty && k.maxPenalty > *maxPenalty + 1e-12 ? 1 : 0);
}

/// Whether `a` is a better plan than `b`: fewer violations, then the objective.
bool better(const Kpis& a, const Kpis& b, const PlanSearchOptions& o)
{
    const PlanObjective objective = o.objective;
    if (violations(a, o.maxPenalty) != violations(b, o.maxPenalty))
        return violations(a, o.maxPenalty) < violations(b, o.maxPenalty);
    constexpr double eps = 1e-9;
    if (objective == PlanObjective::Cost) {
        if (std::abs(a.costPerMonthUsd - b.costPerMonthUsd) > 1e-6)
            return a.costPerMonthUsd < b.costPerMonthUsd;
        return a.vramUtilization > b.vramUtilization + eps;
    }
    if (std::abs(a.vramUtilization - b.vramUtilization) > eps)
        return a.vramUtilization > b.vramUtilization;
    return a.costPerMonthUsd < b.costPerMonthUsd - 1e-6;
}

/// Admissible plan `a` beats `b` on every Pareto axis and strictly on one.
bool dominates(const Kpis& a, const Kpis& b)
{
    const auto axes = [](const Kpis& k) {
        return std::array<double, 4>{-k.vramUtilization, k.maxPenalty, k.costPerMonthUsd, k.fragmentation};
    };
    const auto x = axes(a), y = axes(b);
    bool strict = false;
    for (std::size_t i = 0; i < x.size(); ++i) {
        if (x[i] > y[i] + 1e-9)
            return false;
        strict = strict || x[i] < y[i] - 1e-9;
    }
    return strict;
}

/// Equal on every Pareto axis.
bool alike(const Kpis& a, const Kpis& b)
{
    return !dominates(a, b) && !dominates(b, a) && std::abs(a.vramUtilization - b.vramUtilization) < 1e-9 &&
           std::abs(a.maxPenalty - b.maxPenalty) < 1e-9 && std::abs(a.costPerMonthUsd - b.costPerMonthUsd) < 1e-6 &&
           std::abs(a.fragmentation - b.fragmentation) < 1e-9;
}

} // namespace

PlanSearchResult searchPlan(const Scenario& scenario, const Catalog& catalog, const PlanSearchOptions& options)
{
    const auto start = std::chrono::steady_clock::now();
    auto elapsedS = [&] { return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(); };
    PlanSearchResult result;
    result.current = {scenario, evaluate(scenario, catalog).kpis, {}};
    result.evaluated = 1;

    // The cost bound: the memory every unit of every job needs, on the GPU kind with the most
    // usable memory, at the cheapest price of the scenario's GPU kinds.
    double demand = 0.0, bestUsable = 0.0, cheapest = 0.0;
    bool priced = false;
    for (const Tenant& t : scenario.tenants)
        for (const Job& j : t.jobs)
            demand += jobMemoryNeed(j, scenario, catalog).demandBytes * std::max(j.parallelism.gpus(), 1);
    for (const Node& n : scenario.topology.nodes)
        if (const GpuSpec* g = catalog.gpu(n.gpuId)) {
            bestUsable = std::max(bestUsable, g->memoryUsableGiB * kGiB);
            if (const auto price = gpuHourPrice(scenario, catalog, n.gpuId); price && (!priced || *price < cheapest)) {
                cheapest = *price;
                priced = true;
            }
        }
    if (bestUsable > 0)
        result.costLowerBoundUsd = std::ceil(demand / bestUsable - 1e-9) * cheapest * Inventory::kHoursPerMonth;

    // The groups and their options.
    std::vector<NodeGroup> groups;
    for (const Node& n : scenario.topology.nodes)
        if (catalog.gpu(n.gpuId) &&
            std::none_of(groups.begin(), groups.end(), [&](const NodeGroup& g) { return sameGroup(n, g); }))
            groups.push_back({n.gpuId, n.gpuCount, n.templateId, {}});
    std::vector<std::vector<Option>> optionsOf;
    for (NodeGroup& g : groups) {
        g.size = countIn(scenario, g);
        g.label = (g.templateId.empty() ? g.gpuId + " ×" + std::to_string(g.gpuCount) : g.templateId) + " nodes";
        optionsOf.push_back(optionsFor(*catalog.gpu(g.gpuId)));
    }

    // Moves: (group, option) sets a group's sharing; (group, -1) removes one of its nodes and
    // (group, -2) an eighth of them at once (groups of 16 nodes or more); (-1, j) runs job move j.
    std::vector<std::pair<int, int>> moves;
    for (int g = 0; g < static_cast<int>(groups.size()); ++g) {
        for (int o = 0; o < static_cast<int>(optionsOf[static_cast<std::size_t>(g)].size()); ++o)
            moves.emplace_back(g, o);
        if (options.removeNodes) {
            moves.emplace_back(g, -1);
            if (groups[static_cast<std::size_t>(g)].size >= 16)
                moves.emplace_back(g, -2);
        }
    }
    std::vector<JobMove> byJob;
    if (options.jobMoves) {
        byJob = jobMoves(scenario, catalog, evaluate(scenario, catalog), options.stop);
        for (int m = 0; m < static_cast<int>(byJob.size()); ++m)
            moves.emplace_back(-1, m);
    }
    std::mt19937_64 rng(options.seed);
    PlanCandidate best = result.current;
    std::vector<PlanCandidate>& front = result.pareto;
    auto archive = [&](const PlanCandidate& p) {
        if (violations(p.kpis, options.maxPenalty) > 0)
            return;
        if (std::any_of(front.begin(), front.end(), [&](const PlanCandidate& f) {
                return dominates(f.kpis, p.kpis) || alike(f.kpis, p.kpis); // the first of equals stays
            }))
            return;
        std::erase_if(front, [&](const PlanCandidate& f) { return dominates(p.kpis, f.kpis); });
        front.push_back(p);
    };
    archive(best);
    bool improved = true;
    while (improved && !result.timedOut && !result.cancelled) {
        improved = false;
        std::shuffle(moves.begin(), moves.end(), rng);
        for (const auto& [g, o] : moves) {
            if (options.stop && options.stop->load()) {
                result.cancelled = true;
                break;
            }
            if (elapsedS() > options.timeLimitS) {
                result.timedOut = true;
                break;
            }
            PlanCandidate next;
            next.changes = best.changes;
            if (g < 0) {
                const JobMove& m = byJob[static_cast<std::size_t>(o)];
                const Job* now = best.scenario.findJob(m.jobId);
                if (!now || *now == m.job)
                    continue;
                next.scenario = withJob(best.scenario, m);
                const Issues issues = validateScenario(next.scenario, catalog);
                if (std::any_of(issues.begin(), issues.end(), [](const Issue& i) { return i.isError(); }))
                    continue;
                const std::string prefix = m.job.name + ":";
                std::erase_if(next.changes, [&](const std::string& c) { return c.rfind(prefix, 0) == 0; });
                next.changes.push_back(m.label);
            } else if (o < 0) {
                const NodeGroup& group = groups[static_cast<std::size_t>(g)];
                const int count = o == -1 ? 1 : std::max(2, countIn(best.scenario, group) / 8);
                auto smaller = withoutSome(best.scenario, group, count);
                if (!smaller)
                    continue;
                next.scenario = std::move(smaller->first);
                next.changes.push_back("removed " + smaller->second);
            } else {
                const NodeGroup& group = groups[static_cast<std::size_t>(g)];
                const Option& opt = optionsOf[static_cast<std::size_t>(g)][static_cast<std::size_t>(o)];
                bool unchanged = true;
                for (const Node& n : best.scenario.topology.nodes)
                    unchanged =
                        unchanged && (!sameGroup(n, group) || (n.sharing == opt.config && n.gpuSharing.empty()));
                if (unchanged)
                    continue;
                next.scenario = withSetting(best.scenario, group, opt.config);
                std::erase_if(next.changes, [&](const std::string& c) { return c.rfind(group.label + ":", 0) == 0; });
                next.changes.push_back(group.label + ": " + opt.label);
            }
            next.kpis = evaluate(next.scenario, catalog).kpis;
            ++result.evaluated;
            archive(next);
            if (better(next.kpis, best.kpis, options)) {
                best = std::move(next);
                improved = true;
                if (options.progress)
                    options.progress(result.evaluated, best);
            }
        }
    }
    std::sort(front.begin(), front.end(),
              [&](const PlanCandidate& a, const PlanCandidate& b) { return better(a.kpis, b.kpis, options); });
    if (front.empty()) {
        const Kpis& k = best.kpis;
        const bool onlyCap = k.unplacedJobs + k.slaViolations == 0;
        result.infeasibleReason =
            onlyCap ? "no plan tried keeps the largest penalty within " + fmt::percent(*options.maxPenalty) +
                          "; the closest reaches " + fmt::percent(k.maxPenalty)
                    : "no plan tried keeps every job placed and within its SLA; in the closest, " +
                          slaShortfall(best.scenario, evaluate(best.scenario, catalog)) +
                          " (jobs unplaced or outside their SLA: " + std::to_string(k.unplacedJobs + k.slaViolations) +
                          "; in the scenario as given: " +
                          std::to_string(result.current.kpis.unplacedJobs + result.current.kpis.slaViolations) + ")";
    }
    result.elapsedMs = elapsedS() * 1000.0;
    return result;
}

} // namespace gp::calc
