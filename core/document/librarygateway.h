// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#pragma once

#include "calc/inventory.h"
#include "io/scenarioreader.h"
#include "model/catalog.h"
#include "model/scenario.h"
#include "store/scenariolibrary.h"

#include <QString>

#include <memory>

#include <map>
#include <optional>

namespace gp::document {

/// The one path between scenarios and the library, shared by the workbench and the CLI:
/// a scenario is saved as its JSON plus its KPI values, in one transaction (architecture.md §6).

/// KPI values stored with each revision, keyed by stable names (docs/cli.md lists them).
std::map<QString, double> kpisOf(const Scenario& scenario, const Catalog& catalog);

/// Saves `scenario` as a new library scenario; returns its id.
Result<qint64> saveAsNew(store::ScenarioLibrary& lib, const Scenario& scenario, const Catalog& catalog,
                         const QString& note);

/// Saves `scenario` as the next revision of library scenario `id` (its JSON and KPI values in
/// one transaction). `baseRevision` is the revision the edits started from: when another save
/// came after it, nothing is written and the failure is a conflict (ScenarioLibrary::isConflict,
/// saying who saved which revision when). The only path that adds a revision, for the workbench,
/// its save-conflict box and `gpuplan-cli library save` alike.
Result<int> saveRevision(store::ScenarioLibrary& lib, qint64 id, const Scenario& scenario, const Catalog& catalog,
                         const QString& note, std::optional<int> baseRevision);

/// Reads the JSON of a library scenario (latest, or `revision`) through the full validator,
/// named as the library names it now.
io::ScenarioReadResult loadFromLibrary(store::ScenarioLibrary& lib, qint64 id, const Catalog& catalog,
                                       std::optional<int> revision = {});

/// Opens the library at `path` and, if it holds no scenario yet (first start), seeds it
/// with every valid sample in `samplesDir` in one transaction (all of them or none, even when
/// killed; ScenarioLibrary::seedIfEmpty); or why it cannot.
Result<std::unique_ptr<store::ScenarioLibrary>> openLibrary(const QString& path, const Catalog& catalog,
                                                            const QString& samplesDir);

class Document;

/// Rebuilds a document from an autosaved draft, validated like any file: the revision it
/// started from with the draft on top as one undoable step ("Restore autosaved work"), or,
/// when that scenario or revision is gone, the draft alone. Either way it is unsaved. When the
/// draft cannot be read, the first issue names it and the rest say why, with their JSON paths.
Result<std::unique_ptr<Document>> restoreDraft(store::ScenarioLibrary& lib, const store::Draft& draft,
                                               const Catalog& catalog);

} // namespace gp::document
