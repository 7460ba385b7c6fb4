// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
// What the plan search says about a plan: its node groups' settings in words, and the changes
// against the scenario searched from, each with why it helps (docs/model-reference.md, "Plan
// search"); the kinds of job change a search may make.
#include "plansearchgroups.h"

#include "inventory.h"

#include "model/enumnames.h"
#include "model/format.h"

#include <algorithm>

namespace gp::calc {

namespace detail {

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

bool sameGroup(const Node& n, const NodeGroup& g)
{
    return n.gpuId == g.gpuId && n.gpuCount == g.gpuCount && n.templateId == g.templateId;
}

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

namespace {

std::string parallelismText(const Job& j)
{
    const Parallelism& p = j.parallelism;
    const std::string gpus = " on " + std::to_string(p.gpus()) + " GPU" + (p.gpus() == 1 ? "" : "s");
    if (!j.isTraining())
        return "TP" + std::to_string(p.tp) + " × " + std::to_string(p.dp) + " replica" + (p.dp == 1 ? "" : "s") + gpus;
    return "TP" + std::to_string(p.tp) + " PP" + std::to_string(p.pp) + " DP" + std::to_string(p.dp) +
           (p.ep > 1 ? " EP" + std::to_string(p.ep) : "") + (p.cp > 1 ? " CP" + std::to_string(p.cp) : "") + gpus +
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

} // namespace

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

} // namespace detail

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

} // namespace gp::calc
