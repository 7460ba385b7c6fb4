// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
// Per-GPU memory against the published figures it is built from.
#include "calc/memorymodel.h"
#include "testsupport.h"

#include <QSignalSpy>
#include <QTest>

using namespace gp;
using namespace gp::calc;

namespace {

ModelArchitecture gpt3() { return test::bundledCatalog().model("gpt3-175b")->arch; }

/// GPT-3 175B pre-training at TP 8, PP 8 with sequence parallelism and selective recomputation.
Job gpt3Pretraining(int globalBatch)
{
    Job job;
    job.kind = JobKind::Pretraining;
    job.parallelism = {8, 8, 1, 0, false, true, Recompute::Selective};
    job.batch = {1, globalBatch};
    return job;
}

/// Activations the transformer blocks of the reported stage keep.
double blockActivationBytes(const MemoryBreakdown& m)
{
    double bytes = 0.0;
    for (const LayerMemory& l : m.layers)
        if (l.kind == LayerMemory::Kind::Block)
            bytes += l.activationBytes * l.count;
    return bytes;
}

MemoryInputs paramsOnly(double params, int dp, int zero)
{
    MemoryInputs in;
    in.paramsOverride = params;
    in.parallelism.dp = dp;
    in.parallelism.zeroStage = zero;
    return in;
}

} // namespace

class TestMemoryModel : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    /// Rajbhandari et al. 2020 (ZeRO), Figure 1: a 7.5B-parameter model on 64 GPUs with
    /// mixed-precision Adam (K = 12) needs 120 GB per GPU of model states without ZeRO,
    /// 31.4 GB with P_os, 16.6 GB with P_os+g and 1.9 GB with P_os+g+p.
    void zeroPaperFigure1_data()
    {
        QTest::addColumn<int>("stage");
        QTest::addColumn<double>("expectedBytes");
        QTest::newRow("baseline") << 0 << 120e9;
        QTest::newRow("P_os") << 1 << 31.40625e9;
        QTest::newRow("P_os+g") << 2 << 16.640625e9;
        QTest::newRow("P_os+g+p") << 3 << 1.875e9;
    }
    void zeroPaperFigure1()
    {
        QFETCH(int, stage);
        QFETCH(double, expectedBytes);
        const MemoryBreakdown m = estimateMemory(paramsOnly(7.5e9, 64, stage));
        QCOMPARE(m.modelStatesBytes(), expectedBytes);
        QVERIFY(!m.activationsBytes.has_value()); // unknown without a shape, never invented
        QVERIFY(m.layers.empty());
    }

    void optimizerStateBytes()
    {
        QCOMPARE(trainableStateBytes(Precision::Bf16, Optimizer::AdamW).optimizer, 12.0);   // ZeRO K = 12
        QCOMPARE(trainableStateBytes(Precision::Bf16, Optimizer::Adam8bit).optimizer, 6.0); // 2 x 1 byte + master
        QCOMPARE(trainableStateBytes(Precision::Bf16, Optimizer::SgdMomentum).optimizer, 8.0);
        QCOMPARE(trainableStateBytes(Precision::Fp32, Optimizer::AdamW).optimizer, 8.0); // no master copy
        QCOMPARE(trainableStateBytes(Precision::Fp32, Optimizer::AdamW).weights, 4.0);
        // Megatron-LM's fp32 main gradients: 2 + 4 + 12 = 18 bytes per parameter with Adam.
        const StateBytes megatron = trainableStateBytes(Precision::Bf16, Optimizer::AdamW, true);
        QCOMPARE(megatron.weights + megatron.gradients + megatron.optimizer, 18.0);
        QCOMPARE(trainableStateBytes(Precision::Fp32, Optimizer::AdamW, true).gradients, 4.0); // fp32 already
    }

    /// Interleaved 1F1B (Korthikanti et al. 2022 §4.2.3): the first stage keeps
    /// layers x (1 + (p - 1)/(p v)) layers' activations, 1.2917x the plain schedule for GPT-3
    /// 175B at PP 8 with v = 3; the last stage keeps (v - 1)p + 1 chunk-micro-batches.
    void interleavedScheduleKeepsMoreInFlight()
    {
        MemoryInputs in = memoryInputsFor(gpt3Pretraining(64), gpt3(), 0.0);
        const double plain = *estimateMemory(in).activationsPerLayerBytes * 12 * 8; // 12 layers x 8 in flight
        in.parallelism.virtualStages = 3;
        const double blocks = blockActivationBytes(estimateMemory(in));
        QVERIFY2(qAbs(blocks / plain - (1.0 + 7.0 / 24.0)) < 1e-12, qPrintable(QString::number(blocks / plain)));
        // Fewer micro-batches than the schedule would warm up: never more than the step has.
        in.microBatchesPerStep = 2;
        const MemoryBreakdown few = estimateMemory(in);
        QVERIFY(qAbs(blockActivationBytes(few) / (*few.activationsPerLayerBytes * 12 * 2) - 1.0) < 1e-12);
    }

    /// A job's main_grads_fp32 reaches the memory model: GPT-3 175B at TP 8, PP 8 keeps
    /// 18 bytes per parameter of its stage (no ZeRO), 2 more than without.
    void mainGradsFp32FromTheJob()
    {
        Job job = gpt3Pretraining(8);
        const MemoryBreakdown plain = estimateMemory(memoryInputsFor(job, gpt3(), 0.0));
        job.mainGradsFp32 = true;
        const MemoryBreakdown main = estimateMemory(memoryInputsFor(job, gpt3(), 0.0));
        QCOMPARE(main.gradientsBytes, 2.0 * plain.gradientsBytes);
        QCOMPARE(main.weightsBytes, plain.weightsBytes);
        QVERIFY(qAbs(main.modelStatesBytes() / plain.modelStatesBytes() - 18.0 / 16.0) < 1e-12);
    }

    /// Korthikanti et al. 2022, Table 2: activation memory per transformer layer, evaluated
    /// for their GPT-3 175B configuration (Table 3: s = 2048, h = 12288, a = 96, t = 8, b = 1).
    void korthikantiTable2Gpt3_data()
    {
        QTest::addColumn<int>("tp");
        QTest::addColumn<bool>("sp");
        QTest::addColumn<int>("recompute");
        QTest::addColumn<double>("coefficient"); // bytes / (s·b·h)
        const double s = 2048, h = 12288, a = 96, t = 8;
        QTest::newRow("no parallelism") << 1 << false << int(Recompute::None) << 34 + 5 * a * s / h;
        QTest::newRow("tensor parallel") << 8 << false << int(Recompute::None) << 10 + 24 / t + 5 * a * s / (h * t);
        QTest::newRow("tensor + sequence parallel") << 8 << true << int(Recompute::None) << (34 + 5 * a * s / h) / t;
        QTest::newRow("tensor parallel + selective") << 8 << false << int(Recompute::Selective) << 10 + 24 / t;
        QTest::newRow("tensor + sequence + selective") << 8 << true << int(Recompute::Selective) << 34 / t;
        QTest::newRow("full recompute") << 8 << false << int(Recompute::Full) << 2.0;
    }
    void korthikantiTable2Gpt3()
    {
        QFETCH(int, tp);
        QFETCH(bool, sp);
        QFETCH(int, recompute);
        QFETCH(double, coefficient);
        const ModelArchitecture a = gpt3();
        QCOMPARE(a.sequenceLength, 2048);
        const double sbh = 2048.0 * 1 * 12288;
        const double bytes =
            activationBytesPerBlock(a, 2048, 1, tp, sp, static_cast<Recompute>(recompute), Precision::Bf16);
        QVERIFY2(qAbs(bytes / sbh - coefficient) < 1e-9,
                 qPrintable(QString("%1 vs %2").arg(bytes / sbh).arg(coefficient)));
    }

    /// Korthikanti et al. 2022 §4.2: with 1F1B the first pipeline stage keeps p micro-batches
    /// of its L/p layers, i.e. activations of all L layers, whatever p is.
    void firstPipelineStageHoldsAllLayers()
    {
        MemoryInputs in;
        in.arch = gpt3();
        in.parallelism = {8, 8, 1, 1, false, true, Recompute::Selective};
        in.microBatchesPerStep = 64;
        const MemoryBreakdown m = estimateMemory(in);
        QCOMPARE(m.stage, 0);
        const double perLayer = *m.activationsPerLayerBytes;
        const double embeddingMask = 2048.0 * 12288 / 8 * 8; // sbh/t per in-flight micro-batch (dropout)
        QVERIFY(qAbs(*m.activationsBytes - (96 * perLayer + embeddingMask)) < 1.0);
        // Fewer micro-batches than stages: only those are in flight.
        in.microBatchesPerStep = 2;
        const MemoryBreakdown few = estimateMemory(in);
        QVERIFY(qAbs(*few.activationsBytes - (12 * 2 * perLayer + 2048.0 * 12288 / 8 * 2)) < 1.0);
    }

    /// Grouped-query attention: Llama 3 70B keeps 2 x 80 layers x 8 KV heads x 128 x 2 bytes
    /// = 327,680 bytes of KV cache per token in 16 bits (Meta config.json).
    void kvCacheIsGqaAware()
    {
        MemoryInputs in;
        in.arch = test::bundledCatalog().model("llama3-70b")->arch;
        in.kind = JobKind::Inference;
        in.contextTokens = 1;
        in.inferenceConcurrency = 1;
        QCOMPARE(*estimateMemory(in).kvCacheBytes, 327680.0);
        in.contextTokens = 8192;
        in.inferenceConcurrency = 16;
        in.parallelism.tp = 4;
        QCOMPARE(*estimateMemory(in).kvCacheBytes, 327680.0 * 8192 * 16 / 4);
        in.parallelism.tp = 16; // more shards than KV heads: each GPU keeps one replicated head
        QCOMPARE(*estimateMemory(in).kvCacheBytes, 327680.0 / 8 * 8192 * 16);
        in.precision = Precision::Fp8;
        in.parallelism.tp = 1;
        QCOMPARE(*estimateMemory(in).kvCacheBytes, 327680.0 / 2 * 8192 * 16);
    }

    /// Hugging Face PEFT's print_trainable_parameters() for Llama-2-7b with LoRA r = 8 on
    /// every linear layer reports 19,988,480 trainable parameters.
    void loraAdapterParameters()
    {
        const ModelArchitecture a = test::bundledCatalog().model("llama2-7b")->arch;
        QCOMPARE(a.layers * loraBlockParameters(a, 8), 19988480.0);
    }

    /// QLoRA (Dettmers et al. 2023, §3): NF4 storage with double quantisation costs 4.127
    /// bits per parameter.
    void qloraBaseWeights()
    {
        QCOMPARE(frozenWeightBytes(Precision::Bf16, true), 4.127 / 8);
        MemoryInputs in;
        in.arch = test::bundledCatalog().model("llama2-7b")->arch;
        in.kind = JobKind::Qlora;
        in.loraRank = 64;
        const MemoryBreakdown m = estimateMemory(in);
        const double base = parameterCount(*in.arch) * 4.127 / 8;
        const double adapter = in.arch->layers * loraBlockParameters(*in.arch, 64);
        QVERIFY(qAbs(m.weightsBytes - (base + 2 * adapter)) < 1.0);
        QVERIFY(qAbs(m.gradientsBytes - 2 * adapter) < 1.0);
        QVERIFY(qAbs(m.optimizerBytes - 12 * adapter) < 1.0);
    }

    void peakLayerIsNamed()
    {
        MemoryInputs in;
        in.arch = test::bundledCatalog().model("llama3-8b")->arch;
        in.parallelism.recompute = Recompute::Full;
        const MemoryBreakdown m = estimateMemory(in);
        QVERIFY(m.peakLayer >= 0);
        // Llama 3's 128k x 4096 output projection (525M parameters, 16 bytes of state each)
        // outweighs a block (218M), and its input adds to the input embedding's states.
        QCOMPARE(m.layers[static_cast<std::size_t>(m.peakLayer)].name(), std::string("output projection"));
        QCOMPARE(m.perLayer().size(), std::size_t(32 + 3)); // embedding, 32 blocks, projection, loss
        QCOMPARE(m.perLayer()[5].name(), std::string("block 4"));
        double sum = 0;
        for (const auto& l : m.perLayer())
            sum += l.total();
        QVERIFY(qAbs(sum - (m.totalBytes() - m.runtimeBytes)) < 1.0); // the profile adds up
    }

    void lastStageReportedWhenHeavier()
    {
        MemoryInputs in;
        in.arch = test::bundledCatalog().model("llama3-8b")->arch;
        in.parallelism = {1, 4, 1, 0, false, false, Recompute::Full};
        in.microBatchesPerStep = 1; // nothing in flight beyond one micro-batch
        const MemoryBreakdown m = estimateMemory(in);
        QCOMPARE(m.stage, 3); // output projection + logits outweigh the input embedding
    }
};

QTEST_GUILESS_MAIN(TestMemoryModel)
#include "tst_memorymodel.moc"
