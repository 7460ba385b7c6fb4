// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#include "simulation.h"
#include "model/units.h"

#include "model/assumptions.h"
#include "model/calibratedplan.h"
#include "model/validation.h"

#include <algorithm>
#include <chrono>
#include <map>
#include <thread>

#ifdef GPUPLAN_HAVE_CUDA
#include "cuda/simcuda.h"
#endif

namespace gp::sim {

namespace {

constexpr int kCompletionBins = 20;

Percentiles percentiles(std::vector<double> v)
{
    Percentiles p;
    if (v.empty())
        return p;
    std::sort(v.begin(), v.end());
    auto at = [&](double q) {
        const auto i = static_cast<std::size_t>(std::min<double>(v.size() - 1, std::max(0.0, q * v.size() - 0.5)));
        return v[i];
    };
    p.p5 = at(0.05);
    p.p50 = at(0.50);
    p.p95 = at(0.95);
    p.p99 = at(0.99);
    return p;
}

/// Percentiles of a load histogram of `bins` bins over [0, 2 x bandwidth] (bin centres).
Percentiles histogramPercentiles(const int* counts, int bins, double bandwidth)
{
    long long total = 0;
    for (int b = 0; b < bins; ++b)
        total += counts[b];
    Percentiles p;
    if (total == 0)
        return p;
    auto at = [&](double q) {
        long long seen = 0;
        for (int b = 0; b < bins; ++b) {
            seen += counts[b];
            if (seen >= q * total)
                return (b + 0.5) / bins * 2.0 * bandwidth;
        }
        return 2.0 * bandwidth;
    };
    p.p5 = at(0.05);
    p.p50 = at(0.50);
    p.p95 = at(0.95);
    p.p99 = at(0.99);
    return p;
}

bool interferes(const SharingConfig& c)
{
    return c.mode == SharingMode::TimeSlicing || c.mode == SharingMode::Mps ||
           (c.mode == SharingMode::Vgpu && c.vgpuScheduler != VgpuScheduler::FixedShare);
}

bool sharesMemory(const SharingConfig& c)
{
    return c.mode == SharingMode::TimeSlicing || (c.mode == SharingMode::Mps && !c.mpsMemoryLimitGiB);
}

} // namespace

SimView SimulationInput::view() const
{
    return {jobs.data(),  static_cast<int>(jobs.size()),  units.data(),
            gpus.data(),  static_cast<int>(gpus.size()),  uses.data(),
            links.data(), static_cast<int>(links.size()), params};
}

SimulationInput buildSimulationInput(const Scenario& s, const Catalog& c, const calc::Evaluation& ev)
{
    if (s.calibration)
        return withOwnCalibration(
            s, c, [&](const Scenario& cs, const Catalog& cc) { return buildSimulationInput(cs, cc, ev); });
    SimulationInput in;
    const auto& A = s.assumptions;
    in.params.stepJitterCv = assumptionValue(A, "step_jitter_cv");
    in.params.interruptionsPerGpuS = assumptionValue(A, "interruptions_per_gpu_day") / 86400.0;
    in.params.restartS = assumptionValue(A, "restart_overhead_min") * 60.0;
    in.params.lengthSigma = assumptionValue(A, "serving_length_sigma");

    std::map<std::string, const Job*> jobs;
    std::map<std::string, const Tenant*> tenantOf;
    for (const Tenant& t : s.tenants)
        for (const Job& j : t.jobs) {
            jobs[j.id] = &j;
            tenantOf[j.id] = &t;
        }
    std::map<std::string, int> nodeIndex;
    for (std::size_t n = 0; n < s.topology.nodes.size(); ++n)
        nodeIndex[s.topology.nodes[n].id] = static_cast<int>(n);
    // Units per GPU: who shares each one.
    std::map<std::pair<std::string, int>, std::vector<std::size_t>> unitsOnGpu;
    for (std::size_t k = 0; k < ev.jobs.size(); ++k)
        for (const auto& u : ev.jobs[k].placement)
            unitsOnGpu[{u.node, u.gpu}].push_back(k);

    std::map<std::size_t, int> simIndex; // evaluation job -> simulation job
    for (std::size_t k = 0; k < ev.jobs.size(); ++k) {
        const calc::JobResult& r = ev.jobs[k];
        if (!r.placed || !jobs.count(r.id))
            continue;
        const Job& job = *jobs[r.id];
        const Tenant& tenant = *tenantOf[r.id];
        SimJob sj;
        sj.exposedCommS = r.perf.exposedCommS;
        sj.computeS = std::max(0.0, r.perf.stepTimeS - r.perf.exposedCommS);
        sj.bareStepS = r.bareMetal.stepTimeS;
        if (job.training && r.perf.tokensPerS > 0)
            sj.steps = job.training->tokens / r.perf.tokensPerS / std::max(r.perf.stepTimeS, 1e-12);
        sj.gpus = static_cast<double>(r.placement.size());
        sj.checkpointS = job.training ? job.training->checkpointIntervalMin * 60.0 : 0.0;
        sj.deadlineDays = tenant.sla.deadlineDays.value_or(-1.0);
        sj.idleFactor = r.idleCotenantsFactor;
        sj.coTenantBusy = r.coTenantBusy;
        if (r.serving && job.inference) {
            const calc::ServingResult& v = *r.serving;
            sj.serving = 1;
            sj.saturated = v.saturated || !v.fits ? 1 : 0;
            sj.decodeIterationS = v.decodeIterationS;
            sj.chunkExtraS = v.chunkExtraS;
            sj.chunkShare = v.chunkShare;
            sj.meanIterationS = v.itlS;
            sj.prefillS = v.prefillS;
            sj.prefillBusy = v.prefillBusy;
            sj.prefillWaitS = v.prefillWaitS;
            sj.admissionP = v.admissionProbability;
            sj.admissionMeanS = v.admissionMeanS;
            sj.admissionFixedS = v.admissionFixedS;
            sj.outputTokens = std::max(job.inference->outputTokens, 1);
            sj.switchShare = v.switchShare;
            sj.switchWaitS = v.switchWaitS;
            sj.ttftSloS = tenant.sla.ttftP99Ms ? *tenant.sla.ttftP99Ms / 1e3 : -1.0;
            sj.itlSloS = tenant.sla.itlP99Ms ? *tenant.sla.itlP99Ms / 1e3 : -1.0;
        }
        for (const auto& u : r.placement) {
            const Node& node = s.topology.nodes[static_cast<std::size_t>(nodeIndex[u.node])];
            if (interferes(node.sharingOf(u.gpu)))
                sj.coTenants = std::max(sj.coTenants, static_cast<int>(unitsOnGpu[{u.node, u.gpu}].size()) - 1);
        }
        simIndex[k] = static_cast<int>(in.jobs.size());
        in.jobs.push_back(sj);
        in.jobIds.push_back(r.id);
        in.jobTenants.push_back(r.tenant);
    }
    // GPUs whose co-tenants share memory: their units' memory over the step.
    for (const auto& [key, units] : unitsOnGpu) {
        const Node& node = s.topology.nodes[static_cast<std::size_t>(nodeIndex[key.first])];
        const GpuSpec* gpu = c.gpu(node.gpuId);
        if (!gpu || !sharesMemory(node.sharingOf(key.second)))
            continue;
        SimGpu g{gpu->memoryUsableGiB * kGiB, static_cast<int>(in.units.size()), 0};
        for (std::size_t k : units) {
            if (!simIndex.count(k))
                continue;
            const calc::MemoryBreakdown& m = ev.jobs[k].memory;
            const double peak = m.activationsBytes.value_or(0.0) + m.kvCacheBytes.value_or(0.0);
            in.units.push_back({simIndex[k], m.totalBytes() - peak, peak});
            ++g.units;
        }
        in.gpus.push_back(g);
        in.gpuNames.push_back(key);
    }
    // Links with traffic: each job's share, sent in bursts while its collectives run.
    std::map<int, std::vector<SimLinkUse>> uses;
    for (const auto& [k, j] : simIndex) {
        const calc::JobResult& r = ev.jobs[k];
        const double on = std::clamp(r.perf.networkCommS / std::max(r.perf.stepTimeS, 1e-12), 0.05, 1.0);
        std::map<int, double> perLink;
        for (const auto& [link, gbps] : r.linkGbps)
            perLink[link] += gbps;
        for (const auto& [link, gbps] : perLink)
            uses[link].push_back({j, gbps / on, on});
    }
    for (const auto& [link, list] : uses) {
        const Link& l = s.topology.links[static_cast<std::size_t>(link)];
        in.links.push_back({l.bandwidthGbps, static_cast<int>(in.uses.size()), static_cast<int>(list.size())});
        in.linkIds.push_back(l.id);
        in.uses.insert(in.uses.end(), list.begin(), list.end());
    }
    return in;
}

void runTrialsCpu(const SimulationInput& in, std::uint64_t seed, int trials, TrialOutputs& out)
{
    const SimView v = in.view();
    const std::size_t J = in.jobs.size(), G = in.gpus.size(), L = in.links.size();
    const int bins = in.params.histogramBins;
    out.completionDays.assign(static_cast<std::size_t>(trials) * J, 0.0);
    out.slowdown.assign(static_cast<std::size_t>(trials) * J, 0.0);
    out.oom.assign(static_cast<std::size_t>(trials) * G, 0);
    out.peakBytes.assign(static_cast<std::size_t>(trials) * G, 0.0);
    out.ttft.assign(static_cast<std::size_t>(trials) * J, 0.0);
    out.itl.assign(static_cast<std::size_t>(trials) * J, 0.0);
    out.congestedPoints.assign(L, 0);
    out.histogram.assign(L * static_cast<std::size_t>(bins), 0);
    const int workers = calc::parallelWorkers();
    const int threads = std::max(1, std::min(workers, trials));
    std::vector<std::vector<int>> congested(static_cast<std::size_t>(threads), std::vector<int>(L, 0));
    std::vector<std::vector<int>> histograms(static_cast<std::size_t>(threads),
                                             std::vector<int>(L * static_cast<std::size_t>(bins), 0));
    calc::runParts(threads, [&](int t) {
        std::vector<double> scratch(3 * J + 1);
        const int begin = static_cast<int>(static_cast<long long>(trials) * t / threads);
        const int end = static_cast<int>(static_cast<long long>(trials) * (t + 1) / threads);
        for (int trial = begin; trial < end; ++trial) {
            TrialOut o{out.completionDays.data() + static_cast<std::size_t>(trial) * J,
                       out.slowdown.data() + static_cast<std::size_t>(trial) * J,
                       out.oom.data() + static_cast<std::size_t>(trial) * G,
                       out.peakBytes.data() + static_cast<std::size_t>(trial) * G,
                       congested[static_cast<std::size_t>(t)].data(),
                       histograms[static_cast<std::size_t>(t)].data(),
                       out.ttft.data() + static_cast<std::size_t>(trial) * J,
                       out.itl.data() + static_cast<std::size_t>(trial) * J};
            runTrial(v, seed, static_cast<std::uint32_t>(trial), scratch.data(), o);
        }
    });
    for (int t = 0; t < threads; ++t) {
        for (std::size_t l = 0; l < L; ++l)
            out.congestedPoints[l] += congested[static_cast<std::size_t>(t)][l];
        for (std::size_t i = 0; i < out.histogram.size(); ++i)
            out.histogram[i] += histograms[static_cast<std::size_t>(t)][i];
    }
}

SimulationResult simulate(const Scenario& s, const Catalog& c, const calc::Evaluation& ev, const SimulationConfig& cfg)
{
    const auto start = std::chrono::steady_clock::now();
    SimulationResult res;
    res.trials = std::max(cfg.trials, 1);
    res.seed = cfg.seed;
    const SimulationInput in = buildSimulationInput(s, c, ev);
    TrialOutputs out;
    bool ran = false;
    if (cfg.backend != Backend::Cpu) {
#ifdef GPUPLAN_HAVE_CUDA
        std::string device, error;
        const cuda::HostArrays arrays{in.view(), static_cast<int>(in.units.size()), static_cast<int>(in.uses.size())};
        if (cuda::runTrials(arrays, cfg.seed, res.trials, out, device, error)) {
            res.backend = "cuda (" + device + ")";
            ran = true;
        } else {
            res.backendNote = error;
        }
#else
        res.backendNote = "built without CUDA";
#endif
        if (!ran && cfg.backend == Backend::Cuda) {
            res.backend = "none";
            return res; // the caller reports backendNote
        }
    }
    if (!ran) {
        runTrialsCpu(in, cfg.seed, res.trials, out);
        res.backend = "cpu";
    }

    const std::size_t J = in.jobs.size();
    for (std::size_t j = 0; j < J; ++j) {
        JobSimulation js;
        js.id = in.jobIds[j];
        js.tenant = in.jobTenants[j];
        js.training = in.jobs[j].steps > 0;
        std::vector<double> days, slow;
        for (int t = 0; t < res.trials; ++t) {
            days.push_back(out.completionDays[static_cast<std::size_t>(t) * J + j]);
            slow.push_back(out.slowdown[static_cast<std::size_t>(t) * J + j]);
        }
        js.slowdown = percentiles(slow);
        const SimJob& sj = in.jobs[j];
        if (sj.serving) {
            js.serving = true;
            js.saturated = sj.saturated != 0;
            std::vector<double> ttft, itl;
            int ttftMiss = 0, itlMiss = 0, miss = 0;
            for (int t = 0; t < res.trials; ++t) {
                const double a = out.ttft[static_cast<std::size_t>(t) * J + j],
                             b = out.itl[static_cast<std::size_t>(t) * J + j];
                ttft.push_back(a);
                itl.push_back(b);
                const bool late = sj.ttftSloS >= 0 && a > sj.ttftSloS, slow = sj.itlSloS >= 0 && b > sj.itlSloS;
                ttftMiss += late;
                itlMiss += slow;
                miss += late || slow;
            }
            js.ttftS = percentiles(ttft);
            js.itlS = percentiles(itl);
            js.ttftSloMissProbability = static_cast<double>(ttftMiss) / res.trials;
            js.itlSloMissProbability = static_cast<double>(itlMiss) / res.trials;
            js.sloMissProbability = static_cast<double>(miss) / res.trials;
        }
        if (js.training) {
            js.completionDays = percentiles(days);
            const auto [lo, hi] = std::minmax_element(days.begin(), days.end());
            js.histogramMinDays = *lo;
            js.histogramMaxDays = *hi;
            js.histogram.assign(kCompletionBins, 0);
            for (double d : days) {
                const double span = std::max(*hi - *lo, 1e-12);
                ++js.histogram[static_cast<std::size_t>(
                    std::min(kCompletionBins - 1, static_cast<int>((d - *lo) / span * kCompletionBins)))];
            }
            if (in.jobs[j].deadlineDays >= 0)
                js.deadlineMissProbability =
                    static_cast<double>(std::count_if(days.begin(), days.end(),
                                                      [&](double d) { return d > in.jobs[j].deadlineDays; })) /
                    res.trials;
            res.clusterP95Days = std::max(res.clusterP95Days, js.completionDays.p95);
        }
        res.jobs.push_back(js);
    }
    for (std::size_t g = 0; g < in.gpus.size(); ++g) {
        int count = 0;
        std::vector<double> peaks;
        for (int t = 0; t < res.trials; ++t) {
            count += out.oom[static_cast<std::size_t>(t) * in.gpus.size() + g];
            peaks.push_back(out.peakBytes[static_cast<std::size_t>(t) * in.gpus.size() + g]);
        }
        res.gpus.push_back({in.gpuNames[g].first, in.gpuNames[g].second, static_cast<double>(count) / res.trials,
                            percentiles(peaks), in.gpus[g].capacityBytes});
    }
    const int bins = in.params.histogramBins;
    for (std::size_t l = 0; l < in.links.size(); ++l)
        res.links.push_back(
            {in.linkIds[l],
             histogramPercentiles(out.histogram.data() + l * static_cast<std::size_t>(bins), bins,
                                  in.links[l].bandwidthGbps),
             static_cast<double>(out.congestedPoints[l]) / (static_cast<double>(res.trials) * in.params.timePoints)});
    for (const Tenant& t : s.tenants) {
        TenantSimulation ts{t.id, 0.0, 0.0};
        double miss = 0.0;
        for (const auto& j : res.jobs)
            if (j.tenant == t.id) {
                ts.worstP95Days = std::max(ts.worstP95Days, j.completionDays.p95);
                miss += j.deadlineMissProbability;
            }
        ts.deadlineMissProbability = std::min(1.0, miss);
        res.tenants.push_back(ts);
    }
    res.elapsedMs = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    res.trialsPerSecond = res.elapsedMs > 0 ? res.trials / (res.elapsedMs / 1000.0) : 0.0;
    return res;
}

bool simulateAlternatives(std::vector<calc::SharingAlternative>& alternatives, const Catalog& catalog, int trials,
                          const std::atomic<bool>* stop)
{
    SimulationConfig quick;
    quick.trials = trials;
    quick.backend = Backend::Cpu;
    for (calc::SharingAlternative& a : alternatives) {
        if (stop && stop->load())
            return false;
        if (a.scenario && a.evaluation) {
            const double p95 = simulate(*a.scenario, catalog, *a.evaluation, quick).clusterP95Days;
            if (p95 > 0)
                a.p95Days = p95;
        }
    }
    return true;
}

} // namespace gp::sim
