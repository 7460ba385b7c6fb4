// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#include "tracereader.h"

#include <set>

#include "jsonfile.h"

#include <QStringList>

#include <map>

namespace gp::io {

namespace {

/// A CSV file split into a header map and rows (no quoting in the trace; LF or CRLF ends).
struct Csv
{
    std::map<QString, int> columns;
    std::vector<std::pair<int, QStringList>> rows; // line number, fields
};

std::optional<Csv> parseCsv(const QByteArray* bytes, const QStringList& required, Issues& issues)
{
    Csv csv;
    const QList<QByteArray> lines = bytes->split('\n');
    if (lines.isEmpty() || lines.front().trimmed().isEmpty()) {
        issues.push_back(Issue::error("line 1", "empty file: expected a header row"));
        return std::nullopt;
    }
    const QStringList header = QString::fromUtf8(lines.front()).trimmed().split(',');
    for (int i = 0; i < header.size(); ++i)
        csv.columns[header[i].trimmed()] = i;
    QStringList missing;
    for (const QString& r : required)
        if (!csv.columns.count(r))
            missing << r;
    if (!missing.isEmpty()) {
        issues.push_back(Issue::error("line 1", "missing column(s) " + missing.join(", ").toStdString() +
                                                    " (header: " + header.join(",").toStdString() + ")"));
        return std::nullopt;
    }
    for (int i = 1; i < lines.size(); ++i) {
        const QString line = QString::fromUtf8(lines[i]).trimmed();
        if (line.isEmpty())
            continue;
        QStringList fields = line.split(',');
        if (fields.size() != header.size()) {
            issues.push_back(
                Issue::error("line " + std::to_string(i + 1),
                             std::to_string(fields.size()) + " fields, expected " + std::to_string(header.size())));
            continue;
        }
        csv.rows.push_back({i + 1, fields});
    }
    return csv;
}

/// A non-negative integer field, or an error naming line, column and value.
std::optional<long long> integer(const Csv& csv, const std::pair<int, QStringList>& row, const QString& column,
                                 long long maxValue, Issues& issues)
{
    const QString text = row.second[csv.columns.at(column)].trimmed();
    bool ok = false;
    const long long v = text.toLongLong(&ok);
    if (!ok || v < 0 || v > maxValue) {
        issues.push_back(
            Issue::error("line " + std::to_string(row.first) + ", " + column.toStdString(),
                         "'" + text.toStdString() + "' is not a whole number from 0 to " + std::to_string(maxValue)));
        return std::nullopt;
    }
    return v;
}

} // namespace

namespace {

/// Reads `path` (at most 512 MiB) and parses it with `parse`, naming the file in every issue.
template <typename T, typename Parse> Result<std::vector<T>> readTrace(const QString& path, Parse parse)
{
    Issues issues;
    const auto bytes = readFileBytes(path, issues, 512ll * 1024 * 1024);
    if (!bytes) {
        inFile(issues, path.toStdString());
        return Failure{std::move(issues)};
    }
    return parse(*bytes, path);
}

/// The rows parsed into `out`, or every issue, each naming the file.
template <typename T>
Result<std::vector<T>> finish(std::optional<std::vector<T>> out, Issues issues, const QString& path)
{
    inFile(issues, path.toStdString());
    if (!out || hasErrors(issues))
        return Failure{std::move(issues)};
    return Result<std::vector<T>>::success(std::move(*out), std::move(issues));
}

std::optional<std::vector<TraceNode>> nodesOf(const QByteArray& bytes, Issues& issues);
std::optional<std::vector<TraceTask>> tasksOf(const QByteArray& bytes, Issues& issues);

} // namespace

Result<std::vector<TraceNode>> readTraceNodes(const QString& path)
{
    return readTrace<TraceNode>(path, parseTraceNodes);
}

Result<std::vector<TraceTask>> readTraceTasks(const QString& path)
{
    return readTrace<TraceTask>(path, parseTraceTasks);
}

Result<std::vector<TraceNode>> parseTraceNodes(const QByteArray& bytes, const QString& path)
{
    Issues issues;
    auto nodes = nodesOf(bytes, issues);
    return finish(std::move(nodes), std::move(issues), path);
}

Result<std::vector<TraceTask>> parseTraceTasks(const QByteArray& bytes, const QString& path)
{
    Issues issues;
    auto tasks = tasksOf(bytes, issues);
    return finish(std::move(tasks), std::move(issues), path);
}

namespace {

std::optional<std::vector<TraceNode>> nodesOf(const QByteArray& bytes, Issues& issues)
{
    const std::size_t before = issues.size();
    auto csv = parseCsv(&bytes, {"sn", "cpu_milli", "memory_mib", "gpu", "model"}, issues);
    if (!csv)
        return std::nullopt;
    std::vector<TraceNode> nodes;
    for (const auto& row : csv->rows) {
        TraceNode n;
        n.name = row.second[csv->columns.at("sn")].trimmed().toStdString();
        auto cpu = integer(*csv, row, "cpu_milli", 100'000'000, issues);
        auto mem = integer(*csv, row, "memory_mib", 1'000'000'000'000, issues);
        auto gpus = integer(*csv, row, "gpu", 64, issues);
        n.model = row.second[csv->columns.at("model")].trimmed().toStdString();
        if (!cpu || !mem || !gpus)
            continue;
        n.cpuMilli = static_cast<int>(*cpu);
        n.memoryMib = *mem;
        n.gpus = static_cast<int>(*gpus);
        if (n.gpus > 0 && n.model.empty())
            issues.push_back(
                Issue::error("line " + std::to_string(row.first) + ", model", "a node with GPUs needs a GPU model"));
        nodes.push_back(n);
    }
    if (nodes.empty() && !hasErrors(issues, before))
        issues.push_back(Issue::error("", "no nodes in the file"));
    if (hasErrors(issues, before))
        return std::nullopt;
    return nodes;
}

std::optional<std::vector<TraceTask>> tasksOf(const QByteArray& bytes, Issues& issues)
{
    const std::size_t before = issues.size();
    auto csv = parseCsv(&bytes, {"name", "cpu_milli", "memory_mib", "num_gpu", "gpu_milli"}, issues);
    if (!csv)
        return std::nullopt;
    const bool hasSpec = csv->columns.count("gpu_spec") > 0;
    std::vector<TraceTask> tasks;
    for (const auto& row : csv->rows) {
        TraceTask t;
        t.name = row.second[csv->columns.at("name")].trimmed().toStdString();
        t.line = row.first;
        auto cpu = integer(*csv, row, "cpu_milli", 100'000'000, issues);
        auto mem = integer(*csv, row, "memory_mib", 1'000'000'000'000, issues);
        auto num = integer(*csv, row, "num_gpu", 64, issues);
        auto milli = integer(*csv, row, "gpu_milli", 1000, issues);
        if (!cpu || !mem || !num || !milli)
            continue;
        t.cpuMilli = static_cast<int>(*cpu);
        t.memoryMib = *mem;
        t.numGpu = static_cast<int>(*num);
        t.gpuMilli = static_cast<int>(*milli);
        const std::string where = "line " + std::to_string(row.first);
        if (t.numGpu > 1 && t.gpuMilli != 1000)
            issues.push_back(Issue::error(where + ", gpu_milli", "a multi-GPU task must ask for whole GPUs "
                                                                 "(1000), not " +
                                                                     std::to_string(t.gpuMilli)));
        if (t.numGpu >= 1 && t.gpuMilli == 0)
            issues.push_back(Issue::error(where + ", gpu_milli", "a task with GPUs must ask for a share above 0"));
        if (t.numGpu == 0)
            t.gpuMilli = 0;
        if (hasSpec) {
            const QString spec = row.second[csv->columns.at("gpu_spec")].trimmed();
            for (const QString& m : spec.split('|', Qt::SkipEmptyParts))
                t.gpuSpec.push_back(m.toStdString());
        }
        tasks.push_back(t);
    }
    if (tasks.empty() && !hasErrors(issues, before))
        issues.push_back(Issue::error("", "no tasks in the file"));
    if (hasErrors(issues, before))
        return std::nullopt;
    return tasks;
}

} // namespace

Issues checkTaskModels(const std::vector<TraceTask>& tasks, const std::vector<TraceNode>& nodes,
                       const QString& tasksPath)
{
    std::set<std::string> models;
    for (const TraceNode& n : nodes)
        if (n.gpus > 0)
            models.insert(n.model);
    std::string known;
    for (const std::string& m : models)
        known += (known.empty() ? "" : ", ") + m;
    Issues issues;
    for (const TraceTask& t : tasks)
        for (const std::string& m : t.gpuSpec)
            if (!models.count(m))
                issues.push_back(Issue::error("line " + std::to_string(t.line) + ", gpu_spec",
                                              "'" + m + "' is the GPU model of no node in the node list (" +
                                                  (known.empty() ? std::string("none has GPUs") : known) + ")"));
    inFile(issues, tasksPath.toStdString());
    return issues;
}

} // namespace gp::io
