// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
// Each class of bad scenario input gives an error naming the JSON path, the value and the
// reason, and nothing is half-loaded.
#include "io/jsonfile.h"
#include "io/scenarioreader.h"
#include "model/limits.h"
#include "testsupport.h"

#include <QElapsedTimer>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

#include <sys/stat.h>

using namespace gp;

namespace {

QJsonValue setPath(const QJsonValue& node, const QStringList& parts, int i, const QJsonValue& value)
{
    if (i == parts.size())
        return value;
    static const QRegularExpression index(R"(^(\w*)\[(\d+)\]$)");
    const auto m = index.match(parts[i]);
    if (m.hasMatch()) {
        QJsonObject obj = node.toObject();
        QJsonArray arr = m.captured(1).isEmpty() ? node.toArray() : obj.value(m.captured(1)).toArray();
        const int k = m.captured(2).toInt();
        arr[k] = setPath(arr.at(k), parts, i + 1, value);
        if (m.captured(1).isEmpty())
            return arr;
        obj[m.captured(1)] = arr;
        return obj;
    }
    QJsonObject obj = node.toObject();
    if (i + 1 == parts.size() && value.isUndefined())
        obj.remove(parts[i]);
    else
        obj[parts[i]] = setPath(obj.value(parts[i]), parts, i + 1, value);
    return obj;
}

/// The three-tenant sample with `path` set to `value` (undefined = removed).
QByteArray mutated(const QString& path, const QJsonValue& value)
{
    QFile f(QDir(test::dataDir()).absoluteFilePath("samples/01-dgx-h100-three-tenants.json"));
    f.open(QIODevice::ReadOnly);
    const QJsonObject root = QJsonDocument::fromJson(f.readAll()).object();
    return QJsonDocument(setPath(root, path.split('.'), 0, value).toObject()).toJson();
}

QString dump(const Issues& issues)
{
    QStringList l;
    for (const auto& i : issues)
        l << QString::fromStdString(i.toString());
    return l.join('\n');
}

} // namespace

class TestBadInput : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void mutationIsReportedPrecisely_data()
    {
        QTest::addColumn<QString>("path");
        QTest::addColumn<QJsonValue>("value");
        QTest::addColumn<QString>("expected");
        // The example of the foundation issue, verbatim.
        QTest::newRow("tp vs heads") << "tenants[2].jobs[0].parallelism.tp" << QJsonValue(3)
                                     << "tenants[2].jobs[0].parallelism.tp: 3 does not divide attention heads (32)";
        QTest::newRow("more GPUs than the cluster") << "tenants[0].jobs[0].parallelism.dp" << QJsonValue(64)
                                                    << "tenants[0].jobs[0].parallelism: tp x pp x dp = 1024 GPUs; the "
                                                       "cluster offers 73"; // 56 GPUs + 7 x 2 + 3 MIG instances
        QTest::newRow("NaN-like size") << "topology.links[0].bandwidth_gbps" << QJsonValue(0)
                                       << "topology.links[0].bandwidth_gbps: 0 must be between 0.001 and 1000000";
        QTest::newRow("pp vs layers") << "tenants[0].jobs[0].parallelism.pp" << QJsonValue(3)
                                      << "tenants[0].jobs[0].parallelism.pp: 3 does not divide layers (80)";
        QTest::newRow("wrong type") << "topology.nodes[0].gpu_count" << QJsonValue("eight")
                                    << "topology.nodes[0].gpu_count: expected an integer, found the string \"eight\"";
        QTest::newRow("fraction") << "topology.nodes[0].gpu_count" << QJsonValue(7.5)
                                  << "topology.nodes[0].gpu_count: 7.5 must be a whole number";
        QTest::newRow("huge") << "topology.nodes[0].gpu_count" << QJsonValue(1e300)
                              << "topology.nodes[0].gpu_count: 1e+300 is too large";
        QTest::newRow("out of range") << "topology.nodes[1].gpu_count" << QJsonValue(0)
                                      << "topology.nodes[1].gpu_count: 0 must be between 1 and 64";
        QTest::newRow("unknown gpu") << "topology.nodes[0].gpu" << QJsonValue("v100")
                                     << "topology.nodes[0].gpu: 'v100' is not a GPU in the catalog";
        QTest::newRow("unknown field") << "topology.nodes[0].gpus" << QJsonValue(8)
                                       << "topology.nodes[0].gpus: unknown field";
        QTest::newRow("missing name") << "name" << QJsonValue(QJsonValue::Undefined) << "name: is missing";
        QTest::newRow("bad enum") << "tenants[0].jobs[0].kind" << QJsonValue("pretrain")
                                  << "tenants[0].jobs[0].kind: 'pretrain' must be pretraining, full_finetune, lora, "
                                     "qlora or inference";
        QTest::newRow("isolation") << "tenants[0].isolation" << QJsonValue("strict")
                                   << "tenants[0].isolation: 'strict' must be none, memory or hardware";
        QTest::newRow("mig overlap") << "topology.nodes[6].sharing.mig[1].start" << QJsonValue(2)
                                     << "topology.nodes[6].sharing.mig[1]: start slice 2 is not allowed for 3g.40gb";
        QTest::newRow("mig on L40S-less field") << "topology.nodes[0].sharing.replicas" << QJsonValue(4)
                                                << "topology.nodes[0].sharing.replicas: only allowed when mode is "
                                                   "time_slicing";
        QTest::newRow("mig profile") << "topology.nodes[6].sharing.mig[0].profile" << QJsonValue("3g.20gb")
                                     << "topology.nodes[6].sharing.mig[0]: profile '3g.20gb' does not exist on H100 "
                                        "SXM 80GB";
        QTest::newRow("dangling link") << "topology.links[0].to" << QJsonValue("nowhere")
                                       << "topology.links[0].to: 'nowhere' is not a node or switch";
        QTest::newRow("duplicate node") << "topology.nodes[1].id" << QJsonValue("node-001")
                                        << "topology.nodes[1].id: 'node-001' is used by another node or switch";
        QTest::newRow("colour") << "tenants[1].color" << QJsonValue("orange")
                                << "tenants[1].color: 'orange' must be #RRGGBB";
        QTest::newRow("batch") << "tenants[1].jobs[0].batch.global" << QJsonValue(100)
                               << "tenants[1].jobs[0].batch.global: 100 is not a multiple of micro x dp (1 x 8 = 8)";
        QTest::newRow("busy fraction above one")
            << "tenants[1].busy_fraction" << QJsonValue(1.5) << "tenants[1].busy_fraction: 1.5";
        QTest::newRow("training on inference")
            << "tenants[2].jobs[0].training" << QJsonValue(QJsonObject{{"tokens", 1}})
            << "tenants[2].jobs[0].training: not used by inference jobs; remove it";
        QTest::newRow("fp32 main gradients on inference")
            << "tenants[2].jobs[0].main_grads_fp32" << QJsonValue(true)
            << "tenants[2].jobs[0].main_grads_fp32: applies to training only";
        QTest::newRow("main gradients not a bool") << "tenants[0].jobs[0].main_grads_fp32" << QJsonValue(1)
                                                   << "tenants[0].jobs[0].main_grads_fp32: expected true or false";
        QTest::newRow("flash attention not a bool") << "tenants[0].jobs[0].flash_attention" << QJsonValue("yes")
                                                    << "tenants[0].jobs[0].flash_attention: expected true or false";
        QTest::newRow("virtual stages without a pipeline")
            << "tenants[1].jobs[0].parallelism.virtual_stages" << QJsonValue(2)
            << "tenants[1].jobs[0].parallelism.virtual_stages: 2 needs a pipeline: pp is 1";
        QTest::newRow("virtual stages vs layers per stage")
            << "tenants[0].jobs[0].parallelism.virtual_stages" << QJsonValue(3)
            << "tenants[0].jobs[0].parallelism.virtual_stages: 3 does not divide the layers per stage (40)";
        QTest::newRow("virtual stages on inference")
            << "tenants[2].jobs[0].parallelism.virtual_stages" << QJsonValue(2)
            << "tenants[2].jobs[0].parallelism.virtual_stages: interleaving is a training schedule";
        QTest::newRow("virtual stages zero")
            << "tenants[0].jobs[0].parallelism.virtual_stages" << QJsonValue(0)
            << "tenants[0].jobs[0].parallelism.virtual_stages: 0 must be between 1 and 1024";
        QTest::newRow("int4 training") << "tenants[0].jobs[0].precision" << QJsonValue("int4")
                                       << "tenants[0].jobs[0].precision: int4 is a serving precision";
        QTest::newRow("unknown preset") << "tenants[0].jobs[0].model.preset" << QJsonValue("gpt5")
                                        << "tenants[0].jobs[0].model.preset: 'gpt5' is not a model preset";
        QTest::newRow("pin gpu") << "tenants[0].jobs[0].pin"
                                 << QJsonValue(QJsonObject{{"node", "node-001"}, {"gpu", 9}})
                                 << "tenants[0].jobs[0].pin.gpu: 9 is not a GPU of node-001 (0..7)";
        QTest::newRow("assumption") << "assumptions" << QJsonValue(QJsonObject{{"mfu", 0.5}})
                                    << "assumptions.mfu: unknown assumption";
        QTest::newRow("assumption range") << "assumptions" << QJsonValue(QJsonObject{{"serving_memory_fraction", 1.5}})
                                          << "assumptions.serving_memory_fraction: 1.5 must be between 0.05 and 1";
        const QString serve = "tenants[2].jobs[0].inference.";
        QTest::newRow("serving: no output")
            << serve + "output_tokens" << QJsonValue(0) << serve + "output_tokens: 0 must be between 1 and 4096";
        QTest::newRow("serving: negative prompt")
            << serve + "input_tokens" << QJsonValue(-5) << serve + "input_tokens: -5 must be between 1 and 4096";
        QTest::newRow("serving: no concurrency")
            << serve + "concurrency" << QJsonValue(0) << serve + "concurrency: 0 must be between 1 and";
        QTest::newRow("serving: prompt longer than the context")
            << serve + "input_tokens" << QJsonValue(5000) << serve + "input_tokens: 5000 must be between 1 and 4096";
        QTest::newRow("serving: prompt and output past the context")
            << serve + "input_tokens" << QJsonValue(4000)
            << serve + "input_tokens: 4000 + output_tokens 512 exceeds context_tokens 4096";
        QTest::newRow("serving: context past the model's")
            << serve + "context_tokens" << QJsonValue(10000)
            << serve + "context_tokens: 10000 exceeds the model's maximum "
                       "context of 8192 tokens";
        QTest::newRow("serving: load") << serve + "load" << QJsonValue("batch")
                                       << serve + "load: 'batch' must be open or closed";
        QTest::newRow("serving: open load without a rate")
            << serve + "requests_per_s" << QJsonValue(0) << "an open load needs an arrival rate above 0";
        QTest::newRow("serving: TTFT objective of zero")
            << "tenants[2].sla.ttft_p99_ms" << QJsonValue(0) << "tenants[2].sla.ttft_p99_ms: 0 must be between";
        QTest::newRow("serving: ITL objective negative")
            << "tenants[2].sla.itl_p99_ms" << QJsonValue(-1) << "tenants[2].sla.itl_p99_ms: -1 must be between";
        QTest::newRow("price preset") << "pricing.preset" << QJsonValue("cheap")
                                      << "pricing.preset: 'cheap' is not a price preset in the catalog";
        QTest::newRow("newer version") << "format_version" << QJsonValue(7)
                                       << "format_version: 7 is newer than this gpuplan reads (6): it needs a newer "
                                          "gpuplan";
        QTest::newRow("not an object") << "tenants[0]" << QJsonValue(5)
                                       << "tenants[0]: expected an object, found the "
                                          "number 5";
    }
    void mutationIsReportedPrecisely()
    {
        QFETCH(QString, path);
        QFETCH(QJsonValue, value);
        QFETCH(QString, expected);
        const auto r = io::readScenario(mutated(path, value), test::bundledCatalog());
        QVERIFY2(!r.ok(), "the broken scenario was accepted");
        QVERIFY(!r.value.has_value()); // nothing half-loaded
        QVERIFY2(dump(r.issues).contains(expected), qPrintable("expected: " + expected + "\ngot:\n" + dump(r.issues)));
    }

    void unbrokenSampleIsAccepted()
    {
        // The mutation helper itself must not break the file.
        const auto r = io::readScenario(mutated("description", "still fine"), test::bundledCatalog());
        QVERIFY2(r.ok(), qPrintable(dump(r.issues)));
        QCOMPARE(r.value->description, std::string("still fine"));
    }

    void syntaxErrorsSayLineAndColumn()
    {
        const auto r =
            io::readScenario("{\n  \"format_version\": 1,\n  \"name\": \"x\" \"oops\"\n}", test::bundledCatalog());
        QVERIFY(!r.ok());
        QVERIFY2(dump(r.issues).contains("invalid JSON at line 3"), qPrintable(dump(r.issues)));
    }

    void deepNestingIsRefused()
    {
        QByteArray deep = "{\"format_version\": 1, \"name\": \"x\", \"description\": ";
        deep += QByteArray(5000, '[') + QByteArray(5000, ']') + "}";
        const auto r = io::readScenario(deep, test::bundledCatalog());
        QVERIFY(!r.ok());
        QVERIFY(!r.issues.empty());
    }

    void nonFiniteNumbersAreRefused_data()
    {
        QTest::addColumn<QByteArray>("literal");
        QTest::addColumn<QString>("expected");
        // JSON has no NaN or Infinity, and a number beyond a double's range is no number either.
        QTest::newRow("NaN") << QByteArray("NaN") << "invalid JSON at line";
        QTest::newRow("Infinity") << QByteArray("Infinity") << "invalid JSON at line";
        QTest::newRow("1e999") << QByteArray("1e999") << "invalid JSON at line 239, column 40: illegal number";
        QTest::newRow("-1e999") << QByteArray("-1e999") << "invalid JSON at line 239, column 41: illegal number";
        QTest::newRow("1e308") << QByteArray("1e308") << "topology.links[0].bandwidth_gbps: 1e+308 must be between";
        QTest::newRow("-0") << QByteArray("-0") << "topology.links[0].bandwidth_gbps: 0 must be between";
    }
    void nonFiniteNumbersAreRefused()
    {
        QFETCH(QByteArray, literal);
        QFETCH(QString, expected);
        QByteArray text = mutated("topology.links[0].bandwidth_gbps", 123456.0);
        QVERIFY(text.contains("123456"));
        text.replace("123456", literal);
        const auto r = io::readScenario(text, test::bundledCatalog());
        QVERIFY(!r.ok());
        QVERIFY(!r.value.has_value());
        QVERIFY2(dump(r.issues).contains(expected), qPrintable(dump(r.issues)));
    }

    void notAScenario()
    {
        auto r = io::readScenario("[1, 2, 3]", test::bundledCatalog());
        QVERIFY(dump(r.issues).contains("the top level must be a JSON object"));
        r = io::readScenario("{\"hello\": 1}", test::bundledCatalog());
        QVERIFY(dump(r.issues).contains("format_version: is missing: is this a gpuplan scenario?"));
        r = io::readScenarioFile("/nonexistent/file.json", test::bundledCatalog());
        QVERIFY(dump(r.issues).contains("file does not exist"));
    }

    void oversizeFileIsRefusedBeforeReading()
    {
        QTemporaryDir tmp;
        QFile f(tmp.filePath("big.json"));
        QVERIFY(f.open(QIODevice::WriteOnly));
        QVERIFY(f.resize(300ll * 1024 * 1024)); // sparse 300 MiB
        f.close();
        const auto r = io::readScenarioFile(tmp.filePath("big.json"), test::bundledCatalog());
        QVERIFY2(dump(r.issues).contains("file is 300 MiB; the limit is 256 MiB"), qPrintable(dump(r.issues)));
    }

    // Issue 34: a key given twice is refused at the second one's path (QJsonDocument would keep
    // one of the two values without a word).
    void duplicateKeysAreRefusedWithTheirPath_data()
    {
        QTest::addColumn<QByteArray>("from");
        QTest::addColumn<QByteArray>("to");
        QTest::addColumn<QString>("expected");
        QTest::newRow("top level") << QByteArray("\"format_version\": 6,")
                                   << QByteArray("\"format_version\": 6, \"format_version\": 6,")
                                   << "format_version: duplicate key 'format_version'";
        QTest::newRow("in a job") << QByteArray("\"kind\": \"pretraining\"")
                                  << QByteArray("\"kind\": \"pretraining\", \"kind\": \"finetuning\"")
                                  << "tenants[0].jobs[0].kind: duplicate key 'kind'";
    }
    void duplicateKeysAreRefusedWithTheirPath()
    {
        QFETCH(QByteArray, from);
        QFETCH(QByteArray, to);
        QFETCH(QString, expected);
        QFile f(QDir(test::dataDir()).absoluteFilePath("samples/01-dgx-h100-three-tenants.json"));
        QVERIFY(f.open(QIODevice::ReadOnly));
        QByteArray text = f.readAll();
        QVERIFY2(text.contains(from), from.constData());
        text.replace(text.indexOf(from), from.size(), to);
        const auto r = io::readScenario(text, test::bundledCatalog());
        QVERIFY(!r.ok());
        QVERIFY(!r.value.has_value());
        QVERIFY2(dump(r.issues).contains(expected), qPrintable(dump(r.issues)));
    }
    void duplicateKeyScanFollowsNestingAndEscapes()
    {
        // Same key in different objects is fine; an escaped spelling of the same key is not;
        // a quote or a brace inside a string value does not confuse the scan.
        const QByteArray fine = "{\"a\": {\"a\": 1}, \"b\": [{\"a\": 1}, {\"a\": \"}{\\\"a\\\":\"}]}";
        QVERIFY(io::duplicateJsonKeys(fine).empty());
        const QByteArray escaped = "{\"x\": [1, {\"n\": 1, \"m\": [], \"\\u006e\": 2}]}";
        const Issues twice = io::duplicateJsonKeys(escaped);
        QCOMPARE(twice.size(), std::size_t(1));
        QCOMPARE(QString::fromStdString(twice.front().toString()),
                 QString("x[1].n: duplicate key 'n': the object already "
                         "has one (give each key once)"));
    }

    // Issue 34: names and ids have a length limit and hold no control characters, so a 10 MB
    // name or an escape sequence never reaches a report, a terminal or an SVG.
    void namesAndIdsAreBounded_data()
    {
        QTest::addColumn<QString>("path");
        QTest::addColumn<QJsonValue>("value");
        QTest::addColumn<QString>("expected");
        QTest::newRow("long scenario name")
            << "name" << QJsonValue(QString(257, 'x')) << "name: is 257 characters long; a name has at most 256";
        QTest::newRow("long tenant id") << "tenants[1].id" << QJsonValue(QString(129, 'x'))
                                        << "tenants[1].id: is 129 characters long; an id has at most 128";
        QTest::newRow("10 MB job name") << "tenants[0].jobs[0].name" << QJsonValue(QString(10'000'000, 'x'))
                                        << "tenants[0].jobs[0].name: is 10000000 characters long";
        QTest::newRow("escape in a node name")
            << "topology.nodes[0].name" << QJsonValue(QString("dgx\x1b[31m-01"))
            << "topology.nodes[0].name: holds the control character U+001B at character 4";
        QTest::newRow("newline in a tenant name") << "tenants[0].name" << QJsonValue(QString("a\nb"))
                                                  << "tenants[0].name: holds the control character U+000A";
        QTest::newRow("C1 control in a job id")
            << "tenants[0].jobs[0].id" << QJsonValue(QString("a") + QChar(0x9b) + "b")
            << "tenants[0].jobs[0].id: holds the control character U+009B";
        QTest::newRow("U+0001 in the description") << "description"
                                                   << QJsonValue(QString("a\x01"
                                                                         "b"))
                                                   << "description: holds the control character U+0001";
    }
    void namesAndIdsAreBounded()
    {
        QFETCH(QString, path);
        QFETCH(QJsonValue, value);
        QFETCH(QString, expected);
        const auto r = io::readScenario(mutated(path, value), test::bundledCatalog());
        QVERIFY(!r.ok());
        QVERIFY(!r.value.has_value());
        QVERIFY2(dump(r.issues).contains(expected), qPrintable(dump(r.issues).left(2000)));
    }
    void descriptionsMayBreakLinesAndNamesMayBeLong()
    {
        const auto lines = io::readScenario(mutated("description", "two\nlines\tand a tab"), test::bundledCatalog());
        QVERIFY2(lines.ok(), qPrintable(dump(lines.issues)));
        const auto longest = io::readScenario(mutated("name", QString(256, QChar(0x00e9))), test::bundledCatalog());
        QVERIFY2(longest.ok(), qPrintable(dump(longest.issues))); // characters, not bytes
    }

    void nodeAndJobCountsAreBounded()
    {
        QByteArray json = "{\"format_version\": 1, \"name\": \"x\", \"topology\": {\"nodes\": [";
        for (std::size_t i = 0; i <= limits::kMaxScenarioNodes; ++i)
            json += i ? ",{}" : "{}";
        json += "]}}";
        auto r = io::readScenario(json, test::bundledCatalog());
        QVERIFY2(dump(r.issues).contains("topology.nodes: 200001 nodes; a scenario has at most 200000"),
                 qPrintable(dump(r.issues).left(500)));
        QCOMPARE(r.issues.size(), std::size_t(1)); // refused before reading 200,001 nodes
        json = "{\"format_version\": 1, \"name\": \"x\", \"topology\": {}, \"tenants\": [{\"id\": \"t\", \"jobs\": [";
        for (std::size_t i = 0; i <= limits::kMaxScenarioJobs; ++i)
            json += i ? ",1" : "1";
        json += "]}]}";
        r = io::readScenario(json, test::bundledCatalog());
        QVERIFY2(dump(r.issues).contains("tenants[0].jobs: the scenario's tenants have 1000001 jobs"),
                 qPrintable(dump(r.issues).left(500)));
    }

    void specialFilesAreRefusedWithoutReading()
    {
        QTemporaryDir tmp;
        // A symlink to /dev/zero (only ever read) and a FIFO nobody writes to: refused at once,
        // neither read forever nor waited on.
        QVERIFY(QFile::link("/dev/zero", tmp.filePath("zero.json")));
        auto r = io::readScenarioFile(tmp.filePath("zero.json"), test::bundledCatalog());
        QVERIFY2(dump(r.issues).contains("not a regular file"), qPrintable(dump(r.issues)));
        if (::mkfifo(QFile::encodeName(tmp.filePath("fifo.json")).constData(), 0600) != 0)
            QSKIP("mkfifo is not available here");
        QElapsedTimer clock;
        clock.start();
        r = io::readScenarioFile(tmp.filePath("fifo.json"), test::bundledCatalog());
        QVERIFY2(dump(r.issues).contains("not a regular file"), qPrintable(dump(r.issues)));
        QVERIFY(clock.elapsed() < 5000);
    }
};

QTEST_GUILESS_MAIN(TestBadInput)
#include "tst_badinput.moc"
