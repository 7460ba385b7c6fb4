// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#pragma once

#include "evaluation.h"

#include <map>
#include <string>
#include <vector>

namespace gp::calc {

/// One KPI, defined once (docs/architecture.md §5): the KPI cards, the comparison, the report,
/// the slides, the CSV export and the CLI all read it from kpiRegistry().
struct KpiSpec
{
    std::string key;   ///< "vram_utilization", ... (the JSON names of evaluate --json)
    std::string label; ///< "VRAM utilization": comparison rows, report, CSV
    std::string unit;  ///< "fraction", "usd_per_month", "usd_per_million_tokens", "count", "days"
    bool higherIsBetter = false;
    std::string cardLabel;   ///< the KPI card's title ("$/month"); empty: no card
    std::string explanation; ///< the formula in words, for tooltips (sources: docs/model-reference.md)
    /// True when the value misses the planning target or flags a problem (shown in red).
    bool (*flagged)(const Kpis&) = nullptr;
    /// False when the KPI has no value for this plan (SLO attainment without serving jobs).
    bool (*applies)(const Kpis&) = nullptr;
    /// The registered assumptions (model/assumptions.h) its value rests on in every plan: the
    /// Monte Carlo's, the out-of-memory count's. Empty for the KPIs made of the jobs' figures:
    /// their explanation lists what the calculation read for the jobs behind this plan's value
    /// instead (assumptionsBehindKpi, explaininputs.h).
    std::vector<std::string> assumptions = {};
    /// How far the model is known to be off for this figure, from docs/validation.md.
    std::string errorBand = {};
    /// What is shown instead of a value where it does not apply and the reason is worth saying
    /// ("n/a (no objective)"); empty: a dash.
    std::string (*noValueText)(const Kpis&) = nullptr;

    /// The text where the KPI has no value: the reason, or an empty string for a plain dash.
    std::string noValue(const Kpis& k) const { return noValueText ? noValueText(k) : std::string(); }

    bool isFlagged(const Kpis& k) const { return flagged && flagged(k); }
    bool appliesTo(const Kpis& k) const { return !applies || applies(k); }
};

/// One part of the cost decomposition (CostBreakdown), worded alike in every view: the KPI
/// card, the explanation, Compare, the report, the slides, `summary` and `evaluate --json`.
struct CostPart
{
    const char* key;     ///< "useful", "idle", "overhead", "stranded": kpis.cost_breakdown_usd's keys
    const char* label;   ///< "Useful", "Idle", "Sharing overhead", "Stranded"
    const char* meaning; ///< one sentence (docs/model-reference.md, "Cost decomposition")
    const char* color;   ///< the charts' colour, "#rrggbb"
    double CostBreakdown::*value;
};
/// The four parts in the order the views stack them: useful, idle, sharing overhead, stranded.
const std::vector<CostPart>& costParts();

/// Every KPI in display order. `p95_completion_days` comes from a simulation: sim::kpiValues
/// (sim/planresults.h) gives all of them for a plan's results.
const std::vector<KpiSpec>& kpiRegistry();
/// The KPI with this key; null when there is none.
const KpiSpec* findKpi(const std::string& key);

/// A scenario's KPI values by key (all of kpiRegistry() but p95_completion_days; with it:
/// sim::kpiValues).
std::map<std::string, double> kpiValues(const Kpis& kpis);

/// A KPI value in a table's column (the comparison, the slides): "48.4 %", "$139,693", "25.8 d", "3".
std::string formatKpiValue(const KpiSpec& spec, double value);
/// A KPI value where it stands alone — a KPI card, the report's KPI table: units spelled out
/// ("25.8 days"), otherwise as formatKpiValue.
std::string formatKpiText(const KpiSpec& spec, double value);
/// A change of a KPI: "+3.7 pt", "−$49,290", "−0.5 d", "+2" (a minus sign, not a hyphen).
std::string formatKpiDelta(const KpiSpec& spec, double delta);

/// A serving job's SLO attainment in words: "97.3 %" (0 % saturated), or "n/a (no objective)"
/// where its tenant sets none and it keeps up.
std::string formatSloAttainment(const ServingResult& sv);
/// The plan's serving SLO attainment in words: a percentage, "n/a (no objective)", or "–"
/// without serving jobs.
std::string formatServingSlo(const Kpis& k);

} // namespace gp::calc
