// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#pragma once

#include "calibration.h"

#include <optional>
#include <string>
#include <vector>

namespace gp::study {

/// A measurement the fit uses: which case and measurement, and its weight.
struct UsedMeasurement
{
    int caseIndex = 0;
    int index = 0; ///< in the case's measurements
    double value = 0.0;
    double weight = 1.0;
};

/// Re-evaluates the plans of a calibration with a set of parameter values, through the inputs a
/// profile sets (applyCalibratedValue on a copy of the scenario and the catalog): one trial of the fit.
class CalibrationEvaluator
{
public:
    CalibrationEvaluator(const std::vector<CalibrationCase>& cases, const Catalog& catalog,
                         std::vector<UsedMeasurement> used)
        : mCases(cases), mCatalog(catalog), mUsed(std::move(used))
    {
    }

    const std::vector<UsedMeasurement>& used() const { return mUsed; }

    /// The plan's figure for each used measurement with `keys` set to `values` (nullopt where it
    /// has none); only cases with `caseMask` set are evaluated (empty mask: all).
    std::vector<std::optional<double>> predict(const std::vector<std::string>& keys, const std::vector<double>& values,
                                               const std::vector<bool>& caseMask = {},
                                               std::vector<std::string>* why = nullptr) const;

private:
    const std::vector<CalibrationCase>& mCases;
    const Catalog& mCatalog;
    std::vector<UsedMeasurement> mUsed;
};

} // namespace gp::study
