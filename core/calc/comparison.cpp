// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#include "comparison.h"

#include "model/format.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace gp::calc {

const std::vector<KpiSpec>& comparedKpis()
{
    static const std::vector<KpiSpec> specs = {
        {"vram_utilization", "VRAM utilization", "fraction", true},
        {"allocation_ratio", "GPU share allocated", "fraction", true},
        {"compute_utilization", "Compute utilization", "fraction", true},
        {"fragmentation", "Fragmentation", "fraction", false},
        {"mean_penalty", "Mean penalty", "fraction", false},
        {"max_penalty", "Max penalty", "fraction", false},
        {"unplaced_jobs", "Unplaced jobs", "count", false},
        {"sla_violations", "SLA violations", "count", false},
        {"serving_slo_attainment", "Serving SLO attainment", "fraction", true},
        {"oom_risk_gpus", "OOM-risk GPUs", "count", false},
        {"cost_per_month_usd", "$ per month", "usd_per_month", false},
        {"waste_per_month_usd", "$ wasted per month", "usd_per_month", false},
        {"p95_completion_days", "P95 completion", "days", false},
    };
    return specs;
}

std::map<std::string, double> kpiValues(const Kpis& k)
{
    return {{"vram_utilization", k.vramUtilization},
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
            {"waste_per_month_usd", k.wastePerMonth.total()}};
}

namespace {

std::string magnitude(const KpiSpec& spec, double v)
{
    if (spec.unit == "fraction")
        return fmt::percent(v);
    if (spec.unit == "usd_per_month")
        return fmt::usd(v);
    if (spec.unit == "days")
        return fmt::days(v);
    return fmt::fixed(v, 0);
}

} // namespace

std::string formatKpiValue(const KpiSpec& spec, double value) { return magnitude(spec, value); }

std::string formatKpiDelta(const KpiSpec& spec, double delta)
{
    const std::string sign = delta > 0 ? "+" : delta < 0 ? "\u2212" : "";
    std::string text = magnitude(spec, std::abs(delta));
    if (spec.unit == "fraction")
        text = fmt::points(delta);
    return sign + text;
}

std::vector<KpiComparison> compareKpis(const std::vector<std::map<std::string, double>>& scenarios)
{
    std::vector<KpiComparison> rows;
    if (scenarios.empty())
        return rows;
    for (const KpiSpec& spec : comparedKpis()) {
        if (!std::all_of(scenarios.begin(), scenarios.end(), [&](const auto& s) { return s.count(spec.key) > 0; }))
            continue;
        KpiComparison row{spec, {}, {}, {}};
        const double first = scenarios.front().at(spec.key);
        for (const auto& s : scenarios) {
            const double v = s.at(spec.key);
            const double delta = v - first;
            row.values.push_back(v);
            row.deltas.push_back(delta);
            if (std::abs(delta) <= 1e-9 * std::max(1.0, std::abs(first)))
                row.verdicts.push_back(Verdict::Same);
            else
                row.verdicts.push_back((delta > 0) == spec.higherIsBetter ? Verdict::Better : Verdict::Worse);
        }
        rows.push_back(std::move(row));
    }
    return rows;
}

} // namespace gp::calc
