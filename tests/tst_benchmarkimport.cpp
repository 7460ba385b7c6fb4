// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
// Benchmark results and training logs as measurements (issue 38 2a, docs/measurements.md#benchmark-files): each
// format's fixture read into the figures it states, with tool, source, when and config; and every bad file
// (truncated, garbled, of an unknown version, of another tool, missing a figure) refused naming where and why.
// Then what a file says it ran against a job, and measurements that contradict each other.
#include "io/benchmarkimport.h"
#include "study/measurementcheck.h"
#include "testsupport.h"

#include <QDir>
#include <QFile>
#include <QTest>

#include <cmath>

using namespace gp;
using io::BenchmarkTool;
using Q = MeasuredQuantity;
using S = MeasuredStatistic;

namespace {

QByteArray fixture(const QString& name)
{
    QFile f(QDir(test::fixturesDir()).absoluteFilePath("benchmarks/" + name));
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

Result<io::BenchmarkImport> read(const QByteArray& bytes, std::optional<BenchmarkTool> tool = std::nullopt,
                                 int skip = io::kDefaultSkipWarmup)
{
    io::BenchmarkOptions o;
    o.tool = tool;
    o.skipWarmup = skip;
    return io::readBenchmark(bytes, "f", o);
}

const Measurement* find(const std::vector<Measurement>& v, Q q, S s, int nth = 0)
{
    for (const Measurement& m : v)
        if (m.quantity == q && m.statistic == s && nth-- == 0)
            return &m;
    return nullptr;
}

double value(const Result<io::BenchmarkImport>& r, Q q, S s, int nth = 0)
{
    const Measurement* m = r ? find(r->measurements, q, s, nth) : nullptr;
    return m ? m->value : std::nan("");
}

/// The one error of a refused read, as "PATH: message".
QString refusal(const Result<io::BenchmarkImport>& r)
{
    if (r.ok())
        return "accepted";
    return QString::fromStdString(r.errorText(" | "));
}

} // namespace

class TestBenchmarkImport : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void eachFixtureIsDetected_data()
    {
        QTest::addColumn<QString>("file");
        QTest::addColumn<int>("tool");
        QTest::newRow("trtllm json") << "trtllm-bench-report.json" << int(BenchmarkTool::TrtllmBench);
        QTest::newRow("trtllm text") << "trtllm-bench-report.txt" << int(BenchmarkTool::TrtllmBench);
        QTest::newRow("vllm") << "vllm-bench-serve.json" << int(BenchmarkTool::Vllm);
        QTest::newRow("sglang") << "sglang-bench-serving.jsonl" << int(BenchmarkTool::Sglang);
        QTest::newRow("genai-perf") << "profile_export_genai_perf.json" << int(BenchmarkTool::GenaiPerf);
        QTest::newRow("aiperf") << "profile_export_aiperf.json" << int(BenchmarkTool::Aiperf);
        QTest::newRow("megatron-lm") << "megatron-lm-train.log" << int(BenchmarkTool::Megatron);
        QTest::newRow("megatron-bridge") << "megatron-bridge-train.log" << int(BenchmarkTool::Megatron);
        QTest::newRow("nemo") << "nemo2-train.log" << int(BenchmarkTool::Nemo);
        QTest::newRow("composer") << "composer-train.log" << int(BenchmarkTool::Composer);
    }
    void eachFixtureIsDetected()
    {
        QFETCH(QString, file);
        QFETCH(int, tool);
        const QByteArray bytes = fixture(file);
        QVERIFY2(!bytes.isEmpty(), qPrintable(file));
        QCOMPARE(int(*io::detectBenchmarkTool(bytes)), tool);
        const auto r = read(bytes);
        QVERIFY2(r.ok(), qPrintable(refusal(r)));
        QCOMPARE(int(r->tool), tool);
        QVERIFY(!r->measurements.empty());
        for (const Measurement& m : r->measurements) {
            QVERIFY(m.jobId.empty()); // the caller's to set
            QVERIFY(!m.tool.empty());
            QVERIFY2(QString::fromStdString(m.source).startsWith("f"), m.source.c_str());
            QVERIFY(std::isfinite(m.value) && m.value >= 0.0);
        }
    }

    void trtllmBenchReport()
    {
        const auto json = read(fixture("trtllm-bench-report.json"));
        QVERIFY2(json.ok(), qPrintable(refusal(json)));
        const Measurement& out = *find(json->measurements, Q::OutputTokensPerS, S::Mean);
        QCOMPARE(out.value, 7099.5345);
        QCOMPARE(out.tool, std::string("trtllm-bench 0.20.0"));
        QCOMPARE(out.source, std::string("f: performance.system_output_throughput_tok_s"));
        QCOMPARE(out.config.at("model"), std::string("nvidia/Llama-3.1-8B-Instruct-FP8"));
        QCOMPARE(out.config.at("tp"), std::string("1"));
        QCOMPARE(out.config.at("quantization"), std::string("FP8"));
        QCOMPARE(out.config.at("gpu"), std::string("NVIDIA H100 PCIe"));
        QCOMPARE(out.config.at("isl"), std::string("128"));
        QCOMPARE(value(json, Q::RequestsPerS, S::Mean), 55.4519);
        QCOMPARE(value(json, Q::TtftMs, S::Mean), 1163.0472);
        QCOMPARE(value(json, Q::TtftMs, S::P99), 2894.6631);
        QCOMPARE(value(json, Q::ItlMs, S::Mean), 136.1254); // TPOT per request: its inter-token latency
        QCOMPARE(value(json, Q::ItlMs, S::P90), 146.2071);
        QCOMPARE(json->measurements.size(), std::size_t(12));
        // The printed report of the same run gives the same figures, sourced by line.
        const auto text = read(fixture("trtllm-bench-report.txt"));
        QVERIFY2(text.ok(), qPrintable(refusal(text)));
        QCOMPARE(text->measurements.size(), json->measurements.size());
        for (const Measurement& m : json->measurements)
            QCOMPARE(value(text, m.quantity, m.statistic), m.value);
        const Measurement& line = *find(text->measurements, Q::OutputTokensPerS, S::Mean);
        QCOMPARE(line.tool, std::string("trtllm-bench 0.20.0"));
        QVERIFY2(QString::fromStdString(line.source).contains(QRegularExpression("^f:\\d+$")), line.source.c_str());
        QCOMPARE(line.config.at("tp"), std::string("1"));
        QCOMPARE(line.config.at("quantization"), std::string("FP8"));
    }

    void vllmResult()
    {
        const auto r = read(fixture("vllm-bench-serve.json"));
        QVERIFY2(r.ok(), qPrintable(refusal(r)));
        QCOMPARE(r->measurements.size(), std::size_t(8));
        const Measurement& p99 = *find(r->measurements, Q::TtftMs, S::P99);
        QCOMPARE(p99.value, 305.6432150211185);
        QCOMPARE(p99.source, std::string("f: p99_ttft_ms"));
        QCOMPARE(p99.tool, std::string("vllm bench serve"));
        QCOMPARE(p99.when, std::string("2025-11-24T09:15:30"));
        QCOMPARE(p99.config.at("model"), std::string("meta-llama/Llama-3.1-8B-Instruct"));
        QCOMPARE(p99.config.at("max_concurrency"), std::string("32"));
        QCOMPARE(p99.config.at("isl"), std::string("1024")); // total_input_tokens / completed
        QCOMPARE(p99.config.at("osl"), std::string("512"));
        QCOMPARE(value(r, Q::RequestsPerS, S::Mean), 8.909299461234215);
        QCOMPARE(value(r, Q::TtftMs, S::P50), 61.32790399715304); // median
        QCOMPARE(value(r, Q::ItlMs, S::Mean), 6.83488016839348);  // itl, not tpot
        QVERIFY(!find(r->measurements, Q::ItlMs, S::Mean)->config.count("itl_from"));
        // Without itl figures (--percentile-metrics ttft,tpot) ITL comes from TPOT, and says so.
        QByteArray noItl = fixture("vllm-bench-serve.json");
        noItl.replace("_itl_ms", "_itl_ms_unused");
        const auto tpot = read(noItl);
        QVERIFY2(tpot.ok(), qPrintable(refusal(tpot)));
        QCOMPARE(value(tpot, Q::ItlMs, S::Mean), 6.834871106548071);
        QCOMPARE(find(tpot->measurements, Q::ItlMs, S::Mean)->config.at("itl_from"), std::string("tpot"));
    }

    void sglangLines()
    {
        const auto r = read(fixture("sglang-bench-serving.jsonl"));
        QVERIFY2(r.ok(), qPrintable(refusal(r)));
        QCOMPARE(r->measurements.size(), std::size_t(16)); // two runs, eight figures each
        const Measurement& second = *find(r->measurements, Q::TtftMs, S::Mean, 1);
        QCOMPARE(second.value, 77.9);
        QCOMPARE(second.source, std::string("f:2: mean_ttft_ms"));
        QCOMPARE(second.tool, std::string("sglang.bench_serving"));
        QCOMPARE(second.config.at("max_concurrency"), std::string("32"));
        QCOMPARE(second.config.at("random_input_len"), std::string("1024"));
        QCOMPARE(find(r->measurements, Q::TtftMs, S::Mean, 0)->config.at("max_concurrency"), std::string("16"));
        QCOMPARE(value(r, Q::ItlMs, S::P99, 0), 15.2);
    }

    void perfExports()
    {
        const auto a = read(fixture("profile_export_aiperf.json"));
        QVERIFY2(a.ok(), qPrintable(refusal(a)));
        const Measurement& ttft = *find(a->measurements, Q::TtftMs, S::P99);
        QCOMPARE(ttft.value, 265.33);
        QCOMPARE(ttft.source, std::string("f: time_to_first_token.p99"));
        QCOMPARE(ttft.tool, std::string("aiperf 0.3.0"));
        QCOMPARE(ttft.when, std::string("2025-11-20T14:02:11.381842"));
        QCOMPARE(ttft.config.at("model"), std::string("meta-llama/Llama-3.1-70B-Instruct"));
        QCOMPARE(ttft.config.at("concurrency"), std::string("32"));
        QCOMPARE(ttft.config.at("isl"), std::string("2048"));
        QCOMPARE(value(a, Q::OutputTokensPerS, S::Mean), 2038.84);
        QVERIFY(!find(a->measurements, Q::OutputTokensPerS, S::P99)); // throughput is one figure
        const auto g = read(fixture("profile_export_genai_perf.json"));
        QVERIFY2(g.ok(), qPrintable(refusal(g)));
        const Measurement& itl = *find(g->measurements, Q::ItlMs, S::Mean);
        QCOMPARE(itl.value, 10.01);
        QCOMPARE(itl.tool, std::string("genai-perf"));
        QCOMPARE(itl.config.at("concurrency"), std::string("1"));
        QCOMPARE(itl.config.at("model"), std::string("meta-llama/Llama-3.1-8B-Instruct"));
        // A latency in ns is converted; a unit gpuplan does not know is refused at its path.
        QByteArray ns = fixture("profile_export_aiperf.json");
        ns.replace("\"unit\": \"ms\",\n    \"avg\": 142.87", "\"unit\": \"ns\",\n    \"avg\": 142870000");
        QCOMPARE(value(read(ns), Q::TtftMs, S::Mean), 142.87);
        QByteArray furlongs = fixture("profile_export_aiperf.json");
        furlongs.replace("\"unit\": \"ms\",\n    \"avg\": 142.87", "\"unit\": \"fortnights\",\n    \"avg\": 142.87");
        QVERIFY2(refusal(read(furlongs)).contains("f: time_to_first_token.unit: 'fortnights' is no time unit"),
                 qPrintable(refusal(read(furlongs))));
    }

    void megatronSteadyState()
    {
        const auto r = read(fixture("megatron-lm-train.log"));
        QVERIFY2(r.ok(), qPrintable(refusal(r)));
        const Measurement& step = *find(r->measurements, Q::StepTimeS, S::Mean);
        // Logged every 5 iterations: 5 and 10 average iterations 1-10 (warm-up), 15..100 are kept.
        QCOMPARE(step.config.at("lines_averaged"), std::string("18"));
        QVERIFY2(step.value > 10.74 && step.value < 10.86, qPrintable(QString::number(step.value)));
        QCOMPARE(step.tool, std::string("Megatron-LM"));
        QCOMPARE(step.config.at("tp"), std::string("8"));
        QCOMPARE(step.config.at("pp"), std::string("2"));
        QCOMPARE(step.config.at("gpus"), std::string("64"));
        QCOMPARE(step.config.at("global_batch"), std::string("512"));
        QCOMPARE(step.config.at("precision"), std::string("bf16"));
        QCOMPARE(step.config.at("skip_warmup"), std::string("10"));
        QVERIFY(QString::fromStdString(step.when).startsWith("2025-11-03T"));
        QVERIFY(value(r, Q::TflopsPerGpu, S::Mean) > 400.0);
        // Memory: the highest rank's max allocated, MiB -> GiB.
        QCOMPARE(value(r, Q::MemoryGib, S::Max), 69515.52 / 1024.0);
        // No warm-up skipped: the slow first interval (24.6 s) pulls the mean up.
        const auto all = read(fixture("megatron-lm-train.log"), std::nullopt, 0);
        QCOMPARE(find(all->measurements, Q::StepTimeS, S::Mean)->config.at("lines_averaged"), std::string("20"));
        QVERIFY(value(all, Q::StepTimeS, S::Mean) > step.value + 0.5);
        // A warm-up as long as the log leaves nothing steady: refused, naming the option.
        QVERIFY2(refusal(read(fixture("megatron-lm-train.log"), std::nullopt, 100)).contains("--skip-warmup 100"),
                 qPrintable(refusal(read(fixture("megatron-lm-train.log"), std::nullopt, 100))));

        const auto bridge = read(fixture("megatron-bridge-train.log"));
        QVERIFY2(bridge.ok(), qPrintable(refusal(bridge)));
        QCOMPARE(find(bridge->measurements, Q::StepTimeS, S::Mean)->tool, std::string("Megatron-Bridge"));
        QCOMPARE(find(bridge->measurements, Q::StepTimeS, S::Mean)->config.at("lines_averaged"), std::string("20"));
        QCOMPARE(value(bridge, Q::MemoryGib, S::Max), 62.913e9 / (1024.0 * 1024.0 * 1024.0)); // decimal GB
    }

    void nemoAndComposer()
    {
        const auto nemo = read(fixture("nemo2-train.log"));
        QVERIFY2(nemo.ok(), qPrintable(refusal(nemo)));
        const Measurement& step = *find(nemo->measurements, Q::StepTimeS, S::Mean);
        QCOMPARE(step.config.at("lines_averaged"), std::string("30")); // iterations 10..39 of 0..39
        QVERIFY2(std::abs(step.value - 2.31) < 0.01, qPrintable(QString::number(step.value)));
        QCOMPARE(step.config.at("global_batch"), std::string("256"));
        QCOMPARE(step.source, std::string("f:11-40"));
        QVERIFY(value(read(fixture("nemo2-train.log"), std::nullopt, 0), Q::StepTimeS, S::Mean) > 2.6);

        const auto c = read(fixture("composer-train.log"));
        QVERIFY2(c.ok(), qPrintable(refusal(c)));
        const Measurement& batch = *find(c->measurements, Q::StepTimeS, S::Mean);
        QCOMPARE(batch.config.at("lines_averaged"), std::string("9")); // batches 19..99 of 9..99
        QVERIFY2(std::abs(batch.value - 1.0 / 0.1235) < 0.05, qPrintable(QString::number(batch.value)));
        QVERIFY(value(c, Q::TrainTokensPerS, S::Mean) > 80000.0);
        QVERIFY(value(c, Q::TflopsPerGpu, S::Mean) > 100.0);
        QCOMPARE(value(c, Q::MemoryGib, S::Max), 34.5335e9 / (1024.0 * 1024.0 * 1024.0));
    }

    void badFiles_data()
    {
        QTest::addColumn<QByteArray>("bytes");
        QTest::addColumn<int>("tool"); // -1: detect
        QTest::addColumn<QString>("says");
        const QByteArray vllm = fixture("vllm-bench-serve.json");
        const QByteArray trt = fixture("trtllm-bench-report.json");
        const QByteArray sglang = fixture("sglang-bench-serving.jsonl");
        const QByteArray aiperf = fixture("profile_export_aiperf.json");
        const QByteArray megatron = fixture("megatron-lm-train.log");
        QTest::newRow("empty") << QByteArray("\n") << -1 << "f: the file is empty";
        QTest::newRow("unknown text") << QByteArray("hello\nworld\n") << -1 << "not a benchmark result";
        QTest::newRow("measurements file")
            << QByteArray(R"({"format": "gpuplan-measurements", "format_version": 1, "measurements": []})") << -1
            << "a gpuplan measurements file";
        QTest::newRow("truncated vllm") << vllm.left(vllm.size() / 2) << -1 << "f: invalid JSON at line 1";
        QTest::newRow("truncated trtllm") << trt.left(trt.size() / 2) << -1 << "(a truncated or garbled file?)";
        QTest::newRow("truncated aiperf") << aiperf.left(aiperf.size() - 40) << -1 << "f: invalid JSON at line";
        QTest::newRow("truncated sglang line") << sglang.left(sglang.size() - 30) << -1 << "f: line 2: invalid JSON";
        QTest::newRow("unknown trtllm version")
            << QByteArray(trt).replace("\"0.20.0\"", "\"2.1.0\"") << -1
            << "f: engine.version: trtllm-bench 2.1.0 is a version gpuplan does not know";
        QTest::newRow("unknown trtllm version, printed")
            << fixture("trtllm-bench-report.txt").replace("Version:\t0.20.0", "Version:\t0.9.0") << -1
            << "f: line 9: trtllm-bench 0.9.0 is a version gpuplan does not know";
        QTest::newRow("trtllm without version")
            << QByteArray(trt).replace("\"version\": \"0.20.0\",", "") << -1 << "f: engine.version: missing";
        QTest::newRow("unknown aiperf schema")
            << QByteArray(aiperf).replace("\"schema_version\": \"1.0\"", "\"schema_version\": \"2.0\"") << -1
            << "f: schema_version: '2.0' is an AIPerf export format";
        QTest::newRow("vllm as sglang") << vllm << int(BenchmarkTool::Sglang)
                                        << "this is a vLLM serving benchmark result (vllm bench serve --save-result), "
                                           "not SGLang bench_serving output (JSON lines); give --tool vllm";
        QTest::newRow("trtllm as aiperf")
            << trt << int(BenchmarkTool::Aiperf) << "this is a trtllm-bench throughput report";
        QTest::newRow("log as composer") << megatron << int(BenchmarkTool::Composer) << "Megatron-LM / Megatron-Bridge";
        QTest::newRow("vllm missing output_throughput")
            << QByteArray(vllm).replace("\"output_throughput\"", "\"output_throughput_gone\"") << -1
            << "f: output_throughput: missing";
        QTest::newRow("vllm not a number")
            << QByteArray(vllm).replace("\"request_throughput\": 8.", "\"request_throughput\": \"fast\", \"x\": 8.")
            << -1 << "f: request_throughput: must be a number";
        QTest::newRow("vllm negative") << QByteArray(vllm).replace("\"mean_ttft_ms\": 84.91208452731371",
                                                                   "\"mean_ttft_ms\": -1")
                                       << -1 << "f: mean_ttft_ms: must be a finite number not below 0";
        QTest::newRow("vllm nothing completed")
            << QByteArray(vllm).replace("\"completed\": 640", "\"completed\": 0") << -1 << "f: completed: no request";
        QTest::newRow("trtllm missing throughput") << QByteArray(trt).replace("\"request_throughput_req_s\"", "\"x\"")
                                                   << -1 << "f: performance.request_throughput_req_s: missing";
        QTest::newRow("aiperf missing throughput")
            << QByteArray(aiperf).replace("\"request_throughput\"", "\"x\"") << -1 << "f: request_throughput: missing";
        QTest::newRow("megatron garbled") << QByteArray(megatron).replace("elapsed time per iteration (ms): 10783.9",
                                                                          "elapsed time per iteration (ms): ###")
                                          << -1 << "f: line 29: the elapsed time per iteration is not a number";
        QTest::newRow("megatron without iterations")
            << QByteArray(
                   "------------------------ arguments ------------------------\n  tensor_model_parallel_size ..... 8\n"
                   " iteration 3/ 10 | elapsed time per iteration (ms): \n")
            << int(BenchmarkTool::Megatron) << "elapsed time per iteration is not a number";
        QTest::newRow("trtllm text cut short")
            << fixture("trtllm-bench-report.txt").left(1200) << -1 << "f: has no 'Request Throughput (req/sec)' line";
    }
    void badFiles()
    {
        QFETCH(QByteArray, bytes);
        QFETCH(int, tool);
        QFETCH(QString, says);
        const auto r = read(bytes, tool < 0 ? std::nullopt : std::optional(BenchmarkTool(tool)));
        QVERIFY(!r.ok());
        QVERIFY2(refusal(r).contains(says), qPrintable(refusal(r)));
        for (const Issue& i : r.issues)
            QCOMPARE(i.file, std::string("f")); // every message names the file
    }

    void aCutShortLastLogLineIsLeftOutWithAWarning()
    {
        QByteArray log = fixture("megatron-lm-train.log");
        log += " [2025-11-03 08:40:01.000001] iteration      105/     100 | consumed samples:  53";
        const auto r = read(log);
        QVERIFY2(r.ok(), qPrintable(refusal(r)));
        QCOMPARE(find(r->measurements, Q::StepTimeS, S::Mean)->config.at("lines_averaged"), std::string("18"));
        QVERIFY(QString::fromStdString(issueLines(r.issues)).contains("cut short"));
    }

    void checkedAgainstTheJob()
    {
        const Catalog& catalog = test::bundledCatalog();
        QCOMPARE(study::gpuFamily("NVIDIA H100 80GB HBM3"), std::string("H100"));
        QCOMPARE(study::gpuFamily("NVIDIA H100 PCIe"), std::string("H100"));
        QCOMPARE(study::gpuFamily("AMD Instinct MI300X"), std::string("MI300X"));
        QCOMPARE(study::gpuFamily("L40S 48GB"), std::string("L40S"));
        QCOMPARE(study::gpuFamily("NVIDIA GB200"), std::string("GB200"));
        QCOMPARE(study::gpuFamily("RTX 6000 Ada"), std::string());
        QCOMPARE(study::presetNamed("meta-llama/Llama-3.1-8B-Instruct", catalog)->id, std::string("llama3.1-8b"));
        QCOMPARE(study::presetNamed("meta-llama/Meta-Llama-3-8B-Instruct", catalog)->id, std::string("llama3-8b"));
        QCOMPARE(study::presetNamed("Qwen/Qwen3-30B-A3B-Instruct-2507", catalog)->id, std::string("qwen3-30b-a3b"));
        QVERIFY(!study::presetNamed("/checkpoints/my-model", catalog));

        Job j;
        j.id = "chat";
        j.kind = JobKind::Inference;
        j.model.preset = "llama3-8b";
        j.precision = Precision::Bf16;
        j.parallelism.tp = 2;
        j.inference = InferenceSpec{};
        j.inference->inputTokens = 1024;
        j.inference->outputTokens = 512;
        j.inference->concurrency = 32;
        Measurement m;
        m.quantity = Q::OutputTokensPerS;
        m.config = {{"model", "meta-llama/Meta-Llama-3-8B-Instruct"},
                    {"tp", "2"},
                    {"isl", "1000"},
                    {"osl", "520"},
                    {"max_concurrency", "32"},
                    {"dtype", "bfloat16"},
                    {"gpu", "NVIDIA H100 80GB HBM3"}};
        QVERIFY(study::checkAgainstJob(m, j, catalog, "h100-80gb").mismatches.empty());
        m.config["tp"] = "4";
        m.config["isl"] = "2048";
        m.config["quantization"] = "FP8";
        m.config["model"] = "meta-llama/Llama-3.1-8B-Instruct";
        const auto check = study::checkAgainstJob(m, j, catalog, "a100-80gb");
        QStringList said;
        for (const auto& x : check.mismatches)
            said << QString::fromStdString(x.message());
        QVERIFY2(said.contains("the file ran tp 4, the job has tp 2"), qPrintable(said.join(" | ")));
        QVERIFY2(said.contains("the file ran isl 2048, the job has isl 1024"), qPrintable(said.join(" | ")));
        QVERIFY(said.contains("the file ran precision fp8, the job has precision bf16"));
        QVERIFY(said.contains("the file ran model 'meta-llama/Llama-3.1-8B-Instruct' (llama3.1-8b), the job has model "
                              "llama3-8b"));
        QVERIFY(said.contains("the file ran gpu 'NVIDIA H100 80GB HBM3' (H100), the job has gpu A100 80GB SXM (A100)"));
        m.quantity = Q::StepTimeS; // a training figure of a serving job
        QVERIFY(study::checkAgainstJob(m, j, catalog, "")
                    .mismatches.front()
                    .message()
                    .find("kind training (step_time_s)") != std::string::npos);
        Measurement unknown;
        unknown.config = {{"model", "/checkpoints/my-model"}};
        QVERIFY(study::checkAgainstJob(unknown, j, catalog, "").notes.front().find("not checked") != std::string::npos);
    }

    void contradictions()
    {
        Measurement a;
        a.jobId = "chat";
        a.quantity = Q::OutputTokensPerS;
        a.value = 1000.0;
        a.config = {{"max_concurrency", "32"}};
        Measurement b = a;
        b.value = 1100.0; // 10 %: within 15 %
        Measurement c = a;
        c.value = 1300.0; // 30 % above a
        Measurement d = a;
        d.value = 3000.0;
        d.config["max_concurrency"] = "128"; // another load: meant to differ
        Measurement e = a;
        e.statistic = S::P50; // another statistic
        e.value = 5000.0;
        QVERIFY(study::contradictions({a, b}).empty());
        const auto found = study::contradictions({a, b, c, d, e});
        QCOMPARE(found.size(), std::size_t(1));
        QCOMPARE(found.front().first, std::size_t(0));
        QCOMPARE(found.front().second, std::size_t(2));
        QCOMPARE(found.front().relative, 0.3);
        QCOMPARE(study::contradictions({a, c}, 0.5).size(), std::size_t(0)); // the tolerance is the caller's
    }
};

QTEST_GUILESS_MAIN(TestBenchmarkImport)
#include "tst_benchmarkimport.moc"
