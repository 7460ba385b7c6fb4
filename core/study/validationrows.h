// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#pragma once

#include "model/catalog.h"
#include "model/issue.h"

#include <QJsonArray>
#include <QJsonObject>

#include <optional>
#include <string>
#include <vector>

namespace gp::study {

/// Which rows of the published measurements a fit may see (data/validation/split.json;
/// docs/validation-sources.md, "Proposed calibration / held-out split"). Rules are tried in order;
/// the first whose every given condition holds gives the row's split; no rule: held out. A row the
/// repository's tests already used (`used_in_existing_validation`) is calibration whatever the rules say.
struct SplitRule
{
    std::string source;
    std::vector<std::string> gpus;              ///< gpu_catalog_id, any of; empty: any
    std::vector<std::string> precisionPrefixes; ///< precision or weights_precision starts with, any of
    bool denseOnly = false;                     ///< no expert parallelism (ep ≤ 1)
    std::string split;                          ///< "calibration" or "heldout"
    std::string why;
};

struct ValidationSplit
{
    std::vector<SplitRule> rules;
    /// Sources fitted outside these files (Korthikanti 2022, the A100 memory_bound): listed for the report.
    std::vector<std::string> calibrationElsewhere;
    std::string splitOf(const QJsonObject& row) const;
};

/// data/validation/split.json; problems with their JSON path.
Result<ValidationSplit> readValidationSplit(const QByteArray& json);
/// The shipped split: <data folder>/validation/split.json.
Result<ValidationSplit> loadValidationSplit(const QString& dataDir);

/// One row of tests/data/validation/heldout/{training,serving}.json, predicted or skipped.
struct RowPrediction
{
    int index = 0;      ///< position in the file's array
    std::string id;     ///< the row's id
    std::string source; ///< the publication
    std::string split;  ///< "calibration" or "heldout"
    bool serving = false;
    std::string skipReason; ///< why there is no prediction; empty when predicted
    std::string metric;     ///< "step_time" (s) or "output_tokens_per_s" (whole deployment)
    double predicted = 0.0;
    double measured = 0.0;    ///< training: the step time the printed tokens/s per GPU implies
    double error = 0.0;       ///< predicted / measured − 1
    std::string measuredFrom; ///< the row's field the measured value came from
    std::optional<double> predictedTtftS, measuredTtftS, predictedItlS, measuredItlS;
    // The class the row counts in (calc/errorband.h).
    std::string generation, family, parallelism;
    double sizeB = 0.0;
    QJsonObject stepBreakdownS; ///< training: where the predicted step went (evaluate --json's step_breakdown_s)

    bool predictedOk() const { return skipReason.empty(); }
};

/// The software family of a row from its `framework` or `engine` (megatron, fsdp, torchtitan; tensorrt-llm,
/// vllm, sglang); empty when none applies.
std::string rowFamily(const QJsonObject& row, bool serving);

/// The software-stack profile a training row's framework runs on (catalog "software_stacks"),
/// whatever its sharding: "fsdp" for PyTorch FSDP trainers (Composer / llm-foundry), "torchtitan",
/// "nemo" for NeMo, "megatron-lm" for the other Megatron-Core trainers (Megatron-LM,
/// Megatron-Bridge, Megatron-FSDP among them); "" where the framework is none of these.
std::string trainingStackOf(const QJsonObject& row);

/// Checks the shape of a rows file: an array of objects, each with the fields a prediction reads (null
/// allowed where the source prints nothing). Errors name the row ("[12].gpu_count").
Issues checkRows(const QJsonArray& rows);

/// Predicts every row with the shipped catalog and assumptions (nothing set per row, nothing fitted
/// to a measurement): a scenario in memory like tests/data/validation/make_scenarios.py writes (the
/// row's GPU in its catalog node template, enough nodes under a non-blocking leaf/spine fabric, one job
/// with the row's model, parallelism, batch, precision and lengths), then calc::evaluate. Rows that
/// cannot be predicted carry a reason. `rows` must have passed checkRows. Rows are evaluated in parallel.
std::vector<RowPrediction> predictRows(const QJsonArray& rows, const ValidationSplit& split, const Catalog& catalog);

/// The scenario predictRows builds for one row (a scenario file's JSON), or why none (the skip reason).
Result<QJsonObject> scenarioForRow(const QJsonObject& row, bool serving, const Catalog& catalog);

} // namespace gp::study
