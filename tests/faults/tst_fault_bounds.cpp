// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
// Fault test (docs/reliability.md §4, §5): searches and exports on big or odd plans stay bounded.
// A user catalog whose GPU has ten 1-slice MIG profiles (~10^8 layouts: mig-layouts ran out of
// memory) lists the first layouts and says it stopped at the limit; `optimize plan` on a plan of
// 12,500 nodes ends within a small margin of its --time-limit and says it stopped there;
// `report` on a plan of thousands of nodes (200,000 nodes used to run 5.5 min into a segfault at
// 6.1 GB) writes a PDF whose topology page draws racks as blocks, in bounded time and memory
// (ulimit -v; not in sanitizer builds, whose shadow memory needs terabytes of address space).
// No input file changes.
#include "clirunner.h"
#include "faultsupport.h"
#include "io/scenariowriter.h"
#include "pdfcheck.h"
#include "scenariogenerator.h"
#include "testsupport.h"

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

using namespace gp;

namespace {

/// A user catalog with one more GPU: the bundled A100 40 GB with ten 1-slice MIG profiles
/// (1g.5gb-v0 … 1g.5gb-v9, each at start slices 0-6, up to 7 instances).
QByteArray tenProfileCatalog()
{
    const QJsonObject bundled =
        QJsonDocument::fromJson(test::readAll(qEnvironmentVariable("GPUPLAN_DATA_DIR") + "/catalog/gpus.json"))
            .object();
    QJsonObject gpu;
    for (const QJsonValue& g : bundled["gpus"].toArray())
        if (g.toObject()["id"].toString() == "a100-40gb")
            gpu = g.toObject();
    gpu["id"] = "ten-slice-gpu";
    gpu["name"] = "Ten-slice test GPU";
    QJsonObject mig = gpu["mig"].toObject();
    const QJsonObject first = mig["profiles"].toArray().first().toObject(); // 1g.5gb
    QJsonArray profiles;
    for (int i = 0; i < 10; ++i) {
        QJsonObject p = first;
        p["name"] = QString("1g.5gb-v%1").arg(i);
        p["id"] = 100 + i;
        profiles.append(p);
    }
    mig["profiles"] = profiles;
    gpu["mig"] = mig;
    return QJsonDocument(QJsonObject{{"format_version", 1}, {"gpus", QJsonArray{gpu}}}).toJson();
}

/// A generated plan of `nodes` DGX H100 nodes (tests/bench/scenariogenerator), written by gpuplan.
bool writeGeneratedPlan(const QString& path, int nodes, int tenants, int jobsPerTenant)
{
    return test::writeFile(
        path, io::writeScenario(bench::generateCluster(test::bundledCatalog(), nodes, tenants, jobsPerTenant)));
}

} // namespace

class TestFaultBounds : public QObject
{
    Q_OBJECT

    QTemporaryDir mHome;

private Q_SLOTS:
    /// Ten 1-slice profiles: the first 10,000 layouts, "truncated", a message naming the limit;
    /// in under a second and a few MB where it used to take gigabytes and abort.
    void migLayoutsOfManyProfilesAreBounded()
    {
        QTemporaryDir dir;
        const QString catalog = dir.filePath("catalog.json");
        QVERIFY(test::writeFile(catalog, tenProfileCatalog()));
        const QByteArray before = test::hashOf(catalog);
        QElapsedTimer timer;
        timer.start();
        const test::Run json = test::cliLimited(
            {"mig-layouts", "--catalog", catalog, "--gpu", "ten-slice-gpu", "--json"}, mHome.path(), 1024, 60);
        QVERIFY2(json.code == 0, qPrintable(QString("exit %1: %2").arg(json.code).arg(json.err.left(2000))));
        QVERIFY2(json.err.contains("stopped at 10,000 layouts") && json.err.contains("limit on MIG layouts"),
                 qPrintable(json.err));
        const QJsonObject root = QJsonDocument::fromJson(json.out.toUtf8()).object();
        QCOMPARE(root["count"].toInt(), 10000);
        QCOMPARE(root["truncated"].toBool(), true);
        QCOMPARE(root["layouts"].toArray().size(), 10000);
        const test::Run text = test::cliLimited(
            {"mig-layouts", "--catalog", catalog, "--gpu", "ten-slice-gpu", "--maximal"}, mHome.path(), 1024, 60);
        QVERIFY2(text.code == 0, qPrintable(text.err));
        QVERIFY2(text.out.startsWith("10000 maximal MIG layout(s)"), qPrintable(text.out.left(200)));
        QVERIFY(text.out.contains("stopped at the limit"));
        QVERIFY2(timer.elapsed() < 30000, qPrintable(QString("%1 ms").arg(timer.elapsed())));
        QCOMPARE(test::hashOf(catalog), before);
        // A bundled GPU is listed whole, as before.
        const test::Run a100 =
            test::cliLimited({"mig-layouts", "--gpu", "A100-40GB", "--json"}, mHome.path(), 1024, 60);
        QCOMPARE(a100.code, 0);
        QCOMPARE(QJsonDocument::fromJson(a100.out.toUtf8()).object()["truncated"].toBool(), false);
        QVERIFY(a100.err.isEmpty());
    }

    /// `optimize plan --time-limit 3` on a 12,500-node plan (100,000 GPUs, 12,500 jobs) ends
    /// within the limit + 10 % + 2 s of search plus what reading the plan and writing the results
    /// take, and says it stopped at the time limit. It used to take 20 s (the job moves' searches
    /// ignored the limit; at --time-limit 10, 32 s).
    void optimizePlanEndsAtItsTimeLimit()
    {
        QTemporaryDir dir;
        const QString plan = dir.filePath("big.json");
        const int nodes = test::kSanitized ? 1000 : 12500;
        QVERIFY(writeGeneratedPlan(plan, nodes, 50, nodes / 50));
        const QByteArray before = test::hashOf(plan);
        const double limitS = 3.0;
        QElapsedTimer timer;
        timer.start();
        const test::Run r = test::cliLimited(
            {"optimize", "plan", plan, "-o", dir.filePath("out"), "--time-limit", QString::number(limitS), "--json"},
            mHome.path(), 4096, 300);
        const double wallS = timer.elapsed() / 1000.0;
        QVERIFY2(r.code == 0 || r.code == 1, qPrintable(QString("exit %1: %2").arg(r.code).arg(r.err.left(2000))));
        QVERIFY2(r.err.contains("stopped at the time limit") || r.err.contains("stopped at its time limit"),
                 qPrintable(r.err.left(2000)));
        if (r.code == 0) {
            const QJsonObject summary = QJsonDocument::fromJson(r.out.toUtf8()).object();
            QCOMPARE(summary["timed_out"].toBool(), true);
            QVERIFY(summary["elapsed_ms"].toDouble() <= (limitS * 1.1 + 2.0) * 1000.0);
        }
        // The search's own bound, and what reading the 30 MB plan and writing the results add
        // (1.5 s on the 2-core development VM; more in sanitizer builds).
        const double bound = limitS * 1.1 + 2.0 + (test::kSanitized ? 60.0 : 6.0);
        QVERIFY2(wallS <= bound, qPrintable(QString("%1 s > %2 s").arg(wallS).arg(bound)));
        QCOMPARE(test::hashOf(plan), before);
    }

    /// `report` on a 4,000-node plan (32,000 GPUs, 1,000 jobs): exit 0 within a minute under a
    /// 3 GiB address-space ceiling, and the topology page draws the racks as blocks with counts.
    void reportOnALargePlanIsBounded()
    {
        QTemporaryDir dir;
        const QString plan = dir.filePath("big.json");
        const int nodes = test::kSanitized ? 600 : 4000;
        QVERIFY(writeGeneratedPlan(plan, nodes, 20, 50));
        const QByteArray before = test::hashOf(plan);
        const QString pdf = dir.filePath("big.pdf");
        QElapsedTimer timer;
        timer.start();
        const test::Run r = test::cliLimited({"report", plan, "-o", pdf, "--trials", "20"}, mHome.path(), 3072,
                                             test::kSanitized ? 600 : 120);
        const double wallS = timer.elapsed() / 1000.0;
        QVERIFY2(r.code == 0, qPrintable(QString("exit %1: %2").arg(r.code).arg(r.err.left(2000))));
        QVERIFY2(test::kSanitized || wallS < 60.0, qPrintable(QString("%1 s").arg(wallS)));
        QVERIFY(QFile::exists(pdf));
        // The topology page: the blocks' figures and the caption that says what they are.
        const QString page2 = test::runTool("pdftotext", {"-f", "2", "-l", "2", "-layout", pdf, "-"});
        QVERIFY2(page2.contains("Topology and placement"), qPrintable(page2.left(500)));
        QVERIFY2(page2.contains("each block stands for a rack"), qPrintable(page2.left(2000)));
        QVERIFY2(page2.contains(QString("%1 racks").arg(QLocale::c().toString((nodes + 15) / 16))) ||
                     page2.contains(QString("%1 racks").arg((nodes + 15) / 16)),
                 qPrintable(page2.left(2000)));
        QVERIFY2(page2.contains("leaf-0"), qPrintable(page2.left(2000)));
        QVERIFY2(page2.contains("GPUs"), qPrintable(page2.left(2000)));
        // The jobs table lists the first jobs and says how many more there are.
        const QString page5 = test::runTool("pdftotext", {"-f", "5", "-l", "5", pdf, "-"});
        QVERIFY2(page5.contains("more in the export"), qPrintable(page5.left(2000)));
        const QStringList problems = test::renderingProblems(pdf, true);
        QVERIFY2(problems.isEmpty(), qPrintable(problems.join('\n')));
        QCOMPARE(test::hashOf(plan), before);
    }
};

QTEST_GUILESS_MAIN(TestFaultBounds)
#include "tst_fault_bounds.moc"
