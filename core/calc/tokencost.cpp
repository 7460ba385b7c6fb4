// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
// Cost per million input and output tokens (tokencost.h).
#include "tokencost.h"

#include "inventory.h"
#include "servingmodel.h"

#include "model/format.h"
#include "model/job.h"

#include <algorithm>

namespace gp::calc {

TokenCost tokenCostOf(const ServingResult& sv, const InferenceSpec& spec, double costPerMonthUsd,
                      double overheadPerMonthUsd)
{
    TokenCost c;
    const double seconds = Inventory::kHoursPerMonth * 3600.0;
    c.inputTokensPerMonth = sv.requestsPerS * spec.promptTokens() * seconds;
    c.outputTokensPerMonth = sv.outputTokensPerS * seconds;
    const double prefill = std::clamp(sv.prefillBusy, 0.0, 1.0);
    c.inputUsd = costPerMonthUsd * prefill;
    c.outputUsd = costPerMonthUsd - c.inputUsd;
    const double used =
        std::clamp(costPerMonthUsd - overheadPerMonthUsd, 0.0, costPerMonthUsd) * std::clamp(sv.engineBusy, 0.0, 1.0);
    c.inputUsedUsd = used * prefill;
    c.outputUsedUsd = used - c.inputUsedUsd;
    return c;
}

std::string tokenCostText(const TokenCost& c)
{
    const auto usd = [](const std::optional<double>& v) { return v ? fmt::usdPrice(*v) : std::string("–"); };
    return "$/M tokens: input " + usd(c.inputPerMillion()) + ", output " + usd(c.outputPerMillion()) +
           " (used: " + usd(c.inputPerMillionUsed()) + ", " + usd(c.outputPerMillionUsed()) + ")";
}

} // namespace gp::calc
