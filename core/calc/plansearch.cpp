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
#include <unordered_map>
#include <unordered_set>

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

/// The scenario without the last `count` nodes of group `g` (their links and the pins to them
/// go too; a bigger step down for big groups), and what it removed ("node-7", "3 nodes (node-9 …
/// node-7)"). One pass over the scenario whatever `count` is: a large plan removes hundreds at once.
std::optional<std::pair<Scenario, std::string>> withoutSome(const Scenario& s, const NodeGroup& g, int count)
{
    std::unordered_set<std::string> ids;
    std::string first, last;
    for (auto it = s.topology.nodes.rbegin(); it != s.topology.nodes.rend() && static_cast<int>(ids.size()) < count;
         ++it)
        if (sameGroup(*it, g)) {
            ids.insert(it->id);
            (first.empty() ? first : last) = it->id;
        }
    if (ids.empty() || static_cast<int>(ids.size()) < count)
        return std::nullopt;
    Scenario out = s;
    std::erase_if(out.topology.nodes, [&](const Node& n) { return ids.count(n.id) > 0; });
    std::erase_if(out.topology.links, [&](const Link& l) { return ids.count(l.from) > 0 || ids.count(l.to) > 0; });
    for (Tenant& t : out.tenants)
        for (Job& j : t.jobs)
            if (j.pin && ids.count(j.pin->node) > 0)
                j.pin.reset();
    std::string what = first;
    if (count > 1)
        what = std::to_string(count) + " nodes (" + first + " … " + last + ")";
    return std::make_pair(std::move(out), what);
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

/// Where each job sits in a scenario (tenant and job index), by id: built once, valid for every
/// plan the search makes (moves change jobs and nodes, never which tenant holds which job), so a
/// plan of 10,000 jobs looks each up in constant time, not by a scan of all of them.
using JobIndex = std::unordered_map<std::string, std::pair<std::size_t, std::size_t>>;

JobIndex indexJobs(const Scenario& s)
{
    JobIndex out;
    for (std::size_t t = 0; t < s.tenants.size(); ++t)
        for (std::size_t j = 0; j < s.tenants[t].jobs.size(); ++j)
            out.emplace(s.tenants[t].jobs[j].id, std::make_pair(t, j));
    return out;
}

const Job* findJob(const Scenario& s, const JobIndex& index, const std::string& id)
{
    const auto it = index.find(id);
    if (it == index.end() || it->second.first >= s.tenants.size() ||
        it->second.second >= s.tenants[it->second.first].jobs.size())
        return nullptr;
    const Job& j = s.tenants[it->second.first].jobs[it->second.second];
    return j.id == id ? &j : nullptr;
}

/// The time limit as the searches see it.
struct Deadline
{
    std::chrono::steady_clock::time_point at;
    const std::atomic<bool>* stop = nullptr;
    bool passed() const { return std::chrono::steady_clock::now() >= at; }
    bool stopped() const { return stop && stop->load(); }
};

/// For each placed job: the fastest parallelism the job search finds on its GPU kind at its own
/// GPU count and at a half and a quarter of it (deadlines decide whether the slower ones do), or
/// the three serving deployments on the fewest GPUs that meet its tenant's objectives. Stops at
/// the deadline (each inner search too) with the moves found so far.
std::vector<JobMove> jobMoves(const Scenario& s, const Catalog& c, const Evaluation& ev, const JobIndex& index,
                              const Deadline& deadline, bool& cut)
{
    std::unordered_map<std::string, const Node*> nodes;
    for (const Node& n : s.topology.nodes)
        nodes.emplace(n.id, &n);
    JobSearchOptions training{1, {}, deadline.stop, true, deadline.at};
    JobSearchOptions serving{3, {}, deadline.stop, true, deadline.at};
    std::vector<JobMove> out;
    cut = false;
    for (const JobResult& r : ev.jobs) {
        if (deadline.stopped() || deadline.passed()) {
            cut = true;
            break;
        }
        const Job* job = findJob(s, index, r.id);
        const auto node = r.placement.empty() ? nodes.end() : nodes.find(r.placement.front().node);
        if (!job || node == nodes.end() || !c.gpu(node->second->gpuId))
            continue;
        const Tenant& tenant = s.tenants[index.at(r.id).first];
        const JobSearchSetup base = jobSearchSetup(s, c, *job, *node->second, tenant.sla);
        const int gpus = std::max(job->parallelism.gpus(), 1);
        std::vector<Job> alternatives;
        if (job->isTraining()) {
            for (int count : {gpus, gpus / 2, gpus / 4}) {
                if (count < 1 || (count < gpus && gpus % count != 0))
                    continue;
                JobSearchSetup setup = base;
                setup.gpusMin = setup.gpusMax = count;
                const JobSearchResult found = searchJob(setup, training);
                cut = cut || found.cancelled;
                if (!found.top.empty())
                    alternatives.push_back(withConfig(*job, found.top.front()));
            }
        } else if (job->inference) {
            JobSearchSetup setup = base;
            setup.gpusMin = 1;
            setup.gpusMax = gpus;
            const ServingSearchResult found = searchServing(setup, serving);
            cut = cut || found.cancelled;
            for (const ServingConfig& d : found.top)
                alternatives.push_back(withServingConfig(*job, d));
        }
        for (Job& j : alternatives) {
            if (j.parallelism == job->parallelism && j.batch == job->batch && j.precision == job->precision &&
                j.inference == job->inference)
                continue;
            if (j.parallelism.gpus() != gpus && j.pin && (j.pin->gpu || j.pin->migInstance))
                j.pin.reset(); // a pin to some of its GPUs no longer says where all of them go
            const bool isServing = !j.isTraining();
            out.push_back({j.id, j,
                           j.name + ": " + parallelismLabel(j) +
                               (isServing ? ", batch cap " + std::to_string(j.inference->concurrency) + ", " +
                                                std::string(enumName(j.precision))
                                          : std::string())});
        }
    }
    return out;
}

/// The scenario with job `m.jobId` run as `m.job`.
Scenario withJob(const Scenario& s, const JobIndex& index, const JobMove& m)
{
    Scenario out = s;
    const auto it = index.find(m.jobId);
    if (it != index.end())
        out.tenants[it->second.first].jobs[it->second.second] = m.job;
    return out;
}

/// Jobs unplaced or outside their SLA, and one more when the plan's largest penalty passes the
/// search's cap.
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
    if (options.jobMoves) {
        // At most half the time limit, so that a plan of thousands of jobs still has time to try
        // sharing settings and sizes; jobs it did not reach keep their parallelism.
        Deadline half = deadline;
        half.at = start + (deadline.at - start) / 2;
        byJob = jobMoves(scenario, catalog, bestEvaluation, jobIndex, half, jobMovesCut);
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
    if (deadline.stopped())
        result.cancelled = true;
    else if (deadline.passed())
        result.timedOut = true;
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
            next.changes = best.changes;
            if (g < 0) {
                const JobMove& m = byJob[static_cast<std::size_t>(o)];
                const Job* now = findJob(best.scenario, jobIndex, m.jobId);
                if (!now || *now == m.job)
                    continue;
                next.scenario = withJob(best.scenario, jobIndex, m);
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
            Evaluation evaluation = evaluate(next.scenario, catalog);
            next.kpis = evaluation.kpis;
            ++result.evaluated;
            archive(next);
            if (better(next.kpis, best.kpis, options)) {
                best = std::move(next);
                bestEvaluation = std::move(evaluation);
                improved = true;
                if (options.progress)
                    options.progress(result.evaluated, best);
            }
        }
    }
    if (jobMovesCut && !result.cancelled)
        result.timedOut = true; // it ended short of its whole space: say so
    std::sort(front.begin(), front.end(),
              [&](const PlanCandidate& a, const PlanCandidate& b) { return better(a.kpis, b.kpis, options); });
    if (front.empty()) {
        const Kpis& k = best.kpis;
        const bool onlyCap = k.unplacedJobs + k.slaViolations == 0;
        result.infeasibleReason =
            onlyCap ? "no plan tried keeps the largest penalty within " + fmt::percent(*options.maxPenalty) +
                          "; the closest reaches " + fmt::percent(k.maxPenalty)
                    : "no plan tried keeps every job placed and within its SLA; in the closest, " +
                          slaShortfall(best.scenario, bestEvaluation) +
                          " (jobs unplaced or outside their SLA: " + std::to_string(k.unplacedJobs + k.slaViolations) +
                          "; in the scenario as given: " +
                          std::to_string(result.current.kpis.unplacedJobs + result.current.kpis.slaViolations) + ")";
        if (result.timedOut)
            result.infeasibleReason = "the search stopped at its time limit of " + fmt::fixed(options.timeLimitS, 1) +
                                      " s after " + std::to_string(result.evaluated) + " plans; " +
                                      result.infeasibleReason;
    }
    result.elapsedMs = elapsedS() * 1000.0;
    return result;
}

} // namespace gp::calc
