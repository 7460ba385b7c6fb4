// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#include "clicontext.h"
#include "io/textformat.h"
#include "jobmodeloptions.h"

#include "calc/memorymodel.h"
#include "model/assumptions.h"
#include "model/enumnames.h"
#include "model/validation.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#include <cmath>

namespace gp::cli {

namespace {

QJsonValue bytesOrNull(const std::optional<double>& v) { return v ? QJsonValue(*v) : QJsonValue(QJsonValue::Null); }

QString gibUnit(double bytes) { return fmt::text::gib(bytes, 2) + " GiB"; }
QString gibOr(const std::optional<double>& v) { return v ? gibUnit(*v) : QStringLiteral("unknown"); }

} // namespace

int runMemory(const QStringList& args)
{
    CommandLine cl("memory", "Memory per GPU of one training or serving job: weights, gradients, optimizer states "
                             "(ZeRO), activations (Korthikanti et al. 2022), KV cache and runtime overhead, with the "
                             "per-layer profile of the most loaded pipeline stage. Formulas: docs/model-reference.md.");
    auto& p = cl.parser();
    const QList<QCommandLineOption> options = {
        {"micro-batch", "Sequences per micro-batch (default 1).", "B"},
        {"micro-batches", "Micro-batches per step, bounding the pipeline's in-flight ones (default: pp).", "M"},
        {"tp", "Tensor-parallel degree (default 1).", "T"},
        {"pp", "Pipeline-parallel degree (default 1).", "P"},
        {"dp", "Data-parallel degree (default 1).", "D"},
        {"ep", "Expert-parallel degree of a mixture-of-experts model: divides dp and the experts (default 1).", "E"},
        {"zero", "ZeRO stage 0-3 (default 0).", "0|1|2|3"},
        {"sequence-parallel", "Megatron sequence parallelism."},
        {"virtual-stages",
         "Model chunks per pipeline stage: the interleaved 1F1B schedule when above 1 "
         "(default 1).",
         "V"},
        {"recompute", "Activation recomputation (default none).", "none|selective|full"},
        {"cp", "Context-parallel degree: each rank keeps seq / cp of the activations (default 1).", "C"},
        {"stage-layers",
         "Blocks per pipeline stage, comma-separated, pp of them summing to the layers "
         "(default: layers / pp each).",
         "N,N,..."},
        {"batch", "infer: concurrent sequences (default 1).", "N"},
        {"context", "infer: tokens per sequence in the KV cache (default: the model's sequence length).", "C"},
        {"runtime-overhead-gib", "Per-GPU runtime overhead (default: the runtime_overhead_gib assumption).", "GIB"},
        {"json", "Print JSON."},
    };
    p.addOptions(jobModelOptions());
    p.addOptions(options);
    if (auto done = cl.parse(args))
        return *done;
    auto usage = [&](const QString& msg) { return cl.refuse(msg); };
    if (!p.positionalArguments().isEmpty())
        return usage("unexpected argument '" + p.positionalArguments().first() + "'");
    auto intOpt = [&](const char* name, int fallback, int lo, int hi) {
        return intOption(p, name, fallback, lo, hi, usage);
    };

    auto catalog = loadCatalogOrReport(p);
    if (!catalog)
        return kFailure;

    auto model = readJobModel(p, *catalog, "memory", usage);
    if (!model)
        return kBadInput;
    Job& job = model->job;
    job.id = "memory";
    job.name = "memory";
    std::optional<ModelArchitecture>& arch = model->arch;
    double params = model->params;
    auto recompute =
        enumFromName<Recompute>((p.value("recompute").isEmpty() ? "none" : p.value("recompute")).toStdString());
    if (!recompute)
        return usage("--recompute must be none, selective or full");

    const auto tp = intOpt("tp", 1, 1, 1024), pp = intOpt("pp", 1, 1, 1024), dp = intOpt("dp", 1, 1, 1000000);
    const auto zero = intOpt("zero", 0, 0, 3), micro = intOpt("micro-batch", 1, 1, 1000000);
    const auto batch = intOpt("batch", 1, 1, 1000000);
    if (!tp || !pp || !dp || !zero || !micro || !batch)
        return kBadInput;
    const auto microBatches = intOpt("micro-batches", *pp, 1, 1000000);
    if (!microBatches)
        return kBadInput;
    const auto virtualStages = intOpt("virtual-stages", 1, 1, 1024);
    if (!virtualStages)
        return kBadInput;
    job.parallelism = {*tp, *pp, *dp, *zero, false, p.isSet("sequence-parallel"), *recompute, *virtualStages};
    const auto ep = intOpt("ep", 1, 1, 4096);
    if (!ep)
        return kBadInput;
    if (*ep > 1 && !arch)
        return usage("--ep needs the model's shape (a preset or --layers ...): experts are sharded by layer");
    job.parallelism.ep = *ep;
    const auto cp = intOpt("cp", 1, 1, 1024);
    if (!cp)
        return kBadInput;
    job.parallelism.cp = *cp;
    if (p.isSet("stage-layers"))
        for (const QString& part : p.value("stage-layers").split(',')) {
            bool ok = false;
            const int n = part.trimmed().toInt(&ok);
            if (!ok)
                return usage("--stage-layers must be whole numbers separated by commas, not '" + part + "'");
            job.parallelism.stageLayers.push_back(n);
        }
    job.batch = {*micro, *micro * *dp * *microBatches};

    if (job.kind == JobKind::Inference) {
        const auto context = intOpt("context", arch ? arch->sequenceLength : 1, 1, 100000000);
        if (!context)
            return kBadInput;
        job.inference = InferenceSpec{1.0, *context, 1, *batch};
    } else {
        job.training = TrainingSpec{1.0, 60.0};
    }

    if (arch) {
        // The same rules as a scenario job: TP divides the heads, PP the layers, ...
        // ... checked on the architecture the calculation uses (--seq included: cp's rule reads it).
        Job checked = job;
        checked.model = ModelChoice{"", *arch};
        Issues issues = validateJob(checked, Scenario{}, *catalog, "");
        int errors = 0;
        for (const Issue& i : issues)
            if (i.isError()) {
                err() << "gpuplan-cli memory: " << QString::fromStdString(i.toString()) << '\n';
                ++errors;
            }
        if (errors > 0) {
            err() << Qt::flush;
            return kBadInput;
        }
        const double computed = calc::parameterCount(*arch);
        if (params > 0 && std::abs(computed - params) / params > 0.05)
            err() << "warning: the architecture has " << computed / 1e9 << "B parameters, not " << params / 1e9
                  << "B; using the architecture" << Qt::endl;
        params = computed;
    }

    double overheadGiB = assumptionValue({}, "runtime_overhead_gib");
    if (p.isSet("runtime-overhead-gib")) {
        bool ok = false;
        overheadGiB = p.value("runtime-overhead-gib").toDouble(&ok);
        if (!ok || !std::isfinite(overheadGiB) || overheadGiB < 0 || overheadGiB > 64)
            return usage("--runtime-overhead-gib must be a number from 0 to 64");
    }
    calc::MemoryInputs in;
    if (arch) {
        in = calc::memoryInputsFor(job, *arch, overheadGiB * 1024.0 * 1024 * 1024,
                                   assumptionValue({}, "moe_load_imbalance"));
    } else {
        in.paramsOverride = params;
        in.kind = job.kind;
        in.precision = job.precision;
        in.optimizer = job.optimizer;
        in.parallelism = job.parallelism;
        in.runtimeOverheadBytes = overheadGiB * 1024.0 * 1024 * 1024;
    }
    in.prefillChunkTokens = static_cast<int>(assumptionValue({}, "inference_prefill_chunk_tokens"));
    const calc::MemoryBreakdown m = calc::estimateMemory(in);
    const bool known = m.activationsBytes.has_value() && m.kvCacheBytes.has_value();
    // One entry per layer; the peak is the first layer holding the most.
    const std::vector<calc::LayerMemory> profile = m.perLayer();
    const calc::LayerMemory* peak = nullptr;
    for (const auto& l : profile)
        if (!peak || l.total() > peak->total())
            peak = &l;

    QJsonArray stageLayers;
    for (int n : job.parallelism.stageLayers)
        stageLayers.append(n);
    if (p.isSet("json")) {
        QJsonArray layers;
        for (const auto& l : profile)
            layers.append(QJsonObject{{"name", QString::fromStdString(l.name())},
                                      {"model_state_bytes", l.modelStateBytes},
                                      {"activation_bytes", l.activationBytes},
                                      {"total_bytes", l.total()}});
        const QJsonObject o{
            {"parameters", params},
            {"pipeline_stage", m.stage},
            {"cp", job.parallelism.cp},
            {"stage_layers", stageLayers},
            {"pipeline_stage_layers",
             arch ? QJsonValue(job.parallelism.layersOfStage(m.stage, arch->layers)) : QJsonValue(QJsonValue::Null)},
            {"model_states_bytes_per_gpu", m.modelStatesBytes()},
            {"weights_bytes_per_gpu", m.weightsBytes},
            {"gradients_bytes_per_gpu", m.gradientsBytes},
            {"optimizer_bytes_per_gpu", m.optimizerBytes},
            {"activations_bytes_per_layer", bytesOrNull(m.activationsPerLayerBytes)},
            {"activations_bytes_per_gpu", bytesOrNull(m.activationsBytes)},
            {"kv_cache_bytes_per_gpu", bytesOrNull(m.kvCacheBytes)},
            {"runtime_bytes_per_gpu", m.runtimeBytes},
            {"total_bytes_per_gpu", known ? QJsonValue(m.totalBytes()) : QJsonValue(QJsonValue::Null)},
            {"peak_layer", peak ? QJsonValue(QString::fromStdString(peak->name())) : QJsonValue(QJsonValue::Null)},
            {"layers", arch ? QJsonValue(layers) : QJsonValue(QJsonValue::Null)},
        };
        out() << QJsonDocument(o).toJson(QJsonDocument::Indented) << Qt::flush;
        return kOk;
    }
    out() << "Memory per GPU (" << QString::number(params / 1e9, 'f', 2) << "B parameters, pipeline stage " << m.stage;
    if (arch && (job.parallelism.pp > 1 || !job.parallelism.stageLayers.empty()))
        out() << " with " << job.parallelism.layersOfStage(m.stage, arch->layers) << " layers";
    if (arch && job.parallelism.cp > 1)
        out() << ", context-parallel " << job.parallelism.cp << ": " << in.sequenceLength / job.parallelism.cp
              << " tokens per rank";
    out() << "):\n";
    out() << "  weights              " << gibUnit(m.weightsBytes) << '\n';
    out() << "  gradients            " << gibUnit(m.gradientsBytes) << '\n';
    out() << "  optimizer states     " << gibUnit(m.optimizerBytes) << '\n';
    out() << "  activations          " << gibOr(m.activationsBytes);
    if (m.activationsPerLayerBytes)
        out() << "  (" << gibUnit(*m.activationsPerLayerBytes) << " per layer and micro-batch)";
    out() << '\n';
    if (job.kind == JobKind::Inference)
        out() << "  KV cache             " << gibOr(m.kvCacheBytes) << '\n';
    out() << "  runtime overhead     " << gibUnit(m.runtimeBytes) << '\n';
    out() << "  total                "
          << (known ? gibUnit(m.totalBytes()) : QStringLiteral("unknown (no architecture)")) << '\n';
    if (peak)
        out() << "  peak layer           " << QString::fromStdString(peak->name()) << " (" << gibUnit(peak->total())
              << ")\n";
    out() << Qt::flush;
    return kOk;
}

} // namespace gp::cli
