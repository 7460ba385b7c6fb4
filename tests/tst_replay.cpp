// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
// Trace replay: the fragmentation measure and protocol of Weng et al. (USENIX ATC '23) on
// small hand-made traces, and all six policies on the real Alibaba trace beside the checkout.
#include "io/scenarioreader.h"
#include "io/tracereader.h"
#include "sim/replay.h"
#include "sim/replaysummary.h"
#include "sim/scenariotrace.h"
#include "testsupport.h"

#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

#include <cmath>
#include <map>

using namespace gp;
using namespace gp::sim;

namespace {

QString traceDir() { return qEnvironmentVariable("GPUPLAN_TRACE_DIR"); }

TraceTask task(int milli, int numGpu = 1, int cpu = 1000, long long mem = 1024)
{
    return TraceTask{std::string("task"), cpu, mem, numGpu, numGpu == 0 ? 0 : milli, {}};
}

TraceNode node(int gpus, int cpu = 96000, long long mem = 393216) { return {"n", cpu, mem, gpus, "G2"}; }

QString write(QTemporaryDir& dir, const char* name, const QByteArray& text)
{
    QFile f(dir.filePath(name));
    f.open(QIODevice::WriteOnly);
    f.write(text);
    return f.fileName();
}

} // namespace

class TestReplay : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    /// One GPU, one task type of 600 milli-GPU: the first task takes 60 %; the second (the one
    /// copy that fits under 1.2 × capacity) fails, and the 400 left are fragmented — no task of
    /// the mix can use them (§3 of the paper).
    void fragmentationOfAStrandedShare()
    {
        ReplayConfig cfg;
        cfg.inflate = 1.2;
        for (ReplayPolicy p : {ReplayPolicy::Random, ReplayPolicy::DotProd, ReplayPolicy::Clustering,
                               ReplayPolicy::Packing, ReplayPolicy::BestFit, ReplayPolicy::Fgd}) {
            cfg.policy = p;
            const ReplayResult r = replayTrace({node(1)}, {task(600)}, cfg);
            QCOMPARE(r.tasks, 2);
            QCOMPARE(r.failedTasks, 1);
            QCOMPARE(r.arrivedPct.front(), 0);
            QCOMPARE(r.arrivedPct.back(), 120);
            QCOMPARE(r.allocationPct.back(), 60.0);
            QCOMPARE(r.fragmentationPct.back(), 40.0);
            QCOMPARE(r.fragmentationRatePct.back(), 100.0);
            QCOMPARE(r.fragmentationPct.front(), 0.0); // a free GPU serves the 600 type
        }
    }

    /// A node that cannot run a type at all (too few CPUs) counts all its free GPU capacity
    /// as fragmented for it; one that can, only the GPUs too small for it.
    void nodeThatCannotRunTheTypeIsAllFragment()
    {
        ReplayConfig cfg;
        cfg.inflate = 0.001; // one task, so the start state is what is measured
        const ReplayResult r = replayTrace({node(2, 500)}, {task(1000, 1, 1000)}, cfg);
        QCOMPARE(r.fragmentationPct.front(), 100.0); // 0.5 CPU < 1 CPU asked
        const ReplayResult ok = replayTrace({node(2)}, {task(1000)}, cfg);
        QCOMPARE(ok.fragmentationPct.front(), 0.0);
        // An 8-GPU type cannot run on 2-GPU nodes: every free GPU there is a fragment for it.
        const ReplayResult big = replayTrace({node(2), node(8)}, {task(1000, 8)}, cfg);
        QCOMPARE(big.fragmentationPct.front(), 20.0); // 2 of 10 GPUs
    }

    /// The artifact's measure (pkg/utils/frag.go): a CPU-only task shape counts every free GPU
    /// of a node as fragment for it, so an empty cluster is already fragmented by the CPU-only
    /// share of the typical shapes; memory plays no part.
    void cpuOnlyShapesMakeAnEmptyClusterFragmented()
    {
        ReplayConfig cfg;
        cfg.inflate = 0.001;
        std::vector<TraceTask> tasks(8, task(1000));
        tasks.push_back(task(0, 0));
        tasks.push_back(task(0, 0));
        const ReplayResult r = replayTrace({node(2)}, tasks, cfg);
        QCOMPARE(r.fragmentationPct.front(), 20.0); // two of ten shapes are CPU-only
        // Memory is not in the measure: a node short of memory for the type is not fragmented.
        const ReplayResult mem = replayTrace({node(2, 96000, 512)}, {task(1000, 1, 1000, 4096)}, cfg);
        QCOMPARE(mem.fragmentationPct.front(), 0.0);
    }

    /// Only the typical shapes count: the most frequent ones until they cover 95 % of the tasks
    /// (the artifact's GetTypicalPods at its experiments' threshold), renormalised.
    void rareShapesAreNotTypical()
    {
        ReplayConfig cfg;
        cfg.inflate = 0.001;
        std::vector<TraceTask> tasks(97, task(1000));
        for (int i = 0; i < 3; ++i)
            tasks.push_back(task(1000, 2)); // 3 %: outside the 95 %
        QCOMPARE(replayTrace({node(1)}, tasks, cfg).fragmentationPct.front(), 0.0);
        for (int i = 0; i < 10; ++i)
            tasks.push_back(task(1000, 2)); // 13 of 110: typical now, and a 1-GPU node cannot host it
        QCOMPARE(replayTrace({node(1)}, tasks, cfg).fragmentationPct.front(), 100.0 * 13 / 110);
    }

    /// FGD keeps large holes for large tasks: with one 8-GPU node and one 1-GPU node, a
    /// one-GPU task goes where it fragments least.
    void fgdPlacesSmallTasksInSmallHoles()
    {
        ReplayConfig cfg;
        cfg.policy = ReplayPolicy::Fgd;
        cfg.inflate = 0.001;
        std::vector<TraceTask> mix{task(1000, 8), task(1000, 1)};
        // Draw until one task arrived; whichever it is, the result must not fragment the
        // 8-GPU node when a 1-GPU task could sit on the 1-GPU node.
        const ReplayResult r = replayTrace({node(8), node(1)}, mix, cfg);
        QCOMPARE(r.failedTasks, 0);
        QVERIFY(r.fragmentationPct.back() <= r.fragmentationPct.front() + 1e-9);
    }

    void sameSeedSameResult()
    {
        std::vector<TraceTask> mix{task(300), task(500), task(1000), task(1000, 2), task(0, 0)};
        std::vector<TraceNode> nodes{node(8), node(4), node(2), node(2), node(1)};
        ReplayConfig cfg;
        cfg.policy = ReplayPolicy::Random;
        const ReplayResult a = replayTrace(nodes, mix, cfg);
        const ReplayResult b = replayTrace(nodes, mix, cfg);
        QCOMPARE(a.allocationPct, b.allocationPct);
        QCOMPARE(a.fragmentationPct, b.fragmentationPct);
        QCOMPARE(a.failedTasks, b.failedTasks);
        cfg.seed = 2;
        const ReplayResult c = replayTrace(nodes, mix, cfg);
        QVERIFY(c.allocationPct != a.allocationPct || c.failedTasks != a.failedTasks);
    }

    void badTraceFilesSayWhere()
    {
        QTemporaryDir dir;
        const auto nodes = io::readTraceNodes(write(dir, "n.csv", "sn,cpu_milli,gpu,model\nx,1,1,G2\n"));
        QVERIFY(!nodes);
        QVERIFY2(QString::fromStdString(nodes.issues.back().toString())
                     .endsWith("n.csv: line 1: missing column(s) memory_mib (header: sn,cpu_milli,gpu,model)"),
                 nodes.errorText().c_str());
        const auto tasks = io::readTraceTasks(write(dir, "t.csv",
                                                    "name,cpu_milli,memory_mib,num_gpu,gpu_milli\na,1,1,1,500\n"
                                                    "b,1,1,2,500\nc,1,x,1,100\nd,1\n"));
        QVERIFY(!tasks);
        QStringList all;
        for (const auto& i : tasks.issues)
            all << QString::fromStdString(i.toString());
        const QString text = all.join('\n');
        QVERIFY2(text.contains("line 3, gpu_milli: a multi-GPU task must ask for whole GPUs (1000), not 500"),
                 qPrintable(text));
        QVERIFY2(text.contains("line 4, memory_mib: 'x' is not a whole number"), qPrintable(text));
        QVERIFY2(text.contains("line 5: 2 fields, expected 5"), qPrintable(text));
    }

    /// The real trace: both task-file forms read, and every policy replays the default trace
    /// with capacity conserved (allocation never above 100 % nor falling).
    void allPoliciesReplayTheDefaultTrace()
    {
        if (traceDir().isEmpty() || !QFile::exists(traceDir() + "/openb_pod_list_default.csv"))
            QSKIP("the Alibaba trace is not beside the checkout (../shared/data/traces)");
        auto nodes = io::readTraceNodes(traceDir() + "/openb_node_list_gpu_node.csv");
        auto tasks = io::readTraceTasks(traceDir() + "/openb_pod_list_default.csv");
        auto multi = io::readTraceTasks(traceDir() + "/openb_pod_list_multigpu20.csv");
        QVERIFY(nodes.issues.empty() && tasks.issues.empty() && multi.issues.empty());
        QCOMPARE(nodes->size(), std::size_t(1213));
        QCOMPARE(tasks->size(), std::size_t(8152));
        QCOMPARE(multi->size(), std::size_t(8324));
        int gpus = 0;
        for (const auto& n : *nodes)
            gpus += n.gpus;
        QCOMPARE(gpus, 6212); // the README's count
        for (ReplayPolicy p : {ReplayPolicy::Random, ReplayPolicy::DotProd, ReplayPolicy::Clustering,
                               ReplayPolicy::Packing, ReplayPolicy::BestFit, ReplayPolicy::Fgd}) {
            ReplayConfig cfg;
            cfg.policy = p;
            const ReplayResult r = replayTrace(*nodes, *tasks, cfg);
            QCOMPARE(r.arrivedPct.size(), std::size_t(131));
            QCOMPARE(r.arrivedPct.back(), 130);
            double last = 0;
            for (double a : r.allocationPct) {
                QVERIFY(a <= 100.0 + 1e-9 && a >= last - 1e-9);
                last = a;
            }
            QVERIFY(r.failedTasks > 0 && r.failedTasks < r.tasks);
            for (std::size_t i = 0; i < r.arrivedPct.size(); ++i)
                QVERIFY(r.fragmentationPct[i] <= 100.0 - r.allocationPct[i] + 1e-9); // fragments are free capacity
        }
    }

    /// --seeds A-B: one replay per seed, summarised per arrived step; the summary does not
    /// depend on how many threads ran it; reversed, huge or malformed ranges are refused.
    void seedRangesAreSummarisedTheSameOnAnyNumberOfThreads()
    {
        SeedRange range;
        QCOMPARE(parseSeedRange("42-51", range), std::string());
        QCOMPARE(range.count(), std::size_t(10));
        QCOMPARE(parseSeedRange("7", range), std::string());
        QCOMPARE(range.count(), std::size_t(1));
        for (const char* bad : {"51-42", "1-5000", "a-3", "-3", "4-", "", "1-2-3"})
            QVERIFY2(!parseSeedRange(bad, range).empty(), bad);
        QVERIFY(parseSeedRange("51-42", range).find("reversed") != std::string::npos);
        std::vector<TraceTask> tasks{task(300), task(600), task(1000), task(1000, 2), task(0, 0)};
        std::vector<TraceNode> nodes{node(2), node(4), node(8, 8000)};
        ReplayConfig cfg;
        cfg.policy = ReplayPolicy::Fgd;
        parseSeedRange("1-6", range);
        const ReplaySummary one = replaySeeds(nodes, tasks, cfg, range, 1);
        const ReplaySummary two = replaySeeds(nodes, tasks, cfg, range, 2);
        QCOMPARE(one.allocationPct.mean, two.allocationPct.mean);
        QCOMPARE(one.fragmentationPct.sd, two.fragmentationPct.sd);
        QCOMPARE(one.arrivedPct.front(), 0);
        // The mean is the mean of the single replays.
        double sum = 0.0;
        for (std::uint64_t seed = 1; seed <= 6; ++seed) {
            cfg.seed = seed;
            sum += replayTrace(nodes, tasks, cfg).allocationPct[one.arrivedPct.size() - 1];
        }
        QVERIFY(std::abs(one.allocationPct.mean.back() - sum / 6.0) < 1e-9);
    }

    /// A scenario as a trace (replay --scenario): its nodes with their GPUs, each job a task of
    /// the GPU share its memory needs, or of its whole GPUs in node-sized tasks.
    void aScenarioReplaysItsOwnMix()
    {
        const Scenario s = *io::readScenarioFile(test::sampleFiles().at(1), test::bundledCatalog()).value; // mixed lab
        const sim::ScenarioTrace t = sim::traceOfScenario(s, test::bundledCatalog());
        QCOMPARE(t.nodes.size(), s.topology.nodes.size());
        QCOMPARE(t.nodes.front().gpus, s.topology.nodes.front().gpuCount);
        std::map<std::string, int> gpusOfJob;
        for (const TraceTask& task : t.tasks) {
            QVERIFY(task.numGpu >= 1 && task.gpuMilli >= 1 && task.gpuMilli <= 1000);
            QVERIFY(task.numGpu <= 8);
            gpusOfJob[task.name] += task.numGpu == 1 ? 1 : task.numGpu;
            if (task.numGpu > 1)
                QCOMPARE(task.gpuMilli, 1000);
        }
        for (const Tenant& tenant : s.tenants)
            for (const Job& j : tenant.jobs)
                QCOMPARE(gpusOfJob[j.id], std::max(j.parallelism.gpus(), 1));
        // A one-GPU job of a 7B model asks for part of a GPU.
        bool share = false;
        for (const TraceTask& task : t.tasks)
            share = share || task.sharing();
        QVERIFY(share);
        ReplayConfig cfg;
        const ReplayResult r = replayTrace(t.nodes, t.tasks, cfg);
        QVERIFY(r.tasks >= static_cast<int>(t.tasks.size()));
    }

    /// The published results: the artifact's own expected results for the default trace
    /// (hkust-adsl/kubernetes-scheduler-simulator, experiments/analysis/expected_results/
    /// analysis_allo_discrete.csv and analysis_frag_discrete.csv, seeds 42–51, tune 1.3: the mean
    /// over the ten seeds, copied here). The replay, with seeds 42–44, predicts each policy's
    /// allocation at 130 % arrived within 1 point of it, its fragmentation of the empty cluster
    /// within 0.2, the paper's order, and FGD leaving at least 35 % fewer GPUs unallocated than
    /// the packing baselines (the artifact: 42 % and 43 %).
    void reproducesTheArtifactsPublishedResults()
    {
        if (traceDir().isEmpty() || !QFile::exists(traceDir() + "/openb_pod_list_default.csv"))
            QSKIP("the Alibaba trace is not beside the checkout (../shared/data/traces)");
        if (test::kSanitized) // eighteen single-threaded replays: numbers, checked in the main stage
            QSKIP("the published-results comparison runs in the main stage");
        auto nodes = io::readTraceNodes(traceDir() + "/openb_node_list_gpu_node.csv");
        auto tasks = io::readTraceTasks(traceDir() + "/openb_pod_list_default.csv");
        QVERIFY(nodes.issues.empty() && tasks.issues.empty());
        struct Published
        {
            ReplayPolicy policy;
            double allocatedAt130;
        };
        const Published artifact[] = {{ReplayPolicy::Random, 87.47},     {ReplayPolicy::DotProd, 90.85},
                                      {ReplayPolicy::Clustering, 91.88}, {ReplayPolicy::Packing, 92.00},
                                      {ReplayPolicy::BestFit, 93.08},    {ReplayPolicy::Fgd, 95.39}};
        std::map<ReplayPolicy, double> mean;
        for (const Published& pub : artifact) {
            double sum = 0.0;
            for (std::uint64_t seed = 42; seed <= 44; ++seed) {
                ReplayConfig cfg;
                cfg.policy = pub.policy;
                cfg.seed = seed;
                const ReplayResult r = replayTrace(*nodes, *tasks, cfg);
                sum += r.allocationPct.back();
                QVERIFY2(std::abs(r.fragmentationPct.front() - 13.94) < 0.2, // the artifact: 13.88–14.08
                         qPrintable(QString::number(r.fragmentationPct.front())));
            }
            mean[pub.policy] = sum / 3.0;
            QVERIFY2(std::abs(mean[pub.policy] - pub.allocatedAt130) <= 1.0,
                     qPrintable(QString("policy %1: %2 % allocated at 130 %, the artifact %3 %")
                                    .arg(static_cast<int>(pub.policy))
                                    .arg(mean[pub.policy])
                                    .arg(pub.allocatedAt130)));
        }
        QVERIFY(mean[ReplayPolicy::Fgd] > mean[ReplayPolicy::BestFit]);
        QVERIFY(mean[ReplayPolicy::BestFit] > mean[ReplayPolicy::Packing]);
        QVERIFY(mean[ReplayPolicy::BestFit] > mean[ReplayPolicy::Clustering]);
        QVERIFY(std::min(mean[ReplayPolicy::Packing], mean[ReplayPolicy::Clustering]) > mean[ReplayPolicy::Random]);
        QVERIFY(mean[ReplayPolicy::DotProd] > mean[ReplayPolicy::Random]);
        for (ReplayPolicy packing : {ReplayPolicy::Packing, ReplayPolicy::Clustering}) {
            const double reduction = 1.0 - (100.0 - mean[ReplayPolicy::Fgd]) / (100.0 - mean[packing]);
            QVERIFY2(reduction >= 0.35, qPrintable(QString::number(reduction)));
        }
    }
    /// Every variant task file of the artifact (CPU-heavier, more GPU sharing, GPU-model
    /// constraints, more multi-GPU tasks): seeds 42-44 replayed per policy, and every pair of
    /// policies whose artifact means at 130 % arrived are more than a point apart in the
    /// artifact's order (docs/validation.md states this tolerance; nearer pairs may swap).
    void policyOrderOnEveryVariantTrace()
    {
        if (traceDir().isEmpty() || !QFile::exists(traceDir() + "/openb_pod_list_cpu050.csv"))
            QSKIP("the Alibaba trace is not beside the checkout (../shared/data/traces)");
        if (test::kSanitized)
            QSKIP("the published-results comparison runs in the main stage");
        QFile file(test::sourceDir() + "/tests/data/replay/artifact-allocation-130.csv");
        QVERIFY(file.open(QIODevice::ReadOnly));
        std::map<QString, std::map<QString, double>> artifact; // workload -> policy -> mean
        for (const QByteArray& line : file.readAll().split('\n')) {
            const QList<QByteArray> f = line.trimmed().split(',');
            if (f.size() == 3 && !line.startsWith('#') && f[0] != "workload")
                artifact[QString(f[0])][QString(f[1])] = f[2].toDouble();
        }
        QCOMPARE(artifact.size(), std::size_t{17});
        auto nodes = io::readTraceNodes(traceDir() + "/openb_node_list_gpu_node.csv");
        QVERIFY(nodes.issues.empty());
        int pairs = 0;
        for (const auto& [workload, published] : artifact) {
            if (workload == "openb_pod_list_default") // reproducesTheArtifactsPublishedResults
                continue;
            auto tasks = io::readTraceTasks(traceDir() + "/" + workload + ".csv");
            QVERIFY2(tasks.issues.empty(), qPrintable(workload));
            std::map<QString, double> ours;
            for (const ReplayPolicyName& p : kReplayPolicies) {
                ReplayConfig cfg;
                cfg.policy = p.policy;
                const ReplaySummary s = replaySeeds(*nodes, *tasks, cfg, {42, 44}, 2);
                ours[p.label] = s.allocationPct.mean.back();
            }
            for (const auto& [a, pa] : published)
                for (const auto& [b, pb] : published)
                    if (pa - pb > 1.0) {
                        ++pairs;
                        QVERIFY2(ours[a] > ours[b],
                                 qPrintable(QString("%1: %2 %3 % against %4 %5 % (the artifact: %6, %7)")
                                                .arg(workload, a)
                                                .arg(ours[a])
                                                .arg(b)
                                                .arg(ours[b])
                                                .arg(pa)
                                                .arg(pb)));
                    }
        }
        QVERIFY(pairs > 150); // most pairs are checked
    }
};

QTEST_GUILESS_MAIN(TestReplay)
#include "tst_replay.moc"
