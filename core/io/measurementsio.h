// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#pragma once

#include "model/issue.h"
#include "model/measurement.h"

#include <QByteArray>
#include <QJsonObject>

namespace gp::io {

/// Most measurements one file may hold (docs/measurements.md#limits).
inline constexpr std::size_t kMaxMeasurements = 1'000'000;

/// Reads a measurements file ({"format": "gpuplan-measurements", "format_version": 1, "scenario": ID,
/// "measurements": [...]}, docs/measurements.md). Problems go to `out` with their JSON path; a
/// measurement with a problem is left out (never defaulted).
MeasurementSet readMeasurements(const QByteArray& json, Issues& out);

/// One measurement as the file and `--json` documents write it.
QJsonObject toJson(const Measurement& m);

/// The file: indented, ending in a newline; readMeasurements reads it back unchanged.
QByteArray measurementsToJson(const MeasurementSet& set);

} // namespace gp::io
