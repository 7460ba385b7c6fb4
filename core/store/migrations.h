// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#pragma once

#include <QStringList>

#include <vector>

namespace gp::store {

/// The statements that take a library from user_version N-1 to N, for N = 1, 2, ...
/// Append a step for each schema change; never edit a shipped one (old files must keep
/// opening: tests/data holds a version-1 library).
const std::vector<QStringList>& migrationSteps();

} // namespace gp::store
