// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#pragma once

#include "model/issue.h"

#include <QJsonObject>

namespace gp::io {

/// The scenario format's migration chain (DESIGN.md §6): one step per format version, each
/// turning a document of version N into version N + 1, so a file of every earlier version
/// loads. The reader runs the chain before it reads anything else; the writer always writes
/// Scenario::kFormatVersion.
///
/// Steps:
///  - 1 → 2 (issue 37): `parallelism.ep`, `parallelism.cp` and `parallelism.stage_layers`,
///    a job's `software_stack`, and rack-scale NVLink domains in the topology arrive.
///    Every new field is optional with the default that means what a version-1 file meant
///    (ep 1, cp 1, even stages, the job kind's default stack, no rack domain), so the step
///    only stamps the version.
///  - 2 → 3 (issue 38): a job's optional `imported` object (source, workload, scope, members,
///    nodes, unknown: what `gpuplan-cli import-cluster` made it from and which of its fields are
///    placeholders). Absent means a job a person typed in, so the step only stamps the version.
///  - 3 → 4 (issue 38): the scenario's optional `calibration` and a tenant's `busy_fraction`.
///  - 4 → 5 (issue 37): a job's optional `parallelism.etp` (Megatron-Core's MoE parallel
///    folding: expert-tensor-parallel size) and `parallelism.recompute_modules` (what selective
///    recomputation recomputes) and `parallelism.recompute_layers` (full recomputation of the
///    first N blocks of each chunk). Absent means the experts follow tp and ep divides dp, and
///    selective recomputation recomputes the attention core, as in version 4, so the step only
///    stamps the version.
///  - 5 → 6 (issue 37): a job's optional `parallelism.moe_a2a_overlap` (Megatron-Core's
///    overlap_moe_expert_parallel_comm: the EP all-to-all hidden behind another micro-batch's
///    compute). Absent means not overlapped, as in version 5, so the step only stamps the version.
///
/// Returns the document at the current version, or an error naming `format_version` when a
/// step cannot migrate it. `fromVersion` must be a known version (1 … kFormatVersion).
Result<QJsonObject> migrateScenarioJson(QJsonObject root, int fromVersion);

/// The oldest version the chain reads.
inline constexpr int kOldestScenarioFormat = 1;

} // namespace gp::io
