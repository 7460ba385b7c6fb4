// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#include "tracereader.h"

#include "jsonfile.h"
#include "model/limits.h"
#include "model/validation.h"

#include <charconv>
#include <functional>
#include <map>
#include <set>

namespace gp::io {

namespace {

/// The next line of the input, without its line break: false at the end. A read error or a
/// line or file over its limit ends the input with an issue.
using LineSource = std::function<bool(QByteArray& line)>;

/// Lines from bytes in memory (the fuzz targets, tests).
LineSource bytesLines(const QByteArray& bytes)
{
    auto pos = std::make_shared<qsizetype>(0);
    return [&bytes, pos](QByteArray& line) {
        if (*pos >= bytes.size())
            return false;
        qsizetype end = bytes.indexOf('\n', *pos);
        if (end < 0)
            end = bytes.size();
        line = bytes.mid(*pos, end - *pos);
        *pos = end + 1;
        return true;
    };
}

/// Lines read one by one from an open file, at most kMaxTraceBytes in all (the file may grow
/// while it is read) and kMaxTraceLineBytes each: memory follows the rows kept, not the file.
LineSource fileLines(QFile& file, Issues& issues)
{
    auto total = std::make_shared<qint64>(0);
    auto number = std::make_shared<long long>(0);
    auto buffer = std::make_shared<QByteArray>(static_cast<qsizetype>(limits::kMaxTraceLineBytes + 2), '\0');
    return [&file, &issues, total, number, buffer](QByteArray& line) {
        if (file.atEnd())
            return false;
        const qint64 n = file.readLine(buffer->data(), buffer->size());
        if (n < 0) {
            issues.push_back(Issue::error("", "cannot read: " + file.errorString().toStdString()));
            return false;
        }
        ++*number;
        *total += n;
        if (*total > limits::kMaxTraceBytes) {
            issues.push_back(Issue::error("", overLimitMessage(limits::kMaxTraceBytes)));
            return false;
        }
        const bool complete = n > 0 && (*buffer)[n - 1] == '\n';
        if (!complete && n > limits::kMaxTraceLineBytes) {
            issues.push_back(Issue::error("line " + std::to_string(*number),
                                          "longer than " + std::to_string(limits::kMaxTraceLineBytes / 1024) +
                                              " KiB: not a trace row"));
            return false;
        }
        line = QByteArray(buffer->constData(), static_cast<qsizetype>(complete ? n - 1 : n));
        return true;
    };
}

/// A CSV table read row by row (no quoting in the trace; LF or CRLF ends a line): the header's
/// columns, then each row's fields with its line number.
class CsvRows
{
public:
    CsvRows(LineSource lines, Issues& issues) : mLines(std::move(lines)), mIssues(issues) {}

    /// Reads the header; false (with an issue) when it lacks a required column.
    bool header(const std::vector<const char*>& required)
    {
        QByteArray line;
        if (!next(line) || line.trimmed().isEmpty()) {
            if (!hasErrors(mIssues))
                mIssues.push_back(Issue::error("line 1", "empty file: expected a header row"));
            return false;
        }
        const QList<QByteArray> header = line.trimmed().split(',');
        mWidth = header.size();
        for (int i = 0; i < header.size(); ++i)
            mColumns[header[i].trimmed().toStdString()] = i;
        std::string missing;
        for (const char* r : required)
            if (!mColumns.count(r))
                missing += (missing.empty() ? "" : ", ") + std::string(r);
        if (!missing.empty()) {
            mIssues.push_back(Issue::error("line 1", "missing column(s) " + missing +
                                                         " (header: " + line.trimmed().left(200).toStdString() + ")"));
            return false;
        }
        return true;
    }

    bool has(const char* column) const { return mColumns.count(column) > 0; }
    int column(const char* name) const { return mColumns.at(name); }

    /// The next non-empty row with the header's number of fields; rows of another width are
    /// reported and skipped. False at the end, or once kMaxTraceErrors errors are reported.
    bool row(QList<QByteArray>& fields)
    {
        QByteArray line;
        while (!tooManyErrors() && next(line)) {
            line = line.trimmed();
            if (line.isEmpty())
                continue;
            fields = line.split(',');
            if (fields.size() != mWidth) {
                error("", std::to_string(fields.size()) + " fields, expected " + std::to_string(mWidth));
                continue;
            }
            return true;
        }
        return false;
    }

    long long line() const { return mLine; }
    std::string where(const char* column) const
    {
        return "line " + std::to_string(mLine) + (column ? std::string(", ") + column : std::string());
    }
    void error(const char* column, const std::string& why)
    {
        mIssues.push_back(Issue::error(where(*column ? column : nullptr), why));
        ++mErrors;
        if (tooManyErrors())
            mIssues.push_back(Issue::error(where(nullptr), "stopped after " + std::to_string(limits::kMaxTraceErrors) +
                                                               " errors (is this the right file?)"));
    }
    bool tooManyErrors() const { return mErrors >= limits::kMaxTraceErrors; }

    /// A non-negative integer field, or an error naming line, column and value.
    std::optional<long long> integer(const QList<QByteArray>& fields, const char* column, long long maxValue)
    {
        const QByteArray text = fields[mColumns.at(column)].trimmed();
        long long v = 0;
        const auto [end, ec] = std::from_chars(text.constData(), text.constData() + text.size(), v);
        // QByteArray::toLongLong accepted a leading '+'; keep doing so.
        bool ok = ec == std::errc() && end == text.constData() + text.size() && !text.isEmpty();
        if (!ok && text.startsWith('+')) {
            v = text.toLongLong(&ok);
        }
        if (!ok || v < 0 || v > maxValue) {
            error(column,
                  "'" + text.left(40).toStdString() + "' is not a whole number from 0 to " + std::to_string(maxValue));
            return std::nullopt;
        }
        return v;
    }

    /// A name field (limits::kMaxNameChars, no control characters), or an error.
    std::string name(const QList<QByteArray>& fields, const char* column)
    {
        std::string s = fields[mColumns.at(column)].trimmed().toStdString();
        if (std::string why = textProblem(s, TextKind::Name); !why.empty()) {
            error(column, why);
            return {};
        }
        return s;
    }

private:
    bool next(QByteArray& line)
    {
        if (!mLines(line))
            return false;
        ++mLine;
        return true;
    }

    LineSource mLines;
    Issues& mIssues;
    std::map<std::string, int> mColumns;
    qsizetype mWidth = 0;
    long long mLine = 0;
    std::size_t mErrors = 0;
};

std::optional<std::vector<TraceNode>> nodesOf(CsvRows& csv, Issues& issues)
{
    const std::size_t before = issues.size();
    if (!csv.header({"sn", "cpu_milli", "memory_mib", "gpu", "model"}))
        return std::nullopt;
    std::vector<TraceNode> nodes;
    QList<QByteArray> row;
    while (csv.row(row)) {
        TraceNode n;
        n.name = csv.name(row, "sn");
        auto cpu = csv.integer(row, "cpu_milli", 100'000'000);
        auto mem = csv.integer(row, "memory_mib", 1'000'000'000'000);
        auto gpus = csv.integer(row, "gpu", 64);
        n.model = csv.name(row, "model");
        if (!cpu || !mem || !gpus)
            continue;
        n.cpuMilli = static_cast<int>(*cpu);
        n.memoryMib = *mem;
        n.gpus = static_cast<int>(*gpus);
        if (n.gpus > 0 && n.model.empty() && row[csv.column("model")].trimmed().isEmpty())
            csv.error("model", "a node with GPUs needs a GPU model");
        if (!hasErrors(issues, before))
            nodes.push_back(std::move(n));
    }
    if (nodes.empty() && !hasErrors(issues, before))
        issues.push_back(Issue::error("", "no nodes in the file"));
    if (hasErrors(issues, before))
        return std::nullopt;
    return nodes;
}

std::optional<std::vector<TraceTask>> tasksOf(CsvRows& csv, Issues& issues)
{
    const std::size_t before = issues.size();
    if (!csv.header({"name", "cpu_milli", "memory_mib", "num_gpu", "gpu_milli"}))
        return std::nullopt;
    const bool hasSpec = csv.has("gpu_spec");
    std::vector<TraceTask> tasks;
    QList<QByteArray> row;
    while (csv.row(row)) {
        TraceTask t;
        t.name = csv.name(row, "name");
        t.line = static_cast<int>(std::min<long long>(csv.line(), std::numeric_limits<int>::max()));
        auto cpu = csv.integer(row, "cpu_milli", 100'000'000);
        auto mem = csv.integer(row, "memory_mib", 1'000'000'000'000);
        auto num = csv.integer(row, "num_gpu", 64);
        auto milli = csv.integer(row, "gpu_milli", 1000);
        if (!cpu || !mem || !num || !milli)
            continue;
        t.cpuMilli = static_cast<int>(*cpu);
        t.memoryMib = *mem;
        t.numGpu = static_cast<int>(*num);
        t.gpuMilli = static_cast<int>(*milli);
        if (t.numGpu > 1 && t.gpuMilli != 1000)
            csv.error("gpu_milli",
                      "a multi-GPU task must ask for whole GPUs (1000), not " + std::to_string(t.gpuMilli));
        if (t.numGpu >= 1 && t.gpuMilli == 0)
            csv.error("gpu_milli", "a task with GPUs must ask for a share above 0");
        if (t.numGpu == 0)
            t.gpuMilli = 0;
        if (hasSpec)
            for (const QByteArray& m : row[csv.column("gpu_spec")].trimmed().split('|'))
                if (!m.isEmpty()) {
                    std::string model = m.toStdString();
                    if (std::string why = textProblem(model, TextKind::Name); !why.empty())
                        csv.error("gpu_spec", why);
                    else
                        t.gpuSpec.push_back(std::move(model));
                }
        // Once a row failed, nothing more is kept: the file is refused, memory stays small.
        if (!hasErrors(issues, before))
            tasks.push_back(std::move(t));
    }
    if (tasks.empty() && !hasErrors(issues, before))
        issues.push_back(Issue::error("", "no tasks in the file"));
    if (hasErrors(issues, before))
        return std::nullopt;
    return tasks;
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

/// Reads `path` (a regular file of at most kMaxTraceBytes) line by line with `parse`, naming
/// the file in every issue.
template <typename T, typename Parse> Result<std::vector<T>> readTrace(const QString& path, Parse parse)
{
    Issues issues;
    const std::unique_ptr<QFile> file = openRegularFile(path, issues, limits::kMaxTraceBytes);
    if (!file)
        return finish<T>(std::nullopt, std::move(issues), path);
    CsvRows csv(fileLines(*file, issues), issues);
    auto rows = parse(csv, issues);
    return finish(std::move(rows), std::move(issues), path);
}

} // namespace

Result<std::vector<TraceNode>> readTraceNodes(const QString& path) { return readTrace<TraceNode>(path, nodesOf); }

Result<std::vector<TraceTask>> readTraceTasks(const QString& path) { return readTrace<TraceTask>(path, tasksOf); }

Result<std::vector<TraceNode>> parseTraceNodes(const QByteArray& bytes, const QString& path)
{
    Issues issues;
    CsvRows csv(bytesLines(bytes), issues);
    auto nodes = nodesOf(csv, issues);
    return finish(std::move(nodes), std::move(issues), path);
}

Result<std::vector<TraceTask>> parseTraceTasks(const QByteArray& bytes, const QString& path)
{
    Issues issues;
    CsvRows csv(bytesLines(bytes), issues);
    auto tasks = tasksOf(csv, issues);
    return finish(std::move(tasks), std::move(issues), path);
}

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
            if (!models.count(m)) {
                issues.push_back(Issue::error("line " + std::to_string(t.line) + ", gpu_spec",
                                              "'" + m + "' is the GPU model of no node in the node list (" +
                                                  (known.empty() ? std::string("none has GPUs") : known) + ")"));
                if (issues.size() >= limits::kMaxTraceErrors)
                    break;
            }
    inFile(issues, tasksPath.toStdString());
    return issues;
}

} // namespace gp::io
