// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#pragma once

#include "memorymodel.h"
#include "perfmodel.h"
#include "servingmodel.h"

#include "model/tenant.h"

#include <array>
#include <cstdint>
#include <unordered_map>

namespace gp::calc {

/// The serving model's inputs for a job on the GPUs its placement gave it.
ServingInputs servingInputsFor(const ModelArchitecture& arch, const Job& job, const GpuSpec& gpu,
                               const ServingEngine& engine, const Sla& sla, const ServingPlacement& placement);

/// A serving job on its slots and on whole GPUs, and the memory its engine holds.
struct ServingAnswer
{
    ServingResult shared;
    PerfResult sharedPerf;
    PerfResult barePerf;
    MemoryBreakdown memory;
};

/// Serving jobs of the same shape on the same kind of slot get the same answer: one evaluate
/// works each out once (2,000-job scenarios repeat a few shapes many times). The key reads a
/// KV budget only as the sequences it holds; the bare-metal answer is an entry of its own.
class ServingCache
{
public:
    const ServingAnswer& answer(const ModelArchitecture& arch, const Job& job, const GpuSpec& gpu,
                                const ServingEngine& engine, const Sla& sla, const ServingPlacement& placement,
                                double fixedBytes, double runtimeOverheadBytes);

private:
    struct Key
    {
        std::uintptr_t gpu = 0;
        std::array<double, 44> v{};
        bool operator==(const Key& o) const = default;
    };
    struct KeyHash
    {
        std::size_t operator()(const Key& k) const;
    };
    std::unordered_map<Key, ServingAnswer, KeyHash> mAnswers; // node-based: answers stay put while it grows
};

} // namespace gp::calc
