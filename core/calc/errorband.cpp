// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#include "errorband.h"

#include "evaluation.h"
#include "model/format.h"
#include "model/softwarestack.h"
#include "model/validation.h"
#include "modelsize.h"

#include <cmath>
#include <limits>

namespace gp::calc {

std::string gpuGeneration(const GpuSpec& gpu) { return gpu.architecture.empty() ? gpu.id : gpu.architecture; }

std::string softwareFamilyOf(const Job& job)
{
    // The job's software stack (softwareStackOf: its own, else its kind's default) names the
    // family; Megatron-LM and NeMo share Megatron-Core's kernels and schedule.
    const std::string stack = softwareStackOf(job);
    return stack == "megatron-lm" || stack == "nemo" ? "megatron" : stack;
}

std::string parallelismKind(bool moe, bool fullyShardedParameters)
{
    if (moe)
        return "moe-ep";
    return fullyShardedParameters ? "fully-sharded" : "dense-3d";
}

double sizeClassB(double parameters)
{
    const double b = parameters / 1e9;
    if (b <= 0.0)
        return 0.0;
    // Three significant figures, divided by a power of ten last so that 0.125 is 0.125, not 0.12500000000000003.
    const int decimals = 2 - int(std::floor(std::log10(b)));
    if (decimals <= 0)
        return std::round(b / std::pow(10.0, -decimals)) * std::pow(10.0, -decimals);
    const double scale = std::pow(10.0, decimals);
    return std::round(b * scale) / scale;
}

std::string describeClass(const ErrorBandClass& c)
{
    const int decimals = c.sizeB >= 100.0 ? 0 : c.sizeB >= 10.0 ? 1 : c.sizeB >= 1.0 ? 2 : 3;
    std::string size = fmt::fixed(c.sizeB, decimals);
    // 70.6B, 8.03B, 0.125B: no trailing zeros.
    while (size.find('.') != std::string::npos && (size.back() == '0' || size.back() == '.'))
        size.pop_back();
    return c.generation + " " + c.family + " " + c.parallelism + " " + size + "B";
}

const ErrorBandClass* nearestErrorBandClass(const std::vector<ErrorBandClass>& classes, const std::string& metric,
                                            const std::string& generation, const std::string& family,
                                            const std::string& parallelism, double sizeB, std::string& reason)
{
    const ErrorBandClass* best = nullptr;
    double bestDistance = std::numeric_limits<double>::infinity();
    bool sameFamily = false;
    for (const ErrorBandClass& c : classes) {
        if (c.metric != metric || c.generation != generation || c.parallelism != parallelism)
            continue;
        const bool family0 = c.family == family;
        const double distance = std::abs(std::log(std::max(c.sizeB, 1e-3) / std::max(sizeB, 1e-3)));
        // The same family beats any size; within a family (or without one), the closest size.
        if (!best || (family0 && !sameFamily) || (family0 == sameFamily && distance < bestDistance)) {
            best = &c;
            bestDistance = distance;
            sameFamily = family0;
        }
    }
    if (!best)
        reason = "no held-out rows for " + generation + " " + parallelism +
                 (metric == "step_time" ? " training" : " serving");
    return best;
}

ErrorBand errorBandFor(const Job& job, const JobResult& result, const Catalog& catalog)
{
    ErrorBand band;
    band.metric = job.kind == JobKind::Inference ? "output_tokens_per_s" : "step_time";
    const GpuSpec* gpu = catalog.gpu(result.gpuId);
    const auto arch = architectureOf(job.model, catalog);
    if (!result.placed || !gpu || !arch) {
        band.reason = "no prediction: the job is not placed";
        return band;
    }
    if (job.kind == JobKind::Lora || job.kind == JobKind::Qlora) {
        band.reason = "no held-out rows for LoRA or QLoRA (the published runs with their configuration are "
                      "pre-training and serving)";
        return band;
    }
    if (catalog.errorBands.empty()) {
        band.reason = "no error bands shipped (validation/error-bands.json)";
        return band;
    }
    const std::string family = softwareFamilyOf(job);
    const bool sharded = job.kind != JobKind::Inference && (job.parallelism.fsdp || job.parallelism.zeroStage >= 3);
    const std::string kind = parallelismKind(arch->experts > 1, sharded);
    const ErrorBandClass* c = nearestErrorBandClass(catalog.errorBands, band.metric, gpuGeneration(*gpu), family, kind,
                                                    sizeClassB(parameterCount(*arch)), band.reason);
    if (!c)
        return band;
    band.fraction = c->meanAbsError;
    band.className = describeClass(*c) + (c->family == family ? "" : " (no " + family + " rows of this kind)");
    band.rows = c->rows;
    return band;
}

std::string errorBandText(const ErrorBand& band)
{
    if (!band.fraction)
        return "not validated: " + band.reason;
    return "± " + fmt::fixed(*band.fraction * 100.0, 1) + " % (held-out error, class " + band.className + ", " +
           std::to_string(band.rows) + (band.rows == 1 ? " row)" : " rows)");
}

} // namespace gp::calc
