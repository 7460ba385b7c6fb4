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
/// Every bad row is reported with its line; with any error nothing is returned.
std::optional<std::vector<TraceNode>> readTraceNodes(const QString& path, std::vector<FileIssue>& issues);

/// Reads a task list in the 11-column form (`name,cpu_milli,memory_mib,num_gpu,gpu_milli,
/// gpu_spec,qos,pod_phase,creation_time,deletion_time,scheduled_time`) or the 5-column form
/// of the multigpu files; columns are found by their header names.
std::optional<std::vector<TraceTask>> readTraceTasks(const QString& path, std::vector<FileIssue>& issues);

/// The same two readers over bytes already in memory; `path` only names them in issues.
std::optional<std::vector<TraceNode>> parseTraceNodes(const QByteArray& bytes, const QString& path,
                                                      std::vector<FileIssue>& issues);
std::optional<std::vector<TraceTask>> parseTraceTasks(const QByteArray& bytes, const QString& path,
                                                      std::vector<FileIssue>& issues);

} // namespace gp::io
