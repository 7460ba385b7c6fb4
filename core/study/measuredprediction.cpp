// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#include "measuredprediction.h"

#include "calc/perfmodel.h"
#include "model/units.h"

namespace gp::study {

namespace {

std::optional<double> none(std::string* why, std::string reason)
{
    if (why)
        *why = std::move(reason);
    return std::nullopt;
}

bool isTail(MeasuredStatistic s)
{
    return s == MeasuredStatistic::P90 || s == MeasuredStatistic::P99 || s == MeasuredStatistic::Max;
}

} // namespace

std::optional<double> predictedFor(const calc::JobResult& r, const Job& j, const Catalog& catalog,
                                   MeasuredQuantity quantity, MeasuredStatistic statistic, std::string* why)
{
    if (!r.placed)
        return none(why, "the plan does not place the job" + (r.reason.empty() ? std::string() : ": " + r.reason));
    const bool serving = r.serving.has_value();
    const std::string name(quantityName(quantity));
    switch (quantity) {
    case MeasuredQuantity::MemoryGib: return r.memory.totalBytes() / kGiB;
    case MeasuredQuantity::StepTimeS:
    case MeasuredQuantity::TrainTokensPerS:
    case MeasuredQuantity::TflopsPerGpu: {
        if (serving || !j.training)
            return none(why, name + " is a training figure and the job serves");
        if (isTail(statistic))
            return none(why, "the model predicts the mean step, not its " + std::string(statisticName(statistic)));
        // The mean over its co-tenants' busy and idle time (the Monte Carlo's expectation): the
        // plan's step assumes every co-tenant busy; each is, with its tenant's busy fraction.
        const double mean = r.meanStepFactor();
        if (quantity == MeasuredQuantity::StepTimeS)
            return r.perf.stepTimeS * mean;
        if (quantity == MeasuredQuantity::TrainTokensPerS)
            return r.perf.tokensPerS / mean;
        const GpuSpec* gpu = catalog.gpu(r.gpuId);
        if (!gpu)
            return none(why, "GPU model '" + r.gpuId + "' is not in the catalog");
        return r.perf.mfu * calc::peakFlops(*gpu, j.precision) / 1e12 / mean;
    }
    case MeasuredQuantity::OutputTokensPerS:
    case MeasuredQuantity::RequestsPerS:
    case MeasuredQuantity::TtftMs:
    case MeasuredQuantity::ItlMs: {
        if (!serving)
            return none(why, name + " is a serving figure and the job trains");
        const calc::ServingResult& s = *r.serving;
        const bool tail = isTail(statistic);
        if (quantity == MeasuredQuantity::OutputTokensPerS || quantity == MeasuredQuantity::RequestsPerS) {
            if (tail)
                return none(why,
                            "the model predicts mean throughput, not its " + std::string(statisticName(statistic)));
            return quantity == MeasuredQuantity::OutputTokensPerS ? s.outputTokensPerS : s.requestsPerS;
        }
        if (statistic == MeasuredStatistic::P90 || statistic == MeasuredStatistic::Max)
            return none(why, "the model predicts the mean and P99 of " + name + ", not its " +
                                 std::string(statisticName(statistic)));
        // P50 is compared with the mean: the model's latency distributions are not skewed enough
        // at the loads it judges for the two to differ beyond its own error (docs/measurements.md).
        if (quantity == MeasuredQuantity::TtftMs)
            return 1000.0 * (tail ? s.ttftP99S : s.ttftS);
        return 1000.0 * (tail ? s.itlP99S : s.itlS);
    }
    case MeasuredQuantity::SmActivity:
    case MeasuredQuantity::PowerW: return none(why, name + " is a telemetry figure: compare it with check-plan");
    }
    return none(why, "unknown quantity");
}

} // namespace gp::study
