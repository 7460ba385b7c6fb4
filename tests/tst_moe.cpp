// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
// Mixture of experts with expert parallelism (issue 37): presets against their model cards,
// the ep rules, expert sharding in memory, the all-to-all in the step, experts touched when
// serving, the scenario round trip, Best Parallelism over ep, and published MoE measurements;
// MoE parallel folding (etp) and the recomputation the recipes run (recompute_modules, recompute_layers).
#include "calc/evaluate.h"
#include "calc/jobsearch.h"
#include "calc/kernels.h"
#include "calc/memorymodel.h"
#include "calc/modelsize.h"
#include "calc/perfmodel.h"
#include "io/scenarioreader.h"
#include "io/scenariowriter.h"
#include "model/validation.h"
#include "testsupport.h"

#include <QTest>

#include <map>
#include <tuple>

#include <cmath>

using namespace gp;
using namespace gp::calc;

namespace {

const ModelArchitecture& preset(const char* id)
{
    const ModelPreset* m = test::bundledCatalog().model(id);
    if (!m)
        qFatal("no preset %s", id);
    return m->arch;
}

Scenario dgxH100(int nodes)
{
    const Catalog& c = test::bundledCatalog();
    const NodeTemplate* t = c.nodeTemplate("dgx-h100");
    Scenario s;
    s.name = "moe";
    for (int i = 0; i < nodes; ++i) {
        Node n;
        n.id = "n" + std::to_string(i);
        n.name = n.id;
        n.templateId = t->id;
        n.gpuId = t->gpuId;
        n.gpuCount = t->gpuCount;
        n.nics = {t->nicCount, t->nicSpeedGbps, t->gpudirectRdma};
        s.topology.nodes.push_back(n);
    }
    s.pricing.gpuHourUsd[t->gpuId] = 2.0;
    return s;
}

/// A pre-training job on `arch` (a custom copy of a preset with the benchmark's sequence).
Job training(const ModelArchitecture& arch, int tp, int pp, int dp, int ep, int micro, int global, Precision precision)
{
    Job j;
    j.id = "train";
    j.name = "train";
    j.kind = JobKind::Pretraining;
    j.model.custom = arch;
    j.precision = precision;
    j.parallelism.tp = tp;
    j.parallelism.pp = pp;
    j.parallelism.dp = dp;
    j.parallelism.ep = ep;
    j.parallelism.zeroStage = 1; // Megatron's distributed optimizer
    j.batch = {micro, global};
    j.training = TrainingSpec{1e9, 60.0};
    return j;
}

Scenario with(Scenario s, const Job& j)
{
    Tenant t;
    t.id = "t";
    t.name = "t";
    t.jobs = {j};
    s.tenants.push_back(t);
    return s;
}

QStringList errors(const Scenario& s)
{
    QStringList out;
    for (const Issue& i : validateScenario(s, test::bundledCatalog()))
        if (i.isError())
            out << QString::fromStdString(i.toString());
    return out;
}

/// Not of a temporary: the result would dangle once the full expression ends.
const JobResult& only(const Evaluation&& ev) = delete;
const JobResult& only(const Evaluation& ev)
{
    if (ev.jobs.size() != 1 || !ev.jobs.front().placed)
        qFatal("expected one placed job: %s", ev.jobs.empty() ? "none" : ev.jobs.front().reason.c_str());
    return ev.jobs.front();
}

} // namespace

class TestMoe : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    /// Total and active parameters from the shape against the model cards (within 2 %). The
    /// cards count active parameters with both embedding tables except GPT-OSS, whose card
    /// counts the output projection only (its Table 1: 5.13B of 116.83B).
    void presetsMatchTheirModelCards_data()
    {
        QTest::addColumn<QString>("id");
        QTest::addColumn<double>("activeB");
        QTest::addColumn<int>("embeddingTablesInActive");
        QTest::newRow("mixtral-8x22b") << "mixtral-8x22b" << 39.0 << 2;
        QTest::newRow("deepseek-v3") << "deepseek-v3" << 37.0 << 2;
        QTest::newRow("qwen3-30b-a3b") << "qwen3-30b-a3b" << 3.3 << 2;
        QTest::newRow("qwen3-235b-a22b") << "qwen3-235b-a22b" << 22.0 << 2;
        QTest::newRow("gpt-oss-120b") << "gpt-oss-120b" << 5.13 << 1;
        QTest::newRow("gpt-oss-20b") << "gpt-oss-20b" << 3.61 << 1;
    }
    void presetsMatchTheirModelCards()
    {
        QFETCH(QString, id);
        QFETCH(double, activeB);
        QFETCH(int, embeddingTablesInActive);
        const ModelPreset* m = test::bundledCatalog().model(id.toStdString());
        QVERIFY(m);
        const double total = parameterCount(m->arch) / 1e9;
        QVERIFY2(std::abs(total / m->statedParamsB - 1.0) < 0.02,
                 qPrintable(QString("%1: %2 B against %3 B").arg(id).arg(total).arg(m->statedParamsB)));
        const double active =
            (activeParameterCount(m->arch) - (2 - embeddingTablesInActive) * embeddingParameters(m->arch)) / 1e9;
        QVERIFY2(std::abs(active / activeB - 1.0) < 0.02,
                 qPrintable(QString("%1: %2 B active against %3 B").arg(id).arg(active).arg(activeB)));
        // Every preset passes the shape rules (head_dim lets Qwen3's heads exceed the hidden size).
        Issues issues;
        validateArchitecture(m->arch, "architecture", issues);
        QVERIFY(issues.empty());
    }

    /// DeepSeek-V3's pieces by hand from its config.json: MLA, one shared expert, three dense layers.
    /// Kimi K2 (the DeepSeek-V3 architecture with 384 experts, 64 heads, one dense layer):
    /// 1.04T total parameters (Kimi K2 report) within 2 %; its card's "32B activated" is
    /// rounded, so within 3 %.
    void kimiK2MatchesItsCard()
    {
        const ModelArchitecture& a = preset("kimi-k2");
        const double total = parameterCount(a) / 1e9, active = activeParameterCount(a) / 1e9;
        QVERIFY2(std::abs(total / 1040.0 - 1.0) < 0.02, qPrintable(QString::number(total)));
        QVERIFY2(std::abs(active / 32.0 - 1.0) < 0.03, qPrintable(QString::number(active)));
        QCOMPARE(a.mtpLayers, 0);
        QCOMPARE(a.moeLayers(), 60);
    }

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

    void deepSeekPiecesByHand()
    {
        const ModelArchitecture& a = preset("deepseek-v3");
        const double h = 7168, heads = 128;
        const double mla =
            h * 1536 + 1536 * heads * (128 + 64) + h * (512 + 64) + 512 * heads * (128 + 128) + heads * 128 * h;
        QCOMPARE(attentionParameters(a), mla);
        const double expert = 3.0 * h * 2048;
        QCOMPARE(expertParameters(a), expert);
        QCOMPARE(routedExpertParameters(a), 256 * expert);
        QCOMPARE(blockParameters(a), mla + 257 * expert + h * 256);
        QCOMPARE(denseBlockParameters(a), mla + 3.0 * h * 18432);
        QCOMPARE(a.moeLayers(), 58);
        // The KV cache keeps the latent and the rotary key: 576 values per token and layer,
        // whatever tp (DeepSeek-V2 §2.1.2).
        QCOMPARE(kvCacheBytesPerBlock(a, 8, Precision::Bf16, 1, 1), 576.0 * 2.0);
    }

    void expectedExpertsTouched_data()
    {
        QTest::addColumn<double>("experts");
        QTest::addColumn<double>("active");
        QTest::addColumn<double>("tokens");
        QTest::addColumn<double>("expected");
        QTest::newRow("one token visits k") << 128.0 << 8.0 << 1.0 << 8.0;
        QTest::newRow("two tokens") << 8.0 << 2.0 << 2.0 << 8.0 * (1.0 - 0.75 * 0.75);
        QTest::newRow("a training batch touches all") << 256.0 << 8.0 << 4096.0 << 256.0;
        QTest::newRow("dense") << 1.0 << 1.0 << 64.0 << 1.0;
    }
    void expectedExpertsTouched()
    {
        QFETCH(double, experts);
        QFETCH(double, active);
        QFETCH(double, tokens);
        QFETCH(double, expected);
        QVERIFY(std::abs(calc::expectedExpertsTouched(experts, active, tokens) - expected) < 1e-9 * experts);
    }

    /// Decode at batch 1 reads only the chosen experts' weights; a batch of 256 on Qwen3-30B-A3B
    /// touches most of its 128 experts, so its FFN costs many times the single token's.
    void decodeReadsTheExpertsItTouches()
    {
        const ModelArchitecture& a = preset("qwen3-30b-a3b");
        const BlockShape one(a, 1), ep8(a, 1, false, 1.0, 8);
        QVERIFY(std::abs(one.touchedExperts(1.0) - 8.0) < 1e-9);
        QVERIFY(one.touchedExperts(256.0) > 120.0);
        // With ep 8 each GPU holds 16 experts; the group's 8 tokens touch about 6.6 of them.
        QVERIFY(std::abs(ep8.touchedExperts(1.0) - 16.0 * (1.0 - std::pow(1.0 - 8.0 / 128.0, 8.0))) < 1e-9);
        const GpuSpec& h100 = *test::bundledCatalog().gpu("h100-80gb");
        const Kernels k(h100, Precision::Bf16);
        const double single = k.linear(one, 1.0), batch = k.linear(one, 256.0);
        QVERIFY2(batch > 5.0 * single, qPrintable(QString("%1 vs %2").arg(batch).arg(single)));
    }

    void epIsValidated_data()
    {
        QTest::addColumn<QString>("model");
        QTest::addColumn<int>("dp");
        QTest::addColumn<int>("ep");
        QTest::addColumn<QString>("expected");
        QTest::newRow("does not divide the experts")
            << "mixtral-8x7b" << 6 << 3 << "tenants[0].jobs[0].parallelism.ep: 3 does not divide the model's 8 experts";
        QTest::newRow("dense model") << "llama3-8b" << 2 << 2
                                     << "tenants[0].jobs[0].parallelism.ep: 2 needs a mixture-of-experts model; this "
                                        "one is dense (experts 1)";
        QTest::newRow("does not divide dp")
            << "mixtral-8x7b" << 2 << 4
            << "tenants[0].jobs[0].parallelism.ep: 4 does not divide dp (2): expert-parallel ranks are data-parallel "
               "ranks (set etp for Megatron-Core's MoE parallel folding)";
        QTest::newRow("zero") << "mixtral-8x7b" << 2 << 0
                              << "tenants[0].jobs[0].parallelism.ep: 0 must be between 1 and 4096";
        QTest::newRow("fine") << "mixtral-8x7b" << 8 << 8 << "";
    }
    void epIsValidated()
    {
        QFETCH(QString, model);
        QFETCH(int, dp);
        QFETCH(int, ep);
        QFETCH(QString, expected);
        Job j = training(preset(model.toUtf8().constData()), 1, 1, dp, ep, 1, dp, Precision::Bf16);
        j.model = ModelChoice{model.toStdString(), {}};
        const QStringList e = errors(with(dgxH100(1), j));
        if (expected.isEmpty())
            QVERIFY2(e.isEmpty(), qPrintable(e.join('\n')));
        else
            QVERIFY2(e.contains(expected), qPrintable(e.join('\n')));
    }

    /// EP divides the routed experts' states by ep and nothing else: the difference between ep 1
    /// and ep 8 is exactly 7/8 of the experts' 16 bytes per parameter (bf16 weights and
    /// gradients, fp32 Adam states; no ZeRO).
    void epShardsTheExpertStates()
    {
        ModelArchitecture a = preset("qwen3-30b-a3b");
        a.sequenceLength = 4096;
        Job j = training(a, 1, 1, 8, 1, 1, 64, Precision::Bf16);
        j.parallelism.zeroStage = 0;
        const MemoryBreakdown m1 = estimateMemory(memoryInputsFor(j, a, 0.0, 1.25));
        j.parallelism.ep = 8;
        const MemoryBreakdown m8 = estimateMemory(memoryInputsFor(j, a, 0.0, 1.25));
        const double experts = a.moeLayers() * routedExpertParameters(a);
        const double saved = m1.modelStatesBytes() - m8.modelStatesBytes();
        QVERIFY2(std::abs(saved / (experts * 7.0 / 8.0 * 16.0) - 1.0) < 1e-9,
                 qPrintable(QString("saved %1 GB").arg(saved / 1e9)));
        // The busiest rank's expert activations grow by the imbalance; ep 1 knows no imbalance.
        QVERIFY(*m8.activationsBytes > *m1.activationsBytes);
        // ZeRO-1 shards the experts' optimizer states over the dp / ep = 1 ranks holding them:
        // nothing left to shard, so the expert part stays while the rest shrinks 8-fold.
        j.parallelism.zeroStage = 1;
        const MemoryBreakdown z8 = estimateMemory(memoryInputsFor(j, a, 0.0, 1.25));
        QVERIFY(z8.optimizerBytes > experts / 8.0 * 12.0);
    }

    /// Expert parallelism in the data-parallel step (Megatron-Core's expert_data_parallel group):
    /// the routed experts' gradients are reduced over the dp / ep ranks that hold the same experts,
    /// not over all dp ranks, and the distributed optimizer shards their states over those ranks.
    /// With ep = dp no other rank holds a rank's experts: only the rest of the model is reduced,
    /// and each rank steps the optimizer on its experts whole — as many expert states per GPU as
    /// with ep 1, where every rank holds every expert and keeps 1/dp of their states.
    void expertGradientsReduceOverTheExpertDataParallelGroup()
    {
        ModelArchitecture a = preset("qwen3-30b-a3b");
        a.sequenceLength = 4096;
        a.layers = 12;
        auto run = [&](int ep, int zero) {
            PerfInputs in;
            in.arch = a;
            in.gpu = test::bundledCatalog().gpu("h100-80gb");
            in.job = training(a, 1, 1, 8, ep, 1, 64, Precision::Bf16);
            in.job.parallelism.zeroStage = zero;
            in.comm.dataParallelGBps = 100.0;
            in.comm.tensorParallelGBps = in.comm.expertParallelGBps = 350.0;
            return estimatePerformance(in);
        };
        const double experts = a.moeLayers() * routedExpertParameters(a);
        const double dense = parameterCount(a) - experts;
        for (int zero : {0, 1}) {
            const PerfResult one = run(1, zero), all = run(8, zero);
            const double ratio = all.dataParallelBytesPerGpu / one.dataParallelBytesPerGpu;
            QVERIFY2(std::abs(ratio - dense / (dense + experts)) < 1e-9, qPrintable(QString::number(ratio)));
        }
        const PerfResult one = run(1, 1), all = run(8, 1), half = run(4, 1);
        QVERIFY2(std::abs(all.breakdown.optimizer / one.breakdown.optimizer - 1.0) < 1e-9,
                 qPrintable(QString("%1 s against %2 s").arg(all.breakdown.optimizer).arg(one.breakdown.optimizer)));
        // ep 4: each expert is held by 2 ranks, its gradients reduced and its states sharded over 2.
        QVERIFY(std::abs(half.breakdown.optimizer / one.breakdown.optimizer - 1.0) < 1e-9);
        const double ring8 = 7.0 / 8, ring2 = 1.0 / 2;
        const double expected = (ring8 * dense + ring2 * experts / 4) / (ring8 * (dense + experts));
        QVERIFY(std::abs(half.dataParallelBytesPerGpu / one.dataParallelBytesPerGpu - expected) < 1e-9);
    }

    /// The all-to-all is its own part of the step: zero with ep 1; over NVLink inside one DGX;
    /// over the fabric, several times slower, when the EP group spans two nodes. The parts add
    /// up to the step in every case.
    void allToAllIsAPartOfTheStep()
    {
        const Catalog& c = test::bundledCatalog();
        ModelArchitecture a = preset("qwen3-30b-a3b");
        a.sequenceLength = 4096;
        a.layers = 12; // 7.9B parameters: fits without EP too
        auto step = [&](int ep) {
            const Evaluation ev = evaluate(with(dgxH100(2), training(a, 1, 1, 16, ep, 1, 256, Precision::Bf16)), c);
            return only(ev);
        };
        const JobResult none = step(1), inNode = step(8), across = step(16);
        QCOMPARE(none.perf.breakdown.epAllToAll, 0.0);
        QCOMPARE(none.ep, 1);
        QVERIFY(none.epLink.empty());
        QCOMPARE(inNode.epLink, std::string("nvlink"));
        QCOMPARE(across.epLink, std::string("fabric"));
        QVERIFY(inNode.perf.breakdown.epAllToAll > 0);
        QVERIFY2(across.perf.breakdown.epAllToAll > 3.0 * inNode.perf.breakdown.epAllToAll,
                 qPrintable(
                     QString("%1 vs %2").arg(across.perf.breakdown.epAllToAll).arg(inNode.perf.breakdown.epAllToAll)));
        for (const JobResult* r : {&none, &inNode, &across}) {
            double sum = 0.0;
            for (const StepPart& p : stepParts())
                sum += r->perf.breakdown.*p.value;
            QVERIFY(std::abs(sum - r->perf.stepTimeS) < 1e-9 * r->perf.stepTimeS);
        }
        // Expert parallelism frees memory: ep 8 needs less per GPU than ep 1.
        QVERIFY(inNode.memory.totalBytes() < none.memory.totalBytes());
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

    /// Megatron-Core's own conditions for the overlap are validation errors naming the field.
    void epAllToAllOverlapIsValidated_data()
    {
        QTest::addColumn<int>("ep");
        QTest::addColumn<int>("pp");
        QTest::addColumn<int>("vp");
        QTest::addColumn<bool>("full");
        QTest::addColumn<QString>("expected");
        const QString at = "tenants[0].jobs[0].parallelism.moe_a2a_overlap: true ";
        QTest::newRow("no ep") << 1 << 1 << 1 << false
                               << at + "needs expert parallelism: ep is 1 (Megatron-Core overlaps the EP all-to-all "
                                       "only)";
        QTest::newRow("full recompute")
            << 8 << 1 << 1 << true
            << at + "needs recompute none or selective: Megatron-Core refuses full recomputation with "
                    "overlap_moe_expert_parallel_comm";
        QTest::newRow("pp without vp") << 8 << 2 << 1 << false
                                       << at + "with pp 2 needs virtual_stages > 1: Megatron-Core overlaps the "
                                               "all-to-all in the interleaved schedule only";
        QTest::newRow("fine") << 8 << 2 << 2 << false << "";
    }
    void epAllToAllOverlapIsValidated()
    {
        QFETCH(int, ep);
        QFETCH(int, pp);
        QFETCH(int, vp);
        QFETCH(bool, full);
        QFETCH(QString, expected);
        Job j = training(preset("mixtral-8x7b"), 1, pp, 8, ep, 1, 64, Precision::Bf16);
        j.model = ModelChoice{"mixtral-8x7b", {}};
        j.parallelism.virtualStages = vp;
        j.parallelism.moeA2aOverlap = true;
        if (full)
            j.parallelism.recompute = Recompute::Full;
        const QStringList e = errors(with(dgxH100(pp * 8 / 8 + 1), j));
        if (expected.isEmpty()) {
            for (const QString& m : e)
                QVERIFY2(!m.contains("moe_a2a_overlap"), qPrintable(m));
        } else
            QVERIFY2(e.contains(expected), qPrintable(e.join('\n')));
    }

    /// The load-imbalance assumption is read and changes the step: a larger imbalance slows it.
    void loadImbalanceIsAnEditableAssumption()
    {
        const Catalog& c = test::bundledCatalog();
        ModelArchitecture a = preset("qwen3-30b-a3b");
        a.sequenceLength = 4096;
        a.layers = 12;
        Scenario s = with(dgxH100(1), training(a, 1, 1, 8, 8, 1, 64, Precision::Bf16));
        const Evaluation even = evaluate(s, c);
        const double base = only(even).perf.stepTimeS;
        s.assumptions["moe_load_imbalance"] = 2.0;
        const Evaluation uneven = evaluate(s, c);
        const double skewed = only(uneven).perf.stepTimeS;
        QVERIFY2(skewed > base * 1.05, qPrintable(QString("%1 vs %2").arg(skewed).arg(base)));
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

    void scenarioRoundTrip()
    {
        const Catalog& c = test::bundledCatalog();
        ModelArchitecture a = preset("deepseek-v3");
        a.sequenceLength = 4096;
        const Scenario s = with(dgxH100(1), training(a, 1, 1, 8, 4, 1, 8, Precision::Bf16));
        const QByteArray json = io::writeScenario(s);
        QVERIFY(json.contains("\"ep\": 4"));
        QVERIFY(json.contains("\"kv_lora_rank\": 512"));
        const auto back = io::readScenario(json, c);
        QVERIFY2(back.ok(), qPrintable(QString::fromStdString(back.errorText())));
        QCOMPARE(back->tenants[0].jobs[0].parallelism.ep, 4);
        QVERIFY(back->tenants[0].jobs[0].model.custom == a);
        // A dense job writes no ep, so files without expert parallelism stay as they were.
        const Scenario dense = with(dgxH100(1), training(preset("llama3-8b"), 1, 1, 8, 1, 1, 8, Precision::Bf16));
        QVERIFY(!io::writeScenario(dense).contains("\"ep\""));
        QVERIFY(!io::writeScenario(dense).contains("head_dim"));
    }

    /// Best Parallelism tries ep among the divisors of dp that divide the experts: among the
    /// feasible configurations of a 12-layer Qwen3-30B-A3B shape on 8 H100 some have ep > 1,
    /// and every one keeps ep dividing dp and the experts.
    void bestParallelismConsidersEp()
    {
        const Catalog& c = test::bundledCatalog();
        ModelArchitecture a = preset("qwen3-30b-a3b");
        a.sequenceLength = 4096;
        a.layers = 12;
        const Scenario s = with(dgxH100(1), training(a, 1, 1, 8, 1, 1, 64, Precision::Bf16));
        JobSearchSetup setup = jobSearchSetup(s, c, s.tenants[0].jobs[0], s.topology.nodes[0]);
        setup.gpusMin = setup.gpusMax = 8;
        JobSearchOptions options;
        options.topK = 100000; // every feasible configuration
        const JobSearchResult r = searchJob(setup, options);
        QVERIFY(!r.top.empty());
        bool sawEp = false;
        for (const JobConfig& cfg : r.top) {
            QVERIFY(cfg.parallelism.dp % cfg.parallelism.ep == 0);
            QVERIFY(a.experts % cfg.parallelism.ep == 0);
            sawEp = sawEp || cfg.parallelism.ep > 1;
        }
        QVERIFY(sawEp);
        // The same search without pruning gives the same best (the bound is a lower bound).
        options.memoryBound = false;
        const JobSearchResult full = searchJob(setup, options);
        QVERIFY(!full.top.empty());
        QCOMPARE(full.top.front().parallelism, r.top.front().parallelism);
    }

    /// The serving search on an MoE model offers expert parallelism over the replicas (data-
    /// parallel attention): every ep divides the replicas and the experts with tp x ep inside the
    /// node, each deployment passes a scenario job's rules, and with the experts split the
    /// weights per GPU are smaller than the same deployment's without.
    void servingSearchConsidersEp()
    {
        const Catalog& c = test::bundledCatalog();
        ModelArchitecture a = preset("qwen3-30b-a3b");
        Job j;
        j.id = "chat";
        j.name = "chat";
        j.kind = JobKind::Inference;
        j.model.custom = a;
        j.precision = Precision::Bf16;
        j.parallelism.dp = 8;
        j.inference = InferenceSpec{4.0, 4096, 256, 64, 1024};
        Scenario s = with(dgxH100(1), j);
        s.tenants[0].sla.ttftP99Ms = 5000;
        s.tenants[0].sla.itlP99Ms = 200;
        JobSearchSetup setup = jobSearchSetup(s, c, s.tenants[0].jobs[0], s.topology.nodes[0]);
        setup.gpusMin = setup.gpusMax = 8;
        JobSearchOptions options;
        options.topK = 100000;
        const ServingSearchResult r = searchServing(setup, options);
        QVERIFY2(!r.top.empty(), r.infeasibleReason.c_str());
        std::map<std::tuple<int, int, int, int>, std::map<int, double>> memoryByEp; // tp, cap, precision -> ep
        for (const ServingConfig& cfg : r.top) {
            QVERIFY(cfg.replicas % cfg.ep == 0);
            QVERIFY(a.experts % cfg.ep == 0);
            QVERIFY(cfg.tp * cfg.ep <= 8);
            Scenario withIt = s;
            withIt.tenants[0].jobs[0] = withServingConfig(j, cfg);
            QVERIFY2(errors(withIt).isEmpty(), qPrintable(errors(withIt).join("; ")));
            memoryByEp[{cfg.tp, cfg.replicas, cfg.batchCap, static_cast<int>(cfg.precision)}][cfg.ep] = cfg.memoryBytes;
        }
        int compared = 0;
        for (const auto& [key, byEp] : memoryByEp)
            if (byEp.count(1) && byEp.size() > 1) {
                for (const auto& [ep, bytes] : byEp)
                    if (ep > 1) {
                        ++compared;
                        QVERIFY2(bytes < byEp.at(1),
                                 qPrintable(QString("ep %1: %2 bytes, ep 1: %3").arg(ep).arg(bytes).arg(byEp.at(1))));
                    }
            }
        QVERIFY2(compared > 0, "no deployment with ep > 1 beside the same one without");
    }

    /// Held-out accuracy (docs/validation.md, "Mixture of experts"): Megatron-Bridge's published
    /// pre-training throughput (tests/data/validation/heldout/training.json, rows 100 and 141),
    /// as scenarios in tests/data/validation/ predicted without fitting anything to them. The
    /// bound, a factor of two, was set after seeing the errors (GPT-OSS +60 %): it catches a
    /// broken model, not a missed percent; the errors are printed and documented.
    void heldOutMegatronBridge_data()
    {
        QTest::addColumn<QString>("run");
        QTest::addColumn<int>("gpus");
        QTest::addColumn<double>("measured");
        QTest::addColumn<QString>("link");
        QTest::newRow("row 100") << "megatron-bridge-qwen3-30b-a3b-fp8-ep16-h100" << 16 << 8960.0 << "fabric";
        QTest::newRow("row 141") << "megatron-bridge-gpt-oss-120b-bf16-pp4-ep8-h100" << 64 << 5810.0 << "nvlink";
    }
    void heldOutMegatronBridge()
    {
        QFETCH(QString, run);
        QFETCH(int, gpus);
        QFETCH(double, measured);
        QFETCH(QString, link);
        const std::optional<Scenario> s = test::validationRun(run);
        QVERIFY(s);
        QCOMPARE(s->assumptions.at("moe_load_imbalance"), 1.0); // the source forces balanced routing
        const Evaluation ev = evaluate(*s, test::bundledCatalog());
        const JobResult& r = only(ev);
        QCOMPARE(QString::fromStdString(r.epLink), link); // EP 16 spans two DGX nodes; EP 8 stays in one
        const double predicted = r.perf.tokensPerS / gpus;
        const double error = predicted / measured - 1.0;
        QStringList parts;
        for (const StepPart& p : stepParts())
            parts << QString("%1 %2")
                         .arg(QLatin1String(p.key))
                         .arg(r.perf.breakdown.*p.value / r.perf.stepTimeS, 0, 'f', 3);
        qInfo("%s: predicted %.0f tokens/s/GPU, measured %.0f: error %+.1f %% (%s)", qPrintable(run), predicted,
              measured, 100.0 * error, qPrintable(parts.join(", ")));
        QVERIFY2(std::abs(error) < 1.0, qPrintable(QString("error %1").arg(error)));
    }
};

QTEST_GUILESS_MAIN(TestMoe)
#include "tst_moe.moc"
