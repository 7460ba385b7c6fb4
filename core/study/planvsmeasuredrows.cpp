// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#include "planvsmeasuredrows.h"

#include "model/units.h"

#include <algorithm>
#include <cmath>

namespace gp::study {

using telemetry::Measured;
using telemetry::Stats;

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
        return higher ? "tdp_w of the GPU (data/catalog/gpus.json), or a power limit set above it"
                      : "none of the load model: the prediction is the GPU's tdp_w, an upper bound at any load; the "
                        "cost model's energy (TDP × PUE) is as much too high for this GPU";
    if (k == "gpu_link_gbytes_s")
        return "collective bandwidth (link_efficiency) and overlap (comm_overlap) of the jobs on it, or traffic "
               "of jobs the plan does not place there";
    if (k == "gpu_memory_gib")
        return "the memory of the jobs on it: runtime_overhead_gib, activations, serving_memory_fraction; "
               "mps_memory_contention on an MPS GPU";
    if (k == "gpu_sm_activity")
        return "the busy time of the jobs on it: cotenant_busy_fraction on a shared GPU, the load of serving jobs";
    return {};
}

} // namespace

namespace detail {

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

std::optional<Stats> linkSent(const Measured& m)
{
    // What leaves a GPU: NVLink and PCIe transmitted (PCIe carries GPUDirect RDMA to the NICs).
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
    return link;
}

std::optional<double> linkPredicted(const calc::JobResult& r)
{
    if (r.serving || r.perf.stepTimeS <= 0.0)
        return std::nullopt;
    return (r.perf.dataParallelBytesPerGpu + r.perf.pipelineBytesPerGpu) / r.perf.stepTimeS / 1e9;
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
    const std::optional<Stats> link = linkSent(m);
    MeasuredRow linkRow = comparisonRow("link_gbytes_s", "link load per GPU (NVLink + PCIe sent)", "GB/s",
                                        linkPredicted(r), link ? &*link : nullptr, "mean", threshold);
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
    // A training job's mean over its co-tenants' busy and idle time, as every measured mean is
    // compared (study::predictedFor): the same figure as calibrate's "before".
    const double predicted = r.serving ? r.serving->outputTokensPerS : r.perf.tokensPerS / r.meanStepFactor();
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

} // namespace detail

} // namespace gp::study
