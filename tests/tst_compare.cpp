// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
// Comparing scenarios: KPI deltas with better/worse by each KPI's direction, a readable diff of
// the plans, and gpuplan-cli compare's JSON contract (docs/cli.md#compare).
#include "calc/comparison.h"
#include "calc/evaluate.h"
#include "io/scenarioreader.h"
#include "io/scenariowriter.h"
#include "model/format.h"
#include "model/scenariodiff.h"
#include "testsupport.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

#include <algorithm>

using namespace gp;

namespace {

Scenario pod() { return *io::readScenarioFile(test::sampleFiles().front(), test::bundledCatalog()).value; }

/// The pod with its two chat nodes time-sliced four ways instead of MIG and passthrough.
Scenario timeSlicedPod()
{
    Scenario s = pod();
    s.name = "DGX pod, time-sliced chat";
    for (Node& n : s.topology.nodes)
        if (n.id == "node-007" || n.id == "node-008") {
            n.sharing = SharingConfig{};
            n.sharing.mode = SharingMode::TimeSlicing;
            n.sharing.replicas = 4;
            n.gpuSharing.clear();
        }
    for (Tenant& t : s.tenants)
        for (Job& j : t.jobs)
            if (j.pin)
                j.pin->migInstance.reset();
    return s;
}

} // namespace

class TestCompare : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    // Every number is written by model/format.h, the same in the workbench, report and CLI.
    void numbersAreWrittenOneWay()
    {
        QCOMPARE(fmt::latency(0.0084), std::string("8.4 ms"));
        QCOMPARE(fmt::latency(0.2577), std::string("258 ms"));
        QCOMPARE(fmt::latency(1.4712), std::string("1.47 s"));
        QCOMPARE(fmt::latency(1e30), std::string("unbounded"));
        QCOMPARE(fmt::percent(0.4689), std::string("46.9 %"));
        QCOMPARE(fmt::percent(0.03, 0), std::string("3 %"));
        QCOMPARE(fmt::usd(139693.4), std::string("$139,693"));
        QCOMPARE(fmt::usd(-49290), std::string("-$49,290"));
        QCOMPARE(fmt::usd(0.4), std::string("$0"));
        QCOMPARE(fmt::usdThousands(139693), std::string("$140k"));
        QCOMPARE(fmt::grouped(4593510), std::string("4,593,510"));
        QCOMPARE(fmt::grouped(999), std::string("999"));
        QCOMPARE(fmt::gib(1.5 * 1024 * 1024 * 1024), std::string("1.5"));
        QCOMPARE(fmt::days(25.84), std::string("25.8 d"));
        QCOMPARE(fmt::points(-0.037), std::string("3.7 pt"));
        // The comparison's cells and deltas use the same formats.
        const calc::KpiSpec& cost = *calc::findKpi("cost_per_month_usd");
        QCOMPARE(calc::formatKpiValue(cost, 139693), std::string("$139,693"));
        QCOMPARE(calc::formatKpiDelta(cost, -49290), std::string("\u2212$49,290"));
    }

    void deltasAndVerdictsFollowEachKpisDirection()
    {
        const std::vector<std::map<std::string, double>> values = {
            {{"vram_utilization", 0.50}, {"cost_per_month_usd", 1000}, {"unplaced_jobs", 2}, {"mean_penalty", 0.1}},
            {{"vram_utilization", 0.60}, {"cost_per_month_usd", 1200}, {"unplaced_jobs", 2}, {"mean_penalty", 0.05}},
            {{"vram_utilization", 0.40}, {"cost_per_month_usd", 900}, {"unplaced_jobs", 0}}, // no penalty: row left out
        };
        const std::vector<calc::KpiComparison> rows = calc::compareKpis(values);
        QCOMPARE(rows.size(), std::size_t(3));
        // In the registry's order (calc/kpiregistry.h), found by key.
        const auto row = [&rows](const char* key) {
            const auto it = std::find_if(rows.begin(), rows.end(), [&](const auto& r) { return r.spec.key == key; });
            return it == rows.end() ? calc::KpiComparison{} : *it;
        };
        QVERIFY(row("vram_utilization").spec.higherIsBetter && !row("unplaced_jobs").spec.higherIsBetter);
        const calc::KpiComparison vram = row("vram_utilization");
        QCOMPARE(vram.spec.key, std::string("vram_utilization"));
        QCOMPARE(vram.deltas[0], 0.0);
        QCOMPARE(vram.verdicts[0], calc::Verdict::Same);
        QVERIFY(qAbs(vram.deltas[1] - 0.1) < 1e-12);
        QCOMPARE(vram.verdicts[1], calc::Verdict::Better); // more VRAM doing work
        QCOMPARE(vram.verdicts[2], calc::Verdict::Worse);
        const calc::KpiComparison unplaced = row("unplaced_jobs");
        QCOMPARE(unplaced.spec.key, std::string("unplaced_jobs"));
        QCOMPARE(unplaced.verdicts[1], calc::Verdict::Same);
        QCOMPARE(unplaced.verdicts[2], calc::Verdict::Better); // fewer unplaced
        // A change too small to show ("+0.0 d") is no change, not a worse one.
        const std::vector<calc::KpiComparison> days =
            calc::compareKpis({{{"p95_completion_days", 14.02}}, {{"p95_completion_days", 14.04}}});
        QCOMPARE(calc::formatKpiDelta(days[0].spec, days[0].deltas[1]), std::string("+0.0 d"));
        QCOMPARE(days[0].verdicts[1], calc::Verdict::Same);
        const calc::KpiComparison cost = row("cost_per_month_usd");
        QCOMPARE(cost.deltas.size(), std::size_t(3));
        QCOMPARE(cost.deltas[1], 200.0);
        QCOMPARE(cost.verdicts[1], calc::Verdict::Worse); // dearer
        QCOMPARE(cost.verdicts[2], calc::Verdict::Better);
    }

    void valuesAndChangesReadAsPlannersWriteThem()
    {
        const auto spec = [](const char* key) { return *calc::findKpi(key); };
        QCOMPARE(calc::formatKpiValue(spec("cost_per_month_usd"), 139693.2), std::string("$139,693"));
        QCOMPARE(calc::formatKpiValue(spec("cost_per_month_usd"), 999.6), std::string("$1,000"));
        QCOMPARE(calc::formatKpiValue(spec("vram_utilization"), 0.4841), std::string("48.4 %"));
        QCOMPARE(calc::formatKpiValue(spec("p95_completion_days"), 25.84), std::string("25.8 d"));
        QCOMPARE(calc::formatKpiValue(spec("unplaced_jobs"), 2), std::string("2"));
        QCOMPARE(calc::formatKpiDelta(spec("allocation_ratio"), -0.105), std::string("\u2212"
                                                                                     "10.5 pt"));
        QCOMPARE(calc::formatKpiDelta(spec("cost_per_month_usd"), 1234567), std::string("+$1,234,567"));
        QCOMPARE(calc::formatKpiDelta(spec("p95_completion_days"), -0.5), std::string("\u2212"
                                                                                      "0.5 d"));
    }

    void diffNamesWhatChanged()
    {
        const Scenario a = pod();
        QVERIFY(diffScenarios(a, a).empty());
        const std::vector<std::string> lines = diffScenarios(a, timeSlicedPod());
        auto has = [&](const std::string& text) {
            return std::any_of(lines.begin(), lines.end(), [&](const std::string& l) { return l == text; });
        };
        QVERIFY(has("name: DGX H100 pod: three tenants -> DGX pod, time-sliced chat"));
        QVERIFY(has("node node-007 sharing: MIG 3g.40gb x2 -> time-slicing x4"));
        QVERIFY(has("node node-008 sharing: passthrough VM -> time-slicing x4"));
        // Added and removed items, tenants' SLA and jobs' parallelism.
        Scenario b = a;
        b.topology.nodes.pop_back();
        b.tenants[1].sla.deadlineDays = 5.0;
        b.tenants[1].jobs[0].parallelism.dp = 4;
        b.tenants[1].jobs[0].batch.global = 64;
        const std::vector<std::string> more = diffScenarios(a, b);
        auto contains = [&](const std::string& text) {
            return std::any_of(more.begin(), more.end(),
                               [&](const std::string& l) { return l.find(text) != std::string::npos; });
        };
        QVERIFY(contains("- node node-008 (dgx-h100, 8 GPUs, passthrough VM)"));
        QVERIFY(contains("tenant acme SLA deadline: 3 days -> 5 days"));
        QVERIFY(contains("job acme-ft parallelism: TP1 PP1 DP8 ZeRO-3 -> TP1 PP1 DP4 ZeRO-3"));
        QVERIFY(contains("job acme-ft batch: 1 / 128 -> 1 / 64"));
        QVERIFY(!contains("position")); // moving an item on the canvas changes nothing planned
    }

    void cliCompareJson()
    {
        QTemporaryDir dir;
        const QString b = dir.filePath("b.json");
        QFile f(b);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(io::writeScenario(timeSlicedPod()));
        f.close();
        QProcess p;
        p.start(qEnvironmentVariable("GPUPLAN_CLI"),
                {"compare", test::sampleFiles().front(), b, "--json", "--trials", "64"});
        QVERIFY(p.waitForFinished(120000));
        QCOMPARE(p.exitCode(), 0);
        const QJsonObject o = QJsonDocument::fromJson(p.readAllStandardOutput()).object();
        QCOMPARE(o["scenarios"].toArray().size(), 2);
        // The deltas are the differences of the two evaluations.
        const calc::Kpis ka = calc::evaluate(pod(), test::bundledCatalog()).kpis;
        const calc::Kpis kb = calc::evaluate(timeSlicedPod(), test::bundledCatalog()).kpis;
        bool sawAllocation = false, sawP95 = false;
        for (const QJsonValue& v : o["kpis"].toArray()) {
            const QJsonObject row = v.toObject();
            QVERIFY(row["deltas"].toArray()[0].isNull());
            if (row["key"] == "allocation_ratio") {
                sawAllocation = true;
                QVERIFY(qAbs(row["values"].toArray()[0].toDouble() - ka.allocationRatio) < 1e-9);
                QVERIFY(qAbs(row["deltas"].toArray()[1].toDouble() - (kb.allocationRatio - ka.allocationRatio)) < 1e-9);
                QCOMPARE(row["verdicts"].toArray()[1].toString(),
                         QString(kb.allocationRatio > ka.allocationRatio ? "better" : "worse"));
                QCOMPARE(row["higher_is_better"].toBool(), true);
            }
            sawP95 = sawP95 || row["key"] == "p95_completion_days";
        }
        QVERIFY(sawAllocation && sawP95);
        const QJsonArray changes = o["differences"].toArray()[0].toObject()["changes"].toArray();
        QVERIFY(changes.contains(QJsonValue("node node-008 sharing: passthrough VM -> time-slicing x4")));
        // Library revisions by reference: lib:ID@REV against lib:ID (the latest).
        const QString db = dir.filePath("lib.sqlite");
        p.start(qEnvironmentVariable("GPUPLAN_CLI"), {"library", "import", test::sampleFiles().front(), "--db", db});
        QVERIFY(p.waitForFinished(60000));
        QCOMPARE(p.exitCode(), 0);
        p.start(qEnvironmentVariable("GPUPLAN_CLI"), {"library", "import", b, "--db", db});
        QVERIFY(p.waitForFinished(60000));
        p.start(qEnvironmentVariable("GPUPLAN_CLI"),
                {"compare", "lib:1@1", "lib:2", "--db", db, "--json", "--trials", "0"});
        QVERIFY(p.waitForFinished(60000));
        QCOMPARE(p.exitCode(), 0);
        const QJsonObject fromLib = QJsonDocument::fromJson(p.readAllStandardOutput()).object();
        QCOMPARE(fromLib["scenarios"].toArray()[0].toObject()["name"].toString(),
                 QString("DGX H100 pod: three tenants (revision 1)"));
        QVERIFY(fromLib["differences"].toArray()[0].toObject()["changes"].toArray().contains(
            QJsonValue("node node-008 sharing: passthrough VM -> time-slicing x4")));
        p.start(qEnvironmentVariable("GPUPLAN_CLI"), {"compare", "lib:1@7", "lib:2", "--db", db});
        QVERIFY(p.waitForFinished(60000));
        QCOMPARE(p.exitCode(), 2); // no such revision
        // One file, or five: usage error.
        p.start(qEnvironmentVariable("GPUPLAN_CLI"), {"compare", b});
        QVERIFY(p.waitForFinished(60000));
        QCOMPARE(p.exitCode(), 2);
    }
};

QTEST_GUILESS_MAIN(TestCompare)
#include "tst_compare.moc"
