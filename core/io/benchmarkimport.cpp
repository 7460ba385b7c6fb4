// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
// Which tool wrote a benchmark file, and the readers' shared parts (docs/measurements.md#benchmark-files).
#include "benchmarkimport.h"

#include "benchmarkparts.h"
#include "jsonfile.h"

#include <QJsonDocument>
#include <QRegularExpression>

#include <array>
#include <cmath>
#include <numeric>
#include <utility>

namespace gp::io {

namespace {

struct ToolInfo
{
    BenchmarkTool tool;
    const char* name;
    const char* title;
};

constexpr std::array<ToolInfo, 8> kTools{{
    {BenchmarkTool::TrtllmBench, "trtllm-bench", "a trtllm-bench throughput report"},
    {BenchmarkTool::Vllm, "vllm", "a vLLM serving benchmark result (vllm bench serve --save-result)"},
    {BenchmarkTool::Sglang, "sglang", "SGLang bench_serving output (JSON lines)"},
    {BenchmarkTool::GenaiPerf, "genai-perf", "a genai-perf export (profile_export_genai_perf.json)"},
    {BenchmarkTool::Aiperf, "aiperf", "an AIPerf export (profile_export_aiperf.json)"},
    {BenchmarkTool::Megatron, "megatron", "a Megatron-LM / Megatron-Bridge training log"},
    {BenchmarkTool::Nemo, "nemo", "a NeMo training log (train_step_timing)"},
    {BenchmarkTool::Composer, "composer", "a Composer console log (llm-foundry)"},
}};

const ToolInfo& info(BenchmarkTool t)
{
    for (const ToolInfo& i : kTools)
        if (i.tool == t)
            return i;
    return kTools.front();
}

std::optional<BenchmarkTool> detectObject(const QJsonObject& o)
{
    if (o.value("engine").isObject() && o.value("performance").isObject())
        return BenchmarkTool::TrtllmBench;
    if (o.contains("aiperf_version"))
        return BenchmarkTool::Aiperf;
    if (o.value("input_config").isObject()) {
        // AIPerf's UserConfig names the models under endpoint and the load under loadgen;
        // genai-perf's config has model_names (or, before its config file, model) at the top.
        const QJsonObject config = o.value("input_config").toObject();
        if (config.value("endpoint").toObject().contains("model_names") || config.contains("loadgen"))
            return BenchmarkTool::Aiperf;
        return BenchmarkTool::GenaiPerf;
    }
    if (o.contains("mean_e2el_ms") || (o.contains("model_id") && o.contains("output_throughput")))
        return BenchmarkTool::Vllm;
    if (o.contains("mean_e2e_latency_ms") || o.contains("total_output_tokens_retokenized"))
        return BenchmarkTool::Sglang;
    return std::nullopt;
}

/// A file that is not valid JSON (truncated, garbled) is still named by the keys it shows, so the
/// reader reports its syntax error instead of "no tool".
std::optional<BenchmarkTool> detectByKeys(const QByteArray& b)
{
    if (b.contains("\"engine\"") && b.contains("\"performance\""))
        return BenchmarkTool::TrtllmBench;
    if (b.contains("\"input_config\""))
        return b.contains("\"loadgen\"") || b.contains("\"aiperf_version\"") ? BenchmarkTool::Aiperf
                                                                             : BenchmarkTool::GenaiPerf;
    if (b.contains("\"mean_e2el_ms\"") || b.contains("\"model_id\""))
        return BenchmarkTool::Vllm;
    if (b.contains("\"mean_e2e_latency_ms\"") || b.contains("\"total_output_tokens_retokenized\""))
        return BenchmarkTool::Sglang;
    return std::nullopt;
}

std::optional<BenchmarkTool> detectText(const QByteArray& b)
{
    if (b.contains("elapsed time per iteration (ms):"))
        return BenchmarkTool::Megatron;
    if (b.contains("train_step_timing in s"))
        return BenchmarkTool::Nemo;
    static const QRegularExpression composer(R"((^|\n)\[(epoch=\d+\]\[)?(batch|token|sample|epoch)=\d+[^\n]*\]:)");
    if (composer.match(QString::fromUtf8(b.left(1 << 20))).hasMatch() &&
        (b.contains(" Train throughput/") || b.contains(" Train memory/")))
        return BenchmarkTool::Composer;
    if (b.contains("= PERFORMANCE OVERVIEW") || b.contains("Total Output Throughput (tokens/sec):") ||
        b.contains("TensorRT LLM Version:") || b.contains("TensorRT-LLM Version:"))
        return BenchmarkTool::TrtllmBench;
    return std::nullopt;
}

QByteArray firstLine(const QByteArray& b)
{
    const QByteArray t = b.trimmed();
    const auto nl = t.indexOf('\n');
    return nl < 0 ? t : t.left(nl).trimmed();
}

/// The JSON records of a vLLM or SGLang file: the whole file as one object, or one object per
/// line (JSON lines, as SGLang appends and vLLM's --append-result writes). False after an error.
bool jsonRecords(const QByteArray& bytes, std::vector<std::pair<std::string, QJsonObject>>& records, Issues& issues)
{
    QJsonParseError whole{};
    const QJsonDocument doc = QJsonDocument::fromJson(bytes, &whole);
    if (whole.error == QJsonParseError::NoError && doc.isObject()) {
        Issues dup = duplicateJsonKeys(bytes);
        if (!dup.empty()) {
            issues.insert(issues.end(), dup.begin(), dup.end());
            return false;
        }
        records.emplace_back(std::string(), doc.object());
        return true;
    }
    QJsonParseError first{};
    const bool linewise = QJsonDocument::fromJson(firstLine(bytes), &first).isObject();
    if (!linewise) { // one JSON document, broken: its own line and column
        Issues parse;
        parseJsonObject(bytes, parse);
        for (Issue& i : parse)
            i.message += " (a truncated or garbled file?)";
        issues.insert(issues.end(), parse.begin(), parse.end());
        return false;
    }
    for (const auto& [n, text] : bench::lines(bytes)) {
        Issues parse;
        const auto o = parseJsonObject(QByteArray::fromStdString(text), parse);
        if (!o) {
            for (const Issue& i : parse)
                issues.push_back(Issue::error("line " + std::to_string(n),
                                              i.message + " (a truncated or garbled line: each line must be one "
                                                          "JSON object)"));
            return false;
        }
        records.emplace_back("line " + std::to_string(n), *o);
    }
    return true;
}

} // namespace

std::string_view benchmarkToolName(BenchmarkTool tool) { return info(tool).name; }

std::string_view benchmarkToolTitle(BenchmarkTool tool) { return info(tool).title; }

std::optional<BenchmarkTool> benchmarkToolFromName(std::string_view name)
{
    for (const ToolInfo& i : kTools)
        if (name == i.name)
            return i.tool;
    return std::nullopt;
}

std::string benchmarkToolNames()
{
    std::string out;
    for (const ToolInfo& i : kTools)
        out += (out.empty() ? "" : ", ") + std::string(i.name);
    return out;
}

std::optional<BenchmarkTool> detectBenchmarkTool(const QByteArray& bytes)
{
    const QByteArray trimmed = bytes.trimmed();
    if (!trimmed.startsWith('{'))
        return detectText(bytes);
    QJsonParseError err{};
    const QJsonDocument doc = QJsonDocument::fromJson(trimmed, &err);
    if (err.error == QJsonParseError::NoError && doc.isObject())
        return detectObject(doc.object());
    const QJsonDocument line = QJsonDocument::fromJson(firstLine(trimmed), &err);
    if (err.error == QJsonParseError::NoError && line.isObject())
        if (auto t = detectObject(line.object()))
            return t;
    return detectByKeys(trimmed);
}

Result<BenchmarkImport> readBenchmark(const QByteArray& bytes, const std::string& file, const BenchmarkOptions& options)
{
    Issues issues;
    const auto fail = [&](std::string why) {
        issues.push_back(Issue::error("", std::move(why)));
        inFile(issues, file);
        return Result<BenchmarkImport>::failure(std::move(issues));
    };
    if (bytes.trimmed().isEmpty())
        return fail("the file is empty");
    if (options.skipWarmup < 0)
        return fail("the warm-up to skip must be 0 or more iterations");
    const std::optional<BenchmarkTool> detected = detectBenchmarkTool(bytes);
    if (options.tool && detected && *options.tool != *detected)
        return fail("this is " + std::string(benchmarkToolTitle(*detected)) + ", not " +
                    std::string(benchmarkToolTitle(*options.tool)) + "; give --tool " +
                    std::string(benchmarkToolName(*detected)) + " or leave --tool out");
    if (!options.tool && !detected) {
        if (bytes.contains("\"gpuplan-measurements\""))
            return fail("this is a gpuplan measurements file, not a benchmark result");
        return fail("not a benchmark result or training log gpuplan reads (" + benchmarkToolNames() +
                    ": docs/measurements.md#benchmark-files); give --tool if it is one of them");
    }
    BenchmarkImport result;
    result.tool = options.tool ? *options.tool : *detected;
    bench::Sink sink;
    sink.file = file;
    sink.out = &result.measurements;
    sink.issues = &issues;
    const bool json = bytes.trimmed().startsWith('{');
    switch (result.tool) {
    case BenchmarkTool::TrtllmBench:
        if (json) {
            if (const auto root = parseJsonObject(bytes, issues))
                bench::readTrtllmJson(*root, sink);
            else
                issues.back().message += " (a truncated or garbled file?)";
        } else {
            bench::readTrtllmText(bytes, sink);
        }
        break;
    case BenchmarkTool::Vllm:
    case BenchmarkTool::Sglang: {
        std::vector<std::pair<std::string, QJsonObject>> records;
        if (!json)
            issues.push_back(Issue::error("", "must be JSON: " + std::string(benchmarkToolTitle(result.tool))));
        else if (jsonRecords(bytes, records, issues))
            (result.tool == BenchmarkTool::Vllm ? bench::readVllm : bench::readSglang)(records, sink);
        break;
    }
    case BenchmarkTool::GenaiPerf:
    case BenchmarkTool::Aiperf:
        if (const auto root = parseJsonObject(bytes, issues))
            bench::readPerfExport(*root, result.tool == BenchmarkTool::Aiperf, sink);
        else if (!issues.empty())
            issues.back().message += " (a truncated or garbled file?)";
        break;
    case BenchmarkTool::Megatron: bench::readMegatron(bytes, options.skipWarmup, sink); break;
    case BenchmarkTool::Nemo: bench::readNemo(bytes, options.skipWarmup, sink); break;
    case BenchmarkTool::Composer: bench::readComposer(bytes, options.skipWarmup, sink); break;
    }
    if (!hasErrors(issues) && result.measurements.empty())
        issues.push_back(Issue::error("", "has none of the figures gpuplan reads from " +
                                              std::string(benchmarkToolTitle(result.tool)) +
                                              " (docs/measurements.md#benchmark-files)"));
    inFile(issues, file);
    if (hasErrors(issues))
        return Result<BenchmarkImport>::failure(std::move(issues));
    return Result<BenchmarkImport>::success(std::move(result), std::move(issues));
}

namespace bench {

namespace {

/// "FILE: json.path", or "FILE:N..." for a where of "line N...".
std::string sourceOf(const std::string& file, const std::string& where)
{
    if (where.rfind("line ", 0) == 0)
        return file + ":" + where.substr(5);
    return where.empty() ? file : file + ": " + where;
}

} // namespace

void Sink::add(MeasuredQuantity q, MeasuredStatistic s, double value, const std::string& where) const
{
    if (!std::isfinite(value) || value < 0.0) {
        error(where, "must be a finite number not below 0, not " + numberText(value));
        return;
    }
    Measurement m;
    m.quantity = q;
    m.statistic = s;
    m.value = value;
    m.tool = tool;
    m.source = sourceOf(file, where);
    m.when = when;
    m.config = config;
    out->push_back(std::move(m));
}

void Sink::error(const std::string& where, const std::string& why) const
{
    issues->push_back(Issue::error(where, why));
}

void Sink::warning(const std::string& where, const std::string& why) const
{
    issues->push_back(Issue::warning(where, why));
}

std::string joinPath(const std::string& base, const std::string& key)
{
    if (base.empty())
        return key;
    return base.rfind("line ", 0) == 0 ? base + ": " + key : base + "." + key;
}

std::optional<double> number(const QJsonObject& o, const std::string& path, const char* key, const Sink& sink)
{
    const QJsonValue v = o.value(QLatin1String(key));
    if (v.isUndefined() || v.isNull())
        return std::nullopt;
    if (!v.isDouble()) {
        sink.error(joinPath(path, key), "must be a number");
        return std::nullopt;
    }
    return v.toDouble();
}

std::optional<double> requiredNumber(const QJsonObject& o, const std::string& path, const char* key, const Sink& sink)
{
    const QJsonValue v = o.value(QLatin1String(key));
    if (v.isUndefined() || v.isNull()) {
        sink.error(joinPath(path, key), "missing: the file does not have this figure (a file of another version "
                                        "of the tool, or cut short?)");
        return std::nullopt;
    }
    return number(o, path, key, sink);
}

std::string numberText(double v) { return QString::number(v, 'g', 12).toStdString(); }

std::string configText(const QJsonValue& v)
{
    if (v.isString())
        return v.toString().toStdString();
    if (v.isDouble())
        return numberText(v.toDouble());
    if (v.isBool())
        return v.toBool() ? "true" : "false";
    return {};
}

void configFrom(const QJsonObject& o, const char* key, const std::string& name, Sink& sink)
{
    const std::string text = configText(o.value(QLatin1String(key)));
    if (!text.empty())
        sink.config[name] = text;
}

std::vector<std::pair<int, std::string>> lines(const QByteArray& bytes)
{
    std::vector<std::pair<int, std::string>> out;
    int n = 0;
    for (const QByteArray& raw : bytes.split('\n')) {
        ++n;
        QByteArray line = raw;
        if (line.endsWith('\r'))
            line.chop(1);
        if (!line.trimmed().isEmpty())
            out.emplace_back(n, line.toStdString());
    }
    return out;
}

double mean(const std::vector<double>& values)
{
    return values.empty() ? 0.0
                          : std::accumulate(values.begin(), values.end(), 0.0) / static_cast<double>(values.size());
}

} // namespace bench

} // namespace gp::io
