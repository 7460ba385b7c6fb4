// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
// The plan search: sharing settings and cluster size for a whole scenario, by local search over
// groups of identical nodes, every plan scored by evaluate (docs/model-reference.md, "Plan search").
#include "plansearch.h"
#include "plansearchgroups.h"

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
#include <unordered_map>
#include <unordered_set>

namespace gp::calc {

using namespace detail;

namespace {

struct Option
{
    std::string label;
    SharingConfig config;
};

/// Every setting a GPU offers, as the plan search tries them.
std::vector<Option> optionsFor(const GpuSpec& g)
{
    std::vector<Option> out;
    auto add = [&](const SharingConfig& c) { out.push_back({sharingText(c), c}); };
    add(SharingConfig{});
    for (int r : {2, 4, 8}) {
        SharingConfig t;
        t.mode = SharingMode::TimeSlicing;
        t.replicas = r;
        add(t);
    }
    for (int pct : {50, 25}) {
        SharingConfig m;
        m.mode = SharingMode::Mps;
        m.mpsActiveThreadPct = pct;
        m.mpsMemoryLimitGiB = std::floor(g.memoryUsableGiB * pct / 100.0);
        add(m);
    }
    if (g.supportsMig())
        for (const mig::Layout& layout : mig::enumerate(g, {}, true)) {
            SharingConfig m;
            m.mode = SharingMode::Mig;
            m.migInstances = layout;
            add(m);
        }
    for (const VgpuProfile& p : g.vgpuProfiles) {
        SharingConfig v;
        v.mode = SharingMode::Vgpu;
        v.vgpuProfile = p.name;
        add(v);
    }
    return out;
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

/// The scenario without the last `count` nodes of group `g` (their links and the pins to them
/// go too; a bigger step down for big groups), and what it removed ("node-7", "3 nodes (node-9 …
/// node-7)"). One pass over the scenario whatever `count` is: a large plan removes hundreds at once.
std::optional<std::pair<Scenario, std::string>> withoutSome(const Scenario& s, const NodeGroup& g, int count)
{
    std::unordered_set<std::string> ids;
    std::string first, last;
    // A tray of a rack-scale NVLink domain goes only with its whole rack (and the domain's group):
    // a rack short of a tray is no rack (model/rackvalidation.cpp).
    std::unordered_set<std::string> domains, racksGone;
    for (const Group& grp : s.topology.groups)
        if (grp.isNvlinkDomain())
            domains.insert(grp.id);
    for (auto it = s.topology.nodes.rbegin(); it != s.topology.nodes.rend() && static_cast<int>(ids.size()) < count;
         ++it)
        if (sameGroup(*it, g) && !ids.count(it->id)) {
            if (domains.count(it->group) && racksGone.insert(it->group).second) {
                for (const Node& n : s.topology.nodes)
                    if (n.group == it->group)
                        ids.insert(n.id);
            } else
                ids.insert(it->id);
            (first.empty() ? first : last) = it->id;
        }
    if (ids.empty() || static_cast<int>(ids.size()) < count)
        return std::nullopt;
    count = static_cast<int>(ids.size());
    Scenario out = s;
    std::erase_if(out.topology.groups, [&](const Group& grp) { return racksGone.count(grp.id) > 0; });
    std::erase_if(out.topology.nodes, [&](const Node& n) { return ids.count(n.id) > 0; });
    std::erase_if(out.topology.links, [&](const Link& l) { return ids.count(l.from) > 0 || ids.count(l.to) > 0; });
    for (Tenant& t : out.tenants)
        for (Job& j : t.jobs)
            if (j.pin && ids.count(j.pin->node) > 0)
                j.pin.reset();
    std::string what = first;
    if (!racksGone.empty()) { // "18 nodes (rack nvl72-b)"
        std::string racks;
        for (const Group& grp : s.topology.groups)
            if (racksGone.count(grp.id))
                racks += (racks.empty() ? "" : ", ") + grp.id;
        what = std::to_string(count) + " nodes (rack" + (racksGone.size() > 1 ? "s " : " ") + racks + ")";
    } else if (count > 1)
        what = std::to_string(count) + " nodes (" + first + " … " + last + ")";
    return std::make_pair(std::move(out), what);
}

/// Another way to run one job: its parallelism from the job search on the GPUs it runs on, or
/// its deployment from the serving search.
/// What makes a plan admissible and what orders plans: the caps on top of every SLA, the
/// objective.
struct Rules
{
    PlanObjective objective = PlanObjective::Cost;
    std::optional<double> maxPenalty;
    double allocationLimit = 1.0; ///< the largest allocation ratio a plan keeps (its headroom)
};

/// Jobs unplaced or outside their SLA, one more when the plan's largest penalty passes the
/// search's cap and one more when it keeps less headroom than asked.
int violations(const Kpis& k, const Rules& r)
{
    return k.unplacedJobs + k.slaViolations + (r.maxPenalty && k.maxPenalty > *r.maxPenalty + 1e-12 ? 1 : 0) +
           (k.allocationRatio > r.allocationLimit + 1e-9 ? 1 : 0);
}

/// The order plans are ranked in: fewer violations, then the objective (cost then VRAM, or VRAM
/// then cost), then fewer changes, a smaller largest penalty, less fragmentation. `changesFirst`
/// ranks the changes before the objective's second key (how the Pareto set is listed: among plans
/// of equal cost, the fewest changes first).
bool ranksBefore(const PlanCandidate& a, const PlanCandidate& b, const Rules& r, bool changesFirst)
{
    const Kpis &x = a.kpis, &y = b.kpis;
    if (violations(x, r) != violations(y, r))
        return violations(x, r) < violations(y, r);
    constexpr double eps = 1e-9;
    const bool costFirst = r.objective == PlanObjective::Cost;
    const bool sameCost = std::abs(x.costPerMonthUsd - y.costPerMonthUsd) <= 1e-6;
    const bool sameVram = std::abs(x.vramUtilization - y.vramUtilization) <= eps;
    if (costFirst ? !sameCost : !sameVram)
        return costFirst ? x.costPerMonthUsd < y.costPerMonthUsd : x.vramUtilization > y.vramUtilization;
    if (changesFirst && a.changes.size() != b.changes.size())
        return a.changes.size() < b.changes.size();
    if (costFirst ? !sameVram : !sameCost)
        return costFirst ? x.vramUtilization > y.vramUtilization : x.costPerMonthUsd < y.costPerMonthUsd;
    if (a.changes.size() != b.changes.size())
        return a.changes.size() < b.changes.size();
    if (std::abs(x.maxPenalty - y.maxPenalty) > eps)
        return x.maxPenalty < y.maxPenalty;
    return x.fragmentation < y.fragmentation - eps;
}

/// Whether `a` is at least as good as `b` on violations and the objective's keys that matter to
/// a planner: no more violations, no dearer (and, for utilization, no emptier).
bool asGood(const Kpis& a, const Kpis& b, const Rules& r)
{
    if (violations(a, r) > violations(b, r) || a.costPerMonthUsd > b.costPerMonthUsd + 1e-6)
        return false;
    return r.objective == PlanObjective::Cost || a.vramUtilization >= b.vramUtilization - 1e-9;
}

/// The Pareto axes of an admissible plan: utilization, max penalty, $/month, fragmentation and
/// the number of changes, all as "less is better".
std::array<double, 5> axes(const PlanCandidate& p)
{
    const Kpis& k = p.kpis;
    return {-k.vramUtilization, k.maxPenalty, k.costPerMonthUsd, k.fragmentation,
            static_cast<double>(p.changes.size())};
}

/// Admissible plan `a` beats `b` on every Pareto axis and strictly on one.
bool dominates(const PlanCandidate& a, const PlanCandidate& b)
{
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
bool alike(const PlanCandidate& a, const PlanCandidate& b)
{
    const auto x = axes(a), y = axes(b);
    for (std::size_t i = 0; i < x.size(); ++i)
        if (std::abs(x[i] - y[i]) > (i == 2 ? 1e-6 : 1e-9))
            return false;
    return true;
}

/// Why a move helps, from the plan before it to the plan after it.
std::string moveReason(const Kpis& before, const Kpis& after, const Rules& r)
{
    auto jobs = [](int n) { return std::to_string(n) + (n == 1 ? " more job" : " more jobs"); };
    if (after.unplacedJobs < before.unplacedJobs)
        return "places " + jobs(before.unplacedJobs - after.unplacedJobs) + " (it fits the memory)";
    if (violations(after, r) < violations(before, r))
        return after.slaViolations < before.slaViolations
                   ? "brings " + jobs(before.slaViolations - after.slaViolations) + " within their SLA"
                   : "keeps the plan within its penalty cap and headroom";
    if (after.costPerMonthUsd < before.costPerMonthUsd - 1e-6)
        return "saves " + fmt::usd(before.costPerMonthUsd - after.costPerMonthUsd) + "/month";
    if (after.vramUtilization > before.vramUtilization + 1e-9) {
        const int digits = fmt::percent(before.vramUtilization) == fmt::percent(after.vramUtilization) ? 2 : 1;
        return "raises VRAM utilization from " + fmt::percent(before.vramUtilization, digits) + " to " +
               fmt::percent(after.vramUtilization, digits);
    }
    if (after.maxPenalty < before.maxPenalty - 1e-9)
        return "cuts the largest penalty from " + fmt::percent(before.maxPenalty) + " to " +
               fmt::percent(after.maxPenalty);
    return "needed by the plan's other changes";
}

} // namespace

PlanSearchResult searchPlan(const Scenario& scenario, const Catalog& catalog, const PlanSearchOptions& options)
{
    const auto start = std::chrono::steady_clock::now();
    auto elapsedS = [&] { return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(); };
    // Every inner search (the job and serving searches of the job moves) stops at this instant
    // too, and the loop checks it before each plan: the search ends within about one evaluation
    // of its time limit however large the plan.
    const Deadline deadline{
        start + std::chrono::duration_cast<std::chrono::steady_clock::duration>(std::chrono::duration<double>(
                    // finite and far below the clock's range (NaN counts as 0)
                    std::clamp(std::isnan(options.timeLimitS) ? 0.0 : options.timeLimitS, 0.0, 1e7))),
        options.stop};
    PlanSearchResult result;
    Evaluation bestEvaluation = evaluate(scenario, catalog);
    result.current = {scenario, bestEvaluation.kpis, {}};
    result.evaluated = 1;
    const JobIndex jobIndex = indexJobs(scenario);
    const double headroom = std::isfinite(options.headroom) ? std::clamp(options.headroom, 0.0, 1.0) : 0.0;
    const Rules rules{options.objective, options.maxPenalty,
                      std::max(1.0 - headroom, result.current.kpis.allocationRatio)};
    result.allocationLimit = rules.allocationLimit;
    // No job may change: no job moves, and no move that would lift a job's pin either.
    const bool keepJobs = !options.jobMoves || !options.allow.any();

    // The cost bound: the memory every unit of every job needs, on the GPU kind with the most
    // usable memory, at the cheapest price of the scenario's GPU kinds.
    double demand = 0.0, bestUsable = 0.0, cheapest = 0.0;
    bool priced = false;
    for (const Tenant& t : scenario.tenants)
        for (const Job& j : t.jobs)
            demand += jobMemoryNeed(j, scenario, catalog).demandBytes * std::max(j.parallelism.gpus(), 1);
    std::unordered_set<std::string> pricedGpus; // each GPU kind once, not each node
    for (const Node& n : scenario.topology.nodes)
        if (const GpuSpec* g = catalog.gpu(n.gpuId); g && pricedGpus.insert(n.gpuId).second) {
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
    for (const Node& n : scenario.topology.nodes) {
        const auto in = std::find_if(groups.begin(), groups.end(), [&](const NodeGroup& g) { return sameGroup(n, g); });
        if (in != groups.end())
            ++in->size;
        else if (catalog.gpu(n.gpuId))
            groups.push_back({n.gpuId, n.gpuCount, n.templateId, {}, 1});
    }
    std::vector<std::vector<Option>> optionsOf;
    for (NodeGroup& g : groups) {
        g.label = (g.templateId.empty() ? g.gpuId + " ×" + std::to_string(g.gpuCount) : g.templateId) + " nodes";
        optionsOf.push_back(optionsFor(*catalog.gpu(g.gpuId)));
    }
    const ChangeContext changeContext{&scenario, &catalog, &jobIndex, &groups};
    // Pins a move may not lift when the jobs are kept: the nodes pinned to, and those pinned to
    // one of their GPUs or MIG instances.
    std::unordered_set<std::string> pinnedNodes, finelyPinnedNodes;
    for (const Tenant& t : scenario.tenants)
        for (const Job& j : t.jobs)
            if (j.pin) {
                pinnedNodes.insert(j.pin->node);
                if (j.pin->gpu || j.pin->migInstance)
                    finelyPinnedNodes.insert(j.pin->node);
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
    bool jobMovesCut = false; // the time limit stopped the job moves before every job had its own
    if (!keepJobs) {
        // At most half the time limit, so that a plan of thousands of jobs still has time to try
        // sharing settings and sizes; jobs it did not reach keep their parallelism.
        Deadline half = deadline;
        half.at = start + (deadline.at - start) / 2;
        byJob = jobMoves(scenario, catalog, bestEvaluation, jobIndex, half, options.allow, jobMovesCut);
        for (int m = 0; m < static_cast<int>(byJob.size()); ++m)
            moves.emplace_back(-1, m);
    }
    std::mt19937_64 rng(options.seed);
    PlanCandidate best = result.current;
    std::map<std::string, std::string> bestReasons; // why each change was taken (listChanges)
    std::vector<PlanCandidate>& front = result.pareto;
    auto archive = [&](const PlanCandidate& p) {
        if (violations(p.kpis, rules) > 0)
            return;
        if (std::any_of(front.begin(), front.end(), [&](const PlanCandidate& f) {
                return dominates(f, p) || alike(f, p); // the first of equals stays
            }))
            return;
        std::erase_if(front, [&](const PlanCandidate& f) { return dominates(p, f); });
        front.push_back(p);
    };
    archive(best);
    bool improved = true;
    if (deadline.stopped())
        result.cancelled = true;
    else if (deadline.passed())
        result.timedOut = true;
    // Scores a plan made from the best one; takes it when it ranks before it.
    auto consider = [&](PlanCandidate next, const std::string& reasonKey) {
        Evaluation evaluation = evaluate(next.scenario, catalog);
        next.kpis = evaluation.kpis;
        ++result.evaluated;
        std::map<std::string, std::string> reasons = bestReasons;
        // A reason that brought jobs within their SLA stays the first one said.
        std::string& why = reasons[reasonKey];
        const std::string now = moveReason(best.kpis, next.kpis, rules);
        why = why.rfind("brings", 0) == 0 || why.rfind("places", 0) == 0 ? why + "; " + now : now;
        next.changes = listChanges(next.scenario, changeContext, reasons);
        archive(next);
        if (!ranksBefore(next, best, rules, false))
            return false;
        best = std::move(next);
        bestEvaluation = std::move(evaluation);
        bestReasons = std::move(reasons);
        if (options.progress)
            options.progress(result.evaluated, best);
        return true;
    };
    while (improved && !result.timedOut && !result.cancelled) {
        improved = false;
        std::shuffle(moves.begin(), moves.end(), rng);
        for (const auto& [g, o] : moves) {
            if (options.stop && options.stop->load()) {
                result.cancelled = true;
                break;
            }
            if (deadline.passed()) {
                result.timedOut = true;
                break;
            }
            PlanCandidate next;
            std::string key;
            if (g < 0) {
                const JobMove& m = byJob[static_cast<std::size_t>(o)];
                const Job* now = findJob(best.scenario, jobIndex, m.jobId);
                if (!now || *now == m.job)
                    continue;
                next.scenario = withJob(best.scenario, jobIndex, m);
                const Issues issues = validateScenario(next.scenario, catalog);
                if (std::any_of(issues.begin(), issues.end(), [](const Issue& i) { return i.isError(); }))
                    continue;
                key = m.jobId;
            } else if (o < 0) {
                const NodeGroup& group = groups[static_cast<std::size_t>(g)];
                const int count = o == -1 ? 1 : std::max(2, countIn(best.scenario, group) / 8);
                auto smaller = withoutSome(best.scenario, group, count);
                if (!smaller)
                    continue;
                if (keepJobs &&
                    std::any_of(scenario.topology.nodes.begin(), scenario.topology.nodes.end(), [&](const Node& n) {
                        return pinnedNodes.count(n.id) > 0 && !smaller->first.topology.findNode(n.id);
                    }))
                    continue; // it would lift a pin
                next.scenario = std::move(smaller->first);
                key = "nodes:" + group.label;
            } else {
                const NodeGroup& group = groups[static_cast<std::size_t>(g)];
                const Option& opt = optionsOf[static_cast<std::size_t>(g)][static_cast<std::size_t>(o)];
                bool unchanged = true, pinned = false;
                for (const Node& n : best.scenario.topology.nodes)
                    if (sameGroup(n, group)) {
                        unchanged = unchanged && n.sharing == opt.config && n.gpuSharing.empty();
                        pinned = pinned || finelyPinnedNodes.count(n.id) > 0;
                    }
                if (unchanged || (keepJobs && pinned))
                    continue;
                next.scenario = withSetting(best.scenario, group, opt.config);
                key = group.label;
            }
            improved = consider(std::move(next), key) || improved;
        }
    }
    // Of plans as good, the fewest changes: undo the best plan's changes one at a time (a job as
    // given, a group's sharing as given) while the plan stays as good, until none can go.
    for (bool undone = true; undone && !result.cancelled && !deadline.passed();) {
        undone = false;
        for (const PlanChange& c : std::vector<PlanChange>(best.changes)) {
            if (deadline.passed() || deadline.stopped())
                break;
            PlanCandidate next;
            next.scenario = best.scenario;
            if (!c.job.empty()) {
                const Job* given = findJob(scenario, jobIndex, c.job);
                const auto at = jobIndex.find(c.job);
                if (!given || at == jobIndex.end())
                    continue;
                next.scenario.tenants[at->second.first].jobs[at->second.second] = *given;
            } else if (c.field.rfind("sharing of ", 0) == 0) {
                for (Node& n : next.scenario.topology.nodes) {
                    const auto g =
                        std::find_if(groups.begin(), groups.end(), [&](const NodeGroup& x) { return sameGroup(n, x); });
                    if (const Node* given = scenario.topology.findNode(n.id);
                        given && g != groups.end() && "sharing of " + g->label == c.field) {
                        n.sharing = given->sharing;
                        n.gpuSharing = given->gpuSharing;
                    }
                }
            } else {
                continue; // nodes removed: putting them back costs more
            }
            if (next.scenario == best.scenario)
                continue;
            const Issues issues = validateScenario(next.scenario, catalog);
            if (std::any_of(issues.begin(), issues.end(), [](const Issue& i) { return i.isError(); }))
                continue;
            Evaluation evaluation = evaluate(next.scenario, catalog);
            next.kpis = evaluation.kpis;
            ++result.evaluated;
            next.changes = listChanges(next.scenario, changeContext, bestReasons);
            if (next.changes.size() >= best.changes.size() || !asGood(next.kpis, best.kpis, rules))
                continue;
            archive(next);
            best = std::move(next);
            bestEvaluation = std::move(evaluation);
            undone = true;
            break;
        }
    }
    if (jobMovesCut && !result.cancelled)
        result.timedOut = true; // it ended short of its whole space: say so
    std::stable_sort(front.begin(), front.end(),
                     [&](const PlanCandidate& a, const PlanCandidate& b) { return ranksBefore(a, b, rules, true); });
    if (front.empty()) {
        const Kpis& k = best.kpis;
        if (k.unplacedJobs + k.slaViolations == 0) {
            std::string why;
            if (options.maxPenalty && k.maxPenalty > *options.maxPenalty + 1e-12)
                why = "no plan tried keeps the largest penalty within " + fmt::percent(*options.maxPenalty) +
                      "; the closest reaches " + fmt::percent(k.maxPenalty);
            else
                why = "no plan tried keeps " + fmt::percent(1.0 - rules.allocationLimit) +
                      " of its GPUs free (the headroom); the closest keeps " + fmt::percent(1.0 - k.allocationRatio);
            result.infeasibleReason = why;
        } else {
            result.infeasibleReason =
                "no plan tried keeps every job placed and within its SLA; in the closest, " +
                slaShortfall(best.scenario, bestEvaluation) +
                " (jobs unplaced or outside their SLA: " + std::to_string(k.unplacedJobs + k.slaViolations) +
                "; in the scenario as given: " +
                std::to_string(result.current.kpis.unplacedJobs + result.current.kpis.slaViolations) + ")";
        }
        if (result.timedOut)
            result.infeasibleReason = "the search stopped at its time limit of " + fmt::fixed(options.timeLimitS, 1) +
                                      " s after " + std::to_string(result.evaluated) + " plans; " +
                                      result.infeasibleReason;
    }
    result.elapsedMs = elapsedS() * 1000.0;
    return result;
}

} // namespace gp::calc
