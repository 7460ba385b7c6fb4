// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
// Rules of one job: model shape, parallelism, batch and kind-specific settings.
#include "checks.h"
#include "enumnames.h"
#include "validation.h"

#include <algorithm>

namespace gp {

using checks::field;
using checks::inRange;
using checks::num;

std::optional<ModelArchitecture> architectureOf(const ModelChoice& model, const Catalog& catalog)
{
    if (model.preset.empty())
        return model.custom;
    if (const ModelPreset* p = catalog.model(model.preset))
        return p->arch;
    return std::nullopt;
}

void validateArchitecture(const ModelArchitecture& a, const std::string& p, Issues& out)
{
    inRange(out, field(p, "layers"), a.layers, 1, 100000);
    inRange(out, field(p, "hidden_size"), a.hiddenSize, 1, 1e7);
    inRange(out, field(p, "attention_heads"), a.attentionHeads, 1, 1e5);
    inRange(out, field(p, "kv_heads"), a.kvHeads, 1, 1e5);
    inRange(out, field(p, "ffn_hidden_size"), a.ffnHiddenSize, 1, 1e8);
    inRange(out, field(p, "vocab_size"), a.vocabSize, 1, 1e8);
    inRange(out, field(p, "sequence_length"), a.sequenceLength, 1, 1e8);
    inRange(out, field(p, "experts"), a.experts, 1, 4096);
    inRange(out, field(p, "active_experts"), a.activeExperts, 1, a.experts < 1 ? 1 : a.experts,
            "at most experts (" + num(a.experts) + ")");
    inRange(out, field(p, "head_dim"), a.headDim, 0, 65536);
    inRange(out, field(p, "moe_ffn_hidden_size"), a.moeFfnHiddenSize, 0, 1e8);
    inRange(out, field(p, "shared_experts"), a.sharedExperts, 0, 64);
    inRange(out, field(p, "dense_layers"), a.denseLayers, 0, a.layers > 0 ? a.layers : 0,
            "at most layers (" + num(a.layers) + ")");
    inRange(out, field(p, "kv_lora_rank"), a.kvLoraRank, 0, 1e6);
    inRange(out, field(p, "q_lora_rank"), a.qLoraRank, 0, 1e6);
    inRange(out, field(p, "qk_rope_head_dim"), a.qkRopeHeadDim, 0, 65536);
    inRange(out, field(p, "v_head_dim"), a.vHeadDim, 0, 65536);
    inRange(out, field(p, "mtp_layers"), a.mtpLayers, 0, 64);
    if (a.experts <= 1) {
        if (a.sharedExperts > 0)
            out.push_back(Issue::error(field(p, "shared_experts"), "needs a mixture of experts: experts is 1"));
        if (a.denseLayers > 0)
            out.push_back(Issue::error(field(p, "dense_layers"), "needs a mixture of experts: experts is 1"));
    }
    if (a.kvLoraRank == 0 && (a.qLoraRank > 0 || a.qkRopeHeadDim > 0 || a.vHeadDim > 0))
        out.push_back(Issue::error(field(p, "kv_lora_rank"),
                                   "0, but q_lora_rank, qk_rope_head_dim or v_head_dim describe latent attention"));
    // With head_dim set (Qwen3, GPT-OSS), the heads need not split the hidden size.
    if (a.headDim == 0 && a.attentionHeads > 0 && a.hiddenSize > 0 && a.hiddenSize % a.attentionHeads != 0)
        out.push_back(
            Issue::error(field(p, "hidden_size"),
                         num(a.hiddenSize) + " is not divisible by attention heads (" + num(a.attentionHeads) + ")"));
    if (a.kvHeads > 0 && a.attentionHeads > 0 && a.attentionHeads % a.kvHeads != 0)
        out.push_back(Issue::error(field(p, "kv_heads"), num(a.kvHeads) + " does not divide attention heads (" +
                                                             num(a.attentionHeads) + ")"));
}

namespace {

/// Issue 37: context parallelism and uneven pipeline stages (docs/model-reference.md).
void validateStagesAndContext(const Job& job, const ModelArchitecture& arch, const std::string& p, Issues& out)
{
    const Parallelism& par = job.parallelism;
    if (par.cp > 1) {
        // Megatron-Core splits each sequence into 2·cp chunks and gives rank r chunks r and
        // 2cp-1-r, so that every rank carries an equal share of the causal mask's work
        // (megatron/core/utils.py get_batch_on_this_cp_rank; TE's context-parallel attention).
        const long long chunks = 2LL * par.cp;
        if (arch.sequenceLength > 0 && arch.sequenceLength % chunks != 0)
            out.push_back(Issue::error(
                field(p, "cp"), num(par.cp) + " needs the sequence (" + num(arch.sequenceLength) +
                                    " tokens) divisible by 2 x cp = " + num(static_cast<double>(chunks)) +
                                    ": Megatron-Core splits it into 2·cp chunks for load-balanced causal attention"));
        if (!job.usesFlashAttention(arch))
            out.push_back(Issue::error(
                field(p, "cp"), num(par.cp) + " needs fused (flash) attention: context parallelism runs inside "
                                              "Transformer Engine's fused attention kernels; set flash_attention"));
    }
    if (par.stageLayers.empty())
        return;
    const std::string at = field(p, "stage_layers");
    const auto stages = static_cast<int>(par.stageLayers.size());
    if (stages != par.pp)
        out.push_back(Issue::error(at, num(stages) + " stage" + (stages == 1 ? "" : "s") + " listed; pp is " +
                                           num(par.pp) + ": give one layer count per pipeline stage"));
    long long sum = 0;
    bool positive = true;
    for (std::size_t i = 0; i < par.stageLayers.size(); ++i) {
        const int n = par.stageLayers[i];
        sum += n;
        if (n < 1) {
            positive = false;
            out.push_back(Issue::error(checks::idx(at, i), num(n) + ": every stage needs at least one layer"));
        }
    }
    if (positive && arch.layers > 0 && sum != arch.layers)
        out.push_back(Issue::error(at, num(stages) + " stages sum to " + num(static_cast<double>(sum)) +
                                           " layers, the model has " + num(arch.layers)));
    // With virtual_stages v > 1 each stage's blocks are spread over its v interleaved chunks as
    // Megatron-Core spreads them (its first and last chunks may be a block lighter where the
    // embedding and the loss count as pipeline layers: account_for_embedding/loss_in_pipeline_split);
    // the model charges each stage by its total (docs/model-reference.md, "Uneven stages").
}

void validateParallelism(const Job& job, const ModelArchitecture* arch, const std::string& p, Issues& out)
{
    const Parallelism& par = job.parallelism;
    bool ok = inRange(out, field(p, "tp"), par.tp, 1, 1024);
    ok = inRange(out, field(p, "pp"), par.pp, 1, 1024) && ok;
    ok = inRange(out, field(p, "dp"), par.dp, 1, 1e6) && ok;
    ok = inRange(out, field(p, "ep"), par.ep, 1, 4096) && ok;
    if (par.etp != 0)
        ok = inRange(out, field(p, "etp"), par.etp, 1, 1024) && ok;
    inRange(out, field(p, "zero_stage"), par.zeroStage, 0, 3);
    if (par.fsdp && par.zeroStage != 0 && par.zeroStage != 3)
        out.push_back(Issue::error(field(p, "fsdp"),
                                   "FSDP shards like ZeRO-3; zero_stage must be 0 or 3, not " + num(par.zeroStage)));
    if (!job.isTraining() && (par.zeroStage != 0 || par.fsdp))
        out.push_back(Issue::error(field(p, "zero_stage"), "ZeRO and FSDP shard training state; inference jobs use 0"));
    if (!job.isTraining() && par.recompute != Recompute::None)
        out.push_back(Issue::error(field(p, "recompute"), "recomputation applies to training only; use none"));
    // Megatron-Core's EP all-to-all overlap (overlap_moe_expert_parallel_comm): its own asserts
    // (transformer_config.py __post_init__): expert parallelism, no full recomputation, and
    // interleaved stages when there is a pipeline; the combined 1F1B schedule is a training one.
    if (par.moeA2aOverlap) {
        const auto at = field(p, "moe_a2a_overlap");
        if (!job.isTraining())
            out.push_back(Issue::error(at, "true: the combined 1F1B schedule that overlaps the all-to-all is a "
                                           "training schedule; use false"));
        else if (par.ep <= 1)
            out.push_back(Issue::error(at, "true needs expert parallelism: ep is " + num(par.ep) +
                                               " (Megatron-Core overlaps the EP all-to-all only)"));
        else if (par.recompute == Recompute::Full)
            out.push_back(Issue::error(at, "true needs recompute none or selective: Megatron-Core refuses full "
                                           "recomputation with overlap_moe_expert_parallel_comm"));
        else if (par.pp > 1 && par.virtualStages <= 1)
            out.push_back(Issue::error(at, "true with pp " + num(par.pp) +
                                               " needs virtual_stages > 1: Megatron-Core overlaps the all-to-all "
                                               "in the interleaved schedule only"));
    }
    // Megatron-Core's recompute_method "block" with recompute_num_layers: full recomputation only.
    if (par.recomputeLayers != 0) {
        if (par.recompute != Recompute::Full)
            out.push_back(Issue::error(field(p, "recompute_layers"),
                                       num(par.recomputeLayers) + " recomputes whole blocks; recompute is " +
                                           std::string(enumName(par.recompute)) + ", not full"));
        else if (par.recomputeLayers < 0)
            out.push_back(
                Issue::error(field(p, "recompute_layers"),
                             num(par.recomputeLayers) + " must be at least 1 (leave it out for every block)"));
    }
    // Megatron-Core's recompute_modules: a list for selective recomputation, of modules the model knows.
    if (!par.recomputeModules.empty() && par.recompute != Recompute::Selective)
        out.push_back(
            Issue::error(field(p, "recompute_modules"), "lists modules for selective recomputation; recompute is " +
                                                            std::string(enumName(par.recompute)) + ", not selective"));
    for (std::size_t i = 0; i < par.recomputeModules.size(); ++i) {
        const std::string& m = par.recomputeModules[i];
        if (std::find(kRecomputeModules.begin(), kRecomputeModules.end(), m) == kRecomputeModules.end())
            out.push_back(Issue::error(field(p, "recompute_modules").str() + "[" + std::to_string(i) + "]",
                                       "'" + m +
                                           "' is not a module the model recomputes (core_attn, layernorm, "
                                           "moe_act)"));
        else if (std::find(par.recomputeModules.begin(), par.recomputeModules.begin() + static_cast<long>(i), m) !=
                 par.recomputeModules.begin() + static_cast<long>(i))
            out.push_back(Issue::error(field(p, "recompute_modules").str() + "[" + std::to_string(i) + "]",
                                       "'" + m + "' is listed twice"));
    }
    const bool vOk = inRange(out, field(p, "virtual_stages"), par.virtualStages, 1, 1024);
    if (vOk && par.virtualStages > 1) {
        if (!job.isTraining())
            out.push_back(Issue::error(field(p, "virtual_stages"), "interleaving is a training schedule; use 1"));
        else if (par.pp < 2)
            out.push_back(
                Issue::error(field(p, "virtual_stages"), num(par.virtualStages) + " needs a pipeline: pp is 1"));
        else {
            // Megatron-LM's interleaved schedule runs the micro-batches in groups of pp.
            const int m = job.microBatchesPerStep();
            if (m < par.pp || m % par.pp != 0)
                out.push_back(Issue::error(field(p, "virtual_stages"),
                                           "interleaving needs the micro-batches per step (global / (micro x dp) = " +
                                               num(m) + ") to be a multiple of pp (" + num(par.pp) + ")"));
        }
    }
    const bool cpOk = inRange(out, field(p, "cp"), par.cp, 1, 1024);
    if (cpOk && par.cp > 1 && !job.isTraining())
        out.push_back(Issue::error(field(p, "cp"), num(par.cp) +
                                                       ": context parallelism is modelled for training only; serving "
                                                       "jobs use cp 1 (long-context prefill is not modelled)"));
    if (!par.stageLayers.empty() && !job.isTraining())
        out.push_back(Issue::error(field(p, "stage_layers"), "uneven pipeline stages are modelled for training only"));
    if (par.sequenceParallel && par.tp == 1)
        out.push_back(Issue::warning(field(p, "sequence_parallel"), "has no effect with tp 1"));
    if (!ok || !arch)
        return;
    if (arch->attentionHeads > 0 && arch->attentionHeads % par.tp != 0)
        out.push_back(Issue::error(field(p, "tp"), num(par.tp) + " does not divide attention heads (" +
                                                       num(arch->attentionHeads) + ")"));
    else if (arch->kvHeads > 0 && par.tp <= arch->kvHeads && arch->kvHeads % par.tp != 0)
        out.push_back(
            Issue::error(field(p, "tp"), num(par.tp) + " does not divide KV heads (" + num(arch->kvHeads) + ")"));
    else if (arch->kvHeads > 0 && par.tp > arch->kvHeads && par.tp % arch->kvHeads != 0)
        out.push_back(
            Issue::error(field(p, "tp"), num(par.tp) + " is not a multiple of KV heads (" + num(arch->kvHeads) + ")"));
    // Expert parallelism (Megatron-Core): the routed experts split evenly over ep ranks, which
    // are data-parallel ranks (the expert-data-parallel group is dp / ep), so ep divides dp.
    if (par.ep != 1) {
        if (!arch->isMoe())
            out.push_back(Issue::error(field(p, "ep"), num(par.ep) +
                                                           " needs a mixture-of-experts model; this one is dense "
                                                           "(experts 1)"));
        else if (arch->experts % par.ep != 0)
            out.push_back(Issue::error(field(p, "ep"), num(par.ep) + " does not divide the model's " +
                                                           num(arch->experts) + " experts"));
        else if (par.etp == 0 && par.dp % par.ep != 0)
            out.push_back(Issue::error(field(p, "ep"), num(par.ep) + " does not divide dp (" + num(par.dp) +
                                                           "): expert-parallel ranks are data-parallel ranks "
                                                           "(set etp for Megatron-Core's MoE parallel folding)"));
    }
    // MoE parallel folding (Megatron-Core, expert_tensor_parallel_size): the expert layers lay
    // etp x ep x edp over the tp x cp x dp ranks of each pipeline stage, so etp x ep divides them
    // (parallel_state.py: "world_size is not divisible by expert_tensor_model_pipeline_parallel size").
    if (par.etp > 0) {
        const long long stage = 1LL * par.tp * par.cp * par.dp;
        const long long span = 1LL * par.etp * par.ep;
        if (!arch->isMoe())
            out.push_back(Issue::error(field(p, "etp"), num(par.etp) +
                                                            " needs a mixture-of-experts model; this one is dense "
                                                            "(experts 1)"));
        else if (stage % span != 0)
            out.push_back(Issue::error(field(p, "etp"), num(par.etp) + " x ep (" + num(par.ep) +
                                                            ") does not divide tp x cp x dp (" + std::to_string(stage) +
                                                            "): a folded expert grid covers a pipeline stage's "
                                                            "ranks"));
    }
    if (!par.stageLayers.empty() || par.cp > 1) {
        validateStagesAndContext(job, *arch, p, out);
        if (!par.stageLayers.empty())
            return; // the stages' own sums replace the even split's divisibility
    }
    if (arch->layers > 0 && arch->layers % par.pp != 0)
        out.push_back(
            Issue::error(field(p, "pp"), num(par.pp) + " does not divide layers (" + num(arch->layers) + ")"));
    else if (arch->layers > 0 && par.virtualStages > 1 && (arch->layers / par.pp) % par.virtualStages != 0)
        out.push_back(Issue::error(field(p, "virtual_stages"), num(par.virtualStages) +
                                                                   " does not divide the layers per stage (" +
                                                                   num(arch->layers / par.pp) + ")"));
}

} // namespace

/// A job a cluster import made (format 3): each field the cluster did not say is a placeholder,
/// and the warning names the job, the field and where it came from until the planner sets it.
static void validateImported(const ImportedFrom& from, const Job& job, const std::string& path, Issues& out)
{
    if (from.source != "kubernetes" && from.source != "slurm")
        out.push_back(
            Issue::error(field(path, "imported.source"), "'" + from.source + "' must be kubernetes or slurm"));
    const std::string origin = "job '" + job.name + "' was imported from " + from.source +
                               (from.workload.empty() ? std::string() : " " + from.workload) +
                               (from.scope.empty() ? std::string() : " in " + from.scope);
    for (std::size_t i = 0; i < from.unknown.size(); ++i) {
        const std::string& f = from.unknown[i];
        if (f != "model" && f != "kind" && f != "parallelism") {
            out.push_back(Issue::error(checks::idx(field(path, "imported.unknown"), i),
                                       "'" + f + "' must be model, kind or parallelism"));
            continue;
        }
        out.push_back(Issue::warning(
            field(path, f), origin + "; its " + f +
                                " is a placeholder the cluster does not say: set it (setting it in the workbench "
                                "or with gpuplan-cli edit clears this; in the file, remove '" +
                                f + "' from imported.unknown)"));
    }
}

Issues validateJob(const Job& job, const Scenario& scenario, const Catalog& catalog, const std::string& path)
{
    Issues out;
    if (job.id.empty())
        out.push_back(Issue::error(field(path, "id"), "must not be empty"));
    if (job.name.empty())
        out.push_back(Issue::error(field(path, "name"), "must not be empty"));

    std::optional<ModelArchitecture> arch;
    if (!job.model.preset.empty()) {
        arch = architectureOf(job.model, catalog);
        if (!arch)
            out.push_back(Issue::error(field(path, "model.preset"),
                                       "'" + job.model.preset + "' is not a model preset in data/models"));
    } else {
        const std::size_t before = out.size();
        validateArchitecture(job.model.custom, field(path, "model"), out);
        if (out.size() == before)
            arch = job.model.custom;
    }
    validateParallelism(job, arch ? &*arch : nullptr, field(path, "parallelism"), out);
    if (!job.softwareStack.empty()) {
        const SoftwareStack* stack = catalog.softwareStack(job.softwareStack);
        const char* kind = job.isTraining() ? "training" : "serving";
        if (!stack)
            out.push_back(Issue::error(field(path, "software_stack"),
                                       "'" + job.softwareStack +
                                           "' is not a software stack in the catalog (catalog/software-stacks.json)"));
        else if (stack->kind != kind)
            out.push_back(
                Issue::error(field(path, "software_stack"),
                             "'" + job.softwareStack + "' is a " + stack->kind + " stack; this is a " + kind + " job"));
    }

    if (job.imported)
        validateImported(*job.imported, job, path, out);

    const std::string kindName(enumName(job.kind));
    const bool lowBit = job.precision == Precision::Int8 || job.precision == Precision::Int4;
    if (job.isTraining() && lowBit)
        out.push_back(Issue::error(field(path, "precision"),
                                   std::string(enumName(job.precision)) + " is a serving precision; " + kindName +
                                       " computes in fp32, bf16, fp16 or fp8 (QLoRA's 4-bit base is implied)"));

    if (job.mainGradsFp32 && !job.isTraining())
        out.push_back(Issue::error(field(path, "main_grads_fp32"),
                                   "applies to training only: an inference job keeps no gradients"));

    inRange(out, field(path, "batch.micro"), job.batch.micro, 1, 1e6);
    inRange(out, field(path, "batch.global"), job.batch.global, 1, 1e9);
    const long long perStep = static_cast<long long>(job.batch.micro) * job.parallelism.dp;
    if (job.isTraining() && perStep > 0 && job.batch.global % perStep != 0)
        out.push_back(
            Issue::error(field(path, "batch.global"), num(job.batch.global) + " is not a multiple of micro x dp (" +
                                                          num(job.batch.micro) + " x " + num(job.parallelism.dp) +
                                                          " = " + num(static_cast<double>(perStep)) + ")"));

    if (job.isTraining()) {
        if (!job.training)
            out.push_back(Issue::error(field(path, "training"), kindName + " jobs need a training section"));
        else {
            inRange(out, field(path, "training.tokens"), job.training->tokens, 1, 1e16);
            inRange(out, field(path, "training.checkpoint_interval_min"), job.training->checkpointIntervalMin, 0.1,
                    1e6);
        }
        if (job.inference)
            out.push_back(Issue::error(field(path, "inference"), "not used by " + kindName + " jobs; remove it"));
    } else {
        if (!job.inference)
            out.push_back(Issue::error(field(path, "inference"), "inference jobs need an inference section"));
        else {
            const InferenceSpec& inf = *job.inference;
            if (inf.load == ServingLoad::Open)
                inRange(out, field(path, "inference.requests_per_s"), inf.requestsPerS, 0.000001, 1e9,
                        "an open load needs an arrival rate above 0");
            else if (inf.requestsPerS != 0.0)
                inRange(out, field(path, "inference.requests_per_s"), inf.requestsPerS, 0.0, 1e9);
            inRange(out, field(path, "inference.context_tokens"), inf.contextTokens, 1, 1e8);
            inRange(out, field(path, "inference.output_tokens"), inf.outputTokens, 1,
                    inf.contextTokens < 1 ? 1 : inf.contextTokens, "at most context_tokens");
            if (inf.inputTokens != 0 &&
                inRange(out, field(path, "inference.input_tokens"), inf.inputTokens, 1,
                        inf.contextTokens < 1 ? 1 : inf.contextTokens, "at most context_tokens") &&
                inf.outputTokens >= 1 && inf.inputTokens + static_cast<long long>(inf.outputTokens) > inf.contextTokens)
                out.push_back(Issue::error(field(path, "inference.input_tokens"),
                                           std::to_string(inf.inputTokens) + " + output_tokens " +
                                               std::to_string(inf.outputTokens) + " exceeds context_tokens " +
                                               std::to_string(inf.contextTokens) +
                                               ": a request's KV cache must fit the admitted context"));
            if (arch && arch->sequenceLength > 0 && inf.contextTokens > arch->sequenceLength)
                out.push_back(Issue::error(field(path, "inference.context_tokens"),
                                           std::to_string(inf.contextTokens) +
                                               " exceeds the model's maximum context of " +
                                               std::to_string(arch->sequenceLength) + " tokens"));
            inRange(out, field(path, "inference.concurrency"), inf.concurrency, 1, 1e6);
        }
        if (job.training)
            out.push_back(Issue::error(field(path, "training"), "not used by inference jobs; remove it"));
    }
    const bool adapter = job.kind == JobKind::Lora || job.kind == JobKind::Qlora;
    if (adapter && !job.lora)
        out.push_back(Issue::error(field(path, "lora"), kindName + " jobs need a lora section"));
    else if (adapter) {
        inRange(out, field(path, "lora.rank"), job.lora->rank, 1, 65536);
        inRange(out, field(path, "lora.alpha"), job.lora->alpha, 0.000001, 1e6);
    } else if (job.lora)
        out.push_back(Issue::error(field(path, "lora"), "not used by " + kindName + " jobs; remove it"));

    inRange(out, field(path, "schedule.arrival_h"), job.schedule.arrivalH, 0, 1e6);
    inRange(out, field(path, "schedule.duration_h"), job.schedule.durationH, 0, 1e6);

    if (job.pin) {
        const Pin& pin = *job.pin;
        const Node* node = nullptr;
        for (const auto& n : scenario.topology.nodes)
            if (n.id == pin.node)
                node = &n;
        if (!node)
            out.push_back(Issue::error(field(path, "pin.node"), "'" + pin.node + "' is not a node"));
        else if (pin.gpu && (*pin.gpu < 0 || *pin.gpu >= node->gpuCount))
            out.push_back(Issue::error(field(path, "pin.gpu"), num(*pin.gpu) + " is not a GPU of " + node->id +
                                                                   " (0.." + num(node->gpuCount - 1) + ")"));
        else if (pin.migInstance) {
            if (!pin.gpu)
                out.push_back(Issue::error(field(path, "pin.mig_instance"), "needs pin.gpu"));
            else {
                const SharingConfig& cfg = node->sharingOf(*pin.gpu);
                if (cfg.mode != SharingMode::Mig)
                    out.push_back(Issue::error(field(path, "pin.mig_instance"),
                                               "GPU " + num(*pin.gpu) + " of " + node->id + " is not in MIG mode"));
                else if (*pin.migInstance < 0 || *pin.migInstance >= static_cast<int>(cfg.migInstances.size()))
                    out.push_back(Issue::error(field(path, "pin.mig_instance"),
                                               num(*pin.migInstance) + " is not an instance of that GPU (0.." +
                                                   num(static_cast<double>(cfg.migInstances.size()) - 1) + ")"));
            }
        }
    }
    return out;
}

} // namespace gp
