// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#pragma once

#include "evaluation.h"
#include "kpiregistry.h"

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace gp::calc {

/// The KPIs compared, in display order: the registry's (kpiregistry.h).
inline const std::vector<KpiSpec>& comparedKpis() { return kpiRegistry(); }

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

/// One row per KPI that every scenario has, each later scenario against the first. A change
/// that shows as zero at the KPI's precision ("+0.0 d") counts as the same.
std::vector<KpiComparison> compareKpis(const std::vector<std::map<std::string, double>>& scenarios);

} // namespace gp::calc
