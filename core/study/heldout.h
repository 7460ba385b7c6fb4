// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#pragma once

#include "model/errorband.h"
#include "validationrows.h"

#include <QByteArray>
#include <QJsonArray>
#include <QJsonObject>

#include <map>
#include <string>
#include <vector>

namespace gp::study {

/// One source's error in one split (docs/validation-sources.md, "Rules for reporting": per source,
/// never pooled).
struct SourceSummary
{
    std::string split;
    std::string source;
    std::string metric;
    int rows = 0;              ///< predicted rows
    double meanAbsError = 0.0; ///< mean |predicted / measured − 1|
    double maxAbsError = 0.0;
    double meanError = 0.0; ///< signed: > 0 the model predicts too much (step time: too slow)
    // Serving rows that print a mean TTFT or ITL, where the model's queue keeps up.
    int ttftRows = 0, itlRows = 0;
    double ttftMeanAbsError = 0.0, itlMeanAbsError = 0.0;
};

/// What `gpuplan-cli validate-model` reports of a set of predictions.
struct ValidationReport
{
    std::vector<RowPrediction> rows;
    std::vector<SourceSummary> sources;         ///< by split, then source
    std::map<std::string, double> meanBySplit;  ///< split -> mean over its sources of their mean |error|
    std::map<std::string, int> skippedByReason; ///< reason -> rows
};

/// Per-source summaries of the predicted rows of `splitFilter` ("calibration", "heldout" or "all").
ValidationReport summarize(std::vector<RowPrediction> rows, const std::string& splitFilter);

/// The report as `validate-model --json` prints it: per row predicted, measured and error (or the skip
/// reason), per source, the mean across sources per split, and the skip reasons.
QJsonObject reportToJson(const ValidationReport& report);

/// A constant fitted to calibration rows (data/validation/fitted.json; docs/model-reference.md,
/// "Fitted constants").
struct FittedConstant
{
    std::string key; ///< e.g. "software_overhead.step_time.megatron"
    std::string description;
    double value = 1.0;
    std::string method;
    std::vector<std::string> sources;
    std::vector<std::string> rows; ///< the ids of the calibration rows it was fitted to
    bool applied = false;          ///< the shipped catalog carries it (else listed only)
    bool operator==(const FittedConstant&) const = default;
};

/// The fit: only the rows `split` calls calibration are predicted and used (held-out rows are never
/// evaluated, so none can move a constant). For each metric and software family with calibration rows,
/// the software-stack factor that minimises the squared log error, exp(mean ln(measured / predicted)):
/// a step-time multiplier for training, a throughput multiplier for serving (listed, not applied). And
/// the serving stacks' GEMM roofline exponent (kernels.h; applied: software-stacks.json carries it): the
/// value of kRooflineGrid whose predictions of the tensorrt-llm calibration rows have the least squared
/// log error.
std::vector<FittedConstant> fitConstants(const QJsonArray& trainingRows, const QJsonArray& servingRows,
                                         const ValidationSplit& split, const Catalog& catalog);

/// data/validation/fitted.json: the constants, how and to which rows they were fitted, whether the model
/// applies them, and what was fitted elsewhere (the A100 memory_bound on Korthikanti 2022).
QByteArray fittedToJson(const std::vector<FittedConstant>& constants);
/// The constants of a fitted.json (for the check that the shipped file is what the fit computes now).
std::vector<FittedConstant> readFitted(const QByteArray& json, Issues& out);

/// The error-band classes of the held-out predicted rows: metric, GPU generation, family, parallelism
/// kind and size; each with its mean and max |error|, rows and sources (calc/errorband.h looks them up).
std::vector<ErrorBandClass> errorBandClasses(const std::vector<RowPrediction>& rows);

/// The exponents the GEMM roofline fit tries (kernels.h: (compute^p + memory^p)^(1/p); large p is the max).
inline constexpr double kRooflineGrid[] = {1.0, 1.25, 1.5, 1.75, 2.0, 2.25, 2.5, 3.0, 4.0, 6.0, 8.0};
/// The fitted constant's key, and the stack it is fitted on.
inline constexpr const char* kRooflineKey = "software_stack.tensorrt-llm.gemm_roofline_exponent";

/// The command that regenerates the shipped files, for their `generated_by` and the tests' messages.
inline constexpr const char* kBandsCommand =
    "gpuplan-cli validate-model tests/data/validation/heldout/training.json "
    "tests/data/validation/heldout/serving.json --write-bands data/validation/error-bands.json "
    "--write-fitted data/validation/fitted.json";

} // namespace gp::study
