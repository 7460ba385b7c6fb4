// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
// gpuplan-cli optimize job: the job search (calc/jobsearch.h) from the command line.
#include "clicontext.h"
#include "jobmodeloptions.h"

#include "calc/jobsearch.h"
#include "calc/perfmodel.h"
#include "model/assumptions.h"
#include "model/enumnames.h"
#include "model/format.h"
#include "model/units.h"
#include "model/validation.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#include <algorithm>
#include <cmath>

namespace gp::cli {

namespace {

QJsonObject configToJson(const calc::JobConfig& c)
{
    const Parallelism& p = c.parallelism;
    QJsonObject o{
        {"gpus", c.gpus},
        {"tp", p.tp},
        {"pp", p.pp},
        {"dp", p.dp},
        {"ep", p.ep},
        {"cp", p.cp},
        {"virtual_stages", p.virtualStages},
        {"zero_stage", p.zeroStage},
        {"fsdp", p.fsdp},
        {"sequence_parallel", p.sequenceParallel},
        {"recompute", QString::fromStdString(std::string(enumName(p.recompute)))},
        {"micro_batch", c.microBatch},
        {"step_time_s", c.stepTimeS},
        {"memory_bytes_per_gpu", c.memoryBytes},
        {"mfu", c.mfu},
        {"tokens_per_s", c.tokensPerS},
    };
    if (!p.stageLayers.empty()) { // uneven pipeline stages
        QJsonArray layers;
        for (const int n : p.stageLayers)
            layers.append(n);
        o.insert("stage_layers", layers);
    }
    return o;
}

QString configLine(const calc::JobConfig& c)
{
    const Parallelism& p = c.parallelism;
    QString sharding = p.fsdp ? "FSDP" : QString("ZeRO-%1").arg(p.zeroStage);
    return QString("%1 GPUs  TP %2 PP %3%4 DP %5  %6  %7%8  micro %9   %10 s/step  %11 GiB/GPU  MFU %12 %")
        .arg(c.gpus, 5)
        .arg(p.tp)
        .arg(p.pp)
        .arg(p.virtualStages > 1      ? QString("×%1").arg(p.virtualStages)
             : !p.stageLayers.empty() ? QString(" (%1-%2 layers)")
                                            .arg(*std::min_element(p.stageLayers.begin(), p.stageLayers.end()))
                                            .arg(*std::max_element(p.stageLayers.begin(), p.stageLayers.end()))
                                      : QString())
        .arg((p.ep > 1 ? QString("%1 EP %2").arg(p.dp).arg(p.ep) : QString::number(p.dp)) +
             (p.cp > 1 ? QString(" CP %1").arg(p.cp) : QString()))
        .arg(sharding, -6)
        .arg(QString::fromStdString(std::string(enumName(p.recompute))), -9)
        .arg(p.sequenceParallel ? " +SP" : "   ")
        .arg(c.microBatch, -3)
        .arg(c.stepTimeS, 8, 'f', 3)
        .arg(c.memoryBytes / kGiB, 6, 'f', 1)
        .arg(100.0 * c.mfu, 4, 'f', 1);
}

QJsonObject servingToJson(const calc::ServingConfig& c)
{
    return QJsonObject{
        {"gpus", c.gpus},
        {"tp", c.tp},
        {"replicas", c.replicas},
        {"ep", c.ep},
        {"batch_cap", c.batchCap},
        {"precision", QString::fromStdString(std::string(enumName(c.precision)))},
        {"ttft_p99_ms", c.ttftP99S * 1e3},
        {"itl_p99_ms", c.itlP99S * 1e3},
        {"output_tokens_per_s", c.outputTokensPerS},
        {"output_tokens_per_s_per_gpu", c.outputTokensPerSPerGpu},
        {"memory_bytes_per_gpu", c.memoryBytes},
    };
}

QString servingLine(const calc::ServingConfig& c)
{
    return QString("%1 GPUs  TP %2 × %3 replicas  batch cap %4  %5   P99 TTFT %6 ms  P99 ITL %7 ms  %8 tokens/s/GPU")
        .arg(c.gpus, 5)
        .arg(c.tp)
        .arg(c.ep > 1 ? QString("%1 (EP %2)").arg(c.replicas).arg(c.ep) : QString::number(c.replicas))
        .arg(c.batchCap, -5)
        .arg(QString::fromStdString(std::string(enumName(c.precision))), -4)
        .arg(c.ttftP99S * 1e3, 7, 'f', 0)
        .arg(c.itlP99S * 1e3, 6, 'f', 1)
        .arg(c.outputTokensPerSPerGpu, 7, 'f', 0);
}

/// Where the searched GPUs sit, for the JSON.
struct SearchPlace
{
    const GpuSpec* gpu;
    const NodeTemplate* node;
    const Node* scenarioNode;
};

/// What both searches print under --json (docs/cli.md): the counts, the GPUs, the best and the list;
/// each adds its fronts.
template <typename Result, typename ToJson>
QJsonObject searchJson(const Result& r, ToJson toJson, const SearchPlace& where)
{
    QJsonArray top;
    for (const auto& c : r.top)
        top.append(toJson(c));
    QJsonObject o{
        {"configurations", static_cast<double>(r.configurations)},
        {"feasible", static_cast<double>(r.feasible)},
        {"elapsed_ms", r.elapsedMs},
        {"configurations_per_s", r.configurationsPerS()},
        {"gpu", QString::fromStdString(where.gpu->id)},
        {"node_template", where.node ? QString::fromStdString(where.node->id) : QString()},
        {"node", where.scenarioNode ? QString::fromStdString(where.scenarioNode->id) : QString()},
        {"best", r.top.empty() ? QJsonValue(QJsonValue::Null) : QJsonValue(toJson(r.top.front()))},
        {"top", top},
    };
    if (!r.infeasibleReason.empty())
        o.insert("infeasible", QString::fromStdString(r.infeasibleReason));
    return o;
}

template <typename Config, typename ToJson> QJsonArray jsonList(const std::vector<Config>& configs, ToJson toJson)
{
    QJsonArray out;
    for (const auto& c : configs)
        out.append(toJson(c));
    return out;
}

/// What a search returns, checked once more by the rules a scenario's job must pass: false (and
/// said) when one breaks a rule — a bug, never a user's input.
template <typename Config, typename With>
bool passesJobRules(const std::vector<Config>& configs, With with, const Catalog& catalog)
{
    for (const Config& c : configs)
        for (const Issue& i : validateJob(with(c), Scenario{}, catalog, ""))
            if (i.isError()) {
                err() << "gpuplan-cli optimize job: internal error, a configuration breaks a rule: "
                      << QString::fromStdString(i.toString()) << Qt::endl;
                return false;
            }
    return true;
}

/// Exit status of a search: 1 with the reason when nothing qualifies.
template <typename Result> int searchStatus(const Result& r)
{
    if (!r.top.empty())
        return kOk;
    err() << "gpuplan-cli optimize job: " << QString::fromStdString(r.infeasibleReason) << Qt::endl;
    return kFailure;
}

int printServingSearch(const calc::ServingSearchResult& r, const calc::JobSearchSetup& setup, const Catalog& catalog,
                       const SearchPlace& where, bool json)
{
    if (!passesJobRules(
            r.top, [&](const calc::ServingConfig& c) { return calc::withServingConfig(setup.job, c); }, catalog))
        return kFailure;
    if (json) {
        QJsonObject o = searchJson(r, servingToJson, where);
        o.insert("pareto_gpus", jsonList(r.paretoGpus, servingToJson));
        out() << QJsonDocument(o).toJson(QJsonDocument::Indented) << Qt::flush;
    } else if (!r.top.empty()) {
        out() << QString("%1 deployments, %2 meet the objectives, %3 ms\n")
                     .arg(r.configurations)
                     .arg(r.feasible)
                     .arg(r.elapsedMs, 0, 'f', 1);
        out() << "Fewest GPUs, then most tokens/s per GPU:\n";
        for (const auto& c : r.top)
            out() << "  " << servingLine(c) << '\n';
        out() << "P99 time to first token against GPUs (Pareto front):\n";
        for (const auto& c : r.paretoGpus)
            out() << "  " << servingLine(c) << '\n';
        out() << Qt::flush;
    }
    return searchStatus(r);
}

int runOptimizeJob(const QStringList& args)
{
    CommandLine cl("optimize job",
                   "The fastest parallelism of one training job on GPUs of one kind: TP, PP and virtual stages, "
                   "DP, ZeRO stage or FSDP, micro-batch, recomputation and sequence parallelism, scored with "
                   "evaluate's memory and step-time models (docs/model-reference.md, \"Job search\"). Prints the "
                   "best configurations, the Pareto front of step time against memory per GPU and, with a GPU "
                   "range, against the GPU count. With --mode infer, the serving deployment instead: TP, replicas "
                   "(with expert parallelism over them for MoE models), batch cap and precision against the P99 TTFT "
                   "and inter-token objectives, fewest GPUs first.");
    auto& p = cl.parser();
    p.addOptions(jobModelOptions());
    p.addOptions({
        {"gpus", "GPUs the job runs on.", "N"},
        {"gpus-range", "Every GPU count from A to B that the space divides.", "A-B"},
        {"gpu",
         "GPU model (catalog id or name); nodes of the node template with that GPU, else 8 GPUs "
         "in one NVLink domain with 8 × 400 Gb/s NICs.",
         "NAME"},
        {"node", "Node template (catalog id, e.g. dgx-h100): its GPU, NVLink domain and NICs.", "TEMPLATE"},
        {"scenario",
         "Take the GPUs from this scenario's cluster instead: its first node with --gpu (or its first "
         "GPU node), its NVLink domain and NICs, and the scenario's assumptions.",
         "FILE"},
        {"global-batch", "Training: sequences per optimizer step (default 1024).", "B"},
        {"rate", "--mode infer: requests per second, open load (default 1).", "R"},
        {"input-tokens", "--mode infer: prompt tokens per request (default 1024).", "N"},
        {"output-tokens", "--mode infer: generated tokens per request (default 256).", "N"},
        {"batch",
         "--mode infer: the job's own batch cap, sequences in flight (default 64); the search tries powers "
         "of two too.",
         "N"},
        {"ttft-ms", "--mode infer: the P99 time-to-first-token objective (default none).", "MS"},
        {"itl-ms", "--mode infer: the P99 inter-token latency objective (default none).", "MS"},
        {"top", "Configurations to list (default 10).", "K"},
        {"json", "Print JSON."},
    });
    if (auto done = cl.parse(args))
        return *done;
    auto usage = [&](const QString& msg) { return cl.refuse(msg); };
    if (!p.positionalArguments().isEmpty())
        return usage("unexpected argument '" + p.positionalArguments().first() + "'");
    auto catalog = loadCatalogOrReport(p);
    if (!catalog)
        return kFailure;
    auto model = readJobModel(p, *catalog, "optimize job", usage);
    if (!model)
        return kBadInput;
    if (!model->arch)
        return usage("the job search needs the model's shape: --model PRESET or a custom architecture");

    // The GPUs: a scenario's node, a node template, or a GPU model in nodes of the first template
    // that has it.
    const NodeTemplate* node = nullptr;
    const GpuSpec* gpu = nullptr;
    std::optional<Scenario> scenario;
    const Node* scenarioNode = nullptr;
    if (p.isSet("scenario")) {
        if (p.isSet("node"))
            return usage("--scenario gives the nodes; not with --node");
        scenario = readScenarioOrReport(p.value("scenario"), *catalog);
        if (!scenario)
            return kBadInput;
        const GpuSpec* wanted = p.isSet("gpu") ? catalog->findGpu(p.value("gpu").toStdString()) : nullptr;
        if (p.isSet("gpu") && !wanted)
            return usage("--gpu: no GPU '" + p.value("gpu") + "' in the catalog (or more than one matches)");
        for (const Node& n : scenario->topology.nodes)
            if (!scenarioNode && n.gpuCount > 0 && catalog->gpu(n.gpuId) && (!wanted || n.gpuId == wanted->id))
                scenarioNode = &n;
        if (!scenarioNode)
            return usage(wanted ? "--scenario: no node of the scenario has " + QString::fromStdString(wanted->id)
                                : QString("--scenario: the scenario has no node with a known GPU"));
        gpu = catalog->gpu(scenarioNode->gpuId);
    } else if (p.isSet("node")) {
        node = catalog->nodeTemplate(p.value("node").toStdString());
        if (!node)
            return usage("--node: no node template '" + p.value("node") + "' in the catalog");
        gpu = catalog->gpu(node->gpuId);
        if (p.isSet("gpu") && catalog->findGpu(p.value("gpu").toStdString()) != gpu)
            return usage("--gpu contradicts --node, whose GPU is " + QString::fromStdString(node->gpuId));
    } else if (p.isSet("gpu")) {
        gpu = catalog->findGpu(p.value("gpu").toStdString());
        if (!gpu)
            return usage("--gpu: no GPU '" + p.value("gpu") + "' in the catalog (or more than one matches)");
        for (const NodeTemplate& t : catalog->nodeTemplates)
            if (!node && t.gpuId == gpu->id)
                node = &t;
    } else {
        return usage("give --node TEMPLATE, --gpu NAME or --scenario FILE");
    }
    if (!gpu)
        return usage("the node template's GPU is not in the catalog");

    int gpusMin = 0, gpusMax = 0;
    if (p.isSet("gpus") == p.isSet("gpus-range"))
        return usage("give either --gpus N or --gpus-range A-B");
    if (p.isSet("gpus")) {
        const auto n = intOption(p, "gpus", 0, 1, 1000000, usage);
        if (!n)
            return kBadInput;
        gpusMin = gpusMax = *n;
    } else {
        const QStringList range = p.value("gpus-range").split('-');
        bool okA = false, okB = false;
        gpusMin = range.size() == 2 ? range[0].toInt(&okA) : 0;
        gpusMax = range.size() == 2 ? range[1].toInt(&okB) : 0;
        if (!okA || !okB || gpusMin < 1 || gpusMax < gpusMin || gpusMax > 1000000)
            return usage("--gpus-range must be A-B with 1 <= A <= B <= 1000000, not '" + p.value("gpus-range") + "'");
        if (gpusMax - gpusMin > 4096)
            return usage("--gpus-range spans more than 4,096 GPU counts; narrow it");
    }
    const auto global = intOption(p, "global-batch", 1024, 1, 100000000, usage);
    const auto top = intOption(p, "top", 10, 1, 1000, usage);
    if (!global || !top)
        return kBadInput;

    calc::JobSearchSetup setup;
    Job job = model->job;
    job.id = job.name = "optimize";
    job.batch.global = *global;
    Sla sla;
    if (job.isTraining()) {
        job.training = TrainingSpec{1.0, 60.0};
    } else {
        const auto in = intOption(p, "input-tokens", 1024, 1, 10000000, usage);
        const auto outTokens = intOption(p, "output-tokens", 256, 1, 10000000, usage);
        const auto batch = intOption(p, "batch", 64, 1, 1000000, usage);
        if (!in || !outTokens || !batch)
            return kBadInput;
        auto positive = [&](const char* name, double fallback) -> std::optional<double> {
            if (!p.isSet(name))
                return fallback;
            bool ok = false;
            const double v = p.value(name).toDouble(&ok);
            if (!ok || !std::isfinite(v) || v <= 0) {
                usage(QString("--%1 must be a positive number, not '%2'").arg(name, p.value(name)));
                return std::nullopt;
            }
            return v;
        };
        const auto rate = positive("rate", 1.0), ttft = positive("ttft-ms", 0.0), itl = positive("itl-ms", 0.0);
        if (!rate || !ttft || !itl)
            return kBadInput;
        InferenceSpec spec;
        spec.requestsPerS = *rate;
        spec.inputTokens = *in;
        spec.outputTokens = *outTokens;
        spec.contextTokens = *in + *outTokens;
        spec.concurrency = *batch;
        job.inference = spec;
        if (p.isSet("ttft-ms"))
            sla.ttftP99Ms = *ttft;
        if (p.isSet("itl-ms"))
            sla.itlP99Ms = *itl;
    }
    if (scenarioNode) {
        setup = calc::jobSearchSetup(*scenario, *catalog, job, *scenarioNode);
    } else {
        const std::map<std::string, double> assumptions; // the shipped defaults (docs/model-reference.md)
        setup.job = job;
        setup.gpu = gpu;
        setup.gpusPerNode = node ? node->gpuCount : 8;
        setup.nvlinkDomainGpus = node ? std::max(1, node->scaleUpDomainGpus) : 8;
        if (node) // a compute tray of an NVL72 rack: TP and the collectives span the rack's NVLink domain
            for (const RackTemplate& rack : catalog->rackTemplates)
                if (rack.trayTemplate == node->id)
                    setup.rackDomainGpus = rack.domainGpus;
        const double linkEff = assumptionValue(assumptions, "link_efficiency");
        setup.linkEfficiency = linkEff;
        setup.networkGBpsPerGpu =
            node ? calc::nicGBpsPerGpu(node->nicCount, node->nicSpeedGbps, node->gpuCount, node->gpudirectRdma, linkEff,
                                       assumptionValue(assumptions, "no_gpudirect_bandwidth_factor"))
                 : calc::nicGBpsPerGpu(8, 400.0, 8, true, linkEff, 1.0);
        setup.capacityBytes = gpu->memoryUsableGiB * kGiB;
        setup.runtimeOverheadBytes = assumptionValue(assumptions, "runtime_overhead_gib") * kGiB;
        setup.commOverlap = assumptionValue(assumptions, "comm_overlap");
        setup.tpCommOverlap = assumptionValue(assumptions, "tp_comm_overlap");
    }
    setup.arch = *model->arch;
    setup.sla = sla;
    if (!scenarioNode)
        setup.assumptions = {};
    setup.gpusMin = gpusMin;
    setup.gpusMax = gpusMax;

    calc::JobSearchOptions options;
    options.topK = *top;
    const SearchPlace where{gpu, node, scenarioNode};
    if (!job.isTraining())
        return printServingSearch(calc::searchServing(setup, options), setup, *catalog, where, p.isSet("json"));
    const calc::JobSearchResult r = calc::searchJob(setup, options);
    if (!passesJobRules(
            r.top, [&](const calc::JobConfig& c) { return calc::withConfig(setup.job, c); }, *catalog))
        return kFailure;
    if (p.isSet("json")) {
        QJsonObject o = searchJson(r, configToJson, where);
        o.insert("pruned", static_cast<double>(r.pruned));
        o.insert("pareto_memory", jsonList(r.paretoMemory, configToJson));
        o.insert("pareto_gpus", jsonList(r.paretoGpus, configToJson));
        out() << QJsonDocument(o).toJson(QJsonDocument::Indented) << Qt::flush;
    } else if (!r.top.empty()) {
        out() << QString("%1 configurations, %2 fit (%3 refused by the memory bound), %4 ms, %5 per second\n")
                     .arg(r.configurations)
                     .arg(r.feasible)
                     .arg(r.pruned)
                     .arg(r.elapsedMs, 0, 'f', 1)
                     .arg(r.configurationsPerS(), 0, 'f', 0);
        out() << "Fastest:\n";
        for (const auto& c : r.top)
            out() << "  " << configLine(c) << '\n';
        out() << "Step time against memory per GPU (Pareto front):\n";
        for (const auto& c : r.paretoMemory)
            out() << "  " << configLine(c) << '\n';
        if (gpusMax > gpusMin) {
            out() << "Step time against GPUs (Pareto front):\n";
            for (const auto& c : r.paretoGpus)
                out() << "  " << configLine(c) << '\n';
        }
        out() << Qt::flush;
    }
    return searchStatus(r);
}

} // namespace

int runOptimize(const QStringList& args)
{
    const QString what = args.value(0);
    if (what == "job")
        return runOptimizeJob(args.mid(1));
    if (what == "size")
        return runOptimizeSize(args.mid(1));
    if (what == "plan")
        return runOptimizePlan(args.mid(1));
    if (what == "--help" || what == "-h" || what.isEmpty()) {
        out() << "Usage: gpuplan-cli optimize job [options]           the fastest parallelism of a training job\n"
                 "       gpuplan-cli optimize plan FILE [options]     sharing settings and size, a Pareto set\n"
                 "       gpuplan-cli optimize size FILE [options]     the fewest nodes that host a scenario\n"
                 "(gpuplan-cli optimize job|plan|size --help)\n"
              << Qt::flush;
        return what.isEmpty() ? static_cast<int>(kBadInput) : static_cast<int>(kOk);
    }
    err() << "gpuplan-cli optimize: unknown subcommand '" << what << "' (job, plan, size)" << Qt::endl;
    return kBadInput;
}

} // namespace gp::cli
