// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
// gpuplan-cli optimize job, size and plan as a user runs them: the JSON contracts (docs/cli.md),
// the files written, and every refusal with its exit status and reason.
#include "clirunner.h"
#include "testsupport.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

using namespace gp::test;

class TestCliOptimize : public QObject
{
    Q_OBJECT

    QTemporaryDir mHome;

private Q_SLOTS:
    /// optimize job: the JSON contract (docs/cli.md), a model too big for the GPUs (exit 1 with
    /// the shortfall), and bad input (exit 2).
    void optimizeJob()
    {
        Run r = cli({"optimize", "job", "--model", "llama3-8b", "--node", "dgx-h100", "--gpus-range", "8-16",
                     "--global-batch", "64", "--top", "3", "--json"},
                    mHome.path());
        QCOMPARE(r.code, 0);
        const QJsonObject o = QJsonDocument::fromJson(r.out.toUtf8()).object();
        for (const char* key : {"configurations", "feasible", "elapsed_ms", "configurations_per_s"})
            QVERIFY2(o.value(key).toDouble() > 0, key);
        QVERIFY(o.value("feasible").toDouble() <= o.value("configurations").toDouble());
        QCOMPARE(o.value("top").toArray().size(), 3);
        const QJsonObject best = o.value("best").toObject();
        QCOMPARE(best, o.value("top").toArray().first().toObject());
        QCOMPARE(best.value("tp").toInt() * best.value("pp").toInt() * best.value("dp").toInt(),
                 best.value("gpus").toInt());
        QVERIFY(best.value("memory_bytes_per_gpu").toDouble() <= 80.0 * 1024 * 1024 * 1024);
        QVERIFY(o.value("pareto_gpus").toArray().size() >= 2); // 8 GPUs are slower than 16
        r = cli({"optimize", "job", "--model", "llama3-405b", "--node", "dgx-h100", "--gpus", "8"}, mHome.path());
        QCOMPARE(r.code, 1);
        QVERIFY2(r.err.contains("no configuration fits") && r.err.contains("GiB short"), qPrintable(r.err));
        QCOMPARE(cli({"optimize", "job", "--model", "llama3-8b", "--node", "nope", "--gpus", "8"}, mHome.path()).code,
                 2);
        QCOMPARE(
            cli({"optimize", "job", "--model", "llama3-8b", "--gpu", "h100", "--gpus-range", "9-3"}, mHome.path()).code,
            2);
        QCOMPARE(cli({"optimize", "plan"}, mHome.path()).code, 2); // no FILE
        // --mode infer: the serving search's JSON, and an objective nothing meets.
        r = cli({"optimize", "job", "--mode", "infer", "--model", "llama3-8b", "--node", "dgx-h100", "--gpus-range",
                 "1-2", "--rate", "2", "--ttft-ms", "2000", "--itl-ms", "100", "--json"},
                mHome.path());
        QCOMPARE(r.code, 0);
        const QJsonObject serving = QJsonDocument::fromJson(r.out.toUtf8()).object();
        for (const char* key : {"configurations", "feasible", "elapsed_ms", "configurations_per_s"})
            QVERIFY2(serving.value(key).toDouble() > 0, key);
        const QJsonObject deployment = serving.value("best").toObject();
        QCOMPARE(deployment.value("gpus").toInt(), 1);
        QCOMPARE(deployment.value("tp").toInt() * deployment.value("replicas").toInt(), 1);
        QVERIFY(deployment.value("ttft_p99_ms").toDouble() <= 2000.0);
        QVERIFY(deployment.value("itl_p99_ms").toDouble() <= 100.0);
        r = cli({"optimize", "job", "--mode", "infer", "--model", "llama3-8b", "--node", "dgx-h100", "--gpus", "1",
                 "--ttft-ms", "0.5"},
                mHome.path());
        QCOMPARE(r.code, 1);
        QVERIFY2(r.err.contains("no deployment meets both objectives"), qPrintable(r.err));
        QCOMPARE(cli({"optimize", "job", "--mode", "infer", "--model", "llama3-8b", "--node", "dgx-h100", "--gpus", "1",
                      "--rate", "-1"},
                     mHome.path())
                     .code,
                 2);
        // --scenario: the GPUs of the scenario's first GPU node, the scenario's assumptions.
        const QString sample = QDir(gp::test::dataDir()).absoluteFilePath("samples/03-fabric-64-node-infiniband.json");
        r = cli({"optimize", "job", "--model", "llama3-8b", "--scenario", sample, "--gpus", "16", "--global-batch",
                 "64", "--json"},
                mHome.path());
        QCOMPARE(r.code, 0);
        const QJsonObject fromScenario = QJsonDocument::fromJson(r.out.toUtf8()).object();
        QCOMPARE(fromScenario.value("node").toString(), QString("node-001"));
        QCOMPARE(fromScenario.value("gpu").toString(), QString("h100-80gb"));
        QCOMPARE(
            cli({"optimize", "job", "--model", "llama3-8b", "--scenario", sample, "--node", "dgx-h100", "--gpus", "8"},
                mHome.path())
                .code,
            2);
        QCOMPARE(
            cli({"optimize", "job", "--model", "llama3-8b", "--scenario", sample, "--gpu", "mi300x", "--gpus", "8"},
                mHome.path())
                .code,
            2);
    }

    /// optimize size: the sized scenario written and valid, the JSON contract with growth, and
    /// refusals (exit 1 for a constraint that binds, 2 for usage).
    void optimizeSize()
    {
        const QString sample = QDir(gp::test::dataDir()).absoluteFilePath("samples/01-dgx-h100-three-tenants.json");
        const QString sized = mHome.filePath("sized.json");
        Run r = cli({"optimize", "size", sample, "--template", "dgx-h100", "--growth", "acme=40", "--months", "3", "-o",
                     sized, "--json"},
                    mHome.path());
        QCOMPARE(r.code, 0);
        const QJsonObject o = QJsonDocument::fromJson(r.out.toUtf8()).object();
        QVERIFY(o.value("nodes").toInt() > 0);
        QVERIFY(o.value("cost_per_month_usd").toDouble() > 0);
        const QJsonArray months = o.value("months").toArray();
        QCOMPARE(months.size(), 4);
        QCOMPARE(months.first().toObject().value("nodes").toInt(), o.value("nodes").toInt());
        QVERIFY(months.last().toObject().value("jobs").toInt() > months.first().toObject().value("jobs").toInt());
        QVERIFY(o.contains("current_runs_out_month"));
        r = cli({"validate", sized}, mHome.path());
        QCOMPARE(r.code, 0);
        r = cli({"evaluate", sized, "--json"}, mHome.path());
        const QJsonObject kpis =
            QJsonDocument::fromJson(r.out.toUtf8()).array().first().toObject().value("kpis").toObject();
        QCOMPARE(kpis.value("unplaced_jobs").toInt(), 0);
        QCOMPARE(kpis.value("sla_violations").toInt(), 0);
        // Without growth, no months.
        r = cli({"optimize", "size", sample, "--template", "dgx-h100", "-o", sized, "--json"}, mHome.path());
        QCOMPARE(r.code, 0);
        QVERIFY(!QJsonDocument::fromJson(r.out.toUtf8()).object().contains("months"));
        // Two templates whose mix is cheaper than either: the mix, by template.
        const QString lab = QDir(gp::test::dataDir()).absoluteFilePath("samples/02-mixed-sharing-lab.json");
        r = cli({"optimize", "size", lab, "--template", "dgx-h100,pcie-l40s-8", "-o", sized, "--json"}, mHome.path());
        QCOMPARE(r.code, 0);
        const QJsonObject mixed = QJsonDocument::fromJson(r.out.toUtf8()).object();
        QCOMPARE(mixed.value("node_template").toString(), QString("dgx-h100+pcie-l40s-8"));
        const QJsonArray mix = mixed.value("mix").toArray();
        QCOMPARE(mix.size(), 2);
        QCOMPARE(mix[0].toObject().value("nodes").toInt() + mix[1].toObject().value("nodes").toInt(),
                 mixed.value("nodes").toInt());
        r = cli({"optimize", "size", sample, "--template", "dgx-a100-640gb", "-o", sized}, mHome.path());
        QCOMPARE(r.code, 1);
        QVERIFY2(r.err.contains("past its tenant's deadline"), qPrintable(r.err));
        QCOMPARE(cli({"optimize", "size", sample, "--template", ",", "-o", sized}, mHome.path()).code, 1);
        // A negative growth is a usage error (exit 2): 0 to 1,000 % a month.
        QCOMPARE(cli({"optimize", "size", sample, "--template", "dgx-h100", "--growth", "acme=-3", "--months", "2",
                      "-o", sized},
                     mHome.path())
                     .code,
                 2);
        QCOMPARE(cli({"optimize", "size", sample, "--template", "dgx-h100"}, mHome.path()).code, 2); // no -o
        QCOMPARE(cli({"optimize", "size", sample, "--template", "dgx-h100", "--growth", "acme", "--months", "2", "-o",
                      sized},
                     mHome.path())
                     .code,
                 2);
    }

    /// optimize plan: the Pareto plans as scenario files and pareto.json, each within every SLA;
    /// a time limit of zero and a deadline nothing meets are refused with exit 1.
    void optimizePlan()
    {
        const QString samples = QDir(gp::test::dataDir()).absoluteFilePath("samples/");
        const QString outDir = mHome.filePath("plans");
        Run r =
            cli({"optimize", "plan", samples + "01-dgx-h100-three-tenants.json", "--seed", "3", "-o", outDir, "--json"},
                mHome.path());
        QCOMPARE(r.code, 0);
        const QJsonObject o = QJsonDocument::fromJson(r.out.toUtf8()).object();
        const QJsonArray plans = o.value("plans").toArray();
        QVERIFY(!plans.isEmpty());
        QCOMPARE(QJsonDocument::fromJson([&] {
                     QFile f(QDir(outDir).filePath("pareto.json"));
                     return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
                 }())
                     .object()
                     .value("plans")
                     .toArray()
                     .size(),
                 plans.size());
        QVERIFY(o.value("cost_lower_bound_usd").toDouble() > 0);
        for (const auto& v : plans) {
            const QJsonObject plan = v.toObject();
            QCOMPARE(plan.value("sla_violations").toInt(), 0);
            QCOMPARE(plan.value("unplaced_jobs").toInt(), 0);
            QVERIFY(plan.value("cost_per_month_usd").toDouble() >= o.value("cost_lower_bound_usd").toDouble());
            QCOMPARE(cli({"validate", QDir(outDir).filePath(plan.value("file").toString())}, mHome.path()).code, 0);
        }
        r = cli({"optimize", "plan", samples + "01-dgx-h100-three-tenants.json", "--time-limit", "0", "-o", outDir},
                mHome.path());
        QCOMPARE(r.code, 1);
        QVERIFY2(r.err.contains("leaves no time to search"), qPrintable(r.err));
        r = cli({"optimize", "plan", samples + "03-fabric-64-node-infiniband.json", "-o", outDir}, mHome.path());
        QCOMPARE(r.code, 1);
        QVERIFY2(r.err.contains("past its tenant's deadline"), qPrintable(r.err));
        // Constraints: a penalty cap every plan keeps, and no node removed.
        r = cli({"optimize", "plan", samples + "01-dgx-h100-three-tenants.json", "--max-penalty", "3", "--keep-nodes",
                 "-o", mHome.filePath("capped"), "--json"},
                mHome.path());
        QCOMPARE(r.code, 0);
        const QJsonArray capped = QJsonDocument::fromJson(r.out.toUtf8()).object().value("plans").toArray();
        QVERIFY(!capped.isEmpty());
        for (const auto& v : capped) {
            QVERIFY(v.toObject().value("max_penalty").toDouble() <= 0.03 + 1e-12);
            for (const auto& c : v.toObject().value("changes").toArray()) // {job, field, from, to, reason}
                QVERIFY2(c.isObject() && !c.toObject().value("field").toString().startsWith("number of"),
                         qPrintable(QJsonDocument(c.toObject()).toJson(QJsonDocument::Compact)));
        }
        QCOMPARE(cli({"optimize", "plan", samples + "01-dgx-h100-three-tenants.json", "--max-penalty", "three", "-o",
                      outDir},
                     mHome.path())
                     .code,
                 2);
        QCOMPARE(cli({"optimize", "plan", samples + "01-dgx-h100-three-tenants.json"}, mHome.path()).code, 2);
        QCOMPARE(
            cli({"optimize", "plan", samples + "01-dgx-h100-three-tenants.json", "--objective", "speed", "-o", outDir},
                mHome.path())
                .code,
            2);
    }
};

QTEST_GUILESS_MAIN(TestCliOptimize)
#include "tst_clioptimize.moc"
