// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#pragma once

#include "model/catalog.h"
#include "model/scenario.h"

#include <QString>

#include <optional>

namespace gp::test {

/// $GPUPLAN_DATA_DIR (the repository's data/, set by CTest).
QString dataDir();
/// tests/data, the fixtures.
QString fixturesDir();
/// The repository root.
QString sourceDir();
/// The bundled catalog; fails the test (QFAIL-style abort) when it does not load cleanly.
const Catalog& bundledCatalog();
/// Every sample file in data/samples, absolute paths.
QStringList sampleFiles();
/// A published run of tests/data/validation (written by make_scenarios.py), read with the
/// bundled catalog; nullopt (the caller fails) when it does not load.
std::optional<Scenario> validationRun(const QString& name);

/// `nodes` nodes of the catalog's node template `templateId` (ids and names n0, n1, …), each
/// shared by `sharing`, at $2 per GPU-hour; no tenants. The template must exist.
Scenario templateCluster(const Catalog& catalog, const std::string& templateId, int nodes,
                         const SharingConfig& sharing = {});

/// True in a sanitizer build (AddressSanitizer or ThreadSanitizer; GCC defines these macros):
/// a test whose point is not its input's size uses a smaller one there, where everything runs
/// five to fifteen times slower (docs/testing.md).
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
inline constexpr bool kSanitized = true;
#else
inline constexpr bool kSanitized = false;
#endif

} // namespace gp::test
