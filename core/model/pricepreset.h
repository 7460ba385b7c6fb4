// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#pragma once

#include <map>
#include <string>

namespace gp {

/// Dated list prices in US dollars per GPU-hour from one provider (data/catalog/prices.json).
struct PricePreset
{
    std::string id;
    std::string name;
    std::string asOf;                         ///< ISO date the prices were published
    std::string source;                       ///< where they were published
    std::map<std::string, double> gpuHourUsd; ///< gpu id -> $/GPU-hour
};

} // namespace gp
