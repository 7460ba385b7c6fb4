// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#pragma once

#include "model/calibrationprofile.h"

#include <QCommandLineParser>
#include <QJsonObject>
#include <QString>

#include <optional>

namespace gp::calc {
struct Evaluation;
}

namespace gp::cli {

/// A profile named on the command line: an existing file (PROFILE.json), else a library profile
/// NAME or NAME@VERSION in --db. Problems are printed naming the file or the library.
std::optional<CalibrationProfile> loadProfileOrReport(const QCommandLineParser& parser, const QString& spec);

/// Reads --calibration where given: false (the problem printed) when it cannot be used; `profile`
/// stays empty without the option.
bool readCalibrationOption(const QCommandLineParser& parser, std::optional<CalibrationProfile>& profile);

/// Applies the profile's GPU and stack values to `catalog` (once per catalog) and its assumptions to
/// `scenario`; warnings for values the catalog has no place for are printed naming --calibration.
void applyProfile(const QCommandLineParser& parser, const CalibrationProfile& profile, Scenario& scenario,
                  Catalog* catalog);

/// Stores `profile` as the next version of its name in the library (--db); the version, or
/// nullopt after saying why.
std::optional<int> saveProfileToLibrary(const QCommandLineParser& parser, const CalibrationProfile& profile);

/// What `--json` outputs carry of an applied profile: {"profile", "version", "parameters": [{key,
/// value, default}]} (docs/calibration.md#where-a-number-came-from).
QJsonObject calibrationUsedJson(const CalibrationProfile& profile);

/// Adds "calibrated_parameters" (the profile's keys that feed the job's figures: its GPU's, its
/// stack's, the scenario-wide ones, each with the profile's name) to each job of an evaluate --json
/// document.
void markCalibratedJobs(QJsonObject& evaluation, const CalibrationProfile& profile, const calc::Evaluation& ev,
                        const Scenario& scenario);

} // namespace gp::cli
