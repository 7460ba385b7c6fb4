// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
// What the training search (jobsearch.cpp) and the serving search (jobsearchserving.cpp) share;
// internal to core/calc.
#pragma once

#include "jobsearch.h"

#include <algorithm>
#include <chrono>
#include <vector>

namespace gp::calc::detail::jobsearch {

/// Cancelled, or past the caller's deadline.
inline bool stopRequested(const JobSearchOptions& o)
{
    return (o.stop && o.stop->load()) || (o.deadline && std::chrono::steady_clock::now() >= *o.deadline);
}

inline std::vector<int> divisorsOf(int n)
{
    std::vector<int> out;
    for (int d = 1; d <= n; ++d)
        if (n % d == 0)
            out.push_back(d);
    return out;
}

/// The tensor-parallel degrees evaluate accepts for this model: dividing the heads, and the KV
/// heads (or a multiple of them past their count, which replicates them).
inline bool tpFits(const ModelArchitecture& a, int tp)
{
    if (a.attentionHeads > 0 && a.attentionHeads % tp != 0)
        return false;
    if (a.kvHeads > 0)
        return tp <= a.kvHeads ? a.kvHeads % tp == 0 : tp % a.kvHeads == 0;
    return true;
}

/// One cell of the space: a GPU count and its TP and PP degrees; the rest is enumerated inside.
struct Cell
{
    int gpus;
    int tp;
    int pp;
    int cp = 1; ///< context-parallel ranks (issue 37): above 1 only for long sequences
};

/// Keeps the configurations no other beats on both `x` and `y` (less is better for both; of equal
/// ones, the one ranked `before` the other).
template <typename C, typename X, typename Y, typename Before>
void addToFront(std::vector<C>& front, const C& c, X x, Y y, Before before)
{
    auto beats = [&](const C& a, const C& b) {
        return x(a) <= x(b) && y(a) <= y(b) && (x(a) < x(b) || y(a) < y(b) || before(a, b));
    };
    if (std::any_of(front.begin(), front.end(), [&](const C& f) { return beats(f, c); }))
        return;
    std::erase_if(front, [&](const C& f) { return beats(c, f); });
    front.push_back(c);
}

} // namespace gp::calc::detail::jobsearch
