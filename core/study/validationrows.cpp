// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#include "validationrows.h"
#include "validationrowjson.h"

#include "calc/errorband.h"
#include "calc/evaluate.h"
#include "calc/modelsize.h"
#include "calc/parallel.h"
#include "calc/perfmodel.h"
#include "io/jsonfile.h"
#include "io/scenarioreader.h"
#include "io/scenariowriter.h"
#include "model/validation.h"

#include <QJsonDocument>

#include <algorithm>
#include <cctype>
#include <cmath>

namespace gp::study {

using rowjson::contains;
using rowjson::featureHandled;
using rowjson::intOr;
using rowjson::lower;
using rowjson::positive;
using rowjson::str;

namespace {

/// Megatron-Core's layer split when the recipe counts the embedding and the loss as pipeline
/// layers (account_for_embedding_in_pipeline_split / account_for_loss_in_pipeline_split,
/// megatron/core/transformer/transformer_block.py get_num_layers_to_build): layers + 2 split
/// evenly over the pp stages, the first stage one block lighter (its first chunk holds the
/// embedding), the last one block lighter (its last chunk holds the loss). Megatron refuses a
/// layout where layers + 2 does not divide by pp, or a stage's share by vp; so does this.
Result<std::vector<int>> embeddingAndLossSplit(int layers, int pp, int vp)
{
    using R = Result<std::vector<int>>;
    const int perStage = (layers + 2) / std::max(pp, 1);
    if (pp < 2 || (layers + 2) % pp != 0 || perStage % std::max(vp, 1) != 0 || perStage < 2)
        return R::failure("", "pipeline split: layers + 2 (" + std::to_string(layers + 2) + ") do not split into " +
                                  std::to_string(pp) + " stages of " + std::to_string(vp) +
                                  " virtual chunks as Megatron-Core's account_for_embedding/loss_in_pipeline_split "
                                  "requires");
    std::vector<int> stages(static_cast<std::size_t>(pp), perStage);
    stages.front() -= 1;
    stages.back() -= 1;
    return R::success(std::move(stages));
}

/// Megatron-Core's pipeline_model_parallel_layout string (pipeline_parallel_layer_layout.py):
/// `|` ends a virtual-pipeline chunk, `X*n` repeats a symbol, `(...)*n` a group; E is the
/// embedding, t a decoder layer, m a multi-token-prediction layer, L the loss. Chunk i runs on
/// stage i mod pp. Returns the decoder layers of each stage.
Result<std::vector<int>> layoutStages(const std::string& layout, int pp, int vp)
{
    using R = Result<std::vector<int>>;
    const auto fail = [&](const std::string& why) {
        return R::failure("", "pipeline_layout \"" + layout + "\": " + why);
    };
    // Expand the repeats, innermost group first.
    std::string s = layout;
    for (std::size_t close; (close = s.find(')')) != std::string::npos;) {
        const std::size_t open = s.rfind('(', close);
        if (open == std::string::npos)
            return fail("unbalanced parentheses");
        std::size_t end = close + 1;
        int times = 1;
        if (end < s.size() && s[end] == '*') {
            std::size_t digits = end + 1;
            while (digits < s.size() && std::isdigit(static_cast<unsigned char>(s[digits])))
                ++digits;
            if (digits == end + 1)
                return fail("a repeat without a count");
            times = std::stoi(s.substr(end + 1, digits - end - 1));
            end = digits;
        }
        std::string body;
        for (int i = 0; i < times; ++i)
            body += s.substr(open + 1, close - open - 1);
        s = s.substr(0, open) + body + s.substr(end);
    }
    std::vector<int> chunks(1, 0);
    for (std::size_t i = 0; i < s.size(); ++i) {
        const char c = s[i];
        if (c == '|') {
            chunks.push_back(0);
            continue;
        }
        if (c != 'E' && c != 't' && c != 'm' && c != 'L')
            return fail(std::string("unknown symbol '") + c + "'");
        int times = 1;
        if (i + 1 < s.size() && s[i + 1] == '*') {
            std::size_t digits = i + 2;
            while (digits < s.size() && std::isdigit(static_cast<unsigned char>(s[digits])))
                ++digits;
            if (digits == i + 2)
                return fail("a repeat without a count");
            times = std::stoi(s.substr(i + 2, digits - i - 2));
            i = digits - 1;
        }
        if (c == 't')
            chunks.back() += times;
    }
    const int stages = std::max(pp, 1), per = std::max(vp, 1);
    if (int(chunks.size()) != stages * per)
        return fail(std::to_string(chunks.size()) + " chunks, but pp × vp is " + std::to_string(stages * per));
    std::vector<int> out(static_cast<std::size_t>(stages), 0);
    for (std::size_t i = 0; i < chunks.size(); ++i)
        out[i % std::size_t(stages)] += chunks[i];
    return R::success(std::move(out));
}

/// The catalog's node template for a GPU: a DGX where there is one (make_scenarios.py's systems).
const NodeTemplate* templateFor(const Catalog& catalog, const std::string& gpuId)
{
    const NodeTemplate* found = nullptr;
    for (const NodeTemplate& t : catalog.nodeTemplates)
        if (t.gpuId == gpuId && (!found || (t.id.starts_with("dgx-") && !found->id.starts_with("dgx-"))))
            found = &t;
    return found;
}

/// The rack template whose compute trays are `t` (a GB200 or GB300 NVL72), or nullptr.
const RackTemplate* rackOf(const Catalog& catalog, const NodeTemplate& t)
{
    for (const RackTemplate& r : catalog.rackTemplates)
        if (r.trayTemplate == t.id && r.trays > 0)
            return &r;
    return nullptr;
}

/// make_scenarios.py's topology(): nodes of `t` under leaves of 16 nodes, two spines once there are
/// several leaves, every uplink as fast as what its nodes can send (non-blocking). Trays of a rack
/// template come as whole racks, each one NVLink domain (the system the row names: a DGX GB200 or
/// GB300 is NVL72 racks), the job's trays a part of them where placement puts them.
QJsonObject topology(const NodeTemplate& t, int nodes, const RackTemplate* rack)
{
    QJsonArray groups;
    if (rack) {
        const int racks = (nodes + rack->trays - 1) / rack->trays;
        nodes = racks * rack->trays;
        for (int r = 0; r < racks; ++r)
            groups.append(QJsonObject{{"id", QString("nvl-%1").arg(r, 3, 10, QChar('0'))},
                                      {"kind", "nvlink_domain"},
                                      {"template", QString::fromStdString(rack->id)},
                                      {"parent", ""}});
    }
    const int perLeaf = 16;
    const int leaves = std::max(1, (nodes + perLeaf - 1) / perLeaf);
    const int spines = leaves == 1 ? 0 : 2;
    const int nics = std::max(1, t.nicCount);
    const double speed = t.nicSpeedGbps > 0.0 ? t.nicSpeedGbps : 400.0;
    const QString sw = speed <= 200.0 ? "qm8700" : "qm9700";
    QJsonArray switches, nodeList, links;
    const auto name = [](const char* prefix, int i) { return QString("%1-%2").arg(prefix).arg(i, 3, 10, QChar('0')); };
    for (int l = 0; l < leaves; ++l)
        switches.append(QJsonObject{{"id", name("leaf", l)},
                                    {"template", sw},
                                    {"tier", "leaf"},
                                    {"ports", 2 * perLeaf * nics},
                                    {"port_speed_gbps", speed}});
    for (int s = 0; s < spines; ++s)
        switches.append(QJsonObject{{"id", name("spine", s)},
                                    {"template", sw},
                                    {"tier", "spine"},
                                    {"ports", leaves * perLeaf * nics},
                                    {"port_speed_gbps", speed}});
    for (int n = 0; n < nodes; ++n) {
        const QString id = name("node", n);
        QJsonObject node{{"id", id},
                         {"template", QString::fromStdString(t.id)},
                         {"gpu", QString::fromStdString(t.gpuId)},
                         {"gpu_count", t.gpuCount},
                         {"nics", QJsonObject{{"count", nics}, {"speed_gbps", speed}, {"gpudirect_rdma", true}}},
                         {"sharing", QJsonObject{{"mode", "exclusive"}}}};
        if (rack)
            node["group"] = QString("nvl-%1").arg(n / rack->trays, 3, 10, QChar('0'));
        nodeList.append(node);
        links.append(QJsonObject{{"id", id + "-leaf"},
                                 {"from", id},
                                 {"to", name("leaf", n / perLeaf)},
                                 {"bandwidth_gbps", nics * speed},
                                 {"latency_us", 1}});
    }
    for (int l = 0; l < leaves; ++l)
        for (int s = 0; s < spines; ++s)
            links.append(QJsonObject{{"id", name("leaf", l) + "-" + name("spine", s)},
                                     {"from", name("leaf", l)},
                                     {"to", name("spine", s)},
                                     {"bandwidth_gbps", perLeaf * nics * speed / spines},
                                     {"latency_us", 1}});
    QJsonObject out{{"nodes", nodeList}, {"switches", switches}, {"links", links}};
    if (!groups.isEmpty())
        out["groups"] = groups;
    return out;
}

/// The row's model: its preset, the preset it names as closest ("llama3.3-70b (…)"), or its printed
/// shape (llm-foundry's MPT yamls: a 4h GeLU FFN, no dropout).
Result<ModelArchitecture> modelOf(const QJsonObject& row, const Catalog& catalog, std::string& presetId)
{
    for (const char* key : {"model_preset", "closest_preset"}) {
        std::string id = str(row.value(key));
        id = id.substr(0, id.find(' '));
        if (const ModelPreset* p = catalog.model(id)) {
            presetId = id;
            return Result<ModelArchitecture>::success(p->arch);
        }
    }
    const QJsonObject shape = row.value("model_shape").toObject();
    if (shape.isEmpty())
        return Result<ModelArchitecture>::failure("", "no model: no preset and no shape printed");
    ModelArchitecture a;
    a.layers = shape.value("layers").toInt();
    a.hiddenSize = shape.value("hidden_size").toInt();
    a.attentionHeads = shape.value("attention_heads").toInt();
    a.kvHeads = intOr(shape.value("kv_heads"), a.attentionHeads);
    a.ffnHiddenSize = shape.contains("ffn_hidden_size")
                          ? shape.value("ffn_hidden_size").toInt()
                          : int(shape.value("expansion_ratio").toDouble(4.0) * a.hiddenSize);
    a.vocabSize = shape.value("vocab_size").toInt();
    a.gatedFfn = shape.value("gated_ffn").toBool(false);
    a.dropout = false;
    if (a.layers <= 0 || a.hiddenSize <= 0 || a.attentionHeads <= 0 || a.vocabSize <= 0)
        return Result<ModelArchitecture>::failure("", "model shape lacks layers, hidden size, heads or vocabulary");
    return Result<ModelArchitecture>::success(a);
}

/// The row's precision as gpuplan's, or nothing for one it does not model.
std::optional<std::string> precisionOf(const std::string& printed)
{
    const std::string p = lower(printed);
    if (contains(p, "fp8"))
        return "fp8";
    if (contains(p, "bf16"))
        return "bf16";
    if (contains(p, "fp16"))
        return "fp16";
    return std::nullopt;
}

QJsonObject scenarioAround(const QJsonObject& job, const NodeTemplate& t, int nodes, const Catalog& catalog)
{
    const RackTemplate* rack = rackOf(catalog, t);
    const QJsonObject par = job.value("parallelism").toObject();
    const bool v6 = par.contains("moe_a2a_overlap");
    const bool v5 = par.contains("etp") || par.contains("recompute_modules") || par.contains("recompute_layers");
    return {{"format_version", v6     ? 6
                               : v5   ? 5
                               : rack ? 2
                                      : 1}, // NVLink-domain groups arrived in format 2
            {"name", job.value("name")},
            {"placement_policy", "topology_aware"},
            {"pricing", QJsonObject{{"preset", "aws-on-demand-2024"}, {"gpu_hour_usd", QJsonObject{}}}},
            {"assumptions", QJsonObject{}},
            {"topology", topology(t, nodes, rack)},
            {"tenants", QJsonArray{QJsonObject{{"id", "lab"},
                                               {"name", "Lab"},
                                               {"priority", 0},
                                               {"sla", QJsonObject{{"max_penalty_pct", 100}}},
                                               {"jobs", QJsonArray{job}}}}}};
}

const char* const kTrainingFields[] = {"framework",
                                       "precision",
                                       "global_batch",
                                       "micro_batch",
                                       "seq_len",
                                       "model_preset",
                                       "closest_preset",
                                       "model_shape",
                                       "zero_stage",
                                       "activation_recompute",
                                       "vp",
                                       "measured_tokens_per_s_per_gpu"};
const char* const kServingFields[] = {"engine",
                                      "weights_precision",
                                      "isl",
                                      "osl",
                                      "num_requests",
                                      "concurrency",
                                      "request_rate_rps",
                                      "model_preset",
                                      "closest_preset",
                                      "measured_output_tokens_per_s",
                                      "measured_tokens_per_s_unspecified"};
const char* const kCommonFields[] = {"id",
                                     "source",
                                     "gpu_catalog_id",
                                     "gpu_count",
                                     "tp",
                                     "pp",
                                     "dp",
                                     "ep",
                                     "needs_features",
                                     "used_in_existing_validation",
                                     "incomplete"};

} // namespace

std::string rowFamily(const QJsonObject& row, bool serving)
{
    const std::string f = lower(str(row.value(serving ? "engine" : "framework")));
    if (serving) {
        if (contains(f, "tensorrt"))
            return "tensorrt-llm";
        if (contains(f, "sglang"))
            return "sglang";
        if (contains(f, "vllm"))
            return "vllm";
        return {};
    }
    if (contains(f, "torchtitan"))
        return "torchtitan";
    if (contains(f, "fsdp") || contains(f, "composer"))
        return "fsdp";
    if (contains(f, "megatron") || contains(f, "nemo"))
        return "megatron";
    return {};
}

std::string trainingStackOf(const QJsonObject& row)
{
    std::string family = rowFamily(row, false);
    if (family == "megatron")
        return contains(lower(str(row.value("framework"))), "nemo") ? "nemo" : "megatron-lm";
    return family; // "fsdp", "torchtitan" or nothing
}

Issues checkRows(const QJsonArray& rows)
{
    Issues out;
    for (qsizetype i = 0; i < rows.size(); ++i) {
        const std::string at = "[" + std::to_string(i) + "]";
        if (!rows[i].isObject()) {
            out.push_back(Issue::error(at, "expected an object (one published measurement)"));
            continue;
        }
        const QJsonObject row = rows[i].toObject();
        const bool serving = row.contains("engine");
        const auto need = [&](const char* key) {
            if (!row.contains(key))
                out.push_back(Issue::error(at + "." + key, std::string("missing: a ") +
                                                               (serving ? "serving" : "training") + " row needs " +
                                                               key + " (null where the source prints nothing)"));
        };
        for (const char* key : kCommonFields)
            need(key);
        if (serving)
            for (const char* key : kServingFields)
                need(key);
        else
            for (const char* key : kTrainingFields)
                need(key);
        if (row.contains("source") && !row.value("source").isString())
            out.push_back(Issue::error(at + ".source", "expected a string"));
        if (row.contains("needs_features") && !row.value("needs_features").isArray())
            out.push_back(Issue::error(at + ".needs_features", "expected an array of strings"));
    }
    return out;
}

Result<QJsonObject> scenarioForRow(const QJsonObject& row, bool serving, const Catalog& catalog)
{
    using R = Result<QJsonObject>;
    const std::string gpuId = str(row.value("gpu_catalog_id"));
    if (!catalog.gpu(gpuId))
        return R::failure("", "needs feature: GPU not in the catalog");
    const NodeTemplate* t = templateFor(catalog, gpuId);
    if (!t || t->gpuCount <= 0)
        return R::failure("", "no node template with " + gpuId);
    const int gpus = intOr(row.value("gpu_count"), 0);
    const int tp = intOr(row.value("tp"), 1), pp = intOr(row.value("pp"), 1);
    const int cp = std::max(intOr(row.value("cp"), 1), 1);
    const int dp = intOr(row.value("dp"), gpus / std::max(1, tp * pp * cp));
    const int ep = std::max(intOr(row.value("ep"), 1), 1); // expert-parallel ranks are data-parallel ranks
    if (gpus <= 0 || tp * pp * dp * cp != gpus)
        return R::failure("", "parallel degrees: tp × pp × dp × cp is not gpu_count");
    std::string presetId;
    auto arch = modelOf(row, catalog, presetId);
    if (!arch)
        return R::failure("", arch.issues.front().message);
    const auto precision = precisionOf(str(row.value(serving ? "weights_precision" : "precision")));
    if (!precision)
        return R::failure("", "precision not modelled: " + str(row.value(serving ? "weights_precision" : "precision")));
    const QString id = QString::fromStdString(str(row.value("id")));
    QJsonObject job{{"id", "run"},
                    {"name", id},
                    {"precision", QString::fromStdString(*precision)},
                    {"schedule", QJsonObject{{"arrival_h", 0}, {"duration_h", 0}}}};
    const int nodes = (gpus + t->gpuCount - 1) / t->gpuCount;
    if (serving) {
        const int isl = intOr(row.value("isl"), 0), osl = intOr(row.value("osl"), 0);
        if (isl <= 0 || osl <= 0)
            return R::failure("", "no fixed input and output lengths");
        QJsonObject inference{{"input_tokens", isl}, {"output_tokens", osl}, {"context_tokens", isl + osl}};
        // Online rows at a printed request rate are an open load; offline ones (trtllm-bench: every
        // request queued at once) a closed one with the whole request count in flight.
        if (const auto rate = positive(row.value("request_rate_rps"))) {
            // The client caps nothing: every request of the run may be in flight, the engine's KV
            // cache and batch decide how many are.
            inference["load"] = "open";
            inference["requests_per_s"] = *rate;
            if (const auto n = positive(row.value("num_requests")))
                inference["concurrency"] = int(*n);
        } else if (const auto c = positive(row.value("concurrency"))) {
            inference["load"] = "closed";
            inference["concurrency"] = int(*c);
        } else if (const auto n = positive(row.value("num_requests"))) {
            inference["load"] = "closed";
            inference["concurrency"] = int(*n);
        } else {
            return R::failure("", "no concurrency, request rate or request count printed");
        }
        job["kind"] = "inference";
        if (presetId.empty()) { // a printed shape: its context is what the row serves
            ModelArchitecture a = *arch;
            a.sequenceLength = isl + osl;
            job["model"] = io::toJson(ModelChoice{"", a});
        } else {
            job["model"] = QJsonObject{{"preset", QString::fromStdString(presetId)}};
        }
        QJsonObject par{{"tp", tp}, {"pp", pp}, {"dp", dp}};
        if (ep > 1)
            par["ep"] = ep;
        job["parallelism"] = par;
        job["inference"] = inference;
        return R::success(scenarioAround(job, *t, nodes, catalog));
    }
    const int seq = intOr(row.value("seq_len"), 0), micro = intOr(row.value("micro_batch"), 0),
              global = intOr(row.value("global_batch"), 0);
    if (seq <= 0 || micro <= 0 || global <= 0)
        return R::failure("", "no sequence length or batch");
    ModelArchitecture a = *arch;
    a.sequenceLength = seq;
    // Multi-token prediction as the row's recipe ran it (mtp_layers with mtp_layers_source),
    // else as the preset's config.json has it.
    if (row.value("mtp_layers").isDouble())
        a.mtpLayers = row.value("mtp_layers").toInt();
    job["kind"] = "pretraining";
    job["optimizer"] = "adamw";
    job["model"] = presetId.empty() || a != catalog.model(presetId)->arch
                       ? QJsonValue(io::toJson(ModelChoice{"", a}))
                       : QJsonValue(QJsonObject{{"preset", QString::fromStdString(presetId)}});
    // Settings the row does not print take Megatron-Core's recipe defaults where the framework is
    // Megatron (distributed optimizer, sequence parallelism with TP, FP32 main gradients; make_scenarios.py's
    // NeMo runs), and the row's own FSDP mode otherwise.
    // What the recipe ran that the model does not express (the row's source cites the recipe line).
    if (const int offloaded = intOr(row.value("cpu_offloading_num_layers"), 0); offloaded > 0)
        return R::failure("",
                          "needs feature: activation offloading to the CPU (the recipe's cpu_offloading_num_layers " +
                              std::to_string(offloaded) + ")");
    // Megatron-FSDP (the recipe's use_megatron_fsdp with optim_grads_params): parameters,
    // gradients and optimizer states sharded over the data-parallel ranks, ZeRO-3's traffic.
    const bool megatronFsdp = row.value("megatron_fsdp").toBool(false);
    const std::string family = rowFamily(row, false);
    const std::string fsdp = lower(str(row.value("fsdp")));
    const int zero = megatronFsdp                                       ? 3
                     : row.value("zero_stage").isDouble()               ? row.value("zero_stage").toInt()
                     : contains(fsdp, "fsdp") && !contains(fsdp, "= 0") ? 3
                     : family == "megatron"                             ? 1
                                                                        : 0;
    const std::string recompute = lower(str(row.value("activation_recompute")));
    const int vp = intOr(row.value("vp"), 1);
    QJsonObject par{{"tp", tp},
                    {"pp", pp},
                    {"dp", dp},
                    {"zero_stage", zero},
                    {"fsdp", zero >= 3},
                    {"sequence_parallel", row.value("sequence_parallel").isBool()
                                              ? row.value("sequence_parallel").toBool()
                                              : family == "megatron" && tp > 1},
                    {"recompute", recompute == "full"        ? "full"
                                  : recompute == "selective" ? "selective"
                                                             : "none"}};
    if (vp > 1 && pp > 1)
        par["virtual_stages"] = vp;
    if (cp > 1)
        par["cp"] = cp;
    if (ep > 1)
        par["ep"] = ep;
    // The modules the recipe recomputes under selective recomputation (recompute_modules, cited
    // in activation_recompute_source).
    if (const QJsonArray modules = row.value("recompute_modules").toArray();
        recompute == "selective" && !modules.isEmpty())
        par["recompute_modules"] = modules;
    // Full recomputation of the first recompute_num_layers blocks of each chunk (recompute_method
    // "block"); the harness refuses another method rather than guess it.
    if (const int n = intOr(row.value("recompute_num_layers"), 0); recompute == "full" && n > 0) {
        if (str(row.value("recompute_method")) != "block")
            return R::failure("", "needs feature: recompute_method " + str(row.value("recompute_method")));
        par["recompute_layers"] = n;
    }
    // MoE parallel folding where the recipe sets expert_tensor_parallel_size (the row's `etp`,
    // cited in etp_source): the EP group spans TP and DP ranks (Megatron-Core parallel_state.py).
    if (const int etp = intOr(row.value("etp"), 0); etp > 0)
        par["etp"] = etp;
    // Megatron-Core's EP all-to-all overlap where the recipe turns it on (the row's
    // moe_a2a_overlap, cited in moe_a2a_overlap_source: overlap_moe_expert_parallel_comm).
    if (row.value("moe_a2a_overlap").toBool() && ep > 1)
        par["moe_a2a_overlap"] = true;
    // The recipe's layer split where the row states it (pipeline_split, cited in the row): Megatron's
    // embedding and loss counted as pipeline layers make the first and last stages one block lighter.
    if (const std::string layout = str(row.value("pipeline_layout")); !layout.empty() && pp > 1) {
        // The recipe's explicit layout (pipeline_layout, cited in pipeline_layout_source).
        const auto stages = layoutStages(layout, pp, std::max(vp, 1));
        if (!stages)
            return R::failure("", stages.issues.front().message);
        int sum = 0;
        QJsonArray layers;
        for (int n : *stages) {
            layers.append(n);
            sum += n;
        }
        if (sum != a.layers)
            return R::failure("", "pipeline_layout \"" + layout + "\" holds " + std::to_string(sum) +
                                      " decoder layers; the model has " + std::to_string(a.layers));
        par["stage_layers"] = layers;
    } else if (str(row.value("pipeline_split")) == "account_for_embedding_and_loss" && pp > 1) {
        const auto stages = embeddingAndLossSplit(a.layers, pp, std::max(vp, 1));
        if (!stages)
            return R::failure("", stages.issues.front().message);
        QJsonArray layers;
        for (int n : *stages)
            layers.append(n);
        par["stage_layers"] = layers;
    }
    job["parallelism"] = par;
    job["batch"] = QJsonObject{{"micro", micro}, {"global", global}};
    job["training"] = QJsonObject{{"tokens", 300e9}, {"checkpoint_interval_min", 60}};
    // The trainer the row names runs on its own software-stack profile, whatever its sharding
    // (the default by kind would put an FSDP trainer's SHARD_GRAD_OP rows on megatron-lm).
    if (const std::string stack = trainingStackOf(row); !stack.empty() && catalog.softwareStack(stack))
        job["software_stack"] = QString::fromStdString(stack);
    // Megatron-Core keeps fp32 main gradients; Composer's FSDP mixed precision DEFAULT reduces
    // the gradients in fp32 (reduce_dtype float32; PURE in the 16-bit type: Composer
    // mosaic_fsdp_utils.get_mixed_precision).
    // A recipe that says otherwise wins: Megatron-Bridge's performance recipes reduce the
    // gradients in bf16 (grad_reduce_in_fp32 False, cited in grad_reduce_in_fp32_source).
    if (row.value("grad_reduce_in_fp32").isBool())
        job["main_grads_fp32"] = row.value("grad_reduce_in_fp32").toBool();
    else if (family == "megatron" ||
             (family == "fsdp" && contains(lower(str(row.value("precision"))), "mp mode default")))
        job["main_grads_fp32"] = true;
    // The attention kernel the recipe runs where the row states it (flash_attention_source): a
    // fused kernel keeps no s x s scores even where the model has attention dropout.
    if (row.value("flash_attention").isBool())
        job["flash_attention"] = row.value("flash_attention").toBool();
    return R::success(scenarioAround(job, *t, nodes, catalog));
}

} // namespace gp::study
