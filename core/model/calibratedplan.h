// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#pragma once

#include "calibrationprofile.h"
#include "catalog.h"
#include "scenario.h"

namespace gp {

/// A plan with a calibration profile applied: copies of the scenario and the catalog holding the
/// profile's values where the evaluation reads them (docs/calibration.md#parameters).
struct CalibratedPlan
{
    Scenario scenario; ///< its own `calibration` detached: the values are in
    Catalog catalog;
    Issues issues; ///< values whose GPU or stack the catalog lacks (left at their default)
};

/// `profile` applied to copies of `scenario` and `catalog` (what `--calibration` and a scenario's
/// own profile do).
CalibratedPlan withCalibration(const Scenario& scenario, const Catalog& catalog, const CalibrationProfile& profile);

/// fn(scenario, catalog) on the plan as its own calibration profile makes it (Scenario::calibration;
/// the scenario and catalog as they are when it has none): how every calculation that takes a
/// scenario and a catalog honours the profile. What fn returns must not point into its arguments.
template <typename Fn> auto withOwnCalibration(const Scenario& scenario, const Catalog& catalog, Fn&& fn)
{
    if (!scenario.calibration)
        return fn(scenario, catalog);
    const CalibratedPlan plan = withCalibration(scenario, catalog, *scenario.calibration);
    return fn(plan.scenario, plan.catalog);
}

} // namespace gp
