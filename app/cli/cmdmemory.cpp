// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#include "clicontext.h"
#include "ui/textformat.h"

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

/// "7e9", "7B", "70.6b", "1.5T", "350M" -> a number; nullopt if not one.
std::optional<double> parseCount(QString s)
{
    s = s.trimmed();
    double scale = 1.0;
    if (!s.isEmpty()) {
        const QChar last = s.back().toUpper();
        const QString units = "KMBT";
        if (units.contains(last)) {
            scale = std::pow(1000.0, units.indexOf(last) + 1);
            s.chop(1);
        }
    }
    bool ok = false;
    const double v = s.toDouble(&ok) * scale;
    return ok && std::isfinite(v) && v > 0 ? std::optional<double>(v) : std::nullopt;
}

QJsonValue bytesOrNull(const std::optional<double>& v) { return v ? QJsonValue(*v) : QJsonValue(QJsonValue::Null); }

QString gibUnit(double bytes) { return ui::text::gib(bytes, 2) + " GiB"; }
QString gibOr(const std::optional<double>& v) { return v ? gibUnit(*v) : QStringLiteral("unknown"); }

} // namespace

int runMemory(const QStringList& args)
{
    CommandLine cl("memory", "Memory per GPU of one training or serving job: weights, gradients, optimizer states "
                             "(ZeRO), activations (Korthikanti et al. 2022), KV cache and runtime overhead, with the "
                             "per-layer profile of the most loaded pipeline stage. Formulas: docs/model-reference.md.");
    auto& p = cl.parser();
    const QList<QCommandLineOption> options = {
        {"model", "Model preset from data/models (e.g. llama3-70b).", "PRESET"},
        {"params", "Parameter count (7e9, 7B, 1.5T) when there is no preset.", "N"},
        {"layers", "Custom architecture: transformer layers.", "L"},
        {"hidden", "Custom architecture: hidden size.", "H"},
        {"heads", "Custom architecture: attention heads.", "A"},
        {"kv-heads", "Custom architecture: KV heads (default: heads).", "K"},
        {"ffn", "Custom architecture: FFN size (default 4 x hidden).", "F"},
        {"gated-ffn", "Custom architecture: the FFN is gated (SwiGLU, three matrices); the default, as in a "
                      "scenario's custom model."},
        {"no-gated-ffn", "Custom architecture: a plain two-matrix FFN (GeLU, GPT-3 style)."},
        {"dropout", "Custom architecture: dropout layers whose masks are kept for backward (GPT-3 style; "
                    "default off, as in a scenario's custom model)."},
        {"vocab", "Custom architecture: vocabulary size.", "V"},
        {"seq", "Sequence length (default: the preset's; required for a custom architecture).", "S"},
        {"micro-batch", "Sequences per micro-batch (default 1).", "B"},
        {"micro-batches", "Micro-batches per step, bounding the pipeline's in-flight ones (default: pp).", "M"},
        {"tp", "Tensor-parallel degree (default 1).", "T"},
        {"pp", "Pipeline-parallel degree (default 1).", "P"},
        {"dp", "Data-parallel degree (default 1).", "D"},
        {"zero", "ZeRO stage 0-3 (default 0).", "0|1|2|3"},
        {"sequence-parallel", "Megatron sequence parallelism."},
        {"virtual-stages",
         "Model chunks per pipeline stage: the interleaved 1F1B schedule when above 1 "
         "(default 1).",
         "V"},
        {"recompute", "Activation recomputation (default none).", "none|selective|full"},
        {"precision", "Precision (default bf16; infer also int8, int4).", "bf16|fp16|fp8|fp32"},
        {"optimizer", "Optimizer (default adam).", "adam|adam8bit|sgd"},
        {"main-grads-fp32", "Training: fp32 gradients beside 16-bit weights (Megatron-LM's main grads; 18 bytes "
                            "per parameter with Adam instead of 16)."},
        {"attention",
         "Attention kernels (default auto: flash unless the model keeps dropout masks, as a "
         "scenario's job without flash_attention).",
         "auto|flash|unfused"},
        {"mode", "Job kind (default train).", "train|lora|qlora|infer"},
        {"lora-rank", "LoRA rank (default 16).", "R"},
        {"batch", "infer: concurrent sequences (default 1).", "N"},
        {"context", "infer: tokens per sequence in the KV cache (default: the model's sequence length).", "C"},
        {"runtime-overhead-gib", "Per-GPU runtime overhead (default: the runtime_overhead_gib assumption).", "GIB"},
        {"json", "Print JSON."},
    };
    p.addOptions(options);
    if (auto done = cl.parse(args))
        return *done;
    auto usage = [&](const QString& msg) {
        err() << cl.usageError(msg) << Qt::endl;
        return static_cast<int>(kBadInput);
    };
    if (!p.positionalArguments().isEmpty())
        return usage("unexpected argument '" + p.positionalArguments().first() + "'");
    if (p.isSet("model") == p.isSet("params"))
        return usage("give either --model PRESET or --params N");
    auto intOpt = [&](const char* name, int fallback, int lo, int hi) -> std::optional<int> {
        if (!p.isSet(name))
            return fallback;
        bool ok = false;
        const int v = p.value(name).toInt(&ok);
        if (!ok || v < lo || v > hi) {
            usage(QString("--%1 must be a whole number from %2 to %3, not '%4'")
                      .arg(name)
                      .arg(lo)
                      .arg(hi)
                      .arg(p.value(name)));
            return std::nullopt;
        }
        return v;
    };

    auto catalog = loadCatalogOrReport(p);
    if (!catalog)
        return kFailure;

    Job job;
    job.id = "memory";
    job.name = "memory";
    const QString mode = p.value("mode").isEmpty() ? "train" : p.value("mode");
    const std::map<QString, JobKind> modes{{"train", JobKind::Pretraining},
                                           {"lora", JobKind::Lora},
                                           {"qlora", JobKind::Qlora},
                                           {"infer", JobKind::Inference}};
    if (!modes.count(mode))
        return usage("--mode must be train, lora, qlora or infer");
    job.kind = modes.at(mode);
    const std::map<QString, Optimizer> optimizers{{"adam", Optimizer::AdamW},
                                                  {"adamw", Optimizer::AdamW},
                                                  {"adam8bit", Optimizer::Adam8bit},
                                                  {"sgd", Optimizer::SgdMomentum}};
    const QString opt = p.value("optimizer").isEmpty() ? "adam" : p.value("optimizer");
    if (!optimizers.count(opt))
        return usage("--optimizer must be adam, adam8bit or sgd");
    job.optimizer = optimizers.at(opt);
    job.mainGradsFp32 = p.isSet("main-grads-fp32");
    const QString attention = p.value("attention").isEmpty() ? "auto" : p.value("attention");
    if (attention == "flash" || attention == "unfused")
        job.flashAttention = attention == "flash";
    else if (attention != "auto")
        return usage("--attention must be auto, flash or unfused");
    const QString prec = p.value("precision").isEmpty() ? "bf16" : p.value("precision");
    auto precision = enumFromName<Precision>(prec.toStdString());
    if (!precision)
        return usage("--precision must be " + QString::fromStdString(enumChoices<Precision>()));
    job.precision = *precision;
    auto recompute =
        enumFromName<Recompute>((p.value("recompute").isEmpty() ? "none" : p.value("recompute")).toStdString());
    if (!recompute)
        return usage("--recompute must be none, selective or full");

    const auto tp = intOpt("tp", 1, 1, 1024), pp = intOpt("pp", 1, 1, 1024), dp = intOpt("dp", 1, 1, 1000000);
    const auto zero = intOpt("zero", 0, 0, 3), micro = intOpt("micro-batch", 1, 1, 1000000);
    const auto rank = intOpt("lora-rank", 16, 1, 65536), batch = intOpt("batch", 1, 1, 1000000);
    if (!tp || !pp || !dp || !zero || !micro || !rank || !batch)
        return kBadInput;
    const auto microBatches = intOpt("micro-batches", *pp, 1, 1000000);
    if (!microBatches)
        return kBadInput;
    const auto virtualStages = intOpt("virtual-stages", 1, 1, 1024);
    if (!virtualStages)
        return kBadInput;
    job.parallelism = {*tp, *pp, *dp, *zero, false, p.isSet("sequence-parallel"), *recompute, *virtualStages};
    job.batch = {*micro, *micro * *dp * *microBatches};

    // The model shape: a preset, a custom architecture, or only a parameter count.
    std::optional<ModelArchitecture> arch;
    double params = 0.0;
    const bool custom = p.isSet("layers") || p.isSet("hidden") || p.isSet("heads") || p.isSet("vocab");
    if (p.isSet("model")) {
        job.model.preset = p.value("model").toStdString();
        arch = architectureOf(job.model, *catalog);
        if (!arch) {
            QStringList known;
            for (const auto& m : catalog->models)
                known << QString::fromStdString(m.id);
            err() << "gpuplan-cli memory: no model preset '" << p.value("model") << "' (presets: " << known.join(", ")
                  << ")" << Qt::endl;
            return kBadInput;
        }
        if (custom || p.isSet("gated-ffn") || p.isSet("no-gated-ffn") || p.isSet("dropout"))
            return usage("--layers/--hidden/--heads/--vocab/--[no-]gated-ffn/--dropout describe a custom model; "
                         "not with --model");
    } else {
        auto n = parseCount(p.value("params"));
        if (!n)
            return usage("--params must be a positive number such as 7e9 or 70B, not '" + p.value("params") + "'");
        params = *n;
        if (custom) {
            for (const char* req : {"layers", "hidden", "heads", "vocab", "seq"})
                if (!p.isSet(req))
                    return usage(QString("a custom architecture needs --%1").arg(req));
            ModelArchitecture a;
            const auto layers = intOpt("layers", 0, 1, 100000), hidden = intOpt("hidden", 0, 1, 10000000);
            const auto heads = intOpt("heads", 0, 1, 100000), vocab = intOpt("vocab", 0, 1, 100000000);
            if (!layers || !hidden || !heads || !vocab)
                return kBadInput;
            const auto kv = intOpt("kv-heads", *heads, 1, 100000), ffn = intOpt("ffn", 4 * *hidden, 1, 100000000);
            if (!kv || !ffn)
                return kBadInput;
            a.layers = *layers;
            a.hiddenSize = *hidden;
            a.attentionHeads = *heads;
            a.kvHeads = *kv;
            a.ffnHiddenSize = *ffn;
            a.vocabSize = *vocab;
            // One set of defaults for a custom model: ModelArchitecture's, which the scenario
            // reader and the Add Job dialog use too.
            if (p.isSet("gated-ffn") && p.isSet("no-gated-ffn"))
                return usage("--gated-ffn and --no-gated-ffn contradict each other");
            if (p.isSet("no-gated-ffn"))
                a.gatedFfn = false;
            if (p.isSet("dropout"))
                a.dropout = true;
            job.model.custom = a;
            arch = a;
        }
    }
    if (arch && p.isSet("seq")) {
        const auto seq = intOpt("seq", 0, 1, 100000000);
        if (!seq)
            return kBadInput;
        arch->sequenceLength = *seq;
        if (job.model.preset.empty())
            job.model.custom.sequenceLength = *seq;
    }

    if (job.kind == JobKind::Inference) {
        const auto context = intOpt("context", arch ? arch->sequenceLength : 1, 1, 100000000);
        if (!context)
            return kBadInput;
        job.inference = InferenceSpec{1.0, *context, 1, *batch};
    } else {
        job.training = TrainingSpec{1.0, 60.0};
    }
    if (job.kind == JobKind::Lora || job.kind == JobKind::Qlora)
        job.lora = LoraSpec{*rank, 2.0 * *rank};

    if (arch) {
        // The same rules as a scenario job: TP divides the heads, PP the layers, ...
        Issues issues = validateJob(job, Scenario{}, *catalog, "");
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
        in = calc::memoryInputsFor(job, *arch, overheadGiB * 1024.0 * 1024 * 1024);
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
    out() << "Memory per GPU (" << QString::number(params / 1e9, 'f', 2) << "B parameters, pipeline stage " << m.stage
          << "):\n";
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
