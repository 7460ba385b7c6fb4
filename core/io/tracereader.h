// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#pragma once

#include "catalogreader.h"
#include "model/trace.h"

#include <QByteArray>
#include <QString>

#include <optional>
#include <vector>

namespace gp::io {

/// Reads the node list of the Alibaba GPU trace v2023 (`sn,cpu_milli,memory_mib,gpu,model`).
/// Every bad row is reported with its file and line; with any error nothing is returned.
Result<std::vector<TraceNode>> readTraceNodes(const QString& path);

/// Reads a task list in the 11-column form (`name,cpu_milli,memory_mib,num_gpu,gpu_milli,
/// gpu_spec,qos,pod_phase,creation_time,deletion_time,scheduled_time`) or the 5-column form
/// of the multigpu files; columns are found by their header names.
Result<std::vector<TraceTask>> readTraceTasks(const QString& path);

/// Every task's gpu_spec model that no node of the node list has (a typo, or the wrong node
/// file): one error per model, naming the task file's line and the models the nodes have.
Issues checkTaskModels(const std::vector<TraceTask>& tasks, const std::vector<TraceNode>& nodes,
                       const QString& tasksPath);

/// The same two readers over bytes already in memory; `path` only names them in issues.
Result<std::vector<TraceNode>> parseTraceNodes(const QByteArray& bytes, const QString& path);
Result<std::vector<TraceTask>> parseTraceTasks(const QByteArray& bytes, const QString& path);

} // namespace gp::io
