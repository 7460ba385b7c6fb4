// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#pragma once

#include "calibration.h"

#include <QJsonObject>

namespace gp::study {

/// The fit's report as `calibrate --json` prints it (docs/cli.md#calibrate): converged or the
/// error, each parameter (fitted with its standard error, or left at its default and why), each
/// measurement before and after (and held out), the mean errors and the profile.
QJsonObject calibrationToJson(const CalibrationResult& result);

} // namespace gp::study
