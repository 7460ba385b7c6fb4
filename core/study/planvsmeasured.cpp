// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#include "planvsmeasured.h"
#include "planvsmeasuredrows.h"

#include "calc/evaluate.h"
#include "model/units.h"
#include "telemetry/podowner.h"

#include <algorithm>
#include <set>
#include <utility>

namespace gp::study {

using telemetry::DcgmSeries;
using telemetry::Stats;

namespace {

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
    /// The job a pod belongs to, its tenant and by which rule; or why none.
    struct PodJob
    {
        const Job* job = nullptr;
        const Tenant* tenant = nullptr;
        std::string rule;
        std::string why;
    };
    PodJob job(const telemetry::PodRef& pod) const
    {
        const std::string owner = telemetry::podOwnerName(pod.pod);
        const auto inPlan = [&](const std::string& idOrName, const Tenant* only) -> PodJob {
            for (const Tenant& t : s.tenants)
                if (!only || &t == only)
                    for (const Job& j : t.jobs)
                        if (j.id == idOrName || j.name == idOrName)
                            return {&j, &t, {}, {}};
            return {};
        };
        const auto by = [](PodJob m, const char* rule) {
            m.rule = rule;
            return m;
        };
        for (const std::string& k : {owner, pod.pod})
            if (auto it = map.jobs.find(k); it != map.jobs.end()) {
                if (PodJob m = inPlan(it->second, nullptr); m.job)
                    return by(m, "mapping");
                return {
                    nullptr, nullptr, {}, "the mapping names job '" + it->second + "', which the plan does not have"};
            }
        const Tenant* t = tenant(pod.ns);
        if (!t)
            return {nullptr, nullptr, {}, "namespace '" + pod.ns + "' is no tenant of the plan (id or name)"};
        if (PodJob m = inPlan(owner, t); m.job)
            return by(m, "owner name");
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
        if (best)
            return {best, t, "name prefix", {}};
        return {nullptr,
                nullptr,
                {},
                "no job of tenant '" + t->id + "' is named '" + owner +
                    "' (the pod's owner) or prefixes the pod's name"};
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
        const auto match = plan.job(pod);
        if (!match.job || !match.tenant) {
            out.podsWithoutJob.push_back(key + ": " + match.why);
            continue;
        }
        const Job* job = match.job;
        const Tenant* tenant = match.tenant;
        const std::string& rule = match.rule;
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
            const auto match = plan.job(pod);
            if (!match.job) {
                out.throughputUnmatched.push_back(pod.key() + ": " + match.why);
                continue;
            }
            const Job* job = match.job;
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
            m.rows = detail::jobRows(*r, j, telemetry::measure(jobSeries[&j]), threshold, m.gpuWideValues);
            if (throughput)
                m.rows.push_back(detail::throughputRow(
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
        std::optional<double> memory, busy, power, link;
        bool linkUnknown = false, linkWithoutTp = false; // a job on it whose traffic the plan does not give
        if (planned) {
            memory = planned->usedBytes / kGiB;
            double b = 0.0, sent = 0.0;
            for (const calc::JobResult& r : evaluation.jobs)
                for (const calc::UnitLocation& u : r.placement)
                    if (u.node == node->id && u.gpu == index)
                        if (const Job* j = scenario.findJob(r.id)) {
                            b += detail::busyOf(r, *j).value_or(0.0) * detail::slotFraction(u.slot);
                            if (const auto l = detail::linkPredicted(r))
                                sent += *l;
                            else
                                linkUnknown = true;
                            linkWithoutTp = linkWithoutTp || (!r.serving && j->parallelism.tp > 1);
                        }
            busy = std::min(1.0, b);
            if (!linkUnknown || sent > 0.0)
                link = sent;
            // TDP whatever the load: gpuplan has no cited idle/dynamic split of a GPU's power
            // (docs/cli.md#check-plan), so the prediction is an upper bound, as the cost model's is.
            if (const GpuSpec* spec = catalog.gpu(node->gpuId); spec && spec->tdpW > 0.0)
                power = spec->tdpW;
        }
        const Stats* sm = detail::statOf(g.measured, "sm_activity");
        const std::optional<Stats> sent = detail::linkSent(g.measured);
        v.rows.push_back(detail::comparisonRow("gpu_memory_gib", "memory used", "GiB", memory,
                                               detail::statOf(g.measured, "memory_used_gib"), "max", threshold));
        v.rows.push_back(detail::comparisonRow("gpu_sm_activity", "SM activity", "fraction", busy,
                                               sm ? sm : detail::statOf(g.measured, "gpu_util"), "mean", threshold));
        MeasuredRow linkRow = detail::comparisonRow("gpu_link_gbytes_s", "link load (NVLink + PCIe sent)", "GB/s", link,
                                                    sent ? &*sent : nullptr, "mean", threshold);
        if (linkUnknown)
            linkRow.note = link ? "predicted: the training jobs' traffic only; the plan gives none for serving jobs"
                                : "the plan gives no per-GPU traffic for serving jobs";
        else if (linkWithoutTp)
            linkRow.note = "predicted: data-parallel and pipeline traffic; tensor-parallel all-reduces are not in it";
        if (sent) // where the exporter gives NVLink or PCIe bytes (profiling fields)
            v.rows.push_back(linkRow);
        MeasuredRow powerRow = detail::comparisonRow("power_w", "power (TDP, an upper bound)", "W", power,
                                                     detail::statOf(g.measured, "power_w"), "mean", threshold);
        if (power)
            powerRow.note = "predicted: the GPU's TDP whatever its load, an upper bound (gpuplan has no cited "
                            "idle/dynamic split); the cost model charges energy at TDP × PUE";
        v.rows.push_back(powerRow);
        for (MeasuredRow& x : v.rows) {
            detail::markExplained(x, false);
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
        const telemetry::PrometheusClient client(request.telemetry.url, request.telemetry.timeoutMs,
                                                 request.telemetry.stop);
        throughput = client.queryRange(
            {request.throughputQuery, request.telemetry.fromS, request.telemetry.toS, request.telemetry.stepS});
        if (throughput->error) {
            check.error = throughput->error;
            return check;
        }
    }
    if (request.telemetry.stop && request.telemetry.stop->load()) {
        check.error = telemetry::FetchError{telemetry::FetchFailure::Cancelled, check.url, {}, "cancelled"};
        return check;
    }
    const calc::Evaluation ev = calc::evaluate(scenario, catalog);
    check.result = comparePlanWithTelemetry(scenario, catalog, ev, answer.telemetry, request.mapping, request.threshold,
                                            throughput ? &throughput->series : nullptr);
    return check;
}

} // namespace gp::study
