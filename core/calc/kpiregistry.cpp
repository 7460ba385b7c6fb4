// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#include "kpiregistry.h"

#include "evaluateparams.h"
#include "model/format.h"
#include "model/planningtarget.h"

#include <cmath>

namespace gp::calc {

namespace {

// The formulas are the ones docs/model-reference.md derives and cites; a tooltip says them in
// words. The red marks follow the planning target (model/planningtarget.h) and the problems a
// planner must not miss.
const std::string kTokenCostExplanation =
    "The serving jobs' cost (their GPU share at the cluster's prices) priced to the tokens by the engine time "
    "each phase takes, not by token counts, ÷ the tokens they serve per month (730 h).";

std::vector<KpiSpec> makeRegistry()
{
    std::vector<KpiSpec> r;
    r.push_back({"vram_utilization", "VRAM utilization", "fraction", true, "VRAM utilization",
                 "Memory the placed jobs need (weights, gradients, optimizer states, activations, KV cache, "
                 "runtime) ÷ usable VRAM of all GPUs. Target: at least " +
                     fmt::percent(PlanningTarget::kMinVramUtilization, 0) + ".",
                 [](const Kpis& k) { return !PlanningTarget::vramMet(k.vramUtilization); }});
    r.push_back({"allocation_ratio", "GPU share allocated", "fraction", true, "Allocation",
                 "GPU share held by jobs (whole GPUs, MIG compute slices / 7, vGPU, replica and MPS-client "
                 "shares) ÷ GPUs."});
    r.push_back({"compute_utilization", "Compute utilization", "fraction", true, "",
                 "Sum over placed jobs of their GPU share × model FLOPs utilization (MFU) ÷ GPUs."});
    r.push_back(
        {"fragmentation", "Fragmentation", "fraction", false, "",
         "Free GPU share the job mix cannot use (each shape weighted by its share of the tasks) ÷ free GPU share."});
    r.push_back({"mean_penalty", "Mean penalty", "fraction", false, "Mean penalty",
                 "Mean over placed jobs of the overhead of sharing: shared step time ÷ the step on the same GPU "
                 "share dedicated − 1 (neighbours' interference, context switches, MIG static loss, "
                 "virtualisation I/O; a slice's smaller size is its slowdown against dedicated GPUs, apart). "
                 "Target: below " +
                     fmt::percent(PlanningTarget::kMaxMeanPenalty, 0) + ".",
                 [](const Kpis& k) { return !PlanningTarget::penaltyMet(k.meanPenalty); }});
    // Red like the mean when one job alone is past the target (issue 36: 321 % stood in black
    // next to a red mean).
    r.push_back({"max_penalty", "Max penalty", "fraction", false, "Max penalty",
                 "The largest penalty of a placed job; red above the planning target's " +
                     fmt::percent(PlanningTarget::kMaxMeanPenalty, 0) + ".",
                 [](const Kpis& k) { return !PlanningTarget::penaltyMet(k.maxPenalty); }});
    r.push_back({"cost_per_month_usd", "$ per month", "usd_per_month", false, "$/month",
                 "GPUs × $/GPU-hour (price preset, scenario overrides, or ownership: capex ÷ amortisation + "
                 "TDP × PUE × $/kWh) × 730 h."});
    r.push_back({"waste_per_month_usd", "$ wasted per month", "usd_per_month", false, "$ wasted/month",
                 "Idle (free GPU share a job could use) + sharing overhead (the share of a job's GPUs its "
                 "penalty burns: cost × penalty ÷ (1 + penalty)) + stranded (free share on a GPU holding a job "
                 "that no job of the mix can use). With the useful part they add up to the cost; unused "
                 "memory on a job's GPUs is headroom, not waste."});
    r.push_back({"unplaced_jobs", "Unplaced jobs", "count", false, "Unplaced jobs",
                 "Jobs the placement policy could not place whole; each says why in the outline.",
                 [](const Kpis& k) { return k.unplacedJobs > 0; }});
    r.push_back({"sla_violations", "SLA violations", "count", false, "",
                 "Jobs missing their tenant's SLA: not placed, slower than the tenant's maximum penalty, or "
                 "past its deadline.",
                 [](const Kpis& k) { return k.slaViolations > 0; }});
    r.push_back({"oom_risk_gpus", "OOM-risk GPUs", "count", false, "OOM-risk GPUs",
                 "GPUs without memory isolation (time-slicing, MPS without a limit) whose co-tenants' memory "
                 "exceeds them.",
                 [](const Kpis& k) { return k.oomRiskGpus > 0; }});
    r.push_back({"serving_slo_attainment", "Serving SLO attainment", "fraction", true, "Serving SLO",
                 "Mean over serving jobs of the share of requests within their tenant's TTFT P99 objective "
                 "times the share of token gaps within its ITL P99 objective; a saturated service or one not "
                 "placed meets none (0); a service whose tenant sets no objective is not counted (n/a).",
                 [](const Kpis& k) { return k.servingJobsJudged > 0 && k.servingSloAttainment < 0.99; },
                 [](const Kpis& k) { return k.servingJobsJudged > 0; }});
    r.back().noValueText = [](const Kpis& k) {
        return k.servingJobs > 0 ? std::string("n/a (no objective)") : std::string();
    };
    // Cost per million tokens (issue 39, item 5): the plan's serving jobs together, allocation
    // basis (their cost ÷ their tokens); evaluate --json adds the used basis beside each.
    r.push_back({"cost_per_million_input_tokens_usd", "$ per million input tokens", "usd_per_million_tokens", false, "",
                 kTokenCostExplanation + " Input tokens: the prefill's share of the engine time.", nullptr,
                 [](const Kpis& k) { return k.tokenCost && k.tokenCost->inputPerMillion().has_value(); }});
    r.push_back({"cost_per_million_output_tokens_usd", "$ per million output tokens", "usd_per_million_tokens", false,
                 "", kTokenCostExplanation + " Output tokens: the decode's share.", nullptr,
                 [](const Kpis& k) { return k.tokenCost && k.tokenCost->outputPerMillion().has_value(); }});
    r.push_back({"p95_completion_days", "P95 completion", "days", false, "P95 completion",
                 "The slowest training job's 95th-percentile completion time, from the plan's Monte Carlo "
                 "(run-to-run jitter, co-tenant bursts, out-of-memory kills, link congestion, hardware "
                 "interruptions at the Llama 3 rate); the cards, report, slides and comparison show the same."});
    // What each rests on, and how far off the model is known to be (docs/validation.md).
    const std::string memoryBand = "memory per GPU from the model cards' shapes (parameter counts within 1.5 %) and "
                                   "the activation formulas of Korthikanti et al. 2022; docs/validation.md";
    const std::string penaltyBand =
        "step times within 10 % of Megatron-LM's published iterations (mean 8 %); sharing penalties within 3 % of "
        "the MPS and vGPU measurements used as checks, but time-slicing of small kernels is underestimated by up "
        "to half (Colfax 2024) and of a serving mix overestimated by 17 % (NVIDIA 2026); docs/validation.md";
    // What evaluate's memory figure reads, as it records it (evaluateparams.h). The KPIs made of
    // the jobs' figures get no fixed list: their explanation names what the calculation read for
    // this plan's jobs (explaininputs.h; a fixed list named time slices on a MIG plan, issue 36).
    const std::vector<std::string> memoryKeys = assumptionsReadBy(EvaluatedFigure::Memory);
    const std::vector<std::string> fromTheJobs = {};
    auto set = [&r](const char* key, std::vector<std::string> assumptions, std::string band) {
        for (KpiSpec& k : r)
            if (k.key == key) { // keys are unique: one spec takes them
                k.assumptions = std::move(assumptions);
                k.errorBand = std::move(band);
                return;
            }
    };
    set("vram_utilization", fromTheJobs, memoryBand);
    set("allocation_ratio", {}, "exact: the slots the placement handed out");
    set("compute_utilization", fromTheJobs, penaltyBand);
    set("fragmentation", {},
        "the measure of Weng et al. (USENIX ATC '23) as their simulator computes it, the trace replay's, over the "
        "scenario's own job mix; how the replay compares with the paper is in docs/validation.md");
    set("mean_penalty", fromTheJobs, penaltyBand);
    set("max_penalty", fromTheJobs, penaltyBand);
    set("cost_per_month_usd", {}, "exact arithmetic on the catalog's cited prices (or your overrides)");
    set("waste_per_month_usd", fromTheJobs,
        "idle and stranded parts exact on the placement; the sharing overhead part as the penalties");
    set("unplaced_jobs", fromTheJobs, memoryBand);
    set("sla_violations", fromTheJobs, penaltyBand);
    set("oom_risk_gpus", memoryKeys, memoryBand);
    set("serving_slo_attainment", fromTheJobs,
        "TTFT within 30 %, inter-token latency and throughput within 20 % of NVIDIA NIM's measurements; mean "
        "|error| 10.4 % over 24 TensorRT-LLM rows; docs/validation.md");
    set("p95_completion_days",
        {"step_jitter_cv", "cotenant_busy_fraction", "interruptions_per_gpu_day", "restart_overhead_min"},
        "a Monte Carlo estimate over the step model above; interruptions at the rate Llama 3's 54-day run "
        "reported (Dubey et al. 2024)");
    return r;
}

std::string magnitude(const KpiSpec& spec, double v)
{
    if (spec.unit == "fraction")
        return fmt::percent(v);
    if (spec.unit == "usd_per_month")
        return fmt::usd(v);
    if (spec.unit == "days")
        return fmt::days(v);
    if (spec.unit == "usd_per_million_tokens")
        return fmt::usdPrice(v);
    return fmt::fixed(v, 0);
}

} // namespace

const std::vector<CostPart>& costParts()
{
    static const std::vector<CostPart> parts = {
        {"useful", "Useful", "the GPU share jobs hold, less what sharing costs them", "#59a14f",
         &CostBreakdown::usefulUsd},
        {"idle", "Idle", "GPU share no job holds that a job of the mix could use (spare capacity, free GPUs)",
         "#bab0ac", &CostBreakdown::idleUsd},
        {"overhead", "Sharing overhead",
         "the share of a job's GPUs its sharing penalty burns: its cost × penalty ÷ (1 + penalty)", "#e15759",
         &CostBreakdown::overheadUsd},
        {"stranded", "Stranded",
         "free share on a GPU that holds a job, which no job of the mix can use (a MIG remainder no profile "
         "fits, replicas whose memory a neighbour fills)",
         "#f28e2b", &CostBreakdown::strandedUsd}};
    return parts;
}

const std::vector<KpiSpec>& kpiRegistry()
{
    static const std::vector<KpiSpec> registry = makeRegistry();
    return registry;
}

const KpiSpec* findKpi(const std::string& key)
{
    for (const KpiSpec& spec : kpiRegistry())
        if (spec.key == key)
            return &spec;
    return nullptr;
}

std::map<std::string, double> kpiValues(const Kpis& k)
{
    std::map<std::string, double> values{{"vram_utilization", k.vramUtilization},
                                         {"allocation_ratio", k.allocationRatio},
                                         {"compute_utilization", k.computeUtilization},
                                         {"fragmentation", k.fragmentation},
                                         {"mean_penalty", k.meanPenalty},
                                         {"max_penalty", k.maxPenalty},
                                         {"unplaced_jobs", static_cast<double>(k.unplacedJobs)},
                                         {"sla_violations", static_cast<double>(k.slaViolations)},
                                         {"serving_slo_attainment", k.servingSloAttainment},
                                         {"oom_risk_gpus", static_cast<double>(k.oomRiskGpus)},
                                         {"cost_per_month_usd", k.costPerMonthUsd},
                                         {"waste_per_month_usd", k.wastePerMonthUsd()}};
    if (k.tokenCost) {
        values["cost_per_million_input_tokens_usd"] = k.tokenCost->inputPerMillion().value_or(0.0);
        values["cost_per_million_output_tokens_usd"] = k.tokenCost->outputPerMillion().value_or(0.0);
    }
    // A KPI without a value for this plan (no judged serving job) has none here either, so that
    // no view or comparison shows a made-up 100 %.
    for (const KpiSpec& spec : kpiRegistry())
        if (!spec.appliesTo(k))
            values.erase(spec.key);
    return values;
}

std::string formatKpiValue(const KpiSpec& spec, double value) { return magnitude(spec, value); }

std::string formatKpiText(const KpiSpec& spec, double value)
{
    if (spec.unit == "days")
        return fmt::fixed(value, 1) + " days";
    return magnitude(spec, value);
}

std::string formatKpiDelta(const KpiSpec& spec, double delta)
{
    const std::string sign = delta > 0 ? "+" : delta < 0 ? "\u2212" : "";
    std::string text = magnitude(spec, std::abs(delta));
    if (spec.unit == "fraction")
        text = fmt::points(delta);
    return sign + text;
}

std::string formatSloAttainment(const ServingResult& sv)
{
    return sv.sloJudged ? fmt::percent(sv.sloAttainment) : std::string("n/a (no objective)");
}

std::string formatServingSlo(const Kpis& k)
{
    if (k.servingJobsJudged > 0)
        return fmt::percent(k.servingSloAttainment);
    return k.servingJobs > 0 ? std::string("n/a (no objective)") : std::string("\u2013");
}

} // namespace gp::calc
