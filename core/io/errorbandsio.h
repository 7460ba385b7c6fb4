// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#pragma once

#include "model/errorband.h"
#include "model/issue.h"

#include <QByteArray>

#include <vector>

namespace gp::io {

/// The classes of data/validation/error-bands.json ({"format_version": 1, "classes": [...]}); problems
/// go to `out` with their JSON path, and a class with a problem is left out.
std::vector<ErrorBandClass> readErrorBands(const QByteArray& json, Issues& out);

/// The file `gpuplan-cli validate-model --write-bands` writes: the classes in the order given, with how
/// they were made (`generatedBy`), indented, ending in a newline.
QByteArray errorBandsToJson(const std::vector<ErrorBandClass>& classes, const std::string& generatedBy);

} // namespace gp::io
