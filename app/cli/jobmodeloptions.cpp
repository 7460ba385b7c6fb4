// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#include "jobmodeloptions.h"

#include "clicontext.h"

#include "model/enumnames.h"
#include "model/validation.h"

#include <cmath>
#include <map>

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

} // namespace

QList<QCommandLineOption> jobModelOptions()
{
    return {
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
    };
}

std::optional<int> intOption(const QCommandLineParser& p, const char* name, int fallback, int lo, int hi,
                             const UsageError& usage)
{
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
}

std::optional<JobModel> readJobModel(const QCommandLineParser& p, const Catalog& catalog, const QString& command,
                                     const UsageError& usage)
{
    auto fail = [&](const QString& msg) -> std::optional<JobModel> {
        usage(msg);
        return std::nullopt;
    };
    auto intOpt = [&](const char* name, int fallback, int lo, int hi) {
        return intOption(p, name, fallback, lo, hi, usage);
    };
    if (p.isSet("model") == p.isSet("params"))
        return fail("give either --model PRESET or --params N");
    JobModel m;
    const QString mode = p.value("mode").isEmpty() ? "train" : p.value("mode");
    const std::map<QString, JobKind> modes{{"train", JobKind::Pretraining},
                                           {"lora", JobKind::Lora},
                                           {"qlora", JobKind::Qlora},
                                           {"infer", JobKind::Inference}};
    if (!modes.count(mode))
        return fail("--mode must be train, lora, qlora or infer");
    m.job.kind = modes.at(mode);
    const std::map<QString, Optimizer> optimizers{{"adam", Optimizer::AdamW},
                                                  {"adamw", Optimizer::AdamW},
                                                  {"adam8bit", Optimizer::Adam8bit},
                                                  {"sgd", Optimizer::SgdMomentum}};
    const QString opt = p.value("optimizer").isEmpty() ? "adam" : p.value("optimizer");
    if (!optimizers.count(opt))
        return fail("--optimizer must be adam, adam8bit or sgd");
    m.job.optimizer = optimizers.at(opt);
    m.job.mainGradsFp32 = p.isSet("main-grads-fp32");
    const QString attention = p.value("attention").isEmpty() ? "auto" : p.value("attention");
    if (attention == "flash" || attention == "unfused")
        m.job.flashAttention = attention == "flash";
    else if (attention != "auto")
        return fail("--attention must be auto, flash or unfused");
    const QString prec = p.value("precision").isEmpty() ? "bf16" : p.value("precision");
    auto precision = enumFromName<Precision>(prec.toStdString());
    if (!precision)
        return fail("--precision must be " + QString::fromStdString(enumChoices<Precision>()));
    m.job.precision = *precision;
    // The model shape: a preset, a custom architecture, or only a parameter count.
    const bool custom = p.isSet("layers") || p.isSet("hidden") || p.isSet("heads") || p.isSet("vocab");
    if (p.isSet("model")) {
        m.job.model.preset = p.value("model").toStdString();
        m.arch = architectureOf(m.job.model, catalog);
        if (!m.arch) {
            QStringList known;
            for (const auto& preset : catalog.models)
                known << QString::fromStdString(preset.id);
            err() << "gpuplan-cli " << command << ": no model preset '" << p.value("model")
                  << "' (presets: " << known.join(", ") << ")" << Qt::endl;
            return std::nullopt;
        }
        if (custom || p.isSet("gated-ffn") || p.isSet("no-gated-ffn") || p.isSet("dropout"))
            return fail("--layers/--hidden/--heads/--vocab/--[no-]gated-ffn/--dropout describe a custom model; "
                        "not with --model");
    } else {
        auto n = parseCount(p.value("params"));
        if (!n)
            return fail("--params must be a positive number such as 7e9 or 70B, not '" + p.value("params") + "'");
        m.params = *n;
        if (custom) {
            for (const char* req : {"layers", "hidden", "heads", "vocab", "seq"})
                if (!p.isSet(req))
                    return fail(QString("a custom architecture needs --%1").arg(req));
            ModelArchitecture a;
            const auto layers = intOpt("layers", 0, 1, 100000), hidden = intOpt("hidden", 0, 1, 10000000);
            const auto heads = intOpt("heads", 0, 1, 100000), vocab = intOpt("vocab", 0, 1, 100000000);
            if (!layers || !hidden || !heads || !vocab)
                return std::nullopt;
            const auto kv = intOpt("kv-heads", *heads, 1, 100000), ffn = intOpt("ffn", 4 * *hidden, 1, 100000000);
            if (!kv || !ffn)
                return std::nullopt;
            a.layers = *layers;
            a.hiddenSize = *hidden;
            a.attentionHeads = *heads;
            a.kvHeads = *kv;
            a.ffnHiddenSize = *ffn;
            a.vocabSize = *vocab;
            // One set of defaults for a custom model: ModelArchitecture's, which the scenario
            // reader and the Add Job dialog use too.
            if (p.isSet("gated-ffn") && p.isSet("no-gated-ffn"))
                return fail("--gated-ffn and --no-gated-ffn contradict each other");
            if (p.isSet("no-gated-ffn"))
                a.gatedFfn = false;
            if (p.isSet("dropout"))
                a.dropout = true;
            m.job.model.custom = a;
            m.arch = a;
        }
    }
    if (m.arch && p.isSet("seq")) {
        const auto seq = intOpt("seq", 0, 1, 100000000);
        if (!seq)
            return std::nullopt;
        m.arch->sequenceLength = *seq;
        if (m.job.model.preset.empty())
            m.job.model.custom.sequenceLength = *seq;
    }

    const auto rank = intOpt("lora-rank", 16, 1, 65536);
    if (!rank)
        return std::nullopt;
    if (m.job.kind == JobKind::Lora || m.job.kind == JobKind::Qlora)
        m.job.lora = LoraSpec{*rank, 2.0 * *rank};
    return m;
}

} // namespace gp::cli
