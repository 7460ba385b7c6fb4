// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#pragma once

#include "sqlsupport.h"

#include <QStringList>

#include <vector>

namespace gp::store {

/// The statements that take a library from schema version N-1 to N, for N = 1, 2, ..., in the
/// backend's dialect (the same tables and columns; SQLite keeps the version in PRAGMA
/// user_version, PostgreSQL in the table gpuplan_schema). Append a step for each schema change,
/// to both lists; never edit a shipped one (old files must keep opening: tests/data holds a
/// version-1 library).
const std::vector<QStringList>& migrationSteps(detail::Dialect dialect);

} // namespace gp::store
