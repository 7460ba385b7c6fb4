// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#include "planvsmeasured.h"

#include "calc/evaluate.h"

#include "model/units.h"
#include "telemetry/podowner.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonParseError>

#include <algorithm>
#include <cmath>
#include <set>
#include <utility>

namespace gp::study {

using telemetry::DcgmSeries;
using telemetry::Measured;
using telemetry::Stats;

std::optional<TelemetryMapping> readTelemetryMapping(const QString& file, QString* error)
{
    const auto fail = [&](const QString& why) -> std::optional<TelemetryMapping> {
        if (error)
            *error = file + ": " + why;
        return std::nullopt;
    };
    QFile f(file);
    if (!f.open(QIODevice::ReadOnly))
        return fail("cannot read: " + f.errorString());
    QJsonParseError pe{};
    const QJsonDocument doc = QJsonDocument::fromJson(f.readAll(), &pe);
    if (pe.error != QJsonParseError::NoError)
        return fail(QString("not JSON: %1 at byte %2").arg(pe.errorString()).arg(pe.offset));
    if (!doc.isObject())
        return fail("the mapping is an object {\"nodes\": {…}, \"tenants\": {…}, \"jobs\": {…}}");
    TelemetryMapping m;
    const QJsonObject root = doc.object();
    for (auto it = root.begin(); it != root.end(); ++it) {
        std::map<std::string, std::string>* target = it.key() == "nodes"     ? &m.nodes
                                                     : it.key() == "tenants" ? &m.tenants
                                                     : it.key() == "jobs"    ? &m.jobs
                                                                             : nullptr;
        if (!target)
            return fail(it.key() + ": unknown key (nodes, tenants and jobs are)");
        if (!it.value().isObject())
            return fail(it.key() + ": must be an object of names to names");
        const QJsonObject o = it.value().toObject();
        for (auto e = o.begin(); e != o.end(); ++e) {
            if (!e.value().isString() || e.value().toString().isEmpty())
                return fail(it.key() + "." + e.key() + ": must be the id or name of a " +
                            (it.key() == "nodes"     ? "node"
                             : it.key() == "tenants" ? "tenant"
                                                     : "job") +
                            " of the plan");
            (*target)[e.key().toStdString()] = e.value().toString().toStdString();
        }
    }
    return m;
}

double MeasuredRow::compared() const
{
    if (!measured)
        return 0.0;
    return statistic == "max" ? measured->max : measured->mean;
}

namespace {

/// Below these a difference is noise, whatever its ratio (an idle GPU at 0.01 against 0).
double noiseFloor(const std::string& unit)
{
    if (unit == "GiB")
        return 1.0;
    if (unit == "GB/s")
        return 1.0;
    if (unit == "W")
        return 25.0;
    if (unit == "tokens/s")
        return 1.0;
    return 0.05; // fractions
}

const Stats* statOf(const Measured& m, const char* key)
{
    auto it = m.find(key);
    return it == m.end() || it->second.samples == 0 ? nullptr : &it->second;
}

MeasuredRow comparisonRow(const char* key, const char* label, const char* unit, std::optional<double> predicted,
                          const Stats* measured, const char* statistic, double threshold)
{
    MeasuredRow r;
    r.key = key;
    r.label = label;
    r.unit = unit;
    r.predicted = predicted;
    r.statistic = statistic;
    if (measured)
        r.measured = *measured;
    if (r.predicted && r.measured) {
        const double m = r.compared();
        const double p = *r.predicted;
        if (std::abs(p) > 1e-12)
            r.difference = (m - p) / p;
        r.flagged = std::abs(m - p) > threshold * std::max(std::abs(p), noiseFloor(r.unit));
    }
    return r;
}

/// Which parameter of the model would move the prediction towards the measurement
/// (docs/cli.md#check-plan lists them; docs/model-reference.md defines them).
std::string explainingParameter(const MeasuredRow& r, bool serving, bool higher)
{
    const std::string& k = r.key;
    if (k == "memory_gib")
        return serving ? (higher ? "runtime_overhead_gib, or serving_memory_fraction (the engine pre-allocates that "
                                   "share of the GPU for its KV cache)"
                                 : "serving_memory_fraction (the KV cache the engine takes), or runtime_overhead_gib")
                       : (higher ? "runtime_overhead_gib (the runtime's reserve per GPU), or the activation memory "
                                   "(micro-batch, recompute)"
                                 : "the activation memory (micro-batch, recompute), or runtime_overhead_gib");
    if (k == "sm_activity")
        return serving ? "the load: inference.requests_per_s and concurrency against what the service receives"
                       : (higher ? "the pipeline bubble or the exposed communication (comm_overlap, tp_comm_overlap)"
                                 : "time outside GPU kernels the step model does not see: the software stack's "
                                   "per-step overhead (data/catalog/software-stacks.json), the input pipeline");
    if (k == "tensor_activity")
        return higher ? "GEMM efficiency understated (efficiency.gemm of the GPU, data/catalog/gpus.json), or a "
                        "lower precision than the job's precision"
                      : "GEMM efficiency (efficiency.gemm of the GPU, data/catalog/gpus.json), or the job's precision";
    if (k == "dram_activity")
        return "memory-bound efficiency (efficiency.memory_bound of the GPU, data/catalog/gpus.json)";
    if (k == "link_gbytes_s")
        return "collective bandwidth (link_efficiency) and overlap (comm_overlap)";
    if (k == "power_w")
        return "tdp_w of the GPU (data/catalog/gpus.json): the cost model charges an owned GPU at TDP × PUE";
    if (k == "gpu_memory_gib")
        return "the memory of the jobs on it: runtime_overhead_gib, activations, serving_memory_fraction; "
               "mps_memory_contention on an MPS GPU";
    if (k == "gpu_sm_activity")
        return "the busy time of the jobs on it: cotenant_busy_fraction on a shared GPU, the load of serving jobs";
    return {};
}

void markExplained(MeasuredRow& r, bool serving)
{
    if (r.flagged)
        r.parameter = explainingParameter(r, serving, r.compared() > r.predicted.value_or(0.0));
}

/// The share of the time a job keeps its GPUs' engines busy, as the plan predicts it: a training
/// step is kernels but for the pipeline bubble (collectives run as kernels too); a serving engine
/// is busy while it holds a sequence, at most min(1, mean sequences per replica) by Little's law.
std::optional<double> busyOf(const calc::JobResult& r, const Job& j)
{
    if (r.serving)
        return std::min(1.0, r.serving->running / std::max(1, j.parallelism.dp));
    if (r.perf.stepTimeS <= 0.0)
        return std::nullopt;
    return std::clamp((r.perf.stepTimeS - r.perf.breakdown.bubble) / r.perf.stepTimeS, 0.0, 1.0);
}

/// The share of a GPU a slot is: a MIG instance's compute slices of 7 ("3g.40gb@0"), else the GPU.
double slotFraction(const std::string& slot)
{
    int n = 0;
    std::size_t i = 0;
    while (i < slot.size() && slot[i] >= '0' && slot[i] <= '9')
        n = n * 10 + (slot[i++] - '0');
    return i > 0 && i < slot.size() && slot[i] == 'g' ? n / 7.0 : 1.0;
}

std::vector<MeasuredRow> jobRows(const calc::JobResult& r, const Job& j, const Measured& m, double threshold,
                                 bool gpuWide)
{
    const bool serving = r.serving.has_value();
    std::vector<MeasuredRow> rows;
    rows.push_back(comparisonRow("memory_gib", "memory per GPU", "GiB", r.memory.totalBytes() / kGiB,
                                 statOf(m, "memory_used_gib"), "max", threshold));
    const auto busy = busyOf(r, j);
    const Stats* sm = statOf(m, "sm_activity");
    MeasuredRow smRow = comparisonRow("sm_activity", "SM activity", "fraction", busy, sm ? sm : statOf(m, "gpu_util"),
                                      "mean", threshold);
    if (!sm && smRow.measured)
        smRow.note = "DCGM_FI_DEV_GPU_UTIL in place of DCGM_FI_PROF_GR_ENGINE_ACTIVE (no profiling series)";
    rows.push_back(smRow);
    std::optional<double> tensor;
    if (!serving && r.perf.computeS > 0.0 && r.perf.mfu > 0.0)
        tensor = r.perf.mfu * (r.perf.breakdown.compute + r.perf.breakdown.recompute) /
                 std::max(r.perf.breakdown.compute, 1e-12); // hardware FLOPs: recompute runs GEMMs too
    else if (r.perf.mfu > 0.0)
        tensor = r.perf.mfu;
    MeasuredRow tensorRow = comparisonRow("tensor_activity", "tensor activity", "fraction", tensor,
                                          statOf(m, "tensor_activity"), "mean", threshold);
    if (!tensor)
        tensorRow.note = "the plan gives no tensor-pipe figure for this job";
    rows.push_back(tensorRow);
    std::optional<double> dram;
    if (serving && busy)
        dram = *busy * (1.0 - r.serving->computeBoundShare);
    else if (!serving && r.perf.stepTimeS > 0.0)
        dram = r.perf.mix.memory;
    MeasuredRow dramRow = comparisonRow("dram_activity", "DRAM activity", "fraction", dram, statOf(m, "dram_activity"),
                                        "mean", threshold);
    dramRow.note = "predicted: the HBM-bound share of the time; DRAM also moves data under compute-bound kernels";
    rows.push_back(dramRow);
    // What leaves each GPU: NVLink and PCIe transmitted (PCIe carries GPUDirect RDMA to the NICs).
    std::optional<Stats> link;
    for (const char* k : {"nvlink_tx_gbytes_s", "pcie_tx_gbytes_s"})
        if (const Stats* s = statOf(m, k)) {
            if (!link)
                link = Stats{};
            link->samples = std::max(link->samples, s->samples);
            link->mean += s->mean;
            link->p50 += s->p50;
            link->p95 += s->p95;
            link->max += s->max;
        }
    std::optional<double> linkPredicted;
    if (!serving && r.perf.stepTimeS > 0.0)
        linkPredicted = (r.perf.dataParallelBytesPerGpu + r.perf.pipelineBytesPerGpu) / r.perf.stepTimeS / 1e9;
    MeasuredRow linkRow = comparisonRow("link_gbytes_s", "link load per GPU (NVLink + PCIe sent)", "GB/s",
                                        linkPredicted, link ? &*link : nullptr, "mean", threshold);
    linkRow.note = serving ? "the plan gives no per-GPU traffic for serving jobs"
                   : j.parallelism.tp > 1
                       ? "predicted: data-parallel and pipeline traffic; tensor-parallel all-reduces are not in it"
                       : "predicted: data-parallel and pipeline traffic per step over the step time";
    rows.push_back(linkRow);
    for (MeasuredRow& x : rows) {
        markExplained(x, serving);
        if (gpuWide && x.measured && x.key != "memory_gib") {
            x.note += std::string(x.note.empty() ? "" : "; ") +
                      "measured on a GPU shared with other pods: the GPU's value, not the job's";
            if (x.flagged)
                x.parameter += "; cotenant_busy_fraction (co-tenants' share of the GPU)";
        }
    }
    return rows;
}

/// Tokens/s: a training job's trained tokens/s, a serving job's generated tokens/s (all replicas).
MeasuredRow throughputRow(const calc::JobResult& r, const Job& j, const std::map<double, double>* measured,
                          double threshold)
{
    std::vector<double> values;
    if (measured)
        for (const auto& [t, v] : *measured)
            values.push_back(v);
    const Stats stats = telemetry::summarize(values);
    const double predicted = r.serving ? r.serving->outputTokensPerS : r.perf.tokensPerS;
    MeasuredRow row = comparisonRow("tokens_per_s", r.serving ? "output tokens/s" : "trained tokens/s", "tokens/s",
                                    predicted > 0.0 ? std::optional<double>(predicted) : std::nullopt,
                                    values.empty() ? nullptr : &stats, "mean", threshold);
    if (values.empty())
        row.note = "the throughput query gave no series of its pods";
    if (row.flagged)
        row.parameter =
            r.serving ? "the load the service received (inference.requests_per_s, concurrency) or its engine's "
                        "iteration time (efficiency.memory_bound for decode, efficiency.gemm for prefill)"
                      : "the step time: GEMM efficiency (efficiency.gemm), comm_overlap, the software stack's per-step "
                        "overhead; and jobs[" +
                            j.id + "].batch";
    return row;
}

struct PlanIndex
{
    const Scenario& s;
    const TelemetryMapping& map;

    const Node* node(const std::string& host) const
    {
        const auto byIdOrName = [&](const std::string& n) -> const Node* {
            for (const Node& x : s.topology.nodes)
                if (x.id == n || x.name == n)
                    return &x;
            return nullptr;
        };
        if (auto it = map.nodes.find(host); it != map.nodes.end())
            return byIdOrName(it->second);
        if (const Node* n = byIdOrName(host))
            return n;
        const auto dot = host.find('.'); // gpu-01.cluster.local -> gpu-01
        return dot == std::string::npos ? nullptr : byIdOrName(host.substr(0, dot));
    }
    const Tenant* tenant(const std::string& ns) const
    {
        auto it = map.tenants.find(ns);
        const std::string& want = it == map.tenants.end() ? ns : it->second;
        for (const Tenant& t : s.tenants)
            if (t.id == want || t.name == want)
                return &t;
        return nullptr;
    }
    /// The job a pod belongs to and by which rule; nullptr with the reason.
    std::pair<const Job*, std::string> job(const telemetry::PodRef& pod, const Tenant** tenantOut,
                                           std::string* why) const
    {
        const std::string owner = telemetry::podOwnerName(pod.pod);
        const auto inPlan = [&](const std::string& idOrName, const Tenant* only) -> const Job* {
            for (const Tenant& t : s.tenants)
                if (!only || &t == only)
                    for (const Job& j : t.jobs)
                        if (j.id == idOrName || j.name == idOrName) {
                            *tenantOut = &t;
                            return &j;
                        }
            return nullptr;
        };
        for (const std::string& k : {owner, pod.pod})
            if (auto it = map.jobs.find(k); it != map.jobs.end()) {
                if (const Job* j = inPlan(it->second, nullptr))
                    return {j, "mapping"};
                *why = "the mapping names job '" + it->second + "', which the plan does not have";
                return {nullptr, {}};
            }
        const Tenant* t = tenant(pod.ns);
        if (!t) {
            *why = "namespace '" + pod.ns + "' is no tenant of the plan (id or name)";
            return {nullptr, {}};
        }
        if (const Job* j = inPlan(owner, t))
            return {j, "owner name"};
        // KServe and other operators add parts after the name ("tts-predictor-00011-deployment"):
        // the longest job id or name the pod's name starts with.
        const Job* best = nullptr;
        std::size_t bestLen = 0;
        for (const Job& j : t->jobs)
            for (const std::string& n : {j.id, j.name})
                if (!n.empty() && pod.pod.size() > n.size() && pod.pod.compare(0, n.size(), n) == 0 &&
                    pod.pod[n.size()] == '-' && n.size() > bestLen) {
                    best = &j;
                    bestLen = n.size();
                }
        if (best) {
            *tenantOut = t;
            return {best, "name prefix"};
        }
        *why = "no job of tenant '" + t->id + "' is named '" + owner + "' (the pod's owner) or prefixes the pod's name";
        return {nullptr, {}};
    }
};

} // namespace

PlanVsMeasured comparePlanWithTelemetry(const Scenario& scenario, const Catalog& catalog,
                                        const calc::Evaluation& evaluation, const telemetry::DcgmTelemetry& telemetry,
                                        const TelemetryMapping& mapping, double threshold,
                                        const std::vector<telemetry::Series>* throughput)
{
    PlanVsMeasured out;
    out.url = telemetry.url;
    out.fromS = telemetry.fromS;
    out.toS = telemetry.toS;
    out.stepS = telemetry.stepS;
    out.threshold = threshold;
    out.seriesCount = static_cast<int>(telemetry.series.size());
    const PlanIndex plan{scenario, mapping};

    // Pods -> jobs.
    std::map<std::string, std::vector<const DcgmSeries*>> byPod;
    for (const DcgmSeries& s : telemetry.series) {
        if (s.pod.empty()) {
            ++out.seriesWithoutPod;
            if (out.seriesWithoutPodExamples.size() < 3)
                out.seriesWithoutPodExamples.push_back(s.text());
            continue;
        }
        byPod[s.pod.key()].push_back(&s);
    }
    std::map<const Job*, JobVsMeasured> matched;
    std::map<const Job*, std::vector<const DcgmSeries*>> jobSeries;
    for (const auto& [key, series] : byPod) {
        const telemetry::PodRef& pod = series.front()->pod;
        const Tenant* tenant = nullptr;
        std::string why;
        const auto [job, rule] = plan.job(pod, &tenant, &why);
        if (!job) {
            out.podsWithoutJob.push_back(key + ": " + why);
            continue;
        }
        JobVsMeasured& m = matched[job];
        m.jobId = job->id;
        m.jobName = job->name;
        m.tenantId = tenant->id;
        m.matchedBy = m.matchedBy.empty() || m.matchedBy == rule ? rule : m.matchedBy + ", " + rule;
        m.pods.push_back(key);
        for (const DcgmSeries* s : series) {
            jobSeries[job].push_back(s);
            if (std::find(m.measuredOn.begin(), m.measuredOn.end(), s->gpu.key()) == m.measuredOn.end())
                m.measuredOn.push_back(s->gpu.key());
            m.gpuWideValues = m.gpuWideValues || !telemetry::podOwnValue(telemetry, *s);
        }
    }
    // Tokens/s per pod, added up per job at each time.
    std::map<const Job*, std::map<double, double>> throughputOf;
    if (throughput) {
        out.throughputSeries = static_cast<int>(throughput->size());
        for (const telemetry::Series& s : *throughput) {
            const auto labelOf = [&](std::initializer_list<const char*> names) {
                for (const char* n : names)
                    if (auto it = s.labels.find(n); it != s.labels.end() && !it->second.empty())
                        return it->second;
                return std::string();
            };
            const telemetry::PodRef pod{labelOf({"namespace", "pod_namespace", "exported_namespace"}),
                                        labelOf({"pod", "pod_name", "exported_pod"}),
                                        {}};
            if (pod.empty()) {
                out.throughputUnmatched.push_back("a series without a pod label");
                continue;
            }
            const Tenant* tenant = nullptr;
            std::string why;
            const Job* job = plan.job(pod, &tenant, &why).first;
            if (!job) {
                out.throughputUnmatched.push_back(pod.key() + ": " + why);
                continue;
            }
            for (const telemetry::Sample& p : s.samples)
                throughputOf[job][p.timeS] += p.value;
        }
    }
    for (const Tenant& t : scenario.tenants)
        for (const Job& j : t.jobs) {
            const calc::JobResult* r = nullptr;
            for (const calc::JobResult& x : evaluation.jobs)
                if (x.id == j.id)
                    r = &x;
            auto it = matched.find(&j);
            if (it == matched.end()) {
                out.jobsNotMeasured.push_back(t.id + "/" + j.id + ": no series of a pod in namespace '" + t.id +
                                              "' or '" + t.name + "' named after it");
                continue;
            }
            JobVsMeasured m = std::move(it->second);
            std::sort(m.measuredOn.begin(), m.measuredOn.end());
            if (r)
                for (const calc::UnitLocation& u : r->placement) {
                    const std::string p = u.node + "/" + std::to_string(u.gpu);
                    if (std::find(m.plannedOn.begin(), m.plannedOn.end(), p) == m.plannedOn.end())
                        m.plannedOn.push_back(p);
                }
            if (!r || !r->placed) {
                out.jobsNotMeasured.push_back(t.id + "/" + j.id + ": measured, but the plan does not place it (" +
                                              (r ? r->reason : std::string("not evaluated")) + ")");
                continue;
            }
            m.rows = jobRows(*r, j, telemetry::measure(jobSeries[&j]), threshold, m.gpuWideValues);
            if (throughput)
                m.rows.push_back(throughputRow(
                    *r, j, throughputOf.find(&j) == throughputOf.end() ? nullptr : &throughputOf[&j], threshold));
            out.jobs.push_back(std::move(m));
        }

    // GPUs.
    std::set<std::string> hostsMissing;
    for (const telemetry::GpuTelemetry& g : telemetry::gpusOf(telemetry)) {
        GpuVsMeasured v;
        v.host = g.gpu.host;
        v.gpu = g.gpu.gpu;
        v.model = g.model;
        v.mig = g.mig;
        v.pods = g.pods;
        v.xids = g.xids;
        const Node* node = plan.node(g.gpu.host);
        bool indexOk = false;
        const int index = QString::fromStdString(g.gpu.gpu).toInt(&indexOk);
        const calc::GpuResult* planned = nullptr;
        if (node) {
            v.nodeId = node->id;
            for (const calc::GpuResult& r : evaluation.gpus)
                if (indexOk && r.node == node->id && r.gpu == index)
                    planned = &r;
        } else {
            hostsMissing.insert(g.gpu.host);
        }
        std::optional<double> memory, busy, power;
        if (planned) {
            memory = planned->usedBytes / kGiB;
            double b = 0.0;
            for (const calc::JobResult& r : evaluation.jobs)
                for (const calc::UnitLocation& u : r.placement)
                    if (u.node == node->id && u.gpu == index)
                        if (const Job* j = scenario.findJob(r.id))
                            b += busyOf(r, *j).value_or(0.0) * slotFraction(u.slot);
            busy = std::min(1.0, b);
            if (const GpuSpec* spec = catalog.gpu(node->gpuId); spec && spec->tdpW > 0.0)
                power = spec->tdpW;
        }
        const Stats* sm = statOf(g.measured, "sm_activity");
        v.rows.push_back(comparisonRow("gpu_memory_gib", "memory used", "GiB", memory,
                                       statOf(g.measured, "memory_used_gib"), "max", threshold));
        v.rows.push_back(comparisonRow("gpu_sm_activity", "SM activity", "fraction", busy,
                                       sm ? sm : statOf(g.measured, "gpu_util"), "mean", threshold));
        v.rows.push_back(
            comparisonRow("power_w", "power", "W", power, statOf(g.measured, "power_w"), "mean", threshold));
        for (MeasuredRow& x : v.rows) {
            markExplained(x, false);
            if (!planned)
                x.note = node ? "the plan's node has no GPU " + g.gpu.gpu : "the host is no node of the plan";
        }
        if (g.mig && v.rows.front().measured)
            v.rows.front().note = "a MIG GPU: its instances' memory added up";
        out.gpus.push_back(std::move(v));
    }
    out.hostsNotInPlan.assign(hostsMissing.begin(), hostsMissing.end());
    for (const JobVsMeasured& j : out.jobs)
        for (const MeasuredRow& r : j.rows)
            out.flagged += r.flagged ? 1 : 0;
    for (const GpuVsMeasured& g : out.gpus)
        for (const MeasuredRow& r : g.rows)
            out.flagged += r.flagged ? 1 : 0;
    return out;
}

namespace {

QJsonArray stringArray(const std::vector<std::string>& v)
{
    QJsonArray a;
    for (const std::string& s : v)
        a.append(QString::fromStdString(s));
    return a;
}

QJsonObject statsJson(const Stats& s)
{
    return {{"samples", s.samples}, {"mean", s.mean}, {"p50", s.p50}, {"p95", s.p95}, {"max", s.max}};
}

QJsonArray rowsJson(const std::vector<MeasuredRow>& rows)
{
    QJsonArray a;
    for (const MeasuredRow& r : rows) {
        QJsonObject o{{"quantity", QString::fromStdString(r.key)},
                      {"label", QString::fromStdString(r.label)},
                      {"unit", QString::fromStdString(r.unit)},
                      {"predicted", r.predicted ? QJsonValue(*r.predicted) : QJsonValue()},
                      {"measured", r.measured ? QJsonValue(statsJson(*r.measured)) : QJsonValue()},
                      {"compared", QString::fromStdString(r.statistic)},
                      {"difference", r.difference ? QJsonValue(*r.difference) : QJsonValue()},
                      {"flagged", r.flagged}};
        if (!r.parameter.empty())
            o["parameter"] = QString::fromStdString(r.parameter);
        if (!r.note.empty())
            o["note"] = QString::fromStdString(r.note);
        a.append(o);
    }
    return a;
}

} // namespace

QJsonObject toJson(const PlanVsMeasured& r)
{
    QJsonArray jobs;
    for (const JobVsMeasured& j : r.jobs)
        jobs.append(QJsonObject{{"job", QString::fromStdString(j.jobId)},
                                {"name", QString::fromStdString(j.jobName)},
                                {"tenant", QString::fromStdString(j.tenantId)},
                                {"pods", stringArray(j.pods)},
                                {"matched_by", QString::fromStdString(j.matchedBy)},
                                {"measured_on", stringArray(j.measuredOn)},
                                {"planned_on", stringArray(j.plannedOn)},
                                {"gpu_wide_values", j.gpuWideValues},
                                {"rows", rowsJson(j.rows)}});
    QJsonArray gpus;
    for (const GpuVsMeasured& g : r.gpus) {
        QJsonArray xids;
        for (int x : g.xids)
            xids.append(x);
        gpus.append(QJsonObject{{"host", QString::fromStdString(g.host)},
                                {"gpu", QString::fromStdString(g.gpu)},
                                {"node", g.nodeId.empty() ? QJsonValue() : QString::fromStdString(g.nodeId)},
                                {"model", QString::fromStdString(g.model)},
                                {"mig", g.mig},
                                {"pods", stringArray(g.pods)},
                                {"xid_errors", xids},
                                {"rows", rowsJson(g.rows)}});
    }
    return QJsonObject{
        {"prometheus", r.url},
        {"from", r.fromS},
        {"to", r.toS},
        {"step_s", r.stepS},
        {"threshold", r.threshold},
        {"series", r.seriesCount},
        {"flagged", r.flagged},
        {"jobs", jobs},
        {"gpus", gpus},
        {"unmatched", QJsonObject{{"jobs_not_measured", stringArray(r.jobsNotMeasured)},
                                  {"pods_without_job", stringArray(r.podsWithoutJob)},
                                  {"hosts_not_in_plan", stringArray(r.hostsNotInPlan)},
                                  {"series_without_pod", r.seriesWithoutPod},
                                  {"series_without_pod_examples", stringArray(r.seriesWithoutPodExamples)},
                                  {"throughput_series_without_job", stringArray(r.throughputUnmatched)}}},
        {"throughput_series", r.throughputSeries < 0 ? QJsonValue() : QJsonValue(r.throughputSeries)},
    };
}

PlanCheck checkPlan(const Scenario& scenario, const Catalog& catalog, const PlanCheckRequest& request)
{
    PlanCheck check;
    check.query = telemetry::dcgmQuery(request.telemetry.selector);
    telemetry::TelemetryAnswer answer = telemetry::fetchDcgmTelemetry(request.telemetry);
    check.url = answer.telemetry.url;
    if (answer.error) {
        check.error = answer.error;
        return check;
    }
    if (answer.telemetry.series.empty()) {
        check.noDcgmSeries = true;
        return check;
    }
    std::optional<telemetry::RangeAnswer> throughput;
    if (!request.throughputQuery.trimmed().isEmpty()) {
        const telemetry::PrometheusClient client(request.telemetry.url, request.telemetry.timeoutMs);
        throughput = client.queryRange(
            {request.throughputQuery, request.telemetry.fromS, request.telemetry.toS, request.telemetry.stepS});
        if (throughput->error) {
            check.error = throughput->error;
            return check;
        }
    }
    const calc::Evaluation ev = calc::evaluate(scenario, catalog);
    check.result = comparePlanWithTelemetry(scenario, catalog, ev, answer.telemetry, request.mapping, request.threshold,
                                            throughput ? &throughput->series : nullptr);
    return check;
}

} // namespace gp::study
