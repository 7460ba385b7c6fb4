// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
// What the Megatron-Bridge recipes run on mixture-of-experts models (issue 37): DeepSeek-V3's
// multi-token prediction (mtp_layers), MoE parallel folding (etp), recomputation of modules and
// of some layers, and the overlap of the expert-parallel all-to-all with compute.
#include "calc/evaluate.h"
#include "calc/jobsearch.h"
#include "calc/kernels.h"
#include "calc/memorymodel.h"
#include "calc/modelsize.h"
#include "calc/perfmodel.h"
#include "io/scenarioreader.h"
#include "io/scenariowriter.h"
#include "model/validation.h"
#include "moesupport.h"
#include "testsupport.h"

#include <QTest>

#include <map>
#include <tuple>

#include <cmath>

using namespace gp;
using namespace gp::calc;
using namespace gp::test::moe;

class TestMoeRecipes : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    /// DeepSeek-V3's multi-token-prediction module (mtp_layers 1, config.json
    /// num_nextn_predict_layers): its parameters are one MoE block and the 2h x h projection.
    /// The released checkpoint's MTP module is "14B" (DeepSeek-V3 report §4.2 / model card),
    /// counting its own copies of the 0.93B embedding and output head: within 5 % (rounded).
    /// parameterCount() stays the card's 671B.
    void mtpParametersMatchTheCheckpoint()
    {
        const ModelArchitecture& a = preset("deepseek-v3");
        QCOMPARE(a.mtpLayers, 1);
        const double h = a.hiddenSize;
        QCOMPARE(mtpParameters(a), blockParameters(a) + 2.0 * h * h);
        const double module = (mtpParameters(a) + 2.0 * embeddingParameters(a)) / 1e9;
        QVERIFY2(std::abs(module / 14.0 - 1.0) < 0.05, qPrintable(QString::number(module)));
        QVERIFY(std::abs(parameterCount(a) / 671e9 - 1.0) < 0.01);
        ModelArchitecture none = a;
        none.mtpLayers = 0;
        QCOMPARE(mtpParameters(none), 0.0);
        QCOMPARE(parameterCount(none), parameterCount(a));
    }

    /// The MTP module adds, per token, its active parameters' 6N, a second pass through the
    /// output head (6·V·h) and one more layer's attention (12·h·s): Megatron-LM's
    /// num_floating_point_operations counts mtp_num_layers more blocks and logits.
    void mtpAddsItsFlops()
    {
        ModelArchitecture a = preset("deepseek-v3");
        ModelArchitecture none = a;
        none.mtpLayers = 0;
        const int s = 4096;
        const double added = modelFlopsPerToken(a, s) - modelFlopsPerToken(none, s);
        const double expected =
            6.0 * (mtpActiveParameters(a) + embeddingParameters(a)) + 12.0 * a.hiddenSize * double(s);
        QVERIFY2(std::abs(added / expected - 1.0) < 1e-12, qPrintable(QString::number(added)));
        QVERIFY(mtpActiveParameters(a) < mtpParameters(a));
    }

    /// Training with the MTP module: the last pipeline stage runs one more block and another
    /// pass through the output head, so the step is longer; the last stage also holds the
    /// module's weights and its activations. Serving ignores it (no speculative decoding).
    void mtpLayerLengthensTheLastStage()
    {
        ModelArchitecture a = preset("deepseek-v3");
        a.sequenceLength = 4096;
        a.layers = 8; // four blocks per stage, the first one dense
        a.denseLayers = 1;
        a.mtpLayers = 0;
        auto run = [&](int mtp) {
            ModelArchitecture m = a;
            m.mtpLayers = mtp;
            PerfInputs in;
            in.arch = m;
            in.gpu = test::bundledCatalog().gpu("h100-80gb");
            in.job = training(m, 1, 2, 8, 8, 1, 64, Precision::Bf16);
            in.comm.dataParallelGBps = 100.0;
            in.comm.tensorParallelGBps = in.comm.expertParallelGBps = in.comm.pipelineGBps = 350.0;
            return estimatePerformance(in);
        };
        const PerfResult without = run(0), with1 = run(1), with2 = run(2);
        QVERIFY2(with1.stepTimeS > without.stepTimeS, qPrintable(QString::number(with1.stepTimeS)));
        QVERIFY(with2.stepTimeS > with1.stepTimeS);
        // Each module costs about as much as one of the last stage's 4 blocks plus the head:
        // more than a quarter of the stage's block time, less than the whole stage.
        const double one = with1.stepTimeS - without.stepTimeS;
        QVERIFY2(one < 0.5 * without.stepTimeS, qPrintable(QString("%1 of %2").arg(one).arg(without.stepTimeS)));
        QVERIFY(std::abs((with2.stepTimeS - with1.stepTimeS) / one - 1.0) < 0.2);

        // One stage (first and last): it holds the module's weights, a block's worth (its
        // routed experts sharded over ep as the other blocks' are), and its activations.
        ModelArchitecture m = a;
        m.mtpLayers = 1;
        const MemoryBreakdown with =
            estimateMemory(memoryInputsFor(training(m, 1, 1, 8, 8, 1, 64, Precision::Bf16), m, 0.0, 1.0));
        const MemoryBreakdown plain =
            estimateMemory(memoryInputsFor(training(a, 1, 1, 8, 8, 1, 64, Precision::Bf16), a, 0.0, 1.0));
        const double h = a.hiddenSize;
        const double perGpu = blockParameters(a) - routedExpertParameters(a) * 7.0 / 8.0 + 2.0 * h * h;
        const double bytesPerWeight =
            (plain.weightsBytes) / (parameterCount(a) - a.moeLayers() * routedExpertParameters(a) * 7.0 / 8.0);
        QVERIFY2(std::abs((with.weightsBytes - plain.weightsBytes) / (perGpu * bytesPerWeight) - 1.0) < 1e-6,
                 qPrintable(QString("%1 vs %2 GB, expected %3")
                                .arg(with.weightsBytes / 1e9)
                                .arg(plain.weightsBytes / 1e9)
                                .arg(perGpu * bytesPerWeight / 1e9)));
        QVERIFY(*with.activationsBytes > *plain.activationsBytes);
    }

    /// mtp_layers is validated with its JSON path and round-trips through the scenario format;
    /// a model without it writes none (files stay as they were).
    void mtpLayersInTheScenarioFormat()
    {
        const Catalog& c = test::bundledCatalog();
        ModelArchitecture a = preset("deepseek-v3");
        a.sequenceLength = 4096;
        const Scenario s = with(dgxH100(1), training(a, 1, 1, 8, 4, 1, 8, Precision::Bf16));
        QByteArray json = io::writeScenario(s);
        QVERIFY(json.contains("\"mtp_layers\": 1"));
        const auto back = io::readScenario(json, c);
        QVERIFY2(back.ok(), qPrintable(QString::fromStdString(back.errorText())));
        QCOMPARE(back->tenants[0].jobs[0].model.custom.mtpLayers, 1);
        json.replace("\"mtp_layers\": 1", "\"mtp_layers\": -1");
        const auto bad = io::readScenario(json, c);
        QVERIFY(!bad.ok());
        QVERIFY2(QString::fromStdString(bad.errorText()).contains("model.mtp_layers"),
                 qPrintable(QString::fromStdString(bad.errorText())));
        const Scenario dense = with(dgxH100(1), training(preset("llama3-8b"), 1, 1, 8, 1, 1, 8, Precision::Bf16));
        QVERIFY(!io::writeScenario(dense).contains("mtp_layers"));
    }

    /// Megatron-Core's EP all-to-all overlap (moe_a2a_overlap): never slower than without it, hides
    /// nothing when off, hides at most the compute beside it (the forward's all-to-alls behind the
    /// other micro-batch's backward, the backward's behind its forward) and only in the steady
    /// state, and the parts still add up to the step.
    void epAllToAllOverlap()
    {
        const Catalog& c = test::bundledCatalog();
        ModelArchitecture a = preset("qwen3-30b-a3b");
        a.sequenceLength = 4096;
        a.layers = 12;
        auto run = [&](bool overlap, int micro, int global) {
            Job j = training(a, 1, 1, 16, 16, micro, global, Precision::Bf16);
            j.parallelism.moeA2aOverlap = overlap;
            const Evaluation ev = evaluate(with(dgxH100(2), j), c);
            return only(ev).perf;
        };
        const PerfResult off = run(false, 1, 256), on = run(true, 1, 256);
        QCOMPARE(off.epAllToAllHiddenS, 0.0); // off: nothing hidden
        QVERIFY(off.breakdown.epAllToAll > 0);
        QVERIFY(on.epAllToAllHiddenS > 0);
        QVERIFY(on.stepTimeS <= off.stepTimeS);
        QVERIFY(on.breakdown.epAllToAll >= 0);
        // What is hidden plus what stays exposed is the whole all-to-all.
        QVERIFY(std::abs(on.breakdown.epAllToAll + on.epAllToAllHiddenS - off.breakdown.epAllToAll) <
                1e-9 * off.breakdown.epAllToAll);
        // Bounded by the compute it hides behind (over the fabric at 2 nodes the all-to-all is the
        // larger, so the bound is what binds) and by the steady state's share: 255 of 256 pairs.
        QVERIFY2(on.epAllToAllHiddenS <= on.breakdown.compute + on.breakdown.recompute,
                 qPrintable(QString("%1 > %2").arg(on.epAllToAllHiddenS).arg(on.breakdown.compute)));
        QVERIFY(off.stepTimeS - on.stepTimeS <= off.breakdown.epAllToAll * 255.0 / 256.0 * (1 + 1e-9));
        QVERIFY2(off.breakdown.epAllToAll > off.breakdown.compute, // the case where the bound binds
                 qPrintable(QString("%1 <= %2").arg(off.breakdown.epAllToAll).arg(off.breakdown.compute)));
        QVERIFY(on.breakdown.epAllToAll >=
                off.breakdown.epAllToAll - (on.breakdown.compute + on.breakdown.recompute) * (1 + 1e-9));
        double sum = 0.0;
        for (const StepPart& p : stepParts())
            sum += on.breakdown.*p.value;
        QVERIFY(std::abs(sum - on.stepTimeS) < 1e-9 * on.stepTimeS);
        // One micro-batch per step: its forward and backward run alone, nothing can hide.
        const PerfResult single = run(true, 1, 16);
        QCOMPARE(single.epAllToAllHiddenS, 0.0);
        QCOMPARE(single.stepTimeS, run(false, 1, 16).stepTimeS);
        // Written to the scenario only when set, read back.
        Job j = training(a, 1, 1, 16, 16, 1, 256, Precision::Bf16);
        QVERIFY(!io::writeScenario(with(dgxH100(2), j)).contains("moe_a2a_overlap"));
        j.parallelism.moeA2aOverlap = true;
        const QByteArray json = io::writeScenario(with(dgxH100(2), j));
        QVERIFY(json.contains("\"moe_a2a_overlap\": true"));
        const auto back = io::readScenario(json, c);
        QVERIFY2(back.ok(), qPrintable(QString::fromStdString(back.errorText())));
        QVERIFY(back->tenants[0].jobs[0].parallelism.moeA2aOverlap);
    }

    /// MoE parallel folding (Megatron-Core's expert_tensor_parallel_size, parallel_state.py): with
    /// `etp` set, ep may span TP ranks (etp x ep divides tp x cp x dp instead of ep dividing dp);
    /// each rank holds 1/(etp x ep) of the routed experts; an EP group is etp x ep consecutive
    /// slots, so a group the unfolded layout spreads over two DGX stays on one's NVLink.
    void moeParallelFolding()
    {
        const Catalog& c = test::bundledCatalog();
        // Validation: the folded rule, the old rule kept where etp is not set, dense models.
        Job j = training(preset("mixtral-8x7b"), 2, 1, 2, 4, 1, 2, Precision::Bf16);
        j.model = ModelChoice{"mixtral-8x7b", {}};
        QVERIFY(errors(with(dgxH100(1), j)).join('\n').contains("parallelism.ep: 4 does not divide dp (2)"));
        j.parallelism.etp = 1;
        QVERIFY2(errors(with(dgxH100(1), j)).isEmpty(), qPrintable(errors(with(dgxH100(1), j)).join('\n')));
        j.parallelism.ep = 8;
        QVERIFY2(errors(with(dgxH100(1), j))
                     .contains("tenants[0].jobs[0].parallelism.etp: 1 x ep (8) does not divide tp x cp x dp (4): a "
                               "folded expert grid covers a pipeline stage's ranks"),
                 qPrintable(errors(with(dgxH100(1), j)).join('\n')));
        Job dense = training(preset("llama3-8b"), 2, 1, 2, 1, 1, 2, Precision::Bf16);
        dense.model = ModelChoice{"llama3-8b", {}};
        dense.parallelism.etp = 1;
        QVERIFY(errors(with(dgxH100(1), dense))
                    .contains("tenants[0].jobs[0].parallelism.etp: 1 needs a mixture-of-experts model; this one is "
                              "dense (experts 1)"));

        // Memory: folded etp 1 x ep 4 holds 1/4 of the experts, unfolded tp 2 x ep 4 1/8.
        ModelArchitecture a = preset("qwen3-30b-a3b");
        a.sequenceLength = 4096;
        a.layers = 12;
        Job t = training(a, 2, 1, 4, 4, 1, 32, Precision::Bf16);
        t.parallelism.zeroStage = 0;
        const MemoryBreakdown unfolded = estimateMemory(memoryInputsFor(t, a, 0.0, 1.25));
        t.parallelism.etp = 1;
        const MemoryBreakdown folded = estimateMemory(memoryInputsFor(t, a, 0.0, 1.25));
        const double experts = a.moeLayers() * routedExpertParameters(a);
        const double more = folded.modelStatesBytes() - unfolded.modelStatesBytes();
        QVERIFY2(std::abs(more / (experts * (1.0 / 4 - 1.0 / 8) * 16.0) - 1.0) < 1e-9,
                 qPrintable(QString("%1 GB more").arg(more / 1e9)));
        // ZeRO over the expert-data-parallel group tp x dp / (etp x ep) = 2.
        QCOMPARE(t.parallelism.expertDataParallel(), 2);

        // The EP group's span: tp 2, ep 8 on two DGX H100. Unfolded it is tp x ep = 16 slots, both
        // nodes, over the fabric; folded with etp 1, 8 consecutive slots, one node's NVLink.
        Job e = training(a, 2, 1, 8, 8, 1, 64, Precision::Bf16);
        const Evaluation wide = evaluate(with(dgxH100(2), e), c);
        e.parallelism.etp = 1;
        const Evaluation narrow = evaluate(with(dgxH100(2), e), c);
        QCOMPARE(only(wide).epLink, std::string("fabric"));
        QCOMPARE(only(narrow).epLink, std::string("nvlink"));
        QVERIFY(only(narrow).perf.breakdown.epAllToAll < only(wide).perf.breakdown.epAllToAll);

        // The scenario: etp is written only when set, read back, and 0 is refused with its path.
        const QByteArray json = io::writeScenario(with(dgxH100(2), e));
        QVERIFY(json.contains("\"etp\": 1"));
        const auto back = io::readScenario(json, c);
        QVERIFY2(back.ok(), qPrintable(QString::fromStdString(back.errorText())));
        QCOMPARE(back->tenants[0].jobs[0].parallelism.etp, 1);
        e.parallelism.etp = 0;
        QVERIFY(!io::writeScenario(with(dgxH100(2), e)).contains("\"etp\""));
        QByteArray zero = json;
        zero.replace("\"etp\": 1", "\"etp\": 0");
        const auto refused = io::readScenario(zero, c);
        QVERIFY(!refused.ok());
        QVERIFY2(QString::fromStdString(refused.errorText())
                     .contains("tenants[0].jobs[0].parallelism.etp: 0 must be at least 1"),
                 qPrintable(QString::fromStdString(refused.errorText())));
    }

    /// Megatron-Core's recompute_modules (GPT-OSS's performance recipes: ["layernorm", "moe_act"]):
    /// an MoE block drops its pre-MLP LayerNorm output (2sbh) and the routed experts' activation
    /// output (2 bytes x tokens x active experts x imbalance x expert width) and pays their
    /// memory-bound recomputation; the list is validated and round-trips.
    void recomputeModules()
    {
        const Catalog& c = test::bundledCatalog();
        ModelArchitecture a = preset("gpt-oss-120b");
        a.sequenceLength = 4096;
        const double s = 4096, b = 4, h = a.hiddenSize, imbalance = 1.25;
        const double none =
            activationBytesPerBlock(a, 4096, 4, 1, false, Recompute::None, Precision::Bf16, true, imbalance);
        const double coreOnly =
            activationBytesPerBlock(a, 4096, 4, 1, false, Recompute::Selective, Precision::Bf16, true, imbalance);
        QCOMPARE(coreOnly, none); // flash attention keeps no scores for core_attn to drop
        const double both = activationBytesPerBlock(a, 4096, 4, 1, false, Recompute::Selective, Precision::Bf16, true,
                                                    imbalance, {.coreAttn = false, .layernorm = true, .moeAct = true});
        const double dropped = 2.0 * s * b * h + 2.0 * s * b * a.activeExperts * imbalance * a.expertFfnHiddenSize();
        QVERIFY2(std::abs((none - both) / dropped - 1.0) < 1e-9,
                 qPrintable(QString("%1 MB against %2 MB").arg((none - both) / 1e6).arg(dropped / 1e6)));
        // A dense model has no stand-alone norm or experts: nothing to drop.
        const ModelArchitecture& dense = preset("llama3-8b");
        QCOMPARE(activationBytesPerBlock(dense, 4096, 1, 1, false, Recompute::Selective, Precision::Bf16, true, 1.0,
                                         {.coreAttn = true, .layernorm = true, .moeAct = true}),
                 activationBytesPerBlock(dense, 4096, 1, 1, false, Recompute::None, Precision::Bf16, true));

        // Through a job: less memory, a recompute part in the step.
        a.layers = 4;
        Job j = training(a, 1, 1, 8, 8, 1, 64, Precision::Bf16);
        const Evaluation evPlain = evaluate(with(dgxH100(1), j), c);
        const JobResult plain = only(evPlain);
        j.parallelism.recompute = Recompute::Selective;
        j.parallelism.recomputeModules = {"layernorm", "moe_act"};
        const Evaluation evModules = evaluate(with(dgxH100(1), j), c);
        const JobResult modules = only(evModules);
        QVERIFY(modules.memory.totalBytes() < plain.memory.totalBytes());
        QCOMPARE(plain.perf.breakdown.recompute, 0.0);
        QVERIFY(modules.perf.breakdown.recompute > 0.0);
        QVERIFY(modules.perf.breakdown.recompute < 0.05 * modules.perf.stepTimeS); // memory-bound passes

        // The scenario: written when listed, read back, validated with its path.
        const QByteArray json = io::writeScenario(with(dgxH100(1), j));
        QVERIFY(json.contains("\"recompute_modules\""));
        const auto back = io::readScenario(json, c);
        QVERIFY2(back.ok(), qPrintable(QString::fromStdString(back.errorText())));
        QCOMPARE(back->tenants[0].jobs[0].parallelism.recomputeModules,
                 (std::vector<std::string>{"layernorm", "moe_act"}));
        j.parallelism.recomputeModules = {"layernorm", "mlp", "layernorm"};
        const QStringList e = errors(with(dgxH100(1), j));
        QVERIFY2(e.contains("tenants[0].jobs[0].parallelism.recompute_modules[1]: 'mlp' is not a module the model "
                            "recomputes (core_attn, layernorm, moe_act)"),
                 qPrintable(e.join('\n')));
        QVERIFY(e.contains("tenants[0].jobs[0].parallelism.recompute_modules[2]: 'layernorm' is listed twice"));
        j.parallelism.recomputeModules = {"moe_act"};
        j.parallelism.recompute = Recompute::None;
        QVERIFY(errors(with(dgxH100(1), j))
                    .contains("tenants[0].jobs[0].parallelism.recompute_modules: lists modules for selective "
                              "recomputation; recompute is none, not selective"));
    }

    /// Full recomputation of the first N blocks of each chunk (Megatron-Core's recompute_method
    /// "block", recompute_num_layers; Megatron-Bridge's Llama 3 8B H100 recipe recomputes 5 of 32):
    /// the recompute part and the activations lie between none and full in proportion.
    void recomputeLayers()
    {
        const Catalog& c = test::bundledCatalog();
        ModelArchitecture a = preset("llama3-8b");
        a.sequenceLength = 4096;
        Job j = training(a, 1, 1, 8, 1, 1, 64, Precision::Bf16);
        j.model = ModelChoice{"", a};
        const auto run = [&](Recompute r, int n) {
            j.parallelism.recompute = r;
            j.parallelism.recomputeLayers = n;
            const Evaluation ev = evaluate(with(dgxH100(1), j), c);
            return JobResult(only(ev));
        };
        const JobResult none = run(Recompute::None, 0), all = run(Recompute::Full, 0), five = run(Recompute::Full, 8);
        QCOMPARE(j.parallelism.fullRecomputeShare(32), 0.25);
        QVERIFY(std::abs(five.perf.breakdown.recompute / all.perf.breakdown.recompute - 0.25) < 1e-9);
        const double act = *none.memory.activationsBytes, actAll = *all.memory.activationsBytes;
        QVERIFY2(std::abs((*five.memory.activationsBytes - actAll) / (act - actAll) - 0.75) < 1e-6,
                 qPrintable(QString("%1 GB between %2 and %3")
                                .arg(*five.memory.activationsBytes / 1e9)
                                .arg(actAll / 1e9)
                                .arg(act / 1e9)));
        // Round trip, and refused without full recomputation.
        j.parallelism.recompute = Recompute::Full;
        j.parallelism.recomputeLayers = 5;
        const QByteArray json = io::writeScenario(with(dgxH100(1), j));
        QVERIFY(json.contains("\"recompute_layers\": 5"));
        const auto back = io::readScenario(json, c);
        QVERIFY(back.ok());
        QCOMPARE(back->tenants[0].jobs[0].parallelism.recomputeLayers, 5);
        j.parallelism.recompute = Recompute::Selective;
        QVERIFY2(errors(with(dgxH100(1), j))
                     .contains("tenants[0].jobs[0].parallelism.recompute_layers: 5 recomputes whole blocks; recompute "
                               "is selective, not full"),
                 qPrintable(errors(with(dgxH100(1), j)).join('\n')));
    }
};

QTEST_GUILESS_MAIN(TestMoeRecipes)
#include "tst_moerecipes.moc"
