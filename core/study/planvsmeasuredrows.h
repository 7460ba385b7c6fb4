// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#pragma once

// The rows of a plan-vs-measured comparison (planvsmeasured.h): what the plan predicts for each
// quantity, what is compared, and which parameter explains a difference. Internal to core/study.
#include "planvsmeasured.h"

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace gp::study::detail {

/// The field's summary, or nullptr when it has no samples.
const telemetry::Stats* statOf(const telemetry::Measured& m, const char* key);

/// Predicted beside measured, the difference and whether it is beyond `threshold` (and beyond the unit's noise floor).
MeasuredRow comparisonRow(const char* key, const char* label, const char* unit, std::optional<double> predicted,
                          const telemetry::Stats* measured, const char* statistic, double threshold);

/// Sets a flagged row's parameter: the one that would move the prediction towards the measurement.
void markExplained(MeasuredRow& r, bool serving);

/// The share of the time a job keeps its GPUs' engines busy, as the plan predicts it.
std::optional<double> busyOf(const calc::JobResult& r, const Job& j);

/// The share of a GPU a slot is: a MIG instance's compute slices of 7 ("3g.40gb@0"), else the GPU.
double slotFraction(const std::string& slot);

/// What a GPU (or a job's GPUs) sent over NVLink and PCIe, added up; nullopt when neither was measured.
std::optional<telemetry::Stats> linkSent(const telemetry::Measured& m);

/// The GB/s a training job sends per GPU as the plan predicts it: data-parallel and pipeline bytes
/// per step over the step time (tensor-parallel all-reduces are not in it); nullopt for serving.
std::optional<double> linkPredicted(const calc::JobResult& r);

/// A job's rows: memory per GPU, SM, tensor and DRAM activity, link load.
std::vector<MeasuredRow> jobRows(const calc::JobResult& r, const Job& j, const telemetry::Measured& m, double threshold,
                                 bool gpuWide);

/// A job's tokens/s row against `measured` (time -> tokens/s of its pods; nullptr: none).
MeasuredRow throughputRow(const calc::JobResult& r, const Job& j, const std::map<double, double>* measured,
                          double threshold);

} // namespace gp::study::detail
