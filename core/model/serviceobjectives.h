// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#pragma once

#include <array>
#include <string_view>

namespace gp {

/// Latency objectives a serving tenant may start from, by use case: the P99 time to first token
/// and time per output token that MLPerf Inference sets for its LLM server scenarios
/// (MLCommons, inference loadgen/mlperf.conf: `llama2-70b.Server` 2,000 / 200 ms,
/// `llama2-70b-interactive.Server` 450 / 40 ms, `llama3_1-405b.Server` 6,000 / 175 ms; Server
/// latencies are at the 99th percentile). Add Job offers them (issue 36); the tenant's
/// sla.ttft_p99_ms and sla.itl_p99_ms hold what was chosen, editable like any field.
struct ServiceObjectivePreset
{
    std::string_view key;   ///< "chat"
    std::string_view label; ///< "Chat"
    double ttftP99Ms;
    double itlP99Ms;
    std::string_view source; ///< the MLPerf benchmark whose limits these are
};

inline constexpr std::array<ServiceObjectivePreset, 3> kServiceObjectivePresets{{
    {"chat", "Chat", 2000.0, 200.0, "MLPerf Inference, Llama 2 70B server"},
    {"interactive", "Interactive (code, agents)", 450.0, 40.0, "MLPerf Inference, Llama 2 70B interactive"},
    {"long-prompts", "Long prompts (summaries, RAG)", 6000.0, 175.0, "MLPerf Inference, Llama 3.1 405B server"},
}};

} // namespace gp
