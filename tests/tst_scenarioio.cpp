// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
// Scenario JSON v1: the samples load cleanly, cover every sharing mode, and a read-write
// round trip gives the same bytes (docs/scenario-format.md).
#include "calc/inventory.h"
#include "io/scenariomigrations.h"
#include "io/scenarioreader.h"
#include "io/scenariowriter.h"
#include "model/enumnames.h"
#include "testsupport.h"

#include <QFile>
#include <QSignalSpy>
#include <QTest>

#include <set>

using namespace gp;

namespace {

QByteArray readAll(const QString& path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

QString dump(const Issues& issues)
{
    QStringList l;
    for (const auto& i : issues)
        l << QString::fromStdString(i.toString());
    return l.join('\n');
}

Scenario load(const QString& name)
{
    auto r = io::readScenarioFile(QDir(test::dataDir()).absoluteFilePath("samples/" + name), test::bundledCatalog());
    if (!r.ok())
        qFatal("%s", qPrintable(dump(r.issues)));
    return *r.value;
}

} // namespace

class TestScenarioIo : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void samplesLoadWithoutProblems_data()
    {
        QTest::addColumn<QString>("file");
        for (const QString& f : test::sampleFiles())
            QTest::newRow(qPrintable(QFileInfo(f).fileName())) << f;
        QVERIFY(test::sampleFiles().size() >= 4);
    }
    void samplesLoadWithoutProblems()
    {
        QFETCH(QString, file);
        const auto r = io::readScenarioFile(file, test::bundledCatalog());
        QVERIFY2(r.ok(), qPrintable(dump(r.issues)));
        QVERIFY2(r.issues.empty(), qPrintable(dump(r.issues)));
    }

    void roundTripIsByteIdentical_data() { samplesLoadWithoutProblems_data(); }
    void roundTripIsByteIdentical()
    {
        QFETCH(QString, file);
        const QByteArray original = readAll(file);
        const auto r = io::readScenario(original, test::bundledCatalog());
        QVERIFY(r.ok());
        const QByteArray written = io::writeScenario(*r.value);
        QCOMPARE(written, original);
        const auto again = io::readScenario(written, test::bundledCatalog());
        QVERIFY(again.ok());
        QVERIFY(*again.value == *r.value);
    }

    void samplesCoverWhatTheFoundationPromises()
    {
        std::set<SharingMode> modes;
        int bigGpus = 0;
        bool eightDgxThreeKinds = false;
        bool twoTier512 = false;
        for (const QString& f : test::sampleFiles()) {
            const Scenario s = *io::readScenarioFile(f, test::bundledCatalog()).value;
            const calc::Inventory inv = calc::takeInventory(s, test::bundledCatalog());
            for (const auto& [mode, n] : inv.gpusByMode)
                if (n > 0)
                    modes.insert(mode);
            bigGpus = std::max(bigGpus, inv.gpusByModel.count("h100-80gb") ? inv.gpusByModel.at("h100-80gb") : 0);
            std::set<JobKind> kinds;
            for (const auto& t : s.tenants)
                for (const auto& j : t.jobs)
                    kinds.insert(j.kind == JobKind::Lora || j.kind == JobKind::Qlora ? JobKind::FullFinetune : j.kind);
            if (inv.nodes == 8 && s.topology.nodes[0].templateId == "dgx-h100" && kinds.size() == 3)
                eightDgxThreeKinds = true;
            bool spine = false;
            for (const auto& sw : s.topology.switches)
                spine |= sw.tier == "spine";
            if (inv.gpus == 512 && spine)
                twoTier512 = true;
        }
        QCOMPARE(modes.size(), std::size_t(6)); // bare metal, passthrough, MIG, vGPU, time-slicing, MPS
        QVERIFY(eightDgxThreeKinds);
        QVERIFY(twoTier512);
        QCOMPARE(bigGpus, 2000);
    }

    void everyFieldSurvivesARoundTrip()
    {
        Scenario s = load("01-dgx-h100-three-tenants.json");
        // Exercise the optional and rarely used fields.
        Job& j = s.tenants[0].jobs[0];
        j.model.preset.clear();
        j.model.custom = {.layers = 24,
                          .hiddenSize = 2048,
                          .attentionHeads = 16,
                          .kvHeads = 4,
                          .ffnHiddenSize = 5632,
                          .vocabSize = 32000,
                          .sequenceLength = 4096,
                          .experts = 8,
                          .activeExperts = 2,
                          .gatedFfn = true};
        j.parallelism = {.tp = 2,
                         .pp = 2,
                         .dp = 8,
                         .zeroStage = 0,
                         .fsdp = true,
                         .sequenceParallel = true,
                         .recompute = Recompute::Full};
        j.batch = {2, 64};
        j.mainGradsFp32 = true;
        j.flashAttention = false; // set explicitly; the other jobs leave it to the model
        s.tenants[1].jobs[0].flashAttention = true;
        s.tenants[2].busyFraction = 0.35; // format 4
        j.parallelism.virtualStages = 3;  // 24 layers / pp 2 = 12 per stage, m = 64 / (2 x 8) = 4
        j.model.custom.dropout = true;
        j.schedule = {12.5, 48};
        j.pin = Pin{"node-007", 7, 1};
        s.tenants[0].sla.deadlineDays.reset();
        SharingConfig& mps = s.topology.nodes[2].gpuSharing[3];
        mps.mode = SharingMode::Mps;
        mps.mpsActiveThreadPct = 25;
        mps.mpsMemoryLimitGiB = 19.5;
        s.topology.nodes[3].sharing = SharingConfig{};
        s.topology.nodes[3].sharing.mode = SharingMode::TimeSlicing;
        s.topology.nodes[3].sharing.replicas = 3;
        SharingConfig& vgpu = s.topology.nodes[4].sharing;
        vgpu.mode = SharingMode::Vgpu;
        vgpu.vgpuProfile = "H100XM-20C";
        vgpu.vgpuScheduler = VgpuScheduler::FixedShare;
        s.pricing.gpuHourUsd["h100-80gb"] = 2.25;
        s.pricing.ownership = Ownership{25000.0, 5.0, 1.2, 0.08};
        s.placementPolicy = PlacementPolicy::FragmentationAware;
        s.tenants[1].arrivals = ArrivalProcess{"acme-lora", 3.5, 12.0, 0.25};
        s.tenants[0].isolation = Isolation::Hardware;
        s.tenants[1].isolation = Isolation::Memory;
        s.assumptions["achievable_mfu"] = 0.35;
        const QByteArray json = io::writeScenario(s);
        const auto r = io::readScenario(json, test::bundledCatalog());
        QVERIFY2(r.ok(), qPrintable(dump(r.issues)));
        QVERIFY(*r.value == s);
        QCOMPARE(io::writeScenario(*r.value), json);
    }

    /// The flat sharing constants are gone: files that set them load with a warning and the
    /// value is ignored.
    void retiredSharingAssumptionsWarn()
    {
        for (const char* key : {"passthrough_overhead_pct", "vgpu_overhead_pct", "time_slicing_switch_overhead_pct",
                                "mps_interference_pct"}) {
            const QByteArray json =
                QByteArray("{\"format_version\": 1, \"name\": \"t\", \"assumptions\": {\"") + key +
                "\": 7}, \"topology\": {\"nodes\": [{\"id\": \"a\", \"template\": \"dgx-a100-320gb\"}]}}";
            const auto r = io::readScenario(json, test::bundledCatalog());
            QVERIFY2(r.ok(), qPrintable(dump(r.issues)));
            bool warned = false;
            for (const Issue& i : r.issues)
                warned |= !i.isError() && i.path == std::string("assumptions.") + key &&
                          QString::fromStdString(i.message).contains("retired");
            QVERIFY2(warned, key);
        }
        // A new one out of its range is an error with path, value and reason.
        const QByteArray outOfRange = "{\"format_version\": 1, \"name\": \"t\", \"assumptions\": "
                                      "{\"mps_memory_contention\": 9}, \"topology\": {\"nodes\": "
                                      "[{\"id\": \"a\", \"template\": \"dgx-a100-320gb\"}]}}";
        const auto bad = io::readScenario(outOfRange, test::bundledCatalog());
        QVERIFY(!bad.ok());
        QVERIFY2(dump(bad.issues).contains("assumptions.mps_memory_contention: 9 must be between 0 and 5"),
                 qPrintable(dump(bad.issues)));
    }

    void versionOneFilesMigrate()
    {
        // DESIGN.md §6: every earlier format version loads through io/scenariomigrations, and
        // what gpuplan writes is the current version.
        const QByteArray v1 = R"({"format_version": 1, "name": "old",
            "topology": {"nodes": [{"id": "a", "template": "dgx-h100"}]}})";
        const auto r = io::readScenario(v1, test::bundledCatalog());
        QVERIFY2(r.ok(), qPrintable(dump(r.issues)));
        QCOMPARE(r.value->name, std::string("old"));
        const QJsonObject written = QJsonDocument::fromJson(io::writeScenario(*r.value)).object();
        QCOMPARE(written.value("format_version").toInt(), Scenario::kFormatVersion);
        QCOMPARE(Scenario::kFormatVersion, 6);
        for (const char* bad : {R"({"format_version": 0, "name": "x", "topology": {}})",
                                R"({"format_version": 1.5, "name": "x", "topology": {}})"}) {
            const auto b = io::readScenario(bad, test::bundledCatalog());
            QVERIFY(!b.ok());
            QVERIFY2(dump(b.issues).contains("is not a known format version"), qPrintable(dump(b.issues)));
        }
        const auto chain = io::migrateScenarioJson(QJsonObject{{"format_version", 1}}, 1);
        QVERIFY(chain.ok());
        QCOMPARE(chain->value("format_version").toInt(), 6);
        QVERIFY(!io::migrateScenarioJson(QJsonObject{}, 9).ok());
    }

    void templatesFillWhatANodeLeavesOut()
    {
        const QByteArray json = R"({"format_version": 1, "name": "t",
            "topology": {"nodes": [{"id": "a", "template": "dgx-a100-320gb"}],
                         "switches": [{"id": "s", "template": "qm8700"}]}})";
        const auto r = io::readScenario(json, test::bundledCatalog());
        QVERIFY2(r.ok(), qPrintable(dump(r.issues)));
        const Node& n = r.value->topology.nodes[0];
        QCOMPARE(n.gpuId, std::string("a100-40gb"));
        QCOMPARE(n.gpuCount, 8);
        QCOMPARE(n.nics.count, 8);
        QCOMPARE(n.nics.speedGbps, 200.0);
        QVERIFY(n.nics.gpudirectRdma);
        QCOMPARE(r.value->topology.switches[0].ports, 40);
    }

    void writerIsDeterministic()
    {
        const Scenario s = load("02-mixed-sharing-lab.json");
        QCOMPARE(io::writeScenario(s), io::writeScenario(Scenario(s)));
        const QByteArray json = io::writeScenario(s);
        // Keys are sorted: "assumptions" comes before "description" before "topology".
        QVERIFY(json.indexOf("\"assumptions\"") < json.indexOf("\"description\""));
        QVERIFY(json.indexOf("\"description\"") < json.indexOf("\"topology\""));
    }
};

QTEST_GUILESS_MAIN(TestScenarioIo)
#include "tst_scenarioio.moc"
