// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#pragma once

// Sweeps (issue 20, docs/sweeps.md): a grid of what-ifs over a base scenario, one result row per
// point, computable in shards whose merge is byte-identical to the whole run.
#include "model/catalog.h"
#include "model/issue.h"
#include "model/scenario.h"

#include <QByteArray>
#include <QJsonValue>
#include <QString>

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace gp::document {

/// One axis of the grid: what it varies and the values it takes.
struct SweepAxis
{
    /// nodes, node_template, sharing, growth, pricing, field or seed.
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
    QString base;     ///< the base scenario file (resolved against the spec's folder)
    int trials = 200; ///< Monte Carlo trials per point (0: none)
    std::vector<SweepAxis> axes;
    QByteArray digest; ///< SHA-256 of the spec file as read, hex: shards of one spec share it
    long long points() const;
};

/// The most points one sweep may have (a larger grid is refused with this figure).
inline constexpr long long kMaxSweepPoints = 100000;

/// Reads a spec (docs/sweeps.md); every problem with its JSON path: unknown axes or fields, an
/// empty or non-list `values`, a grid over kMaxSweepPoints, a growth without a tenant.
Result<SweepSpec> readSweepSpec(const QByteArray& json, const QString& specFolder);

/// The values of point `index` (the last axis varies fastest), one per axis.
std::vector<QJsonValue> sweepPointValues(const SweepSpec& spec, long long index);

/// The base scenario changed as point `index` says: the cluster rebuilt first (nodes and node
/// template, through sizing's onNodes), then sharing, growth, pricing and fields, each checked as
/// the file format checks it. Refused with what does not apply (a sharing the GPU lacks, …).
Result<Scenario> sweepPointScenario(const Scenario& base, const Catalog& catalog, const SweepSpec& spec,
                                    long long index);

/// Whether point `index` belongs to shard `shard` of `count` (1-based; round robin, so shards
/// take alike shares of every axis).
inline bool inSweepShard(long long index, int shard, int count) { return index % count == shard - 1; }

/// The CSV header, and point `index` evaluated (and simulated with the spec's trials and the
/// point's seed) as one CSV row; a point that does not apply is a row with its reason.
QByteArray sweepCsvHeader(const SweepSpec& spec);
QByteArray sweepCsvRow(const Scenario& base, const Catalog& catalog, const SweepSpec& spec, long long index);

/// A sweep's results.csv read back (the workbench's sweep view, the charts): the axis columns'
/// names, and per row its point, axis values (as written) and figures by column name.
struct SweepTable
{
    std::vector<std::string> axes;
    struct Row
    {
        long long point = 0;
        std::vector<std::string> values;       ///< one per axis
        std::map<std::string, double> figures; ///< cost_per_month_usd, vram_utilization, … (empty on error)
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

} // namespace gp::document
