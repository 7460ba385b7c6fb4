// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#include "sweep.h"

#include "commands.h"
#include "edit.h"
#include "sizing.h"

#include "calc/evaluate.h"
#include "io/jsonfields.h"
#include "model/planningtarget.h"
#include "sim/planresults.h"
#include "sim/simulation.h"

#include <QCryptographicHash>
#include <QDir>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#include <cmath>

namespace gp::document {

namespace {

const std::vector<std::string> kAxisKinds = {"nodes", "node_template", "sharing", "growth", "pricing", "field", "seed"};

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
    const Result<Edit> edit = patchFields(s, catalog, {{path, value}});
    if (!edit)
        return Failure{edit.issues};
    applyEdit(s, *edit, true);
    return done();
}

} // namespace

std::string SweepAxis::name() const
{
    if (kind == "sharing")
        return group.empty() ? "sharing" : "sharing[" + group + "]";
    if (kind == "growth")
        return "growth[" + tenant + "]";
    if (kind == "field")
        return "field[" + path + "]";
    return kind;
}

long long SweepSpec::points() const
{
    long long n = 1;
    for (const SweepAxis& a : axes)
        n *= static_cast<long long>(a.values.size());
    return n;
}

Result<SweepSpec> readSweepSpec(const QByteArray& json, const QString& specFolder)
{
    using R = Result<SweepSpec>;
    QJsonParseError error;
    const QJsonDocument doc = QJsonDocument::fromJson(json, &error);
    if (error.error != QJsonParseError::NoError || !doc.isObject())
        return R::failure("", error.error != QJsonParseError::NoError
                                  ? "not JSON: " + error.errorString().toStdString() + " at offset " +
                                        std::to_string(error.offset)
                                  : "a sweep spec is a JSON object");
    Issues issues;
    SweepSpec spec;
    io::JsonFields f(doc.object(), "", issues);
    if (const int version = f.integer("format_version", 1); version != 1)
        issues.push_back(Issue::error("format_version", std::to_string(version) + " is not 1"));
    const std::string base = f.string("base", {}, true);
    spec.base = QDir(specFolder).absoluteFilePath(QString::fromStdString(base));
    spec.trials = f.integer("trials", spec.trials);
    if (spec.trials < 0 || spec.trials > 100000)
        issues.push_back(Issue::error("trials", std::to_string(spec.trials) + " must be between 0 and 100000"));
    if (auto axes = f.array("axes", true)) {
        if (axes->isEmpty())
            issues.push_back(Issue::error("axes", "give at least one axis"));
        for (int i = 0; i < axes->size(); ++i) {
            const std::string at = "axes[" + std::to_string(i) + "]";
            if (!axes->at(i).isObject()) {
                issues.push_back(Issue::error(at, "an axis is an object"));
                continue;
            }
            io::JsonFields a(axes->at(i).toObject(), at, issues);
            SweepAxis axis;
            axis.kind = a.string("axis", {}, true);
            if (!axis.kind.empty() && std::find(kAxisKinds.begin(), kAxisKinds.end(), axis.kind) == kAxisKinds.end())
                issues.push_back(
                    Issue::error(a.pathOf("axis"), "unknown axis '" + axis.kind +
                                                       "' (nodes, node_template, sharing, growth, pricing, "
                                                       "field or seed)"));
            if (axis.kind == "sharing")
                axis.group = a.string("group");
            if (axis.kind == "growth") {
                axis.tenant = a.string("tenant", {}, true);
                axis.months = a.integer("months", axis.months);
                if (axis.months < 1 || axis.months > 120)
                    issues.push_back(Issue::error(a.pathOf("months"), "must be between 1 and 120"));
            }
            if (axis.kind == "field")
                axis.path = a.string("path", {}, true);
            if (auto values = a.array("values", true)) {
                if (values->isEmpty())
                    issues.push_back(Issue::error(a.pathOf("values"), "give at least one value"));
                for (const auto& v : *values)
                    axis.values.emplace_back(v);
            }
            a.finish();
            spec.axes.push_back(std::move(axis));
        }
    }
    f.finish();
    if (std::any_of(issues.begin(), issues.end(), [](const Issue& i) { return i.isError(); }))
        return R::failure(std::move(issues));
    // The grid's size, without overflow: the product stops at the limit.
    long long points = 1;
    for (const SweepAxis& a : spec.axes) {
        points *= static_cast<long long>(a.values.size());
        if (points > kMaxSweepPoints)
            return R::failure("axes", "the grid has more than " + std::to_string(kMaxSweepPoints) +
                                          " points; split it into several sweeps or use fewer values");
    }
    spec.digest = QCryptographicHash::hash(json, QCryptographicHash::Sha256).toHex();
    return R::success(std::move(spec));
}

std::vector<QJsonValue> sweepPointValues(const SweepSpec& spec, long long index)
{
    std::vector<QJsonValue> out(spec.axes.size());
    for (std::size_t a = spec.axes.size(); a-- > 0;) {
        const auto n = static_cast<long long>(spec.axes[a].values.size());
        out[a] = spec.axes[a].values[static_cast<std::size_t>(index % n)];
        index /= n;
    }
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
            if (!s.findTenant(axis.tenant))
                return R::failure(at, "no tenant '" + axis.tenant + "'");
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

QByteArray sweepCsvHeader(const SweepSpec& spec)
{
    QByteArray h = "point";
    for (const SweepAxis& a : spec.axes)
        h += "," + cell(QString::fromStdString(a.name()));
    h += ",node_count,gpu_count,cost_per_month_usd,vram_utilization,mean_penalty,max_penalty,serving_slo_attainment,"
         "unplaced_jobs,sla_violations,meets_target,p95_completion_days,error\n";
    return h;
}

QByteArray sweepCsvRow(const Scenario& base, const Catalog& catalog, const SweepSpec& spec, long long index)
{
    QByteArray row = QByteArray::number(index);
    const std::vector<QJsonValue> values = sweepPointValues(spec, index);
    std::uint64_t seed = 1;
    for (std::size_t a = 0; a < values.size(); ++a) {
        row += "," + cell(values[a]);
        if (spec.axes[a].kind == "seed")
            seed = static_cast<std::uint64_t>(std::max(1.0, values[a].toDouble()));
    }
    const Result<Scenario> s = sweepPointScenario(base, catalog, spec, index);
    if (!s)
        return row + ",,,,,,,,,,,," + cell(QString::fromStdString(s.errorText())) + "\n";
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
    return row + "," + QByteArray::number(static_cast<qlonglong>(s->topology.nodes.size())) + "," +
           QByteArray::number(gpus) + "," + number(k.costPerMonthUsd) + "," + number(k.vramUtilization) + "," +
           number(k.meanPenalty) + "," + number(k.maxPenalty) + "," + number(k.servingSloAttainment) + "," +
           QByteArray::number(k.unplacedJobs) + "," + QByteArray::number(k.slaViolations) + "," +
           (PlanningTarget::met(k.vramUtilization, k.meanPenalty) ? "true" : "false") + "," + p95 + ",\n";
}

namespace {

/// One CSV line into cells (quotes doubled inside quoted cells, as cell() writes them).
QStringList csvCells(const QString& line)
{
    QStringList out;
    QString cur;
    bool quoted = false;
    for (int i = 0; i < line.size(); ++i) {
        const QChar c = line[i];
        if (quoted) {
            if (c == '"' && i + 1 < line.size() && line[i + 1] == '"') {
                cur += '"';
                ++i;
            } else if (c == '"')
                quoted = false;
            else
                cur += c;
        } else if (c == '"')
            quoted = true;
        else if (c == ',') {
            out << cur;
            cur.clear();
        } else
            cur += c;
    }
    out << cur;
    return out;
}

} // namespace

Result<SweepTable> readSweepResults(const QByteArray& csv)
{
    using R = Result<SweepTable>;
    const QStringList lines = QString::fromUtf8(csv).split('\n', Qt::SkipEmptyParts);
    if (lines.isEmpty())
        return R::failure("results.csv", "is empty");
    const QStringList header = csvCells(lines.front());
    const auto first = header.indexOf("node_count");
    if (header.value(0) != "point" || first < 1 || header.back() != "error")
        return R::failure("results.csv:1", "not a sweep's results (the header is not point, axes…, node_count, …)");
    SweepTable t;
    for (qsizetype c = 1; c < first; ++c)
        t.axes.push_back(header[c].toStdString());
    for (qsizetype l = 1; l < lines.size(); ++l) {
        const QStringList cells = csvCells(lines[l]);
        if (cells.size() != header.size())
            return R::failure("results.csv:" + std::to_string(l + 1),
                              std::to_string(cells.size()) + " cells, the header has " + std::to_string(header.size()));
        SweepTable::Row row;
        row.point = cells[0].toLongLong();
        for (qsizetype c = 1; c < first; ++c)
            row.values.push_back(cells[c].toStdString());
        row.error = cells.back().toStdString();
        if (row.error.empty())
            for (qsizetype c = first; c + 1 < header.size(); ++c) {
                bool ok = false;
                const double v = cells[c] == "true" ? 1.0 : cells[c] == "false" ? 0.0 : cells[c].toDouble(&ok);
                if (ok || cells[c] == "true" || cells[c] == "false")
                    row.figures[header[c].toStdString()] = v;
            }
        t.rows.push_back(std::move(row));
    }
    return R::success(std::move(t));
}

std::vector<std::pair<std::string, double>> sweepMeans(const SweepTable& table, std::size_t axis,
                                                       const std::string& figure)
{
    std::vector<std::pair<std::string, double>> out;
    std::vector<int> counts;
    for (const SweepTable::Row& r : table.rows) {
        const auto f = r.figures.find(figure);
        if (axis >= r.values.size() || f == r.figures.end())
            continue;
        auto it = std::find_if(out.begin(), out.end(), [&](const auto& p) { return p.first == r.values[axis]; });
        if (it == out.end()) {
            out.emplace_back(r.values[axis], 0.0);
            counts.push_back(0);
            it = out.end() - 1;
        }
        it->second += f->second;
        ++counts[static_cast<std::size_t>(it - out.begin())];
    }
    for (std::size_t i = 0; i < out.size(); ++i)
        out[i].second /= counts[i];
    return out;
}

} // namespace gp::document
