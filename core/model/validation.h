// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#pragma once

#include "catalog.h"
#include "issue.h"
#include "scenario.h"

#include <optional>
#include <string>
#include <string_view>

namespace gp {

/// What a piece of text is, for its rules (model/limits.h): ids and names are short and hold no
/// control character at all (not even a tab or a line break: they reach terminals, tables, SVG
/// and file names); other text (descriptions, sources) is longer and may break lines.
enum class TextKind
{
    Id,
    Name,
    Text
};

/// Why `text` cannot be a `kind` (too long, a control character, with its position), or an
/// empty string when it can. `text` is UTF-8; lengths count characters.
std::string textProblem(std::string_view text, TextKind kind);

/// Every semantic rule a scenario must follow against a catalog (ids resolve, sharing
/// configurations fit their GPU, parallelism fits the model, ...). Paths are JSON paths of
/// the scenario format (docs/scenario-format.md), so the same messages serve the file
/// reader, the CLI and the inspector.
Issues validateScenario(const Scenario& scenario, const Catalog& catalog);

/// The rules of rack-scale NVLink domains (groups of kind "nvlink_domain"): the rack template,
/// its tray count, one tray template and GPU, no nesting (rackvalidation.cpp).
void validateRackDomains(const Topology& topo, const Catalog& catalog, Issues& out);

/// The rules of one GPU's sharing configuration; `path` prefixes the reported paths.
Issues validateSharing(const SharingConfig& sharing, const GpuSpec& gpu, const std::string& path);

/// The rules of one job; `path` is e.g. "tenants[0].jobs[1]".
Issues validateJob(const Job& job, const Scenario& scenario, const Catalog& catalog, const std::string& path);

/// The rules of a model shape (layers, heads, sizes, experts); `path` prefixes the paths.
void validateArchitecture(const ModelArchitecture& arch, const std::string& path, Issues& out);

/// The job's model shape: its preset's, or its custom one. nullopt for an unknown preset.
std::optional<ModelArchitecture> architectureOf(const ModelChoice& model, const Catalog& catalog);

} // namespace gp
