// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#pragma once

#include "calc/alternatives.h"
#include "calc/evaluation.h"
#include "calc/parallel.h"
#include "model/catalog.h"
#include "model/scenario.h"
#include "simkernel.h"
#include "trialoutputs.h"

#include <atomic>
#include <functional>
#include <string>
#include <vector>

namespace gp::sim {

enum class Backend
{
    Auto,
    Cpu,
    Cuda
};

struct SimulationConfig
{
    int trials = 1000;
    std::uint64_t seed = 1;
    Backend backend = Backend::Auto;
};

struct Percentiles
{
    double p5 = 0, p50 = 0, p95 = 0, p99 = 0;
};

struct JobSimulation
{
    std::string id;
    std::string tenant;
    bool training = false;
    Percentiles completionDays;
    std::vector<int> histogram; ///< completion days in 20 bins from histogramMinDays to histogramMaxDays
    double histogramMinDays = 0, histogramMaxDays = 0;
    double deadlineMissProbability = 0;
    Percentiles slowdown;              ///< trial step time / bare-metal step time
    bool serving = false;              ///< a placed serving job: the fields below apply
    bool saturated = false;            ///< its queue grows without bound (TTFT percentiles 1e30)
    Percentiles ttftS;                 ///< one request per trial: time to first token
    Percentiles itlS;                  ///< ... its mean inter-token latency
    double ttftSloMissProbability = 0; ///< P(a request's TTFT exceeds the tenant's ttft_p99_ms)
    double itlSloMissProbability = 0;  ///< P(its mean ITL exceeds itl_p99_ms)
    double sloMissProbability = 0;     ///< P(either)
};

struct GpuSimulation
{
    std::string node;
    int gpu = 0;
    double oomProbability = 0;
    Percentiles peakBytes; ///< the step's highest joint memory use, over trials
    double capacityBytes = 0;
};

struct LinkSimulation
{
    std::string id;
    Percentiles loadGbps; ///< over trials and time points (from a 64-bin histogram)
    double congestedFraction = 0;
};

struct TenantSimulation
{
    std::string id;
    double worstP95Days = 0;            ///< the slowest job's P95 completion
    double deadlineMissProbability = 0; ///< that at least one of its jobs misses (union bound, capped)
};

struct SimulationResult
{
    std::string backend;     ///< "cpu" or "cuda (<device>)"
    std::string backendNote; ///< why auto fell back to the CPU, when it did
    int trials = 0;
    std::uint64_t seed = 0;
    std::vector<JobSimulation> jobs;
    std::vector<GpuSimulation> gpus;   ///< GPUs without memory isolation that carry jobs
    std::vector<LinkSimulation> links; ///< links that carry traffic
    std::vector<TenantSimulation> tenants;
    double clusterP95Days = 0; ///< the slowest job's P95 completion
    double elapsedMs = 0;
    double trialsPerSecond = 0;
};

/// Everything one backend needs: flat arrays of jobs, memory-sharing GPUs and loaded links.
struct SimulationInput
{
    std::vector<SimJob> jobs;
    std::vector<std::string> jobIds, jobTenants;
    std::vector<SimUnit> units;
    std::vector<SimGpu> gpus;
    std::vector<std::pair<std::string, int>> gpuNames;
    std::vector<SimLinkUse> uses;
    std::vector<SimLink> links;
    std::vector<std::string> linkIds;
    SimParams params;
    SimView view() const;
};

SimulationInput buildSimulationInput(const Scenario& scenario, const Catalog& catalog,
                                     const calc::Evaluation& evaluation);

/// The Monte Carlo's trials run on calc's parallel-for (calc/parallel.h), which the workbench
/// points at its thread pool.
using calc::ParallelFor;
using calc::setParallelFor;

/// The CPU backend: trials split in contiguous ranges over the workers.
void runTrialsCpu(const SimulationInput& in, std::uint64_t seed, int trials, TrialOutputs& out);

/// Runs N trials on the chosen backend and reduces them to distributions.
SimulationResult simulate(const Scenario& scenario, const Catalog& catalog, const calc::Evaluation& evaluation,
                          const SimulationConfig& config);

/// Fills each offered alternative's p95Days from a Monte Carlo of its chosen setting
/// (`trials` on the CPU, seed 1); leaves it empty where no training job is placed. Returns
/// false, leaving the rest untouched, as soon as `stop` reads true.
bool simulateAlternatives(std::vector<calc::SharingAlternative>& alternatives, const Catalog& catalog, int trials,
                          const std::atomic<bool>* stop = nullptr);

} // namespace gp::sim
