// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#include "scenariowriter.h"

#include "calibrationprofileio.h"

#include "model/enumnames.h"

#include <QJsonArray>
#include <QJsonDocument>

namespace gp::io {

namespace {

QString str(const std::string& s) { return QString::fromStdString(s); }
template <typename E> QString name(E e) { return str(std::string(enumName(e))); }

QJsonObject position(const Point& p) { return {{"x", p.x}, {"y", p.y}}; }

void writeSharing(QJsonObject& o, const SharingConfig& c)
{
    o["mode"] = name(c.mode);
    switch (c.mode) {
    case SharingMode::Mig: {
        QJsonArray arr;
        for (const auto& i : c.migInstances)
            arr.append(QJsonObject{{"profile", str(i.profile)}, {"start", i.start}});
        o["mig"] = arr;
        break;
    }
    case SharingMode::Vgpu:
        o["vgpu"] = QJsonObject{{"profile", str(c.vgpuProfile)}, {"scheduler", name(c.vgpuScheduler)}};
        break;
    case SharingMode::TimeSlicing: o["replicas"] = c.replicas; break;
    case SharingMode::Mps: {
        QJsonObject m{{"active_thread_pct", c.mpsActiveThreadPct}};
        if (c.mpsMemoryLimitGiB)
            m["memory_limit_gib"] = *c.mpsMemoryLimitGiB;
        o["mps"] = m;
        break;
    }
    case SharingMode::Exclusive:
    case SharingMode::Passthrough: break;
    }
}

} // namespace

QJsonObject toJson(const Node& n)
{
    QJsonObject o{{"id", str(n.id)},
                  {"name", str(n.name)},
                  {"template", str(n.templateId)},
                  {"gpu", str(n.gpuId)},
                  {"gpu_count", n.gpuCount},
                  {"nics", QJsonObject{{"count", n.nics.count},
                                       {"speed_gbps", n.nics.speedGbps},
                                       {"gpudirect_rdma", n.nics.gpudirectRdma}}},
                  {"group", str(n.group)},
                  {"position", position(n.position)}};
    QJsonObject sh;
    writeSharing(sh, n.sharing);
    o["sharing"] = sh;
    if (!n.gpuSharing.empty()) {
        QJsonArray arr;
        for (const auto& [gpu, cfg] : n.gpuSharing) {
            QJsonObject g{{"gpu", gpu}};
            writeSharing(g, cfg);
            arr.append(g);
        }
        o["gpu_sharing"] = arr;
    }
    return o;
}

QJsonObject toJson(const Group& g)
{
    QJsonObject o{{"id", str(g.id)}, {"name", str(g.name)}, {"kind", str(g.kind)}, {"parent", str(g.parent)}};
    if (!g.rackTemplate.empty()) // only rack-scale NVLink domains name one; other groups stay as version 1 wrote them
        o["template"] = str(g.rackTemplate);
    return o;
}

QJsonObject toJson(const Switch& s)
{
    return {{"id", str(s.id)},
            {"name", str(s.name)},
            {"template", str(s.templateId)},
            {"tier", str(s.tier)},
            {"ports", s.ports},
            {"port_speed_gbps", s.portSpeedGbps},
            {"group", str(s.group)},
            {"position", position(s.position)}};
}

QJsonObject toJson(const Link& l)
{
    return {{"id", str(l.id)},
            {"from", str(l.from)},
            {"to", str(l.to)},
            {"bandwidth_gbps", l.bandwidthGbps},
            {"latency_us", l.latencyUs}};
}

namespace {

QJsonObject topology(const Topology& t)
{
    QJsonArray groups, nodes, switches, links;
    for (const auto& g : t.groups)
        groups.append(toJson(g));
    for (const auto& n : t.nodes)
        nodes.append(toJson(n));
    for (const auto& s : t.switches)
        switches.append(toJson(s));
    for (const auto& l : t.links)
        links.append(toJson(l));
    return {{"groups", groups}, {"nodes", nodes}, {"switches", switches}, {"links", links}};
}

} // namespace

QJsonObject toJson(const ModelChoice& m)
{
    if (!m.preset.empty())
        return {{"preset", str(m.preset)}};
    const ModelArchitecture& a = m.custom;
    QJsonObject o{{"layers", a.layers},
                  {"hidden_size", a.hiddenSize},
                  {"attention_heads", a.attentionHeads},
                  {"kv_heads", a.kvHeads},
                  {"ffn_hidden_size", a.ffnHiddenSize},
                  {"vocab_size", a.vocabSize},
                  {"sequence_length", a.sequenceLength},
                  {"experts", a.experts},
                  {"active_experts", a.activeExperts},
                  {"gated_ffn", a.gatedFfn},
                  {"dropout", a.dropout}};
    // The MoE and MLA fields only where set, so files of dense models stay as they were.
    const std::pair<const char*, int> optional[] = {{"head_dim", a.headDim},
                                                    {"moe_ffn_hidden_size", a.moeFfnHiddenSize},
                                                    {"shared_experts", a.sharedExperts},
                                                    {"dense_layers", a.denseLayers},
                                                    {"kv_lora_rank", a.kvLoraRank},
                                                    {"q_lora_rank", a.qLoraRank},
                                                    {"qk_rope_head_dim", a.qkRopeHeadDim},
                                                    {"v_head_dim", a.vHeadDim},
                                                    {"mtp_layers", a.mtpLayers}};
    for (const auto& [key, value] : optional)
        if (value != 0)
            o[key] = value;
    return o;
}

QJsonObject toJson(const Job& j)
{
    const Parallelism& p = j.parallelism;
    QJsonObject parallelism{{"tp", p.tp},
                            {"pp", p.pp},
                            {"dp", p.dp},
                            {"zero_stage", p.zeroStage},
                            {"fsdp", p.fsdp},
                            {"sequence_parallel", p.sequenceParallel},
                            {"recompute", name(p.recompute)}};
    if (p.ep != 1) // written only with expert parallelism, so files without it stay as they were
        parallelism["ep"] = p.ep;
    if (p.virtualStages != 1) // written only when interleaving, so older files stay byte for byte
        parallelism["virtual_stages"] = p.virtualStages;
    if (p.cp != 1) // issue 37's fields, likewise written only when set
        parallelism["cp"] = p.cp;
    if (p.etp > 0) // format 5, MoE parallel folding, written only when set
        parallelism["etp"] = p.etp;
    if (!p.stageLayers.empty()) {
        QJsonArray layers;
        for (int n : p.stageLayers)
            layers.append(n);
        parallelism["stage_layers"] = layers;
    }
    if (p.moeA2aOverlap) // format 6, written only when set
        parallelism["moe_a2a_overlap"] = true;
    if (p.recomputeLayers > 0) // format 5, written only when some blocks are recomputed
        parallelism["recompute_layers"] = p.recomputeLayers;
    if (!p.recomputeModules.empty()) { // format 5, written only when listed
        QJsonArray modules;
        for (const std::string& m : p.recomputeModules)
            modules.append(QString::fromStdString(m));
        parallelism["recompute_modules"] = modules;
    }
    QJsonObject o{{"id", str(j.id)},
                  {"name", str(j.name)},
                  {"kind", name(j.kind)},
                  {"model", toJson(j.model)},
                  {"precision", name(j.precision)},
                  {"optimizer", name(j.optimizer)},
                  {"parallelism", parallelism},
                  {"batch", QJsonObject{{"micro", j.batch.micro}, {"global", j.batch.global}}},
                  {"schedule", QJsonObject{{"arrival_h", j.schedule.arrivalH}, {"duration_h", j.schedule.durationH}}}};
    if (j.mainGradsFp32) // written only when set, so files without it stay byte for byte
        o["main_grads_fp32"] = true;
    if (j.flashAttention) // likewise: absent means "as the model's era" (Job::usesFlashAttention)
        o["flash_attention"] = *j.flashAttention;
    if (!j.softwareStack.empty()) // absent means the default for the job's kind (softwarestack.h)
        o["software_stack"] = QString::fromStdString(j.softwareStack);
    if (j.imported) { // format 3, written only on jobs a cluster import made
        const auto list = [](const std::vector<std::string>& v) {
            QJsonArray a;
            for (const std::string& x : v)
                a.append(QString::fromStdString(x));
            return a;
        };
        o["imported"] = QJsonObject{{"source", str(j.imported->source)}, {"workload", str(j.imported->workload)},
                                    {"scope", str(j.imported->scope)},   {"members", list(j.imported->members)},
                                    {"nodes", list(j.imported->nodes)},  {"unknown", list(j.imported->unknown)}};
    }
    if (j.training)
        o["training"] =
            QJsonObject{{"tokens", j.training->tokens}, {"checkpoint_interval_min", j.training->checkpointIntervalMin}};
    if (j.inference) {
        const InferenceSpec& in = *j.inference;
        QJsonObject inf{{"load", name(in.load)},
                        {"input_tokens", in.promptTokens()},
                        {"output_tokens", in.outputTokens},
                        {"context_tokens", in.contextTokens},
                        {"concurrency", in.concurrency}};
        if (in.load == ServingLoad::Open || in.requestsPerS > 0)
            inf["requests_per_s"] = in.requestsPerS;
        o["inference"] = inf;
    }
    if (j.lora)
        o["lora"] = QJsonObject{{"rank", j.lora->rank}, {"alpha", j.lora->alpha}};
    if (j.pin) {
        QJsonObject pin{{"node", str(j.pin->node)}};
        if (j.pin->gpu)
            pin["gpu"] = *j.pin->gpu;
        if (j.pin->migInstance)
            pin["mig_instance"] = *j.pin->migInstance;
        o["pin"] = pin;
    }
    return o;
}

QJsonObject toJson(const Tenant& t)
{
    QJsonObject sla{{"max_penalty_pct", t.sla.maxPenaltyPct}};
    if (t.sla.deadlineDays)
        sla["deadline_days"] = *t.sla.deadlineDays;
    if (t.sla.ttftP99Ms)
        sla["ttft_p99_ms"] = *t.sla.ttftP99Ms;
    if (t.sla.itlP99Ms)
        sla["itl_p99_ms"] = *t.sla.itlP99Ms;
    QJsonArray jobs;
    for (const auto& j : t.jobs)
        jobs.append(toJson(j));
    QJsonObject o{{"id", str(t.id)},        {"name", str(t.name)}, {"color", str(t.color)},
                  {"priority", t.priority}, {"sla", sla},          {"jobs", jobs}};
    if (t.isolation != Isolation::None) // absent means none: files without it stay as they were
        o["isolation"] = str(std::string(enumName(t.isolation)));
    if (t.busyFraction) // format 4, only where set
        o["busy_fraction"] = *t.busyFraction;
    if (const auto& a = t.arrivals)
        o["arrivals"] = QJsonObject{{"template", str(a->templateJob)},
                                    {"jobs_per_day", a->jobsPerDay},
                                    {"duration_median_h", a->durationMedianH},
                                    {"duration_sigma", a->durationSigma}};
    return o;
}

namespace {

QJsonObject numberMap(const std::map<std::string, double>& m)
{
    QJsonObject o;
    for (const auto& [k, v] : m)
        o[str(k)] = v;
    return o;
}

} // namespace

QJsonObject scenarioToJson(const Scenario& s)
{
    QJsonArray tenants;
    for (const auto& t : s.tenants)
        tenants.append(toJson(t));
    QJsonObject pricing{{"preset", str(s.pricing.preset)}, {"gpu_hour_usd", numberMap(s.pricing.gpuHourUsd)}};
    if (const auto& o = s.pricing.ownership)
        pricing["ownership"] = QJsonObject{{"capex_per_gpu_usd", o->capexPerGpuUsd},
                                           {"amortization_years", o->amortizationYears},
                                           {"pue", o->pue},
                                           {"usd_per_kwh", o->usdPerKwh}};
    QJsonObject root{{"format_version", Scenario::kFormatVersion},
                     {"name", str(s.name)},
                     {"description", str(s.description)},
                     {"topology", topology(s.topology)},
                     {"tenants", tenants},
                     {"pricing", pricing},
                     {"placement_policy", name(s.placementPolicy)},
                     {"assumptions", numberMap(s.assumptions)}};
    if (s.calibration) // written only when set (format 4)
        root["calibration"] = profileToJsonObject(*s.calibration);
    return root;
}

QByteArray writeScenario(const Scenario& scenario)
{
    return QJsonDocument(scenarioToJson(scenario)).toJson(QJsonDocument::Indented);
}

} // namespace gp::io
