// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#pragma once

#include "calc/evaluation.h"
#include "model/catalog.h"
#include "model/measurement.h"
#include "model/scenario.h"

#include <optional>
#include <string>
#include <vector>

namespace gp::study {

/// One figure of a measurements file (docs/measurements.md) beside the plan's figure for it.
struct MeasurementVsPlan
{
    Measurement measured;
    std::string jobName; ///< "" when the plan has no job of that id
    std::string tenantId;
    std::optional<double> predicted;  ///< study::predictedFor; nullopt with `why`
    std::optional<double> difference; ///< (measured - predicted) / predicted
    bool flagged = false;             ///< beyond the threshold
    std::string parameter;            ///< flagged: the model parameter that would explain it
    std::string why;                  ///< no prediction: why not
};

/// A measurements file put beside the plan: what the workbench's Plan vs Measured view shows
/// from a file and what the report's "Plan vs measured" page lists.
struct MeasurementsVsPlan
{
    std::string source; ///< the file read
    double threshold = 0.25;
    std::vector<MeasurementVsPlan> rows;
    int flagged = 0;
    int unknownJobs = 0; ///< measurements of a job id the plan does not have
};

/// Each measurement beside `evaluation`'s figure for it (`evaluation` is calc::evaluate of
/// `scenario`). A row is flagged when |measured − predicted| > threshold × |predicted|.
MeasurementsVsPlan compareMeasurements(const Scenario& scenario, const Catalog& catalog,
                                       const calc::Evaluation& evaluation, const MeasurementSet& set, double threshold);

/// The parameter of the model that would move the plan's figure for `q` towards a measurement
/// that is `higher` (or lower) than predicted (docs/measurements.md#what-is-compared).
std::string explainingParameter(MeasuredQuantity q, bool serving, bool higher);

} // namespace gp::study
