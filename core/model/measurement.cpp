// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#include "measurement.h"

#include <array>
#include <utility>

namespace gp {

namespace {

struct QuantityInfo
{
    MeasuredQuantity quantity;
    std::string_view name;
    std::string_view unit;
};

constexpr std::array<QuantityInfo, 10> kQuantities{{
    {MeasuredQuantity::StepTimeS, "step_time_s", "s"},
    {MeasuredQuantity::TrainTokensPerS, "train_tokens_per_s", "tokens/s"},
    {MeasuredQuantity::TflopsPerGpu, "tflops_per_gpu", "TFLOP/s"},
    {MeasuredQuantity::MemoryGib, "memory_gib", "GiB"},
    {MeasuredQuantity::OutputTokensPerS, "output_tokens_per_s", "tokens/s"},
    {MeasuredQuantity::RequestsPerS, "requests_per_s", "requests/s"},
    {MeasuredQuantity::TtftMs, "ttft_ms", "ms"},
    {MeasuredQuantity::ItlMs, "itl_ms", "ms"},
    {MeasuredQuantity::SmActivity, "sm_activity", "fraction"},
    {MeasuredQuantity::PowerW, "power_w", "W"},
}};

constexpr std::array<std::pair<MeasuredStatistic, std::string_view>, 5> kStatistics{{
    {MeasuredStatistic::Mean, "mean"},
    {MeasuredStatistic::P50, "p50"},
    {MeasuredStatistic::P90, "p90"},
    {MeasuredStatistic::P99, "p99"},
    {MeasuredStatistic::Max, "max"},
}};

const QuantityInfo* infoOf(MeasuredQuantity q)
{
    for (const auto& i : kQuantities)
        if (i.quantity == q)
            return &i;
    return nullptr;
}

} // namespace

std::string_view quantityName(MeasuredQuantity q)
{
    const auto* i = infoOf(q);
    return i ? i->name : std::string_view("?");
}

std::string_view quantityUnit(MeasuredQuantity q)
{
    const auto* i = infoOf(q);
    return i ? i->unit : std::string_view("?");
}

std::optional<MeasuredQuantity> quantityFromName(std::string_view name)
{
    for (const auto& i : kQuantities)
        if (i.name == name)
            return i.quantity;
    return std::nullopt;
}

std::string_view statisticName(MeasuredStatistic s)
{
    for (const auto& [stat, name] : kStatistics)
        if (stat == s)
            return name;
    return "?";
}

std::optional<MeasuredStatistic> statisticFromName(std::string_view name)
{
    for (const auto& [stat, n] : kStatistics)
        if (n == name)
            return stat;
    return std::nullopt;
}

} // namespace gp
