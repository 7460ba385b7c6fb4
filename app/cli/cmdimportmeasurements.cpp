// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
// gpuplan-cli import-measurements: benchmark results and training logs as measurements of one job, checked
// against it and put beside the plan's prediction (docs/cli.md#import-measurements, issue 38 2a).
#include "clicontext.h"

#include "calc/evaluate.h"
#include "io/benchmarkimport.h"
#include "io/filewriter.h"
#include "io/jsonfile.h"
#include "io/measurementsio.h"
#include "study/measuredprediction.h"
#include "study/measurementcheck.h"

#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>

#include <cmath>
#include <set>

namespace gp::cli {

namespace importmeasurements {

/// Exit statuses of import-measurements beyond 0/1/2 (its --help and docs/cli.md say the same).
enum ImportExit : int
{
    kMismatch = 3,      ///< a file ran something the job does not: nothing written
    kContradiction = 4, ///< written, but two measurements of the same figure contradict each other
};

/// Benchmark files and training logs: a training log may be long.
constexpr qint64 kMaxBenchmarkBytes = 512ll * 1024 * 1024;

const char* kImportDescription =
    "Read benchmark results and training logs as measurements of one job of the plan (--job), check what\n"
    "each file says it ran against the job, and put each measurement beside the plan's prediction.\n"
    "\n"
    "Files (the tool is detected from the content; --tool forces it): trtllm-bench throughput reports\n"
    "(--report_json, or the printed report), vLLM serving benchmark JSON (vllm bench serve --save-result),\n"
    "SGLang bench_serving JSON lines (--output-file), genai-perf and AIPerf exports\n"
    "(profile_export_genai_perf.json, profile_export_aiperf.json), Megatron-LM / Megatron-Bridge, NeMo and\n"
    "Composer (llm-foundry) training logs: the steady-state mean after the first --skip-warmup iterations.\n"
    "docs/measurements.md#benchmark-files maps each file's figures to quantities.\n"
    "\n"
    "What a file states and the job states too - model (by preset), tp, pp, ep, precision, input and\n"
    "output length (within 10 %), concurrency, the GPUs and batch of a training run, the GPU family - must\n"
    "agree: a difference is refused naming both values, unless --allow-mismatch keeps it (then recorded\n"
    "in the measurement's config as allowed_mismatch).\n"
    "\n"
    "--out appends to a measurements file (created if missing; a measurement already there is skipped);\n"
    "the file is replaced whole or left byte for byte as it was. Two measurements of one job, quantity and\n"
    "statistic under the same stated load that differ by more than --tolerance are reported.\n"
    "\n"
    "Exit status: 0 imported; 1 runtime failure (the file could not be written); 2 bad input or usage (a\n"
    "file unreadable, garbled, truncated, of an unknown tool version or another tool's format; no such\n"
    "job); 3 a file contradicts the job (nothing written); 4 imported and written, but measurements\n"
    "contradict each other.";

struct Imported
{
    QString file;
    io::BenchmarkTool tool;
    std::vector<Measurement> items;
};

struct Row
{
    const Measurement* m = nullptr;
    std::optional<double> predicted;
    std::string why;
};

QString unitText(const Measurement& m)
{
    return QString::fromUtf8(quantityUnit(m.quantity).data(), static_cast<int>(quantityUnit(m.quantity).size()));
}

QString q(std::string_view s) { return QString::fromUtf8(s.data(), static_cast<int>(s.size())); }

QString value(double v) { return QString::number(v, 'g', 6); }

std::optional<double> difference(const Row& r)
{
    if (!r.predicted || *r.predicted <= 0.0)
        return std::nullopt;
    return (r.m->value - *r.predicted) / *r.predicted;
}

QJsonObject rowJson(const Row& r)
{
    QJsonObject o = io::toJson(*r.m);
    o["predicted"] = r.predicted ? QJsonValue(*r.predicted) : QJsonValue();
    if (!r.predicted)
        o["no_prediction"] = QString::fromStdString(r.why);
    const auto d = difference(r);
    o["difference"] = d ? QJsonValue(*d) : QJsonValue();
    return o;
}

void printRows(const std::vector<Row>& rows)
{
    for (const Row& r : rows) {
        const Measurement& m = *r.m;
        QString line = QString("  %1 %2  measured %3 %4")
                           .arg(q(quantityName(m.quantity)).leftJustified(20),
                                q(statisticName(m.statistic)).leftJustified(4), value(m.value), unitText(m));
        if (r.predicted) {
            line += QString("  predicted %1").arg(value(*r.predicted));
            if (const auto d = difference(r))
                line += QString("  %1%2 %").arg(*d >= 0 ? "+" : "").arg(*d * 100.0, 0, 'f', 1);
        } else {
            line += "  predicted -: " + QString::fromStdString(r.why);
        }
        out() << line << "\n      " << QString::fromStdString(m.source) << '\n';
    }
}

/// Measurements of `path` as the file already holds them; false (having said why) when it cannot be read.
bool readExisting(const QString& path, const Scenario& s, MeasurementSet& set)
{
    if (!QFileInfo::exists(path))
        return true;
    Issues issues;
    const auto bytes = io::readFileBytes(path, issues);
    if (bytes)
        set = io::readMeasurements(*bytes, issues);
    if (hasErrors(issues)) {
        for (const Issue& i : issues)
            err() << formatIssue(path, i) << '\n';
        err() << "import-measurements: " << path << " is not a measurements file gpuplan can add to; nothing written"
              << Qt::endl;
        return false;
    }
    if (!set.scenarioId.empty() && set.scenarioId != s.name) {
        err() << path << ": holds measurements of scenario '" << QString::fromStdString(set.scenarioId) << "', not of '"
              << QString::fromStdString(s.name) << "'; nothing written" << Qt::endl;
        return false;
    }
    return true;
}

/// What makes a measurement the same one again: job, quantity, statistic, value and source.
std::string identity(const Measurement& m)
{
    return m.jobId + '\n' + std::string(quantityName(m.quantity)) + '\n' + std::string(statisticName(m.statistic)) +
           '\n' + QString::number(m.value, 'g', 17).toStdString() + '\n' + m.source;
}

} // namespace importmeasurements

using namespace importmeasurements;

int runImportMeasurements(const QStringList& args)
{
    CommandLine cl("import-measurements", kImportDescription);
    QCommandLineParser& p = cl.parser();
    p.addPositionalArgument("SCENARIO", "The plan (scenario JSON).");
    p.addPositionalArgument("FILE", "Benchmark results or training logs (one or more).", "FILE...");
    p.addOption({"job", "The id of the plan's job the files measured.", "JOB"});
    p.addOption(
        {"tool", "The tool the files are from: " + QString::fromStdString(io::benchmarkToolNames()) + ".", "TOOL"});
    p.addOption(
        {"skip-warmup",
         QString("Training logs: iterations at the start counted as warm-up (default %1).").arg(io::kDefaultSkipWarmup),
         "N", QString::number(io::kDefaultSkipWarmup)});
    p.addOption({"out", "Append the measurements to this measurements file (created if missing).", "FILE"});
    p.addOption({"allow-mismatch", "Keep measurements of a configuration that differs from the job's."});
    p.addOption({"tolerance", "Report two measurements of one figure that differ by more than this (default 15%).",
                 "PCT", "15"});
    p.addOption({"json", "Print the result as JSON (docs/cli.md#import-measurements)."});
    if (auto done = cl.parse(args))
        return *done;
    const QStringList pos = p.positionalArguments();
    if (pos.size() < 2)
        return cl.refuse("give a SCENARIO and at least one FILE");
    if (!p.isSet("job") || p.value("job").isEmpty())
        return cl.refuse("--job JOB is required: the id of the job the files measured");
    io::BenchmarkOptions options;
    if (p.isSet("tool")) {
        options.tool = io::benchmarkToolFromName(p.value("tool").toStdString());
        if (!options.tool)
            return cl.refuse("--tool '" + p.value("tool") + "' must be one of " +
                             QString::fromStdString(io::benchmarkToolNames()));
    }
    bool ok = false;
    options.skipWarmup = p.value("skip-warmup").toInt(&ok);
    if (!ok || options.skipWarmup < 0)
        return cl.refuse("--skip-warmup must be a whole number of iterations, 0 or more");
    QString tol = p.value("tolerance");
    tol.remove('%');
    const double tolerance = tol.toDouble(&ok) / 100.0;
    if (!ok || !std::isfinite(tolerance) || tolerance <= 0.0)
        return cl.refuse("--tolerance must be a percentage above 0, e.g. 15");
    const QString output = p.value("out");
    if (p.isSet("out") && (output.isEmpty() || output == "-"))
        return cl.refuse("--out must name a measurements file");
    if (!output.isEmpty() && !outputIsNotAnInput(p, output, pos))
        return kBadInput;

    auto catalog = loadCatalogOrReport(p);
    if (!catalog)
        return kFailure;
    const auto scenario = readScenarioOrReport(pos.front(), *catalog);
    if (!scenario)
        return kBadInput;
    const std::string jobId = p.value("job").toStdString();
    const Job* job = scenario->findJob(jobId);
    if (!job) {
        QStringList ids;
        for (const Tenant& t : scenario->tenants)
            for (const Job& j : t.jobs)
                ids << QString::fromStdString(j.id);
        err() << pos.front() << ": has no job '" << p.value("job") << "'; its jobs: " << ids.join(", ") << Qt::endl;
        return kBadInput;
    }

    // Every file read whole before anything is checked or written.
    std::vector<Imported> imported;
    bool failed = false;
    for (const QString& file : pos.mid(1)) {
        Issues issues;
        const auto bytes = io::readFileBytes(file, issues, kMaxBenchmarkBytes);
        Result<io::BenchmarkImport> r = bytes ? io::readBenchmark(*bytes, file.toStdString(), options)
                                              : Result<io::BenchmarkImport>::failure(issues);
        for (Issue& i : r.issues) {
            if (i.file.empty())
                i.file = file.toStdString();
            err() << (i.isError() ? "" : "warning: ") << QString::fromStdString(i.toString()) << '\n';
        }
        if (!r) {
            failed = true;
            continue;
        }
        for (Measurement& m : r->measurements)
            m.jobId = jobId;
        imported.push_back({file, r->tool, std::move(r->measurements)});
    }
    if (failed) {
        err() << "import-measurements: nothing imported, nothing written" << Qt::endl;
        return kBadInput;
    }

    const calc::Evaluation evaluation = calc::evaluate(*scenario, *catalog);
    const calc::JobResult* result = nullptr;
    for (const calc::JobResult& r : evaluation.jobs)
        if (r.id == jobId)
            result = &r;

    // What the files ran, against the job: one line per file and key.
    std::set<std::string> said;
    int mismatches = 0;
    for (Imported& f : imported)
        for (Measurement& m : f.items) {
            const study::ConfigCheck check = study::checkAgainstJob(m, *job, *catalog, result ? result->gpuId : "");
            std::string allowed;
            for (const study::ConfigMismatch& x : check.mismatches) {
                allowed += (allowed.empty() ? "" : "; ") + x.key + " " + x.fileValue + " vs job " + x.jobValue;
                if (said.insert(f.file.toStdString() + '\n' + x.key).second) {
                    ++mismatches;
                    err() << (p.isSet("allow-mismatch") ? "warning: " : "") << f.file << ": config." << q(x.key) << ": "
                          << QString::fromStdString(x.message()) << " (job " << p.value("job") << ")\n";
                }
            }
            for (const std::string& note : check.notes)
                if (said.insert(f.file.toStdString() + '\n' + note).second)
                    err() << "note: " << f.file << ": " << QString::fromStdString(note) << '\n';
            if (!allowed.empty())
                m.config["allowed_mismatch"] = allowed;
        }
    err() << Qt::flush;
    if (mismatches > 0 && !p.isSet("allow-mismatch")) {
        err() << "import-measurements: the files ran something job " << p.value("job")
              << " does not; nothing written (--allow-mismatch keeps them)" << Qt::endl;
        return kMismatch;
    }

    // The measurements file as it is, then the new ones after it.
    MeasurementSet set;
    if (!output.isEmpty() && !readExisting(output, *scenario, set))
        return kBadInput;
    const std::size_t before = set.items.size();
    std::size_t duplicates = 0;
    std::set<std::string> there;
    for (const Measurement& m : set.items)
        there.insert(identity(m));
    for (const Imported& f : imported)
        for (const Measurement& m : f.items) {
            if (there.count(identity(m)))
                ++duplicates;
            else
                set.items.push_back(m);
        }
    if (set.items.size() > io::kMaxMeasurements) {
        err() << output << ": would hold " << set.items.size() << " measurements, more than " << io::kMaxMeasurements
              << "; nothing written" << Qt::endl;
        return kBadInput;
    }
    std::vector<study::Contradiction> contradictions;
    for (const study::Contradiction& c : study::contradictions(set.items, tolerance))
        if (c.first >= before || c.second >= before)
            contradictions.push_back(c);
    if (!output.isEmpty()) {
        if (set.scenarioId.empty())
            set.scenarioId = scenario->name;
        if (const Status written = io::writeFileAtomically(output, io::measurementsToJson(set)); !written) {
            err() << QString::fromStdString(written.errorText()) << "\nimport-measurements: nothing written"
                  << Qt::endl;
            return kFailure;
        }
    }

    std::vector<Row> rows;
    for (std::size_t i = before; i < set.items.size(); ++i) {
        Row r{&set.items[i], std::nullopt, {}};
        if (result)
            r.predicted = study::predictedFor(*result, *job, *catalog, r.m->quantity, r.m->statistic, &r.why);
        else
            r.why = "the plan has no result for the job";
        rows.push_back(r);
    }
    if (p.isSet("json")) {
        QJsonObject doc;
        doc["scenario"] = QString::fromStdString(scenario->name);
        doc["job"] = QString::fromStdString(jobId);
        QJsonArray files;
        for (const Imported& f : imported)
            files.append(QJsonObject{{"file", f.file},
                                     {"tool", q(io::benchmarkToolName(f.tool))},
                                     {"measurements", static_cast<int>(f.items.size())}});
        doc["files"] = files;
        QJsonArray items;
        for (const Row& r : rows)
            items.append(rowJson(r));
        doc["measurements"] = items;
        QJsonArray contra;
        for (const study::Contradiction& c : contradictions)
            contra.append(QJsonObject{{"first", io::toJson(set.items[c.first])},
                                      {"second", io::toJson(set.items[c.second])},
                                      {"relative_difference", c.relative}});
        doc["contradictions"] = contra;
        doc["tolerance"] = tolerance;
        doc["skipped_duplicates"] = static_cast<int>(duplicates);
        doc["written"] = output.isEmpty() ? QJsonValue() : QJsonValue(output);
        out() << QJsonDocument(doc).toJson(QJsonDocument::Indented);
    } else {
        out() << pos.front() << ", job " << p.value("job") << " (" << QString::fromStdString(job->name)
              << "): " << rows.size() << " measurements from " << imported.size() << " file(s)\n";
        for (const Imported& f : imported)
            out() << "  " << f.file << ": " << q(io::benchmarkToolTitle(f.tool)) << ", " << f.items.size()
                  << " measurements\n";
        out() << '\n';
        printRows(rows);
        for (const study::Contradiction& c : contradictions) {
            const Measurement& a = set.items[c.first];
            const Measurement& b = set.items[c.second];
            out() << "\ncontradiction: " << q(quantityName(a.quantity)) << " " << q(statisticName(a.statistic))
                  << " of job " << QString::fromStdString(a.jobId) << ": " << value(a.value) << " ("
                  << QString::fromStdString(a.source) << ") and " << value(b.value) << " ("
                  << QString::fromStdString(b.source) << ") differ by " << QString::number(c.relative * 100.0, 'f', 0)
                  << " %, beyond " << tolerance * 100.0 << " %\n";
        }
        if (!output.isEmpty())
            out() << '\n'
                  << output << ": " << rows.size() << " measurements added"
                  << (duplicates ? QString(" (%1 already there, skipped)").arg(duplicates) : QString()) << ", "
                  << set.items.size() << " in all\n";
    }
    return contradictions.empty() ? static_cast<int>(kOk) : static_cast<int>(kContradiction);
}

} // namespace gp::cli
