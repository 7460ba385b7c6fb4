// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#pragma once

#include "catalog.h"
#include "issue.h"
#include "scenario.h"

#include <optional>
#include <string>

namespace gp {

/// Every semantic rule a scenario must follow against a catalog (ids resolve, sharing
/// configurations fit their GPU, parallelism fits the model, ...). Paths are JSON paths of
/// the scenario format (docs/scenario-format.md), so the same messages serve the file
/// reader, the CLI and the inspector.
Issues validateScenario(const Scenario& scenario, const Catalog& catalog);

/// The rules of one GPU's sharing configuration; `path` prefixes the reported paths.
Issues validateSharing(const SharingConfig& sharing, const GpuSpec& gpu, const std::string& path);

/// The rules of one job; `path` is e.g. "tenants[0].jobs[1]".
Issues validateJob(const Job& job, const Scenario& scenario, const Catalog& catalog, const std::string& path);

/// The rules of a model shape (layers, heads, sizes, experts); `path` prefixes the paths.
void validateArchitecture(const ModelArchitecture& arch, const std::string& path, Issues& out);

/// The job's model shape: its preset's, or its custom one. nullopt for an unknown preset.
std::optional<ModelArchitecture> architectureOf(const ModelChoice& model, const Catalog& catalog);

} // namespace gp
