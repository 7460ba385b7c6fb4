// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#pragma once

#include "model/scenario.h"

#include <QByteArray>
#include <QJsonObject>

namespace gp::io {

/// The scenario as JSON format v1 (docs/scenario-format.md). Deterministic: keys sorted,
/// 4-space indentation, shortest round-trip numbers, every field written; so reading a
/// written file and writing it again gives the same bytes.
QByteArray writeScenario(const Scenario& scenario);
QJsonObject scenarioToJson(const Scenario& scenario);

/// One item as it appears in the scenario file (a tenant with its jobs): what the document
/// compares to name the fields an edit changed, and what `gpuplan-cli edit` patches.
QJsonObject toJson(const Group& group);
QJsonObject toJson(const Node& node);
QJsonObject toJson(const Switch& sw);
QJsonObject toJson(const Link& link);
QJsonObject toJson(const Tenant& tenant);
QJsonObject toJson(const Job& job);
/// A job's `model`: {"preset": id}, or the custom shape (MoE and MLA fields only where set).
QJsonObject toJson(const ModelChoice& model);

} // namespace gp::io
