// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#pragma once

// The per-trial code of the predictability simulation, shared by the CPU and CUDA backends
// (architecture.md §9.8): plain structs and GP_HD functions, no Qt, no std containers.
#include "hostdevice.h"
#include "philox.h"

#include <cmath>
#include <cstdint>

namespace gp::sim {

/// One placed job as the simulation sees it (from calc::evaluate).
struct SimJob
{
    double computeS = 0;      ///< compute + bubble per step, with all co-tenants busy
    double exposedCommS = 0;  ///< communication not hidden behind compute, per step
    double bareStepS = 0;     ///< the same job on the same GPUs, unshared
    double steps = 0;         ///< steps of the whole run (training); 0 for serving
    int coTenants = 0;        ///< other units sharing its GPUs without isolation (0 = isolated)
    double idleFactor = 1.0;  ///< its step with every co-tenant idle / with all busy (calc::JobResult)
    double coTenantBusy = 0;  ///< P(a co-tenant is busy) in a trial (calc::JobResult::coTenantBusy)
    double gpus = 0;          ///< GPUs it spans (for the interruption rate)
    double checkpointS = 0;   ///< checkpoint interval
    double deadlineDays = -1; ///< < 0: none
    // Serving jobs (serving = 1): one request per trial, drawn from the serving model's
    // distribution at the job's operating point (calc::ServingResult).
    int serving = 0;
    int saturated = 0;           ///< the queue grows without bound: every request misses
    double decodeIterationS = 0; ///< an iteration of the running batch without prefill
    double chunkExtraS = 0;      ///< what an iteration carrying a prompt chunk adds
    double chunkShare = 0;       ///< chunk-carrying iterations per decode iteration
    double meanIterationS = 0;   ///< the mean iteration (the iteration in progress at arrival)
    double prefillS = 0;         ///< the request's own prefill at the mean prompt length
    double prefillBusy = 0;      ///< P(its prefill waits for others)
    double prefillWaitS = 0;     ///< mean of that wait
    double admissionP = 0;       ///< P(it waits for a KV slot) (open load)
    double admissionMeanS = 0;   ///< mean of that wait
    double admissionFixedS = 0;  ///< closed load past the batch: the wait every user has
    double outputTokens = 1;
    double switchShare = 0; ///< time-sliced GPU: share of iterations a switch interrupts
    double switchWaitS = 0; ///< ... and their wait for the other tenants' turns
    double ttftSloS = -1;   ///< < 0: none
    double itlSloS = -1;    ///< < 0: none
};

/// A unit's memory over one step on a GPU without memory isolation: a base that stays and a
/// peak part that rises through the forward pass and falls through the backward pass.
struct SimUnit
{
    int job = 0;
    double baseBytes = 0;
    double peakBytes = 0; ///< activations or KV cache at their highest
};

struct SimGpu
{
    double capacityBytes = 0;
    int firstUnit = 0; ///< into the unit array
    int units = 0;
};

/// One job's traffic on one link while its collectives run.
struct SimLinkUse
{
    int job = 0;
    double onGbps = 0;     ///< rate while transferring
    double onFraction = 1; ///< share of the step spent transferring
};

struct SimLink
{
    double bandwidthGbps = 0;
    int firstUse = 0;
    int uses = 0;
};

struct SimParams
{
    double stepJitterCv = 0.02;
    double interruptionsPerGpuS = 0;
    double restartS = 600;
    int timePoints = 16;      ///< samples per step for memory and link load
    int histogramBins = 64;   ///< link load histogram, 0 .. 2 x bandwidth
    double lengthSigma = 0.5; ///< log-space spread of prompt and output lengths (serving)
};

/// Read-only views of the arrays (host or device pointers).
struct SimView
{
    const SimJob* jobs;
    int jobCount;
    const SimUnit* units;
    const SimGpu* gpus;
    int gpuCount;
    const SimLinkUse* uses;
    const SimLink* links;
    int linkCount;
    SimParams params;
};

/// Where one trial writes: per job, its completion days and slowdown; per GPU, whether it
/// ran out of memory; per link, time points congested and the load histogram (counts).
struct TrialOut
{
    double* completionDays; ///< [jobCount]
    double* slowdown;       ///< [jobCount]
    int* oom;               ///< [gpuCount], 0 or 1
    double* peakBytes;      ///< [gpuCount], the highest joint memory use of the step
    int* congestedPoints;   ///< [linkCount], added to
    int* histogram;         ///< [linkCount * histogramBins], added to
    double* ttftS;          ///< [jobCount], serving: the trial's request's time to first token (0 otherwise)
    double* itlS;           ///< [jobCount], serving: its mean inter-token latency (0 otherwise)
};

/// Random numbers of trial `trial`, stream `stream`: draw i is a pure function of them.
struct TrialRandom
{
    std::uint32_t key0, key1, trial, stream, counter;

    GP_HD double uniform()
    {
        const auto b = Philox4x32::generate({{counter++, trial, stream, 0}}, key0, key1);
        return Philox4x32::toUnit(b.v[0], b.v[1]);
    }
    GP_HD double normal()
    {
        const double u1 = uniform() + 1e-300, u2 = uniform();
        return sqrt(-2.0 * log(u1)) * cos(6.283185307179586 * u2);
    }
    GP_HD int poisson(double mean)
    {
        // Knuth for small means, normal approximation above.
        if (mean > 30.0) {
            const double v = mean + sqrt(mean) * normal();
            return v < 0 ? 0 : static_cast<int>(v + 0.5);
        }
        const double limit = exp(-mean);
        double p = 1.0;
        int k = 0;
        do {
            ++k;
            p *= uniform();
        } while (p > limit);
        return k - 1;
    }
};

/// A lognormal factor with mean 1 and log-space spread `sigma`.
GP_HD inline double unitLognormal(TrialRandom& r, double sigma)
{
    return sigma > 0 ? exp(sigma * r.normal() - 0.5 * sigma * sigma) : 1.0;
}

/// A wait that is 0 with probability 1 - p and exponential with mean `mean / p` otherwise.
GP_HD inline double drawWait(TrialRandom& r, double p, double mean)
{
    if (p <= 0 || mean <= 0 || r.uniform() >= p)
        return 0.0;
    return -log(r.uniform() + 1e-300) * mean / p;
}

/// One request of a serving job in this trial: its prompt and output lengths (lognormal
/// around the configured means), the prompt chunks that ride in its decode iterations
/// (Poisson), its waits for other prompts and for a KV slot, all slowed by `factor` (the
/// trial's step jitter and co-tenant interference).
GP_HD inline void serveRequest(const SimJob& job, const SimParams& p, TrialRandom r, double factor, double* ttft,
                               double* itl)
{
    const double prompt = unitLognormal(r, p.lengthSigma);
    const double output = job.outputTokens * unitLognormal(r, p.lengthSigma);
    const double gaps = output > 2.0 ? output - 1.0 : 1.0;
    const int chunks = r.poisson(job.chunkShare * gaps);
    const int switches = job.switchShare > 0 ? r.poisson(job.switchShare * gaps) : 0;
    *itl = factor * (job.decodeIterationS + chunks * job.chunkExtraS / gaps) + switches * job.switchWaitS / gaps;
    if (job.saturated) {
        *ttft = 1e30;
        return;
    }
    const double inProgress = r.uniform() * job.meanIterationS;
    const double prefillWait = drawWait(r, job.prefillBusy, job.prefillWaitS);
    const double admission = drawWait(r, job.admissionP, job.admissionMeanS);
    const double switched = job.switchShare > 0 && r.uniform() < job.switchShare ? job.switchWaitS : 0.0;
    *ttft = factor * (inProgress + prefillWait + job.prefillS * prompt) + admission + job.admissionFixedS + switched;
}

/// Memory shape over a step (phase in [0,1)): rising over the forward third, falling over
/// the backward two thirds.
GP_HD inline double peakShape(double phase) { return phase < 1.0 / 3.0 ? phase * 3.0 : (1.0 - phase) * 1.5; }

/// Random phases in [0, 1) for up to 64 items of one stream; returns how many were drawn.
GP_HD inline int drawPhases(TrialRandom r, int items, double* phases)
{
    const int n = items < 64 ? items : 64;
    for (int i = 0; i < n; ++i)
        phases[i] = r.uniform();
    return n;
}

/// Adds to `slot` atomically on the device, plainly on the host (each CPU thread has its own).
GP_HD inline void addCount(int* slot, int v)
{
#if defined(__CUDA_ARCH__)
    atomicAdd(slot, v);
#else
    *slot += v;
#endif
}

/// One trial of every job's whole run.
GP_HD inline void runTrial(const SimView& v, std::uint64_t seed, std::uint32_t trial, double* jobFactor, TrialOut out)
{
    const std::uint32_t k0 = static_cast<std::uint32_t>(seed), k1 = static_cast<std::uint32_t>(seed >> 32);
    const SimParams& p = v.params;
    const int points = p.timePoints;
    // Step-time jitter and co-tenant bursts per job.
    for (int j = 0; j < v.jobCount; ++j) {
        TrialRandom r{k0, k1, trial, static_cast<std::uint32_t>(j) * 4u + 0u, 0};
        const double sigma = sqrt(log(1.0 + p.stepJitterCv * p.stepJitterCv));
        const double jitter = exp(sigma * r.normal() - 0.5 * sigma * sigma);
        int busy = 0;
        for (int c = 0; c < v.jobs[j].coTenants; ++c)
            busy += r.uniform() < v.jobs[j].coTenantBusy ? 1 : 0;
        // evaluate() assumed every co-tenant busy; an idle one takes no turn, SMs or bandwidth
        // from it: the step moves from the all-busy one towards the all-idle one.
        const SimJob& job = v.jobs[j];
        const double interference =
            job.coTenants > 0 ? job.idleFactor + (1.0 - job.idleFactor) * busy / job.coTenants : 1.0;
        jobFactor[j] = jitter * interference;
    }
    // Links: each job's transfers with a random phase; a time point above the bandwidth is
    // congested and stretches the communication of the jobs then on the link.
    double* commStretch = jobFactor + v.jobCount; // scratch: [jobCount]
    for (int j = 0; j < v.jobCount; ++j)
        commStretch[j] = 1.0;
    for (int l = 0; l < v.linkCount; ++l) {
        const SimLink& link = v.links[l];
        double phases[64];
        const int uses =
            drawPhases(TrialRandom{k0, k1, trial, 0x40000000u + static_cast<std::uint32_t>(l), 0}, link.uses, phases);
        for (int t = 0; t < points; ++t) {
            const double time = (t + 0.5) / points;
            double load = 0.0;
            for (int u = 0; u < uses; ++u) {
                const SimLinkUse& use = v.uses[link.firstUse + u];
                double rel = time - phases[u];
                rel -= floor(rel);
                load += rel < use.onFraction ? use.onGbps : 0.0;
            }
            int bin = static_cast<int>(load / (2.0 * link.bandwidthGbps) * p.histogramBins);
            bin = bin < 0 ? 0 : (bin >= p.histogramBins ? p.histogramBins - 1 : bin);
            addCount(&out.histogram[l * p.histogramBins + bin], 1);
            if (load > link.bandwidthGbps) {
                addCount(&out.congestedPoints[l], 1);
                for (int u = 0; u < uses; ++u) {
                    const SimLinkUse& use = v.uses[link.firstUse + u];
                    double rel = time - phases[u];
                    rel -= floor(rel);
                    if (rel < use.onFraction) {
                        const double stretch = 1.0 + (load / link.bandwidthGbps - 1.0) / points / use.onFraction;
                        commStretch[use.job] = commStretch[use.job] > stretch ? commStretch[use.job] : stretch;
                    }
                }
            }
        }
    }
    // Memory of GPUs without isolation: joint use with random phases; above capacity is an
    // out-of-memory event that kills a job (the first unit's) and costs it a restart.
    double* restarts = commStretch + v.jobCount; // scratch: [jobCount]
    for (int j = 0; j < v.jobCount; ++j)
        restarts[j] = 0.0;
    for (int g = 0; g < v.gpuCount; ++g) {
        const SimGpu& gpu = v.gpus[g];
        double phases[64];
        const int units =
            drawPhases(TrialRandom{k0, k1, trial, 0x80000000u + static_cast<std::uint32_t>(g), 0}, gpu.units, phases);
        double peak = 0.0;
        for (int t = 0; t < points; ++t) {
            double used = 0.0;
            for (int u = 0; u < units; ++u) {
                const SimUnit& unit = v.units[gpu.firstUnit + u];
                double phase = (t + 0.5) / points + phases[u];
                phase -= floor(phase);
                used += unit.baseBytes + unit.peakBytes * peakShape(phase);
            }
            peak = used > peak ? used : peak;
        }
        const int oom = peak > gpu.capacityBytes ? 1 : 0;
        out.oom[g] = oom;
        out.peakBytes[g] = peak;
        if (oom && units > 0)
            restarts[v.units[gpu.firstUnit].job] += 1.0;
    }
    // The whole run: steps at this trial's step time, plus hardware interruptions (Poisson)
    // and out-of-memory kills, each losing the work since the last checkpoint and a restart.
    for (int j = 0; j < v.jobCount; ++j) {
        const SimJob& job = v.jobs[j];
        const double step = job.computeS * jobFactor[j] + job.exposedCommS * commStretch[j];
        out.slowdown[j] = job.bareStepS > 0 ? step / job.bareStepS : 1.0;
        out.ttftS[j] = out.itlS[j] = 0.0;
        if (job.serving)
            serveRequest(job, p, TrialRandom{k0, k1, trial, static_cast<std::uint32_t>(j) * 4u + 2u, 0}, jobFactor[j],
                         &out.ttftS[j], &out.itlS[j]);
        if (job.steps <= 0) {
            out.completionDays[j] = 0.0;
            continue;
        }
        double seconds = job.steps * step;
        TrialRandom r{k0, k1, trial, static_cast<std::uint32_t>(j) * 4u + 1u, 0};
        const int interruptions =
            r.poisson(p.interruptionsPerGpuS * job.gpus * seconds) + static_cast<int>(restarts[j]);
        for (int i = 0; i < interruptions; ++i)
            seconds += p.restartS + r.uniform() * job.checkpointS;
        out.completionDays[j] = seconds / 86400.0;
    }
}

} // namespace gp::sim
