// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
// Issue 37 at the command line: evaluate names a job's context parallelism, its ring's link and
// uneven stages (text and --json, the step's cp_exposed part included), and memory takes --cp
// and --stage-layers with a scenario's rules.
#include "clirunner.h"
#include "testsupport.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

using namespace gp::test;

class TestCliContext : public QObject
{
    Q_OBJECT

    QTemporaryDir mHome;

    static QString run405b() { return fixturesDir() + "/validation/cp/bridge-llama31-405b-cp2-stages.json"; }

private Q_SLOTS:
    void evaluateShowsContextParallelismAndStages()
    {
        const Run json = cli({"evaluate", run405b(), "--json"}, mHome.path());
        QCOMPARE(json.code, 0);
        const QJsonObject j = QJsonDocument::fromJson(json.out.toUtf8()).object().value("jobs").toArray()[0].toObject();
        QCOMPARE(j.value("cp").toInt(), 2);
        QCOMPARE(j.value("cp_link").toString(), QString("network")); // TP 8 x CP 2 spans two DGX nodes
        QCOMPARE(j.value("stage_layers").toArray(), (QJsonArray{15, 16, 16, 16, 16, 16, 16, 15}));
        const QJsonObject parts = j.value("step_breakdown_s").toObject();
        QVERIFY(parts.contains("cp_exposed"));
        double sum = 0.0;
        for (const QString& k : parts.keys())
            sum += parts.value(k).toDouble();
        QVERIFY(qAbs(sum - j.value("step_time_s").toDouble()) <= 1e-9 * sum);

        const Run text = cli({"evaluate", run405b()}, mHome.path());
        QCOMPARE(text.code, 0);
        QVERIFY2(text.out.contains("context-parallel 2 over network (") &&
                     text.out.contains("layers per pipeline stage 15,16,16,16,16,16,16,15"),
                 qPrintable(text.out));

        // A job without CP and with even stages says nothing more than before.
        const Run plain = cli({"evaluate", dataDir() + "/samples/01-dgx-h100-three-tenants.json"}, mHome.path());
        QCOMPARE(plain.code, 0);
        QVERIFY(!plain.out.contains("context-parallel") && !plain.out.contains("layers per pipeline stage"));
    }

    void memoryTakesCpAndStageLayers()
    {
        const QStringList base = {
            "memory", "--model",     "llama3.1-405b", "--seq",           "8192", "--tp",  "8", "--pp",
            "16",     "--recompute", "full",          "--micro-batches", "64",   "--json"};
        const Run even = cli(base + QStringList{"--stage-layers", "7,8,8,8,8,8,8,8,8,8,8,8,8,8,8,7"}, mHome.path());
        QCOMPARE(even.code, 0);
        const QJsonObject one = QJsonDocument::fromJson(even.out.toUtf8()).object();
        QCOMPARE(one.value("pipeline_stage").toInt(), 1);
        QCOMPARE(one.value("pipeline_stage_layers").toInt(), 8);
        QCOMPARE(one.value("cp").toInt(), 1);
        const Run cp =
            cli(base + QStringList{"--stage-layers", "7,8,8,8,8,8,8,8,8,8,8,8,8,8,8,7", "--cp", "2"}, mHome.path());
        QCOMPARE(cp.code, 0);
        const QJsonObject two = QJsonDocument::fromJson(cp.out.toUtf8()).object();
        QCOMPARE(two.value("cp").toInt(), 2);
        // Half the tokens per rank: half the activations per layer.
        QVERIFY(qAbs(two.value("activations_bytes_per_layer").toDouble() * 2 -
                     one.value("activations_bytes_per_layer").toDouble()) <= 1.0);

        // 126 layers on pp 16 need stage layers; wrong ones are refused with the scenario's words.
        const Run none = cli(base, mHome.path());
        QCOMPARE(none.code, 2);
        QVERIFY2(none.err.contains("pp: 16 does not divide layers (126)"), qPrintable(none.err));
        const Run bad = cli(base + QStringList{"--stage-layers", "8,8"}, mHome.path());
        QCOMPARE(bad.code, 2);
        QVERIFY2(bad.err.contains("stage_layers: 2 stages listed; pp is 16") &&
                     bad.err.contains("2 stages sum to 16 layers, the model has 126"),
                 qPrintable(bad.err));
        const Run word = cli(base + QStringList{"--stage-layers", "8,x"}, mHome.path());
        QCOMPARE(word.code, 2);
        const Run odd =
            cli(base + QStringList{"--stage-layers", "7,8,8,8,8,8,8,8,8,8,8,8,8,8,8,7", "--cp", "3"}, mHome.path());
        QCOMPARE(odd.code, 2);
        QVERIFY2(odd.err.contains("cp: 3 needs the sequence (8192 tokens) divisible by 2 x cp = 6"),
                 qPrintable(odd.err));
    }
};

QTEST_GUILESS_MAIN(TestCliContext)
#include "tst_clicontext.moc"
