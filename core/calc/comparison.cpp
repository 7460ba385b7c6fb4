// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#include "comparison.h"

#include <algorithm>
#include <cmath>

namespace gp::calc {

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
            // A change the reader sees as none ("+0.0 d", "+0.0 pt") is none: no colour, no arrow.
            const std::string shown = formatKpiDelta(spec, delta);
            const bool showsZero =
                std::none_of(shown.begin(), shown.end(), [](char ch) { return ch >= '1' && ch <= '9'; });
            if (showsZero || std::abs(delta) <= 1e-9 * std::max(1.0, std::abs(first)))
                row.verdicts.push_back(Verdict::Same);
            else
                row.verdicts.push_back((delta > 0) == spec.higherIsBetter ? Verdict::Better : Verdict::Worse);
        }
        rows.push_back(std::move(row));
    }
    return rows;
}

} // namespace gp::calc
