// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
// The telemetry layer without a server (issue 38): Prometheus's range answers read or refused with
// the reason, dcgm-exporter's labels (old and new names) read, pods named after their owners as
// the Kubernetes controllers name them, summaries by nearest rank, and a GPU's figures from its
// series as the exporter copies them to pods (per-process series, shared GPUs, MIG instances).
#include "telemetry/dcgmtelemetry.h"
#include "telemetry/podowner.h"

#include <QTest>

using namespace gp::telemetry;

namespace {

Series series(std::map<std::string, std::string> labels, std::vector<double> values, double t0 = 1000.0)
{
    Series s{std::move(labels), {}};
    for (std::size_t i = 0; i < values.size(); ++i)
        s.samples.push_back({t0 + 30.0 * static_cast<double>(i), values[i]});
    return s;
}

std::map<std::string, std::string> gpuLabels(const char* field, const char* gpu, std::string pod = {})
{
    std::map<std::string, std::string> l{{"__name__", field},
                                         {"gpu", gpu},
                                         {"UUID", std::string("GPU-") + gpu},
                                         {"Hostname", "node-a"},
                                         {"modelName", "NVIDIA L40S"}};
    if (!pod.empty()) {
        l["pod"] = pod;
        l["namespace"] = "team";
        l["container"] = "main";
    }
    return l;
}

const GpuTelemetry* gpu(const std::vector<GpuTelemetry>& gpus, const std::string& key)
{
    for (const GpuTelemetry& g : gpus)
        if (g.gpu.deviceKey() == key)
            return &g;
    return nullptr;
}

} // namespace

class TestTelemetry : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void podOwners_data()
    {
        QTest::addColumn<QString>("pod");
        QTest::addColumn<QString>("owner");
        QTest::newRow("deployment") << "ollama-76f687f4cd-xcvvp"
                                    << "ollama";
        QTest::newRow("kserve deployment") << "tts-predictor-00011-deployment-5554f75554-8j8pl"
                                           << "tts-predictor-00011-deployment";
        QTest::newRow("deployment, 8-char hash") << "triton-server-f7cb5d77-95xcf"
                                                 << "triton-server";
        QTest::newRow("statefulset") << "tensorflow-0"
                                     << "tensorflow";
        QTest::newRow("job") << "train-llama-x7k2p"
                             << "train-llama";
        QTest::newRow("indexed job") << "train-3-x7k2p"
                                     << "train";
        QTest::newRow("leaderworkerset") << "vllm-0-1"
                                         << "vllm";
        QTest::newRow("a word, not a suffix") << "rag-chat"
                                              << "rag-chat";
        QTest::newRow("model size kept") << "llama-70b"
                                         << "llama-70b";
        QTest::newRow("bare pod") << "notebook"
                                  << "notebook";
    }
    void podOwners()
    {
        QFETCH(QString, pod);
        QFETCH(QString, owner);
        QCOMPARE(QString::fromStdString(podOwnerName(pod.toStdString())), owner);
    }

    void nearestRankSummaries()
    {
        std::vector<double> v;
        for (int i = 100; i >= 1; --i)
            v.push_back(i);
        const Stats s = summarize(v);
        QCOMPARE(s.samples, 100);
        QCOMPARE(s.mean, 50.5);
        QCOMPARE(s.p50, 50.0);
        QCOMPARE(s.p95, 95.0);
        QCOMPARE(s.max, 100.0);
        QCOMPARE(summarize({}).samples, 0);
        QCOMPARE(summarize({7.0}).p95, 7.0);
    }

    void readsRangeAnswers()
    {
        const QByteArray ok = R"({"status":"success","data":{"resultType":"matrix","result":[
            {"metric":{"__name__":"DCGM_FI_DEV_FB_USED","gpu":"0"},"values":[[1000,"2048"],[1030,"NaN"],[1060,"4096"]]}]}})";
        const RangeAnswer a = parseRangeAnswer(ok, "http://p/api/v1/query_range", "q");
        QVERIFY(a.ok());
        QCOMPARE(a.series.size(), std::size_t(1));
        QCOMPARE(a.series[0].samples.size(), std::size_t(2)); // NaN left out
        QCOMPARE(a.series[0].labels.at("gpu"), std::string("0"));

        const RangeAnswer refused = parseRangeAnswer(
            R"({"status":"error","errorType":"bad_data","error":"parse error"})", "http://p/api/v1/query_range", "q{");
        QVERIFY(!refused.ok());
        QCOMPARE(refused.error->kind, FetchFailure::QueryError);
        QCOMPARE(
            refused.error->text(),
            QString("http://p/api/v1/query_range: Prometheus refused the query: bad_data: parse error (query: q{)"));

        const RangeAnswer html = parseRangeAnswer("<html>login</html>", "http://p/api/v1/query_range", "q");
        QCOMPARE(html.error->kind, FetchFailure::BadAnswer);
        QVERIFY(html.error->message.contains("is this a Prometheus server?"));
        const RangeAnswer vector =
            parseRangeAnswer(R"({"status":"success","data":{"resultType":"vector","result":[]}})", "u", "q");
        QCOMPARE(vector.error->kind, FetchFailure::BadAnswer);
    }

    void badAddressIsRefusedBeforeAsking()
    {
        const RangeAnswer a = PrometheusClient(QUrl("ftp://host"), 1000).queryRange({"up", 0, 60, 30});
        QCOMPARE(a.error->kind, FetchFailure::BadUrl);
    }

    void readsExporterLabelsOldAndNew()
    {
        auto newer = gpuLabels("DCGM_FI_DEV_GPU_UTIL", "1");
        newer.erase("Hostname");
        newer["hostname"] = "node-b"; // dcgm-exporter since "Rename Hostname label to hostname (#655)"
        std::map<std::string, std::string> old{{"__name__", "DCGM_FI_DEV_FB_USED"},
                                               {"gpu", "0"},
                                               {"Hostname", "node-a"},
                                               {"pod_name", "p-0"},
                                               {"pod_namespace", "ns"},
                                               {"container_name", "c"}};
        const auto d =
            dcgmSeriesOf({series(newer, {50.0}), series(old, {1024.0}), series({{"__name__", "up"}}, {1.0})});
        QCOMPARE(d.size(), std::size_t(2)); // not DCGM: left out
        const DcgmSeries& fb = d[0].field->name == std::string("DCGM_FI_DEV_FB_USED") ? d[0] : d[1];
        const DcgmSeries& util = &fb == &d[0] ? d[1] : d[0];
        QCOMPARE(fb.samples[0].value, 1.0); // MiB -> GiB
        QCOMPARE(fb.pod.key(), std::string("ns/p-0"));
        QCOMPARE(util.gpu.host, std::string("node-b"));
        QCOMPARE(util.samples[0].value, 0.5); // percent -> fraction
        QCOMPARE(QString::fromStdString(fb.text()),
                 QString("DCGM_FI_DEV_FB_USED{Hostname=\"node-a\",gpu=\"0\",namespace=\"ns\",pod=\"p-0\"}"));
    }

    void sharedGpusAndPerProcessSeries()
    {
        DcgmTelemetry t;
        t.series = dcgmSeriesOf({
            // GPU 0, per-process mode: the GPU's own series and one per pod with the pod's memory.
            series(gpuLabels("DCGM_FI_DEV_FB_USED", "0"), {30720.0}),
            series(gpuLabels("DCGM_FI_DEV_FB_USED", "0", "a-0"), {10240.0}),
            series(gpuLabels("DCGM_FI_DEV_FB_USED", "0", "b-0"), {20480.0}),
            // GPU 0's activity copied to both pods: the GPU's value, twice.
            series(gpuLabels("DCGM_FI_PROF_GR_ENGINE_ACTIVE", "0", "a-0"), {0.8, 0.6}),
            series(gpuLabels("DCGM_FI_PROF_GR_ENGINE_ACTIVE", "0", "b-0"), {0.8, 0.6}),
            // GPU 1, one pod alone; an XID error on it.
            series(gpuLabels("DCGM_FI_PROF_GR_ENGINE_ACTIVE", "1", "c-0"), {0.9}),
            series(gpuLabels("DCGM_FI_DEV_XID_ERRORS", "1"), {0.0, 79.0, 79.0}),
        });
        const auto owns = [&](const char* field, const char* pod) {
            for (const DcgmSeries& s : t.series)
                if (s.field->name == std::string(field) && s.pod.pod == pod)
                    return podOwnValue(t, s);
            return false;
        };
        QVERIFY(owns("DCGM_FI_DEV_FB_USED", "a-0"));            // per-process: the pod's own
        QVERIFY(!owns("DCGM_FI_PROF_GR_ENGINE_ACTIVE", "a-0")); // a copy of the shared GPU's
        QVERIFY(owns("DCGM_FI_PROF_GR_ENGINE_ACTIVE", "c-0"));  // the pod's GPU alone

        const auto gpus = gpusOf(t);
        const GpuTelemetry* g0 = gpu(gpus, "node-a/0");
        QVERIFY(g0);
        QCOMPARE(g0->measured.at("memory_used_gib").max, 30.0); // the GPU's series, not the pods' sum
        QCOMPARE(g0->measured.at("sm_activity").mean, 0.7);     // one copy, not both
        QCOMPARE(g0->pods, (std::vector<std::string>{"team/a-0", "team/b-0"}));
        QCOMPARE(gpu(gpus, "node-a/1")->xids, std::vector<int>{79});
    }

    void migInstancesMakeTheirGpu()
    {
        auto inst = [](const char* field, const char* gi, const char* profile) {
            auto l = gpuLabels(field, "0");
            l["GPU_I_ID"] = gi;
            l["GPU_I_PROFILE"] = profile;
            return l;
        };
        DcgmTelemetry t;
        t.series = dcgmSeriesOf({
            series(inst("DCGM_FI_PROF_GR_ENGINE_ACTIVE", "1", "3g.40gb"), {0.5}),
            series(inst("DCGM_FI_PROF_GR_ENGINE_ACTIVE", "2", "1g.10gb"), {1.0}),
            series(inst("DCGM_FI_DEV_FB_USED", "1", "3g.40gb"), {20480.0}),
            series(inst("DCGM_FI_DEV_FB_USED", "2", "1g.10gb"), {5120.0}),
            series(inst("DCGM_FI_DEV_POWER_USAGE", "1", "3g.40gb"), {300.0}),
            series(inst("DCGM_FI_DEV_POWER_USAGE", "2", "1g.10gb"), {300.0}),
        });
        const auto gpus = gpusOf(t);
        QCOMPARE(gpus.size(), std::size_t(1));
        QVERIFY(gpus[0].mig);
        QCOMPARE(gpus[0].measured.at("sm_activity").mean, 0.5 * 3 / 7 + 1.0 / 7); // by compute slices
        QCOMPARE(gpus[0].measured.at("memory_used_gib").max, 25.0);               // instances add up
        QCOMPARE(gpus[0].measured.at("power_w").mean, 300.0);                     // the GPU's, once
    }

    void oneQueryForEveryField()
    {
        const QString q = dcgmQuery("cluster=\"prod\"");
        for (const DcgmField& f : dcgmFields())
            QVERIFY2(q.contains(f.name), f.name);
        QVERIFY(q.startsWith("{__name__=~\"DCGM_FI_DEV_FB_USED|"));
        QVERIFY(q.endsWith(",cluster=\"prod\"}"));
    }
};

QTEST_GUILESS_MAIN(TestTelemetry)
#include "tst_telemetry.moc"
