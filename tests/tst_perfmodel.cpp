// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
// Step time, throughput and MFU against the published figures they rest on.
#include "calc/modelsize.h"
#include "calc/perfmodel.h"
#include "testsupport.h"

#include <QtTest>

using namespace gp;
using namespace gp::calc;

class TestPerfModel : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    /// Narayanan et al. 2021 (SC21, "Efficient Large-Scale Language Model Training on GPU
    /// Clusters Using Megatron-LM"), §5.1: GPT-3 175B on 300B tokens with 1024 A100s at
    /// 140 TFLOP/s each takes about 34 days; the 1T model on 450B tokens with 3072 A100s at
    /// 163 TFLOP/s about 84 days (eq. 4, with activation recomputation).
    void megatronEndToEndTrainingTime()
    {
        const double gpt3Days = megatronTrainingTimeS(300e9, 175e9, 1024, 140e12, true) / 86400.0;
        QVERIFY2(qAbs(gpt3Days - 34.0) < 0.5, qPrintable(QString::number(gpt3Days)));
        const double t1Days = megatronTrainingTimeS(450e9, 1e12, 3072, 163e12, true) / 86400.0;
        QVERIFY2(qAbs(t1Days - 84.0) < 1.0, qPrintable(QString::number(t1Days)));
    }

    /// Dubey et al. 2024 ("The Llama 3 Herd of Models"), Table 4: 405B pre-training at
    /// 430, 400 and 380 TFLOP/s per H100 is reported as 43 %, 41 % and 38 % BF16 MFU.
    void llama3Mfu_data()
    {
        QTest::addColumn<double>("tflops");
        QTest::addColumn<double>("reported");
        QTest::newRow("8,192 GPUs, 8K sequence") << 430.0 << 0.43;
        QTest::newRow("16,384 GPUs, 8K sequence") << 400.0 << 0.41;
        QTest::newRow("16,384 GPUs, 131K sequence") << 380.0 << 0.38;
    }
    void llama3Mfu()
    {
        QFETCH(double, tflops);
        QFETCH(double, reported);
        const GpuSpec* h100 = test::bundledCatalog().gpu("h100-80gb");
        const double mfu = modelFlopsUtilization(tflops * 1e12, peakFlops(*h100, Precision::Bf16));
        QVERIFY2(qAbs(mfu - reported) <= 0.0105, qPrintable(QString::number(mfu)));
    }

    /// Model FLOPs per token, PaLM (Chowdhery et al. 2022) Appendix B: 6N + 12·L·H·Q·T.
    void flopsPerToken()
    {
        const ModelArchitecture a = test::bundledCatalog().model("gpt3-175b")->arch;
        const double n = parameterCount(a);
        QCOMPARE(modelFlopsPerToken(a, 2048), 6 * n + 12.0 * 96 * 12288 * 2048);
        // Full recomputation repeats the forward pass: 8N + 16·L·h·s in hardware FLOPs, the
        // factor 4/3 behind the "8" of Megatron's eq. 4.
        QCOMPARE(hardwareFlopsPerToken(a, 2048, Recompute::Full), 8 * n + 16.0 * 96 * 12288 * 2048);
        QCOMPARE(hardwareFlopsPerToken(a, 2048, Recompute::Selective), 6 * n + 16.0 * 96 * 12288 * 2048);
    }

    void peakByPrecision()
    {
        const GpuSpec* h100 = test::bundledCatalog().gpu("h100-80gb");
        QCOMPARE(peakFlops(*h100, Precision::Bf16), 989e12);
        QCOMPARE(peakFlops(*h100, Precision::Fp8), 1979e12);
        QCOMPARE(peakFlops(*h100, Precision::Fp32), 494.5e12); // TF32 tensor cores
        const GpuSpec* a100 = test::bundledCatalog().gpu("a100-40gb");
        QCOMPARE(peakFlops(*a100, Precision::Fp8), 312e12); // no FP8: runs at BF16 rate
    }

    /// A single-GPU step at the assumed efficiency: step = tokens x hardware FLOPs / (peak x MFU).
    void stepTimeOnOneGpu()
    {
        PerfInputs in;
        in.arch = test::bundledCatalog().model("llama2-7b")->arch;
        in.gpu = test::bundledCatalog().gpu("h100-80gb");
        in.job.kind = JobKind::Pretraining;
        in.job.batch = {1, 8};
        in.job.training = TrainingSpec{1e9, 60};
        in.achievableMfu = 0.4;
        const PerfResult r = estimatePerformance(in);
        const double tokens = 8.0 * 4096;
        const double expected = tokens * hardwareFlopsPerToken(in.arch, 4096, Recompute::None) / (989e12 * 0.4);
        QVERIFY(qAbs(r.stepTimeS - expected) / expected < 1e-9);
        QVERIFY(qAbs(r.mfu - 0.4) < 1e-9); // no recomputation, no communication: MFU = efficiency
        QVERIFY(qAbs(*r.daysToComplete - 1e9 / r.tokensPerS / 86400) < 1e-9);
        // Half the GPU (a time share of 0.5) doubles the step.
        in.throughputFactor = 0.5;
        QVERIFY(qAbs(estimatePerformance(in).stepTimeS / r.stepTimeS - 2.0) < 1e-9);
    }

    /// The interleaved schedule divides the 1F1B bubble (p - 1)/m by v and sends each
    /// micro-batch across v times as many stage boundaries (Narayanan et al. 2021 §2.2).
    void interleavedScheduleShrinksTheBubble()
    {
        PerfInputs in;
        in.arch = test::bundledCatalog().model("gpt3-175b")->arch;
        in.gpu = test::bundledCatalog().gpu("a100-80gb");
        in.job.kind = JobKind::Pretraining;
        in.job.parallelism = {8, 8, 1, 0, false, true, Recompute::Selective};
        in.job.batch = {1, 64};
        in.job.training = TrainingSpec{1e9, 60};
        in.comm.pipelineGBps = 25.0;
        in.comm.tensorParallelGBps = 240.0;
        const PerfResult plain = estimatePerformance(in);
        QVERIFY(qAbs(plain.bubbleS / plain.computeS - 7.0 / 64.0) < 1e-12);
        in.job.parallelism.virtualStages = 3;
        const PerfResult inter = estimatePerformance(in);
        QVERIFY(qAbs(inter.bubbleS / plain.bubbleS - 1.0 / 3.0) < 1e-12);
        QCOMPARE(inter.computeS, plain.computeS);
        QVERIFY(qAbs(inter.pipelineBytesPerGpu / plain.pipelineBytesPerGpu - 3.0) < 1e-12);
        QVERIFY2(inter.stepTimeS < plain.stepTimeS,
                 qPrintable(QString("%1 s against %2 s").arg(inter.stepTimeS).arg(plain.stepTimeS)));
    }

    /// nccl-tests defines all-reduce bus bandwidth as algbw x 2(n-1)/n; the model's ring
    /// all-reduce moves exactly that through each link, so at the default link efficiency
    /// an 8-GPU DGX A100 all-reduce reaches 0.8 x 300 GB/s = 240 GB/s bus bandwidth, within
    /// 5 % of the ~230 GB/s nccl-tests reports there.
    void dataParallelAllReduceMatchesNcclBusBandwidth()
    {
        PerfInputs in;
        in.arch = test::bundledCatalog().model("llama2-7b")->arch;
        in.gpu = test::bundledCatalog().gpu("a100-80gb");
        in.job.kind = JobKind::Pretraining;
        in.job.parallelism.dp = 8;
        in.job.batch = {1, 8};
        in.job.training = TrainingSpec{1e9, 60};
        in.commOverlap = 0.0;
        in.comm.dataParallelGBps = 300.0 * 0.8;
        const PerfResult withComm = estimatePerformance(in);
        in.comm.dataParallelGBps = 1e12;
        const PerfResult without = estimatePerformance(in);
        const double bytes = parameterCount(in.arch) * 2.0; // bf16 gradients
        const double busBw = bytes * 2.0 * 7 / 8 / (withComm.stepTimeS - without.stepTimeS) / 1e9;
        QVERIFY2(qAbs(busBw - 240.0) < 1e-6, qPrintable(QString::number(busBw)));
        QVERIFY(qAbs(busBw - 230.0) / 230.0 < 0.05);
    }

    void inferenceIsMemoryBound()
    {
        PerfInputs in;
        in.arch = test::bundledCatalog().model("llama3-8b")->arch;
        in.gpu = test::bundledCatalog().gpu("h100-80gb");
        in.job.kind = JobKind::Inference;
        in.job.precision = Precision::Bf16;
        in.job.inference = InferenceSpec{10, 2, 1, 1};
        in.memoryBandwidthEfficiency = 1.0;
        const PerfResult r = estimatePerformance(in);
        // One sequence, tiny context: time per token = weights / HBM bandwidth.
        const double expected = parameterCount(in.arch) * 2.0 / 3350e9;
        QVERIFY2(qAbs(r.stepTimeS - expected) / expected < 0.01, qPrintable(QString::number(r.stepTimeS)));
        QCOMPARE(r.demandTokensPerS, 10.0);
    }
};

QTEST_GUILESS_MAIN(TestPerfModel)
#include "tst_perfmodel.moc"
