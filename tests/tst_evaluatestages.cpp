// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
// evaluate() as named stages: the assumptions read once into typed parameters (the same values
// the keys give, and a record of which figure reads which), and the samples' KPIs under every
// placement policy against the values evaluate gave before it was split into stages
// (tests/data/evaluate-kpis.json), so that a refactoring that drifts a number fails here.
#include "calc/evaluate.h"
#include "calc/evaluateparams.h"
#include "calc/kpiregistry.h"
#include "calc/servingmodel.h"
#include "io/scenarioreader.h"
#include "model/assumptions.h"
#include "model/enumnames.h"
#include "model/units.h"
#include "testsupport.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTest>

#include <algorithm>
#include <cmath>

using namespace gp;
using namespace gp::calc;

class TestEvaluateStages : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

    void paramsHoldWhatTheKeysSay_data()
    {
        QTest::addColumn<bool>("overridden");
        QTest::newRow("defaults") << false;
        QTest::newRow("overrides") << true;
    }

    void paramsHoldWhatTheKeysSay()
    {
        QFETCH(bool, overridden);
        std::map<std::string, double> a;
        if (overridden)
            a = {{"runtime_overhead_gib", 3.5},
                 {"inference_prefill_chunk_tokens", 1024},
                 {"serving_memory_fraction", 0.8},
                 {"chunked_prefill", 0},
                 {"kv_block_tokens", 32},
                 {"comm_overlap", 0.4},
                 {"tp_comm_overlap", 0.2},
                 {"link_efficiency", 0.7},
                 {"no_gpudirect_bandwidth_factor", 0.3},
                 {"time_slice_ms", 4}};
        const EvaluateParams p = EvaluateParams::read(a);
        QCOMPARE(p.runtimeOverheadBytes, assumptionValue(a, "runtime_overhead_gib") * kGiB);
        QCOMPARE(p.prefillChunkTokens, static_cast<int>(assumptionValue(a, "inference_prefill_chunk_tokens")));
        QCOMPARE(p.commOverlap, assumptionValue(a, "comm_overlap"));
        QCOMPARE(p.tpCommOverlap, assumptionValue(a, "tp_comm_overlap"));
        QCOMPARE(p.linkEfficiency, assumptionValue(a, "link_efficiency"));
        QCOMPARE(p.noGpudirectFactor, assumptionValue(a, "no_gpudirect_bandwidth_factor"));
        QCOMPARE(p.timeSliceS, assumptionValue(a, "time_slice_ms") / 1e3);
        const ServingEngine e = servingEngineFrom(a);
        QCOMPARE(p.engine.tokenBudget, e.tokenBudget);
        QCOMPARE(p.engine.chunkedPrefill, e.chunkedPrefill);
        QCOMPARE(p.engine.memoryFraction, e.memoryFraction);
        QCOMPARE(p.engine.blockTokens, e.blockTokens);
        if (overridden) // the overrides differ from the defaults, so the comparisons above bite
            QVERIFY(p.engine.memoryFraction != servingEngineFrom({}).memoryFraction);
        // The GPU-calibrated interference parameters come from the same assumptions.
        const GpuSpec& gpu = *test::bundledCatalog().gpu("h100-80gb");
        QCOMPARE(p.interferenceOn(gpu).switchCompute, InterferenceParams::from(a, gpu).switchCompute);
        QCOMPARE(p.interferenceOn(gpu).mpsContention, InterferenceParams::from(a, gpu).mpsContention);
    }

    void recordsWhichFigureReadsWhichAssumption()
    {
        const std::vector<std::string> read = assumptionsRead();
        QVERIFY(!read.empty());
        for (const std::string& key : read)
            QVERIFY2(findAssumption(key), key.c_str()); // every key evaluate reads is registered
        const auto readBy = [](EvaluatedFigure f) { return assumptionsReadBy(f); };
        const auto has = [](const std::vector<std::string>& keys, const std::string& key) {
            return std::find(keys.begin(), keys.end(), key) != keys.end();
        };
        QVERIFY(has(readBy(EvaluatedFigure::Memory), "runtime_overhead_gib"));
        QVERIFY(!has(readBy(EvaluatedFigure::Memory), "time_slice_ms"));
        QVERIFY(has(readBy(EvaluatedFigure::Interference), "mps_memory_contention"));
        QVERIFY(has(readBy(EvaluatedFigure::StepTime), "tp_comm_overlap"));
        QVERIFY(has(readBy(EvaluatedFigure::Communication), "no_gpudirect_bandwidth_factor"));
        // The out-of-memory count names what the memory figure reads. The KPIs made of the jobs'
        // figures name no fixed list: their explanation lists what evaluate recorded for this
        // plan's jobs (tst_explainassumptions), so none names a key its jobs never read.
        QCOMPARE(findKpi("oom_risk_gpus")->assumptions, readBy(EvaluatedFigure::Memory));
        for (const char* kpi : {"vram_utilization", "mean_penalty", "max_penalty", "compute_utilization",
                                "unplaced_jobs", "waste_per_month_usd", "sla_violations", "serving_slo_attainment"})
            QVERIFY2(findKpi(kpi)->assumptions.empty(), kpi);
    }

    void samplesKeepTheirKpis()
    {
        QFile f(QDir(test::fixturesDir()).absoluteFilePath("evaluate-kpis.json"));
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QJsonArray cases = QJsonDocument::fromJson(f.readAll()).array();
        // Each sample under its own policy and each of the four.
        QCOMPARE(cases.size(), 5 * static_cast<int>(test::sampleFiles().size()));
        const auto same = [](double expected, double actual) {
            return std::abs(expected - actual) <= 1e-12 * std::max(1.0, std::abs(expected));
        };
        // GPUPLAN_WRITE_KPI_EXPECTATION=1 rewrites the expectation from today's model (after a
        // change of the physics, said in its commit); the check itself then runs on the new file.
        const bool rewrite = qEnvironmentVariableIntValue("GPUPLAN_WRITE_KPI_EXPECTATION") == 1;
        QJsonArray rewritten;
        for (const QJsonValue& c : cases) {
            const QJsonObject o = c.toObject();
            const QString file = o["file"].toString(), policy = o["policy"].toString();
            const Scenario s =
                *io::readScenarioFile(QDir(test::dataDir()).absoluteFilePath("samples/" + file), test::bundledCatalog())
                     .value;
            std::optional<PlacementPolicy> p;
            if (policy != "default")
                p = enumFromName<PlacementPolicy>(policy.toStdString());
            const Evaluation ev = evaluate(s, test::bundledCatalog(), p);
            const Kpis& k = ev.kpis;
            const QJsonObject want = o["kpis"].toObject();
            const QString where = file + " / " + policy + ": ";
            std::map<std::string, double> got = kpiValues(k);
            got["allocated_memory_bytes"] = k.allocatedMemoryBytes;
            got["unused_memory_bytes"] = k.unusedMemoryBytes;
            got["mig_unusable_slices"] = k.migUnusableSlices;
            got["serving_jobs"] = k.servingJobs;
            got["serving_ttft_p99_s"] = k.servingTtftP99S;
            got["serving_itl_p99_s"] = k.servingItlP99S;
            for (const CostPart& part : costParts())
                got[std::string("part_") + part.key] = k.costBreakdown.*part.value;
            if (rewrite) {
                QJsonObject kpis = want, costs = o["cost"].toObject();
                for (const auto& [key, value] : got) {
                    const QString name = QString::fromStdString(key);
                    const bool none = name.startsWith("serving_") && (k.servingJobs == 0 || value >= 1e29);
                    if (name.startsWith("part_"))
                        costs[name.mid(5)] = value;
                    else
                        kpis[name] = none ? QJsonValue(QJsonValue::Null) : QJsonValue(value);
                }
                kpis["meets_target"] = k.meetsTarget;
                QJsonObject out = o;
                out["kpis"] = kpis;
                out["cost"] = costs;
                rewritten.append(out);
                continue;
            }
            const QJsonObject cost = o["cost"].toObject();
            for (const auto& [key, value] : got) {
                const QString name = QString::fromStdString(key);
                const QJsonValue w = name.startsWith("part_") ? cost[name.mid(5)] : want[name];
                if (w.isNull() && name.startsWith("serving_")) { // no serving job, or one without GPUs
                    QVERIFY2(k.servingJobs == 0 || value >= 1e29, qPrintable(where + name + " has a value now"));
                    continue;
                }
                QVERIFY2(w.isDouble(), qPrintable(where + name + " missing from the expectation"));
                QVERIFY2(same(w.toDouble(), value), qPrintable(where + name + " is " + QString::number(value, 'g', 17) +
                                                               ", was " + QString::number(w.toDouble(), 'g', 17)));
            }
            QCOMPARE(k.meetsTarget, want["meets_target"].toBool());
        }
        if (rewrite) {
            QFile out(QDir(test::fixturesDir()).absoluteFilePath("evaluate-kpis.json"));
            QVERIFY(out.open(QIODevice::WriteOnly | QIODevice::Truncate));
            out.write(QJsonDocument(rewritten).toJson(QJsonDocument::Indented));
            QSKIP("tests/data/evaluate-kpis.json rewritten; run again to check it");
        }
    }
};

QTEST_GUILESS_MAIN(TestEvaluateStages)
#include "tst_evaluatestages.moc"
