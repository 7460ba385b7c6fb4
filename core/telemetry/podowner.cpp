// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#include "podowner.h"

#include <algorithm>
#include <string_view>

namespace gp::telemetry {

namespace {

/// k8s.io/apimachinery/pkg/util/rand: the alphabet of generated names and of SafeEncodeString.
bool generatedPart(std::string_view s, std::size_t minLen, std::size_t maxLen)
{
    constexpr std::string_view kAlphabet = "bcdfghjklmnpqrstvwxz2456789";
    return s.size() >= minLen && s.size() <= maxLen &&
           std::all_of(s.begin(), s.end(), [&](char c) { return kAlphabet.find(c) != std::string_view::npos; });
}

bool numeric(std::string_view s)
{
    return !s.empty() && std::all_of(s.begin(), s.end(), [](char c) { return c >= '0' && c <= '9'; });
}

std::string_view lastPart(std::string_view name)
{
    const auto dash = name.rfind('-');
    return dash == std::string_view::npos ? std::string_view{} : name.substr(dash + 1);
}

std::string_view dropLast(std::string_view name) { return name.substr(0, name.rfind('-')); }

} // namespace

std::string podOwnerName(const std::string& pod)
{
    std::string_view name = pod;
    // NAME-<5 random>: a Deployment's, Job's or DaemonSet's pod; a Deployment's has its
    // ReplicaSet's pod-template-hash (6 to 10 characters of the same alphabet) before it.
    if (generatedPart(lastPart(name), 5, 5)) {
        name = dropLast(name);
        if (generatedPart(lastPart(name), 6, 10) && name.find('-') != std::string_view::npos)
            name = dropLast(name);
    }
    // NAME-<ordinal>, NAME-<index>, NAME-<group>-<index>: StatefulSets, indexed Jobs, LeaderWorkerSets.
    while (numeric(lastPart(name)) && name.find('-') != std::string_view::npos)
        name = dropLast(name);
    return name.empty() ? pod : std::string(name);
}

} // namespace gp::telemetry
