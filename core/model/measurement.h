// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#pragma once

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace gp {

/// What a measurement measured (docs/measurements.md#quantities). The names are the contract of the
/// measurements file ("quantity") and of `--json` documents.
enum class MeasuredQuantity
{
    StepTimeS,        ///< "step_time_s": one training iteration, seconds
    TrainTokensPerS,  ///< "train_tokens_per_s": training tokens per second, whole job
    TflopsPerGpu,     ///< "tflops_per_gpu": model TFLOP/s per GPU as the trainer reports it
    MemoryGib,        ///< "memory_gib": device memory per GPU, GiB (peak)
    OutputTokensPerS, ///< "output_tokens_per_s": serving output tokens per second, whole deployment
    RequestsPerS,     ///< "requests_per_s": completed requests per second
    TtftMs,           ///< "ttft_ms": time to first token, milliseconds
    ItlMs,            ///< "itl_ms": inter-token latency (time per output token after the first), ms
    SmActivity,       ///< "sm_activity": DCGM_FI_PROF_GR_ENGINE_ACTIVE, fraction
    PowerW,           ///< "power_w": board power per GPU, watts
};

/// Which statistic of a distribution `value` is.
enum class MeasuredStatistic
{
    Mean, ///< "mean" (also: the single figure a tool prints)
    P50,  ///< "p50"
    P90,  ///< "p90"
    P99,  ///< "p99"
    Max,  ///< "max"
};

std::string_view quantityName(MeasuredQuantity q);
std::string_view quantityUnit(MeasuredQuantity q);
std::optional<MeasuredQuantity> quantityFromName(std::string_view name);
std::string_view statisticName(MeasuredStatistic s);
std::optional<MeasuredStatistic> statisticFromName(std::string_view name);

/// One figure measured on the user's cluster or benchmark, tied to the plan's job it measured
/// (docs/measurements.md). A measurement is never a default: it exists only where a file or a
/// series said so.
struct Measurement
{
    std::string jobId; ///< the scenario's job it measured
    MeasuredQuantity quantity = MeasuredQuantity::StepTimeS;
    MeasuredStatistic statistic = MeasuredStatistic::Mean;
    double value = 0.0;
    /// Relative confidence in the fit (1 / variance, up to scale); 1 unless the source says
    /// how noisy it is (e.g. samples of a Prometheus range).
    double weight = 1.0;
    std::string tool;   ///< what wrote it, with version where known: "trtllm-bench 0.17", "vllm bench serve"
    std::string source; ///< where: "FILE" or "FILE:LINE" or "FILE: json.path" or "prometheus URL query"
    std::string when;   ///< when it was measured (ISO 8601), "" when the source does not say
    /// What the source says it ran (model, tp, pp, batch, isl, osl, concurrency, gpu ...), as written
    /// there: kept so that a mismatch with the job can be named.
    std::map<std::string, std::string> config;
};

/// A set of measurements as stored in a measurements file ("format": "gpuplan-measurements").
struct MeasurementSet
{
    std::string scenarioId; ///< the scenario whose job ids `items` use ("" = not stated)
    std::vector<Measurement> items;
};

} // namespace gp
