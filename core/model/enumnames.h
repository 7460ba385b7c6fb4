// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#pragma once

#include "job.h"
#include "scenario.h"
#include "sharing.h"

#include <array>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

namespace gp {

/// The JSON spelling of each enum value; one table per enum, used by reader, writer, CLI
/// and error messages alike.
template <typename E> struct EnumNames;

template <> struct EnumNames<SharingMode>
{
    static constexpr std::array<std::pair<SharingMode, std::string_view>, 6> table{{
        {SharingMode::Exclusive, "exclusive"},
        {SharingMode::Passthrough, "passthrough"},
        {SharingMode::Mig, "mig"},
        {SharingMode::Vgpu, "vgpu"},
        {SharingMode::TimeSlicing, "time_slicing"},
        {SharingMode::Mps, "mps"},
    }};
};
template <> struct EnumNames<VgpuScheduler>
{
    static constexpr std::array<std::pair<VgpuScheduler, std::string_view>, 3> table{{
        {VgpuScheduler::BestEffort, "best_effort"},
        {VgpuScheduler::EqualShare, "equal_share"},
        {VgpuScheduler::FixedShare, "fixed_share"},
    }};
};
template <> struct EnumNames<JobKind>
{
    static constexpr std::array<std::pair<JobKind, std::string_view>, 5> table{{
        {JobKind::Pretraining, "pretraining"},
        {JobKind::FullFinetune, "full_finetune"},
        {JobKind::Lora, "lora"},
        {JobKind::Qlora, "qlora"},
        {JobKind::Inference, "inference"},
    }};
};
template <> struct EnumNames<Precision>
{
    static constexpr std::array<std::pair<Precision, std::string_view>, 6> table{{
        {Precision::Fp32, "fp32"},
        {Precision::Bf16, "bf16"},
        {Precision::Fp16, "fp16"},
        {Precision::Fp8, "fp8"},
        {Precision::Int8, "int8"},
        {Precision::Int4, "int4"},
    }};
};
template <> struct EnumNames<Optimizer>
{
    static constexpr std::array<std::pair<Optimizer, std::string_view>, 3> table{{
        {Optimizer::AdamW, "adamw"},
        {Optimizer::SgdMomentum, "sgd_momentum"},
        {Optimizer::Adam8bit, "adam_8bit"},
    }};
};
template <> struct EnumNames<Recompute>
{
    static constexpr std::array<std::pair<Recompute, std::string_view>, 3> table{{
        {Recompute::None, "none"},
        {Recompute::Selective, "selective"},
        {Recompute::Full, "full"},
    }};
};
template <> struct EnumNames<ServingLoad>
{
    static constexpr std::array<std::pair<ServingLoad, std::string_view>, 2> table{{
        {ServingLoad::Open, "open"},
        {ServingLoad::Closed, "closed"},
    }};
};

template <> struct EnumNames<Isolation>
{
    static constexpr std::array<std::pair<Isolation, std::string_view>, 3> table{{
        {Isolation::None, "none"},
        {Isolation::Memory, "memory"},
        {Isolation::Hardware, "hardware"},
    }};
};

template <> struct EnumNames<PlacementPolicy>
{
    static constexpr std::array<std::pair<PlacementPolicy, std::string_view>, 4> table{{
        {PlacementPolicy::FirstFit, "first_fit"},
        {PlacementPolicy::BestFit, "best_fit"},
        {PlacementPolicy::TopologyAware, "topology_aware"},
        {PlacementPolicy::FragmentationAware, "fragmentation_aware"},
    }};
};

template <typename E> std::string_view enumName(E value)
{
    for (const auto& [v, name] : EnumNames<E>::table)
        if (v == value)
            return name;
    return "?";
}

template <typename E> std::optional<E> enumFromName(std::string_view name)
{
    for (const auto& [v, n] : EnumNames<E>::table)
        if (n == name)
            return v;
    return std::nullopt;
}

/// "a, b or c" — the accepted spellings, for error messages.
template <typename E> std::string enumChoices()
{
    std::string out;
    const auto& t = EnumNames<E>::table;
    for (std::size_t i = 0; i < t.size(); ++i) {
        if (i > 0)
            out += (i + 1 == t.size()) ? " or " : ", ";
        out += t[i].second;
    }
    return out;
}

/// The name a person reads for a sharing mode (undo texts, charts, notes); the JSON name is
/// enumName(). One spelling for the whole product.
constexpr std::string_view displayName(SharingMode m)
{
    switch (m) {
    case SharingMode::Exclusive: return "Bare metal";
    case SharingMode::Passthrough: return "Passthrough";
    case SharingMode::Mig: return "MIG";
    case SharingMode::Vgpu: return "vGPU";
    case SharingMode::TimeSlicing: return "Time-slicing";
    case SharingMode::Mps: return "MPS";
    }
    return "?";
}

/// The name a person reads for a kind of job (the Workloads table, the outline, the report).
constexpr std::string_view displayName(JobKind k)
{
    switch (k) {
    case JobKind::Pretraining: return "Pre-training";
    case JobKind::FullFinetune: return "Full fine-tune";
    case JobKind::Lora: return "LoRA";
    case JobKind::Qlora: return "QLoRA";
    case JobKind::Inference: return "Inference";
    }
    return "?";
}

/// The name a person reads for a placement policy.
constexpr std::string_view displayName(PlacementPolicy p)
{
    switch (p) {
    case PlacementPolicy::FirstFit: return "First fit";
    case PlacementPolicy::BestFit: return "Best fit";
    case PlacementPolicy::TopologyAware: return "Topology-aware";
    case PlacementPolicy::FragmentationAware: return "Fragmentation-aware";
    }
    return "?";
}

} // namespace gp
