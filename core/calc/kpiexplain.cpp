// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#include "kpiexplain.h"

#include "errorband.h"

#include "interference.h"
#include "inventory.h"
#include "kpiregistry.h"

#include "model/calibratedplan.h"
#include "model/format.h"
#include "model/scenariodiff.h"
#include "model/units.h"

#include <algorithm>
#include <iomanip>
#include <map>
#include <set>
#include <sstream>

namespace gp::calc {

namespace {

/// Each tenant's part of the bill (useful and sharing overhead), what no tenant holds, and the
/// memory the jobs leave unused (headroom, not dollars).
void costLines(const Evaluation& ev, KpiExplanation& x)
{
    const Kpis& k = ev.kpis;
    for (const auto& [tenant, b] : ev.tenantCostBreakdown)
        x.lines.push_back("tenant " + tenant + ": " + fmt::usd(b.total()) + " (Useful " + fmt::usd(b.usefulUsd) +
                          ", Sharing overhead " + fmt::usd(b.overheadUsd) + ")");
    x.lines.push_back("not allocated: " + fmt::usd(k.costBreakdown.idleUsd + k.costBreakdown.strandedUsd) + " (Idle " +
                      fmt::usd(k.costBreakdown.idleUsd) + ", Stranded " + fmt::usd(k.costBreakdown.strandedUsd) + ")");
    x.lines.push_back("unused memory on the jobs' GPUs: " + fmt::gib(k.unusedMemoryBytes) + " GiB, " +
                      fmt::percent(k.unusedMemoryFraction()) +
                      " of the memory allocated (headroom, e.g. for a smaller GPU; not counted as waste)");
}

using fmt::percent;

std::string times(double x) { return fmt::fixed(x, 1) + "×"; }

/// "compute 62 %, memory bandwidth 31 %": the penalty's parts, largest first.
std::string partsOf(const PenaltyBreakdown& b)
{
    std::vector<std::pair<double, std::string>> parts;
    for (const PenaltyPart& p : penaltyParts())
        if (b.*p.value > 1e-6)
            parts.push_back({b.*p.value, p.label});
    std::sort(parts.begin(), parts.end(), [](const auto& x, const auto& y) { return x.first > y.first; });
    std::string out;
    for (const auto& [v, label] : parts)
        out += (out.empty() ? "" : ", ") + label + " " + percent(v);
    return out;
}

/// "MIG 3g.40gb" for the slot kind a job got.
std::string slotOf(const JobResult& j) { return j.placement.empty() ? std::string() : j.placement.front().slot; }

/// A job's name by its id ("" when the evaluation has no such job).
std::string jobName(const Evaluation& ev, const std::string& id)
{
    for (const JobResult& j : ev.jobs)
        if (j.id == id)
            return j.name;
    return id;
}

/// A node's name as the canvas shows it, by its id.
std::string nodeName(const Scenario& s, const std::string& id)
{
    const Node* n = s.topology.findNode(id);
    return n && !n->name.empty() ? n->name : id;
}

/// "2 of its units share GPU 0 of node-1: the packing, not the sharing mode, slows it" when a
/// job's own units take turns on (or split) one GPU; "" when each has a GPU of its own.
std::string packingOf(const JobResult& j, const Scenario& s)
{
    std::map<std::pair<std::string, int>, int> perGpu;
    for (const UnitLocation& u : j.placement)
        ++perGpu[{u.node, u.gpu}];
    const auto most = std::max_element(perGpu.begin(), perGpu.end(),
                                       [](const auto& a, const auto& b) { return a.second < b.second; });
    if (most == perGpu.end() || most->second < 2)
        return {};
    return std::to_string(most->second) + " of its units share GPU " + std::to_string(most->first.second) + " of " +
           nodeName(s, most->first.first) +
           ": the packing, not the sharing mode, slows it (they take turns or split the GPU)";
}

/// Placed jobs, the largest penalty first.
std::vector<const JobResult*> byPenalty(const Evaluation& ev)
{
    std::vector<const JobResult*> out;
    for (const JobResult& j : ev.jobs)
        if (j.placed)
            out.push_back(&j);
    std::stable_sort(out.begin(), out.end(),
                     [](const JobResult* a, const JobResult* b) { return a->penalty > b->penalty; });
    return out;
}

std::string penaltyLine(const JobResult& j, const Evaluation& ev)
{
    std::string line = j.name + ": " + percent(j.penalty);
    if (j.penalty > 0)
        line += " (shared step " + fmt::latency(j.perf.stepTimeS) + " against " +
                fmt::latency(j.bareMetal.stepTimeS * (1.0 + j.slowdownVsDedicated)) +
                " with the same share dedicated, on " + slotOf(j) + "; " + partsOf(j.penaltyBreakdown) +
                (j.noisiestNeighbour.empty()
                     ? std::string()
                     : "; " + jobName(ev, j.noisiestNeighbour) + " adds " + percent(j.noisiestNeighbourCost)) +
                ")";
    return line;
}

} // namespace

std::string slaMissReason(const JobResult& j, const Scenario& s)
{
    if (!j.placed || j.meetsSla)
        return j.placed ? std::string() : "not placed: " + j.reason;
    const Tenant* t = s.findTenant(j.tenant);
    if (!t)
        return {};
    std::vector<std::string> why;
    if (judgedByPenalty(j, t->sla) && j.penalty * 100.0 > t->sla.maxPenaltyPct + 1e-9) {
        std::string w = "penalty " + percent(j.penalty) + " against the " + fmt::fixed(t->sla.maxPenaltyPct, 1) +
                        " % its tenant allows: on " + slotOf(j) + ", the same share dedicated would be " +
                        times(1.0 + j.penalty) + " faster";
        if (const std::string parts = partsOf(j.penaltyBreakdown); !parts.empty())
            w += " (" + parts + ")";
        why.push_back(w);
    }
    if (t->sla.deadlineDays && j.perf.daysToComplete && *j.perf.daysToComplete > *t->sla.deadlineDays)
        why.push_back("finishes in " + fmt::days(*j.perf.daysToComplete) + ", after the " +
                      fmt::days(*t->sla.deadlineDays) + " deadline");
    if (j.serving) {
        const ServingResult& sv = *j.serving;
        if (!sv.fits)
            why.push_back("its KV cache holds less than one longest sequence");
        else if (sv.saturated)
            why.push_back("the offered load is more than the engine can serve");
        if (t->sla.ttftP99Ms && sv.ttftP99S * 1e3 > *t->sla.ttftP99Ms + 1e-9)
            why.push_back("P99 time to first token " + fmt::latency(sv.ttftP99S) + " against " +
                          fmt::fixed(*t->sla.ttftP99Ms, 0) + " ms");
        if (t->sla.itlP99Ms && sv.itlP99S * 1e3 > *t->sla.itlP99Ms + 1e-9)
            why.push_back("P99 inter-token latency " + fmt::latency(sv.itlP99S) + " against " +
                          fmt::fixed(*t->sla.itlP99Ms, 1) + " ms");
    }
    std::string out;
    for (const std::string& w : why)
        out += (out.empty() ? "" : "; ") + w;
    return out;
}

namespace {

/// Four significant digits: a fitted value from a 0.0001 s overhead to a 40 GiB one.
std::string significant(double v)
{
    std::ostringstream o;
    o << std::setprecision(4) << v;
    return o.str();
}

/// x computed on the calibrated plan, with the profile's values behind it named: those the jobs
/// of x read (every value when x names no job).
KpiExplanation markCalibrated(KpiExplanation x, const Scenario& s, const Evaluation& ev)
{
    if (x.formula.empty() || !s.calibration)
        return x;
    const CalibrationProfile& profile = *s.calibration;
    x.calibration = profileLabel(profile);
    std::set<const CalibratedValue*> used;
    if (x.jobIds.empty())
        for (const CalibratedValue& v : profile.values)
            used.insert(&v);
    for (const JobResult& r : ev.jobs) {
        if (std::find(x.jobIds.begin(), x.jobIds.end(), r.id) == x.jobIds.end())
            continue;
        const Job* job = s.findJob(r.id);
        for (const CalibratedValue* v : valuesFor(profile, r.gpuId, job ? softwareStackOf(*job) : std::string()))
            used.insert(v);
    }
    for (const CalibratedValue& v : profile.values)
        if (used.count(&v))
            x.calibrated.push_back(v.key + " = " + significant(v.value) + " (default " + significant(v.defaultValue) +
                                   ")");
    return x;
}

} // namespace

KpiExplanation explainKpi(const std::string& key, const Scenario& s, const Catalog& catalog, const Evaluation& ev,
                          std::optional<double> p95Days)
{
    if (s.calibration)
        return markCalibrated(withOwnCalibration(s, catalog,
                                                 [&](const Scenario& cs, const Catalog& cc) {
                                                     return explainKpi(key, cs, cc, ev, p95Days);
                                                 }),
                              s, ev);
    KpiExplanation x;
    const KpiSpec* spec = findKpi(key);
    if (!spec)
        return x;
    x.key = key;
    x.label = spec->label;
    x.assumptions = assumptionsBehindKpi(key, ev);
    x.errorBand = spec->errorBand;
    if (key == "cost_per_month_usd" || key == "waste_per_month_usd")
        x.prices = pricesBehind(s, catalog, gpuModelsOf(s));
    const Kpis& k = ev.kpis;
    std::map<std::string, double> values = kpiValues(k);
    if (p95Days)
        values["p95_completion_days"] = *p95Days;
    if (const auto v = values.find(key); v != values.end() && spec->appliesTo(k))
        x.value = formatKpiValue(*spec, v->second);
    else if (!spec->appliesTo(k))
        x.value = spec->noValue(k).empty() ? std::string("–") : spec->noValue(k);
    const int gpus = static_cast<int>(ev.gpus.size());
    double capacity = 0.0;
    for (const GpuResult& g : ev.gpus)
        capacity += g.capacityBytes;

    if (key == "vram_utilization") {
        x.formula =
            "memory the placed jobs need ÷ usable VRAM of all GPUs = " + fmt::gib(k.vramUtilization * capacity) +
            " GiB ÷ " + fmt::gib(capacity) + " GiB = " + x.value;
        std::vector<std::pair<double, const JobResult*>> jobs;
        for (const JobResult& j : ev.jobs)
            if (j.placed)
                jobs.push_back({j.memory.totalBytes() * static_cast<double>(j.placement.size()), &j});
        std::sort(jobs.begin(), jobs.end(), [](const auto& a, const auto& b) { return a.first > b.first; });
        for (const auto& [bytes, j] : jobs) {
            x.lines.push_back(j->name + ": " + fmt::gib(j->memory.totalBytes()) + " GiB per GPU × " +
                              std::to_string(j->placement.size()) + " = " + fmt::gib(bytes) + " GiB");
            x.jobIds.push_back(j->id);
        }
    } else if (key == "allocation_ratio") {
        x.formula = "GPU share held by jobs ÷ GPUs = " + fmt::fixed(k.allocationRatio * gpus, 2) + " ÷ " +
                    std::to_string(gpus) + " = " + x.value;
        for (const JobResult& j : ev.jobs)
            if (j.placed)
                x.lines.push_back(j.name + ": " + fmt::fixed(j.gpuEquivalents, 2) + " GPU on " + slotOf(j));
    } else if (key == "compute_utilization") {
        x.formula = "Σ over placed jobs of GPU share × MFU ÷ GPUs = " + fmt::fixed(k.computeUtilization * gpus, 2) +
                    " ÷ " + std::to_string(gpus) + " = " + x.value;
        for (const JobResult& j : ev.jobs)
            if (j.placed)
                x.lines.push_back(j.name + ": " + fmt::fixed(j.gpuEquivalents, 2) + " GPU × MFU " +
                                  percent(j.perf.mfu));
    } else if (key == "fragmentation") {
        x.formula =
            "Σ job shapes (share of the tasks × free GPU share that shape cannot use) ÷ free GPU share = " + x.value;
        if (k.migUnusableSlices > 0)
            x.lines.push_back(std::to_string(k.migUnusableSlices) +
                              " free MIG memory slice(s) that no MIG profile of the scenario fits");
    } else if (key == "mean_penalty" || key == "max_penalty") {
        const std::vector<const JobResult*> jobs = byPenalty(ev);
        if (key == "mean_penalty") {
            std::string sum;
            for (const JobResult* j : jobs)
                sum += (sum.empty() ? "" : " + ") + percent(j->penalty);
            x.formula = "mean over the " + std::to_string(jobs.size()) +
                        " placed jobs of (shared step ÷ step on the same GPU share dedicated − 1) = (" + sum + ") ÷ " +
                        std::to_string(jobs.size()) + " = " + x.value;
        } else if (!jobs.empty()) {
            const JobResult& top = *jobs.front();
            x.formula = "the largest penalty of a placed job: " + top.name + ", shared step " +
                        fmt::latency(top.perf.stepTimeS) + " ÷ step on the same GPU share dedicated " +
                        fmt::latency(top.bareMetal.stepTimeS * (1.0 + top.slowdownVsDedicated)) + " − 1 = " + x.value;
        }
        for (const JobResult* j : jobs) {
            x.lines.push_back(penaltyLine(*j, ev));
            x.jobIds.push_back(j->id);
            if (key == "max_penalty")
                break;
        }
    } else if (key == "cost_per_month_usd") {
        const Inventory inv = takeInventory(s, catalog);
        x.formula = "GPUs × $/GPU-hour × 730 h = " + std::to_string(inv.gpus) + " GPUs, " + x.value + " per month";
        std::map<std::string, int> byModel;
        for (const Node& n : s.topology.nodes)
            byModel[n.gpuId] += n.gpuCount;
        for (const auto& [gpu, count] : byModel) {
            const std::optional<double> price = gpuHourPrice(s, catalog, gpu);
            x.lines.push_back(std::to_string(count) + " × " + gpu + " at " +
                              (price ? "$" + fmt::fixed(*price, 2) + "/GPU-hour" : "no price") + " = " +
                              (price ? fmt::usd(count * *price * Inventory::kHoursPerMonth) : "–"));
        }
        std::string parts;
        for (const CostPart& part : costParts())
            parts +=
                (parts.empty() ? "" : " + ") + std::string(part.label) + " " + fmt::usd(k.costBreakdown.*part.value);
        x.lines.push_back("where it goes: " + parts + " = " + x.value);
        costLines(ev, x);
    } else if (key == "waste_per_month_usd") {
        const CostBreakdown& b = k.costBreakdown;
        x.formula = "Idle + Sharing overhead + Stranded = " + fmt::usd(b.idleUsd) + " + " + fmt::usd(b.overheadUsd) +
                    " + " + fmt::usd(b.strandedUsd) + " = " + x.value + " of " + fmt::usd(k.costPerMonthUsd) +
                    " (Useful " + fmt::usd(b.usefulUsd) + ")";
        for (const CostPart& part : costParts())
            x.lines.push_back(std::string(part.label) + " " + fmt::usd(b.*part.value) + ": " + part.meaning);
        costLines(ev, x);
    } else if (key == "unplaced_jobs") {
        x.formula = "jobs the placement policy could not place whole = " + x.value;
        for (const JobResult& j : ev.jobs)
            if (!j.placed) {
                x.lines.push_back(j.name + ": " + j.reason);
                x.jobIds.push_back(j.id);
            }
    } else if (key == "sla_violations") {
        x.formula = "jobs missing their tenant's SLA (not placed, too slow, or past the deadline) = " + x.value;
        for (const JobResult& j : ev.jobs)
            if (!j.meetsSla || !j.placed) {
                x.lines.push_back(j.name + ": " + slaMissReason(j, s));
                x.jobIds.push_back(j.id);
            }
    } else if (key == "oom_risk_gpus") {
        x.formula = "GPUs without memory isolation whose co-tenants' memory exceeds them = " + x.value;
        for (const GpuResult& g : ev.gpus)
            if (g.oomRisk)
                x.lines.push_back(nodeName(s, g.node) + " GPU " + std::to_string(g.gpu) + ": " + fmt::gib(g.usedBytes) +
                                  " of " + fmt::gib(g.capacityBytes) + " GiB");
    } else if (key == "serving_slo_attainment") {
        x.formula = "mean over serving jobs with an objective, saturated or not placed (0 for these two) of (share "
                    "of requests within the TTFT P99 objective × share of token gaps within the ITL P99 objective) = " +
                    x.value;
        for (const JobResult& j : ev.jobs)
            if (j.serving) {
                x.lines.push_back(j.name + ": " + formatSloAttainment(*j.serving) + " (P99 TTFT " +
                                  fmt::latency(j.serving->ttftP99S) + ", ITL " + fmt::latency(j.serving->itlP99S) +
                                  ")");
                x.jobIds.push_back(j.id);
            }
    } else if (key == "p95_completion_days") {
        x.formula = "the slowest training job's 95th-percentile completion over the plan's Monte Carlo = " + x.value;
        const JobResult* slowest = nullptr;
        for (const JobResult& j : ev.jobs)
            if (j.placed && j.perf.daysToComplete &&
                (!slowest || *j.perf.daysToComplete > *slowest->perf.daysToComplete))
                slowest = &j;
        if (slowest) {
            x.lines.push_back(slowest->name + ": " + fmt::days(*slowest->perf.daysToComplete) +
                              " without interruptions or jitter");
            x.jobIds.push_back(slowest->id);
        }
    }
    return x;
}

KpiExplanation explainJob(const std::string& figure, const std::string& jobId, const Scenario& s,
                          const Catalog& catalog, const Evaluation& ev)
{
    if (s.calibration)
        return markCalibrated(withOwnCalibration(s, catalog,
                                                 [&](const Scenario& cs, const Catalog& cc) {
                                                     return explainJob(figure, jobId, cs, cc, ev);
                                                 }),
                              s, ev);
    KpiExplanation x;
    const auto it = std::find_if(ev.jobs.begin(), ev.jobs.end(), [&](const JobResult& j) { return j.id == jobId; });
    if (it == ev.jobs.end() || (figure != "penalty" && figure != "cost"))
        return x;
    const JobResult& j = *it;
    x.key = figure;
    x.jobIds = {j.id};
    x.assumptions = assumptionsBehindJob(figure, j);
    const std::string step = j.serving ? "time per output token" : "step time";
    if (figure == "penalty") {
        const KpiSpec* spec = findKpi("mean_penalty");
        x.label = "Penalty of " + j.name;
        x.errorBand = spec->errorBand;
        if (!j.placed) {
            x.value = "–";
            x.formula = "not placed, so not run: " + j.reason;
            return x;
        }
        x.value = percent(j.penalty);
        // Three significant figures or so, so that the division reads true.
        const auto precise = [](double sec) {
            return sec < 1.0 ? fmt::fixed(sec * 1000.0, 2) + " ms" : fmt::fixed(sec, 3) + " s";
        };
        const double dedicatedStep = j.bareMetal.stepTimeS * (1.0 + j.slowdownVsDedicated);
        x.formula = step + " shared ÷ " + step + " on the same GPU share dedicated − 1 = " + precise(j.perf.stepTimeS) +
                    " ÷ " + precise(dedicatedStep) + " − 1 = " + x.value;
        // How far the model was off on held-out published runs of this kind (docs/validation.md).
        if (const Job* spec = s.findJob(j.id)) {
            const std::string band = errorBandText(errorBandFor(*spec, j, catalog));
            x.lines.push_back(j.serving ? "Output tokens/s " + fmt::fixed(j.serving->outputTokensPerS, 0) + " " + band
                                        : "Step time " + precise(j.bareMetal.stepTimeS) + " on bare metal " + band);
        }
        x.lines.push_back(
            "On " + slotOf(j) +
            (j.placement.size() > 1 ? " (" + std::to_string(j.placement.size()) + " units)" : std::string()));
        if (j.penalty > 1e-6)
            x.lines.push_back("By resource: " + partsOf(j.penaltyBreakdown));
        if (j.slowdownVsDedicated > 1e-6)
            x.lines.push_back(
                "Slowdown against whole dedicated GPUs, not counted as penalty: " + percent(j.slowdownVsDedicated) +
                " (" + precise(dedicatedStep) + " against " + precise(j.bareMetal.stepTimeS) +
                "): the share of the GPU it holds is a sizing choice, paid for at that share");
        if (const std::string packed = packingOf(j, s); !packed.empty())
            x.lines.push_back(packed);
        if (!j.noisiestNeighbour.empty())
            x.lines.push_back("Noisiest neighbour: " + jobName(ev, j.noisiestNeighbour) + " (+" +
                              percent(j.noisiestNeighbourCost) + " of the bare-metal " + step + ")");
        if (const Tenant* t = s.findTenant(j.tenant)) {
            const std::string why = slaMissReason(j, s);
            x.lines.push_back(why.empty()
                                  ? (judgedByPenalty(j, t->sla)
                                         ? "Within " + t->name + "'s SLA (at most " +
                                               percent(t->sla.maxPenaltyPct / 100.0) + " penalty)"
                                         : "Within " + t->name + "'s latency objectives, which judge a serving job")
                                  : "Outside " + t->name + "'s SLA: " + why);
        }
        if (j.extraDays && *j.extraDays > 0.005)
            x.lines.push_back("It adds " + fmt::days(*j.extraDays) + " to the run");
        return x;
    }
    x.label = "Cost of " + j.name;
    x.value = fmt::usd(j.costPerMonthUsd);
    x.prices = pricesBehind(s, catalog, {j.gpuId});
    const double perGpuHour =
        j.gpuEquivalents > 0 ? j.costPerMonthUsd / (j.gpuEquivalents * Inventory::kHoursPerMonth) : 0.0;
    x.formula = "GPU share it holds × price per GPU-hour × hours per month = " + fmt::fixed(j.gpuEquivalents, 2) +
                " × $" + fmt::fixed(perGpuHour, 2) + " × " + fmt::grouped(Inventory::kHoursPerMonth) +
                " h = " + x.value;
    x.lines.push_back("Its share: the slots it holds as fractions of a GPU (a MIG instance its slices of seven, a "
                      "time-sliced or vGPU replica one of its GPU's replicas, a whole GPU one)");
    x.lines.push_back("Useful " + fmt::usd(j.costPerMonthUsd - j.overheadPerMonthUsd) + " + Sharing overhead " +
                      fmt::usd(j.overheadPerMonthUsd) + " (cost × penalty " + fmt::percent(j.penalty) +
                      " ÷ (1 + penalty))");
    if (j.costUsd && j.perf.daysToComplete)
        x.lines.push_back("Over its whole run of " + fmt::days(*j.perf.daysToComplete) + ": " + fmt::usd(*j.costUsd));
    if (j.extraDays && *j.extraDays > 0.005 && j.perf.daysToComplete && j.costUsd)
        x.lines.push_back("Of which the sharing penalty's " + fmt::days(*j.extraDays) + ": " +
                          fmt::usd(*j.costUsd * *j.extraDays / *j.perf.daysToComplete));
    return x;
}

KpiExplanation explainGpu(const std::string& nodeId, int gpu, const Scenario& s, const Catalog& c, const Evaluation& ev)
{
    if (s.calibration)
        return markCalibrated(
            withOwnCalibration(
                s, c, [&](const Scenario& cs, const Catalog& cc) { return explainGpu(nodeId, gpu, cs, cc, ev); }),
            s, ev);
    KpiExplanation x;
    const Node* node = s.topology.findNode(nodeId);
    const auto result = std::find_if(ev.gpus.begin(), ev.gpus.end(),
                                     [&](const GpuResult& g) { return g.node == nodeId && g.gpu == gpu; });
    if (!node || gpu < 0 || gpu >= node->gpuCount)
        return x;
    const KpiSpec* spec = findKpi("vram_utilization");
    x.key = "gpu";
    x.label = "GPU " + std::to_string(gpu) + " of " + node->name;
    x.assumptions = assumptionsBehindGpu(nodeId, gpu, ev);
    x.errorBand = spec->errorBand;
    x.prices = pricesBehind(s, c, {node->gpuId});
    const double used = result != ev.gpus.end() ? result->usedBytes : 0.0;
    const double capacity = result != ev.gpus.end() ? result->capacityBytes : 0.0;
    x.value = fmt::fixed(used / kGiB, 1) + " of " + fmt::fixed(capacity / kGiB, 1) + " GiB";
    // The jobs with a unit here, and the memory each needs per GPU.
    std::string sum;
    for (const JobResult& j : ev.jobs)
        for (const UnitLocation& u : j.placement)
            if (u.node == nodeId && u.gpu == gpu) {
                x.jobIds.push_back(j.id);
                sum += (sum.empty() ? "" : " + ") + fmt::fixed(j.memory.totalBytes() / kGiB, 1);
                std::string line = j.name + " on " + u.slot + ": " + fmt::fixed(j.memory.totalBytes() / kGiB, 1) +
                                   " GiB per GPU, penalty " + percent(j.penalty);
                if (!j.noisiestNeighbour.empty())
                    line += ", noisiest neighbour " + jobName(ev, j.noisiestNeighbour);
                if (!j.meetsSla)
                    line += " — outside its tenant's SLA";
                x.lines.push_back(line);
                break;
            }
    x.formula = "memory in use = the memory per GPU of each job on it" +
                (sum.empty() ? std::string(" (none runs here)") : " = " + sum + " GiB") + " = " +
                fmt::fixed(used / kGiB, 1) + " GiB of the " + fmt::fixed(capacity / kGiB, 1) + " GiB it offers" +
                (capacity > 0 ? " (" + percent(used / capacity) + ")" : std::string());
    const GpuSpec* g = c.gpu(node->gpuId);
    x.lines.insert(x.lines.begin(),
                   (g ? g->name : node->gpuId) + ", shared as " + describeSharing(node->sharingOf(gpu)));
    if (result != ev.gpus.end() && result->oomRisk)
        x.lines.push_back("At risk of running out of memory: nothing isolates its jobs' memory and together they "
                          "need more than it has");
    if (const std::optional<double> price = gpuHourPrice(s, c, node->gpuId))
        x.lines.push_back("It costs $" + fmt::fixed(*price, 2) + " per hour, $" +
                          fmt::grouped(*price * Inventory::kHoursPerMonth) + " per month, used or not");
    return x;
}

} // namespace gp::calc
