// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
// Mixture of experts with expert parallelism (issue 37): presets against their model cards,
// the ep rules, expert sharding in memory, the all-to-all in the step, experts touched when
// serving, the scenario round trip, Best Parallelism over ep, and published MoE measurements;
// the recipes' settings (etp, recomputation, the all-to-all overlap) and MTP are in tst_moerecipes.
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
