// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
// The options that describe one job's model and training setup, shared by `memory` and
// `optimize job` (docs/cli.md).
#pragma once

#include "model/catalog.h"
#include "model/job.h"
#include "model/modelpreset.h"

#include <QCommandLineOption>
#include <QCommandLineParser>
#include <QList>

#include <functional>
#include <optional>

namespace gp::cli {

/// --model/--params, the custom architecture (--layers … --seq), --precision, --optimizer,
/// --main-grads-fp32, --attention, --mode and --lora-rank.
QList<QCommandLineOption> jobModelOptions();

/// A job as those options describe it (no parallelism yet), its shape when known (a preset or a
/// custom architecture) and the parameter count --params gave.
struct JobModel
{
    Job job;
    std::optional<ModelArchitecture> arch;
    double params = 0.0;
};

/// `usage` prints a usage error and returns the exit code; the readers below call it and give
/// nullopt on a bad value.
using UsageError = std::function<int(const QString&)>;

/// --name as a whole number from lo to hi, `fallback` when not given.
std::optional<int> intOption(const QCommandLineParser& p, const char* name, int fallback, int lo, int hi,
                             const UsageError& usage);

/// Reads jobModelOptions(); `command` names the subcommand in messages.
std::optional<JobModel> readJobModel(const QCommandLineParser& p, const Catalog& catalog, const QString& command,
                                     const UsageError& usage);

} // namespace gp::cli
