// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
// evaluate(): placement, sharing penalties, out-of-memory risk, cost and KPIs on small
// scenarios built for the purpose, and the samples' sanity.
#include "calc/alternatives.h"
#include "calc/evaluate.h"
#include "calc/inventory.h"
#include "calc/slots.h"
#include "io/scenarioreader.h"
#include "model/enumnames.h"
#include "model/units.h"
#include "model/validation.h"
#include "testsupport.h"

#include <QSignalSpy>
#include <QTest>

using namespace gp;
using namespace gp::calc;

namespace {

SharingConfig mode(SharingMode m)
{
    SharingConfig c;
    c.mode = m;
    return c;
}

SharingConfig migLayout(std::vector<MigInstance> instances)
{
    SharingConfig c = mode(SharingMode::Mig);
    c.migInstances = std::move(instances);
    return c;
}

Scenario cluster(int nodes, const std::string& templateId, const SharingConfig& sharing)
{
    return test::templateCluster(test::bundledCatalog(), templateId, nodes, sharing);
}

Job job(const std::string& id, JobKind kind, const std::string& preset, int tp = 1, int dp = 1)
{
    Job j;
    j.id = id;
    j.name = id;
    j.kind = kind;
    j.model.preset = preset;
    j.parallelism.tp = tp;
    j.parallelism.dp = dp;
    j.parallelism.recompute = kind == JobKind::Inference ? Recompute::None : Recompute::Full;
    j.batch = {1, dp};
    if (kind == JobKind::Inference)
        j.inference = InferenceSpec{5, 2048, 128, 8};
    else
        j.training = TrainingSpec{1e9, 60};
    if (kind == JobKind::Lora || kind == JobKind::Qlora)
        j.lora = LoraSpec{16, 32};
    return j;
}

void addTenant(Scenario& s, const std::string& id, std::vector<Job> jobs, int priority = 0)
{
    Tenant t;
    t.id = id;
    t.name = id;
    t.priority = priority;
    t.jobs = std::move(jobs);
    s.tenants.push_back(t);
}

Evaluation run(const Scenario& s, std::optional<PlacementPolicy> policy = {})
{
    const Issues issues = validateScenario(s, test::bundledCatalog());
    for (const auto& i : issues)
        if (i.isError())
            qFatal("test scenario invalid: %s", i.toString().c_str());
    return evaluate(s, test::bundledCatalog(), policy);
}

const JobResult& find(const Evaluation& ev, const std::string& id)
{
    for (const auto& j : ev.jobs)
        if (j.id == id)
            return j;
    qFatal("no job %s", id.c_str());
}

/// On a temporary evaluation: a copy, so that `const JobResult& j = find(run(s), ...)` keeps
/// a live object (a reference into the temporary dangled; AddressSanitizer found it).
JobResult find(Evaluation&& ev, const std::string& id) { return find(static_cast<const Evaluation&>(ev), id); }

Scenario loadSample(const QString& name)
{
    return *io::readScenarioFile(QDir(test::dataDir()).absoluteFilePath("samples/" + name), test::bundledCatalog())
                .value;
}

} // namespace

class TestEvaluate : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void bareMetalShowsNoPenalty()
    {
        const Evaluation ev = run(loadSample("03-fabric-64-node-infiniband.json"));
        QCOMPARE(ev.kpis.unplacedJobs, 0);
        for (const auto& j : ev.jobs) {
            QVERIFY(j.placed);
            QCOMPARE(j.penalty, 0.0);
            // Between what published large runs reach and the H100's GEMM ceiling (80.1 %).
            QVERIFY2(j.perf.mfu > 0.3 && j.perf.mfu < 0.801, qPrintable(QString::number(j.perf.mfu)));
        }
        QCOMPARE(ev.kpis.meanPenalty, 0.0);
        QCOMPARE(ev.kpis.allocationRatio, 1.0); // 256 + 256 GPUs of 512
        int busy = 0;
        for (const auto& l : ev.links) {
            QVERIFY(l.utilization >= 0 && l.utilization < 1);
            busy += l.loadGbps > 0 ? 1 : 0;
        }
        QVERIFY(busy > 0); // multi-node data parallelism crosses the fabric
    }

    void timeSlicingReportsOutOfMemoryRisk()
    {
        Scenario s = cluster(1, "pcie-l40s-8", [] {
            SharingConfig c = mode(SharingMode::TimeSlicing);
            c.replicas = 4;
            return c;
        }());
        addTenant(s, "t", {job("serve", JobKind::Inference, "llama2-7b", 1, 32)});
        const Evaluation ev = run(s);
        const JobResult& j = find(ev, "serve");
        QVERIFY(j.placed);
        QVERIFY(j.memory.totalBytes() > 45 * kGiB / 4); // four replicas of it exceed an L40S
        QVERIFY(j.oomRisk);
        QCOMPARE(ev.kpis.oomRiskGpus, 8);
        // Two replicas per GPU fit: no risk.
        s.topology.nodes[0].sharing.replicas = 2;
        s.tenants[0].jobs[0].parallelism.dp = 16;
        s.tenants[0].jobs[0].batch.global = 16;
        const Evaluation ok = run(s);
        QVERIFY(!find(ok, "serve").oomRisk);
        QCOMPARE(ok.kpis.oomRiskGpus, 0);
    }

    void migOnlyClusterCannotHostTensorParallelEight()
    {
        Scenario s = cluster(2, "dgx-h100", migLayout({{"3g.40gb", 0}, {"3g.40gb", 4}}));
        addTenant(s, "lab", {job("pretrain", JobKind::Pretraining, "llama3-8b", 8, 1)});
        const Evaluation ev = run(s);
        const JobResult& j = find(ev, "pretrain");
        QVERIFY(!j.placed);
        QVERIFY2(QString::fromStdString(j.reason).contains("NVLink peer access") &&
                     QString::fromStdString(j.reason).contains("MIG instances"),
                 j.reason.c_str());
        QCOMPARE(ev.kpis.unplacedJobs, 1);
        QCOMPARE(ev.kpis.allocationRatio, 0.0);
    }

    void oversizeJobSaysWhatItNeeds()
    {
        Scenario s = cluster(1, "dgx-h100", mode(SharingMode::Exclusive));
        addTenant(s, "lab", {job("big", JobKind::Pretraining, "llama3-70b", 1, 1)});
        const JobResult& j = find(run(s), "big");
        QVERIFY(!j.placed);
        QVERIFY2(QString::fromStdString(j.reason).contains("per GPU; the largest slot holds 79.7 GiB"),
                 j.reason.c_str());
    }

    /// A job that finds every fitting slot taken says how many fit at all: here a second node's
    /// worth of TP=8 groups on a cluster whose 16 whole GPUs hold one group each node.
    void fullClusterSaysHowManySlotsFit()
    {
        Scenario s = cluster(2, "dgx-h100", mode(SharingMode::Exclusive));
        addTenant(s, "lab",
                  {job("first", JobKind::Pretraining, "llama3-8b", 8, 2),
                   job("second", JobKind::Pretraining, "llama3-8b", 8, 1)});
        const Evaluation ev = run(s);
        QVERIFY(find(ev, "first").placed);
        const JobResult& j = find(ev, "second");
        QVERIFY(!j.placed);
        QVERIFY2(QString::fromStdString(j.reason).contains("in TP groups of 8; only 0 could be found free (16 slots "
                                                           "are large enough in all)"),
                 j.reason.c_str());
    }

    /// A tenant's isolation keeps its jobs on shares that give it, under every policy: hardware on
    /// whole GPUs (not time-slicing, not MPS), memory also on MPS clients with a memory limit; where
    /// no share gives it, the job stays unplaced and says which demand binds.
    void isolationKeepsJobsOnSharesThatGiveIt_data()
    {
        QTest::addColumn<int>("policy");
        for (const auto& [policy, name] : EnumNames<PlacementPolicy>::table)
            QTest::newRow(std::string(name).c_str()) << static_cast<int>(policy);
    }
    void isolationKeepsJobsOnSharesThatGiveIt()
    {
        QFETCH(int, policy);
        SharingConfig ts = mode(SharingMode::TimeSlicing);
        ts.replicas = 4;
        SharingConfig mps = mode(SharingMode::Mps);
        mps.mpsActiveThreadPct = 50;
        mps.mpsMemoryLimitGiB = 38;
        Scenario s = cluster(3, "dgx-h100", ts);
        s.topology.nodes[1].sharing = mps;
        s.topology.nodes[2].sharing = mode(SharingMode::Exclusive);
        addTenant(s, "open", {job("open-serve", JobKind::Inference, "llama3-8b", 1, 4)});
        addTenant(s, "bank", {job("bank-serve", JobKind::Inference, "llama3-8b", 1, 4)});
        addTenant(s, "lab", {job("lab-serve", JobKind::Inference, "llama3-8b", 1, 4)});
        s.tenants[1].isolation = Isolation::Hardware;
        s.tenants[2].isolation = Isolation::Memory;
        const Evaluation ev = run(s, static_cast<PlacementPolicy>(policy));
        QVERIFY(find(ev, "open-serve").placed);
        const JobResult& bank = find(ev, "bank-serve");
        QVERIFY2(bank.placed, bank.reason.c_str());
        for (const UnitLocation& u : bank.placement)
            QCOMPARE(u.node, std::string("n2")); // only the bare-metal node is hardware-isolated
        const JobResult& lab = find(ev, "lab-serve");
        QVERIFY2(lab.placed, lab.reason.c_str());
        for (const UnitLocation& u : lab.placement)
            QVERIFY2(u.node != "n0", u.node.c_str()); // never a time-sliced replica

        // Without the bare-metal node, nothing gives hardware isolation: unplaced, and why.
        s.topology.nodes[2].sharing = ts;
        const JobResult& refused = find(run(s, static_cast<PlacementPolicy>(policy)), "bank-serve");
        QVERIFY(!refused.placed);
        QVERIFY2(
            QString::fromStdString(refused.reason)
                .contains("its tenant demands hardware isolation (a whole GPU or a MIG instance); 0 slots give it"),
            refused.reason.c_str());
    }

    void penaltiesFollowTheSharingMode_data()
    {
        QTest::addColumn<int>("row");
        QTest::addColumn<double>("low"); // shared step ÷ bare-metal step − 1: penalty and slice size together
        QTest::addColumn<double>("high");
        QTest::addColumn<double>("penaltyHigh"); // the overhead of sharing alone (issue 36)
        QTest::addColumn<QString>("part");       // the part of penalty_breakdown that must carry it
        QTest::newRow("exclusive") << 0 << 0.0 << 0.0 << 0.0 << "";
        // One GPU, no transfers: the VM's I/O cost has nothing to slow.
        QTest::newRow("passthrough") << 1 << 0.0 << 0.0 << 0.0 << "";
        // 60 of 132 SMs, 4 of 8 memory slices; small GEMMs fill the instance better. On an H100
        // the 3g instance gets more than its 3/7 share: no static loss, the slice is all size.
        QTest::newRow("MIG 3g.40gb") << 2 << 0.9 << 132.0 / 60.0 - 1.0 + 1e-9 << 0.0 << "";
        // A quarter of the turns is its size; the switch on top is the penalty (below).
        QTest::newRow("vGPU fixed share of 4") << 3 << 3.0 << 4.0 << 0.25 << "context_switch";
        // Alone, an MPS client at its 50 % thread limit gets its share as if dedicated.
        QTest::newRow("MPS 50 %, one client") << 4 << 0.3 << 1.0 << 0.0 << "";
    }
    void penaltiesFollowTheSharingMode()
    {
        QFETCH(int, row);
        QFETCH(double, low);
        QFETCH(double, high);
        QFETCH(double, penaltyHigh);
        QFETCH(QString, part);
        SharingConfig configs[5] = {mode(SharingMode::Exclusive), mode(SharingMode::Passthrough),
                                    migLayout({{"3g.40gb", 0}, {"3g.40gb", 4}}), mode(SharingMode::Vgpu),
                                    mode(SharingMode::Mps)};
        configs[3].vgpuProfile = "H100XM-20C";
        configs[3].vgpuScheduler = VgpuScheduler::FixedShare;
        configs[4].mpsActiveThreadPct = 50;
        Scenario s = cluster(1, "dgx-h100", configs[row]);
        addTenant(s, "t", {job("ft", JobKind::Qlora, "llama2-7b")});
        const JobResult& j = find(run(s), "ft");
        QVERIFY2(j.placed, j.reason.c_str());
        const double total = j.perf.stepTimeS / j.bareMetal.stepTimeS - 1.0;
        QVERIFY2(total >= low - 1e-12 && total <= high,
                 qPrintable(QString("%1 not in [%2, %3]").arg(total).arg(low).arg(high)));
        // Penalty and slice size multiply to the slowdown against whole dedicated GPUs.
        QVERIFY(std::abs((1.0 + j.penalty) * (1.0 + j.slowdownVsDedicated) - (1.0 + total)) <= 1e-9 * (1.0 + total));
        QVERIFY2(j.penalty >= 0.0 && j.penalty <= penaltyHigh + 1e-12, qPrintable(QString::number(j.penalty)));
        QVERIFY(std::abs(j.penaltyBreakdown.total() - j.penalty) <= 1e-9 * std::max(1.0, j.penalty));
        for (const PenaltyPart& p : penaltyParts())
            if (part == p.key)
                QVERIFY2(j.penaltyBreakdown.*p.value > 0, p.key);
        QVERIFY(j.noisiestNeighbour.empty()); // alone on its GPU
        if (row == 3) {
            // Linear: 4 turns of (compute ÷ 0.95 + memory ÷ (1 − 0.184) + network × 1.06) against 4
            // turns as if dedicated: the switch and the VM's I/O, within 2 points.
            const ResourceMix& m = j.bareMetal.mix;
            const double linear = (m.compute + m.other) / 0.95 + m.memory / (1.0 - 0.184) + m.network * 1.06 - 1.0;
            QVERIFY2(std::abs(j.penalty - linear) <= 0.02, qPrintable(QString("%1 vs %2").arg(j.penalty).arg(linear)));
            QVERIFY(j.slowdownVsDedicated > 2.5);
        }
    }

    /// Two tenants time-slicing one GPU: each a turn of two, less the switch, and each the
    /// other's noisiest neighbour.
    void timeSlicedCoTenantsShareTheGpu()
    {
        SharingConfig ts = mode(SharingMode::TimeSlicing);
        ts.replicas = 2;
        Scenario s = cluster(1, "pcie-l40s-8", ts);
        addTenant(s, "a", {job("one", JobKind::Qlora, "llama2-7b")});
        addTenant(s, "b", {job("two", JobKind::Qlora, "llama2-7b")});
        const Evaluation ev = run(s, PlacementPolicy::FirstFit);
        const JobResult& a = find(ev, "one");
        const JobResult& b = find(ev, "two");
        QCOMPARE(a.placement[0].gpu, b.placement[0].gpu); // first fit packs both on GPU 0
        // Half the turns is the size of a replica of two; the switch and the cache refill on top
        // are the penalty.
        const ResourceMix& m = a.bareMetal.mix;
        const double linear = (m.compute + m.other) / 0.95 + m.memory / (1.0 - 0.184) + m.network - 1.0;
        QVERIFY2(std::abs(a.penalty - linear) <= 0.02 && std::abs(b.penalty - a.penalty) < 1e-12,
                 qPrintable(QString("%1, %2 vs %3").arg(a.penalty).arg(b.penalty).arg(linear)));
        QVERIFY2(std::abs(a.slowdownVsDedicated - 1.0) <= 0.05, qPrintable(QString::number(a.slowdownVsDedicated)));
        QCOMPARE(a.noisiestNeighbour, std::string("two"));
        QCOMPARE(b.noisiestNeighbour, std::string("one"));
        QVERIFY(a.idleCotenantsFactor < 0.6); // with the other idle, it has the GPU to itself
        // Alone, the same job pays nothing.
        Scenario one = cluster(1, "pcie-l40s-8", ts);
        addTenant(one, "a", {job("one", JobKind::Qlora, "llama2-7b")});
        QCOMPARE(find(run(one), "one").penalty, 0.0);
    }

    void bestFitTakesTheSmallestSlotThatFits()
    {
        Scenario s = cluster(1, "dgx-h100", migLayout({{"4g.40gb", 0}, {"2g.20gb", 4}, {"1g.10gb", 6}}));
        addTenant(s, "t", {job("ft", JobKind::Qlora, "llama2-7b")});
        QCOMPARE(find(run(s, PlacementPolicy::FirstFit), "ft").placement[0].slot, std::string("4g.40gb@0"));
        const JobResult& j = find(run(s, PlacementPolicy::BestFit), "ft");
        QVERIFY(j.memory.totalBytes() < 9.75 * kGiB); // a 7B QLoRA with full recomputation fits 1g.10gb
        QCOMPARE(j.placement[0].slot, std::string("1g.10gb@6"));
    }

    /// Weng et al. 2023: placing a small task where it least reduces what the rest of the
    /// workload can still use. First fit spends a large MIG instance on a small job and
    /// strands the big one; fragmentation-aware placement uses a small instance.
    void fragmentationAwareKeepsLargeSlotsForLargeJobs()
    {
        Scenario s = cluster(2, "dgx-h100", migLayout({{"3g.40gb", 0}, {"3g.40gb", 4}}));
        for (int g = 0; g < 8; ++g)
            s.topology.nodes[1].gpuSharing[g] = migLayout({{"1g.10gb", 0},
                                                           {"1g.10gb", 1},
                                                           {"1g.10gb", 2},
                                                           {"1g.10gb", 3},
                                                           {"1g.10gb", 4},
                                                           {"1g.10gb", 5},
                                                           {"1g.10gb", 6}});
        Job small = job("small", JobKind::Inference, "llama2-7b", 1, 1);
        small.precision = Precision::Int4;
        small.inference = InferenceSpec{1, 1024, 64, 1};
        Job big = job("big", JobKind::Inference, "llama2-13b", 1, 16); // one 3g.40gb per replica
        addTenant(s, "first", {small}, 10);                            // placed first
        addTenant(s, "second", {big});
        QVERIFY(find(run(s, PlacementPolicy::FragmentationAware), "small").placement[0].slot.rfind("1g.10gb", 0) == 0);
        const Evaluation fgd = run(s, PlacementPolicy::FragmentationAware);
        QCOMPARE(fgd.kpis.unplacedJobs, 0);
        const Evaluation ff = run(s, PlacementPolicy::FirstFit);
        QVERIFY(!find(ff, "big").placed);
    }

    void ownershipCostAndWasteAddUp()
    {
        Scenario s = cluster(2, "dgx-h100", mode(SharingMode::Exclusive));
        s.pricing.ownership = Ownership{30000.0, 4.0, 1.3, 0.10};
        addTenant(s, "t", {job("ft", JobKind::Qlora, "llama2-7b", 1, 4)});
        const Evaluation ev = run(s);
        const double hourly = 30000.0 / (4 * 8760) + 0.7 * 1.3 * 0.10; // capex + TDP x PUE x $/kWh
        QVERIFY(qAbs(ev.kpis.costPerMonthUsd - 16 * hourly * 730) < 1e-6);
        QVERIFY(qAbs(ev.kpis.costBreakdown.idleUsd - 12 * hourly * 730) < 1e-6); // the 12 GPUs no job holds
        const JobResult& j = find(ev, "ft");
        QVERIFY(qAbs(j.costPerMonthUsd - 4 * hourly * 730) < 1e-6);
        QVERIFY(qAbs(*j.costUsd - *j.perf.daysToComplete * 24 * 4 * hourly) < 1e-6);
        // A 7B QLoRA leaves most of each of its whole GPUs' memory unused: headroom in bytes, not
        // dollars (issue 36, item 2); its GPUs are held whole, so nothing is stranded.
        QCOMPARE(ev.kpis.costBreakdown.strandedUsd, 0.0);
        QVERIFY(ev.kpis.unusedMemoryBytes > 4 * 60 * kGiB);
        QVERIFY(ev.kpis.unusedMemoryFraction() > 0.7 && ev.kpis.unusedMemoryFraction() < 1.0);
        QVERIFY(qAbs(ev.kpis.costBreakdown.usefulUsd + ev.kpis.costBreakdown.overheadUsd - j.costPerMonthUsd) < 1e-6);
        QVERIFY(qAbs(ev.kpis.costBreakdown.total() - ev.kpis.costPerMonthUsd) < 1e-6);
        QCOMPARE(ev.tenantCostPerMonthUsd.front().second, j.costPerMonthUsd);
        QCOMPARE(ev.kpis.allocationRatio, 4.0 / 16.0);
        QCOMPARE(ev.kpis.meetsTarget, ev.kpis.vramUtilization >= 0.8 && ev.kpis.meanPenalty < 0.03);
    }

    void overheadWasteAndExtraDaysComeFromThePenalty()
    {
        SharingConfig quarter = mode(SharingMode::Vgpu); // a quarter of the turns, less the switch
        quarter.vgpuProfile = "H100XM-20C";
        quarter.vgpuScheduler = VgpuScheduler::FixedShare;
        Scenario s = cluster(1, "dgx-h100", quarter);
        addTenant(s, "t", {job("ft", JobKind::Qlora, "llama2-7b")});
        const Evaluation ev = run(s);
        const JobResult& j = find(ev, "ft");
        QVERIFY(j.penalty > 0.05);
        // The days the penalty adds, not the quarter GPU's: days × penalty ÷ (1 + penalty).
        QVERIFY(qAbs(*j.extraDays - *j.perf.daysToComplete * j.penalty / (1.0 + j.penalty)) < 1e-9);
        QVERIFY(*j.extraDays < *j.perf.daysToComplete - *j.bareMetal.daysToComplete);
        QVERIFY(qAbs(ev.kpis.costBreakdown.overheadUsd - j.costPerMonthUsd * j.penalty / (1.0 + j.penalty)) < 1e-9);
        QVERIFY(qAbs(j.overheadPerMonthUsd - ev.kpis.costBreakdown.overheadUsd) < 1e-9);
    }

    void migFragmentationCountsUnusableSlices()
    {
        // 4g.40gb + 2g.20gb leave slices 6-7 free; no profile of the scenario (4g, 2g) fits there.
        Scenario s = cluster(1, "dgx-h100", migLayout({{"4g.40gb", 0}, {"2g.20gb", 4}}));
        QCOMPARE(run(s).kpis.migUnusableSlices, 8 * 2);
        s.topology.nodes[0].gpuSharing[0] = migLayout({{"4g.40gb", 0}, {"2g.20gb", 4}, {"1g.10gb", 6}});
        // Now 1g.10gb is one of the scenario's profiles and fits the other GPUs' free slices;
        // only GPU 0's last slice (7) is left, where no profile may start.
        QCOMPARE(run(s).kpis.migUnusableSlices, 1);
    }

    void timeSlicedGpusFillOnlyAsFarAsTheirMemoryHolds()
    {
        // One DGX H100, every GPU time-sliced 8 ways, Llama 3 8B services of about 22 GiB.
        SharingConfig ts = mode(SharingMode::TimeSlicing);
        ts.replicas = 8;
        auto services = [](int n) {
            std::vector<Job> jobs;
            for (int i = 0; i < n; ++i)
                jobs.push_back(job("serve" + std::to_string(i), JobKind::Inference, "llama3-8b"));
            return jobs;
        };
        for (PlacementPolicy policy : {PlacementPolicy::FirstFit, PlacementPolicy::BestFit,
                                       PlacementPolicy::TopologyAware, PlacementPolicy::FragmentationAware}) {
            Scenario s = cluster(1, "dgx-h100", ts);
            addTenant(s, "svc", services(8));
            const Evaluation ev = run(s, policy);
            // Eight services fit without overcommitting any GPU's 79.6 GiB: no GPU at risk.
            QCOMPARE(ev.kpis.unplacedJobs, 0);
            QCOMPARE(ev.kpis.oomRiskGpus, 0);
            double most = 0;
            for (const GpuResult& g : ev.gpus)
                most = std::max(most, g.usedBytes);
            QVERIFY2(most <= ev.gpus.front().capacityBytes, enumName(policy).data());
        }
        // Forty do not fit in memory: the rest still go where slots are free, flagged at risk.
        Scenario crowded = cluster(1, "dgx-h100", ts);
        addTenant(crowded, "svc", services(40));
        const Evaluation ev = run(crowded);
        QCOMPARE(ev.kpis.unplacedJobs, 0);
        QVERIFY(ev.kpis.oomRiskGpus > 0);
    }

    void sharingAlternativesCoverEveryMode()
    {
        // Seven small inference services on one DGX H100 under bare metal: seven whole GPUs.
        Scenario s = cluster(1, "dgx-h100", mode(SharingMode::Exclusive));
        std::vector<Job> jobs;
        for (int i = 0; i < 7; ++i)
            jobs.push_back(job("serve" + std::to_string(i), JobKind::Inference, "llama3-8b"));
        addTenant(s, "svc", jobs);
        const std::vector<SharingAlternative> alts = compareSharing(s, test::bundledCatalog());
        QCOMPARE(alts.size(), std::size_t(6));
        const SharingMode order[] = {SharingMode::Exclusive, SharingMode::Passthrough, SharingMode::Mig,
                                     SharingMode::Vgpu,      SharingMode::TimeSlicing, SharingMode::Mps};
        for (std::size_t i = 0; i < 6; ++i) {
            QCOMPARE(alts[i].mode, order[i]);
            QVERIFY(alts[i].offered);
            QVERIFY(!alts[i].setting.empty());
            QCOMPARE(alts[i].nodesKept, 0);
        }
        const SharingAlternative& bare = alts[0];
        const SharingAlternative& mig = alts[2];
        const SharingAlternative& ts = alts[4];
        // Bare metal is the scenario as it is.
        const Evaluation ev = run(s);
        QCOMPARE(bare.kpis.meanPenalty, 0.0);
        QCOMPARE(bare.kpis.allocationRatio, ev.kpis.allocationRatio);
        QCOMPARE(bare.kpis.costPerMonthUsd, ev.kpis.costPerMonthUsd);
        // MIG packs the seven services into instances: all placed, in less of the node, isolated.
        QCOMPARE(mig.kpis.unplacedJobs, 0);
        QVERIFY2(mig.kpis.allocationRatio < bare.kpis.allocationRatio, mig.setting.c_str());
        QVERIFY(mig.setting.find("7g") == std::string::npos); // a whole-GPU instance packs nothing
        QCOMPARE(mig.kpis.meanPenalty, 0.0); // an instance that gets its share loses nothing to sharing
        QCOMPARE(mig.candidatesTried, static_cast<int>(test::bundledCatalog().gpu("h100-80gb")->migProfiles.size()));
        QCOMPARE(mig.isolation.memory, 2);
        // MIG sets memory aside: instances' usable memory is less than the GPU's (MIG User Guide
        // tables); seven 1g.10gb instances leave the eighth memory slice unused as well.
        QVERIFY2(mig.memoryOverhead > 0.0, mig.setting.c_str());
        {
            const GpuSpec& h100 = *test::bundledCatalog().gpu("h100-80gb");
            std::vector<MigInstance> sevenSmall;
            for (int i = 0; i < 7; ++i)
                sevenSmall.push_back({"1g.10gb", i});
            const Scenario small = cluster(1, "dgx-h100", migLayout(sevenSmall));
            const double offered = offeredMemoryBytes(buildSlots(small, test::bundledCatalog()));
            const double expected = 8 * 7 * h100.migProfile("1g.10gb")->usableGiB * 1024.0 * 1024 * 1024;
            QCOMPARE(offered, expected);
            QVERIFY(offered / (8 * h100.memoryUsableGiB * 1024.0 * 1024 * 1024) < 0.9); // over 10 % set aside
        }
        QCOMPARE(bare.memoryOverhead, 0.0);
        QCOMPARE(alts[1].memoryOverhead, 0.0); // passthrough
        QCOMPARE(ts.memoryOverhead, 0.0);
        // Time-slicing shares engines without isolation and pays for it in penalty; the
        // placement fills each GPU only as far as its memory holds the services (three of
        // about 22 GiB on an 80 GB H100), so none is at risk of running out of memory.
        QVERIFY(ts.kpis.meanPenalty > 0.0); // its context switches; its turns are its size
        QCOMPARE(ts.kpis.unplacedJobs, 0);
        QCOMPARE(ts.kpis.oomRiskGpus, 0);
        QCOMPARE(ts.isolation.memory, 0);
        QCOMPARE(ts.isolation.fault, 0);
        QCOMPARE(ts.candidatesTried, 3);

        // A GPU without MIG: the MIG column is not offered.
        Scenario l40s = cluster(1, "pcie-l40s-8", mode(SharingMode::Exclusive));
        addTenant(l40s, "svc", {job("serve", JobKind::Inference, "llama2-7b")});
        const auto noMig = compareSharing(l40s, test::bundledCatalog());
        QVERIFY(!noMig[2].offered);
        QCOMPARE(noMig[2].candidatesTried, 0);
        QVERIFY(noMig[0].offered);

        // A superseded matrix stops before its first setting.
        const std::atomic<bool> stop{true};
        QVERIFY(compareSharing(s, test::bundledCatalog(), &stop).empty());
    }

    void everySampleEvaluates()
    {
        for (const QString& f : test::sampleFiles()) {
            const Scenario s = *io::readScenarioFile(f, test::bundledCatalog()).value;
            const Evaluation ev = evaluate(s, test::bundledCatalog());
            QVERIFY(ev.kpis.vramUtilization >= 0 && ev.kpis.vramUtilization <= 1);
            QVERIFY(ev.kpis.allocationRatio >= 0 && ev.kpis.allocationRatio <= 1 + 1e-9);
            QVERIFY(ev.kpis.fragmentation >= 0 && ev.kpis.fragmentation <= 1);
            QVERIFY(qAbs(ev.kpis.costPerMonthUsd - takeInventory(s, test::bundledCatalog()).costPerMonthUsd) < 1e-3);
            QCOMPARE(ev.jobs.size(), static_cast<std::size_t>(takeInventory(s, test::bundledCatalog()).jobs));
            for (const auto& j : ev.jobs)
                QVERIFY2(j.placed || !j.reason.empty(), j.id.c_str());
        }
    }
};

QTEST_GUILESS_MAIN(TestEvaluate)
#include "tst_evaluate.moc"
