// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#pragma once

#include "calc/evaluation.h"
#include "model/catalog.h"
#include "model/job.h"
#include "model/measurement.h"

#include <optional>
#include <string>

namespace gp::study {

/// What the plan predicts for the quantity and statistic of a measurement of job `j`, from its
/// evaluated result `r` (docs/measurements.md#what-is-compared): nullopt, with the reason in `why`,
/// where the model has no such figure (a training quantity of a serving job, a P99 of a
/// training step, a job that was not placed). A training job's mean step on a GPU shared without
/// isolation is weighed by its co-tenants' busy fractions (calc::JobResult::meanStepFactor).
std::optional<double> predictedFor(const calc::JobResult& r, const Job& j, const Catalog& catalog,
                                   MeasuredQuantity quantity, MeasuredStatistic statistic, std::string* why = nullptr);

} // namespace gp::study
