// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#include "evaluateparams.h"

#include "model/assumptions.h"
#include "model/units.h"

#include <algorithm>

namespace gp::calc {

namespace {

using F = EvaluatedFigure;

/// One assumption evaluate() reads: its key, the figures that read it, and where its value
/// goes (null: read per GPU model through InterferenceParams::from, after the catalog's
/// calibration).
struct AssumptionUse
{
    const char* key;
    std::vector<EvaluatedFigure> figures;
    void (*store)(EvaluateParams&, double);
};

// The one table of what evaluate() reads: a key is read and recorded in the same row.
const std::vector<AssumptionUse>& uses()
{
    static const std::vector<AssumptionUse> table = {
        {"runtime_overhead_gib",
         {F::Memory, F::Serving},
         [](EvaluateParams& p, double v) { p.runtimeOverheadBytes = v * kGiB; }},
        {"inference_prefill_chunk_tokens",
         {F::Memory, F::Serving},
         [](EvaluateParams& p, double v) {
             p.prefillChunkTokens = static_cast<int>(v);
             p.engine.tokenBudget = static_cast<int>(v);
         }},
        {"serving_memory_fraction",
         {F::Memory, F::Serving},
         [](EvaluateParams& p, double v) { p.engine.memoryFraction = v; }},
        {"chunked_prefill", {F::Serving}, [](EvaluateParams& p, double v) { p.engine.chunkedPrefill = v >= 0.5; }},
        {"kv_block_tokens",
         {F::Serving},
         [](EvaluateParams& p, double v) { p.engine.blockTokens = static_cast<int>(v); }},
        {"comm_overlap", {F::StepTime}, [](EvaluateParams& p, double v) { p.commOverlap = v; }},
        {"tp_comm_overlap", {F::StepTime}, [](EvaluateParams& p, double v) { p.tpCommOverlap = v; }},
        {"moe_load_imbalance",
         {F::Memory, F::StepTime, F::Serving},
         [](EvaluateParams& p, double v) { p.moeLoadImbalance = v; }},
        {"link_efficiency", {F::Communication}, [](EvaluateParams& p, double v) { p.linkEfficiency = v; }},
        {"no_gpudirect_bandwidth_factor",
         {F::Communication},
         [](EvaluateParams& p, double v) { p.noGpudirectFactor = v; }},
        {"time_slice_ms",
         {F::TimeSliceWait, F::Interference},
         [](EvaluateParams& p, double v) { p.timeSliceS = v / 1e3; }},
        {"time_slice_switch_us", {F::Interference}, nullptr},
        {"time_slice_cache_refill_us", {F::Interference}, nullptr},
        {"mps_memory_contention", {F::Interference}, nullptr},
        {"virtualization_io_overhead_pct", {F::Interference}, nullptr},
    };
    return table;
}

} // namespace

EvaluateParams EvaluateParams::read(const std::map<std::string, double>& assumptions)
{
    EvaluateParams p;
    p.mAssumptions = &assumptions;
    for (const AssumptionUse& u : uses())
        if (u.store)
            u.store(p, assumptionValue(assumptions, u.key));
    // Read by no figure of evaluate itself: the weight of a shared job's mean step (JobResult::
    // coTenantBusy), which the simulation draws from.
    p.coTenantBusy = assumptionValue(assumptions, "cotenant_busy_fraction");
    return p;
}

InterferenceParams EvaluateParams::interferenceOn(const GpuSpec& gpu) const
{
    static const std::map<std::string, double> none;
    return InterferenceParams::from(mAssumptions ? *mAssumptions : none, gpu);
}

std::vector<std::string> assumptionsReadBy(EvaluatedFigure figure)
{
    std::vector<std::string> keys;
    for (const AssumptionUse& u : uses())
        if (std::find(u.figures.begin(), u.figures.end(), figure) != u.figures.end())
            keys.emplace_back(u.key);
    return keys;
}

std::vector<std::string> assumptionsRead()
{
    std::vector<std::string> keys;
    for (const AssumptionUse& u : uses())
        keys.emplace_back(u.key);
    return keys;
}

} // namespace gp::calc
