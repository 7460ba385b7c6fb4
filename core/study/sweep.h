// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#pragma once

// Sweeps (issue 20, docs/sweeps.md): a grid of what-ifs over a base scenario, or of placement
// replays over traces, policies and seeds; one result row per point, computable in shards whose
// merge is byte-identical to the whole run.
#include "replayinput.h"

#include "model/catalog.h"
#include "model/issue.h"
#include "model/limits.h"
#include "model/scenario.h"
#include "sim/replay.h"

#include <QByteArray>
#include <QJsonValue>
#include <QString>

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace gp::study {

/// What a sweep's points are: what-ifs of a base scenario (evaluated, and simulated), or
/// placement replays (sim::replayTrace) of traces under policies and seeds.
enum class SweepKind
{
    WhatIf,
    Replay
};

/// One axis of the grid: what it varies and the values it takes.
struct SweepAxis
{
    /// What-if sweeps: nodes, node_template, sharing, growth, pricing, field or seed; replay
    /// sweeps: trace, policy, seed or inflate.
    std::string kind;
    std::string group;  ///< sharing: only nodes of this template (all nodes when empty)
    std::string tenant; ///< growth: whose load grows
    int months = 12;    ///< growth: after how many months of it
    std::string path;   ///< field: the field path, as `gpuplan-cli edit --set` takes it
    std::vector<QJsonValue> values;
    /// "nodes", "sharing[dgx-h100]", "growth[acme]", "field[tenants[acme].sla.max_penalty_pct]".
    std::string name() const;
};

struct SweepSpec
{
    SweepKind kind = SweepKind::WhatIf;
    QString folder; ///< the spec's folder, which relative file names are resolved against
    /// The base scenario file (resolved against the spec's folder): a what-if sweep's; a replay
    /// sweep without a trace axis replays its cluster and job mix.
    QString base;
    int trials = 200;     ///< what-if: Monte Carlo trials per point (0: none)
    QString nodes;        ///< replay: the node file of trace values that name only a task file
    double inflate = 1.3; ///< replay: the arrived GPU request when no inflate axis sets it
    std::vector<SweepAxis> axes;
    QByteArray digest; ///< SHA-256 of the spec file as read, hex: shards of one spec share it
    long long points() const;
};

/// The most points one sweep may have (a larger grid is refused with this figure).
inline constexpr long long kMaxSweepPoints = limits::kMaxSweepPoints;

/// Reads a spec (docs/sweeps.md); every problem with its JSON path: unknown axes or fields, an
/// empty or non-list `values`, a grid over kMaxSweepPoints, a growth without a tenant, an axis
/// of the other kind of sweep, an unknown policy, a seed that is not a whole number from 1.
Result<SweepSpec> readSweepSpec(const QByteArray& json, const QString& specFolder);

/// What a sweep's points run on, read once per run: the base scenario, and for a replay sweep
/// every trace it names (one per value of its trace axis, or the base scenario's cluster and job
/// mix), checked as `gpuplan-cli replay` checks them.
struct SweepInputs
{
    std::optional<Scenario> base;
    std::vector<ReplayInput> traces;
    /// SHA-256 (hex) of what they were read from (the base as canonical JSON, the trace files'
    /// bytes): the run's digest covers it, so shards over changed inputs are not merged.
    QByteArray digest;
};
/// Every problem with the file it is in; warnings of the base scenario come with the inputs.
Result<SweepInputs> loadSweepInputs(const SweepSpec& spec, const Catalog& catalog);

/// The positions in each axis's values of point `index` (the last axis varies fastest), and the
/// values themselves.
std::vector<std::size_t> sweepPointPositions(const SweepSpec& spec, long long index);
std::vector<QJsonValue> sweepPointValues(const SweepSpec& spec, long long index);

/// The base scenario changed as point `index` says: the cluster rebuilt first (nodes and node
/// template, through sizing's onNodes), then sharing, growth, pricing and fields, each checked as
/// the file format checks it. Refused with what does not apply (a sharing the GPU lacks, …).
Result<Scenario> sweepPointScenario(const Scenario& base, const Catalog& catalog, const SweepSpec& spec,
                                    long long index);

/// Whether point `index` belongs to shard `shard` of `count` (1-based; round robin, so shards
/// take alike shares of every axis).
inline bool inSweepShard(long long index, int shard, int count) { return index % count == shard - 1; }

/// A replay sweep's point: its trace (an index into SweepInputs::traces) and the replay's settings.
struct SweepReplayPoint
{
    std::size_t trace = 0;
    sim::ReplayConfig config;
    QString policy; ///< the policy's key, as the spec names it
};
SweepReplayPoint sweepReplayPoint(const SweepSpec& spec, long long index);

/// The CSV header, and point `index` as one CSV row: a what-if evaluated (and simulated with the
/// spec's trials and the point's seed), a replay replayed; a point that does not apply is a row
/// with its reason.
QByteArray sweepCsvHeader(const SweepSpec& spec);
QByteArray sweepCsvRow(const SweepInputs& inputs, const Catalog& catalog, const SweepSpec& spec, long long index);

/// The rows of every point of shard `shard` of `count` (the whole grid when count is 0), in point
/// order; replay points run on calc's parallel-for (each replay is single-threaded), what-ifs one
/// after another (each one's Monte Carlo uses the cores). The bytes do not depend on the threads.
QByteArray sweepCsvRows(const SweepInputs& inputs, const Catalog& catalog, const SweepSpec& spec, int shard, int count,
                        long long* rows = nullptr);

/// A sweep's results.csv read back (the workbench's sweep view, the charts): the axis columns'
/// names, and per row its point, axis values (as written) and figures by column name.
struct SweepTable
{
    SweepKind kind = SweepKind::WhatIf; ///< a replay sweep's figures are tasks, allocation, fragmentation
    std::vector<std::string> axes;
    struct Row
    {
        long long point = 0;
        std::vector<std::string> values;       ///< one per axis
        std::map<std::string, double> figures; ///< cost_per_month_usd, … or tasks, … (empty on error)
        std::string error;
    };
    std::vector<Row> rows;
};
/// Reads results.csv; refused with the line and what is wrong.
Result<SweepTable> readSweepResults(const QByteArray& csv);

/// Per axis, per value of it (in first-seen order): the mean of `figure` over the rows with that
/// value and no error — the curve a chart along that axis draws.
std::vector<std::pair<std::string, double>> sweepMeans(const SweepTable& table, std::size_t axis,
                                                       const std::string& figure);

} // namespace gp::study
