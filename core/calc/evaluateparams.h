// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#pragma once

#include "interference.h"
#include "servingmodel.h"

#include "model/catalog.h"

#include <map>
#include <string>
#include <vector>

namespace gp::calc {

/// The figures evaluate() works out from the registered assumptions (model/assumptions.h), by
/// what each reads: the explanations name the assumptions behind a number from these.
enum class EvaluatedFigure
{
    Memory,        ///< memory per GPU and what placement reserves (jobMemoryNeed)
    Communication, ///< the bandwidth a job's collectives see on its slots
    StepTime,      ///< a training job's step on its slots and on bare metal
    Interference,  ///< what co-tenants on a shared GPU take from each other
    Serving,       ///< a serving engine's KV cache, latencies and throughput
    TimeSliceWait, ///< the turns a time-sliced or vGPU unit waits for
};

/// The scenario's assumptions as evaluate() reads them: each once, typed, in its unit, instead
/// of by key per job. Which figure reads which key is recorded beside the read
/// (assumptionsReadBy), so the explanations and the calculation cannot drift apart.
struct EvaluateParams
{
    double runtimeOverheadBytes = 0.0; ///< runtime_overhead_gib, in bytes
    int prefillChunkTokens = 0;        ///< inference_prefill_chunk_tokens
    double commOverlap = 0.0;          ///< comm_overlap
    double tpCommOverlap = 0.0;        ///< tp_comm_overlap
    double linkEfficiency = 0.0;       ///< link_efficiency
    double noGpudirectFactor = 0.0;    ///< no_gpudirect_bandwidth_factor
    double timeSliceS = 0.0;           ///< time_slice_ms, in seconds
    double moeLoadImbalance = 1.0;     ///< moe_load_imbalance
    double coTenantBusy = 0.8;         ///< cotenant_busy_fraction: a tenant's without its own
    ServingEngine engine;              ///< the serving_* and kv_* keys, as servingEngineFrom reads them

    /// Reads every assumption evaluate() uses from the scenario's overrides (or the defaults).
    /// The params keep a pointer to `assumptions` for the GPU-calibrated interference
    /// parameters: it must outlive them.
    static EvaluateParams read(const std::map<std::string, double>& assumptions);

    /// The interference parameters on `gpu`: its catalog calibration where it has one, else
    /// the scenario's assumptions (InterferenceParams::from).
    InterferenceParams interferenceOn(const GpuSpec& gpu) const;

    /// Whether the scenario itself sets `key` (an override of the software stack's figure).
    bool sets(const std::string& key) const { return mAssumptions && mAssumptions->count(key) > 0; }
    /// A training job's overlaps on its software stack (nullptr: the assumptions'): the
    /// scenario's comm_overlap / tp_comm_overlap where it sets them, else the stack's figures.
    double commOverlapFor(const SoftwareStack* stack) const
    {
        return stack && !sets("comm_overlap") ? stack->dpGradOverlap : commOverlap;
    }
    double tpCommOverlapFor(const SoftwareStack* stack) const
    {
        return stack && !sets("tp_comm_overlap") ? stack->tpCommOverlap : tpCommOverlap;
    }
    /// A serving job's engine on its stack (servingmodel.h, withSoftwareStack).
    ServingEngine engineFor(const SoftwareStack* stack) const
    {
        return withSoftwareStack(engine, stack, sets("serving_memory_fraction"));
    }

private:
    const std::map<std::string, double>* mAssumptions = nullptr;
};

/// The keys of the registered assumptions `figure` reads, in the order evaluate() reads them.
std::vector<std::string> assumptionsReadBy(EvaluatedFigure figure);

/// Every key evaluate() reads, each once, in the order it reads them.
std::vector<std::string> assumptionsRead();

} // namespace gp::calc
