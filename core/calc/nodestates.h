// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#pragma once

#include <functional>
#include <queue>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

namespace gp::calc {

/// A demand as far as a node's answer goes: its TP degree, bytes per unit and memory pass.
struct DemandKey
{
    int tp = 1;
    double bytes = 0.0;
    bool strict = false;
    bool operator==(const DemandKey&) const = default;
};

/// The index of free capacity by shape that best-fit and fragmentation-aware placement search:
/// nodes filed by their state — GPU model, slot layout and NVLink domains, which slots are free,
/// the memory committed on GPUs whose slots share it — so that a search scores each distinct
/// state once (a placement score depends on nothing else) and takes its first node, instead of
/// scoring every node. Each state keeps the answers it gave per demand shape; a node that changes
/// moves to the state it now has (states are kept, so one coming back finds its answers).
template <typename Answer> class NodeStates
{
public:
    using Answers = std::vector<std::pair<DemandKey, Answer>>;

    explicit NodeStates(std::size_t nodes) : mClassOf(nodes, -1) {}

    /// Files `node` under the state `key` (an opaque byte string, equal for equal states).
    void file(int node, const std::string& key)
    {
        auto [it, fresh] = mByKey.try_emplace(key, static_cast<int>(mClasses.size()));
        if (fresh)
            mClasses.emplace_back();
        const int to = it->second;
        int& from = mClassOf[static_cast<std::size_t>(node)];
        if (from == to)
            return;
        if (from >= 0 && --mClasses[static_cast<std::size_t>(from)].members == 0)
            setLive(from, false);
        Class& now = mClasses[static_cast<std::size_t>(to)];
        now.first.push(node); // entries of nodes that left are dropped when they come to the top
        if (++now.members == 1)
            setLive(to, true);
        from = to;
    }

    /// The state `node` is filed under.
    int classOf(int node) const { return mClassOf[static_cast<std::size_t>(node)]; }
    bool isLive(int c) const { return mClasses[static_cast<std::size_t>(c)].members > 0; }
    /// The states some node has now.
    const std::vector<int>& live() const { return mLive; }
    /// The first node (in scenario order) in state `c`: the one a search on a tie takes.
    int firstNode(int c)
    {
        auto& first = mClasses[static_cast<std::size_t>(c)].first;
        while (mClassOf[static_cast<std::size_t>(first.top())] != c)
            first.pop();
        return first.top();
    }
    /// The answers state `c` gave, by demand key.
    Answers& answers(int c) { return mClasses[static_cast<std::size_t>(c)].answers; }
    std::size_t states() const { return mClasses.size(); }

private:
    struct Class
    {
        int members = 0;
        std::priority_queue<int, std::vector<int>, std::greater<>> first; // its nodes, least first
        Answers answers;
        int livePos = -1;
    };
    void setLive(int c, bool live)
    {
        Class& cl = mClasses[static_cast<std::size_t>(c)];
        if (live) {
            cl.livePos = static_cast<int>(mLive.size());
            mLive.push_back(c);
            return;
        }
        const int last = mLive.back();
        mLive[static_cast<std::size_t>(cl.livePos)] = last;
        mClasses[static_cast<std::size_t>(last)].livePos = cl.livePos;
        mLive.pop_back();
        cl.livePos = -1;
    }

    std::vector<int> mClassOf;
    std::vector<Class> mClasses;
    std::unordered_map<std::string, int> mByKey;
    std::vector<int> mLive;
};

} // namespace gp::calc
