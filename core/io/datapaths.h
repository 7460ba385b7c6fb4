// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#pragma once

#include <QString>

namespace gp::io {

/// The folder with catalog/, models/ and samples/: $GPUPLAN_DATA_DIR if set, else the
/// installed share/gpuplan next to the executable, else the source tree's data/.
QString bundledDataDir();
/// The per-user application data folder (QStandardPaths::AppDataLocation), created on demand.
QString appDataDir();
/// The default scenario library: <app data>/library.sqlite.
QString defaultLibraryPath();
/// The user's catalog additions and overrides: <app data>/catalog.json (may not exist).
QString defaultUserCatalogPath();
/// The user guide (Markdown): the installed share/doc/gpuplan/user-guide.md next to the
/// executable, else the source tree's docs/user-guide.md; empty when neither exists.
QString userGuidePath();

} // namespace gp::io
