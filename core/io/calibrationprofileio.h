// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#pragma once

#include "model/calibrationprofile.h"
#include "model/issue.h"
#include "model/measurement.h"

#include <QByteArray>
#include <QJsonObject>

#include <string>

namespace gp::io {

/// A calibration profile as its file and `--json` documents write it ({"format":
/// "gpuplan-calibration-profile", "format_version": 1, ...}; docs/calibration.md#profiles).
QJsonObject profileToJsonObject(const CalibrationProfile& profile);
/// The file: indented, ending in a newline; readCalibrationProfile reads it back unchanged.
QByteArray profileToJson(const CalibrationProfile& profile);

/// Reads a profile file; every problem with its JSON path (a value whose key is no calibrated
/// parameter, outside its bounds, a newer format). Nothing of a damaged profile is used.
Result<CalibrationProfile> readCalibrationProfile(const QByteArray& json);
/// The same for the profile as an object in another document (a scenario's `calibration`): each
/// problem's path begins with `path` ("calibration.parameters[0].key").
Result<CalibrationProfile> readCalibrationProfile(const QJsonObject& root, const std::string& path);

/// The SHA-256 (hex) of the measurements as measurementsToJson writes them: the profile's record
/// of what it was fitted to.
std::string measurementsDigest(const MeasurementSet& set);

} // namespace gp::io
