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

/// KPI values stored with each revision, keyed by stable names (docs/cli.md lists them): the
/// inventory, and the evaluation's cost decomposition under `cost_definition` kCostDefinition.
std::map<QString, double> kpisOf(const Scenario& scenario, const Catalog& catalog);

/// The definition of the cost figures new revisions store (`cost_definition`): 2 is issue 36's
/// one decomposition (`cost_useful_usd` + `cost_idle_usd` + `cost_overhead_usd` +
/// `cost_stranded_usd` = `cost_per_month_usd`; `waste_per_month_usd` the last three); 3 the same
/// with the sharing overhead from the penalty as the overhead of sharing against the same GPU
/// share dedicated (under 2 a slice's smaller size counted as penalty).
inline constexpr int kCostDefinition = 3;

/// How a revision's stored waste reads: its figures under the current definition; under the old
/// one (a `waste_per_month_usd` stored without `cost_definition`: idle, stranded memory and
/// slowdown that overlapped, so it could exceed the cost); under definition 2 (its sharing
/// overhead counted a slice's size as penalty); or not stored at all.
enum class StoredWaste
{
    Current,
    OldDefinition,
    SliceAsPenalty,
    None
};
StoredWaste storedWaste(const std::map<QString, double>& kpis);

/// Saves `scenario` as a new library scenario; returns its id.
Result<qint64> saveAsNew(store::ScenarioLibrary& lib, const Scenario& scenario, const Catalog& catalog,
                         const QString& note);

/// Stores `profile` as the next version of its name (1 for a new name), the stored document
/// carrying that version; the version, or why not.
Result<int> saveCalibrationProfile(store::ScenarioLibrary& lib, const CalibrationProfile& profile);

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
