// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
//
// The interference model against published measurements, with the shipped defaults
// (docs/model-reference.md#sharing-modes-corecalcslotscpp, docs/validation.md#sharing).
#include "calc/evaluate.h"
#include "calc/interference.h"
#include "calc/kernels.h"
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

/// The A30 of the Colfax study (NVIDIA A30 datasheet: 24 GB HBM2 at 933 GB/s, 165 TFLOPS
/// BF16 dense, 56 SMs; MIG 1g.6gb: 14 SMs and one of four memory slices). Not in the catalog:
/// the fixture carries the datasheet figures and the default kernel curves.
GpuSpec a30()
{
    GpuSpec g;
    g.id = "a30-24gb";
    g.name = "A30";
    g.memoryGB = 24;
    g.memoryUsableGiB = 24;
    g.hbmBandwidthGBps = 933;
    g.bf16DenseTflops = 165;
    g.smCount = 56;
    return g;
}

Slot timeSliced(int replicas)
{
    Slot s;
    s.mode = SharingMode::TimeSlicing;
    s.memoryIsolated = false;
    s.gpuFraction = 1.0 / replicas;
    return s;
}

Slot migA30()
{
    Slot s;
    s.mode = SharingMode::Mig;
    s.gpuFraction = 0.25;
    s.smShare = 14.0 / 56.0;
    s.bandwidthShare = 0.25;
    s.peerToPeer = false;
    return s;
}

Slot mps(double threads)
{
    Slot s;
    s.mode = SharingMode::Mps;
    s.smShare = threads;
    s.gpuFraction = threads;
    return s;
}

const InterferenceParams kDefaults = InterferenceParams::from({}, GpuSpec{});

std::vector<CoTenant> busy(int n, ResourceMix mix, double threads = 1.0)
{
    std::vector<CoTenant> out;
    for (int i = 0; i < n; ++i)
        out.push_back({i + 1, mix, 1.0, threads});
    return out;
}

constexpr ResourceMix kComputeBound{1.0, 0.0, 0.0, 0.0};
constexpr ResourceMix kMemoryBound{0.0, 1.0, 0.0, 0.0};

/// Relative error of a prediction against a measurement.
double error(double predicted, double measured) { return predicted / measured - 1.0; }

/// Time of one GEMM on a unit with `shares` of an A30, TF32 (FP32 inputs).
double gemmTime(const ResourceShares& s, double n)
{
    static const GpuSpec gpu = a30();
    const Kernels k(gpu, Precision::Fp32, s.compute, s.bandwidth, s.spatial);
    return k.gemm(n, n, n);
}

ServingInputs llama8bOnA100(const ResourceShares& s, double kvGiB)
{
    ServingInputs in;
    in.arch = test::bundledCatalog().model("llama3-8b")->arch;
    in.gpu = test::bundledCatalog().gpu("a100-80gb");
    in.job.kind = JobKind::Inference;
    in.job.precision = Precision::Bf16;
    InferenceSpec spec;
    spec.load = ServingLoad::Closed;
    spec.inputTokens = 512;
    spec.outputTokens = 256;
    spec.contextTokens = 768;
    spec.concurrency = 25; // 50 users over two engines
    in.job.inference = spec;
    in.placement.computeShare = s.compute;
    in.placement.bandwidthShare = s.bandwidth;
    in.placement.spatial = s.spatial;
    in.placement.kvBudgetBytesPerGpu = kvGiB * kGiB;
    return in;
}

} // namespace

class TestInterference : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    /// Colfax (2024), A30: four time-sliced vGPUs measured 160 GB/s each, four MIG 1g.6gb
    /// instances 196 GB/s each (time_slice_cache_refill_us is fitted to this ratio).
    void colfaxStreamBandwidthTimeSlicedAgainstMig()
    {
        const UnitInterference ts = interferenceOf(timeSliced(4), kMemoryBound, busy(3, kMemoryBound), kDefaults);
        const UnitInterference mig = interferenceOf(migA30(), kMemoryBound, {}, kDefaults);
        const double ratio = ts.shares.bandwidth / mig.shares.bandwidth;
        qInfo("STREAM time-sliced / MIG: %.3f (measured %.3f)", ratio, 160.0 / 196.0);
        QVERIFY2(std::abs(error(ratio, 160.0 / 196.0)) <= 0.10, qPrintable(QString::number(ratio)));
        QVERIFY(ts.parts.contextSwitch > 0);
        QCOMPARE(mig.parts.contextSwitch, 0.0);
    }

    /// Colfax (2024): a large TF32 GEMM lost about 5 % time-sliced against MIG with the same
    /// SM share (time_slice_switch_us is fitted to it).
    void colfaxLargeGemmTimeSlicedAgainstMig()
    {
        const UnitInterference ts = interferenceOf(timeSliced(4), kComputeBound, busy(3, kComputeBound), kDefaults);
        const UnitInterference mig = interferenceOf(migA30(), kComputeBound, {}, kDefaults);
        const double speed = gemmTime(mig.shares, 8192) / gemmTime(ts.shares, 8192);
        qInfo("large GEMM time-sliced speed / MIG: %.3f (measured 0.95)", speed);
        QVERIFY2(std::abs(error(speed, 0.95)) <= 0.10, qPrintable(QString::number(speed)));
    }

    /// Colfax (2024): small GEMMs ran 4.6x slower time-sliced than on MIG slices. The model
    /// predicts the direction (a small kernel fills a small instance and gains nothing from
    /// whole-GPU turns) but only about 2.2x at 256^3: on the instance's quarter of the HBM
    /// bandwidth the model's roofline makes the small GEMM memory-bound, where a benchmark loop
    /// keeps its operands in L2 (no L2 in the model; docs/validation.md#sharing, weak point).
    void colfaxSmallGemmsLoseMoreTimeSliced()
    {
        const UnitInterference ts = interferenceOf(timeSliced(4), kComputeBound, busy(3, kComputeBound), kDefaults);
        const UnitInterference mig = interferenceOf(migA30(), kComputeBound, {}, kDefaults);
        const double small = gemmTime(ts.shares, 256) / gemmTime(mig.shares, 256);
        const double large = gemmTime(ts.shares, 8192) / gemmTime(mig.shares, 8192);
        qInfo("small GEMM time-sliced / MIG: %.2f, large: %.2f (measured 4.6 and 1.05)", small, large);
        QVERIFY2(small > 1.5 && small < 4.6, qPrintable(QString::number(small)));
        QVERIFY(small > 1.5 * large);
    }

    /// Colfax (2024): the PCIe link was split four ways between four time-sliced vGPUs.
    void colfaxPcieSplitFourWays()
    {
        const UnitInterference ts =
            interferenceOf(timeSliced(4), {0.5, 0.0, 0.5, 0.0}, busy(3, kComputeBound), kDefaults);
        QCOMPARE(ts.shares.network, 0.25);
        // A quarter of the link is the replica's size, not overhead: no VM, no I/O cost on top.
        QCOMPARE(ts.size.pcieNetwork, 1.5); // 0.5 × (4 − 1)
        QCOMPARE(ts.parts.pcieNetwork, 0.0);
    }

    /// Villarrubia et al. (2026): under memory contention MPS co-execution is about 30 %
    /// worse than running the pair one after the other (mps_memory_contention is fitted to it).
    void villarrubiaMpsMemoryContention()
    {
        const UnitInterference u = interferenceOf(mps(1.0), kMemoryBound, busy(1, kMemoryBound), kDefaults);
        // Both run side by side at the same slowdown: the pair takes slowdown x T for 2T of work.
        const double speedup = 2.0 / u.slowdown;
        qInfo("MPS memory-bound pair against sequential: %.3f (measured 0.70)", speedup);
        QVERIFY2(std::abs(error(speedup, 0.70)) <= 0.10, qPrintable(QString::number(speedup)));
        QCOMPARE(u.byNeighbour.size(), std::size_t(1));
    }

    /// Villarrubia et al. (2026): in the most favourable pairs MPS improves on sequential
    /// execution by up to 30 %. Not fitted: a compute-bound and a memory-bound client.
    void villarrubiaMpsFavourablePair()
    {
        const UnitInterference a = interferenceOf(mps(1.0), kComputeBound, busy(1, kMemoryBound), kDefaults);
        const UnitInterference b = interferenceOf(mps(1.0), kMemoryBound, busy(1, kComputeBound), kDefaults);
        // B finishes first; A then runs alone what is left of its work.
        const double first = std::min(a.slowdown, b.slowdown);
        const double slower = std::max(a.slowdown, b.slowdown);
        const double makespan = first + (1.0 - first / slower);
        const double speedup = 2.0 / makespan;
        qInfo("MPS compute + memory pair against sequential: %.3f (measured up to 1.30)", speedup);
        QVERIFY2(std::abs(error(speedup, 1.30)) <= 0.10, qPrintable(QString::number(speedup)));
        // A compute-bound neighbour costs a memory-bound client nothing; the reverse costs SMs.
        QCOMPARE(b.slowdown, 1.0);
        QVERIFY(a.slowdown > 1.0);
    }

    /// VMware (2023), MLPerf Inference v3.0 on vSphere: one full-profile vGPU per GPU ran at
    /// 94-105 % of bare metal. A decode-bound serving engine and a data-parallel training step
    /// with 20 % exposed network time both land in that band.
    void vmwareFullVgpuNearBareMetal()
    {
        Slot full;
        full.mode = SharingMode::Vgpu;
        for (const ResourceMix& mix : {ResourceMix{0.2, 0.8, 0.0, 0.0}, ResourceMix{0.6, 0.2, 0.2, 0.0}}) {
            const UnitInterference u = interferenceOf(full, mix, {}, kDefaults);
            const double relative = 1.0 / u.slowdown;
            qInfo("full vGPU against bare metal: %.3f (measured 0.94-1.05)", relative);
            QVERIFY2(relative >= 0.94 && relative <= 1.05, qPrintable(QString::number(relative)));
        }
        Slot passthrough;
        passthrough.mode = SharingMode::Passthrough;
        const UnitInterference p = interferenceOf(passthrough, {0.6, 0.2, 0.2, 0.0}, {}, kDefaults);
        QVERIFY(p.parts.pcieNetwork > 0 && p.parts.compute == 0 && p.parts.memoryBandwidth == 0);
    }

    /// NVIDIA (2026), voice-AI pipeline on A100s under 50 users: 1.00 requests/s per GPU with
    /// MIG against 0.76 with time-slicing. Stand-in: two Llama 3 8B engines on one A100 80GB,
    /// 3g.40gb each or two time-sliced replicas, closed load of 25 users each.
    void nvidiaMigAgainstTimeSlicingUnderLoad()
    {
        const ServingInputs bare = llama8bOnA100({}, 30);
        const ResourceMix mix = servingPerformance(estimateServing(bare), bare).mix;
        Slot mig3g;
        mig3g.mode = SharingMode::Mig;
        mig3g.gpuFraction = 3.0 / 7.0;
        mig3g.smShare = 42.0 / 108.0;
        mig3g.bandwidthShare = 4.0 / 8.0;
        const UnitInterference onMig = interferenceOf(mig3g, mix, {}, kDefaults);
        const UnitInterference sliced = interferenceOf(timeSliced(2), mix, {{1, mix, 1.0, 1.0}}, kDefaults);
        const double migRate = estimateServing(llama8bOnA100(onMig.shares, 15)).requestsPerS;
        const double tsRate = estimateServing(llama8bOnA100(sliced.shares, 15)).requestsPerS;
        const double ratio = tsRate / migRate;
        qInfo("time-sliced / MIG requests/s: %.3f (measured 0.76)", ratio);
        // Time-slicing loses, but by less than measured (+17 %): the stand-in is not the
        // pipeline's ASR/TTS models, and their request flow is not modelled (weak point).
        QVERIFY2(ratio < 1.0 && std::abs(error(ratio, 0.76)) <= 0.20, qPrintable(QString::number(ratio)));
    }

    /// The same job pays differently for different neighbours: under MPS a memory-bound
    /// neighbour costs a decode-bound job more than a compute-bound one, and is named.
    void theNeighbourDecidesThePenalty()
    {
        const ResourceMix decode{0.1, 0.9, 0.0, 0.0};
        const UnitInterference withCompute = interferenceOf(mps(0.5), decode, busy(1, kComputeBound, 0.5), kDefaults);
        const UnitInterference withMemory = interferenceOf(mps(0.5), decode, busy(1, kMemoryBound, 0.5), kDefaults);
        QVERIFY(withMemory.slowdown > 1.5 * withCompute.slowdown);
        std::vector<CoTenant> both = {{7, kComputeBound, 1.0, 0.5}, {9, kMemoryBound, 1.0, 0.5}};
        const UnitInterference u = interferenceOf(mps(1.0 / 3.0), decode, both, kDefaults);
        const auto worst = std::max_element(u.byNeighbour.begin(), u.byNeighbour.end(),
                                            [](const auto& x, const auto& y) { return x.second < y.second; });
        QCOMPARE(worst->first, 9);
        // With every neighbour idle nothing is contended.
        QCOMPARE(interferenceOf(mps(0.5), decode, {{9, kMemoryBound, 0.0, 0.5}}, kDefaults).slowdown,
                 1.0 / 1.0 * 0.1 / 0.5 + 0.9);
        QVERIFY(u.aloneSlowdown < u.slowdown);
    }

    /// MIG: each instance gets exactly its SMs and slices whoever the neighbours are; what it
    /// gets below its compute slices' share is static loss.
    void migIsIsolatedAndPaysItsStaticLoss()
    {
        Slot oneG; // H100 1g.10gb: 16 of 132 SMs, one of eight memory slices, charged 1/7
        oneG.mode = SharingMode::Mig;
        oneG.gpuFraction = 1.0 / 7.0;
        oneG.smShare = 16.0 / 132.0;
        oneG.bandwidthShare = 1.0 / 8.0;
        const UnitInterference alone = interferenceOf(oneG, kComputeBound, {}, kDefaults);
        const UnitInterference crowded = interferenceOf(oneG, kComputeBound, busy(6, kMemoryBound), kDefaults);
        QCOMPARE(crowded.slowdown, alone.slowdown);
        QVERIFY(crowded.byNeighbour.empty());
        QVERIFY(alone.parts.staticLoss > 0);
        QCOMPARE(alone.size.compute, 6.0);  // 1 / (1/7) - 1: the slice it is charged for
        QCOMPARE(alone.parts.compute, 0.0); // the rest of its slowdown is static loss
        // A small GEMM loses less on a small instance than a large one (it fills the instance).
        const double small = gemmTime(alone.shares, 512) / gemmTime({}, 512);
        const double large = gemmTime(alone.shares, 8192) / gemmTime({}, 8192);
        QVERIFY(small < large);
    }

    /// The bundled mixed-sharing sample: the notebook fine-tune and its evaluation server share
    /// a time-sliced L40S; each names the other, and the parts add up to the penalty.
    void sampleJobsNameTheirNeighbour()
    {
        const auto read =
            io::readScenarioFile(test::dataDir() + "/samples/02-mixed-sharing-lab.json", test::bundledCatalog());
        QVERIFY(read.value);
        const Evaluation ev = evaluate(*read.value, test::bundledCatalog());
        int named = 0;
        for (const JobResult& j : ev.jobs) {
            if (!j.placed)
                continue;
            QVERIFY2(std::abs(j.penaltyBreakdown.total() - j.penalty) <= 1e-9 * std::max(1.0, j.penalty), j.id.c_str());
            if (j.id == "notebooks") {
                QCOMPARE(j.noisiestNeighbour, std::string("notebooks-eval"));
                QVERIFY(j.penaltyBreakdown.contextSwitch > 0);
                ++named;
            }
            if (j.id == "notebooks-eval") {
                QCOMPARE(j.noisiestNeighbour, std::string("notebooks"));
                ++named;
            }
        }
        QCOMPARE(named, 2);
        // Alone on its GPU the fine-tune pays nothing.
        Scenario alone = *read.value;
        auto& jobs = alone.tenants[0].jobs;
        jobs.erase(std::remove_if(jobs.begin(), jobs.end(), [](const Job& j) { return j.id == "notebooks-eval"; }),
                   jobs.end());
        for (const JobResult& j : evaluate(alone, test::bundledCatalog()).jobs)
            if (j.id == "notebooks") {
                QCOMPARE(j.penalty, 0.0);
                QVERIFY(j.noisiestNeighbour.empty());
            }
    }
};

QTEST_GUILESS_MAIN(TestInterference)
#include "tst_interference.moc"
