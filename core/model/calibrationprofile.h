// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#pragma once

#include "issue.h"

#include <optional>
#include <string>
#include <vector>

namespace gp {

struct Catalog;
struct Scenario;

/// Where a calibrated parameter lives, i.e. which of the inputs the evaluation already reads it
/// changes (docs/calibration.md#parameters): a GPU's catalog entry ("efficiency", "sharing"), a
/// software-stack profile, or the scenario's assumption overrides.
enum class CalibrationScope
{
    Gpu,       ///< "gpu.ID.NAME": the catalog GPU's KernelEfficiency or its sharing calibration
    Stack,     ///< "stack.ID.NAME": the catalog software stack's figure
    Tenant,    ///< "tenant.ID.NAME": the scenario tenant's own figure (its busy fraction)
    Assumption ///< "assumption.KEY": the scenario's override of a registered assumption
};

/// A parameter's key split into its parts: "gpu.h100-sxm-80gb.memory_bound" →
/// {Gpu, "h100-sxm-80gb", "memory_bound"}; "assumption.runtime_overhead_gib" → {Assumption, "",
/// "runtime_overhead_gib"}.
struct CalibrationKey
{
    CalibrationScope scope = CalibrationScope::Assumption;
    std::string target; ///< the GPU or stack id; "" for an assumption
    std::string name;   ///< the parameter's name in its scope

    std::string toString() const;
    /// nullopt for a key of no known scope, or a name the scope does not calibrate.
    static std::optional<CalibrationKey> parse(const std::string& key);
};

/// The names each scope calibrates (docs/calibration.md#parameters).
const std::vector<std::string>& calibratedGpuNames();
const std::vector<std::string>& calibratedStackNames();
const std::vector<std::string>& calibratedTenantNames();
const std::vector<std::string>& calibratedAssumptionNames();

/// One fitted value with what it replaced and how well the data pinned it.
struct CalibratedValue
{
    std::string key;
    double value = 0.0;
    double defaultValue = 0.0; ///< what the plan used before (catalog or scenario)
    double minValue = 0.0, maxValue = 0.0;
    std::optional<double> stdError; ///< one standard error from the fit's covariance; nullopt: too few measurements
    bool operator==(const CalibratedValue&) const = default;
};

/// A calibration profile (docs/calibration.md#profiles): the parameters fitted to one cluster's
/// measurements on one software stack, named for them, versioned in the scenario library and
/// exported as a JSON file. Applying it changes only the inputs the evaluation reads anyway.
struct CalibrationProfile
{
    static constexpr int kFormatVersion = 1;

    std::string name;    ///< "CLUSTER/STACK" unless the user names it
    std::string cluster; ///< the scenario (cluster) it was fitted on
    std::string stack;   ///< the software stacks of the measured jobs, '+'-joined
    int version = 1;     ///< the library's version of this name (1 for a file never stored)
    std::string author;
    std::string createdAt;          ///< ISO 8601, UTC
    std::string measurementsDigest; ///< SHA-256 of the measurements file as written (io::measurementsToJson)
    int measurementCount = 0;
    std::vector<CalibratedValue> values;    ///< the fitted parameters (never one left at its default)
    std::vector<std::string> unconstrained; ///< keys the data did not constrain: left at their default
    double meanAbsErrorBefore = 0.0;        ///< mean |predicted/measured − 1| over the fitted measurements
    double meanAbsErrorAfter = 0.0;
    std::optional<double> heldOutErrorBefore; ///< the same by k-fold cross-validation, default parameters
    std::optional<double> heldOutErrorAfter;  ///< ... and each fold's fit
    int folds = 0;

    const CalibratedValue* find(const std::string& key) const
    {
        for (const CalibratedValue& v : values)
            if (v.key == key)
                return &v;
        return nullptr;
    }
    bool operator==(const CalibrationProfile&) const = default;
};

/// Sets one parameter where the evaluation reads it (the catalog's GPU or stack entry, the
/// scenario's assumptions). An error for a GPU or stack the catalog lacks or a key of no scope.
Status applyCalibratedValue(const std::string& key, double value, Scenario& scenario, Catalog& catalog);

/// What a parameter is before any calibration: the catalog's figure or the scenario's assumption
/// (its override, else the registry default); nullopt where the catalog lacks the GPU or stack.
std::optional<double> uncalibratedValue(const std::string& key, const Scenario& scenario, const Catalog& catalog);

/// Applies every value of `profile`; warnings (with the key as path) for values whose GPU or stack
/// the catalog lacks, which are left out.
Issues applyCalibration(const CalibrationProfile& profile, Scenario& scenario, Catalog& catalog);

/// Whether a job's figures read `key`: the GPU it runs on, its software stack, any assumption, or
/// any tenant's busy fraction (a co-tenant's weighs its mean step).
bool calibrationAppliesTo(const CalibrationKey& key, const std::string& gpuId, const std::string& stackId);

/// The profile's values a job's figures read (calibrationAppliesTo), in the profile's order.
std::vector<const CalibratedValue*> valuesFor(const CalibrationProfile& profile, const std::string& gpuId,
                                              const std::string& stackId);

/// One parameter's difference between two profiles (or versions of one).
struct CalibrationDifference
{
    std::string key;
    std::optional<double> before; ///< nullopt: not in the first profile
    std::optional<double> after;  ///< nullopt: not in the second
};

/// "NAME v3": how figures name the profile they were calibrated with.
std::string profileLabel(const CalibrationProfile& profile);

/// The parameters whose values differ (or that only one profile has), by key.
std::vector<CalibrationDifference> diffProfiles(const CalibrationProfile& a, const CalibrationProfile& b);

} // namespace gp
