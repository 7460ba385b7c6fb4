// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#pragma once

// The CUDA backend of the predictability simulation: one thread per trial running the same
// runTrial() as the CPU backend (simkernel.h). No Qt, C++17 (architecture.md §9.8).
#include "../simkernel.h"
#include "../trialoutputs.h"

#include <cstdint>
#include <string>

namespace gp::sim::cuda {

/// Host arrays behind a SimView, with the lengths the view does not carry.
struct HostArrays
{
    SimView view;
    int unitCount;
    int useCount;
};

/// Runs `trials` trials on device 0. False (with `error`) when no device is usable or a CUDA
/// call fails; `out` is then left as it was.
bool runTrials(const HostArrays& in, std::uint64_t seed, int trials, TrialOutputs& out, std::string& device,
               std::string& error);

} // namespace gp::sim::cuda
