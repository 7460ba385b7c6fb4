// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#pragma once

#include <map>
#include <string>
#include <vector>

namespace gp {

/// A model parameter that is an assumption, not a fact: its default, the range a user may
/// set, and where the default comes from (docs/model-reference.md). Scenarios override
/// defaults by key in their "assumptions" object.
struct Assumption
{
    std::string key;
    std::string label; ///< what a planner calls it ("Time slice"): the explanations' rows, with the key beside
    double defaultValue = 0.0;
    double minValue = 0.0;
    double maxValue = 0.0;
    std::string unit;
    std::string description;
    std::string source;
};

/// The registry of every assumption the calculation uses.
const std::vector<Assumption>& assumptionRegistry();
const Assumption* findAssumption(const std::string& key);
/// The scenario's value of `key` if it overrides it, else the registry default.
double assumptionValue(const std::map<std::string, double>& overrides, const std::string& key);

} // namespace gp
