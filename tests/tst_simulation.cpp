// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
// The predictability simulation: determinism, isolation, out-of-memory on shared memory,
// link congestion, interruptions, and CPU/CUDA agreement where a GPU exists.
#include "calc/evaluate.h"
#include "io/scenarioreader.h"
#include "model/validation.h"
#include "sim/simbackend.h"
#include "sim/simulation.h"
#include "sim/timeline.h"
#ifdef GPUPLAN_HAVE_CUDA
#include "sim/cuda/simcuda.h"
#endif
#include "bench/scenariogenerator.h"
#include "testsupport.h"

#include <QSignalSpy>

#include <QTest>

using namespace gp;
using namespace gp::sim;

namespace {

SimulationInput oneJob(double computeS, int coTenants)
{
    SimulationInput in;
    SimJob j;
    j.computeS = computeS;
    j.bareStepS = computeS / (1.0 + coTenants);
    j.steps = 86400.0 / computeS; // one day at the assumed (all co-tenants busy) speed
    j.coTenants = coTenants;
    j.idleFactor = 1.0 / (1.0 + coTenants);     // time-slicing: alone it has all the turns
    j.coTenantBusy = coTenants > 0 ? 0.8 : 0.0; // cotenant_busy_fraction's default
    j.gpus = 8;
    j.checkpointS = 3600;
    in.jobs.push_back(j);
    in.jobIds.push_back("j");
    in.jobTenants.push_back("t");
    in.params.interruptionsPerGpuS = 0;
    return in;
}

Percentiles completion(const SimulationInput& in, int trials = 2000, std::uint64_t seed = 1)
{
    TrialOutputs out;
    runTrialsCpu(in, seed, trials, out);
    std::vector<double> d(out.completionDays.begin(), out.completionDays.end());
    std::sort(d.begin(), d.end());
    return {d[d.size() * 5 / 100], d[d.size() / 2], d[d.size() * 95 / 100], d[d.size() * 99 / 100]};
}

} // namespace

class TestSimulation : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void sameSeedSameOutput()
    {
        const Scenario s = *io::readScenarioFile(test::sampleFiles().first(), test::bundledCatalog()).value;
        const calc::Evaluation ev = calc::evaluate(s, test::bundledCatalog());
        SimulationConfig cfg;
        cfg.backend = Backend::Cpu;
        cfg.trials = 500;
        const SimulationResult a = simulate(s, test::bundledCatalog(), ev, cfg);
        const SimulationResult b = simulate(s, test::bundledCatalog(), ev, cfg);
        QCOMPARE(a.backend, std::string("cpu"));
        QCOMPARE(a.jobs.size(), b.jobs.size());
        for (std::size_t j = 0; j < a.jobs.size(); ++j) {
            QCOMPARE(a.jobs[j].completionDays.p50, b.jobs[j].completionDays.p50);
            QCOMPARE(a.jobs[j].completionDays.p99, b.jobs[j].completionDays.p99);
            QCOMPARE(a.jobs[j].histogram, b.jobs[j].histogram);
        }
        cfg.seed = 2;
        const SimulationResult c = simulate(s, test::bundledCatalog(), ev, cfg);
        bool differs = false;
        for (std::size_t j = 0; j < a.jobs.size(); ++j)
            differs |= a.jobs[j].completionDays.p50 != c.jobs[j].completionDays.p50;
        QVERIFY(differs);
    }

    /// Isolated jobs (exclusive, MIG) vary only by their own jitter; time-shared ones spread
    /// with their co-tenants' bursts.
    void isolationNarrowsTheSpread()
    {
        const Percentiles alone = completion(oneJob(1.0, 0));
        // Only its own run-to-run variation (CV 2 %): P5..P95 spans about 2 x 1.645 x 2 %.
        QVERIFY2((alone.p95 - alone.p5) / alone.p50 < 0.1,
                 qPrintable(QString::number((alone.p95 - alone.p5) / alone.p50)));
        QVERIFY(qAbs(alone.p50 - 1.0) < 0.01);
        const Percentiles shared = completion(oneJob(4.0, 3));
        QVERIFY2((shared.p95 - shared.p5) / shared.p50 > 0.2, "co-tenant bursts spread completion times");
        QVERIFY(shared.p50 < 1.0); // busy less than always: faster than evaluate's worst case
    }

    void jointMemoryPeaksRunOutOfMemory()
    {
        SimulationInput in = oneJob(1.0, 1);
        in.jobs.push_back(in.jobs[0]);
        in.jobIds.push_back("k");
        in.jobTenants.push_back("t");
        in.units = {{0, 30e9, 15e9}, {1, 30e9, 15e9}}; // 60 GB always, 90 GB when both peak together
        in.gpus = {{80e9, 0, 2}};
        TrialOutputs out;
        runTrialsCpu(in, 1, 2000, out);
        const double p = std::count(out.oom.begin(), out.oom.end(), 1) / 2000.0;
        QVERIFY2(p > 0.05 && p < 0.95, qPrintable(QString::number(p)));
        in.gpus = {{100e9, 0, 2}}; // room for both peaks
        runTrialsCpu(in, 1, 2000, out);
        QCOMPARE(std::count(out.oom.begin(), out.oom.end(), 1), 0L);
        // The peak joint use lies between both bases and both peaks together.
        for (double peak : out.peakBytes)
            QVERIFY(peak > 60e9 && peak <= 90e9 + 1);
        // Out-of-memory kills cost restarts: the killed job finishes later on average.
        in.gpus = {{61e9, 0, 2}};
        TrialOutputs killed;
        runTrialsCpu(in, 1, 2000, killed);
        double sumKilled = 0, sumOk = 0;
        for (int t = 0; t < 2000; ++t) {
            sumKilled += killed.completionDays[static_cast<std::size_t>(t) * 2];
            sumOk += out.completionDays[static_cast<std::size_t>(t) * 2];
        }
        QVERIFY(sumKilled > sumOk);
    }

    /// Two all-reduce-heavy jobs on one link congest it; one job on a dedicated link does not.
    void sharedLinkCongests()
    {
        SimulationInput in = oneJob(1.0, 0);
        in.jobs.push_back(in.jobs[0]);
        in.jobIds.push_back("k");
        in.jobTenants.push_back("t");
        for (auto& j : in.jobs)
            j.exposedCommS = 0.5;
        // Link 0 carries both jobs at 300 Gb/s for half their step; link 1 only job 0.
        in.uses = {{0, 300, 0.5}, {1, 300, 0.5}, {0, 300, 0.5}};
        in.links = {{400, 0, 2}, {400, 2, 1}};
        in.linkIds = {"shared", "dedicated"};
        TrialOutputs out;
        runTrialsCpu(in, 1, 2000, out);
        QVERIFY(out.congestedPoints[0] > 0);
        QCOMPARE(out.congestedPoints[1], 0);
        // Overlap of two half-step bursts: congested about a quarter to half of the time.
        const double fraction = out.congestedPoints[0] / (2000.0 * in.params.timePoints);
        QVERIFY2(fraction > 0.1 && fraction < 0.6, qPrintable(QString::number(fraction)));
        // and the jobs on it are slowed
        double slowShared = 0;
        for (double v : out.slowdown)
            slowShared += v;
        QVERIFY(slowShared / out.slowdown.size() > 1.0);
    }

    void interruptionsDelayCompletion()
    {
        SimulationInput in = oneJob(1.0, 0);
        const Percentiles calm = completion(in);
        in.params.interruptionsPerGpuS = 4.74e-4 / 86400 * 1000; // a thousand times Llama 3's rate
        in.params.restartS = 600;
        const Percentiles stormy = completion(in);
        QVERIFY(stormy.p50 > calm.p50 * 1.05);
        QVERIFY(stormy.p99 > stormy.p5);
    }

    /// One 8-GPU node, three 8-GPU jobs of 10 h arriving together: they run one after another.
    void timelineQueuesWhatDoesNotFit()
    {
        Scenario s = *io::readScenarioFile(test::sampleFiles().front(), test::bundledCatalog()).value;
        s.topology.nodes.resize(1);
        s.topology.nodes[0].sharing = SharingConfig{};
        s.topology.nodes[0].gpuSharing.clear();
        s.topology.links.clear();
        s.tenants.resize(1);
        Job job = s.tenants[0].jobs[0];
        job.parallelism = {8, 1, 1, 1, false, true, Recompute::Full};
        job.model.preset = "llama3-8b";
        job.batch = {1, 8};
        job.schedule = {0.0, 10.0};
        s.tenants[0].jobs.clear();
        for (const char* id : {"a", "b", "c"}) {
            job.id = job.name = id;
            s.tenants[0].jobs.push_back(job);
        }
        const calc::Evaluation ev = calc::evaluate(s, test::bundledCatalog());
        TimelineConfig cfg;
        cfg.horizonDays = 2;
        const TimelineResult t = runTimeline(s, test::bundledCatalog(), ev, cfg);
        QCOMPARE(t.started, 3);
        std::vector<double> starts;
        for (const auto& j : t.jobs)
            starts.push_back(*j.startH);
        std::sort(starts.begin(), starts.end());
        QCOMPARE(starts, (std::vector<double>{0.0, 10.0, 20.0}));
        QCOMPARE(t.meanWaitH, 10.0);
        QCOMPARE(t.maxQueued, 2);
        for (const auto& p : t.series) {
            QVERIFY(p.allocation <= 1.0 + 1e-9);
            QVERIFY(p.running <= 1); // never two 8-GPU jobs on 8 GPUs
        }
    }

    /// Small jobs spread over two nodes block an 8-GPU job; defragmentation at a threshold
    /// packs them onto one node, pays restarts, and the large job starts at once.
    void defragmentationStartsTheBlockedJob()
    {
        Scenario s = *io::readScenarioFile(test::sampleFiles().front(), test::bundledCatalog()).value;
        s.topology.nodes.resize(2);
        for (Node& n : s.topology.nodes) {
            n.sharing = SharingConfig{};
            n.gpuSharing.clear();
        }
        s.topology.links.clear();
        s.tenants.resize(2);
        Job small = s.tenants[1].jobs[1]; // the LoRA fine-tune
        small.kind = JobKind::Qlora;
        small.model.preset = "llama2-7b";
        small.parallelism = {1, 1, 1, 0, false, false, Recompute::Full};
        small.batch = {1, 1};
        small.schedule = {0.0, 100.0};
        s.tenants[1].jobs.clear();
        for (int i = 0; i < 8; ++i) {
            small.id = small.name = "small-" + std::to_string(i);
            s.tenants[1].jobs.push_back(small);
        }
        Job big = s.tenants[0].jobs[0];
        big.model.preset = "llama3-8b";
        big.parallelism = {8, 1, 1, 1, false, true, Recompute::Full};
        big.batch = {1, 8};
        big.schedule = {1.0, 10.0};
        big.id = big.name = "big";
        s.tenants[0].jobs = {big};
        s.tenants[0].priority = 0;
        const calc::Evaluation ev = calc::evaluate(s, test::bundledCatalog());
        TimelineConfig cfg;
        cfg.horizonDays = 10;
        const TimelineResult plain = runTimeline(s, test::bundledCatalog(), ev, cfg);
        auto bigOf = [](const TimelineResult& t) {
            for (const auto& j : t.jobs)
                if (j.id == "big")
                    return j;
            return TimelineJob{};
        };
        QVERIFY2(bigOf(plain).startH && *bigOf(plain).startH >= 100.0,
                 "without defragmentation it waits for the small jobs");
        // One task in nine (the big job's group) finds none of the 8 free GPUs usable: 1/9 of
        // them is fragment by the FGD measure, above this threshold.
        cfg.defragThreshold = 0.1;
        const TimelineResult defrag = runTimeline(s, test::bundledCatalog(), ev, cfg);
        QVERIFY(bigOf(defrag).startH && *bigOf(defrag).startH < 2.0);
        QVERIFY(defrag.migrations > 0);
        QVERIFY(defrag.meanWaitH < plain.meanWaitH);
        QVERIFY(defrag.meanAllocation > plain.meanAllocation);
        // Right after the big job arrived, fragmentation is lower with defragmentation.
        auto fragAt = [](const TimelineResult& t, double h) {
            for (const auto& p : t.series)
                if (p.hours >= h)
                    return p.fragmentation;
            return -1.0;
        };
        QVERIFY(fragAt(defrag, 2.0) < fragAt(plain, 2.0));
    }

    /// The timeline skips placing a queue that nothing has changed for since it last failed; it
    /// must give what placing it at every event gives — every sample and every job's start,
    /// end and migrations — on the samples and on generated clusters with a crowded queue,
    /// with and without defragmentation, under every policy.
    void skippedPlacementsChangeNothing()
    {
        std::vector<Scenario> plans;
        for (const QString& f : test::sampleFiles())
            plans.push_back(*io::readScenarioFile(f, test::bundledCatalog()).value);
        for (unsigned seed = 1; seed <= 4; ++seed) {                                      // every policy once
            Scenario g = bench::generateCluster(test::bundledCatalog(), 40, 6, 30, seed); // more jobs than GPUs
            g.placementPolicy = static_cast<PlacementPolicy>(seed % 4);
            for (Tenant& t : g.tenants)
                for (std::size_t j = 0; j < t.jobs.size(); ++j)
                    t.jobs[j].schedule = {static_cast<double>(j % 7) * 5.0, 6.0 + static_cast<double>(j % 5) * 9.0};
            plans.push_back(g);
        }
        int queued = 0, migrations = 0;
        for (const Scenario& s : plans) {
            const calc::Evaluation ev = calc::evaluate(s, test::bundledCatalog());
            for (const std::optional<double> defrag : {std::optional<double>(), std::optional<double>(0.05)}) {
                TimelineConfig fast;
                fast.horizonDays = 10;
                fast.defragThreshold = defrag;
                TimelineConfig reference = fast;
                reference.retryUnchangedQueue = true;
                const TimelineResult a = runTimeline(s, test::bundledCatalog(), ev, fast);
                const TimelineResult b = runTimeline(s, test::bundledCatalog(), ev, reference);
                QCOMPARE(a.series.size(), b.series.size());
                for (std::size_t i = 0; i < a.series.size(); ++i) {
                    QCOMPARE(a.series[i].allocation, b.series[i].allocation);
                    QCOMPARE(a.series[i].fragmentation, b.series[i].fragmentation);
                    QCOMPARE(a.series[i].queued, b.series[i].queued);
                    QCOMPARE(a.series[i].running, b.series[i].running);
                }
                QCOMPARE(a.jobs.size(), b.jobs.size());
                for (std::size_t i = 0; i < a.jobs.size(); ++i) {
                    QCOMPARE(a.jobs[i].startH, b.jobs[i].startH);
                    QCOMPARE(a.jobs[i].endH, b.jobs[i].endH);
                    QCOMPARE(a.jobs[i].migrations, b.jobs[i].migrations);
                }
                QCOMPARE(a.migrations, b.migrations);
                queued = std::max(queued, a.maxQueued);
                migrations += a.migrations;
            }
        }
        QVERIFY2(queued > 10, "some plan keeps a queue waiting (else nothing was skipped)");
        QVERIFY2(migrations > 0, "some plan repacks (the skip is checked after a defragmentation too)");
    }

    /// A tenant submitting copies of a job at 24 a day for 2 days: about 48 arrivals (Poisson),
    /// the same ones for the same seed.
    void generatedArrivals()
    {
        Scenario s = *io::readScenarioFile(test::sampleFiles().front(), test::bundledCatalog()).value;
        ArrivalProcess a;
        a.templateJob = "acme-lora";
        a.jobsPerDay = 24;
        a.durationMedianH = 2;
        a.durationSigma = 0.5;
        s.tenants[1].arrivals = a;
        QVERIFY(!hasErrors(validateScenario(s, test::bundledCatalog())));
        const calc::Evaluation ev = calc::evaluate(s, test::bundledCatalog());
        TimelineConfig cfg;
        cfg.horizonDays = 2;
        const TimelineResult t1 = runTimeline(s, test::bundledCatalog(), ev, cfg);
        const auto generated = std::count_if(t1.jobs.begin(), t1.jobs.end(),
                                             [](const TimelineJob& j) { return j.id.rfind("acme-lora#", 0) == 0; });
        QVERIFY2(generated > 25 && generated < 75, qPrintable(QString::number(generated))); // 48 +- 3.3 sigma
        const TimelineResult t2 = runTimeline(s, test::bundledCatalog(), ev, cfg);
        QCOMPARE(t2.jobs.size(), t1.jobs.size());
        for (std::size_t i = 0; i < t1.jobs.size(); ++i)
            QCOMPARE(t1.jobs[i].arrivalH, t2.jobs[i].arrivalH);
        for (const auto& j : t1.jobs)
            QVERIFY(!j.startH || *j.startH >= j.arrivalH - 1e-9); // nothing starts before it arrives
        // No job is lost: every arrived job either started or is still in the queue.
        const auto waiting = std::count_if(t1.jobs.begin(), t1.jobs.end(), [&](const TimelineJob& j) {
            return !j.startH && j.arrivalH <= cfg.horizonDays * 24.0;
        });
        QCOMPARE(static_cast<int>(waiting), t1.series.back().queued);
        for (const auto& p : t1.series)
            QVERIFY(p.allocation <= 1.0 + 1e-9 && p.vramUtilization <= 1.0 + 1e-9);
        // A template that is not the tenant's job is refused.
        s.tenants[1].arrivals->templateJob = "chat-8b";
        bool found = false;
        for (const auto& i : validateScenario(s, test::bundledCatalog()))
            found |= i.path == "tenants[1].arrivals.template";
        QVERIFY(found);
    }

    void cudaAgreesWithCpu()
    {
        const BackendInfo info = probeBackends();
        if (!info.cudaUsable())
            QSKIP(qPrintable("no CUDA device here (" + QString::fromStdString(info.detail) +
                             "): CPU/CUDA agreement not checked"));
#ifdef GPUPLAN_HAVE_CUDA
        const Scenario s = *io::readScenarioFile(test::sampleFiles().at(1), test::bundledCatalog()).value;
        const calc::Evaluation ev = calc::evaluate(s, test::bundledCatalog());
        const SimulationInput in = buildSimulationInput(s, test::bundledCatalog(), ev);
        TrialOutputs cpu, gpu;
        runTrialsCpu(in, 7, 4096, cpu);
        std::string device, error;
        QVERIFY2(cuda::runTrials({in.view(), static_cast<int>(in.units.size()), static_cast<int>(in.uses.size())}, 7,
                                 4096, gpu, device, error),
                 error.c_str());
        QCOMPARE(gpu.oom, cpu.oom); // identical counts
        for (std::size_t i = 0; i < cpu.peakBytes.size(); ++i)
            QVERIFY(qAbs(gpu.peakBytes[i] - cpu.peakBytes[i]) <= 1e-9 * std::max(1.0, cpu.peakBytes[i]));
        QCOMPARE(gpu.congestedPoints, cpu.congestedPoints);
        QCOMPARE(gpu.histogram, cpu.histogram);
        for (std::size_t i = 0; i < cpu.completionDays.size(); ++i)
            QVERIFY(qAbs(gpu.completionDays[i] - cpu.completionDays[i]) <= 1e-9 * std::max(1.0, cpu.completionDays[i]));
        // Serving requests: the same draws, the same latencies.
        QCOMPARE(gpu.ttft.size(), cpu.ttft.size());
        for (std::size_t i = 0; i < cpu.ttft.size(); ++i) {
            QVERIFY(qAbs(gpu.ttft[i] - cpu.ttft[i]) <= 1e-9 * std::max(1.0, cpu.ttft[i]));
            QVERIFY(qAbs(gpu.itl[i] - cpu.itl[i]) <= 1e-9 * std::max(1.0, cpu.itl[i]));
        }
#endif
    }

    void servingRequestsFollowTheServingModel()
    {
        // The bundled pod's two chat services, fixed lengths (sigma 0): over many trials the
        // requests' mean TTFT and ITL are the serving model's means; spread lengths widen the tail.
        Scenario s = *io::readScenarioFile(test::sampleFiles().first(), test::bundledCatalog()).value;
        s.assumptions["serving_length_sigma"] = 0.0;
        s.assumptions["step_jitter_cv"] = 0.0;
        const calc::Evaluation ev = calc::evaluate(s, test::bundledCatalog());
        SimulationConfig cfg;
        cfg.trials = 20000;
        cfg.backend = Backend::Cpu;
        const SimulationResult fixed = simulate(s, test::bundledCatalog(), ev, cfg);
        const SimulationInput in = buildSimulationInput(s, test::bundledCatalog(), ev);
        TrialOutputs out;
        runTrialsCpu(in, cfg.seed, cfg.trials, out);
        int serving = 0;
        for (std::size_t j = 0; j < in.jobs.size(); ++j) {
            if (!in.jobs[j].serving)
                continue;
            ++serving;
            const auto r = std::find_if(ev.jobs.begin(), ev.jobs.end(),
                                        [&](const calc::JobResult& x) { return x.id == in.jobIds[j]; });
            QVERIFY(r != ev.jobs.end() && r->serving);
            double ttft = 0.0, itl = 0.0;
            for (int t = 0; t < cfg.trials; ++t) {
                ttft += out.ttft[static_cast<std::size_t>(t) * in.jobs.size() + j] / cfg.trials;
                itl += out.itl[static_cast<std::size_t>(t) * in.jobs.size() + j] / cfg.trials;
            }
            QVERIFY2(qAbs(ttft / r->serving->ttftS - 1.0) < 0.05,
                     qPrintable(QString("%1 vs %2").arg(ttft).arg(r->serving->ttftS)));
            QVERIFY2(qAbs(itl / r->serving->itlS - 1.0) < 0.05,
                     qPrintable(QString("%1 vs %2").arg(itl).arg(r->serving->itlS)));
            const JobSimulation& js = fixed.jobs[j];
            QVERIFY(js.serving);
            QVERIFY(js.ttftS.p50 <= js.ttftS.p95 && js.ttftS.p95 <= js.ttftS.p99);
            QVERIFY(js.itlS.p50 <= js.itlS.p95 && js.itlS.p95 <= js.itlS.p99);
        }
        QCOMPARE(serving, 2);
        // Lengths spread: the TTFT tail grows.
        s.assumptions["serving_length_sigma"] = 1.0;
        const SimulationResult spread = simulate(s, test::bundledCatalog(), ev, cfg);
        for (std::size_t j = 0; j < fixed.jobs.size(); ++j)
            if (fixed.jobs[j].serving)
                QVERIFY2(spread.jobs[j].ttftS.p99 > fixed.jobs[j].ttftS.p99,
                         qPrintable(QString("%1 vs %2").arg(spread.jobs[j].ttftS.p99).arg(fixed.jobs[j].ttftS.p99)));
    }

    void missingAnObjectiveIsCountedPerRequest()
    {
        Scenario s = *io::readScenarioFile(test::sampleFiles().first(), test::bundledCatalog()).value;
        const calc::Evaluation ev0 = calc::evaluate(s, test::bundledCatalog());
        SimulationConfig cfg;
        cfg.trials = 4000;
        cfg.backend = Backend::Cpu;
        const SimulationResult base = simulate(s, test::bundledCatalog(), ev0, cfg);
        const auto chat =
            std::find_if(base.jobs.begin(), base.jobs.end(), [](const JobSimulation& j) { return j.id == "chat-70b"; });
        QVERIFY(chat != base.jobs.end() && chat->serving);
        // An objective at the TTFT median: about half the requests miss it.
        for (Tenant& t : s.tenants)
            if (t.id == chat->tenant) {
                t.sla.ttftP99Ms = chat->ttftS.p50 * 1e3;
                t.sla.itlP99Ms = 1e6;
            }
        const calc::Evaluation ev = calc::evaluate(s, test::bundledCatalog());
        const SimulationResult tight = simulate(s, test::bundledCatalog(), ev, cfg);
        const auto c = std::find_if(tight.jobs.begin(), tight.jobs.end(),
                                    [](const JobSimulation& j) { return j.id == "chat-70b"; });
        QVERIFY2(c->ttftSloMissProbability > 0.4 && c->ttftSloMissProbability < 0.6,
                 qPrintable(QString::number(c->ttftSloMissProbability)));
        QCOMPARE(c->itlSloMissProbability, 0.0);
        QCOMPARE(c->sloMissProbability, c->ttftSloMissProbability);
    }
};

QTEST_GUILESS_MAIN(TestSimulation)
#include "tst_simulation.moc"
