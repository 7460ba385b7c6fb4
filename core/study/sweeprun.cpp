// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
// A sweep's points (docs/sweeps.md): each what-if's scenario, and every point as a CSV row.
#include "sweep.h"

#include "document/commands.h"
#include "document/edit.h"
#include "sizing.h"

#include "calc/evaluate.h"
#include "calc/parallel.h"
#include "model/planningtarget.h"
#include "sim/planresults.h"
#include "sim/simulation.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#include <algorithm>
#include <cmath>

namespace gp::study {

namespace {

/// A value as one CSV cell: numbers and strings as they are, objects as compact JSON, quoted
/// where they hold a comma or a quote.
QByteArray cell(const QJsonValue& v)
{
    QByteArray text;
    if (v.isDouble())
        text = QByteArray::number(v.toDouble(), 'g', 10);
    else if (v.isString())
        text = v.toString().toUtf8();
    else if (v.isBool())
        text = v.toBool() ? "true" : "false";
    else if (v.isObject())
        text = QJsonDocument(v.toObject()).toJson(QJsonDocument::Compact);
    else if (v.isArray())
        text = QJsonDocument(v.toArray()).toJson(QJsonDocument::Compact);
    if (text.contains(',') || text.contains('"') || text.contains('\n'))
        return '"' + text.replace("\"", "\"\"") + '"';
    return text;
}

QByteArray number(double v) { return QByteArray::number(v, 'g', 10); }

/// A field patch of the value, as `edit --set` applies it, pushed onto `s`.
Status applyPatch(Scenario& s, const Catalog& catalog, const std::string& path, const QJsonValue& value)
{
    const Result<document::Edit> edit = document::patchFields(s, catalog, {{path, value}});
    if (!edit)
        return Failure{edit.issues};
    document::applyEdit(s, *edit, true);
    return done();
}

} // namespace

std::vector<std::size_t> sweepPointPositions(const SweepSpec& spec, long long index)
{
    std::vector<std::size_t> out(spec.axes.size());
    for (std::size_t a = spec.axes.size(); a-- > 0;) {
        const auto n = static_cast<long long>(spec.axes[a].values.size());
        out[a] = static_cast<std::size_t>(index % n);
        index /= n;
    }
    return out;
}

std::vector<QJsonValue> sweepPointValues(const SweepSpec& spec, long long index)
{
    const std::vector<std::size_t> at = sweepPointPositions(spec, index);
    std::vector<QJsonValue> out(at.size());
    for (std::size_t a = 0; a < at.size(); ++a)
        out[a] = spec.axes[a].values[at[a]];
    return out;
}

Result<Scenario> sweepPointScenario(const Scenario& base, const Catalog& catalog, const SweepSpec& spec,
                                    long long index)
{
    using R = Result<Scenario>;
    const std::vector<QJsonValue> values = sweepPointValues(spec, index);
    Scenario s = base;
    // The cluster first: its size and node kind.
    std::optional<int> nodes;
    std::optional<std::string> nodeTemplate;
    for (std::size_t a = 0; a < spec.axes.size(); ++a) {
        if (spec.axes[a].kind == "nodes")
            nodes = values[a].toInt();
        if (spec.axes[a].kind == "node_template")
            nodeTemplate = values[a].toString().toStdString();
    }
    if (nodes || nodeTemplate) {
        const std::string id =
            nodeTemplate.value_or(s.topology.nodes.empty() ? std::string() : s.topology.nodes.front().templateId);
        const int count = nodes.value_or(static_cast<int>(s.topology.nodes.size()));
        std::optional<Scenario> rebuilt = onNodes(s, catalog, id, count);
        if (!rebuilt)
            return R::failure("nodes", "no cluster of " + std::to_string(count) + " nodes of template '" + id + "'");
        s = std::move(*rebuilt);
    }
    for (std::size_t a = 0; a < spec.axes.size(); ++a) {
        const SweepAxis& axis = spec.axes[a];
        const QJsonValue& v = values[a];
        const std::string at = axis.name() + " = " + cell(v).toStdString();
        Status applied = done();
        if (axis.kind == "sharing") {
            const QJsonValue sharing = v.isString() ? QJsonValue(QJsonObject{{"mode", v.toString()}}) : v;
            for (const Node& n : Scenario(s).topology.nodes)
                if (axis.group.empty() || n.templateId == axis.group)
                    if (applied = applyPatch(s, catalog, "nodes[" + n.id + "].sharing", sharing); !applied)
                        break;
        } else if (axis.kind == "growth") {
            const Tenant* tenant = s.findTenant(axis.tenant);
            if (!tenant)
                return R::failure(at, "no tenant '" + axis.tenant + "'");
            // The jobs the grown load would have, before making them: a steep growth over many
            // months would otherwise copy jobs into gigabytes.
            const double jobs = grownJobCount(s, {{axis.tenant, v.toDouble()}}, axis.months);
            if (!(jobs <= static_cast<double>(limits::kMaxScenarioJobs)))
                return R::failure(at, "the grown load would have about " +
                                          QByteArray::number(jobs, 'g', 3).toStdString() +
                                          " jobs; a scenario has at most " + std::to_string(limits::kMaxScenarioJobs));
            s = grownLoad(s, {{axis.tenant, v.toDouble()}}, axis.months);
        } else if (axis.kind == "pricing") {
            applied = applyPatch(s, catalog, "pricing.preset", v);
            s.pricing.gpuHourUsd.clear(); // the preset's prices, not the base's own
        } else if (axis.kind == "field")
            applied = applyPatch(s, catalog, axis.path, v);
        if (!applied)
            return R::failure(at, applied.issues.empty() ? "does not apply" : applied.issues.front().toString());
    }
    return R::success(std::move(s));
}

namespace {

const char* const kWhatIfFigures = "node_count,gpu_count,cost_per_month_usd,vram_utilization,mean_penalty,max_penalty,"
                                   "serving_slo_attainment,unplaced_jobs,sla_violations,meets_target,"
                                   "p95_completion_days";
const char* const kReplayFigures = "node_count,gpu_count,tasks,failed_tasks,allocation_pct_at_100,"
                                   "fragmentation_pct_at_100,fragmentation_rate_pct_at_100,allocation_pct_at_end,"
                                   "unallocated_gpus_at_end";

/// A row's empty figures and its reason, for a point that does not apply.
QByteArray errorTail(const char* figures, const std::string& why)
{
    return QByteArray(",").repeated(static_cast<int>(QByteArray(figures).count(',')) + 2) +
           cell(QString::fromStdString(why)) + "\n";
}

QByteArray whatIfFigures(const Scenario& base, const Catalog& catalog, const SweepSpec& spec, long long index)
{
    std::uint64_t seed = 1;
    const std::vector<QJsonValue> values = sweepPointValues(spec, index);
    for (std::size_t a = 0; a < values.size(); ++a)
        if (spec.axes[a].kind == "seed")
            seed = static_cast<std::uint64_t>(values[a].toDouble());
    const Result<Scenario> s = sweepPointScenario(base, catalog, spec, index);
    if (!s)
        return errorTail(kWhatIfFigures, s.errorText());
    const calc::Evaluation ev = calc::evaluate(*s, catalog);
    const calc::Kpis& k = ev.kpis;
    int gpus = 0;
    for (const Node& n : s->topology.nodes)
        gpus += n.gpuCount;
    QByteArray p95;
    if (spec.trials > 0) {
        sim::SimulationConfig config;
        config.trials = spec.trials;
        config.seed = seed;
        config.backend = sim::Backend::Cpu; // the same numbers on every machine and shard
        p95 = number(sim::simulate(*s, catalog, ev, config).clusterP95Days);
    }
    return "," + QByteArray::number(static_cast<qlonglong>(s->topology.nodes.size())) + "," + QByteArray::number(gpus) +
           "," + number(k.costPerMonthUsd) + "," + number(k.vramUtilization) + "," + number(k.meanPenalty) + "," +
           number(k.maxPenalty) + "," + (k.servingJobsJudged > 0 ? number(k.servingSloAttainment) : QByteArray()) +
           "," + QByteArray::number(k.unplacedJobs) + "," + QByteArray::number(k.slaViolations) + "," +
           (PlanningTarget::met(k.vramUtilization, k.meanPenalty) ? "true" : "false") + "," + p95 + ",\n";
}

QByteArray replayFigures(const SweepInputs& inputs, const SweepSpec& spec, long long index)
{
    const SweepReplayPoint point = sweepReplayPoint(spec, index);
    if (point.trace >= inputs.traces.size() || inputs.traces[point.trace].nodes.empty())
        return errorTail(kReplayFigures, "no trace to replay");
    const ReplayInput& trace = inputs.traces[point.trace];
    const sim::ReplayResult r = sim::replayTrace(trace.nodes, trace.tasks, point.config);
    const auto at100 = std::find(r.arrivedPct.begin(), r.arrivedPct.end(), 100);
    QByteArray at100Cells = ",,";
    if (at100 != r.arrivedPct.end()) {
        const auto i = static_cast<std::size_t>(at100 - r.arrivedPct.begin());
        at100Cells =
            number(r.allocationPct[i]) + "," + number(r.fragmentationPct[i]) + "," + number(r.fragmentationRatePct[i]);
    }
    const double end = r.allocationPct.empty() ? 0.0 : r.allocationPct.back();
    return "," + QByteArray::number(static_cast<qlonglong>(trace.nodes.size())) + "," + number(trace.gpus()) + "," +
           QByteArray::number(r.tasks) + "," + QByteArray::number(r.failedTasks) + "," + at100Cells + "," +
           number(end) + "," + number(trace.gpus() * (100.0 - end) / 100.0) + ",\n";
}

} // namespace

SweepReplayPoint sweepReplayPoint(const SweepSpec& spec, long long index)
{
    SweepReplayPoint point;
    point.config.inflate = spec.inflate;
    point.policy = "fgd";
    const std::vector<std::size_t> at = sweepPointPositions(spec, index);
    for (std::size_t a = 0; a < at.size(); ++a) {
        const QJsonValue& v = spec.axes[a].values[at[a]];
        if (spec.axes[a].kind == "trace")
            point.trace = at[a];
        else if (spec.axes[a].kind == "seed")
            point.config.seed = static_cast<std::uint64_t>(v.toDouble());
        else if (spec.axes[a].kind == "inflate")
            point.config.inflate = v.toDouble();
        else if (spec.axes[a].kind == "policy")
            point.policy = v.toString();
    }
    for (const sim::ReplayPolicyName& p : sim::kReplayPolicies)
        if (point.policy == QLatin1String(p.key))
            point.config.policy = p.policy;
    return point;
}

QByteArray sweepCsvHeader(const SweepSpec& spec)
{
    QByteArray h = "point";
    for (const SweepAxis& a : spec.axes)
        h += "," + cell(QString::fromStdString(a.name()));
    return h + "," + (spec.kind == SweepKind::Replay ? kReplayFigures : kWhatIfFigures) + ",error\n";
}

QByteArray sweepCsvRow(const SweepInputs& inputs, const Catalog& catalog, const SweepSpec& spec, long long index)
{
    QByteArray row = QByteArray::number(index);
    for (const QJsonValue& v : sweepPointValues(spec, index))
        row += "," + cell(v);
    if (spec.kind == SweepKind::Replay)
        return row + replayFigures(inputs, spec, index);
    if (!inputs.base)
        return row + errorTail(kWhatIfFigures, "no base scenario");
    return row + whatIfFigures(*inputs.base, catalog, spec, index);
}

QByteArray sweepCsvRows(const SweepInputs& inputs, const Catalog& catalog, const SweepSpec& spec, int shard, int count,
                        long long* rowCount)
{
    std::vector<long long> points;
    for (long long i = 0; i < spec.points(); ++i)
        if (count == 0 || inSweepShard(i, shard, count))
            points.push_back(i);
    std::vector<QByteArray> rows(points.size());
    const auto n = static_cast<int>(points.size());
    if (spec.kind == SweepKind::Replay) { // each replay on one thread, the points side by side
        const int parts = std::max(1, std::min(calc::parallelWorkers(), n));
        calc::runParts(parts, [&](int part) {
            for (int k = part; k < n; k += parts)
                rows[static_cast<std::size_t>(k)] =
                    sweepCsvRow(inputs, catalog, spec, points[static_cast<std::size_t>(k)]);
        });
    } else
        for (int k = 0; k < n; ++k)
            rows[static_cast<std::size_t>(k)] = sweepCsvRow(inputs, catalog, spec, points[static_cast<std::size_t>(k)]);
    if (rowCount)
        *rowCount = n;
    QByteArray out;
    for (const QByteArray& row : rows)
        out += row;
    return out;
}

} // namespace gp::study
