// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
// What the properties panel shows for each subject: canvas items, a tenant, a job (the form's
// fields and their keys in the scenario file); the panel itself is propertiespanel.cpp.
#include "io/textformat.h"
#include "model/enumnames.h"
#include "model/validation.h"
#include "propertiespanel.h"

#include <QComboBox>
#include <QDoubleSpinBox>
#include <QJsonValue>
#include <QLineEdit>
#include <QSpinBox>

#include <optional>
#include <set>
#include <string>
#include <vector>

namespace gp::ui {

namespace {

using text::q;

template <typename E> QStringList enumItems()
{
    QStringList out;
    for (const auto& [value, name] : EnumNames<E>::table)
        out << QString::fromLatin1(name.data(), static_cast<qsizetype>(name.size()));
    return out;
}

template <typename E> QString nameOf(E value)
{
    const std::string_view n = enumName(value);
    return QString::fromLatin1(n.data(), static_cast<qsizetype>(n.size()));
}

template <typename E> E valueOf(const QString& name, E fallback)
{
    return enumFromName<E>(name.toStdString()).value_or(fallback);
}

} // namespace

template <typename E> QComboBox* PropertiesPanel::addEnum(const QString& key, const QString& label, E current)
{
    const QStringList items = enumItems<E>();
    std::vector<QJsonValue> values;
    for (const QString& item : items)
        values.emplace_back(item);
    return addChoice(key, label, items, static_cast<int>(items.indexOf(nameOf(current))), values);
}

void PropertiesPanel::showItems(const Scenario& s, const QStringList& ids)
{
    mSubject = Subject::Items;
    mSubjectIds = ids;
    std::set<std::string> wanted;
    for (const QString& id : ids)
        wanted.insert(id.toStdString());
    std::vector<const Node*> nodes;
    std::vector<const Switch*> switches;
    std::vector<const Link*> links;
    for (const Node& n : s.topology.nodes)
        if (wanted.count(n.id))
            nodes.push_back(&n);
    for (const Switch& w : s.topology.switches)
        if (wanted.count(w.id))
            switches.push_back(&w);
    for (const Link& l : s.topology.links)
        if (wanted.count(l.id))
            links.push_back(&l);
    if (!nodes.empty() || !switches.empty())
        links.clear(); // a rubber band catches the links between the boxes too: edit the boxes
    const int kinds = int(!nodes.empty()) + int(!switches.empty()) + int(!links.empty());
    if (kinds == 0)
        return clear();
    if (kinds > 1)
        return resetForm(tr("The selection mixes nodes and switches: select items of one kind to edit their "
                            "properties together."));

    auto plural = [](std::size_t n, const QString& one, const QString& many) { return n == 1 ? one : many.arg(n); };
    if (!nodes.empty()) {
        QStringList targets;
        for (const Node* n : nodes)
            targets << q(n->id);
        const Node& n = *nodes.front();
        begin(s, "nodes", targets,
              plural(nodes.size(), tr("<b>Node %1</b> (%2)").arg(q(n.id), q(n.templateId)), tr("<b>%1 nodes</b>")),
              plural(nodes.size(), tr("Edit node %1").arg(q(n.id)), tr("Edit %1 nodes")));
        if (nodes.size() == 1)
            addText("name", tr("Name"), n.name);
        addInt("nics.count", tr("NICs"), n.nics.count, 0, 64, QString());
        addDouble("nics.speed_gbps", tr("NIC speed"), n.nics.speedGbps, 0, 3200, 0, tr(" Gb/s"));
        addBool("nics.gpudirect_rdma", tr("GPUDirect RDMA"), n.nics.gpudirectRdma);
        // Membership of a rack, pod or rack-scale NVLink domain (an NVL72's trays must match its
        // template: a change that breaks it is refused with the reason).
        if (!s.topology.groups.empty()) {
            QStringList items{tr("(none)")};
            std::vector<QJsonValue> values{QJsonValue(QString())};
            int current = 0;
            for (const Group& g : s.topology.groups) {
                if (g.id == n.group)
                    current = static_cast<int>(items.size());
                items << (g.isNvlinkDomain() ? tr("%1 — NVLink domain (%2)").arg(q(g.name), q(g.rackTemplate))
                                             : tr("%1 — %2").arg(q(g.name), q(g.kind)));
                values.emplace_back(q(g.id));
            }
            addChoice("group", tr("Group"), items, current, values)
                ->setToolTip(tr("The rack, pod or rack-scale NVLink domain this node belongs to"));
        }
    } else if (!switches.empty()) {
        QStringList targets;
        for (const Switch* w : switches)
            targets << q(w->id);
        const Switch& w = *switches.front();
        begin(s, "switches", targets,
              plural(switches.size(), tr("<b>Switch %1</b> (%2)").arg(q(w.id), q(w.templateId)),
                     tr("<b>%1 switches</b>")),
              plural(switches.size(), tr("Edit switch %1").arg(q(w.id)), tr("Edit %1 switches")));
        if (switches.size() == 1)
            addText("name", tr("Name"), w.name);
        const QStringList tiers = {"leaf", "spine", "core"};
        addChoice("tier", tr("Tier"), tiers, static_cast<int>(tiers.indexOf(q(w.tier))),
                  {QJsonValue("leaf"), QJsonValue("spine"), QJsonValue("core")});
        addInt("ports", tr("Ports"), w.ports, 0, 4096, QString());
        addDouble("port_speed_gbps", tr("Port speed"), w.portSpeedGbps, 0, 3200, 0, tr(" Gb/s"));
    } else {
        QStringList targets;
        for (const Link* l : links)
            targets << q(l->id);
        const Link& l = *links.front();
        begin(
            s, "links", targets,
            plural(links.size(), tr("<b>Link %1</b>: %2 — %3").arg(q(l.id), q(l.from), q(l.to)), tr("<b>%1 links</b>")),
            plural(links.size(), tr("Edit link %1").arg(q(l.id)), tr("Edit %1 links")));
        addDouble("bandwidth_gbps", tr("Bandwidth"), l.bandwidthGbps, 0, 1e6, 0, tr(" Gb/s"));
        addDouble("latency_us", tr("Latency"), l.latencyUs, 0, 1e6, 2, tr(" µs"));
    }
    revalidate();
}

void PropertiesPanel::showTenant(const Scenario& s, const QString& tenantId)
{
    mSubject = Subject::Tenant;
    mSubjectIds = {tenantId};
    const Tenant* t = s.findTenant(tenantId.toStdString());
    if (!t)
        return clear();
    begin(s, "tenants", {tenantId},
          tr("<b>Tenant %1</b> — %n job(s)", nullptr, static_cast<int>(t->jobs.size())).arg(q(t->name).toHtmlEscaped()),
          tr("Edit tenant %1").arg(q(t->name)));
    addText("name", tr("Name"), t->name);
    addText("color", tr("Colour"), t->color);
    addInt("priority", tr("Priority"), t->priority, -1000, 1000, QString());
    addEnum("isolation", tr("Isolation"), t->isolation)
        ->setToolTip(tr("Where its jobs may run: none — any share; memory — only shares with memory of their own "
                        "(not time-slicing, not MPS without a memory limit); hardware — only whole GPUs and MIG "
                        "instances."));
    addDouble("sla.max_penalty_pct", tr("SLA: max penalty"), t->sla.maxPenaltyPct, 0, 1000, 1, tr(" %"));
    // Optional objectives: 0 = none (the field leaves the file).
    const NumberFieldOptions none{1.0, true, tr("none")};
    addDouble("sla.deadline_days", tr("SLA: deadline"), t->sla.deadlineDays.value_or(0.0), 0, 3650, 1, tr(" days"),
              none);
    addDouble("sla.ttft_p99_ms", tr("SLA: TTFT P99"), t->sla.ttftP99Ms.value_or(0.0), 0, 1e7, 0, tr(" ms"), none);
    addDouble("sla.itl_p99_ms", tr("SLA: ITL P99"), t->sla.itlP99Ms.value_or(0.0), 0, 1e7, 1, tr(" ms"), none);
    // How often its jobs keep a shared GPU busy (docs/model-reference.md#co-tenant-busy-fraction);
    // 0: the scenario's cotenant_busy_fraction.
    addDouble("busy_fraction", tr("Busy on shared GPUs"), 100.0 * t->busyFraction.value_or(0.0), 0, 100, 0, tr(" %"),
              {0.01, true, tr("scenario default")})
        ->setToolTip(tr("How often this tenant's jobs keep a GPU they share busy, as their co-tenants feel it: it "
                        "weighs the co-tenants' mean step and the Monte Carlo. A calibration can fit it."));
    revalidate();
}

void PropertiesPanel::showJob(const Scenario& s, const QString& jobId)
{
    mSubject = Subject::Job;
    mSubjectIds = {jobId};
    const Job* j = s.findJob(jobId.toStdString());
    if (!j)
        return clear();
    begin(s, "jobs", {jobId},
          tr("<b>Job %1</b> — %2, %3 GPUs")
              .arg(q(j->name).toHtmlEscaped(), q(std::string(displayName(j->kind))))
              .arg(j->parallelism.gpus()),
          tr("Edit job %1").arg(q(j->name)));
    addText("name", tr("Name"), j->name);
    addEnum("precision", tr("Precision"), j->precision);
    // Attention kernels: unset follows the model (flash unless it keeps dropout masks).
    QComboBox* attention =
        addChoice("flash_attention", tr("Attention"), {tr("As the model"), tr("Flash"), tr("Unfused")},
                  !j->flashAttention   ? 0
                  : *j->flashAttention ? 1
                                       : 2,
                  {QJsonValue(QJsonValue::Null), QJsonValue(true), QJsonValue(false)});
    attention->setToolTip(tr("Fused (flash) attention keeps no s x s tensors and runs at the GPU's flash-attention "
                             "efficiency; unfused runs softmax and dropout over the scores (Megatron-LM before 2023). "
                             "\"As the model\": flash unless the model keeps dropout masks (GPT-3 era)."));
    // The software-stack profile (catalog): unset runs on the default for the job's kind.
    const char* stackKind = j->isTraining() ? "training" : "serving";
    QStringList stackItems{tr("Default (%1)").arg(q(defaultSoftwareStack(*j)))};
    std::vector<QJsonValue> stackValues{QJsonValue(QJsonValue::Null)};
    int stackIndex = 0;
    for (const SoftwareStack& st : mCatalog.softwareStacks) {
        if (st.kind != stackKind && st.id != j->softwareStack)
            continue;
        if (st.id == j->softwareStack)
            stackIndex = static_cast<int>(stackItems.size());
        stackItems << q(st.name) + " (" + q(st.id) + ")";
        stackValues.emplace_back(q(st.id));
    }
    QComboBox* stack = addChoice("software_stack", tr("Software stack"), stackItems, stackIndex, stackValues);
    stack->setToolTip(tr("The trainer or serving engine the job runs on: its catalog profile says how much of the "
                         "communication hides behind compute, its per-step overheads and, for serving, the memory "
                         "its KV cache may take (data/catalog/software-stacks.json, docs/catalog.md)."));
    addInt("batch.micro", tr("Micro-batch"), j->batch.micro, 0, 1000000, tr(" seq"));
    addInt("batch.global", tr("Global batch"), j->batch.global, 0, 1000000000, tr(" seq"));
    if (j->isTraining()) {
        addBool("main_grads_fp32", tr("fp32 main gradients"), j->mainGradsFp32);
        addInt("parallelism.zero_stage", tr("ZeRO stage"), j->parallelism.zeroStage, 0, 3, QString());
        addEnum("parallelism.recompute", tr("Recompute"), j->parallelism.recompute);
        // Megatron-Core's recompute_modules (with selective) and recompute_num_layers (with full):
        // docs/model-reference.md#recomputed-modules. Selective with none listed is core_attn.
        QStringList modules;
        for (std::string_view m : kRecomputeModules)
            modules << QString::fromLatin1(m.data(), static_cast<qsizetype>(m.size()));
        std::vector<std::string> ticked = j->parallelism.recomputeModules;
        if (ticked.empty() && j->parallelism.recompute == Recompute::Selective)
            ticked.emplace_back("core_attn"); // what selective recomputes when none are listed
        addNameSet("parallelism.recompute_modules", tr("Recompute modules"), modules, ticked)
            ->setToolTip(tr("With Recompute selective: the parts of each block recomputed in backward instead of "
                            "kept (Megatron-Core's recompute_modules). core_attn — the attention core's scores "
                            "(nothing with flash attention); layernorm — an MoE block's pre-MLP LayerNorm output; "
                            "moe_act — the routed experts' activation output. None ticked: core_attn alone, "
                            "Megatron-Core's default."));
        addInt("parallelism.recompute_layers", tr("Recompute layers"), j->parallelism.recomputeLayers, 0, 100000,
               QString(), tr("every block"))
            ->setToolTip(tr("With Recompute full: recompute only the first N blocks of each pipeline stage's model "
                            "chunk, the others keep their activations (Megatron-Core's recompute_method block with "
                            "recompute_num_layers). \"every block\": all of them."));
        addBool("parallelism.moe_a2a_overlap", tr("Overlap EP all-to-all"), j->parallelism.moeA2aOverlap);
        field("parallelism.moe_a2a_overlap")
            ->setToolTip(tr("MoE with expert parallelism: hide the token dispatch and combine behind the other "
                            "micro-batch's compute (Megatron-Core's overlap_moe_expert_parallel_comm, the combined "
                            "1F1B schedule). Needs ep > 1, no full recompute and, with a pipeline, virtual stages "
                            "> 1. docs/model-reference.md#ep-a2a-overlap"));
        addBool("parallelism.sequence_parallel", tr("Sequence parallel"), j->parallelism.sequenceParallel);
        addInt("parallelism.virtual_stages", tr("Virtual stages"), j->parallelism.virtualStages, 1, 1024, QString());
        addInt("parallelism.cp", tr("Context parallel"), j->parallelism.cp, 1, 1024, QString());
        field("parallelism.cp")
            ->setToolTip(tr("Context-parallel ranks: each keeps seq / cp of every sequence and passes K/V blocks "
                            "round a ring (Megatron-Core). The job's GPUs become tp x pp x dp x cp; the sequence "
                            "must divide by 2 x cp."));
        addIntList("parallelism.stage_layers", tr("Stage layers"), j->parallelism.stageLayers)
            ->setToolTip(tr("Blocks per pipeline stage, e.g. 7,8,8,7: pp numbers summing to the model's layers "
                            "(only with virtual stages 1). Empty: layers / pp on each stage."));
        // Multi-token prediction is part of the model's shape: a custom model sets it here, a
        // preset carries its own (docs/model-reference.md#multi-token-prediction).
        const std::optional<ModelArchitecture> shape = architectureOf(j->model, mCatalog);
        QSpinBox* mtp =
            addInt("model.mtp_layers", tr("MTP modules"), shape ? shape->mtpLayers : 0, 0, 64, QString(), tr("none"));
        const QString mtpWhat = tr("Multi-token-prediction modules after the last layer (DeepSeek-V3 §2.2; "
                                   "Megatron-Core mtp_num_layers): each one more block, a 2h x h projection and a "
                                   "second pass through the shared output head and loss, on the last pipeline "
                                   "stage.");
        mtp->setEnabled(j->model.preset.empty());
        mtp->setToolTip(j->model.preset.empty()
                            ? mtpWhat
                            : mtpWhat + " " +
                                  tr("Set by the preset %1: a custom model sets its own.").arg(q(j->model.preset)));
        if (j->training) {
            addDouble("training.tokens", tr("Tokens"), j->training->tokens, 0, 1e16, 3, tr(" billion"),
                      NumberFieldOptions{1e9, false, {}});
            addDouble("training.checkpoint_interval_min", tr("Checkpoint every"), j->training->checkpointIntervalMin, 0,
                      100000, 0, tr(" min"));
        }
        if (j->lora)
            addInt("lora.rank", tr("LoRA rank"), j->lora->rank, 0, 65536, QString());
    } else if (j->inference) {
        const InferenceSpec& in = *j->inference;
        QComboBox* load = addEnum("inference.load", tr("Load"), in.load);
        load->setToolTip(tr("closed: Concurrency users, each sending the next request when the last completes "
                            "(how AIPerf and vLLM's benchmarks measure); open: Poisson arrivals at Requests, "
                            "Concurrency the most sequences in flight"));
        addDouble("inference.requests_per_s", tr("Requests"), in.requestsPerS, 0, 1e7, 2, tr(" /s"));
        addDouble("inference.input_tokens", tr("Prompt"), in.promptTokens(), 0, 1e8, 0, tr(" tokens"));
        addDouble("inference.context_tokens", tr("Context"), in.contextTokens, 0, 1e8, 0, tr(" tokens"));
        addDouble("inference.output_tokens", tr("Output"), in.outputTokens, 0, 1e8, 0, tr(" tokens"));
        addDouble("inference.concurrency", tr("Concurrency"), in.concurrency, 0, 1e6, 0, tr(" seq"));
    }
    // Expert parallelism: only a mixture-of-experts model has experts to shard.
    addInt("parallelism.ep", tr("Expert parallel"), j->parallelism.ep, 1, 4096, QString());
    if (QWidget* ep = field("parallelism.ep")) {
        const std::optional<ModelArchitecture> arch = architectureOf(j->model, mCatalog);
        const bool moe = arch && arch->isMoe();
        ep->setEnabled(moe || j->parallelism.ep != 1); // a stray ep on a dense model stays fixable
        ep->setToolTip(moe ? tr("Ranks the %1 routed experts of each MoE layer are split over, taken from the "
                                "data-parallel ranks: divides dp and the experts (Megatron-Core's "
                                "expert_model_parallel_size)")
                                 .arg(arch->experts)
                           : tr("Only for mixture-of-experts models"));
    }
    // MoE parallel folding (Megatron-Core's expert_tensor_parallel_size): 0 leaves etp out, the
    // experts follow tp (docs/model-reference.md#moe-parallel-folding).
    QSpinBox* etp = addInt("parallelism.etp", tr("Expert tensor parallel"), j->parallelism.etp, 0, 1024, QString(),
                           tr("as tensor parallel"));
    {
        const std::optional<ModelArchitecture> arch = architectureOf(j->model, mCatalog);
        const bool moe = arch && arch->isMoe();
        etp->setEnabled(moe || j->parallelism.etp != 0);
        etp->setToolTip(moe ? tr("MoE parallel folding: the tensor-parallel size of the routed experts, which get a "
                                 "grid of their own (etp x ep x expert-dp) over the tp x cp x dp ranks of each "
                                 "pipeline stage; etp x ep must divide tp x cp x dp, and ep no longer has to divide "
                                 "dp (Megatron-Core's expert_tensor_parallel_size). \"as tensor parallel\": the "
                                 "experts follow tp.")
                            : tr("Only for mixture-of-experts models"));
    }
    addDouble("schedule.arrival_h", tr("Arrives at"), j->schedule.arrivalH, 0, 1e6, 1, tr(" h"));
    addDouble("schedule.duration_h", tr("Runs for"), j->schedule.durationH, 0, 1e6, 1, tr(" h"),
              NumberFieldOptions{1.0, false, tr("until done")});
    revalidate();
}

} // namespace gp::ui
