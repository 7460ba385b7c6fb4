// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
// Serving benchmark results: trtllm-bench, vLLM, SGLang, genai-perf and AIPerf (docs/measurements.md#benchmark-files).
// Every key read here is one the tool's own writer writes; the files and lines are named in
// tests/data/benchmarks/README.md.
#include "benchmarkparts.h"

#include <QDateTime>
#include <QJsonArray>
#include <QRegularExpression>

#include <array>
#include <tuple>

namespace gp::io::bench {

namespace {

using Q = MeasuredQuantity;
using S = MeasuredStatistic;

QJsonObject objectAt(const QJsonObject& o, const char* key) { return o.value(QLatin1String(key)).toObject(); }

/// The first model name of a JSON array of strings, or a string.
std::string firstName(const QJsonValue& v)
{
    if (v.isArray() && !v.toArray().isEmpty())
        return configText(v.toArray().first());
    return configText(v);
}

/// "20251124-091530" (vLLM's --save-result) or "2025-11-24 09:15:30" as ISO 8601 (local time, as
/// the tool wrote it); "" when it is neither.
std::string isoFromDate(const std::string& date)
{
    for (const char* format : {"yyyyMMdd-HHmmss", "yyyy-MM-dd HH:mm:ss"}) {
        const QDateTime t = QDateTime::fromString(QString::fromStdString(date), QLatin1String(format));
        if (t.isValid())
            return t.toString(Qt::ISODate).toStdString();
    }
    return {};
}

// ---- trtllm-bench ----------------------------------------------------------------------------

/// The report's keys are those of tensorrt_llm/bench/dataclasses/reporting.py from 0.17 on;
/// another major version may mean something else by them.
bool knownTrtllmVersion(const std::string& version)
{
    static const QRegularExpression re(R"(^(\d+)\.(\d+))");
    const auto m = re.match(QString::fromStdString(version));
    if (!m.hasMatch())
        return false;
    const int major = m.captured(1).toInt();
    const int minor = m.captured(2).toInt();
    return (major == 0 && minor >= 17) || major == 1;
}

void checkTrtllmVersion(const std::string& version, const std::string& where, Sink& sink)
{
    if (version.empty())
        sink.error(where, "missing: the report does not say which TensorRT-LLM version wrote it");
    else if (!knownTrtllmVersion(version))
        sink.error(where, "trtllm-bench " + version +
                              " is a version gpuplan does not know: it reads the reports of 0.17 to 1.x, whose keys "
                              "it was written against (docs/measurements.md#trtllm-bench)");
    sink.tool = "trtllm-bench" + (version.empty() ? std::string() : " " + version);
}

/// p50, p90, p99 and maximum of a PercentileStats object (reporting.py), in ms.
void percentiles(const QJsonObject& o, const std::string& path, Q q, Sink& sink)
{
    const std::array<std::pair<const char*, S>, 4> keys{
        {{"p50", S::P50}, {"p90", S::P90}, {"p99", S::P99}, {"maximum", S::Max}}};
    for (const auto& [key, statistic] : keys)
        if (const auto v = number(o, path, key, sink))
            sink.add(q, statistic, *v, joinPath(path, key));
}

// ---- vLLM and SGLang -------------------------------------------------------------------------

/// The figures vLLM's benchmark_serving and SGLang's bench_serving write alike: request_throughput,
/// output_throughput and {mean,median,p90,p99}_{ttft,itl}_ms; ITL from tpot where the file has no
/// itl figures (--percentile-metrics without itl).
void servingFigures(const QJsonObject& o, const std::string& p, Sink& sink)
{
    if (const auto completed = number(o, p, "completed", sink); completed && *completed <= 0.0)
        sink.error(joinPath(p, "completed"), "no request completed: the run measured nothing");
    if (const auto failed = number(o, p, "failed", sink); failed && *failed > 0.0)
        sink.warning(joinPath(p, "failed"),
                     numberText(*failed) + " requests failed: the figures count the completed ones");
    if (const auto v = requiredNumber(o, p, "request_throughput", sink))
        sink.add(Q::RequestsPerS, S::Mean, *v, joinPath(p, "request_throughput"));
    if (const auto v = requiredNumber(o, p, "output_throughput", sink))
        sink.add(Q::OutputTokensPerS, S::Mean, *v, joinPath(p, "output_throughput"));
    const std::array<std::pair<const char*, S>, 4> stats{
        {{"mean", S::Mean}, {"median", S::P50}, {"p90", S::P90}, {"p99", S::P99}}};
    bool latency = false;
    for (const auto& [metric, quantity] : {std::pair{"ttft", Q::TtftMs}, std::pair{"itl", Q::ItlMs}}) {
        std::string name = metric;
        if (name == "itl" && !o.contains("mean_itl_ms") && o.contains("mean_tpot_ms"))
            name = "tpot";
        Sink figures = sink;
        if (name == "tpot")
            figures.config["itl_from"] = "tpot";
        for (const auto& [stat, statistic] : stats) {
            const std::string key = std::string(stat) + "_" + name + "_ms";
            if (const auto v = number(o, p, key.c_str(), sink)) {
                figures.add(quantity, statistic, *v, joinPath(p, key));
                latency = true;
            }
        }
    }
    if (!latency)
        sink.warning(p, "has no TTFT or ITL figures (--percentile-metrics left them out?)");
}

void tokensPerRequest(const QJsonObject& o, Sink& sink)
{
    const double completed = o.value("completed").toDouble();
    if (completed <= 0.0)
        return;
    if (o.value("total_input_tokens").isDouble())
        sink.config["isl"] = numberText(o.value("total_input_tokens").toDouble() / completed);
    if (o.value("total_output_tokens").isDouble())
        sink.config["osl"] = numberText(o.value("total_output_tokens").toDouble() / completed);
}

// ---- genai-perf and AIPerf -------------------------------------------------------------------

/// Milliseconds per unit of a latency metric's "unit"; 0 for a unit gpuplan does not know.
double msPer(const QString& unit)
{
    if (unit == "ms")
        return 1.0;
    if (unit == "ns")
        return 1e-6;
    if (unit == "us")
        return 1e-3;
    if (unit == "s" || unit == "sec")
        return 1000.0;
    return 0.0;
}

/// One metric object {"unit": ..., "avg": ..., "p50": ...} of an export.
void exportMetric(const QJsonObject& root, const char* key, Q q, bool latency, const char* rateUnit, Sink& sink)
{
    if (!root.contains(QLatin1String(key)))
        return;
    const std::string path = key;
    if (!root.value(QLatin1String(key)).isObject()) {
        sink.error(path, "must be an object {\"unit\": ..., \"avg\": ...}");
        return;
    }
    const QJsonObject m = root.value(QLatin1String(key)).toObject();
    const QString unit = m.value("unit").toString();
    double scale = 1.0;
    if (latency) {
        scale = msPer(unit);
        if (scale == 0.0) {
            sink.error(path + ".unit", "'" + unit.toStdString() + "' is no time unit gpuplan knows (ms, us, ns, s)");
            return;
        }
    } else if (unit != QLatin1String(rateUnit)) {
        sink.error(path + ".unit", "'" + unit.toStdString() + "' is not " + rateUnit);
        return;
    }
    const std::array<std::pair<const char*, S>, 5> stats{
        {{"avg", S::Mean}, {"p50", S::P50}, {"p90", S::P90}, {"p99", S::P99}, {"max", S::Max}}};
    for (const auto& [stat, statistic] : stats) {
        if (!latency && statistic != S::Mean)
            continue; // throughput is one figure over the run
        if (const auto v = number(m, path, stat, sink))
            sink.add(q, statistic, *v * scale, path + "." + stat);
    }
}

} // namespace

void readTrtllmJson(const QJsonObject& root, Sink& sink)
{
    const QJsonObject engine = objectAt(root, "engine");
    checkTrtllmVersion(configText(engine.value("version")), "engine.version", sink);
    configFrom(engine, "model", "model", sink);
    configFrom(engine, "backend", "backend", sink);
    configFrom(engine, "dtype", "dtype", sink);
    configFrom(engine, "quantization", "quantization", sink);
    configFrom(engine, "kv_cache_dtype", "kv_cache_dtype", sink);
    configFrom(objectAt(root, "machine"), "name", "gpu", sink);
    const QJsonObject world = objectAt(root, "world_info");
    for (const auto& [key, name] : {std::pair{"tp_size", "tp"}, std::pair{"pp_size", "pp"}, std::pair{"ep_size", "ep"},
                                    std::pair{"world_size", "gpus"}, std::pair{"max_batch_size", "max_batch_size"}})
        configFrom(world, key, name, sink);
    const QJsonObject requests = objectAt(root, "request_info");
    configFrom(requests, "avg_input_length", "isl", sink);
    configFrom(requests, "avg_output_length", "osl", sink);
    configFrom(requests, "num_requests", "num_requests", sink);
    configFrom(requests, "avg_num_concurrent_requests", "avg_concurrency", sink);
    if (hasErrors(*sink.issues))
        return; // an unknown version: its figures may mean something else
    const QJsonObject perf = objectAt(root, "performance");
    if (const auto v = requiredNumber(perf, "performance", "request_throughput_req_s", sink))
        sink.add(Q::RequestsPerS, S::Mean, *v, "performance.request_throughput_req_s");
    if (const auto v = requiredNumber(perf, "performance", "system_output_throughput_tok_s", sink))
        sink.add(Q::OutputTokensPerS, S::Mean, *v, "performance.system_output_throughput_tok_s");
    if (!root.value("streaming_metrics").isObject()) {
        sink.warning("streaming_metrics", "absent (a run without --streaming): no TTFT or ITL");
        return;
    }
    const QJsonObject streaming = objectAt(root, "streaming_metrics");
    if (const auto v = requiredNumber(streaming, "streaming_metrics", "avg_ttft_ms", sink))
        sink.add(Q::TtftMs, S::Mean, *v, "streaming_metrics.avg_ttft_ms");
    percentiles(objectAt(streaming, "ttft_percentiles"), "streaming_metrics.ttft_percentiles", Q::TtftMs, sink);
    // TPOT here is each request's (end - first token) / generated tokens: its inter-token latency.
    if (const auto v = requiredNumber(streaming, "streaming_metrics", "avg_tpot_ms", sink))
        sink.add(Q::ItlMs, S::Mean, *v, "streaming_metrics.avg_tpot_ms");
    percentiles(objectAt(streaming, "tpot_percentiles"), "streaming_metrics.tpot_percentiles", Q::ItlMs, sink);
}

void readTrtllmText(const QByteArray& bytes, Sink& sink)
{
    struct Pattern
    {
        const char* re;
        const char* config; ///< config key, or nullptr for a figure
        Q quantity;
        S statistic;
    };
    static const std::array<Pattern, 17> patterns{{
        {R"(TensorRT[- ]LLM Version:\s*(\S+))", "version", Q::TtftMs, S::Mean},
        {R"(^Model:\s*(\S.*)$)", "model", Q::TtftMs, S::Mean},
        {R"(^Dtype:\s*(\S+))", "dtype", Q::TtftMs, S::Mean},
        {R"(^Quantization:\s*(\S+))", "quantization", Q::TtftMs, S::Mean},
        {R"(^TP Size:\s*(\d+))", "tp", Q::TtftMs, S::Mean},
        {R"(^PP Size:\s*(\d+))", "pp", Q::TtftMs, S::Mean},
        {R"(^EP Size:\s*(\d+))", "ep", Q::TtftMs, S::Mean},
        {R"(^(.+), memory [\d.]+ GB)", "gpu", Q::TtftMs, S::Mean},
        {R"(^Number of requests:\s*(\d+))", "num_requests", Q::TtftMs, S::Mean},
        {R"(^Number of concurrent requests:\s*([\d.]+))", "avg_concurrency", Q::TtftMs, S::Mean},
        {R"(^Average Input Length \(tokens\):\s*([\d.]+))", "isl", Q::TtftMs, S::Mean},
        {R"(^Average Output Length \(tokens\):\s*([\d.]+))", "osl", Q::TtftMs, S::Mean},
        {R"(^Request Throughput \(req/sec\):\s*([-\d.eE+]+|nan|inf))", nullptr, Q::RequestsPerS, S::Mean},
        {R"(^Total Output Throughput \(tokens/sec\):\s*([-\d.eE+]+|nan|inf))", nullptr, Q::OutputTokensPerS, S::Mean},
        {R"(^Average time-to-first-token \[TTFT\] \(ms\):\s*([-\d.eE+]+|nan|inf))", nullptr, Q::TtftMs, S::Mean},
        {R"(^Average time-per-output-token \[TPOT\] \(ms\):\s*([-\d.eE+]+|nan|inf))", nullptr, Q::ItlMs, S::Mean},
        {R"(^\[(TTFT|TPOT)\] (P50|P90|P99|MAXIMUM)\s*:\s*([-\d.eE+]+|nan|inf))", nullptr, Q::TtftMs, S::Mean},
    }};
    std::vector<QRegularExpression> res;
    for (const Pattern& p : patterns)
        res.emplace_back(QString::fromLatin1(p.re));
    std::string version;
    std::string versionAt;
    std::vector<std::tuple<Q, S, double, std::string>> figures;
    for (const auto& [n, text] : lines(bytes)) {
        const QString line = QString::fromStdString(text).trimmed();
        const std::string where = "line " + std::to_string(n);
        for (std::size_t i = 0; i < patterns.size(); ++i) {
            const auto m = res[i].match(line);
            if (!m.hasMatch())
                continue;
            const Pattern& p = patterns[i];
            if (p.config && std::string(p.config) == "version") {
                version = m.captured(1).toStdString();
                versionAt = where;
            } else if (p.config)
                sink.config[p.config] = m.captured(1).trimmed().toStdString();
            else if (m.lastCapturedIndex() == 3) { // a breakdown line
                const QString stat = m.captured(2);
                const S s = stat == "P50" ? S::P50 : stat == "P90" ? S::P90 : stat == "P99" ? S::P99 : S::Max;
                figures.emplace_back(m.captured(1) == "TTFT" ? Q::TtftMs : Q::ItlMs, s, m.captured(3).toDouble(),
                                     where);
            } else {
                figures.emplace_back(p.quantity, p.statistic, m.captured(1).toDouble(), where);
            }
            break;
        }
    }
    checkTrtllmVersion(version, versionAt, sink);
    if (hasErrors(*sink.issues))
        return;
    bool requests = false, output = false;
    for (const auto& [q, s, v, where] : figures) {
        sink.add(q, s, v, where);
        requests = requests || q == Q::RequestsPerS;
        output = output || q == Q::OutputTokensPerS;
    }
    if (!requests || !output)
        sink.error("", std::string("has no '") +
                           (!requests ? "Request Throughput (req/sec)" : "Total Output Throughput (tokens/sec)") +
                           "' line: not a whole trtllm-bench report (cut short?)");
}

void readVllm(const std::vector<std::pair<std::string, QJsonObject>>& records, Sink& sink)
{
    for (const auto& [p, o] : records) {
        Sink rec = sink;
        rec.tool = "vllm bench serve";
        const std::string date = configText(o.value("date"));
        rec.when = isoFromDate(date);
        if (!date.empty() && rec.when.empty())
            rec.warning(joinPath(p, "date"), "'" + date + "' is not the date format vLLM writes: no time kept");
        configFrom(o, "model_id", "model", rec);
        configFrom(o, "backend", "backend", rec);
        configFrom(o, "label", "label", rec);
        configFrom(o, "max_concurrency", "max_concurrency", rec);
        configFrom(o, "request_rate", "request_rate", rec);
        configFrom(o, "num_prompts", "num_prompts", rec);
        tokensPerRequest(o, rec);
        servingFigures(o, p, rec);
    }
}

void readSglang(const std::vector<std::pair<std::string, QJsonObject>>& records, Sink& sink)
{
    for (const auto& [p, o] : records) {
        Sink rec = sink;
        rec.tool = "sglang.bench_serving";
        configFrom(o, "backend", "backend", rec);
        configFrom(o, "dataset_name", "dataset", rec);
        configFrom(o, "max_concurrency", "max_concurrency", rec);
        configFrom(o, "request_rate", "request_rate", rec);
        if (o.value("dataset_name").toString().startsWith("random")) {
            configFrom(o, "random_input_len", "random_input_len", rec);
            configFrom(o, "random_output_len", "random_output_len", rec);
        }
        tokensPerRequest(o, rec);
        servingFigures(o, p, rec);
    }
}

void readPerfExport(const QJsonObject& root, bool aiperf, Sink& sink)
{
    const QJsonObject config = objectAt(root, "input_config");
    if (aiperf) {
        const std::string schema = configText(root.value("schema_version"));
        if (!schema.empty() && schema.rfind("1.", 0) != 0)
            sink.error("schema_version", "'" + schema +
                                             "' is an AIPerf export format gpuplan does not know: it reads schema 1.x "
                                             "(and the exports before schema_version)");
        const std::string version = configText(root.value("aiperf_version"));
        sink.tool = "aiperf" + (version.empty() ? std::string() : " " + version);
        const QJsonObject endpoint = objectAt(config, "endpoint");
        if (const std::string model = firstName(endpoint.value("model_names")); !model.empty())
            sink.config["model"] = model;
        configFrom(objectAt(config, "loadgen"), "concurrency", "concurrency", sink);
        configFrom(objectAt(config, "loadgen"), "request_rate", "request_rate", sink);
        const std::string start = configText(root.value("start_time"));
        if (QDateTime::fromString(QString::fromStdString(start), Qt::ISODateWithMs).isValid())
            sink.when = start;
    } else {
        sink.tool = "genai-perf";
        // genai-perf's config file era names the models in model_names and the load under
        // perf_analyzer.stimulus; its command-line era wrote its arguments flat (model, concurrency).
        std::string model = firstName(config.value("model_names"));
        if (model.empty())
            model = firstName(config.value("model"));
        if (!model.empty())
            sink.config["model"] = model;
        const QJsonObject stimulus = objectAt(objectAt(config, "perf_analyzer"), "stimulus");
        configFrom(stimulus.isEmpty() ? config : stimulus, "concurrency", "concurrency", sink);
        configFrom(stimulus.isEmpty() ? config : stimulus, "request_rate", "request_rate", sink);
    }
    for (const auto& [key, name] :
         {std::pair{"input_sequence_length", "isl"}, std::pair{"output_sequence_length", "osl"}})
        configFrom(objectAt(root, key), "avg", name, sink);
    if (hasErrors(*sink.issues))
        return;
    if (!root.value("request_throughput").isObject())
        sink.error("request_throughput", "missing: the export has no request throughput (cut short?)");
    exportMetric(root, "request_throughput", Q::RequestsPerS, false, "requests/sec", sink);
    exportMetric(root, "output_token_throughput", Q::OutputTokensPerS, false, "tokens/sec", sink);
    exportMetric(root, "time_to_first_token", Q::TtftMs, true, nullptr, sink);
    exportMetric(root, "inter_token_latency", Q::ItlMs, true, nullptr, sink);
    if (!root.contains("time_to_first_token"))
        sink.warning("time_to_first_token", "absent (a run without --streaming): no TTFT or ITL");
}

} // namespace gp::io::bench
