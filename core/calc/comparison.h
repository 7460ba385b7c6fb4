// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#pragma once

#include "evaluation.h"

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace gp::calc {

/// A KPI as the comparison shows it (docs/cli.md#compare).
struct KpiSpec
{
    std::string key;   ///< "vram_utilization", ... (the JSON names of evaluate --json)
    std::string label; ///< "VRAM utilization"
    std::string unit;  ///< "fraction", "usd_per_month", "count", "days"
    bool higherIsBetter = false;
};

/// The KPIs compared, in display order; `p95_completion_days` comes from a simulation, so a
/// caller adds it to the values when it has simulated.
const std::vector<KpiSpec>& comparedKpis();

/// A scenario's KPI values by key (all of comparedKpis() but p95_completion_days).
std::map<std::string, double> kpiValues(const Kpis& kpis);

enum class Verdict
{
    Same,
    Better,
    Worse
};

struct KpiComparison
{
    KpiSpec spec;
    std::vector<double> values;    ///< one per scenario
    std::vector<double> deltas;    ///< value - the first scenario's value (0 for the first)
    std::vector<Verdict> verdicts; ///< against the first scenario (Same for the first)
};

/// A KPI value as the comparison shows it: "48.4 %", "$139,693", "25.8 d", "3".
std::string formatKpiValue(const KpiSpec& spec, double value);
/// A change of a KPI: "+3.7 pt", "−$49,290", "−0.5 d", "+2" (a minus sign, not a hyphen).
std::string formatKpiDelta(const KpiSpec& spec, double delta);

/// One row per KPI that every scenario has, each later scenario against the first. A change
/// within 1e-9 of the value (relative) counts as the same.
std::vector<KpiComparison> compareKpis(const std::vector<std::map<std::string, double>>& scenarios);

} // namespace gp::calc
