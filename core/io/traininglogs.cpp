// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
// Training logs: Megatron-LM / Megatron-Bridge, NeMo and Composer (docs/measurements.md#training-logs). Each
// figure is the steady-state mean of the lines after the warm-up; memory is the allocator's peak.
#include "benchmarkparts.h"

#include <QRegularExpression>
#include <QString>

#include <algorithm>
#include <cmath>
#include <map>

namespace gp::io::bench {

namespace {

using Q = MeasuredQuantity;
using S = MeasuredStatistic;

constexpr double kGiB = 1024.0 * 1024.0 * 1024.0;

/// One logged training figure: the iteration it was logged at, its file line, its value.
struct Logged
{
    long long iteration = 0;
    int line = 0;
    double value = 0.0;
};

/// The lines of `bytes`, also split at carriage returns (progress bars redraw a line with '\r').
std::vector<std::pair<int, QString>> logLines(const QByteArray& bytes)
{
    std::vector<std::pair<int, QString>> out;
    int n = 0;
    for (const QByteArray& raw : bytes.split('\n')) {
        ++n;
        for (const QByteArray& part : raw.split('\r'))
            if (!part.trimmed().isEmpty())
                out.emplace_back(n, QString::fromUtf8(part));
    }
    return out;
}

/// The figures logged after the first `skip` iterations of the log. A figure logged at iteration i
/// averages the iterations since the one logged before it (Megatron's log interval), so it is kept
/// only when all of those come after the warm-up; the log's own first iteration counts as 1, so a
/// run resumed from a checkpoint warms up again.
std::vector<Logged> afterWarmup(const std::vector<Logged>& logged, int skip, long long firstInterval)
{
    std::vector<Logged> kept;
    if (logged.empty())
        return kept;
    const long long base = logged.front().iteration - firstInterval; // the iteration before the log's first
    long long previous = base;
    for (const Logged& l : logged) {
        if (previous + 1 - base > skip)
            kept.push_back(l);
        previous = l.iteration;
    }
    return kept;
}

/// Adds the mean of `kept` as one measurement, its source the lines it came from.
void addMean(const std::vector<Logged>& kept, Q q, double scale, Sink& sink)
{
    if (kept.empty())
        return;
    std::vector<double> values;
    for (const Logged& l : kept)
        values.push_back(l.value * scale);
    Sink s = sink;
    s.config["lines_averaged"] = std::to_string(kept.size());
    s.add(q, S::Mean, mean(values),
          "line " + std::to_string(kept.front().line) +
              (kept.size() > 1 ? "-" + std::to_string(kept.back().line) : std::string()));
}

/// The warm-up left nothing of a figure the log has: say so, with the option that decides it.
void allWarmup(const std::vector<Logged>& logged, int skip, const std::string& what, Sink& sink)
{
    sink.error("", "all " + std::to_string(logged.size()) + " logged " + what + " lie within the first " +
                       std::to_string(skip) + " iterations (the warm-up, --skip-warmup " + std::to_string(skip) +
                       "): nothing steady to average; give a smaller --skip-warmup");
}

std::optional<double> captured(const QRegularExpression& re, const QString& line, int group = 1)
{
    const auto m = re.match(line);
    if (!m.hasMatch())
        return std::nullopt;
    bool ok = false;
    const double v = m.captured(group).toDouble(&ok);
    return ok ? std::optional<double>(v) : std::nullopt;
}

/// "2025-11-03 08:13:35" as ISO 8601.
std::string isoTime(const QString& stamp)
{
    QString t = stamp.left(19);
    t[10] = 'T';
    return t.toStdString();
}

} // namespace

void readMegatron(const QByteArray& bytes, int skipWarmup, Sink& sink)
{
    static const QRegularExpression arg(R"(^  (\w+) \.+ (.*)$)");
    static const QRegularExpression iteration(R"(\biteration\s+(\d+)/\s*(\d+)\s*\|)");
    static const QRegularExpression elapsed(R"(elapsed time per iteration \(ms\):\s*([^\s|]+))");
    static const QRegularExpression tflops(R"(throughput per GPU \(TFLOP/s/GPU\):\s*([^\s|]+))");
    static const QRegularExpression power(R"(power per GPU \(W/GPU\):\s*([^\s|]+))");
    static const QRegularExpression batch(R"(global batch size:\s*(\d+))");
    static const QRegularExpression stamp(R"(^\s*\[(\d{4}-\d\d-\d\d \d\d:\d\d:\d\d))");
    static const QRegularExpression memMiB(R"(memory \(MB\).*\|\s*max allocated:\s*([\d.]+))");
    static const QRegularExpression memGB(R"(memory \(GB\).*\|\s*mem-max-allocated-gigabytes:\s*([\d.]+))");
    std::map<std::string, std::string> args;
    std::vector<Logged> steps, flops, watts;
    std::optional<Logged> peakGiB;
    bool bridge = false;
    std::string when;
    for (const auto& [n, line] : logLines(bytes)) {
        const std::string where = "line " + std::to_string(n);
        if (const auto m = arg.match(line); m.hasMatch()) {
            args[m.captured(1).toStdString()] = m.captured(2).trimmed().toStdString();
            continue;
        }
        const bool mib = line.contains("memory (MB)");
        if (mib || line.contains("memory (GB)")) {
            bridge = bridge || !mib;
            const auto v = captured(mib ? memMiB : memGB, line);
            const double gib = v ? (mib ? *v / 1024.0 : *v * 1e9 / kGiB) : 0.0;
            if (v && (!peakGiB || gib > peakGiB->value))
                peakGiB = Logged{0, n, gib};
            continue;
        }
        const auto it = iteration.match(line);
        if (!it.hasMatch())
            continue;
        const long long i = it.captured(1).toLongLong();
        if (!line.contains("elapsed time per iteration (ms):")) {
            sink.warning(where, "an iteration line without its elapsed time (cut short?): left out");
            continue;
        }
        const auto ms = captured(elapsed, line);
        if (!ms) {
            sink.error(where, "the elapsed time per iteration is not a number");
            continue;
        }
        steps.push_back({i, n, *ms});
        if (line.contains("TFLOP/s/GPU")) {
            if (const auto v = captured(tflops, line))
                flops.push_back({i, n, *v});
            else
                sink.error(where, "the throughput per GPU (TFLOP/s/GPU) is not a number");
        }
        if (const auto v = captured(power, line))
            watts.push_back({i, n, *v});
        if (const auto b = batch.match(line); b.hasMatch())
            sink.config["global_batch"] = b.captured(1).toStdString();
        if (const auto t = stamp.match(line); t.hasMatch())
            when = isoTime(t.captured(1));
    }
    sink.tool = bridge ? "Megatron-Bridge" : "Megatron-LM";
    const auto argument = [&](const char* key, const char* name) {
        if (auto a = args.find(key); a != args.end() && a->second != "None")
            sink.config[name] = a->second;
    };
    argument("tensor_model_parallel_size", "tp");
    argument("pipeline_model_parallel_size", "pp");
    argument("context_parallel_size", "cp");
    argument("expert_model_parallel_size", "ep");
    argument("world_size", "gpus");
    argument("global_batch_size", "global_batch");
    argument("micro_batch_size", "micro_batch");
    argument("seq_length", "seq_length");
    if (args.count("fp8") && args["fp8"] != "None")
        sink.config["precision"] = "fp8";
    else if (args["bf16"] == "True")
        sink.config["precision"] = "bf16";
    else if (args["fp16"] == "True")
        sink.config["precision"] = "fp16";
    if (hasErrors(*sink.issues))
        return;
    if (steps.empty()) {
        sink.error("", "has no iteration lines ('iteration N/ M | ... elapsed time per iteration (ms): X')");
        return;
    }
    bool intervalOk = false;
    long long interval = QString::fromStdString(args["log_interval"]).toLongLong(&intervalOk);
    if (!intervalOk || interval < 1)
        interval = steps.size() > 1 ? std::max(1LL, steps[1].iteration - steps[0].iteration) : 1;
    const std::vector<Logged> kept = afterWarmup(steps, skipWarmup, interval);
    if (kept.empty())
        return allWarmup(steps, skipWarmup, "iterations", sink);
    sink.when = when;
    sink.config["skip_warmup"] = std::to_string(skipWarmup);
    addMean(kept, Q::StepTimeS, 1e-3, sink);
    addMean(afterWarmup(flops, skipWarmup, interval), Q::TflopsPerGpu, 1.0, sink);
    addMean(afterWarmup(watts, skipWarmup, interval), Q::PowerW, 1.0, sink);
    if (peakGiB) {
        Sink s = sink;
        s.config.erase("skip_warmup");
        s.add(Q::MemoryGib, S::Max, peakGiB->value, "line " + std::to_string(peakGiB->line));
    }
}

void readNemo(const QByteArray& bytes, int skipWarmup, Sink& sink)
{
    static const QRegularExpression timing(R"(train_step_timing in s\s*[:=]\s*([^\s|,\]]+))");
    static const QRegularExpression iteration(R"(\biteration (\d+)/(\d+))");
    static const QRegularExpression step(R"(\bglobal_step\s*[:=]\s*([\d.]+))");
    static const QRegularExpression batch(R"(\bglobal_batch_size\s*[:=]\s*(\d+))");
    std::map<long long, Logged> byIteration; // a redrawn progress bar logs a step more than once
    for (const auto& [n, line] : logLines(bytes)) {
        if (!line.contains("train_step_timing in s"))
            continue;
        const std::string where = "line " + std::to_string(n);
        const auto t = captured(timing, line);
        if (!t) {
            sink.error(where, "the train_step_timing is not a number");
            continue;
        }
        std::optional<double> i = captured(iteration, line);
        if (!i)
            i = captured(step, line);
        if (!i) {
            sink.warning(where, "a step timing without its iteration or global_step: left out");
            continue;
        }
        byIteration[static_cast<long long>(*i)] = Logged{static_cast<long long>(*i), n, *t};
        if (const auto b = batch.match(line); b.hasMatch())
            sink.config["global_batch"] = b.captured(1).toStdString();
    }
    sink.tool = "NeMo";
    if (hasErrors(*sink.issues))
        return;
    std::vector<Logged> steps;
    for (const auto& [i, l] : byIteration)
        steps.push_back(l);
    if (steps.empty()) {
        sink.error("", "has no step timings ('train_step_timing in s: X' with its iteration)");
        return;
    }
    // NeMo counts iterations from 0 and logs each one's own timing.
    const std::vector<Logged> kept = afterWarmup(steps, skipWarmup, 1);
    if (kept.empty())
        return allWarmup(steps, skipWarmup, "steps", sink);
    sink.config["skip_warmup"] = std::to_string(skipWarmup);
    addMean(kept, Q::StepTimeS, 1.0, sink);
}

void readComposer(const QByteArray& bytes, int skipWarmup, Sink& sink)
{
    static const QRegularExpression header(R"(^\[(?:epoch=\d+\]\[)?(\w+)=(\d+)(?:/\d+)?\]:\s*$)");
    static const QRegularExpression metric(R"(^\s+Train (\S+): (\S+)\s*$)");
    struct Block
    {
        long long batch = -1;
        std::map<std::string, Logged> values;
    };
    std::vector<Block> blocks;
    for (const auto& [n, line] : logLines(bytes)) {
        if (const auto h = header.match(line); h.hasMatch()) {
            blocks.push_back({h.captured(1) == "batch" ? h.captured(2).toLongLong() : -1, {}});
            continue;
        }
        const auto m = metric.match(line);
        if (!m.hasMatch() || blocks.empty())
            continue;
        const std::string key = m.captured(1).toStdString();
        bool ok = false;
        const double v = m.captured(2).toDouble(&ok);
        if (key == "time/batch" && ok)
            blocks.back().batch = static_cast<long long>(v);
        if (key.rfind("throughput/", 0) != 0 && key != "memory/peak_allocated_mem")
            continue;
        if (!ok) {
            sink.error("line " + std::to_string(n), "Train " + key + " is not a number");
            continue;
        }
        blocks.back().values[key] = Logged{0, n, v};
    }
    sink.tool = "Composer";
    if (hasErrors(*sink.issues))
        return;
    std::vector<Logged> steps, tokens, flops;
    std::optional<Logged> peak;
    for (const Block& b : blocks) {
        const auto at = [&](const char* key) -> const Logged* {
            const auto it = b.values.find(key);
            return it == b.values.end() ? nullptr : &it->second;
        };
        if (const Logged* m = at("memory/peak_allocated_mem"); m && (!peak || m->value > peak->value))
            peak = *m;
        if (b.batch < 0)
            continue;
        if (const Logged* v = at("throughput/batches_per_sec"); v && v->value > 0.0)
            steps.push_back({b.batch, v->line, 1.0 / v->value});
        if (const Logged* v = at("throughput/tokens_per_sec"))
            tokens.push_back({b.batch, v->line, v->value});
        if (const Logged* v = at("throughput/device/flops_per_sec"))
            flops.push_back({b.batch, v->line, v->value});
    }
    if (steps.empty() && tokens.empty() && !peak) {
        sink.error("", "has no Train throughput/ or memory/ figures (Composer's SpeedMonitor and MemoryMonitor)");
        return;
    }
    // Composer's time/batch counts the batches done; SpeedMonitor's figures are already means over
    // its window, so each logged block is kept once the batches before it are past the warm-up.
    const auto kept = [&](const std::vector<Logged>& logged) {
        std::vector<Logged> out;
        for (const Logged& l : logged)
            if (l.iteration >= skipWarmup)
                out.push_back(l);
        return out;
    };
    if (!steps.empty() && kept(steps).empty())
        return allWarmup(steps, skipWarmup, "batches", sink);
    Sink steady = sink;
    steady.config["skip_warmup"] = std::to_string(skipWarmup);
    addMean(kept(steps), Q::StepTimeS, 1.0, steady);
    addMean(kept(tokens), Q::TrainTokensPerS, 1.0, steady);
    addMean(kept(flops), Q::TflopsPerGpu, 1e-12, steady);
    if (peak) // MemoryMonitor reports decimal gigabytes (bytes / 1e9)
        sink.add(Q::MemoryGib, S::Max, peak->value * 1e9 / kGiB, "line " + std::to_string(peak->line));
}

} // namespace gp::io::bench
