// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#pragma once

#include "model/catalog.h"
#include "model/issue.h"

#include <QString>

#include <vector>

namespace gp::io {

/// Reads the bundled catalog (every *.json in DATA/catalog and DATA/models, in name order),
/// then merges `userCatalog` over it when that path is non-empty and the file exists:
/// an entry with a known id replaces the bundled one, a new id is added. Every figure
/// must be plausible; figures without a source are warnings. Every issue names its file
/// ("catalog/gpus.json", or the user catalog's path); on any error there is no catalog.
Result<Catalog> loadCatalog(const QString& dataDir, const QString& userCatalog = {});

/// Reads one catalog fragment into `catalog` (used by loadCatalog and its tests).
void readCatalogFragment(const QByteArray& json, Catalog& catalog, bool overrideExisting, Issues& out);

} // namespace gp::io
