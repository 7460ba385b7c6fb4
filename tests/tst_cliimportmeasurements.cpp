// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
// gpuplan-cli import-measurements as a script runs it (docs/cli.md#import-measurements, issue 38 2a): a
// benchmark result of the job's configuration is imported beside the plan's prediction and appended to a
// measurements file; a file that ran something else is refused naming both values; a bad file, a bad
// existing measurements file or a failed write leaves the user's file byte for byte as it was; two
// measurements that contradict each other are reported. Exit codes as documented.
#include "clirunner.h"
#include "io/measurementsio.h"
#include "testsupport.h"

#include <QDir>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

using namespace gp::test;

namespace {

QByteArray fixture(const QString& name)
{
    return readAll(QDir(gp::test::fixturesDir()).absoluteFilePath("benchmarks/" + name));
}

bool write(const QString& path, const QByteArray& bytes)
{
    QFile f(path);
    return f.open(QIODevice::WriteOnly) && f.write(bytes) == bytes.size();
}

/// The sample's chat-8b job: Llama 3 8B, tp 1, bf16, 1024/512 tokens, concurrency 28.
QString sample() { return QDir(gp::test::dataDir()).absoluteFilePath("samples/01-dgx-h100-three-tenants.json"); }

/// vLLM's result for a run of exactly that configuration.
QByteArray matchingVllm()
{
    return fixture("vllm-bench-serve.json")
        .replace("meta-llama/Llama-3.1-8B-Instruct", "meta-llama/Meta-Llama-3-8B-Instruct")
        .replace("\"max_concurrency\": 32", "\"max_concurrency\": 28");
}

gp::MeasurementSet readSet(const QString& path, gp::Issues& issues)
{
    return gp::io::readMeasurements(readAll(path), issues);
}

} // namespace

class TestCliImportMeasurements : public QObject
{
    Q_OBJECT

    QTemporaryDir mHome;

private Q_SLOTS:
    void importsBesideThePredictionAndAppends()
    {
        QTemporaryDir tmp;
        const QString bench = tmp.filePath("vllm.json");
        const QString out = tmp.filePath("measurements.json");
        QVERIFY(write(bench, matchingVllm()));
        const Run r = cli({"import-measurements", sample(), bench, "--job", "chat-8b", "--out", out}, mHome.path());
        QVERIFY2(r.code == 0, qPrintable(r.out + r.err));
        QVERIFY2(r.out.contains("ttft_ms              p99   measured 305.643 ms  predicted"), qPrintable(r.out));
        QVERIFY(r.out.contains(bench + ": p99_ttft_ms"));
        QVERIFY(r.out.contains(out + ": 8 measurements added, 8 in all"));
        gp::Issues issues;
        const gp::MeasurementSet set = readSet(out, issues);
        QVERIFY2(issues.empty(), gp::issueLines(issues).c_str());
        QCOMPARE(set.items.size(), std::size_t(8));
        QCOMPARE(set.scenarioId, std::string("DGX H100 pod: three tenants"));
        for (const gp::Measurement& m : set.items) {
            QCOMPARE(m.jobId, std::string("chat-8b"));
            QCOMPARE(m.tool, std::string("vllm bench serve"));
            QCOMPARE(m.when, std::string("2025-11-24T09:15:30"));
            QCOMPARE(m.config.at("max_concurrency"), std::string("28"));
        }

        // The same file again adds nothing; a second run of another load is appended after them.
        const QByteArray first = readAll(out);
        const Run again = cli({"import-measurements", sample(), bench, "--job", "chat-8b", "--out", out}, mHome.path());
        QVERIFY2(again.code == 0, qPrintable(again.out + again.err));
        QVERIFY(again.out.contains("0 measurements added (8 already there, skipped), 8 in all"));
        const QString sglang = tmp.filePath("sglang.jsonl");
        QVERIFY(write(sglang, fixture("sglang-bench-serving.jsonl")));
        const Run more =
            cli({"import-measurements", sample(), sglang, "--job", "chat-8b", "--out", out, "--allow-mismatch"},
                mHome.path());
        QVERIFY2(more.code == 0, qPrintable(more.out + more.err));
        const QByteArray after = readAll(out);
        QCOMPARE(readSet(out, issues).items.size(), std::size_t(24));
        QVERIFY(after.startsWith(first.left(first.lastIndexOf("}\n  ]")))); // the old ones first, unchanged
    }

    void aMismatchIsRefusedNamingBothValuesAndWritesNothing()
    {
        QTemporaryDir tmp;
        const QString bench = tmp.filePath("vllm.json");
        const QString out = tmp.filePath("measurements.json");
        QVERIFY(write(bench, matchingVllm()));
        QCOMPARE(cli({"import-measurements", sample(), bench, "--job", "chat-8b", "--out", out}, mHome.path()).code, 0);
        const QByteArray before = hashOf(out);
        const QString other = tmp.filePath("other.json");
        QVERIFY(write(other, fixture("vllm-bench-serve.json"))); // Llama 3.1 8B at concurrency 32
        const Run r = cli({"import-measurements", sample(), other, "--job", "chat-8b", "--out", out}, mHome.path());
        QCOMPARE(r.code, 3);
        QVERIFY2(r.err.contains(other + ": config.max_concurrency: the file ran max_concurrency 32, the job has "
                                        "max_concurrency 28 (job chat-8b)"),
                 qPrintable(r.err));
        QVERIFY(r.err.contains("config.model: the file ran model 'meta-llama/Llama-3.1-8B-Instruct' (llama3.1-8b), "
                               "the job has model llama3-8b"));
        QVERIFY(r.err.contains("nothing written (--allow-mismatch keeps them)"));
        QCOMPARE(hashOf(out), before);

        // --allow-mismatch keeps them, and says in each what differed.
        const Run kept =
            cli({"import-measurements", sample(), other, "--job", "chat-8b", "--out", out, "--allow-mismatch"},
                mHome.path());
        QVERIFY2(kept.code == 0, qPrintable(kept.out + kept.err));
        QVERIFY(kept.err.contains("warning: " + other + ": config.max_concurrency"));
        gp::Issues issues;
        const gp::MeasurementSet set = readSet(out, issues);
        QCOMPARE(set.items.size(), std::size_t(16));
        QVERIFY(set.items.back().config.at("allowed_mismatch").find("max_concurrency 32 vs job 28") !=
                std::string::npos);
        // A training log for a serving job is another kind of figure altogether.
        const Run log = cli({"import-measurements", sample(),
                             QDir(fixturesDir()).absoluteFilePath("benchmarks/nemo2-train.log"), "--job", "chat-8b"},
                            mHome.path());
        QCOMPARE(log.code, 3);
        QVERIFY(log.err.contains("config.kind: the file ran kind training (step_time_s)"));
    }

    void badInputLeavesTheFileIntact()
    {
        QTemporaryDir tmp;
        const QString bench = tmp.filePath("vllm.json");
        const QString out = tmp.filePath("measurements.json");
        QVERIFY(write(bench, matchingVllm()));
        QCOMPARE(cli({"import-measurements", sample(), bench, "--job", "chat-8b", "--out", out}, mHome.path()).code, 0);
        const QByteArray before = hashOf(out);

        const QString cut = tmp.filePath("cut.json");
        QVERIFY(write(cut, matchingVllm().left(500)));
        Run r = cli({"import-measurements", sample(), bench, cut, "--job", "chat-8b", "--out", out}, mHome.path());
        QCOMPARE(r.code, 2);
        QVERIFY2(r.err.contains(cut + ": invalid JSON at line 1"), qPrintable(r.err));
        QVERIFY(r.err.contains("nothing imported, nothing written"));
        QCOMPARE(hashOf(out), before);

        const QString newer = tmp.filePath("trtllm.json");
        QVERIFY(write(newer, fixture("trtllm-bench-report.json").replace("\"0.20.0\"", "\"3.0.0\"")));
        r = cli({"import-measurements", sample(), newer, "--job", "chat-8b", "--out", out}, mHome.path());
        QCOMPARE(r.code, 2);
        QVERIFY(r.err.contains(newer + ": engine.version: trtllm-bench 3.0.0 is a version gpuplan does not know"));
        r = cli({"import-measurements", sample(), bench, "--tool", "sglang", "--job", "chat-8b", "--out", out},
                mHome.path());
        QCOMPARE(r.code, 2);
        QVERIFY(r.err.contains(bench + ": this is a vLLM serving benchmark result"));
        QCOMPARE(hashOf(out), before);

        // A file at --out that is not a measurements file is never overwritten.
        const QString notMeasurements = tmp.filePath("notes.json");
        QVERIFY(write(notMeasurements, "{\"hello\": 1}\n"));
        r = cli({"import-measurements", sample(), bench, "--job", "chat-8b", "--out", notMeasurements}, mHome.path());
        QCOMPARE(r.code, 2);
        QCOMPARE(readAll(notMeasurements), QByteArray("{\"hello\": 1}\n"));
        // Nor one of another scenario.
        QByteArray elsewhere = readAll(out);
        elsewhere.replace("\"scenario\": \"DGX H100 pod: three tenants\"", "\"scenario\": \"another plan\"");
        const QString otherPlan = tmp.filePath("other-plan.json");
        QVERIFY(write(otherPlan, elsewhere));
        r = cli({"import-measurements", sample(), bench, "--job", "chat-8b", "--out", otherPlan}, mHome.path());
        QCOMPARE(r.code, 2);
        QVERIFY2(r.err.contains("holds measurements of scenario 'another plan'"), qPrintable(r.err));
        QCOMPARE(readAll(otherPlan), elsewhere);

        // Usage: no such job, no such tool, a negative warm-up.
        r = cli({"import-measurements", sample(), bench, "--job", "nope"}, mHome.path());
        QCOMPARE(r.code, 2);
        QVERIFY(r.err.contains("has no job 'nope'; its jobs: frontier-70b"));
        QCOMPARE(cli({"import-measurements", sample(), bench, "--job", "chat-8b", "--tool", "x"}, mHome.path()).code,
                 2);
        QCOMPARE(
            cli({"import-measurements", sample(), bench, "--job", "chat-8b", "--skip-warmup", "-1"}, mHome.path()).code,
            2);
        QCOMPARE(cli({"import-measurements", sample(), "--job", "chat-8b"}, mHome.path()).code, 2);

        // A write that fails is a runtime failure, and the existing file keeps every byte (a file nobody may
        // write is refused by the file writer, even for root).
        const QByteArray content = readAll(out);
        QVERIFY(QFile::setPermissions(out, QFileDevice::ReadOwner | QFileDevice::ReadGroup | QFileDevice::ReadOther));
        const QString sglang = tmp.filePath("sglang.jsonl");
        QVERIFY(write(sglang, fixture("sglang-bench-serving.jsonl")));
        r = cli({"import-measurements", sample(), sglang, "--job", "chat-8b", "--out", out, "--allow-mismatch"},
                mHome.path());
        QCOMPARE(r.code, 1);
        QVERIFY2(r.err.contains(out) && r.err.contains("nothing written"), qPrintable(r.err));
        QCOMPARE(readAll(out), content);
        QVERIFY(QFile::setPermissions(out, QFileDevice::ReadOwner | QFileDevice::WriteOwner));
        // Nor is anything left behind when the output's folder is missing.
        r = cli({"import-measurements", sample(), bench, "--job", "chat-8b", "--out", tmp.filePath("no/such/m.json")},
                mHome.path());
        QCOMPARE(r.code, 1);
        QVERIFY(!QFile::exists(tmp.filePath("no/such/m.json")));
    }

    void contradictionsAreReported()
    {
        QTemporaryDir tmp;
        const QString a = tmp.filePath("a.json");
        const QString b = tmp.filePath("b.json");
        QVERIFY(write(a, matchingVllm()));
        // The same configuration measured again at 30 % less output throughput.
        QVERIFY(write(b, matchingVllm().replace("\"output_throughput\": 4561.", "\"output_throughput\": 3193.")));
        const QString out = tmp.filePath("m.json");
        const Run r = cli({"import-measurements", sample(), a, b, "--job", "chat-8b", "--out", out}, mHome.path());
        QCOMPARE(r.code, 4);
        QVERIFY2(r.out.contains("contradiction: output_tokens_per_s mean of job chat-8b: 4561.56 ("),
                 qPrintable(r.out));
        QVERIFY(r.out.contains("differ by 43 %, beyond 15 %"));
        gp::Issues issues;
        QCOMPARE(readSet(out, issues).items.size(), std::size_t(16)); // still written: both are measurements
        // Within a wider tolerance they agree.
        QCOMPARE(
            cli({"import-measurements", sample(), a, b, "--job", "chat-8b", "--tolerance", "50"}, mHome.path()).code,
            0);
    }

    void jsonDocument()
    {
        QTemporaryDir tmp;
        const QString bench = tmp.filePath("vllm.json");
        QVERIFY(write(bench, matchingVllm()));
        const Run r = cli({"import-measurements", sample(), bench, "--job", "chat-8b", "--json"}, mHome.path());
        QVERIFY2(r.code == 0, qPrintable(r.err));
        const QJsonObject doc = QJsonDocument::fromJson(r.out.toUtf8()).object();
        QCOMPARE(doc["job"].toString(), QString("chat-8b"));
        QCOMPARE(doc["files"].toArray().first().toObject()["tool"].toString(), QString("vllm"));
        QVERIFY(doc["written"].isNull());
        const QJsonArray items = doc["measurements"].toArray();
        QCOMPARE(items.size(), 8);
        int predicted = 0;
        for (const QJsonValue& v : items) {
            const QJsonObject m = v.toObject();
            QCOMPARE(m["job"].toString(), QString("chat-8b"));
            if (m["predicted"].isDouble()) {
                ++predicted;
                const double want = (m["value"].toDouble() - m["predicted"].toDouble()) / m["predicted"].toDouble();
                QCOMPARE(m["difference"].toDouble(), want);
            } else {
                QVERIFY(!m["no_prediction"].toString().isEmpty()); // e.g. no P90 ... the reason is given
            }
        }
        QCOMPARE(predicted, 8); // mean, P50 and P99 of the serving model
    }
};

QTEST_GUILESS_MAIN(TestCliImportMeasurements)
#include "tst_cliimportmeasurements.moc"
