// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#pragma once

#include "model/catalog.h"

#include <QString>

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

} // namespace gp::test
