// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#pragma once

#include <optional>
#include <string>

namespace gp {
struct InferenceSpec;
}

namespace gp::calc {

struct ServingResult;

/// What a serving job's tokens cost (issue 39, item 5; docs/model-reference.md, "Cost per
/// million tokens"). Input and output tokens are priced by the engine time each phase takes —
/// the prefill's share of the engine's iterations (ServingResult::prefillBusy) and the decode's
/// rest — not by token counts. Two bases:
/// - allocation: the job's whole cost (its GPU share at the cluster's prices), so input + output
///   = the job's cost per month;
/// - used: the useful part of that cost (the cost split's: cost ÷ (1 + penalty), what sharing
///   does not burn) while the engine is busy (ServingResult::engineBusy), so used ≤ allocation.
struct TokenCost
{
    double inputTokensPerMonth = 0.0;
    double outputTokensPerMonth = 0.0;
    double inputUsd = 0.0;      ///< $/month priced to input tokens, allocation basis
    double outputUsd = 0.0;     ///< ... to output tokens; inputUsd + outputUsd = the job's cost
    double inputUsedUsd = 0.0;  ///< $/month priced to input tokens, used basis
    double outputUsedUsd = 0.0; ///< ... to output tokens

    std::optional<double> inputPerMillion() const { return perMillion(inputUsd, inputTokensPerMonth); }
    std::optional<double> outputPerMillion() const { return perMillion(outputUsd, outputTokensPerMonth); }
    std::optional<double> inputPerMillionUsed() const { return perMillion(inputUsedUsd, inputTokensPerMonth); }
    std::optional<double> outputPerMillionUsed() const { return perMillion(outputUsedUsd, outputTokensPerMonth); }

    /// Sums of dollars and tokens: a tenant's or the plan's $/M is Σ $ / Σ tokens over its jobs.
    TokenCost& operator+=(const TokenCost& o)
    {
        inputTokensPerMonth += o.inputTokensPerMonth;
        outputTokensPerMonth += o.outputTokensPerMonth;
        inputUsd += o.inputUsd;
        outputUsd += o.outputUsd;
        inputUsedUsd += o.inputUsedUsd;
        outputUsedUsd += o.outputUsedUsd;
        return *this;
    }

    /// $ per million tokens; none where no token is served.
    static std::optional<double> perMillion(double usd, double tokens)
    {
        if (!(tokens > 0))
            return std::nullopt;
        return usd / tokens * 1e6;
    }
};

/// A serving job's token cost from its serving result, its inference spec (the prompt and
/// output lengths), its cost per month and the part of it sharing burns.
TokenCost tokenCostOf(const ServingResult& sv, const InferenceSpec& spec, double costPerMonthUsd,
                      double overheadPerMonthUsd);

/// "$/M tokens: input $0.12, output $1.40 (used: $0.05, $0.61)", "–" where no token is served.
std::string tokenCostText(const TokenCost& c);

} // namespace gp::calc
