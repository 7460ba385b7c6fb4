// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
// gpuplan-cli check-plan against a real Prometheus (issue 38): recorded dcgm-exporter output
// (tests/data/telemetry/README.md) backfilled with promtool into a server on 127.0.0.1; the plan's
// jobs and GPUs matched to the series and put beside them; everything unmatched named; a
// Prometheus that refuses connections, never answers, refuses the query or has no DCGM series,
// and series without pod labels, each a clear message and its own exit status; the scenario
// file never touched.
#include "clirunner.h"
#include "prometheusserver.h"
#include "testsupport.h"

#include <QElapsedTimer>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

using namespace gp;

namespace {

// 2025-08-19T10:00:00Z, the day of the recorded H100 output, and two hours of it.
constexpr double kFromS = 1755597600.0;
constexpr double kToS = kFromS + 7200.0;

QString fixture(const QString& name) { return gp::test::fixturesDir() + "/telemetry/" + name; }

QJsonObject rowOf(const QJsonObject& subject, const QString& quantity)
{
    for (const auto& r : subject.value("rows").toArray())
        if (r.toObject().value("quantity").toString() == quantity)
            return r.toObject();
    return {};
}

QJsonObject find(const QJsonArray& list, const QString& key, const QString& value)
{
    for (const auto& v : list)
        if (v.toObject().value(key).toString() == value)
            return v.toObject();
    return {};
}

} // namespace

class TestCheckPlan : public QObject
{
    Q_OBJECT

    gp::test::PrometheusServer mServer;
    QTemporaryDir mTmp;
    QString mPlan;
    QByteArray mPlanHash;

    QStringList args(const QStringList& more = {}) const
    {
        return QStringList{"check-plan",           mPlan,  "--prometheus",        mServer.url(), "--from",
                           "2025-08-19T10:00:00Z", "--to", "2025-08-19T12:00:00Z"} +
               more;
    }
    gp::test::Run run(const QStringList& a)
    {
        QElapsedTimer t;
        t.start();
        gp::test::Run r = gp::test::cli(a, mTmp.path());
        qInfo("gpuplan-cli %s: exit %d in %.2f s", qPrintable(a.mid(5).join(' ')), r.code, t.elapsed() / 1000.0);
        return r;
    }

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(mTmp.isValid());
        mPlan = fixture("plan.json");
        mPlanHash = gp::test::hashOf(mPlan);
        QVERIFY2(mServer.start({fixture("recorded.prom"), fixture("derived.prom")}, {kFromS, kToS, 30.0}),
                 qPrintable(mServer.error()));
        qInfo("Prometheus: backfill %.2f s, start until ready %.2f s, at %s", mServer.backfillS(), mServer.startS(),
              qPrintable(mServer.url()));
    }

    void cleanup()
    {
        // Whatever a run did, the plan it read is as it was.
        QCOMPARE(gp::test::hashOf(mPlan), mPlanHash);
    }

    void comparesPlanWithMeasured()
    {
        const gp::test::Run r = run(args({"--json"}));
        QCOMPARE(r.code, 3); // differences beyond the threshold
        const QJsonObject doc = QJsonDocument::fromJson(r.out.toUtf8()).object();
        QVERIFY2(!doc.isEmpty(), qPrintable(r.out + r.err));
        QCOMPARE(doc.value("prometheus").toString(), mServer.url());
        QCOMPARE(doc.value("series").toInt(), 55);
        const QJsonArray jobs = doc.value("jobs").toArray();
        QCOMPARE(jobs.size(), 3);

        // A StatefulSet's pod, named after the job; measured on the GPUs the plan put it on.
        const QJsonObject tf = find(jobs, "job", "tensorflow");
        QCOMPARE(tf.value("matched_by").toString(), QString("owner name"));
        QCOMPARE(tf.value("pods").toArray(), QJsonArray{"redacted/tensorflow-0"});
        const QJsonArray on{"l40s.example.com/0", "l40s.example.com/1"};
        QCOMPARE(tf.value("measured_on").toArray(), on);
        QCOMPARE(tf.value("planned_on").toArray(), on);
        const QJsonObject mem = rowOf(tf, "memory_gib");
        QCOMPARE(mem.value("measured").toObject().value("max").toDouble(), 21.0); // 21504 MiB
        QCOMPARE(mem.value("measured").toObject().value("samples").toInt(), 241); // two hours at 30 s
        QVERIFY(mem.value("predicted").toDouble() > 10.0 && mem.value("predicted").toDouble() < 20.0);
        QVERIFY(mem.value("flagged").toBool());
        QVERIFY2(mem.value("parameter").toString().contains("runtime_overhead_gib"),
                 qPrintable(mem.value("parameter").toString()));
        // Idle as recorded: the step model's busy engine is flagged, with what would explain it.
        const QJsonObject sm = rowOf(tf, "sm_activity");
        QCOMPARE(sm.value("measured").toObject().value("mean").toDouble(), 0.0);
        QVERIFY(sm.value("flagged").toBool());
        QVERIFY(rowOf(tf, "tensor_activity").value("parameter").toString().contains("efficiency.gemm"));

        // KServe's Deployment pods: the job's name prefixes the pod's; MIG instances' own series.
        const QJsonObject emb = find(jobs, "job", "text-embedding-predictor");
        QCOMPARE(emb.value("matched_by").toString(), QString("name prefix"));
        QCOMPARE(emb.value("measured_on").toArray(), QJsonArray{"gsrh100-074/0/7"});
        QVERIFY(!rowOf(emb, "memory_gib").value("flagged").toBool()); // 8.59 GiB against 7.7: within 25 %
        QVERIFY(!emb.value("gpu_wide_values").toBool());

        // GPUs: a MIG GPU's instances added up; power against the TDP the cost model charges.
        const QJsonArray gpus = doc.value("gpus").toArray();
        QJsonObject h100;
        for (const auto& g : gpus)
            if (g.toObject().value("host").toString() == "gsrh100-074")
                h100 = g.toObject();
        QVERIFY(h100.value("mig").toBool());
        QCOMPARE(h100.value("node").toString(), QString("gsrh100-074"));
        QCOMPARE(rowOf(h100, "gpu_memory_gib").value("measured").toObject().value("max").toDouble(),
                 (8800.0 + 8192.0) / 1024.0);
        const QJsonObject power = rowOf(h100, "power_w");
        QCOMPARE(power.value("predicted").toDouble(), 700.0);
        QCOMPARE(power.value("measured").toObject().value("mean").toDouble(), 70.0);
        QVERIFY(power.value("parameter").toString().contains("tdp_w"));
        // TDP at any load: an upper bound, and the row says so; 70 W measured is below it.
        QCOMPARE(power.value("label").toString(), QString("power (TDP, an upper bound)"));
        QVERIFY2(power.value("parameter").toString().contains("an upper bound at any load"),
                 qPrintable(power.value("parameter").toString()));
        QVERIFY(rowOf(h100, "gpu_link_gbytes_s").isEmpty()); // the exporter gave no NVLink or PCIe bytes there
        // Link load where it gives PCIe bytes: the training job's traffic against what the GPU sent.
        QJsonObject l40s;
        for (const auto& g : gpus)
            if (g.toObject().value("host").toString() == "l40s.example.com" && g.toObject().value("gpu") == "0")
                l40s = g.toObject();
        const QJsonObject link = rowOf(l40s, "gpu_link_gbytes_s");
        QVERIFY(link.value("predicted").toDouble() > 0.0);
        QCOMPARE(link.value("measured").toObject().value("mean").toDouble(), 0.0);
        QCOMPARE(link.value("label").toString(), QString("link load (NVLink + PCIe sent)"));
        QVERIFY(!link.value("flagged").toBool()); // under the 1 GB/s noise floor
        QVERIFY(rowOf(l40s, "power_w").value("note").toString().contains("TDP whatever its load, an upper bound"));

        // What could not be matched is named, not dropped.
        const QJsonObject un = doc.value("unmatched").toObject();
        const QJsonArray pods = un.value("pods_without_job").toArray();
        QCOMPARE(pods.size(), 1);
        QVERIFY(pods.at(0).toString().startsWith("default/triton-server-f7cb5d77-95xcf: namespace 'default'"));
        QCOMPARE(un.value("hosts_not_in_plan").toArray(),
                 (QJsonArray{"dcgm-exporter-wwwjh", "yg-data-k8s-gpu-a30-node-test-test0003.mt"}));
        QCOMPARE(un.value("series_without_pod").toInt(), 26);
        QCOMPARE(un.value("jobs_not_measured").toArray().size(), 0);
        QVERIFY(doc.value("flagged").toInt() > 0);
    }

    void textReportSaysWhatAndWhy()
    {
        const gp::test::Run r = run(args());
        QCOMPARE(r.code, 3);
        QVERIFY2(
            r.out.contains("redacted/tensorflow (LoRA fine-tune): pods redacted/tensorflow-0 [matched by owner name]"),
            qPrintable(r.out));
        QVERIFY(r.out.contains("beyond the threshold: higher than predicted -> runtime_overhead_gib"));
        QVERIFY(r.out.contains("pod with no job: default/triton-server-f7cb5d77-95xcf"));
        QVERIFY(r.out.contains("host that is no node of the plan: dcgm-exporter-wwwjh"));
        QVERIFY(r.out.contains("series without pod labels: 26 (e.g. DCGM_FI_"));
    }

    void thresholdDecidesWhatIsFlagged()
    {
        const gp::test::Run r = run(args({"--threshold", "1000%", "--json"}));
        QCOMPARE(r.code, 0);
        QCOMPARE(QJsonDocument::fromJson(r.out.toUtf8()).object().value("flagged").toInt(), 0);
    }

    void mappingNamesWhatDiffers()
    {
        const QString map = mTmp.filePath("map.json");
        QFile f(map);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(R"({"tenants": {"default": "model-playground-stg"}, "jobs": {"triton-server": "tts-predictor"}})");
        f.close();
        const gp::test::Run r = run(args({"--mapping", map, "--json"}));
        QCOMPARE(r.code, 3);
        const QJsonObject doc = QJsonDocument::fromJson(r.out.toUtf8()).object();
        const QJsonObject tts = find(doc.value("jobs").toArray(), "job", "tts-predictor");
        QCOMPARE(tts.value("pods").toArray().size(), 2);
        QVERIFY(tts.value("matched_by").toString().contains("mapping"));
        QCOMPARE(doc.value("unmatched").toObject().value("pods_without_job").toArray().size(), 0);

        QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
        f.write(R"({"jobs": {"triton-server": 3}})");
        f.close();
        const gp::test::Run bad = run(args({"--mapping", map}));
        QCOMPARE(bad.code, 2);
        QVERIFY2(bad.err.contains(map + ": jobs.triton-server: must be the id or name of a job"), qPrintable(bad.err));
    }

    void throughputPerJob()
    {
        // Tokens/s per pod as a query gives them: here PromQL constants with a serving job's pod labels
        // (the fixture holds no engine metrics), one that names no job.
        const auto pod = [](int tokens, const char* ns, const char* name) {
            return QString(
                       R"(label_replace(label_replace(vector(%1), "namespace", "%2", "", ""), "pod", "%3", "", ""))")
                .arg(tokens)
                .arg(ns, name);
        };
        const QString query =
            pod(25, "model-playground-stg", "tts-predictor-00011-deployment-5554f75554-8j8pl") + " or " +
            pod(2, "model-playground-stg", "text-embedding-predictor-00008-deployment-57946f6c67-vdtjl") + " or " +
            pod(7, "elsewhere", "nobody-0");
        const gp::test::Run r = run(args({"--throughput-query", query, "--json"}));
        QCOMPARE(r.code, 3);
        const QJsonObject doc = QJsonDocument::fromJson(r.out.toUtf8()).object();
        QCOMPARE(doc.value("throughput_series").toInt(), 3);
        const QJsonArray jobs = doc.value("jobs").toArray();
        const QJsonObject tts = rowOf(find(jobs, "job", "tts-predictor"), "tokens_per_s");
        QCOMPARE(tts.value("measured").toObject().value("mean").toDouble(), 25.0);
        QVERIFY(!tts.value("flagged").toBool()); // the plan's 25.6
        const QJsonObject emb = rowOf(find(jobs, "job", "text-embedding-predictor"), "tokens_per_s");
        QVERIFY(emb.value("flagged").toBool());
        QVERIFY(emb.value("parameter").toString().contains("inference.requests_per_s"));
        const QJsonObject tf = rowOf(find(jobs, "job", "tensorflow"), "tokens_per_s");
        QVERIFY(tf.value("measured").isNull());
        QVERIFY(tf.value("predicted").toDouble() > 0.0);
        QCOMPARE(doc.value("unmatched").toObject().value("throughput_series_without_job").toArray(),
                 QJsonArray{"elsewhere/nobody-0: namespace 'elsewhere' is no tenant of the plan (id or name)"});

        const gp::test::Run bad = run(args({"--throughput-query", "rate("}));
        QCOMPARE(bad.code, 4);
        QVERIFY2(bad.err.contains("Prometheus refused the query: bad_data") && bad.err.contains("(query: rate()"),
                 qPrintable(bad.err));
    }

    void telemetryBecomesMeasurementsToCalibrate()
    {
        // The loop from telemetry: check-plan writes the jobs' measured memory and tokens/s as a
        // measurements file; calibrate fits the plan to it.
        const QString query =
            R"(label_replace(label_replace(vector(25), "namespace", "model-playground-stg", "", ""), "pod", )"
            R"("tts-predictor-00011-deployment-5554f75554-8j8pl", "", ""))";
        const QString file = mTmp.filePath("telemetry-measurements.json");
        gp::test::Run r = run(args({"--throughput-query", query, "--write-measurements", file}));
        QCOMPARE(r.code, 3);
        QVERIFY2(r.err.contains("measurement(s) written to " + file), qPrintable(r.err));
        const QJsonObject doc = QJsonDocument::fromJson(gp::test::readAll(file)).object();
        QCOMPARE(doc.value("format").toString(), QString("gpuplan-measurements"));
        const QJsonArray items = doc.value("measurements").toArray();
        QVERIFY(items.size() >= 2);
        bool memory = false, tokens = false;
        for (const auto& v : items) {
            const QJsonObject m = v.toObject();
            memory |= m.value("quantity").toString() == "memory_gib" && m.value("statistic").toString() == "max";
            tokens |= m.value("quantity").toString() == "output_tokens_per_s" &&
                      m.value("job").toString() == "tts-predictor" && m.value("value").toDouble() == 25.0;
            QVERIFY2(m.value("source").toString().startsWith(mServer.url()), qPrintable(m.value("source").toString()));
        }
        QVERIFY(memory && tokens);
        r = gp::test::cli({"calibrate", mPlan, file, "--params", "runtime_overhead_gib", "--folds", "0", "--json"},
                          mTmp.path());
        QVERIFY2(r.code == 0, qPrintable(r.out + r.err));
        const QJsonObject fit = QJsonDocument::fromJson(r.out.toUtf8()).object();
        QVERIFY(fit.value("mean_abs_error_after").toDouble() <= fit.value("mean_abs_error_before").toDouble());
        // A target that cannot be written: exit 1, nothing else changes.
        r = run(args({"--write-measurements", mTmp.filePath("no-such-folder/m.json")}));
        QCOMPARE(r.code, 1);
    }

    void metricsWithoutPodLabels()
    {
        // The A30 of the recorded output carries no pod labels: the GPUs are compared, no job can be.
        const gp::test::Run r = run(args({"--match", "Hostname=\"yg-data-k8s-gpu-a30-node-test-test0003.mt\""}));
        QCOMPARE(r.code, 6);
        QVERIFY2(r.err.contains("none of the 11 DCGM series from " + mServer.url() +
                                " is attributed to a job of the plan: 11 carry no pod label (e.g. "
                                "DCGM_FI_DEV_FB_FREE{Hostname=\"yg-data-k8s-gpu-a30-node-test-test0003.mt\""),
                 qPrintable(r.err));
        QVERIFY(r.out.contains("job without series: redacted/tensorflow"));
    }

    void noDcgmSeries()
    {
        const gp::test::Run r = run({"check-plan", mPlan, "--prometheus", mServer.url(), "--from",
                                     "2025-08-20T10:00:00Z", "--to", "2025-08-20T12:00:00Z"});
        QCOMPARE(r.code, 5);
        QVERIFY2(r.err.contains(mServer.url() + " has no DCGM series from 2025-08-20T10:00:00"), qPrintable(r.err));
        QVERIFY(r.out.isEmpty());
    }

    void prometheusRefusesTheQuery()
    {
        const gp::test::Run r = run(args({"--match", "Hostname="}));
        QCOMPARE(r.code, 4);
        QVERIFY2(
            r.err.contains(mServer.url() + "/api/v1/query_range: HTTP 400: Prometheus refused the query: bad_data"),
            qPrintable(r.err));
        QVERIFY(r.err.contains("(query: {__name__=~\"DCGM_FI_DEV_FB_USED|"));
        // Two hours at 0.5 s is more than Prometheus's 11,000 points a series.
        const gp::test::Run fine = run(args({"--step", "0.5"}));
        QCOMPARE(fine.code, 4);
        QVERIFY2(fine.err.contains("exceeded maximum resolution") &&
                     fine.err.endsWith("(a larger --step gives fewer points)\n"),
                 qPrintable(fine.err));
    }

    void prometheusUnreachable()
    {
        const QString url = QString("http://127.0.0.1:%1").arg(gp::test::freeLocalPort());
        const gp::test::Run r = run({"check-plan", mPlan, "--prometheus", url, "--from", "now-1h"});
        QCOMPARE(r.code, 4);
        QVERIFY2(r.err.contains(url + "/api/v1/query_range: cannot reach the server"), qPrintable(r.err));
    }

    void prometheusTooSlow()
    {
        // A server that takes the connection and never answers: bounded by --timeout.
        QTcpServer silent;
        QVERIFY(silent.listen(QHostAddress::LocalHost, 0));
        const QString url = QString("http://127.0.0.1:%1").arg(silent.serverPort());
        QElapsedTimer t;
        t.start();
        const gp::test::Run r = run({"check-plan", mPlan, "--prometheus", url, "--from", "now-1h", "--timeout", "1"});
        QCOMPARE(r.code, 4);
        QVERIFY2(r.err.contains(url + "/api/v1/query_range: no answer within 1 s (--timeout)"), qPrintable(r.err));
        QVERIFY2(t.elapsed() < 15000, qPrintable(QString::number(t.elapsed())));
    }

    void usageErrors()
    {
        QCOMPARE(run({"check-plan", mPlan, "--from", "now-1h"}).code, 2); // no --prometheus
        const gp::test::Run order = run(args({"--from", "2025-08-19T13:00:00Z"}));
        QCOMPARE(order.code, 2);
        QVERIFY(order.err.contains("--to must be after --from"));
        const gp::test::Run threshold = run(args({"--threshold", "-1"}));
        QCOMPARE(threshold.code, 2);
        QVERIFY(threshold.err.contains("--threshold '-1': not a positive fraction"));
        const gp::test::Run url = run({"check-plan", mPlan, "--prometheus", "prometheus:9090", "--from", "now-1h"});
        QCOMPARE(url.code, 2);
        QVERIFY(url.err.contains("not an http:// or https:// address"));
        const gp::test::Run help = run({"check-plan", "--help"});
        QCOMPARE(help.code, 0);
        for (const char* status : {"3 differences beyond the threshold", "4 Prometheus unreachable",
                                   "5 no DCGM series in the range", "6 DCGM series, but"})
            QVERIFY2(help.out.contains(status), status);
    }

    void cleanupTestCase()
    {
        mServer.stop();
        QVERIFY(!mServer.running());
    }
};

QTEST_GUILESS_MAIN(TestCheckPlan)
#include "tst_checkplan.moc"
