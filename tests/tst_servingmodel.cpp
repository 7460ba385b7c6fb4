// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
// The serving model's behaviours, each on its own: the KV cache caps the batch and the rest
// queue, an open load past capacity saturates, chunked prefill shortens the token-gap tail,
// a MIG instance's SMs slow prefill and its memory slices slow decode, replicas add up, and
// objectives turn into attainment.
#include "calc/evaluate.h"
#include "calc/kpiregistry.h"
#include "calc/servingmodel.h"
#include "io/scenarioreader.h"
#include "model/units.h"
#include "testsupport.h"

#include <QSignalSpy>
#include <QTest>

#include <cmath>

using namespace gp;
using namespace gp::calc;

namespace {

/// Llama 3 8B in bf16 on one H100 with a 20 GiB KV budget, 1,000-token prompts, 200 outputs.
ServingInputs llama8b(ServingLoad load, int concurrency, double rate = 0.0)
{
    ServingInputs in;
    in.arch = test::bundledCatalog().model("llama3-8b")->arch;
    in.gpu = test::bundledCatalog().gpu("h100-80gb");
    in.job.kind = JobKind::Inference;
    in.job.precision = Precision::Bf16;
    InferenceSpec spec;
    spec.load = load;
    spec.inputTokens = 1000;
    spec.outputTokens = 200;
    spec.contextTokens = 1200;
    spec.concurrency = concurrency;
    spec.requestsPerS = rate;
    in.job.inference = spec;
    in.placement.kvBudgetBytesPerGpu = 20 * kGiB;
    return in;
}

} // namespace

class TestServingModel : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void kvBytesFollowGqaAndPrecision()
    {
        Job job;
        job.kind = JobKind::Inference;
        job.precision = Precision::Bf16;
        const ModelArchitecture a = test::bundledCatalog().model("llama3-8b")->arch;
        // 32 blocks x K and V x 8 KV heads x 128 dims x 2 bytes.
        QCOMPARE(kvBytesPerTokenPerGpu(a, job), 32.0 * 2 * 8 * 128 * 2);
        job.precision = Precision::Fp8;
        QCOMPARE(kvBytesPerTokenPerGpu(a, job), 32.0 * 2 * 8 * 128);
        job.parallelism.tp = 2;
        QCOMPARE(kvBytesPerTokenPerGpu(a, job), 32.0 * 2 * 4 * 128);
    }

    void pagesRoundEachSequenceUp()
    {
        // 1,000 tokens in pages of 16 hold 63 pages = 1,008 tokens.
        QCOMPARE(sequencesThatFit(1008.0 * 10, 1.0, 1000, 16), 10);
        QCOMPARE(sequencesThatFit(1008.0 * 10 - 1, 1.0, 1000, 16), 9);
        QCOMPARE(sequencesThatFit(0.0, 1.0, 1000, 16), 0);
        QCOMPARE(sequencesThatFit(-5.0, 1.0, 1000, 16), 0);
    }

    void theKvCacheCapsTheBatchAndTheRestQueue()
    {
        const ServingInputs in = llama8b(ServingLoad::Closed, 1);
        const int fit =
            sequencesThatFit(in.placement.kvBudgetBytesPerGpu, kvBytesPerTokenPerGpu(in.arch, in.job), 1200, 16);
        QVERIFY(fit > 10);
        const ServingResult at = estimateServing(llama8b(ServingLoad::Closed, fit));
        const ServingResult past = estimateServing(llama8b(ServingLoad::Closed, 2 * fit));
        QCOMPARE(at.maxBatch, fit);
        QCOMPARE(at.running, double(fit));
        QCOMPARE(at.queued, 0.0);
        QCOMPARE(past.running, double(fit));
        QCOMPARE(past.queued, double(fit));
        // Past the cap the throughput stays, and each extra user's wait shows in TTFT.
        QVERIFY(std::abs(past.outputTokensPerS / at.outputTokensPerS - 1.0) < 1e-9);
        QVERIFY(past.ttftS > at.ttftS + 0.9 * fit / at.requestsPerS);
        QVERIFY(std::abs(past.itlS - at.itlS) < 1e-12);
    }

    void loadRaisesLatencyAndThroughputUntilTheCap()
    {
        double lastTps = 0.0, lastItl = 0.0;
        for (int c : {1, 4, 16, 64}) {
            const ServingResult r = estimateServing(llama8b(ServingLoad::Closed, c));
            QVERIFY2(r.outputTokensPerS > lastTps, qPrintable(QString::number(c)));
            QVERIFY(r.itlS > lastItl);
            QVERIFY(r.ttftP99S >= r.ttftS);
            QVERIFY(r.itlP99S >= r.itlS);
            lastTps = r.outputTokensPerS;
            lastItl = r.itlS;
        }
    }

    void throughputNeverFallsAsUsersGrow()
    {
        // Long prompts through a small chunk budget: the chunk count per prompt changes with
        // the batch, the prefill work must not.
        ServingInputs in = llama8b(ServingLoad::Closed, 1);
        in.job.inference->inputTokens = 7680;
        in.job.inference->outputTokens = 512;
        in.job.inference->contextTokens = 8192;
        in.engine.tokenBudget = 2048;
        double last = 0.0;
        for (int c = 1; c <= 60; ++c) {
            in.job.inference->concurrency = c;
            const ServingResult r = estimateServing(in);
            QVERIFY2(r.outputTokensPerS >= last * (1 - 1e-9),
                     qPrintable(QString("%1 users: %2 < %3").arg(c).arg(r.outputTokensPerS).arg(last)));
            last = r.outputTokensPerS;
        }
    }

    void anOpenLoadPastCapacitySaturates()
    {
        const ServingResult most = estimateServing(llama8b(ServingLoad::Closed, 1000));
        const ServingResult below = estimateServing(llama8b(ServingLoad::Open, 1000, 0.5 * most.requestsPerS));
        const ServingResult above = estimateServing(llama8b(ServingLoad::Open, 1000, 1.2 * most.requestsPerS));
        QVERIFY(!below.saturated);
        QVERIFY(std::abs(below.requestsPerS / (0.5 * most.requestsPerS) - 1.0) < 1e-9);
        QVERIFY(below.ttftS < 10.0);
        QVERIFY(above.saturated);
        QVERIFY(above.ttftS >= 1e29);
        // Issue 36: a saturated service meets no objective, set or not (it used to read 100 %);
        // one without objectives that keeps up has no attainment at all ("n/a"), never 100 %.
        QVERIFY(above.sloJudged);
        QCOMPARE(above.sloAttainment, 0.0);
        QVERIFY(!below.sloJudged);
        QCOMPARE(formatSloAttainment(below), std::string("n/a (no objective)"));
        QCOMPARE(formatSloAttainment(above), std::string("0.0 %"));
        ServingInputs withSlo = llama8b(ServingLoad::Open, 1000, 1.2 * most.requestsPerS);
        withSlo.ttftSloS = 1.0;
        QCOMPARE(estimateServing(withSlo).sloAttainment, 0.0);
        ServingInputs itlOnly = llama8b(ServingLoad::Open, 1000, 1.2 * most.requestsPerS);
        itlOnly.itlSloS = 10.0; // every token gap within it, yet the queue grows without bound
        QCOMPARE(estimateServing(itlOnly).sloAttainment, 0.0);
        // A higher rate below capacity waits longer for its first token.
        const ServingResult busier = estimateServing(llama8b(ServingLoad::Open, 1000, 0.9 * most.requestsPerS));
        QVERIFY(busier.ttftS > below.ttftS);
    }

    void chunkedPrefillShortensTheTokenGapTail()
    {
        ServingInputs chunked = llama8b(ServingLoad::Closed, 32);
        chunked.engine.tokenBudget = 256;
        ServingInputs whole = chunked;
        whole.engine.chunkedPrefill = false;
        const ServingResult c = estimateServing(chunked), w = estimateServing(whole);
        QVERIFY2(c.itlP99S < w.itlP99S, qPrintable(QString("%1 vs %2").arg(c.itlP99S).arg(w.itlP99S)));
        // A whole 1,000-token prompt in one iteration: its gap is that prefill.
        QVERIFY(w.itlP99S > 2.0 * w.decodeIterationS);
    }

    void migSlicesSlowPrefillByTheirSmsAndDecodeByTheirBandwidth()
    {
        const ServingInputs whole = llama8b(ServingLoad::Closed, 1);
        ServingInputs fewSms = whole;
        fewSms.placement.computeShare = 3.0 / 7.0;
        ServingInputs lessBandwidth = whole;
        lessBandwidth.placement.bandwidthShare = 0.5;
        const ServingResult w = estimateServing(whole), s = estimateServing(fewSms), b = estimateServing(lessBandwidth);
        // Prefill of 1,000 tokens is compute-bound; decode of one sequence bandwidth-bound.
        QVERIFY2(s.prefillS > 1.8 * w.prefillS, qPrintable(QString::number(s.prefillS / w.prefillS)));
        QVERIFY(s.decodeIterationS < 1.2 * w.decodeIterationS);
        QVERIFY2(b.decodeIterationS > 1.8 * w.decodeIterationS,
                 qPrintable(QString::number(b.decodeIterationS / w.decodeIterationS)));
        QVERIFY(b.prefillS < 1.3 * w.prefillS);
    }

    void timeSlicingAddsTheOtherTenantsTurnsToTheTail()
    {
        ServingInputs alone = llama8b(ServingLoad::Closed, 8);
        alone.placement.computeShare = alone.placement.bandwidthShare = 0.25; // a quarter of the GPU's time
        ServingInputs sliced = alone;
        sliced.placement.timeSliceWaitS = 3 * 0.002; // three busy co-tenants' 2 ms turns
        sliced.placement.timeSliceS = 0.002;
        const ServingResult a = estimateServing(alone), b = estimateServing(sliced);
        QVERIFY(b.switchShare > 0.5); // iterations longer than a turn are nearly always interrupted
        QVERIFY(std::abs(b.itlP99S - a.itlP99S - 0.006) < 1e-12);
        QVERIFY(std::abs(b.ttftP99S - a.ttftP99S - 0.006) < 1e-12);
        QVERIFY(std::abs(b.itlS - a.itlS) < 1e-12); // the mean is the time share already
        sliced.itlSloS = a.itlS + 0.001;
        QVERIFY(estimateServing(sliced).sloAttainment < 0.5);
    }

    void replicasAddUp()
    {
        ServingInputs two = llama8b(ServingLoad::Closed, 32);
        two.job.parallelism.dp = 2;
        const ServingResult one = estimateServing(llama8b(ServingLoad::Closed, 16));
        const ServingResult both = estimateServing(two);
        QVERIFY(std::abs(both.outputTokensPerS / (2.0 * one.outputTokensPerS) - 1.0) < 1e-9);
        QCOMPARE(both.maxBatch, 2 * one.maxBatch);
        QVERIFY(std::abs(both.ttftS - one.ttftS) < 1e-12);
    }

    void objectivesBecomeAttainment()
    {
        ServingInputs in = llama8b(ServingLoad::Closed, 16);
        const ServingResult free = estimateServing(in);
        QVERIFY(!free.sloJudged);
        in.itlSloS = free.itlS * 0.5;
        QVERIFY(estimateServing(in).sloJudged);
        QCOMPARE(estimateServing(in).sloAttainment, 0.0);
        in.itlSloS = free.itlP99S * 2.0;
        in.ttftSloS = free.ttftP99S * 2.0;
        QVERIFY(estimateServing(in).sloAttainment > 0.99);
    }

    void theCurveStaysBoundedForHugeCaches()
    {
        // A tiny model in a huge budget holds a billion sequences: the curve stops at 2^20 users.
        ServingInputs in = llama8b(ServingLoad::Closed, 1);
        in.job.inference->inputTokens = 1;
        in.job.inference->outputTokens = 1;
        in.job.inference->contextTokens = 2;
        in.placement.kvBudgetBytesPerGpu = 1e18;
        const std::vector<ServingPoint> curve = servingCurve(in);
        QVERIFY(!curve.empty());
        QCOMPARE(curve.back().concurrency, 1 << 20);
        QCOMPARE(int(curve.size()), 21);
    }

    void aBudgetWithoutRoomForOneSequenceServesNothing()
    {
        ServingInputs in = llama8b(ServingLoad::Closed, 4);
        in.placement.kvBudgetBytesPerGpu = 1000.0;
        const ServingResult r = estimateServing(in);
        QVERIFY(!r.fits);
        QCOMPARE(r.maxBatch, 0);
        QCOMPARE(r.outputTokensPerS, 0.0);
        QCOMPARE(r.sloAttainment, 0.0);
    }

    void evaluateGivesEachServingJobItsResultAndCurve()
    {
        const auto loaded = io::readScenarioFile(test::sampleFiles().front(), test::bundledCatalog());
        QVERIFY(loaded.value);
        const Evaluation ev = evaluate(*loaded.value, test::bundledCatalog());
        int serving = 0;
        for (const JobResult& j : ev.jobs) {
            if (!j.serving)
                continue;
            ++serving;
            QVERIFY(j.serving->fits);
            QVERIFY(j.serving->ttftS > 0 && j.serving->itlS > 0);
            QVERIFY(j.serving->kvCacheBytesPerGpu > 0);
            QCOMPARE(*j.memory.kvCacheBytes, j.serving->kvCacheBytesPerGpu);
            QVERIFY(std::abs(j.perf.stepTimeS - j.serving->itlS) < 1e-12);
            const std::vector<ServingPoint> curve = servingCurveOf(j, *loaded.value, test::bundledCatalog());
            QVERIFY(curve.size() >= 3);
            QCOMPARE(curve.front().concurrency, 1);
            for (std::size_t i = 1; i < curve.size(); ++i)
                QVERIFY(curve[i].outputTokensPerS >= curve[i - 1].outputTokensPerS * (1 - 1e-9));
        }
        QCOMPARE(serving, 2);
        QCOMPARE(ev.kpis.servingJobs, 2);
    }
};

QTEST_GUILESS_MAIN(TestServingModel)
#include "tst_servingmodel.moc"
