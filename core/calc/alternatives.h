// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#pragma once

#include "evaluation.h"

#include "model/catalog.h"
#include "model/scenario.h"

#include <atomic>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace gp::calc {

/// How far a sharing mode keeps tenants apart, per NVIDIA's documentation
/// (docs/model-reference.md, "Sharing trade-offs"). 2 = enforced by hardware or the
/// hypervisor, 1 = partial (a limit that software sets, or a scheduler share), 0 = none.
struct IsolationLevels
{
    int memory = 0;
    int fault = 0;
    int performance = 0;
};

IsolationLevels isolationOf(SharingMode mode);

/// The current tenant mix evaluated with every GPU shared one way.
struct SharingAlternative
{
    SharingMode mode = SharingMode::Exclusive;
    std::string setting;     ///< the setting that was chosen, e.g. "MIG 3g.40gb x2"
    bool offered = true;     ///< false when no GPU of the scenario supports the mode; kpis are then empty
    int candidatesTried = 0; ///< settings evaluated for this mode
    int nodesKept = 0;       ///< nodes whose GPU lacks the mode and keep their own sharing
    IsolationLevels isolation;
    /// Share of the usable VRAM the mode does not offer to jobs (offeredMemoryBytes of this
    /// setting against bare metal): MIG slices in no instance and instance rounding, vGPU
    /// framebuffers smaller than the GPU. 0 for bare metal, passthrough, time-slicing and MPS.
    double memoryOverhead = 0.0;
    Kpis kpis;
    /// The scenario as evaluated with the chosen setting, and its evaluation (null when not
    /// offered): what a caller simulates for the predictability of each mode.
    std::shared_ptr<const Scenario> scenario;
    std::shared_ptr<const Evaluation> evaluation;
    /// The slowest training job's P95 completion in days from a Monte Carlo simulation of
    /// `scenario`; compareSharing leaves it empty (calc does not simulate), callers fill it.
    std::optional<double> p95Days;
};

/// One alternative per sharing mode, in the order bare metal, passthrough, MIG, vGPU,
/// time-slicing, MPS. For a mode with several settings (MIG layouts of one profile, vGPU
/// profiles, time-slicing replicas, MPS thread shares) each setting is evaluated with the
/// scenario's policy and the densest kept, since packing the mix into less of the cluster
/// is what sharing is for: fewest unplaced jobs, then the least GPU share allocated, then
/// the lowest mean penalty, then the highest VRAM utilization. The matrix thus shows what
/// each mode's densest packing costs in penalty and isolation. MIG settings are the uniform
/// layouts of one profile. Pins to a MIG instance and per-GPU overrides are dropped.
/// With `stop`, returns an empty vector as soon as it reads true (checked before each setting).
std::vector<SharingAlternative> compareSharing(const Scenario& scenario, const Catalog& catalog,
                                               const std::atomic<bool>* stop = nullptr);

} // namespace gp::calc
