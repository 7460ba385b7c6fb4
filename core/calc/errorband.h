// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#pragma once

#include "model/catalog.h"
#include "model/errorband.h"
#include "model/job.h"

#include <optional>
#include <string>
#include <vector>

namespace gp::calc {

struct JobResult;

/// How far a job's headline prediction (a training job's step time, a serving job's output tokens/s)
/// was off on published runs of its kind that nothing was fitted to (docs/model-reference.md, "Error
/// bands"; docs/validation.md, "Held-out validation").
struct ErrorBand
{
    std::optional<double> fraction; ///< the class's held-out mean |error|; none when not validated
    std::string metric;             ///< "step_time" or "output_tokens_per_s"
    std::string className;          ///< what it was matched to, e.g. "Hopper megatron dense-3d 70B"
    int rows = 0;                   ///< held-out rows behind the class
    std::string reason;             ///< why there is no band ("no held-out rows for Blackwell moe-ep")
};

/// The class key of a GPU: its catalog architecture ("Hopper").
std::string gpuGeneration(const GpuSpec& gpu);
/// The software family a job's figures stand for: its software stack (`software_stack`, else the
/// kind's default: megatron-lm, fsdp for FSDP / ZeRO-3, tensorrt-llm for serving), with
/// Megatron-LM and NeMo both "megatron".
std::string softwareFamilyOf(const Job& job);
/// "moe-ep" for a mixture of experts, "fully-sharded" for FSDP / ZeRO-3, else "dense-3d".
std::string parallelismKind(bool moe, bool fullyShardedParameters);
/// A model size as a class key: billions of parameters to three significant figures.
double sizeClassB(double parameters);
/// "Hopper megatron dense-3d 70B".
std::string describeClass(const ErrorBandClass& c);

/// The nearest validated class: same metric, GPU generation and parallelism kind, the same family
/// where one was validated, then the closest size in log distance. Null (with `reason`) when no class
/// has the metric, generation and parallelism kind.
const ErrorBandClass* nearestErrorBandClass(const std::vector<ErrorBandClass>& classes, const std::string& metric,
                                            const std::string& generation, const std::string& family,
                                            const std::string& parallelism, double sizeB, std::string& reason);

/// The band for one evaluated job from the catalog's shipped classes (Catalog::errorBands).
ErrorBand errorBandFor(const Job& job, const JobResult& result, const Catalog& catalog);

/// "± 12.3 % (held-out error, class Hopper megatron dense-3d 70B, 4 rows)" or "not validated: …".
std::string errorBandText(const ErrorBand& band);

} // namespace gp::calc
