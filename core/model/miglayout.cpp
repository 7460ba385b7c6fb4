// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#include "miglayout.h"

#include "limits.h"

#include <algorithm>
#include <array>
#include <map>

namespace gp::mig {

bool canAdd(const GpuSpec& gpu, const Layout& layout, const MigProfile& profile)
{
    Layout more = layout;
    more.push_back({profile.name, 0});
    for (int start : profile.startSlices) {
        more.back().start = start;
        if (check(gpu, more).empty())
            return true;
    }
    return false;
}

std::vector<Violation> check(const GpuSpec& gpu, const Layout& layout)
{
    std::vector<Violation> out;
    if (!gpu.supportsMig()) {
        out.push_back({-1, gpu.name + " does not support MIG"});
        return out;
    }
    std::array<int, kMemorySlices> owner{};
    owner.fill(-1);
    std::map<std::string, int> counts;
    int compute = 0;
    for (int i = 0; i < static_cast<int>(layout.size()); ++i) {
        const MigInstance& inst = layout[static_cast<std::size_t>(i)];
        const MigProfile* p = gpu.migProfile(inst.profile);
        if (!p) {
            std::string names;
            for (const auto& q : gpu.migProfiles)
                names += (names.empty() ? "" : ", ") + q.name;
            out.push_back(
                {i, "profile '" + inst.profile + "' does not exist on " + gpu.name + " (profiles: " + names + ")"});
            continue;
        }
        if (std::find(p->startSlices.begin(), p->startSlices.end(), inst.start) == p->startSlices.end()) {
            std::string starts;
            for (int s : p->startSlices)
                starts += (starts.empty() ? "" : ",") + std::to_string(s);
            out.push_back({i, "start slice " + std::to_string(inst.start) + " is not allowed for " + p->name +
                                  " (allowed: " + starts + ")"});
            continue;
        }
        bool overlap = false;
        for (int s = inst.start; s < inst.start + p->memorySlices && s < kMemorySlices; ++s) {
            if (owner[static_cast<std::size_t>(s)] >= 0 && !overlap) {
                out.push_back({i, "memory slice " + std::to_string(s) + " is already used by instance " +
                                      std::to_string(owner[static_cast<std::size_t>(s)])});
                overlap = true;
            }
            owner[static_cast<std::size_t>(s)] = i;
        }
        compute += p->computeSlices;
        if (++counts[p->name] == p->maxInstances + 1)
            out.push_back({i, "more than " + std::to_string(p->maxInstances) + " instance(s) of " + p->name});
    }
    if (compute > kComputeSlices)
        out.push_back({-1, "instances use " + std::to_string(compute) + " compute slices; the GPU has " +
                               std::to_string(kComputeSlices)});
    return out;
}

namespace {

struct Enumerator
{
    const GpuSpec& gpu;
    std::vector<const MigProfile*> profiles; // largest first
    bool maximalOnly;
    std::size_t maxLayouts;
    std::size_t maxSteps;
    std::vector<Layout> result;
    Layout current;
    std::map<std::string, int> counts;
    int compute = 0;
    std::size_t steps = 0;
    bool stopped = false;

    bool fits(const MigProfile& p, int start, const std::array<bool, kMemorySlices>& used) const
    {
        if (start + p.memorySlices > kMemorySlices)
            return false;
        if (std::find(p.startSlices.begin(), p.startSlices.end(), start) == p.startSlices.end())
            return false;
        for (int s = start; s < start + p.memorySlices; ++s)
            if (used[static_cast<std::size_t>(s)])
                return false;
        auto it = counts.find(p.name);
        if (it != counts.end() && it->second >= p.maxInstances)
            return false;
        return compute + p.computeSlices <= kComputeSlices;
    }

    bool isMaximal(const std::array<bool, kMemorySlices>& used) const
    {
        for (const MigProfile* p : profiles)
            for (int start : p->startSlices)
                if (fits(*p, start, used))
                    return false;
        return true;
    }

    void walk(int slice, std::array<bool, kMemorySlices>& used)
    {
        if (stopped)
            return;
        if (++steps > maxSteps) {
            stopped = true;
            return;
        }
        if (slice == kMemorySlices) {
            if (!current.empty() && (!maximalOnly || isMaximal(used))) {
                if (result.size() >= maxLayouts) { // one more than it keeps: there are more
                    stopped = true;
                    return;
                }
                result.push_back(current);
            }
            return;
        }
        for (const MigProfile* p : profiles) {
            if (stopped)
                return;
            if (!fits(*p, slice, used))
                continue;
            for (int s = slice; s < slice + p->memorySlices; ++s)
                used[static_cast<std::size_t>(s)] = true;
            current.push_back({p->name, slice});
            ++counts[p->name];
            compute += p->computeSlices;
            walk(slice + p->memorySlices, used);
            compute -= p->computeSlices;
            --counts[p->name];
            current.pop_back();
            for (int s = slice; s < slice + p->memorySlices; ++s)
                used[static_cast<std::size_t>(s)] = false;
        }
        walk(slice + 1, used); // leave this memory slice empty
    }
};

std::string withThousands(std::size_t n)
{
    std::string digits = std::to_string(n), out;
    for (std::size_t i = 0; i < digits.size(); ++i) {
        if (i > 0 && (digits.size() - i) % 3 == 0)
            out += ',';
        out += digits[i];
    }
    return out;
}

} // namespace

Enumeration enumerateBounded(const GpuSpec& gpu, const std::vector<std::string>& profiles, bool maximalOnly,
                             std::size_t maxLayouts, std::size_t maxSteps)
{
    Enumerator e{gpu, {}, maximalOnly, std::max<std::size_t>(maxLayouts, 1), maxSteps, {}, {}, {}, 0, 0, false};
    for (const auto& p : gpu.migProfiles)
        if (profiles.empty() || std::find(profiles.begin(), profiles.end(), p.name) != profiles.end())
            e.profiles.push_back(&p);
    std::stable_sort(e.profiles.begin(), e.profiles.end(), [](const auto* a, const auto* b) {
        if (a->memorySlices != b->memorySlices)
            return a->memorySlices > b->memorySlices;
        return a->computeSlices > b->computeSlices;
    });
    Enumeration out;
    if (e.profiles.empty())
        return out;
    std::array<bool, kMemorySlices> used{};
    e.walk(0, used);
    out.layouts = std::move(e.result);
    if (e.stopped) {
        out.truncated = true;
        out.limitReason =
            e.steps <= maxSteps
                ? "stopped at " + withThousands(e.maxLayouts) + " layouts (the limit on MIG layouts; " + gpu.name +
                      "'s " + std::to_string(e.profiles.size()) + " profiles allow more): give fewer profiles"
                : "stopped after " + withThousands(maxSteps) + " partial layouts (the limit on one MIG search; " +
                      gpu.name + "'s " + std::to_string(e.profiles.size()) + " profiles allow more), with the first " +
                      withThousands(out.layouts.size()) + " layouts: give fewer profiles";
    }
    return out;
}

std::vector<Layout> enumerate(const GpuSpec& gpu, const std::vector<std::string>& profiles, bool maximalOnly)
{
    return enumerateBounded(gpu, profiles, maximalOnly, limits::kMaxMigLayouts, limits::kMaxMigSearchSteps).layouts;
}

} // namespace gp::mig
