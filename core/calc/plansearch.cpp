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

/// A sharing setting as the plan search names it: "bare metal", "time-slicing ×4", "MPS 50 %",
/// "MIG 3g.40gb ×2", "vGPU H100XM-80C".
std::string sharingText(const SharingConfig& c)
{
    switch (c.mode) {
    case SharingMode::Exclusive: return "bare metal";
    case SharingMode::Passthrough: return "passthrough";
    case SharingMode::TimeSlicing: return "time-slicing ×" + std::to_string(c.replicas);
    case SharingMode::Mps: return "MPS " + std::to_string(c.mpsActiveThreadPct) + " %";
    case SharingMode::Mig: return migLabel(c.migInstances);
    case SharingMode::Vgpu: return "vGPU " + c.vgpuProfile;
    }
    return "?";
}

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
};

/// Which kinds of setting `b` changes against `a`.
JobChangeKinds kindsChanged(const Job& a, const Job& b)
{
    JobChangeKinds k{false, false, false};
    k.parallelism = !(a.parallelism == b.parallelism);
    k.batch =
        !(a.batch == b.batch) || (a.inference && b.inference && a.inference->concurrency != b.inference->concurrency);
    k.precision = a.precision != b.precision;
    return k;
}

bool within(const JobChangeKinds& changed, const JobChangeKinds& allowed)
{
    return (!changed.parallelism || allowed.parallelism) && (!changed.batch || allowed.batch) &&
           (!changed.precision || allowed.precision);
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
                              const Deadline& deadline, const JobChangeKinds& allow, bool& cut)
{
    std::unordered_map<std::string, const Node*> nodes;
    for (const Node& n : s.topology.nodes)
        nodes.emplace(n.id, &n);
    // Everything allowed: the best configuration(s); else more of them, the first allowed kept.
    const bool filtered = !(allow == JobChangeKinds{true, true, true});
    JobSearchOptions training{filtered ? 64 : 1, {}, deadline.stop, true, deadline.at};
    JobSearchOptions serving{filtered ? 256 : 3, {}, deadline.stop, true, deadline.at};
    auto allowed = [&](const Job& j, const Job& alt) {
        const JobChangeKinds k = kindsChanged(j, alt);
        return (k.parallelism || k.batch || k.precision) && within(k, allow);
    };
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
                for (const JobConfig& config : found.top)
                    if (Job alt = withConfig(*job, config); allowed(*job, alt)) {
                        alternatives.push_back(alt);
                        break;
                    }
            }
        } else if (job->inference) {
            JobSearchSetup setup = base;
            setup.gpusMin = 1;
            setup.gpusMax = gpus;
            const ServingSearchResult found = searchServing(setup, serving);
            cut = cut || found.cancelled;
            for (const ServingConfig& d : found.top)
                if (Job alt = withServingConfig(*job, d); alternatives.size() < 3 && allowed(*job, alt))
                    alternatives.push_back(alt);
        }
        for (Job& j : alternatives) {
            if (j.parallelism.gpus() != gpus && j.pin && (j.pin->gpu || j.pin->migInstance))
                j.pin.reset(); // a pin to some of its GPUs no longer says where all of them go
            out.push_back({j.id, j});
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

std::string parallelismText(const Job& j)
{
    const Parallelism& p = j.parallelism;
    const std::string gpus = " on " + std::to_string(p.gpus()) + " GPU" + (p.gpus() == 1 ? "" : "s");
    if (!j.isTraining())
        return "TP" + std::to_string(p.tp) + " × " + std::to_string(p.dp) + " replica" + (p.dp == 1 ? "" : "s") + gpus;
    return "TP" + std::to_string(p.tp) + " PP" + std::to_string(p.pp) + " DP" + std::to_string(p.dp) + gpus +
           (p.fsdp ? ", FSDP" : ", ZeRO-" + std::to_string(p.zeroStage)) + ", recompute " +
           std::string(enumName(p.recompute)) + (p.sequenceParallel ? ", SP" : "") +
           (p.virtualStages > 1 ? ", " + std::to_string(p.virtualStages) + " virtual stages" : "");
}

std::string batchText(const Job& j)
{
    if (j.inference)
        return "batch cap " + std::to_string(j.inference->concurrency);
    return "micro-batch " + std::to_string(j.batch.micro) + " of " + std::to_string(j.batch.global);
}

std::string pinText(const std::optional<Pin>& p)
{
    if (!p)
        return "none";
    return p->node + (p->gpu ? " GPU " + std::to_string(*p->gpu) : "") +
           (p->migInstance ? " MIG instance " + std::to_string(*p->migInstance) : "");
}

/// What the search knows beside the two scenarios to list the changes: the groups and the
/// reasons recorded when the moves were taken (by change key: "<group label>" for a sharing,
/// "<job id>" for a job).
struct ChangeContext
{
    const Scenario* original = nullptr;
    const Catalog* catalog = nullptr;
    const JobIndex* jobs = nullptr;
    const std::vector<NodeGroup>* groups = nullptr;
};

/// A group's sharing in a scenario: one setting ("bare metal"), or the mix ("bare metal ×6,
/// MIG 1g.10gb ×7 ×1, passthrough ×1"); per-GPU settings said.
std::string groupSharingText(const Scenario& s, const NodeGroup& g)
{
    std::vector<std::pair<std::string, int>> seen;
    for (const Node& n : s.topology.nodes)
        if (sameGroup(n, g)) {
            const std::string t = sharingText(n.sharing) + (n.gpuSharing.empty() ? "" : " with per-GPU settings");
            const auto it = std::find_if(seen.begin(), seen.end(), [&](const auto& e) { return e.first == t; });
            if (it == seen.end())
                seen.emplace_back(t, 1);
            else
                ++it->second;
        }
    if (seen.size() == 1)
        return seen.front().first;
    std::string out;
    for (const auto& [t, n] : seen)
        out += (out.empty() ? "" : ", ") + t + " (" + std::to_string(n) + (n == 1 ? " node)" : " nodes)");
    return out;
}

/// The plan's changes against the scenario searched from (PlanChange), the reasons recorded
/// when the moves were taken.
std::vector<PlanChange> listChanges(const Scenario& plan, const ChangeContext& cx,
                                    const std::map<std::string, std::string>& reasons)
{
    std::vector<PlanChange> out;
    const Scenario& from = *cx.original;
    auto reasonOf = [&](const std::string& key) {
        const auto it = reasons.find(key);
        return it == reasons.end() ? std::string("needed by the plan's other changes") : it->second;
    };
    std::unordered_map<std::string, const Node*> now;
    for (const Node& n : plan.topology.nodes)
        now.emplace(n.id, &n);
    for (const NodeGroup& g : *cx.groups) {
        std::vector<std::string> removed;
        bool reshared = false;
        for (const Node& n : from.topology.nodes)
            if (sameGroup(n, g)) {
                const auto it = now.find(n.id);
                if (it == now.end())
                    removed.push_back(n.id);
                else
                    reshared =
                        reshared || !(it->second->sharing == n.sharing && it->second->gpuSharing == n.gpuSharing);
            }
        if (reshared)
            out.push_back(
                {"", "sharing of " + g.label, groupSharingText(from, g), groupSharingText(plan, g), reasonOf(g.label)});
        if (!removed.empty()) {
            const double hourly = gpuHourPrice(from, *cx.catalog, g.gpuId).value_or(0.0);
            const double saved = hourly * g.gpuCount * static_cast<double>(removed.size()) * Inventory::kHoursPerMonth;
            std::string which;
            if (removed.size() <= 3)
                for (const std::string& id : removed)
                    which += (which.empty() ? "" : ", ") + id;
            else
                which = removed.front() + " … " + removed.back();
            out.push_back({"", "number of " + g.label, std::to_string(g.size),
                           std::to_string(g.size - static_cast<int>(removed.size())),
                           (saved > 0 ? "saves " + fmt::usd(saved) + "/month" : std::string("fewer nodes")) +
                               "; removes " + which});
        }
    }
    for (const Tenant& t : from.tenants)
        for (const Job& before : t.jobs) {
            const Job* after = findJob(plan, *cx.jobs, before.id);
            if (!after || *after == before)
                continue;
            const JobChangeKinds k = kindsChanged(before, *after);
            const int freed = before.parallelism.gpus() - after->parallelism.gpus();
            const std::string why = freed > 0   ? "frees " + std::to_string(freed) + " GPU" + (freed == 1 ? "" : "s")
                                    : freed < 0 ? "takes " + std::to_string(-freed) + " more GPU" +
                                                      (freed == -1 ? "" : "s") + "; " + reasonOf(before.id)
                                                : reasonOf(before.id);
            if (k.parallelism)
                out.push_back({before.id, "parallelism", parallelismText(before), parallelismText(*after), why});
            if (k.batch)
                out.push_back({before.id, "batch", batchText(before), batchText(*after), why});
            if (k.precision)
                out.push_back({before.id, "precision", std::string(enumName(before.precision)),
                               std::string(enumName(after->precision)), why});
            if (!(before.pin == after->pin))
                out.push_back({before.id, "pin", pinText(before.pin), pinText(after->pin),
                               before.pin && !now.count(before.pin->node)
                                   ? "its node is removed"
                                   : "its GPU or MIG instance changes with the job or the node's sharing"});
        }
    return out;
}

} // namespace

std::optional<JobChangeKinds> parseJobChangeKinds(const std::string& list, std::string* bad)
{
    JobChangeKinds k{false, false, false};
    std::size_t start = 0;
    bool any = false;
    while (start <= list.size()) {
        const std::size_t comma = std::min(list.find(',', start), list.size());
        std::string word = list.substr(start, comma - start);
        word.erase(0, word.find_first_not_of(" \t"));
        word.erase(word.find_last_not_of(" \t") + 1);
        start = comma + 1;
        if (word.empty())
            continue;
        if (word == "parallelism")
            k.parallelism = true;
        else if (word == "batch")
            k.batch = true;
        else if (word == "precision")
            k.precision = true;
        else {
            if (bad)
                *bad = word;
            return std::nullopt;
        }
        any = true;
    }
    if (!any) {
        if (bad)
            bad->clear();
        return std::nullopt;
    }
    return k;
}

std::string jobChangeKindsText(const JobChangeKinds& k)
{
    std::string out;
    for (const auto& [on, name] :
         {std::pair{k.parallelism, "parallelism"}, std::pair{k.batch, "batch"}, std::pair{k.precision, "precision"}})
        if (on)
            out += (out.empty() ? "" : ",") + std::string(name);
    return out.empty() ? "none" : out;
}

std::string changeText(const PlanChange& c)
{
    return (c.job.empty() ? "" : c.job + " ") + c.field + ": " + c.from + " → " + c.to +
           (c.reason.empty() ? "" : " (" + c.reason + ")");
}

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
            std::map<std::string, std::string> reasons = bestReasons;
            next.changes = listChanges(next.scenario, changeContext, reasons);
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
