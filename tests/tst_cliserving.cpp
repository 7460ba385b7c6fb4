// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
// A serving job's figures as gpuplan-cli evaluate reports them: a saturated service has no TTFT
// and meets no objective; one without objectives has no SLO attainment (issue 36), never 100 %.
#include "clirunner.h"
#include "testsupport.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

using namespace gp::test;

class TestCliServing : public QObject
{
    Q_OBJECT

    QTemporaryDir mHome;

private Q_SLOTS:
    void saturatedServingJobHasNoTtft()
    {
        // chat-70b at 100 requests/s is far past what its four GPUs serve: the queue grows.
        QTemporaryDir tmp;
        const QString file = tmp.filePath("busy.json");
        QVERIFY(writeEditedSample(file, "\"requests_per_s\": 1.5", "\"requests_per_s\": 100"));
        const Run r = cli({"evaluate", file, "--json"}, mHome.path());
        QCOMPARE(r.code, 0);
        for (const auto& v : QJsonDocument::fromJson(r.out.toUtf8()).object().value("jobs").toArray()) {
            const QJsonObject j = v.toObject();
            if (j.value("id").toString() != "chat-70b")
                continue;
            const QJsonObject sv = j.value("serving").toObject();
            QCOMPARE(sv.value("saturated").toBool(), true);
            QVERIFY(sv.value("ttft_s").isNull() && sv.value("ttft_p99_s").isNull() && sv.value("queued").isNull());
            QCOMPARE(sv.value("slo_attainment").toDouble(), 0.0);
            QCOMPARE(j.value("meets_sla").toBool(), false);
            QVERIFY(sv.value("output_tokens_per_s").toDouble() > 0);
            return;
        }
        QFAIL("chat-70b not in the output");
    }

    /// Issue 36: a service whose tenant sets no objective and that keeps up has no SLO
    /// attainment (null in the JSON, "n/a (no objective)" in the text), never 100 %; with no
    /// serving job judged the plan's is null too.
    void servingWithoutObjectivesIsNotJudged()
    {
        QTemporaryDir tmp;
        const QString file = tmp.filePath("noslo.json");
        QVERIFY(writeEditedSample(file,
                                  "\"itl_p99_ms\": 100,\n                \"max_penalty_pct\": 5,\n                "
                                  "\"ttft_p99_ms\": 2000",
                                  "\"max_penalty_pct\": 5"));
        const Run r = cli({"evaluate", file, "--json"}, mHome.path());
        QCOMPARE(r.code, 0);
        const QJsonObject out = QJsonDocument::fromJson(r.out.toUtf8()).object();
        const QJsonObject k = out.value("kpis").toObject();
        QVERIFY(k.value("serving_jobs").toInt() > 0);
        QCOMPARE(k.value("serving_jobs_judged").toInt(), 0);
        QVERIFY2(k.value("serving_slo_attainment").isNull(), qPrintable(r.out.left(400)));
        int serving = 0;
        for (const auto& v : out.value("jobs").toArray()) {
            const QJsonObject sv = v.toObject().value("serving").toObject();
            if (sv.isEmpty())
                continue;
            ++serving;
            QCOMPARE(sv.value("saturated").toBool(), false);
            QVERIFY(sv.value("slo_attainment").isNull());
        }
        QVERIFY(serving > 0);
        const Run text = cli({"evaluate", file}, mHome.path());
        QVERIFY2(text.out.contains("serving SLO attainment n/a (no objective)"), qPrintable(text.out));
        QVERIFY(!text.out.contains("SLO attainment 100"));

        // Saturated as well: it meets no objective, set or not (it used to read 100 %).
        QByteArray json = readAll(file);
        QVERIFY(json.contains("\"requests_per_s\": 1.5"));
        json.replace("\"requests_per_s\": 1.5", "\"requests_per_s\": 100");
        QFile busyFile(file);
        QVERIFY(busyFile.open(QIODevice::WriteOnly | QIODevice::Truncate) && busyFile.write(json) == json.size());
        busyFile.close();
        const Run busy = cli({"evaluate", file, "--json"}, mHome.path());
        const QJsonObject bk = QJsonDocument::fromJson(busy.out.toUtf8()).object().value("kpis").toObject();
        QCOMPARE(bk.value("serving_jobs_judged").toInt(), 1);
        QCOMPARE(bk.value("serving_slo_attainment").toDouble(), 0.0);
    }
};

QTEST_GUILESS_MAIN(TestCliServing)
#include "tst_cliserving.moc"
