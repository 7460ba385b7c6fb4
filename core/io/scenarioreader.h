// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#pragma once

#include "model/catalog.h"
#include "model/issue.h"
#include "model/scenario.h"

#include <QByteArray>
#include <QJsonObject>
#include <QString>

#include <optional>

namespace gp::io {

/// The outcome of reading a scenario: the scenario only when there is no error at all
/// (nothing is ever half-loaded), and every problem found, errors and warnings.
using ScenarioReadResult = Result<Scenario>;

/// Reads scenario JSON (docs/scenario-format.md), checks every field's type, then every
/// semantic rule against the catalog (model/validation.h).
ScenarioReadResult readScenario(const QByteArray& json, const Catalog& catalog);
/// The same from a parsed JSON object (what `gpuplan-cli edit` patches).
ScenarioReadResult readScenarioJson(const QJsonObject& root, const Catalog& catalog);
/// One "sharing" object (docs/scenario-format.md) with the same checks; `path` prefixes issues.
Result<SharingConfig> readSharingJson(const QJsonObject& object, const std::string& path, const Catalog& catalog);
ScenarioReadResult readScenarioFile(const QString& path, const Catalog& catalog);

} // namespace gp::io
