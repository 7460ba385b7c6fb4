// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
// Step time, throughput and MFU against the published figures they rest on.
#include "calc/memorymodel.h"
#include "calc/modelsize.h"
#include "calc/perfmodel.h"
#include "testsupport.h"

#include <QSignalSpy>
#include <QTest>

using namespace gp;
using namespace gp::calc;

class TestPerfModel : public QObject
{
    Q_OBJECT

    /// A pre-training job of `preset` on one GPU with `global` sequences of one per micro-batch.
    static PerfInputs oneGpu(const char* preset, const char* gpu, int global)
    {
        PerfInputs in;
        in.arch = test::bundledCatalog().model(preset)->arch;
        in.gpu = test::bundledCatalog().gpu(gpu);
        in.job.kind = JobKind::Pretraining;
        in.job.batch = {1, global};
        in.job.training = TrainingSpec{1e9, 60};
        return in;
    }

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

    /// The GEMM curve is linear in log(size) between its points and flat beyond them.
    void gemmCurveInterpolatesInLogSize()
    {
        KernelEfficiency e;
        e.gemm = {{1.0, 0.5}, {100.0, 0.9}};
        QCOMPARE(e.gemmAt(1.0), 0.5);
        QVERIFY(qAbs(e.gemmAt(10.0) - 0.7) < 1e-12);
        QCOMPARE(e.gemmAt(0.001), 0.5);
        QCOMPARE(e.gemmAt(1e6), 0.9);
        QCOMPARE(e.gemmAt(100.0), 0.9);
        // Every bundled GPU has a curve that rises with size and stays below the peak.
        for (const GpuSpec& g : test::bundledCatalog().gpus) {
            QVERIFY2(g.efficiency.gemm.size() >= 2, g.id.c_str());
            for (std::size_t i = 1; i < g.efficiency.gemm.size(); ++i) {
                QVERIFY(g.efficiency.gemm[i].size > g.efficiency.gemm[i - 1].size);
                QVERIFY(g.efficiency.gemm[i].efficiency >= g.efficiency.gemm[i - 1].efficiency);
            }
            QVERIFY(g.efficiency.gemm.back().efficiency <= 1.0);
        }
    }

    /// One GPU, no parallelism: the step is compute and the optimizer only, its parts add up,
    /// it cannot beat the GPU's GEMM ceiling, and half a GPU (a time share of 0.5) doubles it.
    void stepOnOneGpuIsBoundByTheGemmCeiling()
    {
        PerfInputs in = oneGpu("llama2-7b", "h100-80gb", 8);
        const PerfResult r = estimatePerformance(in);
        const StepBreakdown& b = r.breakdown;
        QVERIFY(qAbs(b.total() - r.stepTimeS) < 1e-12 * r.stepTimeS);
        QCOMPARE(b.tpExposed + b.ppExposed + b.dpExposed + b.bubble + b.recompute, 0.0);
        QVERIFY(b.optimizer > 0 && b.optimizer < 0.05 * r.stepTimeS);
        const double ceiling = in.gpu->efficiency.gemm.back().efficiency;
        const double tokens = 8.0 * 4096;
        const double ideal = tokens * hardwareFlopsPerToken(in.arch, 4096, Recompute::None) / (989e12 * ceiling);
        QVERIFY2(r.stepTimeS > ideal,
                 qPrintable(QString("%1 s against %2 s at the ceiling").arg(r.stepTimeS).arg(ideal)));
        QVERIFY2(r.mfu > 0.5 && r.mfu < ceiling, qPrintable(QString::number(r.mfu)));
        QVERIFY(qAbs(*r.daysToComplete - 1e9 / r.tokensPerS / 86400) < 1e-9);
        in.shares = {0.5, 0.5, 0.5, 0.5, false}; // half of everything, in time: twice the step
        QVERIFY(qAbs(estimatePerformance(in).stepTimeS / r.stepTimeS - 2.0) < 1e-9);
    }

    /// Small GEMMs run further below the peak: the same model with 512-token micro-batches
    /// reaches a lower MFU at one sequence per micro-batch than at eight.
    void largerGemmsRunCloserToTheCeiling()
    {
        PerfInputs in = oneGpu("llama2-7b", "a100-80gb", 8);
        in.arch.sequenceLength = 512;
        in.job.batch = {1, 8};
        const double small = estimatePerformance(in).mfu;
        in.job.batch = {8, 8};
        const double large = estimatePerformance(in).mfu;
        QVERIFY2(large > small * 1.05, qPrintable(QString("%1 against %2").arg(large).arg(small)));
    }

    /// Flash attention skips the s x s scores: faster at long sequences, and the memory model
    /// keeps no scores either. Unset, it follows the model: flash unless dropout masks are kept.
    void flashAttentionAvoidsTheScores()
    {
        PerfInputs in = oneGpu("llama2-7b", "h100-80gb", 1);
        in.job.flashAttention = false;
        const PerfResult unfused = estimatePerformance(in);
        in.job.flashAttention = true;
        const PerfResult flash = estimatePerformance(in);
        QVERIFY2(flash.stepTimeS < 0.9 * unfused.stepTimeS,
                 qPrintable(QString("%1 s against %2 s").arg(flash.stepTimeS).arg(unfused.stepTimeS)));
        QVERIFY(activationBytesPerBlock(in.arch, 4096, 1, 1, false, Recompute::None, Precision::Bf16, true) <
                activationBytesPerBlock(in.arch, 4096, 1, 1, false, Recompute::None, Precision::Bf16, false) / 2);
        Job job;
        QVERIFY(job.usesFlashAttention(test::bundledCatalog().model("llama3-70b")->arch));
        QVERIFY(!job.usesFlashAttention(test::bundledCatalog().model("gpt3-175b")->arch));
        job.flashAttention = true;
        QVERIFY(job.usesFlashAttention(test::bundledCatalog().model("gpt3-175b")->arch));
    }

    /// Recomputation changes only what it repeats: compute is the same with none, selective
    /// and full; full repeats the whole forward pass, selective only the attention core.
    void recomputationCostsWhatItRepeats()
    {
        PerfInputs in = oneGpu("gpt3-175b", "a100-80gb", 8);
        in.arch.layers = 4; // fits the arithmetic, the shapes stay GPT-3's
        in.job.parallelism.tp = 8;
        in.comm.tensorParallelGBps = 195.0;
        std::map<Recompute, PerfResult> r;
        for (Recompute mode : {Recompute::None, Recompute::Selective, Recompute::Full}) {
            in.job.parallelism.recompute = mode;
            r[mode] = estimatePerformance(in);
        }
        QCOMPARE(r[Recompute::None].breakdown.recompute, 0.0);
        QCOMPARE(r[Recompute::Selective].breakdown.compute, r[Recompute::None].breakdown.compute);
        QCOMPARE(r[Recompute::Full].breakdown.compute, r[Recompute::None].breakdown.compute);
        QVERIFY(r[Recompute::Selective].breakdown.recompute > 0);
        QVERIFY(r[Recompute::Full].breakdown.recompute > 5 * r[Recompute::Selective].breakdown.recompute);
        // Full recomputation runs the forward collectives again: 6 all-reduces instead of 4.
        QVERIFY(qAbs(r[Recompute::Full].breakdown.tpExposed / r[Recompute::None].breakdown.tpExposed - 1.5) < 1e-12);
        // Flash attention already recomputes inside its backward: selective adds nothing.
        in.job.flashAttention = true;
        in.job.parallelism.recompute = Recompute::Selective;
        QCOMPARE(estimatePerformance(in).breakdown.recompute, 0.0);
    }

    /// TP collectives: four all-reduces of b·s·h per block and micro-batch, each 2(t-1)/t of
    /// the buffer over the bus bandwidth plus the catalog's latency, in the critical path
    /// unless tp_comm_overlap hides them.
    void tensorParallelCollectivesAreExposedUnlessOverlapped()
    {
        PerfInputs in = oneGpu("gpt3-175b", "a100-80gb", 4);
        in.arch.layers = 8;
        in.job.parallelism.tp = 8;
        in.comm.tensorParallelGBps = 195.0;
        const PerfResult r = estimatePerformance(in);
        const double buffer = 2048.0 * 12288 * 2;
        const double perCall = 2.0 * 7 / 8 * buffer / 195e9 + in.gpu->efficiency.collectiveLatencyUs * 1e-6;
        QVERIFY(qAbs(r.breakdown.tpExposed - 8 * 4 * 4 * perCall) < 1e-9 * r.breakdown.tpExposed);
        in.tpCommOverlap = 1.0;
        QCOMPARE(estimatePerformance(in).breakdown.tpExposed, 0.0);
    }

    /// Data parallel: with comm_overlap the reduction hides behind the last backward pass, but
    /// never more than that pass lasts; without it the whole reduction is exposed.
    void dataParallelHidesOnlyBehindBackward()
    {
        PerfInputs in = oneGpu("llama2-7b", "h100-80gb", 8);
        in.job.parallelism.dp = 8;
        in.job.batch = {1, 64};
        in.commOverlap = 1.0;
        in.comm.dataParallelGBps = 360.0; // NVLink: hides completely
        QCOMPARE(estimatePerformance(in).breakdown.dpExposed, 0.0);
        in.comm.dataParallelGBps = 0.5; // far slower than the backward pass
        const PerfResult slow = estimatePerformance(in);
        // One all-reduce: the bytes, the call's latency and NCCL's 2 (n - 1) NVLink ring steps.
        const double whole = slow.dataParallelBytesPerGpu / 0.5e9 + in.gpu->efficiency.collectiveLatencyUs * 1e-6 +
                             2.0 * 7 * SoftwareStack{}.ringHopLatencyNvlinkUs * 1e-6;
        QVERIFY(slow.breakdown.dpExposed > 0.5 * whole && slow.breakdown.dpExposed < whole);
        in.commOverlap = 0.0;
        QVERIFY(qAbs(estimatePerformance(in).breakdown.dpExposed - whole) < 1e-9 * whole);
    }

    /// NCCL's own cost model of a ring collective (src/graph/tuning.cc, Ring/Simple): base latency
    /// plus 3.4 us per NVLink step and 14 us per network step; an all-gather over 512 ranks on 64
    /// nodes of 8 runs 511 steps, 63 of them between nodes: about 2.4 ms before a byte's bandwidth.
    void collectiveLatencyFollowsNccl()
    {
        const SoftwareStack nccl;
        const double fast = 1e12; // GB/s: the bandwidth term vanishes
        const double gather = collectiveS(Collective::AllGather, 1.0, 512, 64, true, fast, 0.0, nccl);
        QVERIFY2(qAbs(gather - (448 * 3.4 + 63 * 14.0) * 1e-6) < 1e-9, qPrintable(QString::number(gather)));
        QVERIFY(qAbs(gather - 2.4e-3) < 0.01e-3);
        // The base latency (the GPU's collective_latency_us) is added once; one rank moves nothing.
        QVERIFY(qAbs(collectiveS(Collective::ReduceScatter, 1.0, 512, 64, true, fast, 10e-6, nccl) - gather - 10e-6) <
                1e-12);
        QCOMPARE(collectiveS(Collective::AllGather, 1e9, 1, 1, true, 100.0, 10e-6, nccl), 0.0);
        // Inside one node: 2 (n - 1) NVLink steps for an all-reduce, PCIe steps slower.
        const double inNode = collectiveS(Collective::AllReduce, 1.0, 8, 1, true, fast, 0.0, nccl);
        QVERIFY(qAbs(inNode - 14 * 3.4e-6) < 1e-12);
        QVERIFY(collectiveS(Collective::AllReduce, 1.0, 8, 1, false, fast, 0.0, nccl) > inNode);
        // A small all-reduce across 64 nodes takes the tree: 2 (7 x 3.4 + log2(64) x 14) us, not
        // the ring's 2 x 511 steps (4.8 ms).
        const double small = collectiveS(Collective::AllReduce, 1.0, 512, 64, true, fast, 0.0, nccl);
        QVERIFY2(qAbs(small - 2.0 * (7 * 3.4 + 6 * 14.0) * 1e-6) < 1e-9, qPrintable(QString::number(small)));
        SoftwareStack ringOnly;
        ringOnly.treeAllReduceBandwidth = 0.0;
        const double ring = collectiveS(Collective::AllReduce, 1.0, 512, 64, true, fast, 0.0, ringOnly);
        QVERIFY(qAbs(ring - (896 * 3.4 + 126 * 14.0) * 1e-6) < 1e-9);
        // A large one keeps the ring: its bandwidth beats the tree's 0.92 by more than the latency.
        const double bytes = 10e9, gbps = 100.0;
        const double large = collectiveS(Collective::AllReduce, bytes, 512, 64, true, gbps, 0.0, nccl);
        const double ringLarge = 2.0 * 511 / 512 * bytes / (gbps * 1e9) + (896 * 3.4 + 126 * 14.0) * 1e-6;
        QVERIFY(qAbs(large - ringLarge) < 1e-9);
        QVERIFY(large < 2.0 * bytes / (gbps * 1e9 * 0.92));
    }

    /// Fully sharded data parallelism at scale: the same work per GPU on more ranks pays the ring
    /// latency of every per-layer gather and reduce-scatter (NCCL's steps grow with the ranks),
    /// so the step grows from 128 to 512 GPUs — as llm-foundry's MPT runs on H100 lose 3-10 % of
    /// their per-GPU throughput between those sizes (docs/validation.md).
    void fsdpLatencyGrowsWithTheRanks()
    {
        auto step = [](int dp) {
            PerfInputs in = oneGpu("llama2-7b", "h100-80gb", 1);
            in.job.parallelism.dp = dp;
            in.job.parallelism.fsdp = true;
            in.job.batch = {6, 6 * dp};
            in.comm.dataParallelGBps = 300.0;
            in.comm.dataParallelNodes = dp / 8;
            SoftwareStack composer;
            composer.fsdpOverlap = 0.75;
            in.stack = &composer;
            return estimatePerformance(in);
        };
        const PerfResult at128 = step(128), at512 = step(512);
        QCOMPARE(at512.breakdown.compute, at128.breakdown.compute);
        QVERIFY2(
            at512.breakdown.dpExposed > 1.5 * at128.breakdown.dpExposed,
            qPrintable(QString("%1 s against %2 s").arg(at512.breakdown.dpExposed).arg(at128.breakdown.dpExposed)));
        const double slower = at512.stepTimeS / at128.stepTimeS - 1.0;
        QVERIFY2(slower > 0.01 && slower < 0.15, qPrintable(QString::number(slower)));
    }

    /// LoRA freezes the base weights: no weight gradients for them, so about a third of the
    /// GEMM work and the base's gradient reduction disappear.
    void loraSkipsTheBaseWeightGradients()
    {
        PerfInputs in = oneGpu("llama2-13b", "a100-80gb", 8);
        in.job.kind = JobKind::FullFinetune;
        const PerfResult full = estimatePerformance(in);
        in.job.kind = JobKind::Lora;
        in.job.lora = LoraSpec{};
        const PerfResult lora = estimatePerformance(in);
        const double ratio = lora.breakdown.compute / full.breakdown.compute;
        QVERIFY2(ratio > 0.62 && ratio < 0.8, qPrintable(QString::number(ratio)));
        QVERIFY(lora.breakdown.optimizer < 0.01 * full.breakdown.optimizer);
    }

    /// fp32 main gradients: 4-byte accumulation per micro-batch and twice the reduction bytes.
    void fp32MainGradientsCostAccumulationAndReduction()
    {
        PerfInputs in = oneGpu("llama2-7b", "a100-80gb", 8);
        in.job.parallelism.dp = 4;
        in.job.batch = {1, 32};
        in.comm.dataParallelGBps = 20.0;
        const PerfResult bf16 = estimatePerformance(in);
        in.job.mainGradsFp32 = true;
        const PerfResult fp32 = estimatePerformance(in);
        QVERIFY(fp32.breakdown.compute > bf16.breakdown.compute);
        QVERIFY(qAbs(fp32.dataParallelBytesPerGpu / bf16.dataParallelBytesPerGpu - 2.0) < 1e-12);
        QVERIFY(fp32.breakdown.optimizer > bf16.breakdown.optimizer);
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
        const StepBreakdown& b = plain.breakdown;
        QVERIFY(qAbs(b.bubble / (b.compute + b.recompute + b.tpExposed) - 7.0 / 64.0) < 1e-12);
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
        const PerfResult r = estimatePerformance(in);
        // One sequence, a one-token prompt: time per token = the weights a decode step reads
        // (all but the embedding table, which it gathers) / (HBM x the catalog's memory_bound).
        const double weights = (parameterCount(in.arch) - in.arch.vocabSize * double(in.arch.hiddenSize)) * 2.0;
        const double expected = weights / (3350e9 * in.gpu->efficiency.memoryBound);
        QVERIFY2(qAbs(r.stepTimeS - expected) / expected < 0.02, qPrintable(QString::number(r.stepTimeS / expected)));
        QCOMPARE(r.demandTokensPerS, 10.0);
    }
};

QTEST_GUILESS_MAIN(TestPerfModel)
#include "tst_perfmodel.moc"
