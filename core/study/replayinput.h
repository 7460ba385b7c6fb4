// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#pragma once

#include "model/catalog.h"
#include "model/issue.h"
#include "model/scenario.h"
#include "model/trace.h"

#include <QString>

#include <vector>

namespace gp::study {

/// What a placement replay runs on — a trace's node and task files, or a scenario's cluster and
/// job mix — read and checked as `gpuplan-cli replay`, the workbench's Placement Replay and replay
/// sweeps need it: every problem with file, line and column (or the scenario's path) and why; `ok()`
/// is false when one of them is an error.
struct ReplayInput
{
    std::vector<TraceNode> nodes;
    std::vector<TraceTask> tasks;
    QString name; ///< the task file or the scenario, for titles and messages
    Issues issues;
    bool ok() const { return !hasErrors(issues); }
    double gpus() const;
};

/// Reads `nodesCsv` and `tasksCsv`; refuses task GPU models no node has, and a replay that would
/// place more than sim::kMaxReplayTasks tasks at `inflate`.
ReplayInput readTraceInput(const QString& nodesCsv, const QString& tasksCsv, double inflate);

/// The scenario's nodes and jobs (sim::traceOfScenario); refuses a scenario without a job to size.
ReplayInput scenarioInput(const Scenario& scenario, const Catalog& catalog, const QString& name, double inflate);

/// The Alibaba GPU trace v2023's CSV folder, where one is found: GPUPLAN_TRACE_DIR, else the
/// shared data folder beside the program's source or installation (empty when none).
QString defaultTraceDirectory();

} // namespace gp::study
