// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
// Issue 37: context parallelism (parallelism.cp) and uneven pipeline stages
// (parallelism.stage_layers) — the file format, the rules, and the memory and step models'
// formulas (docs/model-reference.md, "Context parallelism" and "Uneven pipeline stages").
#include "calc/jobsearch.h"
#include "calc/memorymodel.h"
#include "calc/perfmodel.h"
#include "io/scenarioreader.h"
#include "io/scenariowriter.h"
#include "model/units.h"
#include "model/validation.h"
#include "testsupport.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTest>

#include <algorithm>
#include <numeric>

using namespace gp;
using namespace gp::calc;

namespace {

ModelArchitecture presetArch(const char* id) { return test::bundledCatalog().model(id)->arch; }

/// Llama 3.1 405B at 8K tokens (its preset says 131K, the context it was extended to).
ModelArchitecture llama405b8k()
{
    ModelArchitecture a = presetArch("llama3.1-405b");
    a.sequenceLength = 8192;
    return a;
}

Job pretraining(const Parallelism& par, int global)
{
    Job job;
    job.id = job.name = "run";
    job.kind = JobKind::Pretraining;
    job.precision = Precision::Bf16;
    job.parallelism = par;
    job.batch = {1, global};
    job.training = TrainingSpec{1e9, 60};
    return job;
}

/// Whole H100s inside one NVLink domain (every collective at NVLink's bandwidth).
PerfInputs onH100(const ModelArchitecture& arch, const Job& job)
{
    PerfInputs in;
    in.arch = arch;
    in.gpu = test::bundledCatalog().gpu("h100-80gb");
    in.job = job;
    in.comm = commBandwidth(*in.gpu, true, true, 0.8, 50.0);
    return in;
}

/// The errors `validateJob` reports for a custom-model job, as "path: message" lines.
QStringList errorsOf(const Job& job)
{
    QStringList out;
    for (const Issue& i : validateJob(job, Scenario{}, test::bundledCatalog(), "tenants[0].jobs[0]"))
        if (i.isError())
            out << QString::fromStdString(i.toString());
    return out;
}

Job customJob(const ModelArchitecture& arch, const Parallelism& par, int global)
{
    Job job = pretraining(par, global);
    job.model.custom = arch;
    return job;
}

std::vector<int> stages405b() // 7, fourteen 8s, 7: 126 layers on 16 stages
{
    std::vector<int> v(16, 8);
    v.front() = v.back() = 7;
    return v;
}

} // namespace

class TestContextParallel : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

    /// The fields load, are written back only when set, and survive a round trip.
    void fileFormatRoundTrip()
    {
        QFile f(test::dataDir() + "/samples/01-dgx-h100-three-tenants.json");
        QVERIFY(f.open(QIODevice::ReadOnly));
        QJsonObject root = QJsonDocument::fromJson(f.readAll()).object();
        const auto plain = io::readScenario(QJsonDocument(root).toJson(), test::bundledCatalog());
        QVERIFY(plain.value);
        QVERIFY(!io::writeScenario(*plain.value).contains("stage_layers"));
        QVERIFY(!io::writeScenario(*plain.value).contains("\"cp\""));

        QJsonArray tenants = root["tenants"].toArray();
        QJsonObject tenant = tenants[0].toObject();
        QJsonArray jobs = tenant["jobs"].toArray();
        QJsonObject job = jobs[0].toObject(); // frontier-70b: llama3-70b, tp 8, pp 2, dp 2
        QJsonObject par = job["parallelism"].toObject();
        par["cp"] = 2;
        par["stage_layers"] = QJsonArray{41, 39};
        par["dp"] = 1;
        job["parallelism"] = par;
        job["batch"] = QJsonObject{{"micro", 1}, {"global", 64}};
        jobs[0] = job;
        tenant["jobs"] = jobs;
        tenants[0] = tenant;
        root["tenants"] = tenants;
        const auto read = io::readScenario(QJsonDocument(root).toJson(), test::bundledCatalog());
        QVERIFY2(read.value, read.errorText().c_str());
        const Parallelism& p = read.value->tenants[0].jobs[0].parallelism;
        QCOMPARE(p.cp, 2);
        QCOMPARE(p.stageLayers, (std::vector<int>{41, 39}));
        QCOMPARE(p.gpus(), 8 * 2 * 1 * 2);
        const QByteArray written = io::writeScenario(*read.value);
        const auto again = io::readScenario(written, test::bundledCatalog());
        QVERIFY(again.value);
        QCOMPARE(again.value->tenants[0].jobs[0].parallelism, p);
        QCOMPARE(io::writeScenario(*again.value), written);

        // A layer count that is not a whole number is refused by the reader with its path.
        par["stage_layers"] = QJsonArray{41, "x"};
        job["parallelism"] = par;
        jobs[0] = job;
        tenant["jobs"] = jobs;
        tenants[0] = tenant;
        root["tenants"] = tenants;
        const auto bad = io::readScenario(QJsonDocument(root).toJson(), test::bundledCatalog());
        QVERIFY(!bad.value);
        QVERIFY2(QString::fromStdString(bad.errorText()).contains("tenants[0].jobs[0].parallelism.stage_layers[1]"),
                 bad.errorText().c_str());
    }

    /// Bad input: each rule with its path, value and reason.
    void badInputIsRefusedWithPathValueAndReason()
    {
        const ModelArchitecture a = llama405b8k();
        Parallelism par{8, 8, 1, 1, false, true, Recompute::None};
        par.stageLayers = {15, 15, 15, 15, 15, 15, 15, 15};
        QCOMPARE(errorsOf(customJob(a, par, 64)),
                 QStringList{"tenants[0].jobs[0].parallelism.stage_layers: 8 stages sum to 120 layers, the model has "
                             "126"});
        par.stageLayers = {63, 63};
        QVERIFY2(errorsOf(customJob(a, par, 64))
                     .contains("tenants[0].jobs[0].parallelism.stage_layers: 2 stages "
                               "listed; pp is 8: give one layer count per pipeline stage"),
                 qPrintable(errorsOf(customJob(a, par, 64)).join('\n')));
        par.stageLayers = {0, 18, 18, 18, 18, 18, 18, 18};
        QVERIFY2(
            errorsOf(customJob(a, par, 64))
                .contains("tenants[0].jobs[0].parallelism.stage_layers[0]: 0: every stage needs at least one layer"),
            qPrintable(errorsOf(customJob(a, par, 64)).join('\n')));
        par.stageLayers = {-2, 20, 18, 18, 18, 18, 18, 18};
        QVERIFY(errorsOf(customJob(a, par, 64)).join('\n').contains("stage_layers[0]: -2"));
        // Valid: 15 + 6 x 16 + 15 = 126, and pp need not divide the layers any more.
        par.stageLayers = {15, 16, 16, 16, 16, 16, 16, 15};
        QVERIFY2(errorsOf(customJob(a, par, 64)).isEmpty(), qPrintable(errorsOf(customJob(a, par, 64)).join('\n')));
        // ... and with the interleaved schedule (Megatron-Bridge's 405B recipes: the embedding and the
        // loss counted as pipeline layers make the first and last stages a block lighter).
        par.virtualStages = 2;
        QVERIFY2(errorsOf(customJob(a, par, 64)).isEmpty(), qPrintable(errorsOf(customJob(a, par, 64)).join('\n')));

        // cp: the sequence must split into 2·cp chunks (8192 / 6 does not).
        Parallelism cp{8, 1, 1, 1, false, true, Recompute::None};
        cp.cp = 3;
        QVERIFY2(errorsOf(customJob(a, cp, 8))
                     .contains("tenants[0].jobs[0].parallelism.cp: 3 needs the sequence (8192 tokens) divisible by 2 "
                               "x cp = 6: Megatron-Core splits it into 2·cp chunks for load-balanced causal attention"),
                 qPrintable(errorsOf(customJob(a, cp, 8)).join('\n')));
        cp.cp = 4;
        QVERIFY(errorsOf(customJob(a, cp, 8)).isEmpty());
        cp.cp = 0;
        QVERIFY(errorsOf(customJob(a, cp, 8)).join('\n').contains("parallelism.cp: 0 must be between 1 and 1024"));
        // Unfused attention and serving jobs are refused with a reason.
        cp.cp = 2;
        Job unfused = customJob(a, cp, 8);
        unfused.flashAttention = false;
        QVERIFY(errorsOf(unfused).join('\n').contains("needs fused (flash) attention"));
        Job serving = customJob(a, cp, 1);
        serving.kind = JobKind::Inference;
        serving.training.reset();
        serving.inference = InferenceSpec{1.0, 8192, 128, 1};
        QVERIFY2(errorsOf(serving).join('\n').contains("parallelism.cp: 2: context parallelism is modelled for "
                                                       "training only"),
                 qPrintable(errorsOf(serving).join('\n')));
    }

    /// Each CP rank keeps the activations of seq / cp tokens; the model states do not change
    /// (ZeRO-1 shards the optimizer over dp x cp ranks).
    void contextParallelMemory()
    {
        const ModelArchitecture a = presetArch("llama3-8b");
        Job job = pretraining({1, 1, 2, 1, false, false, Recompute::None}, 16);
        job.model.preset = "llama3-8b";
        const MemoryBreakdown one = estimateMemory(memoryInputsFor(job, a, 0.0));
        job.parallelism.cp = 4;
        const MemoryBreakdown four = estimateMemory(memoryInputsFor(job, a, 0.0));
        QCOMPARE(*four.activationsPerLayerBytes,
                 activationBytesPerBlock(a, 8192 / 4, 1, 1, false, Recompute::None, Precision::Bf16, true));
        QVERIFY(*four.activationsBytes < 0.26 * *one.activationsBytes);
        QCOMPARE(four.weightsBytes, one.weightsBytes);
        QCOMPARE(four.gradientsBytes, one.gradientsBytes);
        QVERIFY(qAbs(four.optimizerBytes - one.optimizerBytes / 4.0) <= 1e-6 * one.optimizerBytes);
    }

    /// The step with CP: compute splits over the ranks, the K/V ring costs
    /// 3 (cp - 1) x 2·b·(s/cp)·kv_heads·d bytes per block and micro-batch (forward and twice
    /// backward) when the link is too slow for attention to hide it, the gradients reduce over
    /// dp x cp ranks, and the parts still add up to the step.
    void contextParallelStep()
    {
        const ModelArchitecture a = presetArch("llama3-8b");
        Job job = pretraining({1, 1, 1, 0, false, false, Recompute::None}, 8);
        const PerfResult one = estimatePerformance(onH100(a, job));
        QCOMPARE(one.breakdown.cpExposed, 0.0);
        QCOMPARE(one.breakdown.dpExposed, 0.0); // one rank: nothing to reduce
        job.parallelism.cp = 2;
        PerfInputs in = onH100(a, job);
        const PerfResult two = estimatePerformance(in);
        QVERIFY2(two.breakdown.compute < 0.56 * one.breakdown.compute &&
                     two.breakdown.compute > 0.45 * one.breakdown.compute,
                 qPrintable(QString::number(two.breakdown.compute / one.breakdown.compute)));
        QVERIFY(two.breakdown.dpExposed > 0.0); // the two CP ranks reduce their gradients
        QVERIFY(std::abs(two.breakdown.total() - two.stepTimeS) <= 1e-12 * two.stepTimeS);
        QVERIFY(two.mfu > 0.0 && two.mfu < 1.0);

        // Over a very slow ring the transfers are the step's CP part, almost unhidden.
        const int cp = 4;
        job.parallelism.cp = cp;
        in = onH100(a, job);
        in.comm.contextParallelGBps = 0.01;
        const PerfResult slow = estimatePerformance(in);
        const double d = static_cast<double>(a.hiddenSize) / a.attentionHeads;
        const double kvBytes = 2.0 * 1 * (8192.0 / cp) * a.kvHeads * d * 2.0;
        const double expected = 8.0 * a.layers * 3.0 * (cp - 1) * kvBytes / 0.01e9; // m = 8 micro-batches
        QVERIFY2(std::abs(slow.breakdown.cpExposed / expected - 1.0) < 0.01,
                 qPrintable(QString::number(slow.breakdown.cpExposed / expected)));
        QVERIFY(std::abs(slow.breakdown.total() - slow.stepTimeS) <= 1e-12 * slow.stepTimeS);
        // With NVLink the ring hides behind the attention kernels of an 8K sequence.
        in.comm = commBandwidth(*in.gpu, true, true, 0.8, 50.0);
        in.comm.contextParallelGBps = in.comm.tensorParallelGBps;
        QVERIFY(estimatePerformance(in).breakdown.cpExposed < 0.02 * slow.breakdown.cpExposed);
    }

    /// stage_layers equal to the even split changes nothing, to the last bit.
    void evenStageLayersAreTheDefault()
    {
        const ModelArchitecture a = presetArch("llama3-70b"); // 80 layers
        Job job = pretraining({8, 4, 1, 1, false, true, Recompute::Selective}, 16);
        const PerfResult even = estimatePerformance(onH100(a, job));
        const MemoryBreakdown evenMemory = estimateMemory(memoryInputsFor(job, a, 0.0));
        job.parallelism.stageLayers = {20, 20, 20, 20};
        const PerfResult listed = estimatePerformance(onH100(a, job));
        QCOMPARE(listed.stepTimeS, even.stepTimeS);
        QCOMPARE(listed.breakdown.bubble, even.breakdown.bubble);
        QCOMPARE(estimateMemory(memoryInputsFor(job, a, 0.0)).totalBytes(), evenMemory.totalBytes());
    }

    /// Llama 3.1 405B's 126 layers on 16 stages as 7, 8 x 14, 7: the slowest stage holds 8
    /// blocks and no output layer, so the bubble is (pp - 1) x its time per micro-batch; moving
    /// the light stage to the front puts the output layer on an 8-block stage and adds it to
    /// every micro-batch. The memory report is the heaviest stage with its own blocks.
    void unevenStages405b()
    {
        const ModelArchitecture a = llama405b8k();
        Job job = pretraining({8, 16, 1, 1, false, true, Recompute::Full}, 64);
        job.parallelism.stageLayers = stages405b();
        const PerfResult r = estimatePerformance(onH100(a, job));
        const StepBreakdown& b = r.breakdown;
        const int m = job.microBatchesPerStep();
        QCOMPARE(m, 64);
        const double perMicro = (b.compute + b.recompute + b.tpExposed + b.cpExposed) / m;
        QVERIFY2(std::abs(b.bubble - 15.0 * perMicro) <= 1e-9 * b.bubble,
                 qPrintable(QString::number(b.bubble / (15.0 * perMicro))));

        // 8 x 15 + 6: the heaviest stage is still 8 blocks without the output layer: the same step.
        std::vector<int> lightLast(16, 8);
        lightLast.back() = 6;
        job.parallelism.stageLayers = lightLast;
        const PerfResult same = estimatePerformance(onH100(a, job));
        QCOMPARE(same.breakdown.compute, b.compute);
        QCOMPARE(same.breakdown.bubble, b.bubble);
        // 6 + 8 x 15: the last stage carries 8 blocks and the output layer: slower.
        std::vector<int> lightFirst(16, 8);
        lightFirst.front() = 6;
        job.parallelism.stageLayers = lightFirst;
        const PerfResult slower = estimatePerformance(onH100(a, job));
        QVERIFY(slower.breakdown.compute > b.compute);
        QVERIFY(slower.breakdown.bubble > b.bubble);

        // Interleaved (v 8, Megatron-Bridge's GB200 layout of 7, 8 x 14, 7): each stage is charged by
        // its total, the same compute, and the bubble is (pp - 1) / v of the heaviest stage's time.
        job.parallelism.stageLayers = stages405b();
        job.parallelism.virtualStages = 8;
        const PerfResult interleaved = estimatePerformance(onH100(a, job));
        QCOMPARE(interleaved.breakdown.compute, b.compute);
        const double perMicroV = (interleaved.breakdown.compute + interleaved.breakdown.recompute +
                                  interleaved.breakdown.tpExposed + interleaved.breakdown.cpExposed) /
                                 m;
        QVERIFY2(std::abs(interleaved.breakdown.bubble - 15.0 / 8.0 * perMicroV) <= 1e-9 * interleaved.breakdown.bubble,
                 qPrintable(QString::number(interleaved.breakdown.bubble / (15.0 / 8.0 * perMicroV))));
        job.parallelism.virtualStages = 1;

        // Memory: the reported stage's blocks are its own count, from its own first block, with
        // min(pp - stage, m) micro-batches in flight (1F1B).
        job.parallelism.stageLayers = stages405b();
        const MemoryBreakdown mem = estimateMemory(memoryInputsFor(job, a, 0.0));
        const auto block = std::find_if(mem.layers.begin(), mem.layers.end(),
                                        [](const LayerMemory& l) { return l.kind == LayerMemory::Kind::Block; });
        QVERIFY(block != mem.layers.end());
        QCOMPARE(block->count, job.parallelism.stageLayers[static_cast<std::size_t>(mem.stage)]);
        QCOMPARE(block->block, job.parallelism.firstLayerOfStage(mem.stage, a.layers));
        const double inFlight = std::min(16 - mem.stage, m);
        QVERIFY(std::abs(block->activationBytes - *mem.activationsPerLayerBytes * inFlight) <=
                1e-9 * block->activationBytes);
        // Stage 1 (8 blocks, 15 in flight) outweighs stage 0 (7 blocks and the embedding, 16 in
        // flight) here: full recomputation keeps little per block, the model states rule.
        QCOMPARE(mem.stage, 1);
        QCOMPARE(block->count, 8);
    }

    /// Best Parallelism tries CP for long sequences only, and keeps the search bounded.
    void searchTriesContextParallelForLongSequences()
    {
        auto search = [](int sequence) {
            JobSearchSetup setup;
            setup.arch = presetArch("llama3-8b");
            setup.arch.sequenceLength = sequence;
            setup.gpu = test::bundledCatalog().gpu("h100-80gb");
            setup.job = pretraining({1, 1, 1, 0, false, false, Recompute::None}, 16);
            setup.gpusPerNode = setup.nvlinkDomainGpus = 8;
            setup.linkEfficiency = 0.8;
            setup.networkGBpsPerGpu = 40.0;
            setup.capacityBytes = setup.gpu->memoryUsableGiB * kGiB;
            setup.gpusMin = setup.gpusMax = 8;
            JobSearchOptions options;
            options.topK = 50;
            return searchJob(setup, options);
        };
        const JobSearchResult shortSeq = search(8192);
        auto anyCp = [](const std::vector<JobConfig>& v) {
            return std::any_of(v.begin(), v.end(), [](const JobConfig& c) { return c.parallelism.cp > 1; });
        };
        QVERIFY(!anyCp(shortSeq.top) && !anyCp(shortSeq.paretoMemory));
        const JobSearchResult longSeq = search(65536);
        QVERIFY(longSeq.configurations > shortSeq.configurations);
        QVERIFY(longSeq.configurations < 4 * shortSeq.configurations);
        QVERIFY2(anyCp(longSeq.paretoMemory) || anyCp(longSeq.top), qPrintable(QString::number(longSeq.feasible)));
        for (const JobConfig& c : longSeq.top)
            QCOMPARE(c.gpus, c.parallelism.gpus());
    }
};

QTEST_GUILESS_MAIN(TestContextParallel)
#include "tst_contextparallel.moc"
