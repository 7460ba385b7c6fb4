// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
// One cost decomposition (issue 36, items 1 and 2; docs/model-reference.md, "Cost
// decomposition"): useful + idle + sharing overhead + stranded is the bill, within a cent, on a
// plan worked out by hand, on every bundled sample under every placement policy, on a sweep's
// points and on the benchmark generator's random clusters.
#include "bench/scenariogenerator.h"
#include "calc/evaluate.h"
#include "calc/kpiexplain.h"
#include "calc/kpiregistry.h"
#include "io/scenarioreader.h"
#include "model/enumnames.h"
#include "model/units.h"
#include "model/validation.h"
#include "study/sweep.h"
#include "testsupport.h"

#include <QDir>
#include <QTemporaryDir>
#include <QtTest>

using namespace gp;
using namespace gp::calc;

namespace {

constexpr double kCent = 0.01;

/// Every property of the decomposition; an empty string when they hold, else what fails.
QString addsUp(const Evaluation& ev)
{
    const Kpis& k = ev.kpis;
    const CostBreakdown& b = k.costBreakdown;
    QStringList fails;
    auto near = [](double a, double e) { return std::abs(a - e) <= kCent; };
    if (!near(b.total(), k.costPerMonthUsd))
        fails << QString("parts %1 != cost %2").arg(b.total(), 0, 'f', 4).arg(k.costPerMonthUsd, 0, 'f', 4);
    for (const CostPart& part : costParts())
        if (b.*part.value < -1e-9)
            fails << QString("%1 is %2").arg(part.key).arg(b.*part.value);
    if (k.wastePerMonthUsd() > k.costPerMonthUsd + kCent)
        fails << QString("waste %1 > cost %2").arg(k.wastePerMonthUsd()).arg(k.costPerMonthUsd);
    if (ev.tenantCostBreakdown.size() != ev.tenantCostPerMonthUsd.size())
        fails << "tenant lists differ";
    double tenants = 0.0, overhead = 0.0;
    for (std::size_t t = 0; t < ev.tenantCostBreakdown.size(); ++t) {
        const auto& [id, parts] = ev.tenantCostBreakdown[t];
        tenants += parts.total();
        if (!near(parts.total(), ev.tenantCostPerMonthUsd[t].second))
            fails << QString("tenant %1: parts %2 != cost %3")
                         .arg(QString::fromStdString(id))
                         .arg(parts.total())
                         .arg(ev.tenantCostPerMonthUsd[t].second);
        if (parts.idleUsd != 0.0 || parts.strandedUsd != 0.0 || parts.usefulUsd < -1e-9 || parts.overheadUsd < -1e-9)
            fails << QString("tenant %1 has a part out of range").arg(QString::fromStdString(id));
    }
    if (!near(tenants + b.idleUsd + b.strandedUsd, k.costPerMonthUsd))
        fails << QString("tenants %1 + not allocated %2 != cost %3")
                     .arg(tenants)
                     .arg(b.idleUsd + b.strandedUsd)
                     .arg(k.costPerMonthUsd);
    for (const JobResult& j : ev.jobs)
        overhead += j.overheadPerMonthUsd;
    if (!near(overhead, b.overheadUsd))
        fails << QString("jobs' overhead %1 != %2").arg(overhead).arg(b.overheadUsd);
    if (k.unusedMemoryBytes < -1e-3 || k.unusedMemoryBytes > k.allocatedMemoryBytes + 1e-3)
        fails << QString("unused memory %1 of %2").arg(k.unusedMemoryBytes).arg(k.allocatedMemoryBytes);
    return fails.join("; ");
}

Job qlora(const std::string& id, std::optional<Pin> pin)
{
    Job j;
    j.id = id;
    j.name = id;
    j.kind = JobKind::Qlora;
    j.model.preset = "llama2-7b";
    j.parallelism.recompute = Recompute::Full;
    j.batch = {1, 1};
    j.training = TrainingSpec{1e9, 30};
    j.lora = LoraSpec{16, 32};
    j.pin = std::move(pin);
    return j;
}

} // namespace

class TestCostBreakdown : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void handBuiltPlanAddsUpByHand()
    {
        // One node of three H100s at $2.00 per GPU-hour: each GPU costs 2.00 × 730 = $1,460 a
        // month, the plan $4,380.
        //   GPU 0, bare metal, no job:                       Idle $1,460 (a wholly free GPU).
        //   GPU 1, time-sliced ×2, jobs a and b pinned there: each holds half the GPU, D = $730;
        //     with penalties pa, pb: Sharing overhead 730 × (pa/(1+pa) + pb/(1+pb)), Useful the
        //     rest of $1,460.
        //   GPU 2, MIG 3g.40gb@0 + 3g.40gb@4, job c on the first: it holds 3/7 of the GPU,
        //     D = 1,460 × 3/7 = $625.71 (Useful and Sharing overhead by its penalty pc); the
        //     free 3g.40gb (3/7, 39.5 GiB) could take any job of the mix: Idle $625.71; the
        //     seventh compute slice has no memory slice left, so no profile fits it: Stranded
        //     1,460 / 7 = $208.57.
        //   Idle = 1,460 + 625.71 = $2,085.71; Stranded $208.57; Useful + Sharing overhead =
        //   730 + 730 + 625.71 = $2,085.71; together $4,380.
        const Catalog& cat = test::bundledCatalog();
        const NodeTemplate* t = cat.nodeTemplate("dgx-h100");
        Scenario s;
        s.name = "by hand";
        s.pricing.gpuHourUsd[t->gpuId] = 2.0;
        Node n;
        n.id = "n0";
        n.name = "n0";
        n.templateId = t->id;
        n.gpuId = t->gpuId;
        n.gpuCount = 3;
        n.nics = {t->nicCount, t->nicSpeedGbps, t->gpudirectRdma};
        SharingConfig sliced;
        sliced.mode = SharingMode::TimeSlicing;
        sliced.replicas = 2;
        SharingConfig mig;
        mig.mode = SharingMode::Mig;
        mig.migInstances = {{"3g.40gb", 0}, {"3g.40gb", 4}};
        n.gpuSharing[1] = sliced;
        n.gpuSharing[2] = mig;
        s.topology.nodes.push_back(n);
        Tenant t1;
        t1.id = t1.name = "t1";
        t1.jobs = {qlora("a", Pin{"n0", 1, std::nullopt}), qlora("b", Pin{"n0", 1, std::nullopt})};
        Tenant t2;
        t2.id = t2.name = "t2";
        t2.jobs = {qlora("c", Pin{"n0", 2, 0})};
        s.tenants = {t1, t2};
        for (const Issue& i : validateScenario(s, cat))
            QVERIFY2(!i.isError(), i.toString().c_str());
        const Evaluation ev = evaluate(s, cat);
        QCOMPARE(ev.kpis.unplacedJobs, 0);
        std::map<std::string, const JobResult*> jobs;
        for (const JobResult& j : ev.jobs)
            jobs[j.id] = &j;
        QCOMPARE(jobs.at("a")->placement.front().gpu, 1);
        QCOMPARE(jobs.at("b")->placement.front().gpu, 1);
        QCOMPARE(jobs.at("c")->placement.front().gpu, 2);
        const double month = 2.0 * 730.0, pa = jobs.at("a")->penalty, pb = jobs.at("b")->penalty,
                     pc = jobs.at("c")->penalty;
        QVERIFY(pa > 0.0 && pb > 0.0); // two jobs on one time-sliced GPU slow each other down
        const double dc = month * 3.0 / 7.0;
        const double overhead = 730.0 * (pa / (1 + pa) + pb / (1 + pb)) + dc * pc / (1 + pc);
        const CostBreakdown& b = ev.kpis.costBreakdown;
        const auto near = [](double a, double e) { return std::abs(a - e) <= 1e-6; };
        QVERIFY(near(ev.kpis.costPerMonthUsd, 3 * month));
        QVERIFY2(near(b.idleUsd, month + dc), qPrintable(QString::number(b.idleUsd)));
        QVERIFY2(near(b.strandedUsd, month / 7.0), qPrintable(QString::number(b.strandedUsd)));
        QVERIFY(near(b.overheadUsd, overhead));
        QVERIFY(near(b.usefulUsd, month + dc - overhead));
        QVERIFY(near(b.waste(), month + dc + month / 7.0 + overhead));
        // The tenants: t1 holds GPU 1, t2 three sevenths of GPU 2.
        QCOMPARE(ev.tenantCostBreakdown.size(), std::size_t{2});
        QVERIFY(near(ev.tenantCostBreakdown[0].second.total(), month));
        QVERIFY(near(ev.tenantCostBreakdown[1].second.total(), dc));
        QVERIFY(near(ev.tenantCostBreakdown[1].second.overheadUsd, dc * pc / (1 + pc)));
        // Memory the jobs leave unused is headroom, in bytes, not dollars.
        QVERIFY(ev.kpis.unusedMemoryBytes > 0);
        QVERIFY(ev.kpis.unusedMemoryFraction() > 0.0 && ev.kpis.unusedMemoryFraction() < 1.0);
        QVERIFY2(addsUp(ev).isEmpty(), qPrintable(addsUp(ev)));
        // The explanation window words it as every view does, with this plan's figures.
        const KpiExplanation waste = explainKpi("waste_per_month_usd", s, cat, ev);
        QVERIFY2(waste.formula.find("Idle + Sharing overhead + Stranded = $2,086 + ") == 0, waste.formula.c_str());
        QVERIFY2(waste.formula.find(" of $4,380 (Useful ") != std::string::npos, waste.formula.c_str());
        const KpiExplanation cost = explainKpi("cost_per_month_usd", s, cat, ev);
        auto has = [](const KpiExplanation& x, const std::string& start) {
            return std::any_of(x.lines.begin(), x.lines.end(),
                               [&](const std::string& l) { return l.rfind(start, 0) == 0; });
        };
        for (const KpiExplanation* x : {&waste, &cost}) {
            QVERIFY(has(*x, "tenant t1: $1,460 (Useful "));
            QVERIFY(has(*x, "not allocated: $2,294 (Idle $2,086, Stranded $209)"));
            QVERIFY(has(*x, "unused memory on the jobs' GPUs: "));
        }
        QVERIFY(has(cost, "where it goes: Useful $"));
    }

    void everySampleUnderEveryPolicyAddsUp()
    {
        int checked = 0;
        for (const QString& file : test::sampleFiles()) {
            const auto read = io::readScenarioFile(file, test::bundledCatalog());
            QVERIFY2(read.ok(), qPrintable(file));
            for (std::optional<PlacementPolicy> policy :
                 {std::optional<PlacementPolicy>{}, std::optional{PlacementPolicy::FirstFit},
                  std::optional{PlacementPolicy::BestFit}, std::optional{PlacementPolicy::TopologyAware},
                  std::optional{PlacementPolicy::FragmentationAware}}) {
                const Evaluation ev = evaluate(*read.value, test::bundledCatalog(), policy);
                const QString fails = addsUp(ev);
                QVERIFY2(fails.isEmpty(), qPrintable(QFileInfo(file).fileName() + ": " + fails));
                ++checked;
            }
        }
        QCOMPARE(checked, 5 * static_cast<int>(test::sampleFiles().size()));
    }

    void everySweepPointAddsUp()
    {
        // Cluster size × sharing over sample 01: whole GPUs, time-slicing, MIG with a remainder,
        // MPS, on two sizes.
        QTemporaryDir tmp;
        const QByteArray spec =
            "{\"base\": \"" +
            QDir(test::dataDir()).absoluteFilePath("samples/01-dgx-h100-three-tenants.json").toUtf8() +
            "\", \"trials\": 0, \"axes\": [{\"axis\": \"nodes\", \"values\": [4, 6]},"
            " {\"axis\": \"sharing\", \"values\": [\"exclusive\", {\"mode\": \"time_slicing\", \"replicas\": 4},"
            " {\"mode\": \"mig\", \"mig\": [{\"profile\": \"3g.40gb\", \"start\": 0}, {\"profile\": \"3g.40gb\", "
            "\"start\": 4}]}, {\"mode\": \"mps\", \"mps\": {\"active_thread_pct\": 25}}]}]}";
        const Result<study::SweepSpec> r = study::readSweepSpec(spec, tmp.path());
        QVERIFY2(r.ok(), r.errorText().c_str());
        const Result<study::SweepInputs> in = study::loadSweepInputs(*r, test::bundledCatalog());
        QVERIFY2(in.ok(), in.errorText().c_str());
        int checked = 0;
        for (long long i = 0; i < r->points(); ++i) {
            const Result<Scenario> point = study::sweepPointScenario(*in->base, test::bundledCatalog(), *r, i);
            QVERIFY2(point.ok(), point.errorText().c_str());
            const Evaluation ev = evaluate(*point, test::bundledCatalog());
            const QString fails = addsUp(ev);
            QVERIFY2(fails.isEmpty(), qPrintable(QString("point %1: %2").arg(i).arg(fails)));
            ++checked;
        }
        QCOMPARE(checked, 8);
    }

    void generatedClustersAddUp()
    {
        // The benchmark generator's random clusters: bare metal, MIG (3g + 2g + 1g, no remainder),
        // time-slicing ×4 and MPS nodes, four to twenty-odd nodes, under every policy.
        int overhead = 0;
        for (unsigned seed = 1; seed <= (test::kSanitized ? 4u : 12u); ++seed) {
            const int nodes = 4 + static_cast<int>(seed * 7 % 20);
            const Scenario s = bench::generateCluster(test::bundledCatalog(), nodes, 2 + static_cast<int>(seed % 4),
                                                      3 + static_cast<int>(seed % 6), seed);
            for (PlacementPolicy policy : {PlacementPolicy::FirstFit, PlacementPolicy::BestFit,
                                           PlacementPolicy::TopologyAware, PlacementPolicy::FragmentationAware}) {
                const Evaluation ev = evaluate(s, test::bundledCatalog(), policy);
                const QString fails = addsUp(ev);
                QVERIFY2(fails.isEmpty(), qPrintable(QString("seed %1, %2: %3")
                                                         .arg(seed)
                                                         .arg(QString::fromStdString(std::string(enumName(policy))))
                                                         .arg(fails)));
                overhead += ev.kpis.costBreakdown.overheadUsd > 0 ? 1 : 0;
            }
        }
        QVERIFY(overhead > 0); // the plans share GPUs, so the check covers the overhead part
    }
};

QTEST_GUILESS_MAIN(TestCostBreakdown)
#include "tst_costbreakdown.moc"
