// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
// gpuplan-cli sweep: a grid of what-ifs or of placement replays, whole or one shard of it, and
// the merge of shards (docs/sweeps.md).
#include "clicontext.h"

#include "io/clusterconfigwriter.h"
#include "io/jsonfile.h"
#include "io/scenariowriter.h"
#include "study/sweep.h"
#include "ui/figures/sweepcharts.h"

#include <QCryptographicHash>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcessEnvironment>

#include <cmath>
#include <map>
#include <set>

namespace gp::cli {

namespace {

using Files = std::vector<std::pair<QString, QByteArray>>;

/// The files of a sweep's output folder, written all or none: results.csv, sweep.json,
/// spec.json, base.json (if any) and, for a whole run or a merge (not a shard), the charts along
/// each axis in charts/.
bool writeSweepFolder(const QString& outDir, Files files, bool charts)
{
    if (charts) {
        const Result<study::SweepTable> table = study::readSweepResults(files.front().second);
        if (!table) {
            err() << outDir << ": " << QString::fromStdString(table.errorText()) << Qt::endl;
            return false;
        }
        for (auto& [name, bytes] : ui::sweepChartFiles(*table))
            files.emplace_back("charts/" + name, std::move(bytes));
    }
    return saveFilesAtomically(outDir, files);
}

/// The summary beside results.csv: the same for a whole run and the merge of its shards.
QByteArray summaryJson(const study::SweepSpec& spec, std::optional<std::pair<int, int>> shard, long long rows)
{
    QJsonObject o{{"format_version", 1},
                  {"spec_sha256", QString::fromLatin1(spec.digest)},
                  {"points", static_cast<double>(spec.points())},
                  {"rows", static_cast<double>(rows)}};
    if (spec.kind == study::SweepKind::Replay) // where the spec's trace files are, for the workbench
        o.insert("spec_folder", QDir(spec.folder).absolutePath());
    if (shard)
        o.insert("shard", QString("%1/%2").arg(shard->first).arg(shard->second));
    return QJsonDocument(o).toJson(QJsonDocument::Indented);
}

/// The shard from --shard I/N, else from a Slurm job array or a Kubernetes Indexed Job; nullopt
/// for the whole grid; an error text when it is malformed or out of range.
std::optional<std::pair<int, int>> shardOf(const QCommandLineParser& p, QString& error)
{
    auto parse = [&](const QString& text, const QString& from) -> std::optional<std::pair<int, int>> {
        const QStringList parts = text.split('/');
        bool okI = false, okN = false;
        const int i = parts.value(0).toInt(&okI), n = parts.value(1).toInt(&okN);
        if (parts.size() != 2 || !okI || !okN || n < 1 || n > limits::kMaxSweepShards || i < 1 || i > n) {
            error = from + " '" + text + "' is not a shard I/N with 1 <= I <= N";
            return std::nullopt;
        }
        return std::make_pair(i, n);
    };
    if (p.isSet("shard"))
        return parse(p.value("shard"), "--shard");
    const auto env = QProcessEnvironment::systemEnvironment();
    if (env.contains("SLURM_ARRAY_TASK_ID") && env.contains("SLURM_ARRAY_TASK_COUNT")) {
        const int id = env.value("SLURM_ARRAY_TASK_ID").toInt();
        const int min = env.value("SLURM_ARRAY_TASK_MIN", "0").toInt();
        return parse(QString("%1/%2").arg(id - min + 1).arg(env.value("SLURM_ARRAY_TASK_COUNT")),
                     "SLURM_ARRAY_TASK_ID/COUNT");
    }
    if (env.contains("JOB_COMPLETION_INDEX") && env.contains("GPUPLAN_SHARD_COUNT"))
        return parse(
            QString("%1/%2").arg(env.value("JOB_COMPLETION_INDEX").toInt() + 1).arg(env.value("GPUPLAN_SHARD_COUNT")),
            "JOB_COMPLETION_INDEX/GPUPLAN_SHARD_COUNT");
    return std::nullopt;
}

/// A file of a shard's folder, read as every input is (a regular file within the JSON limit);
/// nullopt after saying why.
std::optional<QByteArray> readShardFile(const QString& file)
{
    Issues issues;
    std::optional<QByteArray> bytes = io::readFileBytes(file, issues);
    for (const Issue& i : issues)
        err() << formatIssue(file, i) << '\n';
    err() << Qt::flush;
    return bytes;
}

int merge(const QStringList& dirs, const QString& outDir)
{
    QByteArray header, digest;
    QString specFolder;
    long long points = -1;
    int count = 0;
    std::set<int> shards;
    std::map<long long, QByteArray> rows;
    for (const QString& dir : dirs) {
        const QString summaryFile = QDir(dir).filePath("sweep.json"), resultsFile = QDir(dir).filePath("results.csv");
        if (!QFileInfo::exists(summaryFile) || !QFileInfo::exists(resultsFile)) {
            err() << dir << ": no sweep.json and results.csv: not a sweep's output" << Qt::endl;
            return kBadInput;
        }
        // Both read as every input is (regular files, bounded); the summary's figures checked
        // before they size anything.
        Issues read;
        const std::optional<QByteArray> summaryBytes = io::readFileBytes(summaryFile, read);
        const std::optional<QJsonObject> summary =
            summaryBytes ? io::parseJsonObject(*summaryBytes, read) : std::nullopt;
        const std::optional<QByteArray> resultsBytes =
            summary ? io::readFileBytes(resultsFile, read, limits::kMaxSweepResultsBytes) : std::nullopt;
        if (!resultsBytes) {
            for (const Issue& i : read)
                err() << formatIssue(summary ? resultsFile : summaryFile, i) << '\n';
            err() << Qt::flush;
            return kBadInput;
        }
        const QJsonObject& o = *summary;
        const QStringList shard = o.value("shard").toString().split('/');
        if (shard.size() != 2) {
            err() << dir << ": not a shard (its sweep.json has no \"shard\")" << Qt::endl;
            return kBadInput;
        }
        bool okI = false, okN = false;
        const int shardIndex = shard[0].toInt(&okI), shardCount = shard[1].toInt(&okN);
        if (!okI || !okN || shardCount < 1 || shardCount > limits::kMaxSweepShards || shardIndex < 1 ||
            shardIndex > shardCount) {
            err() << summaryFile << ": shard '" << shard.join('/')
                  << "' is not I/N with 1 <= I <= N <= " << limits::kMaxSweepShards << Qt::endl;
            return kBadInput;
        }
        const double pointsValue = o.value("points").toDouble(-1);
        if (!(pointsValue >= 0 && pointsValue <= static_cast<double>(limits::kMaxSweepPoints)) ||
            std::floor(pointsValue) != pointsValue) {
            err() << summaryFile << ": points must be a whole number from 0 to " << limits::kMaxSweepPoints << Qt::endl;
            return kBadInput;
        }
        if (!digest.isEmpty() && o.value("spec_sha256").toString().toLatin1() != digest) {
            err() << dir << ": a shard of another spec (spec_sha256 differs from " << dirs.front() << "'s)" << Qt::endl;
            return kBadInput;
        }
        if (count && shard[1].toInt() != count) {
            err() << dir << ": shard " << shard.join('/') << " of a split into " << shard[1] << ", not " << count
                  << Qt::endl;
            return kBadInput;
        }
        digest = o.value("spec_sha256").toString().toLatin1();
        specFolder = o.value("spec_folder").toString();
        points = static_cast<long long>(pointsValue);
        count = shardCount;
        if (!shards.insert(shardIndex).second) {
            err() << dir << ": shard " << shard.join('/') << " given twice" << Qt::endl;
            return kBadInput;
        }
        const QList<QByteArray> lines = resultsBytes->split('\n');
        if (!header.isEmpty() && lines.value(0) != header) {
            err() << dir << ": results.csv has another header" << Qt::endl;
            return kBadInput;
        }
        header = lines.value(0);
        for (int i = 1; i < lines.size(); ++i)
            if (!lines[i].isEmpty()) {
                bool ok = false;
                const long long point = lines[i].left(lines[i].indexOf(',')).toLongLong(&ok);
                if (!ok || point < 0 || point >= points) {
                    err() << resultsFile << ":" << i + 1 << ": not a point of this sweep (0 to " << points - 1 << ")"
                          << Qt::endl;
                    return kBadInput;
                }
                rows[point] = lines[i];
            }
    }
    if (static_cast<int>(shards.size()) != count) {
        QStringList missing;
        for (int i = 1; i <= count; ++i)
            if (!shards.count(i))
                missing << QString("%1/%2").arg(i).arg(count);
        err() << "sweep merge: missing shard(s) " << missing.join(", ") << Qt::endl;
        return kFailure;
    }
    if (static_cast<long long>(rows.size()) != points) {
        err() << "sweep merge: the shards hold " << rows.size() << " of " << points << " points" << Qt::endl;
        return kFailure;
    }
    QByteArray csv = header + "\n";
    for (const auto& [index, line] : rows)
        csv += line + "\n";
    QJsonObject o{{"format_version", 1},
                  {"spec_sha256", QString::fromLatin1(digest)},
                  {"points", static_cast<double>(points)},
                  {"rows", static_cast<double>(rows.size())}};
    if (!specFolder.isEmpty())
        o.insert("spec_folder", specFolder);
    const std::optional<QByteArray> specCopy = readShardFile(QDir(dirs.front()).filePath("spec.json"));
    const bool hasBase = QFileInfo::exists(QDir(dirs.front()).filePath("base.json"));
    const std::optional<QByteArray> baseCopy =
        hasBase ? readShardFile(QDir(dirs.front()).filePath("base.json")) : std::optional<QByteArray>(QByteArray());
    if (!specCopy || !baseCopy)
        return kBadInput;
    Files files{{"results.csv", csv},
                {"sweep.json", QJsonDocument(o).toJson(QJsonDocument::Indented)},
                {"spec.json", *specCopy}};
    if (hasBase)
        files.emplace_back("base.json", *baseCopy);
    if (!writeSweepFolder(outDir, std::move(files), true))
        return kFailure;
    out() << "merged " << count << " shards: " << rows.size() << " points into " << outDir << Qt::endl;
    return kOk;
}

} // namespace

int runSweep(const QStringList& args)
{
    CommandLine cl("sweep", "A grid of what-ifs over a base scenario, or of placement replays over traces, policies "
                            "and seeds (docs/sweeps.md): one result row per point in "
                            "OUT_DIR/results.csv with OUT_DIR/sweep.json; --shard I/N (or a Slurm job array, or a "
                            "Kubernetes Indexed Job) computes one shard, and 'sweep merge DIR... -o OUT_DIR' joins "
                            "the shards into what the whole run writes, byte for byte.");
    auto& p = cl.parser();
    p.addPositionalArgument("SPEC", "The sweep spec (JSON), or 'merge' and the shards' folders.", "SPEC|merge DIR...");
    p.addOption({{"o", "output"}, "The folder to write results.csv and sweep.json into (created).", "OUT_DIR"});
    p.addOption({"shard",
                 "Compute only shard I of N (1 <= I <= N; default: SLURM_ARRAY_TASK_ID/COUNT, or "
                 "JOB_COMPLETION_INDEX with GPUPLAN_SHARD_COUNT, else the whole grid).",
                 "I/N"});
    if (auto done = cl.parse(args))
        return *done;
    const QStringList pos = p.positionalArguments();
    if (!p.isSet("output"))
        return cl.refuse("give -o OUT_DIR");
    if (pos.value(0) == "merge") {
        if (pos.size() < 2)
            return cl.refuse("merge needs the shards' folders");
        return merge(pos.mid(1), p.value("output"));
    }
    if (pos.size() != 1)
        return cl.refuse("give one SPEC file");
    QString shardError;
    const std::optional<std::pair<int, int>> shard = shardOf(p, shardError);
    if (!shardError.isEmpty())
        return cl.refuse(shardError);
    Issues specRead;
    const std::optional<QByteArray> specFileBytes = io::readFileBytes(pos.front(), specRead); // regular, bounded
    if (!specFileBytes) {
        for (const Issue& i : specRead)
            err() << formatIssue(pos.front(), i) << '\n';
        err() << Qt::flush;
        return kBadInput;
    }
    const QByteArray& specBytes = *specFileBytes;
    Result<study::SweepSpec> spec = study::readSweepSpec(specBytes, QFileInfo(pos.front()).absolutePath());
    if (!spec) {
        for (const Issue& i : spec.issues)
            err() << formatIssue(pos.front(), i) << '\n';
        err() << Qt::flush;
        return kBadInput;
    }
    auto catalog = loadCatalogOrReport(p);
    if (!catalog)
        return kFailure;
    const Result<study::SweepInputs> inputs = study::loadSweepInputs(*spec, *catalog);
    for (const Issue& i : inputs.issues)
        err() << formatIssue(pos.front(), i) << '\n';
    err() << Qt::flush;
    if (!inputs)
        return kBadInput;
    // Shards of one spec over another base scenario or changed traces are another sweep: the
    // digest covers them.
    spec->digest = QCryptographicHash::hash(spec->digest + inputs->digest, QCryptographicHash::Sha256).toHex();
    long long rows = 0;
    const QByteArray csv =
        study::sweepCsvHeader(*spec) +
        study::sweepCsvRows(*inputs, *catalog, *spec, shard ? shard->first : 0, shard ? shard->second : 0, &rows);
    const QString outDir = p.value("output");
    const QByteArray baseBytes = inputs->base ? io::writeScenario(*inputs->base) : QByteArray();
    Files files{{"results.csv", csv}, {"sweep.json", summaryJson(*spec, shard, rows)}, {"spec.json", specBytes}};
    if (inputs->base)
        files.emplace_back("base.json", baseBytes);
    if (!writeSweepFolder(outDir, std::move(files), !shard))
        return kFailure;
    out() << rows << " of " << spec->points() << " points"
          << (shard ? QString(" (shard %1/%2)").arg(shard->first).arg(shard->second) : QString()) << " into " << outDir
          << Qt::endl;
    return kOk;
}

} // namespace gp::cli
