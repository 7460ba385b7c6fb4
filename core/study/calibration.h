// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#pragma once

#include "model/calibratedplan.h"
#include "model/calibrationprofile.h"
#include "model/catalog.h"
#include "model/issue.h"
#include "model/measurement.h"
#include "model/scenario.h"

#include <atomic>
#include <optional>
#include <string>
#include <vector>

namespace gp::study {

/// One plan and what was measured of its jobs. A calibration usually has one (the user's cluster);
/// several fit one set of parameters to many plans (e.g. one published run per plan).
struct CalibrationCase
{
    Scenario scenario;
    std::vector<Measurement> measurements;
    std::string label; ///< names the case in messages ("" with one case)
};

/// A parameter the fit may move, with its bounds (docs/calibration.md#parameters).
struct CalibrationParameter
{
    std::string key; ///< CalibrationKey::toString()
    double defaultValue = 0.0;
    double minValue = 0.0, maxValue = 0.0;
    std::string unit;
    std::string description;
};

struct CalibrationOptions
{
    /// Which parameters to fit: keys, names ("memory_bound" for every GPU's) or scope prefixes
    /// ("gpu.h100-sxm-80gb", "stack"); empty: every candidate.
    std::vector<std::string> params;
    int folds = 5;           ///< k of the cross-validation; leave-one-out when fewer measurements; 0: none
    int maxIterations = 200; ///< of the Levenberg–Marquardt loop
    double contradiction =
        1.5;          ///< two figures of one job, quantity and statistic further apart than this ratio contradict
    std::string name; ///< the profile's name; "" → "CLUSTER/STACK"
    std::string author;
    std::string createdAt; ///< ISO 8601; "" → now (the caller's clock, set by the CLI)
    std::string measurementsDigest;
    /// Set from another thread: the fit ends at its next iteration with `error` and no profile.
    const std::atomic<bool>* stop = nullptr;
};

/// One measurement before and after the fit.
struct MeasurementFit
{
    int caseIndex = 0;
    Measurement measurement;
    std::optional<double> before;  ///< the plan's figure with the default parameters
    std::optional<double> after;   ///< ... with the fitted ones
    std::optional<double> heldOut; ///< ... with the parameters fitted to the other folds
    std::string why;               ///< why there is no figure (study::predictedFor)
    double errorBefore() const { return before ? *before / measurement.value - 1.0 : 0.0; }
    double errorAfter() const { return after ? *after / measurement.value - 1.0 : 0.0; }
};

/// A candidate's outcome: fitted, or left at its default and why.
struct FittedParameter
{
    CalibrationParameter parameter;
    double value = 0.0;
    std::optional<double> stdError;
    bool fitted = false;
    bool atBound = false;
    std::string why; ///< not fitted: "no measurement depends on it", "not identifiable apart from …", "not selected"
};

/// What calibrate() found. `profile` only when the fit converged; otherwise `error` says why and
/// nothing may be stored.
struct CalibrationResult
{
    Issues issues; ///< problems of the input, each naming its measurement's source
    std::string error;
    std::vector<FittedParameter> parameters;
    std::vector<MeasurementFit> measurements;
    double meanAbsErrorBefore = 0.0, meanAbsErrorAfter = 0.0;
    std::optional<double> heldOutErrorBefore, heldOutErrorAfter;
    int folds = 0;
    int iterations = 0;
    int evaluations = 0;
    bool converged = false;
    std::string convergence; ///< how the fit ended, in words
    std::optional<CalibrationProfile> profile;

    bool ok() const { return profile.has_value(); }
};

/// The parameters the measurements of `cases` could move: per GPU model their jobs run on, per
/// software stack they use, and the scenario-wide assumptions; defaults as the plan has them.
std::vector<CalibrationParameter> candidateParameters(const std::vector<CalibrationCase>& cases,
                                                      const Catalog& catalog);

/// Fits the parameters by weighted least squares on relative errors, √w (predicted/measured − 1),
/// with each parameter within its bounds (boundedLeastSquares), re-evaluating every plan per trial
/// through the same inputs a calibration profile sets (applyCalibratedValue). Parameters no
/// measurement depends on, or that move the same figures as a better-determined one, stay at their
/// default and are named. Held-out error by k-fold cross-validation. Bad input (unknown jobs,
/// contradicting figures, nothing to fit) and a fit that does not converge give `error` and no
/// profile.
CalibrationResult calibrate(const std::vector<CalibrationCase>& cases, const Catalog& catalog,
                            const CalibrationOptions& options);
/// The usual case: one scenario and its measurements file.
CalibrationResult calibrate(const Scenario& scenario, const Catalog& catalog, const MeasurementSet& measurements,
                            const CalibrationOptions& options);

/// Each measurement beside the plan's figure for it (`before`; `after` too where a profile is
/// given, the plan evaluated with it applied): the comparison a report or a view of held-out
/// measurements needs without fitting anything.
std::vector<MeasurementFit> predictMeasurements(const std::vector<CalibrationCase>& cases, const Catalog& catalog,
                                                const CalibrationProfile* profile = nullptr);

} // namespace gp::study
