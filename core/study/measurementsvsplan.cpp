// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#include "measurementsvsplan.h"

#include "measuredprediction.h"

#include <cmath>

namespace gp::study {

std::string explainingParameter(MeasuredQuantity q, bool serving, bool higher)
{
    switch (q) {
    case MeasuredQuantity::MemoryGib:
        return serving ? "runtime_overhead_gib, or serving_memory_fraction (the KV cache the engine pre-allocates)"
                       : "runtime_overhead_gib (the runtime's reserve per GPU), or the activation memory "
                         "(micro-batch, recompute)";
    case MeasuredQuantity::StepTimeS:
    case MeasuredQuantity::TrainTokensPerS:
        return "the step time: GEMM efficiency (efficiency.gemm of the GPU), comm_overlap, the software stack's "
               "per-step overhead (data/catalog/software-stacks.json)";
    case MeasuredQuantity::TflopsPerGpu:
        return higher ? "GEMM efficiency understated (efficiency.gemm of the GPU, data/catalog/gpus.json)"
                      : "GEMM efficiency (efficiency.gemm of the GPU), or the stack's per-step overhead";
    case MeasuredQuantity::OutputTokensPerS:
    case MeasuredQuantity::RequestsPerS:
        return "the load the service received (inference.requests_per_s, concurrency), or the engine's iteration "
               "time (efficiency.memory_bound for decode)";
    case MeasuredQuantity::TtftMs: return "prefill: GEMM efficiency (efficiency.gemm), or queueing at the load";
    case MeasuredQuantity::ItlMs:
        return "decode: memory-bound efficiency (efficiency.memory_bound of the GPU), or the batch the engine runs";
    case MeasuredQuantity::SmActivity:
        return "the software stack's per-step overhead, the load, or cotenant_busy_fraction on a shared GPU";
    case MeasuredQuantity::PowerW: return "tdp_w of the GPU (data/catalog/gpus.json)";
    }
    return {};
}

MeasurementsVsPlan compareMeasurements(const Scenario& scenario, const Catalog& catalog,
                                       const calc::Evaluation& evaluation, const MeasurementSet& set, double threshold)
{
    MeasurementsVsPlan out;
    out.threshold = threshold;
    for (const Measurement& m : set.items) {
        MeasurementVsPlan row;
        row.measured = m;
        const Job* job = scenario.findJob(m.jobId);
        const calc::JobResult* result = nullptr;
        for (const calc::JobResult& r : evaluation.jobs)
            if (r.id == m.jobId)
                result = &r;
        if (!job || !result) {
            row.why = "the plan has no job '" + m.jobId + "'";
            ++out.unknownJobs;
            out.rows.push_back(std::move(row));
            continue;
        }
        row.jobName = job->name;
        row.tenantId = result->tenant;
        row.predicted = predictedFor(*result, *job, catalog, m.quantity, m.statistic, &row.why);
        if (row.predicted) {
            const double p = *row.predicted;
            if (std::abs(p) > 1e-12)
                row.difference = (m.value - p) / p;
            row.flagged = std::abs(m.value - p) > threshold * std::abs(p);
            if (row.flagged) {
                row.parameter = explainingParameter(m.quantity, result->serving.has_value(), m.value > p);
                ++out.flagged;
            }
        }
        out.rows.push_back(std::move(row));
    }
    return out;
}

} // namespace gp::study
