// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
// Software-stack profiles (issue 37): the catalog's profiles load cited and checked, a job picks
// one (or the default for its kind), the scenario file keeps the choice, and the figures move
// the step and the serving engine the way their physics says: fully sharded data parallelism
// gathers and reduce-scatters every micro-batch and hides up to its prefetch overlap, the
// distributed optimizer moves fewer bytes than an all-reduce, TensorRT-LLM's KV-cache fraction
// is of the free memory.
#include "calc/evaluate.h"
#include "calc/modelsize.h"
#include "calc/perfmodel.h"
#include "calc/servingcache.h"
#include "calc/servingmodel.h"
#include "io/catalogreader.h"
#include "io/scenarioreader.h"
#include "io/scenariowriter.h"
#include "model/units.h"
#include "testsupport.h"

#include <QTest>

using namespace gp;
using namespace gp::calc;

namespace {

/// Llama 2 7B pre-training on H100s, `dp`-way data parallel over 50 GB/s per GPU (one 400 Gb/s
/// NIC each), fully sharded.
PerfInputs fsdpJob(int dp, int micro, int global, const SoftwareStack* stack)
{
    PerfInputs in;
    in.arch = test::bundledCatalog().model("llama2-7b")->arch;
    in.gpu = test::bundledCatalog().gpu("h100-80gb");
    in.job.kind = JobKind::Pretraining;
    in.job.parallelism.dp = dp;
    in.job.parallelism.fsdp = true;
    in.job.parallelism.zeroStage = 3;
    in.job.batch = {micro, global};
    in.job.training = TrainingSpec{1e9, 60};
    in.comm.dataParallelGBps = 50.0;
    in.comm.tensorParallelGBps = 350.0;
    in.stack = stack;
    return in;
}

/// Llama 3.3 70B in FP8 serving 128/2048 under a closed load of `users` at TP `tp` on `gpu`, with
/// room for every sequence, on the engine `e`.
ServingResult decodeRun(const char* gpu, int tp, int users, const ServingEngine& e)
{
    const Catalog& c = test::bundledCatalog();
    Job job;
    job.kind = JobKind::Inference;
    job.precision = Precision::Fp8;
    job.parallelism.tp = tp;
    InferenceSpec spec;
    spec.inputTokens = 128;
    spec.outputTokens = 2048;
    spec.contextTokens = 128 + 2048;
    spec.concurrency = users;
    spec.load = ServingLoad::Closed;
    job.inference = spec;
    ServingPlacement place;
    place.tensorParallelGBps = 351.0;
    place.kvBudgetBytesPerGpu = 60.0 * kGiB;
    return estimateServing(servingInputsFor(c.model("llama3.3-70b")->arch, job, *c.gpu(gpu), e, Sla{}, place));
}

const Issue* issueAt(const Issues& issues, const std::string& path)
{
    for (const Issue& i : issues)
        if (i.path == path)
            return &i;
    return nullptr;
}

} // namespace

class TestSoftwareStacks : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    /// The bundled profiles: each the issue names, of its kind, every given figure cited.
    void bundledProfilesLoad()
    {
        const Catalog& c = test::bundledCatalog();
        for (const char* id : {"megatron-lm", "nemo", "fsdp", "torchtitan"}) {
            const SoftwareStack* s = c.softwareStack(id);
            QVERIFY2(s, id);
            QCOMPARE(s->kind, std::string("training"));
            QVERIFY2(s->sources.count("fsdp_overlap") && s->sources.count("dp_grad_overlap"), id);
        }
        for (const char* id : {"tensorrt-llm", "vllm", "sglang"}) {
            const SoftwareStack* s = c.softwareStack(id);
            QVERIFY2(s, id);
            QCOMPARE(s->kind, std::string("serving"));
            QVERIFY2(s->sources.count("kv_cache_fraction") && s->sources.count("kv_cache_of"), id);
        }
        QVERIFY(c.softwareStack("tensorrt-llm")->kvOfFreeMemory);
        QVERIFY(!c.softwareStack("vllm")->kvOfFreeMemory);
        QCOMPARE(c.softwareStack("vllm")->kvCacheFraction, 0.9);
        // Megatron-LM keeps what the assumptions said before profiles existed.
        QCOMPARE(c.softwareStack("megatron-lm")->dpGradOverlap, 0.7);
        QCOMPARE(c.softwareStack("megatron-lm")->tpCommOverlap, 0.0);
    }

    /// An out-of-range figure is an error with its path, value and reason, and the catalog is
    /// left as it was; a figure without a source is a warning.
    void badProfileIsRefusedWithPath()
    {
        Catalog c = test::bundledCatalog();
        const std::size_t before = c.softwareStacks.size();
        Issues out;
        io::readCatalogFragment(R"({"format_version": 1, "software_stacks": [
            {"id": "mine", "kind": "training", "fsdp_overlap": 1.5, "step_overhead_s": 0.1,
             "sources": {"fsdp_overlap": "my cluster"}}]})",
                                c, true, out);
        const Issue* bad = issueAt(out, "software_stacks[0].fsdp_overlap");
        QVERIFY2(bad && bad->isError(), issueLines(out).c_str());
        QVERIFY2(bad->message.find("1.5") != std::string::npos &&
                     bad->message.find("between 0 and 1") != std::string::npos,
                 bad->message.c_str());
        const Issue* uncited = issueAt(out, "software_stacks[0].step_overhead_s");
        QVERIFY2(uncited && !uncited->isError(), issueLines(out).c_str());
        QCOMPARE(c.softwareStacks.size(), before);
        QVERIFY(!c.softwareStack("mine"));

        out.clear();
        io::readCatalogFragment(R"({"format_version": 1, "software_stacks": [
            {"id": "mine", "kind": "inference", "sources": {}}]})",
                                c, true, out);
        QVERIFY2(issueAt(out, "software_stacks[0].kind"), issueLines(out).c_str());

        // A user's calibrated profile is one more entry of the same kind.
        out.clear();
        io::readCatalogFragment(R"({"format_version": 1, "software_stacks": [
            {"id": "my-cluster", "kind": "training", "fsdp_overlap": 0.6, "sources": {"fsdp_overlap": "fitted"}}]})",
                                c, true, out);
        QVERIFY2(!hasErrors(out), issueLines(out).c_str());
        QCOMPARE(c.softwareStack("my-cluster")->fsdpOverlap, 0.6);
    }

    /// A job's profile: its own, else training → megatron-lm (fully sharded → fsdp), serving →
    /// tensorrt-llm.
    void defaultsByKind()
    {
        Job j;
        QCOMPARE(softwareStackOf(j), std::string("megatron-lm"));
        j.parallelism.zeroStage = 3;
        QCOMPARE(softwareStackOf(j), std::string("fsdp"));
        j.parallelism.zeroStage = 1;
        j.parallelism.fsdp = true;
        QCOMPARE(softwareStackOf(j), std::string("fsdp"));
        j.softwareStack = "torchtitan";
        QCOMPARE(softwareStackOf(j), std::string("torchtitan"));
        Job serve;
        serve.kind = JobKind::Inference;
        QCOMPARE(softwareStackOf(serve), std::string("tensorrt-llm"));
    }

    /// The file keeps the choice (and leaves it out when unset); an unknown profile or one of
    /// the other kind is an error at the job's software_stack.
    void scenarioFileKeepsTheChoice()
    {
        const Catalog& c = test::bundledCatalog();
        auto s = test::validationRun("trtllm-llama3.3-70b-fp8-tp2-h100");
        QVERIFY(s);
        QVERIFY(!io::writeScenario(*s).contains("software_stack"));
        s->tenants[0].jobs[0].softwareStack = "vllm";
        const QByteArray bytes = io::writeScenario(*s);
        QVERIFY(bytes.contains("\"software_stack\": \"vllm\""));
        auto back = io::readScenario(bytes, c);
        QVERIFY2(back, back.errorText().c_str());
        QCOMPARE(back->tenants[0].jobs[0].softwareStack, std::string("vllm"));

        for (const auto& [stack, why] : {std::pair<QByteArray, const char*>{"no-such-engine", "not a software stack"},
                                         {"megatron-lm", "is a training stack"}}) {
            QByteArray wrong = bytes;
            wrong.replace("\"software_stack\": \"vllm\"", "\"software_stack\": \"" + stack + "\"");
            auto refused = io::readScenario(wrong, c);
            QVERIFY(!refused);
            const Issue* at = issueAt(refused.issues, "tenants[0].jobs[0].software_stack");
            QVERIFY2(at && at->message.find(why) != std::string::npos, refused.errorText().c_str());
        }
    }

    /// ZeRO-3/FSDP: two all-gathers of the parameters and a reduce-scatter of the gradients,
    /// (n-1)/n each, per micro-batch; what shows is what the profile's overlap does not hide.
    void fsdpGathersEveryMicroBatch()
    {
        SoftwareStack stack;
        stack.fsdpOverlap = 0.8;
        stack.fsdpPrefetchLayers = 1;
        const int dp = 64;
        // Eight sequences of 4,096 tokens per micro-batch: more compute than the gathers take,
        // so what hides is the overlap's share, not the window.
        const PerfResult one = estimatePerformance(fsdpJob(dp, 8, 8 * dp, &stack));
        const PerfResult four = estimatePerformance(fsdpJob(dp, 8, 32 * dp, &stack));
        const double params = parameterCount(test::bundledCatalog().model("llama2-7b")->arch);
        const double perMicroBatch = (dp - 1.0) / dp * params * (2.0 + 2.0 + 2.0); // bf16 gather x2, bf16 grads
        QVERIFY2(qAbs(one.dataParallelBytesPerGpu / perMicroBatch - 1.0) < 1e-9,
                 qPrintable(QString::number(one.dataParallelBytesPerGpu / perMicroBatch)));
        QVERIFY(qAbs(four.dataParallelBytesPerGpu / (4.0 * perMicroBatch) - 1.0) < 1e-9);
        QVERIFY(one.breakdown.dpExposed > 0.0);

        // More overlap hides more, never all of the first layer's gathers; no overlap shows all.
        SoftwareStack none = stack, all = stack;
        none.fsdpOverlap = 0.0;
        all.fsdpOverlap = 1.0;
        const PerfResult shown = estimatePerformance(fsdpJob(dp, 8, 8 * dp, &none));
        const PerfResult hidden = estimatePerformance(fsdpJob(dp, 8, 8 * dp, &all));
        QVERIFY(shown.breakdown.dpExposed > one.breakdown.dpExposed);
        QVERIFY(hidden.breakdown.dpExposed < one.breakdown.dpExposed);
        QVERIFY(hidden.breakdown.dpExposed > 0.0);
        QVERIFY2(qAbs(shown.breakdown.dpExposed - shown.networkCommS) < 1e-12, "nothing hidden at overlap 0");
    }

    /// An older trainer's attention kernel falls further behind on Hopper than on Ampere: the
    /// profile's figure for the GPU's architecture replaces its single attention_efficiency there
    /// and nowhere else; a figure out of range is an error at its path.
    void attentionEfficiencyPerArchitecture()
    {
        const Catalog& c = test::bundledCatalog();
        const SoftwareStack* fsdp = c.softwareStack("fsdp");
        QVERIFY(fsdp && fsdp->sources.count("attention_efficiency_by_architecture"));
        QCOMPARE(fsdp->attentionEfficiencyOn("Hopper"), 0.34);
        QCOMPARE(fsdp->attentionEfficiencyOn("Ampere"), fsdp->attentionEfficiency);
        QCOMPARE(c.softwareStack("megatron-lm")->attentionEfficiencyOn("Hopper"), 1.0);

        // A long sequence, where attention is most of the step: the Hopper figure slows the
        // attention kernels, and only them.
        SoftwareStack one, hopper;
        one.attentionEfficiency = hopper.attentionEfficiency = 0.55;
        hopper.attentionEfficiencyByArchitecture["Hopper"] = 0.34;
        PerfInputs in = fsdpJob(8, 1, 8, &one);
        in.arch.sequenceLength = 32768;
        const PerfResult base = estimatePerformance(in);
        in.stack = &hopper;
        const PerfResult slower = estimatePerformance(in);
        QVERIFY(slower.breakdown.compute > 1.1 * base.breakdown.compute);
        QCOMPARE(slower.breakdown.dpExposed, base.breakdown.dpExposed);
        in.gpu = c.gpu("a100-80gb");
        const PerfResult ampere = estimatePerformance(in);
        in.stack = &one;
        QCOMPARE(estimatePerformance(in).stepTimeS, ampere.stepTimeS);

        Catalog mine = c;
        Issues out;
        io::readCatalogFragment(R"({"format_version": 1, "software_stacks": [
            {"id": "mine", "kind": "training", "attention_efficiency_by_architecture": {"Hopper": 3},
             "sources": {"attention_efficiency_by_architecture": "x"}}]})",
                                mine, true, out);
        const Issue* bad = issueAt(out, "software_stacks[0].attention_efficiency_by_architecture.Hopper");
        QVERIFY2(bad && bad->isError() && bad->message.find("3") != std::string::npos, issueLines(out).c_str());
        QVERIFY(!mine.softwareStack("mine"));
    }

    /// The passes over the logits (the loss and whatever else reads them per micro-batch) stream
    /// loss_bytes_per_logit bytes per token and vocabulary entry: Composer's training metrics run
    /// two more cross-entropies than Megatron's fused one.
    void lossBytesPerLogitStreamTheLogits()
    {
        const Catalog& c = test::bundledCatalog();
        QCOMPARE(c.softwareStack("megatron-lm")->lossBytesPerLogit, 16.0);
        QCOMPARE(c.softwareStack("fsdp")->lossBytesPerLogit, 50.0);
        QVERIFY(c.softwareStack("fsdp")->sources.count("loss_bytes_per_logit"));

        SoftwareStack fused, metrics;
        metrics.lossBytesPerLogit = 50.0;
        const int micro = 2, global = 16, dp = 8;
        PerfInputs in = fsdpJob(dp, micro, global, &fused);
        const PerfResult base = estimatePerformance(in);
        in.stack = &metrics;
        const PerfResult more = estimatePerformance(in);
        const GpuSpec& gpu = *in.gpu;
        const double tokens = double(micro) * in.arch.sequenceLength;
        const double extra = (global / (micro * dp)) * tokens * in.arch.vocabSize * (50.0 - 16.0) /
                             (gpu.hbmBandwidthGBps * 1e9 * gpu.efficiency.memoryBound);
        QVERIFY2(qAbs((more.breakdown.compute - base.breakdown.compute) / extra - 1.0) < 1e-9,
                 qPrintable(QString::number(more.breakdown.compute - base.breakdown.compute)));

        Catalog mine = c;
        Issues out;
        io::readCatalogFragment(R"({"format_version": 1, "software_stacks": [
            {"id": "mine", "kind": "training", "loss_bytes_per_logit": -1, "sources": {"loss_bytes_per_logit": "x"}}]})",
                                mine, true, out);
        QVERIFY2(issueAt(out, "software_stacks[0].loss_bytes_per_logit"), issueLines(out).c_str());
    }

    /// The MoE token dispatcher's copies (moe_permute_passes, and with ep > 1 moe_sort_passes) are
    /// HBM traffic of their own per MoE layer, forward and backward: permute/unpermute move the
    /// tokens and their k routed copies, each chunk sort the routed copies both ways. Dense models
    /// and a stack without the passes run as before; the bundled Megatron profiles cite 2 and 2.
    void moeDispatcherCopiesStreamTheRoutedTokens()
    {
        const Catalog& c = test::bundledCatalog();
        QCOMPARE(c.softwareStack("megatron-lm")->moePermutePasses, 2.0);
        QCOMPARE(c.softwareStack("megatron-lm")->moeSortPasses, 2.0);
        QVERIFY(c.softwareStack("megatron-lm")->sources.count("moe_permute_passes"));
        QVERIFY(c.softwareStack("megatron-lm")->sources.count("moe_sort_passes"));

        SoftwareStack none, megatron;
        none.moePermutePasses = 0.0;
        none.moeSortPasses = 0.0;
        PerfInputs in;
        in.arch = c.model("qwen3-30b-a3b")->arch;
        in.arch.sequenceLength = 4096;
        in.gpu = c.gpu("h100-80gb");
        in.job.kind = JobKind::Pretraining;
        in.job.parallelism.dp = 8;
        in.job.parallelism.ep = 8;
        in.job.parallelism.zeroStage = 1;
        in.job.batch = {1, 8};
        in.job.training = TrainingSpec{1e9, 60};
        in.comm.dataParallelGBps = 350.0;
        in.comm.tensorParallelGBps = 350.0;
        in.comm.expertParallelGBps = 350.0;
        in.stack = &none;
        const PerfResult base = estimatePerformance(in);
        in.stack = &megatron;
        const PerfResult copies = estimatePerformance(in);
        const ModelArchitecture& a = in.arch;
        const double tokens = 4096.0, routed = tokens * a.activeExperts;
        const double bytes = (2.0 * (routed + tokens) + 2.0 * 2.0 * routed) * a.hiddenSize * 2.0;
        const double expected =
            2.0 * a.moeLayers() * bytes / (in.gpu->hbmBandwidthGBps * 1e9 * in.gpu->efficiency.memoryBound);
        QVERIFY2(qAbs((copies.breakdown.compute - base.breakdown.compute) / expected - 1.0) < 1e-9,
                 qPrintable(QString("%1 vs %2").arg(copies.breakdown.compute - base.breakdown.compute).arg(expected)));

        // Without expert parallelism the chunk sorts do not run.
        in.job.parallelism.ep = 1;
        in.stack = &none;
        const PerfResult base1 = estimatePerformance(in);
        in.stack = &megatron;
        const PerfResult copies1 = estimatePerformance(in);
        const double expected1 = 2.0 * a.moeLayers() * 2.0 * (routed + tokens) * a.hiddenSize * 2.0 /
                                 (in.gpu->hbmBandwidthGBps * 1e9 * in.gpu->efficiency.memoryBound);
        QVERIFY2(qAbs((copies1.breakdown.compute - base1.breakdown.compute) / expected1 - 1.0) < 1e-9,
                 qPrintable(QString::number(copies1.breakdown.compute - base1.breakdown.compute)));

        // A dense model has no dispatcher.
        PerfInputs dense = fsdpJob(8, 1, 8, &none);
        const double d0 = estimatePerformance(dense).stepTimeS;
        dense.stack = &megatron;
        QCOMPARE(estimatePerformance(dense).stepTimeS, d0);

        Catalog mine = c;
        Issues out;
        io::readCatalogFragment(R"({"format_version": 1, "software_stacks": [
            {"id": "mine", "kind": "training", "moe_sort_passes": 17, "sources": {"moe_sort_passes": "x"}}]})",
                                mine, true, out);
        QVERIFY2(issueAt(out, "software_stacks[0].moe_sort_passes"), issueLines(out).c_str());
    }

    /// The distributed optimizer (ZeRO-1) reduce-scatters the gradients and all-gathers the
    /// 16-bit parameters: fewer bytes than the all-reduce of fp32 gradients, and with overlap
    /// part of both hides (behind backward and the next forward).
    void distributedOptimizerMovesLess()
    {
        PerfInputs in = fsdpJob(32, 1, 64, nullptr);
        in.job.parallelism.fsdp = false;
        in.job.parallelism.zeroStage = 0;
        in.job.mainGradsFp32 = true;
        const PerfResult allReduce = estimatePerformance(in);
        in.job.parallelism.zeroStage = 1;
        const PerfResult sharded = estimatePerformance(in);
        QVERIFY2(qAbs(sharded.dataParallelBytesPerGpu / allReduce.dataParallelBytesPerGpu - 6.0 / 8.0) < 1e-9,
                 qPrintable(QString::number(sharded.dataParallelBytesPerGpu / allReduce.dataParallelBytesPerGpu)));
        QVERIFY(sharded.breakdown.dpExposed < allReduce.breakdown.dpExposed);
    }

    /// The stack's figures reach evaluate(): a per-step overhead lengthens the step by itself, and
    /// the scenario's comm_overlap still overrides the profile's.
    void stackReachesEvaluate()
    {
        auto s = test::validationRun("nemo-llama3-70b-fp8-gbs128");
        QVERIFY(s);
        Catalog c = test::bundledCatalog();
        const Evaluation base = evaluate(*s, c);
        QVERIFY(base.jobs.at(0).placed);
        SoftwareStack* megatron = nullptr;
        for (SoftwareStack& st : c.softwareStacks)
            if (st.id == "megatron-lm")
                megatron = &st;
        QVERIFY(megatron);
        megatron->stepOverheadS = 0.5;
        const Evaluation slower = evaluate(*s, c);
        QVERIFY2(qAbs(slower.jobs.at(0).perf.stepTimeS - base.jobs.at(0).perf.stepTimeS - 0.5) < 1e-9,
                 qPrintable(QString::number(slower.jobs.at(0).perf.stepTimeS - base.jobs.at(0).perf.stepTimeS)));
        s->tenants[0].jobs[0].softwareStack = "nemo";
        const Evaluation nemo = evaluate(*s, c);
        QVERIFY(nemo.jobs.at(0).perf.breakdown.dpExposed <= base.jobs.at(0).perf.breakdown.dpExposed);
        s->assumptions["comm_overlap"] = 0.0;
        const Evaluation overridden = evaluate(*s, c);
        QVERIFY(overridden.jobs.at(0).perf.breakdown.dpExposed >= nemo.jobs.at(0).perf.breakdown.dpExposed);
    }

    /// TensorRT-LLM's fraction is of what the weights leave; vLLM's of the whole GPU. With 70 GB
    /// of FP16 weights per A100 (70B at TP 2) that is the difference between a KV cache and
    /// almost none.
    /// The serving stack's TP all-reduce is a ring of 2 (tp - 1) steps, each with its latency: at TP 8
    /// a 70B decode iteration (160 all-reduces) grows by 160 x 14 x the step latency; at TP 1 nothing.
    void allReduceStepLatencyAddsPerRingStep()
    {
        ServingEngine plain, ring;
        ring.allReduceStepLatencyS = 3.4e-6;
        const ServingResult a = decodeRun("h100-80gb", 8, 512, plain), b = decodeRun("h100-80gb", 8, 512, ring);
        QCOMPARE(a.maxBatch, b.maxBatch);
        const double expected = 160.0 * 14.0 * 3.4e-6;
        QVERIFY2(
            qAbs((b.decodeIterationS - a.decodeIterationS) - expected) < 1e-3 * expected,
            qPrintable(QString("%1 s more, expected %2").arg(b.decodeIterationS - a.decodeIterationS).arg(expected)));
        QVERIFY(b.outputTokensPerS < a.outputTokensPerS);
        QCOMPARE(decodeRun("h200-141gb", 1, 128, ring).decodeIterationS,
                 decodeRun("h200-141gb", 1, 128, plain).decodeIterationS);
        // The bundled serving stacks carry it, cited.
        for (const char* id : {"tensorrt-llm", "vllm", "sglang"}) {
            const SoftwareStack* st = test::bundledCatalog().softwareStack(id);
            QVERIFY2(st->allReduceStepLatencyUs > 0 && st->sources.count("allreduce_step_latency_us"), id);
            QVERIFY2(st->gemmRooflineExponent > 0 && st->sources.count("gemm_roofline_exponent"), id);
            QCOMPARE(withSoftwareStack(ServingEngine{}, st, false).allReduceStepLatencyS,
                     st->allReduceStepLatencyUs * 1e-6);
        }
    }

    /// Near the ridge (70B FP8 on one H200 at 180 sequences: weights and math about equal) the
    /// roofline exponent makes a decode iteration longer than max(compute, memory); a large
    /// exponent is the max again, and far from the ridge (8B, the same batch) it moves little.
    void gemmRooflineExponentNearTheRidge()
    {
        ServingEngine maxOf, smooth, steep;
        smooth.gemmRooflineExponent = 1.75;
        steep.gemmRooflineExponent = 64.0;
        const double base = decodeRun("h200-141gb", 1, 180, maxOf).decodeIterationS;
        const double withP = decodeRun("h200-141gb", 1, 180, smooth).decodeIterationS;
        QVERIFY2(withP > 1.1 * base, qPrintable(QString("%1 vs %2").arg(withP).arg(base)));
        QVERIFY(qAbs(decodeRun("h200-141gb", 1, 180, steep).decodeIterationS / base - 1.0) < 0.01);

        Catalog c = test::bundledCatalog();
        Issues out;
        io::readCatalogFragment(R"({"format_version": 1, "software_stacks": [
            {"id": "mine", "kind": "serving", "gemm_roofline_exponent": 100, "allreduce_step_latency_us": -1,
             "sources": {"gemm_roofline_exponent": "x", "allreduce_step_latency_us": "y"}}]})",
                                c, true, out);
        const Issue* p = issueAt(out, "software_stacks[0].gemm_roofline_exponent");
        const Issue* lat = issueAt(out, "software_stacks[0].allreduce_step_latency_us");
        QVERIFY2(p && p->isError() && lat && lat->isError(), issueLines(out).c_str());
        QVERIFY(!c.softwareStack("mine"));
    }

    /// NCCL's ring hop latencies and its tree are training-stack figures: the bundled training
    /// stacks carry NCCL's (cited), FSDP trainers run per-block collectives, a user profile may
    /// change them, and a bad one is refused with its path (a latency out of range, an unknown link).
    void collectiveLatencyFigures()
    {
        for (const char* id : {"megatron-lm", "nemo", "fsdp", "torchtitan"}) {
            const SoftwareStack* st = test::bundledCatalog().softwareStack(id);
            QVERIFY2(st->sources.count("ring_hop_latency_us") && st->sources.count("tree_allreduce_bandwidth"), id);
            QCOMPARE(st->ringHopLatencyNvlinkUs, 3.4);
            QCOMPARE(st->ringHopLatencyPcieUs, 5.7);
            QCOMPARE(st->ringHopLatencyNetworkUs, 14.0);
            QCOMPARE(st->treeAllReduceBandwidth, 0.92);
        }
        QVERIFY(test::bundledCatalog().softwareStack("fsdp")->perLayerCollectives);
        QVERIFY(!test::bundledCatalog().softwareStack("megatron-lm")->perLayerCollectives);

        Catalog c = test::bundledCatalog();
        Issues out;
        io::readCatalogFragment(R"({"format_version": 1, "software_stacks": [
            {"id": "mine", "kind": "training", "ring_hop_latency_us": {"network": 30, "nvlink": 2},
             "tree_allreduce_bandwidth": 0, "per_layer_collectives": true,
             "sources": {"ring_hop_latency_us": "x", "tree_allreduce_bandwidth": "y", "per_layer_collectives": "z"}}]})",
                                c, true, out);
        QVERIFY2(out.empty(), issueLines(out).c_str());
        const SoftwareStack* mine = c.softwareStack("mine");
        QVERIFY(mine);
        QCOMPARE(mine->ringHopLatencyNetworkUs, 30.0);
        QCOMPARE(mine->ringHopLatencyNvlinkUs, 2.0);
        QCOMPARE(mine->ringHopLatencyPcieUs, 5.7); // not given: NCCL's
        QCOMPARE(mine->treeAllReduceBandwidth, 0.0);
        QVERIFY(mine->perLayerCollectives);

        Issues bad;
        io::readCatalogFragment(R"({"format_version": 1, "software_stacks": [
            {"id": "worse", "kind": "training", "ring_hop_latency_us": {"network": -1, "infiniband": 5},
             "tree_allreduce_bandwidth": 2, "sources": {"ring_hop_latency_us": "x", "tree_allreduce_bandwidth": "y"}}]})",
                                c, true, bad);
        const Issue* hop = issueAt(bad, "software_stacks[0].ring_hop_latency_us.network");
        const Issue* unknown = issueAt(bad, "software_stacks[0].ring_hop_latency_us.infiniband");
        const Issue* tree = issueAt(bad, "software_stacks[0].tree_allreduce_bandwidth");
        QVERIFY2(hop && hop->isError() && unknown && tree && tree->isError(), issueLines(bad).c_str());
        QVERIFY(!c.softwareStack("worse"));
    }

    void kvCacheFractionBasis()
    {
        ServingEngine trt, vllm;
        trt.kvOfFreeMemory = true;
        const double capacity = 79.3 * kGiB, fixed = 70.0 * kGiB;
        QVERIFY(qAbs(trt.kvBudgetBytes(capacity, fixed) - 0.9 * 9.3 * kGiB) < 1.0);
        QVERIFY(qAbs(vllm.kvBudgetBytes(capacity, fixed) - (0.9 * 79.3 - 70.0) * kGiB) < 1.0);

        // Llama 70B in FP16 at TP 2 on H100: 70 GB of weights per GPU, as on the A100 rows.
        auto s = test::validationRun("trtllm-llama3.3-70b-fp8-tp2-h100");
        QVERIFY(s);
        s->tenants[0].jobs[0].precision = Precision::Fp16;
        const Evaluation onTrt = evaluate(*s, test::bundledCatalog());
        s->tenants[0].jobs[0].softwareStack = "vllm";
        const Evaluation onVllm = evaluate(*s, test::bundledCatalog());
        QVERIFY(onTrt.jobs.at(0).serving && onVllm.jobs.at(0).serving);
        QVERIFY2(
            onTrt.jobs.at(0).serving->maxBatch > onVllm.jobs.at(0).serving->maxBatch,
            qPrintable(
                QString("%1 vs %2").arg(onTrt.jobs.at(0).serving->maxBatch).arg(onVllm.jobs.at(0).serving->maxBatch)));
    }
};

QTEST_MAIN(TestSoftwareStacks)
#include "tst_softwarestacks.moc"
