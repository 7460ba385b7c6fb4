// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
// The measurements file (issue 38, docs/measurements.md): written and read back unchanged; every
// bad field refused with its JSON path, and a refused measurement left out, never defaulted.
#include "io/measurementsio.h"

#include <QTest>

using namespace gp;

class TestMeasurementsIo : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void roundTrip()
    {
        MeasurementSet set;
        set.scenarioId = "s1";
        Measurement a;
        a.jobId = "job-1";
        a.quantity = MeasuredQuantity::TtftMs;
        a.statistic = MeasuredStatistic::P99;
        a.value = 182.5;
        a.weight = 4.0;
        a.tool = "vllm bench serve 0.8.5";
        a.source = "bench.json";
        a.when = "2026-11-30T10:00:00Z";
        a.config = {{"model", "meta-llama/Llama-3.1-8B-Instruct"}, {"tp", "1"}};
        Measurement b;
        b.jobId = "job-2";
        b.value = 1.25;
        set.items = {a, b};
        Issues issues;
        const MeasurementSet back = io::readMeasurements(io::measurementsToJson(set), issues);
        QVERIFY2(issues.empty(), issues.empty() ? "" : issues.front().toString().c_str());
        QCOMPARE(back.scenarioId, set.scenarioId);
        QCOMPARE(back.items.size(), std::size_t(2));
        QCOMPARE(back.items[0].jobId, a.jobId);
        QCOMPARE(back.items[0].quantity, a.quantity);
        QCOMPARE(back.items[0].statistic, a.statistic);
        QCOMPARE(back.items[0].value, a.value);
        QCOMPARE(back.items[0].weight, a.weight);
        QCOMPARE(back.items[0].tool, a.tool);
        QCOMPARE(back.items[0].source, a.source);
        QCOMPARE(back.items[0].when, a.when);
        QCOMPARE(back.items[0].config, a.config);
        QCOMPARE(back.items[1].quantity, MeasuredQuantity::StepTimeS);
        QCOMPARE(back.items[1].weight, 1.0);
    }

    void everyQuantityHasANameAndUnit()
    {
        for (int i = 0; i <= static_cast<int>(MeasuredQuantity::PowerW); ++i) {
            const auto q = static_cast<MeasuredQuantity>(i);
            QVERIFY(quantityName(q) != "?");
            QVERIFY(quantityUnit(q) != "?");
            QCOMPARE(quantityFromName(quantityName(q)), std::optional(q));
        }
    }

    void badFieldsAreNamed_data()
    {
        QTest::addColumn<QByteArray>("json");
        QTest::addColumn<QString>("where");
        const QByteArray head = R"({"format": "gpuplan-measurements", "format_version": 1, "measurements": [)";
        QTest::newRow("unknown quantity") << head + R"({"job": "j", "quantity": "speed", "value": 1}]})"
                                          << "measurements[0].quantity";
        QTest::newRow("negative value") << head + R"({"job": "j", "quantity": "ttft_ms", "value": -1}]})"
                                        << "measurements[0].value";
        QTest::newRow("zero weight") << head + R"({"job": "j", "quantity": "ttft_ms", "value": 1, "weight": 0}]})"
                                     << "measurements[0].weight";
        QTest::newRow("wrong unit") << head + R"({"job": "j", "quantity": "ttft_ms", "value": 1, "unit": "s"}]})"
                                    << "measurements[0].unit";
        QTest::newRow("bad statistic") << head +
                                              R"({"job": "j", "quantity": "ttft_ms", "value": 1, "statistic": "p42"}]})"
                                       << "measurements[0].statistic";
        QTest::newRow("no job") << head + R"({"quantity": "ttft_ms", "value": 1}]})"
                                << "measurements[0].job";
        QTest::newRow("typo key") << head + R"({"job": "j", "quantity": "ttft_ms", "value": 1, "vlaue": 2}]})"
                                  << "measurements[0].vlaue";
        QTest::newRow("object config")
            << head + R"({"job": "j", "quantity": "ttft_ms", "value": 1, "config": {"tp": {}}}]})"
            << "measurements[0].config.tp";
        QTest::newRow("other format") << QByteArray(R"({"format": "x", "format_version": 1, "measurements": []})")
                                      << "format";
        QTest::newRow("future version")
            << QByteArray(R"({"format": "gpuplan-measurements", "format_version": 2, "measurements": []})")
            << "format_version";
    }

    void badFieldsAreNamed()
    {
        QFETCH(QByteArray, json);
        QFETCH(QString, where);
        Issues issues;
        const MeasurementSet set = io::readMeasurements(json, issues);
        QVERIFY(set.items.empty());
        QVERIFY(!issues.empty());
        bool named = false;
        for (const Issue& i : issues)
            named = named || QString::fromStdString(i.path) == where;
        QVERIFY2(named, issues.front().toString().c_str());
    }
};

QTEST_GUILESS_MAIN(TestMeasurementsIo)
#include "tst_measurementsio.moc"
