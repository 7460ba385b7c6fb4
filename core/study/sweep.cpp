// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
// A sweep's spec and the inputs its points run on (docs/sweeps.md); the points themselves are in
// sweeprun.cpp, the results read back in sweepresults.cpp.
#include "sweep.h"

#include "io/jsonfields.h"
#include "io/jsonfile.h"
#include "io/scenarioreader.h"
#include "io/scenariowriter.h"

#include <QCryptographicHash>
#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#include <algorithm>
#include <cmath>

namespace gp::study {

namespace {

const std::vector<std::string> kWhatIfAxes = {"nodes",   "node_template", "sharing", "growth",
                                              "pricing", "field",         "seed"};
const std::vector<std::string> kReplayAxes = {"trace", "policy", "seed", "inflate"};

bool contains(const std::vector<std::string>& list, const std::string& s)
{
    return std::find(list.begin(), list.end(), s) != list.end();
}

std::string joined(const std::vector<std::string>& list)
{
    std::string out;
    for (std::size_t i = 0; i < list.size(); ++i)
        out += (i == 0 ? "" : i + 1 == list.size() ? " or " : ", ") + list[i];
    return out;
}

/// The largest seed a JSON number carries exactly.
constexpr double kMaxSeed = 9007199254740992.0; // 2^53

/// What a value of the axis must be, beyond being there: an error message, or empty.
std::string valueProblem(const SweepSpec& spec, const std::string& kind, const QJsonValue& v)
{
    if (kind == "seed" &&
        (!v.isDouble() || v.toDouble() < 1 || v.toDouble() > kMaxSeed || std::floor(v.toDouble()) != v.toDouble()))
        return "a seed is a whole number from 1 to 2^53";
    if (kind == "inflate" && (!v.isDouble() || !(v.toDouble() > 0) || v.toDouble() > 10))
        return "an inflate is a number above 0 and at most 10";
    if (kind == "nodes" &&
        (!v.isDouble() || !(v.toDouble() >= 1) || v.toDouble() > static_cast<double>(limits::kMaxScenarioNodes) ||
         std::floor(v.toDouble()) != v.toDouble()))
        return "a node count is a whole number from 1 to " + std::to_string(limits::kMaxScenarioNodes);
    if (kind == "growth" && (!v.isDouble() || !(v.toDouble() >= 0) || v.toDouble() > limits::kMaxGrowthPctPerMonth))
        return "a growth is a number from 0 to " + std::to_string(static_cast<int>(limits::kMaxGrowthPctPerMonth)) +
               " (% per month)";
    if (kind == "policy") {
        for (const sim::ReplayPolicyName& p : sim::kReplayPolicies)
            if (v.toString() == QLatin1String(p.key))
                return {};
        return "not a policy (random, dotprod, clustering, packing, bestfit or fgd)";
    }
    if (kind == "trace") {
        if (v.isString())
            return v.toString().isEmpty() ? "an empty file name"
                   : spec.nodes.isEmpty()
                       ? "a task file alone needs the spec's \"nodes\" (the node file), or give {\"nodes\", \"tasks\"}"
                       : std::string();
        const QJsonObject o = v.toObject();
        for (auto it = o.begin(); it != o.end(); ++it)
            if (it.key() != "nodes" && it.key() != "tasks" && it.key() != "scenario")
                return "unknown key '" + it.key().toStdString() + "' (a trace is nodes and tasks, or a scenario)";
        if (!v.isObject() || (o.contains("scenario") == o.contains("tasks")))
            return "a trace is a task file, {\"nodes\": CSV, \"tasks\": CSV} or {\"scenario\": FILE}";
        if (o.contains("scenario") ? !o.value("scenario").isString() || o.contains("nodes")
                                   : !o.value("tasks").isString() ||
                                         (o.contains("nodes") ? !o.value("nodes").isString() : spec.nodes.isEmpty()))
            return o.contains("scenario") ? "a scenario trace is {\"scenario\": FILE} alone"
                                          : "its files are strings, and without \"nodes\" the spec's node file is used "
                                            "(the spec has none)";
    }
    return {};
}

/// The files a trace value names, resolved against the spec's folder.
struct TraceFiles
{
    QString nodes, tasks, scenario;
};

TraceFiles traceFiles(const SweepSpec& spec, const QJsonValue& v)
{
    const QDir folder(spec.folder);
    if (v.isString())
        return {spec.nodes, folder.absoluteFilePath(v.toString()), {}};
    const QJsonObject o = v.toObject();
    if (o.contains("scenario"))
        return {{}, {}, folder.absoluteFilePath(o.value("scenario").toString())};
    return {o.contains("nodes") ? folder.absoluteFilePath(o.value("nodes").toString()) : spec.nodes,
            folder.absoluteFilePath(o.value("tasks").toString()),
            {}};
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
    if (Issues duplicates = io::duplicateJsonKeys(json); !duplicates.empty())
        return R::failure(std::move(duplicates));
    Issues issues;
    SweepSpec spec;
    spec.folder = specFolder;
    io::JsonFields f(doc.object(), "", issues);
    if (const int version = f.integer("format_version", 1); version != 1)
        issues.push_back(Issue::error("format_version", std::to_string(version) + " is not 1"));
    if (const std::string kind = f.string("kind", "what_if"); kind == "replay")
        spec.kind = SweepKind::Replay;
    else if (kind != "what_if")
        issues.push_back(Issue::error("kind", "'" + kind + "' must be what_if or replay"));
    const bool replay = spec.kind == SweepKind::Replay;
    const std::vector<std::string>& axisKinds = replay ? kReplayAxes : kWhatIfAxes;
    if (const std::string base = f.string("base", {}, !replay); !base.empty())
        spec.base = QDir(specFolder).absoluteFilePath(QString::fromStdString(base));
    if (!replay) {
        spec.trials = f.integer("trials", spec.trials);
        if (spec.trials < 0 || spec.trials > 100000)
            issues.push_back(Issue::error("trials", std::to_string(spec.trials) + " must be between 0 and 100000"));
    } else {
        if (const std::string nodes = f.string("nodes"); !nodes.empty())
            spec.nodes = QDir(specFolder).absoluteFilePath(QString::fromStdString(nodes));
        spec.inflate = f.number("inflate", spec.inflate);
        if (const std::string why = valueProblem(spec, "inflate", spec.inflate); !why.empty())
            issues.push_back(Issue::error("inflate", why));
    }
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
            if (!axis.kind.empty() && !contains(axisKinds, axis.kind))
                issues.push_back(Issue::error(
                    a.pathOf("axis"), contains(replay ? kWhatIfAxes : kReplayAxes, axis.kind)
                                          ? "'" + axis.kind + "' is an axis of " + (replay ? "what-if" : "replay") +
                                                " sweeps; this spec's kind is " +
                                                (replay ? "replay" : "what_if (give \"kind\": \"replay\")")
                                          : "unknown axis '" + axis.kind + "' (" + joined(axisKinds) + ")"));
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
            if (axis.kind == "seed" && !a.has("values")) { // a range: "from" and "to"
                const int from = a.integer("from", 1, true), to = a.integer("to", 1, true);
                if (from < 1 || to < from || to - from >= kMaxSweepPoints)
                    issues.push_back(Issue::error(a.pathOf("to"), "a seed range runs from 1 or more up to at least "
                                                                  "its start, over at most " +
                                                                      std::to_string(kMaxSweepPoints) + " seeds"));
                else
                    for (long long seed = from; seed <= to; ++seed) // long long: `to` may be INT_MAX
                        axis.values.emplace_back(static_cast<double>(seed));
            } else if (auto values = a.array("values", true)) {
                if (values->isEmpty())
                    issues.push_back(Issue::error(a.pathOf("values"), "give at least one value"));
                for (int v = 0; v < values->size(); ++v) {
                    if (const std::string why = valueProblem(spec, axis.kind, values->at(v)); !why.empty())
                        issues.push_back(Issue::error(a.pathOf("values") + "[" + std::to_string(v) + "]", why));
                    axis.values.emplace_back(values->at(v));
                }
            }
            a.finish();
            for (const SweepAxis& other : spec.axes)
                if (!axis.kind.empty() && other.name() == axis.name())
                    issues.push_back(Issue::error(at, "a second " + axis.name() + " axis (give its values once)"));
            spec.axes.push_back(std::move(axis));
        }
        if (replay && spec.base.isEmpty() &&
            std::none_of(spec.axes.begin(), spec.axes.end(), [](const SweepAxis& x) { return x.kind == "trace"; }))
            issues.push_back(Issue::error("axes", "a replay sweep needs a trace axis, or a base scenario to replay"));
        if (replay && !spec.base.isEmpty() &&
            std::any_of(spec.axes.begin(), spec.axes.end(), [](const SweepAxis& x) { return x.kind == "trace"; }))
            issues.push_back(Issue::error("base", "a replay sweep with a trace axis replays its traces: leave base "
                                                  "out, or give the scenario as a trace ({\"scenario\": FILE})"));
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

Result<SweepInputs> loadSweepInputs(const SweepSpec& spec, const Catalog& catalog)
{
    SweepInputs in;
    Issues issues;
    QCryptographicHash digest(QCryptographicHash::Sha256);
    auto readScenario = [&](const QString& file) -> std::optional<Scenario> {
        io::ScenarioReadResult read = io::readScenarioFile(file, catalog);
        const std::size_t from = issues.size();
        issues.insert(issues.end(), read.issues.begin(), read.issues.end());
        for (std::size_t i = from; i < issues.size(); ++i)
            if (issues[i].file.empty())
                issues[i].file = file.toStdString();
        if (read.ok())
            digest.addData(io::writeScenario(*read.value));
        return read.ok() ? std::optional<Scenario>(std::move(*read.value)) : std::nullopt;
    };
    auto take = [&](ReplayInput input) {
        issues.insert(issues.end(), input.issues.begin(), input.issues.end());
        in.traces.push_back(std::move(input));
    };
    if (!spec.base.isEmpty())
        in.base = readScenario(spec.base);
    if (spec.kind == SweepKind::Replay) {
        // The size check at the largest arrived request any point asks for.
        double inflate = spec.inflate;
        for (const SweepAxis& a : spec.axes)
            if (a.kind == "inflate")
                for (const QJsonValue& v : a.values)
                    inflate = std::max(inflate, v.toDouble());
        const auto trace =
            std::find_if(spec.axes.begin(), spec.axes.end(), [](const SweepAxis& a) { return a.kind == "trace"; });
        if (trace == spec.axes.end() && in.base)
            take(scenarioInput(*in.base, catalog, spec.base, inflate));
        for (std::size_t v = 0; trace != spec.axes.end() && v < trace->values.size(); ++v) {
            const TraceFiles files = traceFiles(spec, trace->values[v]);
            if (!files.scenario.isEmpty()) {
                if (const std::optional<Scenario> s = readScenario(files.scenario))
                    take(scenarioInput(*s, catalog, files.scenario, inflate));
                else
                    in.traces.emplace_back(); // keeps the positions; the issues say why
                continue;
            }
            ReplayInput input = readTraceInput(files.nodes, files.tasks, inflate);
            // The files were read and checked (regular, within kMaxTraceBytes); their digest is
            // read with the same checks and bound, so a file swapped or grown since cannot hang it.
            if (input.ok())
                for (const QString& file : {files.nodes, files.tasks}) {
                    Issues read;
                    io::addFileToHash(digest, file, read, limits::kMaxTraceBytes);
                    inFile(read, file.toStdString());
                    input.issues.insert(input.issues.end(), read.begin(), read.end());
                }
            take(std::move(input));
        }
    }
    if (hasErrors(issues))
        return Failure{std::move(issues)};
    in.digest = digest.result().toHex();
    return Result<SweepInputs>::success(std::move(in), std::move(issues));
}

} // namespace gp::study
