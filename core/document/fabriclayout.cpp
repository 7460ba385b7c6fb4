// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#include "fabriclayout.h"

#include <algorithm>
#include <cmath>
#include <deque>
#include <limits>
#include <unordered_map>
#include <vector>

namespace gp::document {

namespace {

constexpr double kGrid = 20.0;

double snap(double v) { return std::round(v / kGrid) * kGrid; }

/// A leaf switch (or none) with the nodes below it.
struct Rack
{
    int leaf = -1; ///< switch index, -1 for nodes without a switch
    std::vector<int> nodes;
};

struct Geometry
{
    double colPitch, rowPitch, rackGap, leafToNodes, podGap, tierGap, switchPitch;
    explicit Geometry(const LayoutMetrics& m)
        : colPitch(m.node.x + 40.0), rowPitch(m.node.y + 30.0), rackGap(80.0), leafToNodes(m.switchBox.y + 80.0),
          podGap(200.0), tierGap(200.0), switchPitch(m.switchBox.x + 40.0)
    {
    }
};

/// Racks and the switch tiers above them, from the links.
struct Layers
{
    std::vector<Rack> racks;
    std::vector<std::vector<int>> tiers; ///< switch indices; tiers[0] are spines
};

Layers layersOf(const Topology& t)
{
    std::unordered_map<std::string, int> nodeIndex, switchIndex;
    for (int i = 0; i < static_cast<int>(t.nodes.size()); ++i)
        nodeIndex.emplace(t.nodes[static_cast<std::size_t>(i)].id, i);
    for (int i = 0; i < static_cast<int>(t.switches.size()); ++i)
        switchIndex.emplace(t.switches[static_cast<std::size_t>(i)].id, i);
    const std::size_t switches = t.switches.size();
    std::vector<int> leafOfNode(t.nodes.size(), -1);
    std::vector<std::vector<int>> switchNeighbours(switches);
    for (const Link& l : t.links) {
        const auto nf = nodeIndex.find(l.from), nt = nodeIndex.find(l.to);
        const auto sf = switchIndex.find(l.from), st = switchIndex.find(l.to);
        // A node's leaf is the first switch it links to, as the evaluation reads the fabric.
        if (nf != nodeIndex.end() && st != switchIndex.end() && leafOfNode[static_cast<std::size_t>(nf->second)] < 0)
            leafOfNode[static_cast<std::size_t>(nf->second)] = st->second;
        if (nt != nodeIndex.end() && sf != switchIndex.end() && leafOfNode[static_cast<std::size_t>(nt->second)] < 0)
            leafOfNode[static_cast<std::size_t>(nt->second)] = sf->second;
        if (sf != switchIndex.end() && st != switchIndex.end() && sf->second != st->second) {
            switchNeighbours[static_cast<std::size_t>(sf->second)].push_back(st->second);
            switchNeighbours[static_cast<std::size_t>(st->second)].push_back(sf->second);
        }
    }
    // Level 0: leaves (switches with nodes, switches called leaves, switches with no links);
    // above them, the distance from the nearest leaf.
    std::vector<int> level(switches, -1);
    std::vector<std::vector<int>> nodesOf(switches);
    for (std::size_t n = 0; n < leafOfNode.size(); ++n)
        if (leafOfNode[n] >= 0)
            nodesOf[static_cast<std::size_t>(leafOfNode[n])].push_back(static_cast<int>(n));
    std::deque<int> queue;
    for (std::size_t s = 0; s < switches; ++s)
        if (!nodesOf[s].empty() || t.switches[s].tier == "leaf" || switchNeighbours[s].empty()) {
            level[s] = 0;
            queue.push_back(static_cast<int>(s));
        }
    while (!queue.empty()) {
        const int s = queue.front();
        queue.pop_front();
        for (int n : switchNeighbours[static_cast<std::size_t>(s)])
            if (level[static_cast<std::size_t>(n)] < 0) {
                level[static_cast<std::size_t>(n)] = level[static_cast<std::size_t>(s)] + 1;
                queue.push_back(n);
            }
    }
    Layers out;
    for (std::size_t s = 0; s < switches; ++s) {
        const int l = std::max(level[s], 0); // a switch island without a leaf sits with the leaves
        if (l == 0)
            out.racks.push_back({static_cast<int>(s), nodesOf[s]});
        else {
            if (out.tiers.size() < static_cast<std::size_t>(l))
                out.tiers.resize(static_cast<std::size_t>(l));
            out.tiers[static_cast<std::size_t>(l - 1)].push_back(static_cast<int>(s));
        }
    }
    // Nodes without a switch: racks as large as the typical one.
    std::vector<int> loose;
    for (std::size_t n = 0; n < leafOfNode.size(); ++n)
        if (leafOfNode[n] < 0)
            loose.push_back(static_cast<int>(n));
    std::vector<std::size_t> sizes;
    for (const Rack& r : out.racks)
        if (!r.nodes.empty())
            sizes.push_back(r.nodes.size());
    std::sort(sizes.begin(), sizes.end());
    const std::size_t perRack = sizes.empty() ? 4 : std::max<std::size_t>(sizes[sizes.size() / 2], 1);
    for (std::size_t i = 0; i < loose.size(); i += perRack)
        out.racks.push_back(
            {-1, std::vector<int>(loose.begin() + static_cast<std::ptrdiff_t>(i),
                                  loose.begin() + static_cast<std::ptrdiff_t>(std::min(i + perRack, loose.size())))});
    std::erase_if(out.tiers, [](const std::vector<int>& tier) { return tier.empty(); });
    return out;
}

/// The picture for `columns` node columns per rack and `perRow` racks per pod row.
struct Arrangement
{
    int columns = 1;
    std::size_t perRow = 1;
    double width = 0.0, height = 0.0;
};

double rackWidth(int columns, const Geometry& g, const LayoutMetrics& m)
{
    return std::max(columns * g.colPitch - 40.0, m.switchBox.x) + g.rackGap;
}

double rackHeight(const Rack& r, int columns, const Geometry& g, const LayoutMetrics& m)
{
    const auto rows = static_cast<double>((r.nodes.size() + static_cast<std::size_t>(columns) - 1) /
                                          static_cast<std::size_t>(columns));
    return rows > 0 ? g.leafToNodes + rows * g.rowPitch - 30.0 : m.switchBox.y;
}

/// Rows a tier of `count` switches takes within `width`.
std::size_t tierRows(std::size_t count, double width, const Geometry& g)
{
    const auto perRow = std::max<std::size_t>(static_cast<std::size_t>(width / g.switchPitch), 1);
    return (count + perRow - 1) / perRow;
}

Arrangement measure(const Layers& layers, int columns, std::size_t perRow, const Geometry& g, const LayoutMetrics& m)
{
    Arrangement a{columns, perRow};
    const std::size_t racks = layers.racks.size();
    a.width = static_cast<double>(std::min(perRow, racks)) * rackWidth(columns, g, m);
    for (const auto& tier : layers.tiers)
        a.width = std::max(a.width, std::min(static_cast<double>(tier.size()), 24.0) * g.switchPitch);
    for (std::size_t first = 0; first < racks; first += perRow) {
        double h = 0.0;
        for (std::size_t i = first; i < std::min(first + perRow, racks); ++i)
            h = std::max(h, rackHeight(layers.racks[i], columns, g, m));
        a.height += h + g.podGap;
    }
    for (const auto& tier : layers.tiers)
        a.height += static_cast<double>(tierRows(tier.size(), a.width, g)) * (m.switchBox.y + 40.0) + g.tierGap;
    return a;
}

} // namespace

std::map<std::string, Point> fabricLayout(const Topology& t, const LayoutMetrics& m)
{
    std::map<std::string, Point> at;
    const Layers layers = layersOf(t);
    if (layers.racks.empty() && layers.tiers.empty())
        return at;
    const Geometry g(m);
    // The arrangement nearest the aspect; pod rows of equal length only (R racks in k rows).
    const std::size_t racks = std::max<std::size_t>(layers.racks.size(), 1);
    Arrangement best;
    double bestScore = std::numeric_limits<double>::infinity();
    for (int columns = 1; columns <= 4; ++columns)
        for (std::size_t rows = 1; rows <= racks; ++rows) {
            const std::size_t perRow = (racks + rows - 1) / rows;
            if (rows > 1 && (racks + perRow - 1) / perRow != rows)
                continue; // the same as fewer rows
            const Arrangement a = measure(layers, columns, perRow, g, m);
            const double score = std::abs(std::log(a.width / std::max(a.height, 1.0) / m.aspect));
            if (score < bestScore - 1e-9) {
                bestScore = score;
                best = a;
            }
        }

    double y = 0.0;
    // The tiers from the top one down, each row centred.
    for (auto tier = layers.tiers.rbegin(); tier != layers.tiers.rend(); ++tier) {
        const auto perRow = std::max<std::size_t>(static_cast<std::size_t>(best.width / g.switchPitch), 1);
        for (std::size_t first = 0; first < tier->size(); first += perRow) {
            const std::size_t count = std::min(perRow, tier->size() - first);
            const double x0 = (best.width - static_cast<double>(count) * g.switchPitch + 40.0) / 2.0;
            for (std::size_t i = 0; i < count; ++i)
                at[t.switches[static_cast<std::size_t>((*tier)[first + i])].id] = {
                    snap(x0 + static_cast<double>(i) * g.switchPitch), snap(y)};
            y += m.switchBox.y + 40.0;
        }
        y += g.tierGap;
    }
    // Pod rows of racks: the leaf centred over its nodes' columns.
    const double rackW = rackWidth(best.columns, g, m);
    const double inner = rackW - g.rackGap;
    const std::size_t podRows = (layers.racks.size() + best.perRow - 1) / best.perRow;
    for (std::size_t row = 0; row < podRows; ++row) {
        const std::size_t first = row * best.perRow;
        const std::size_t count = std::min(best.perRow, layers.racks.size() - first);
        const double x0 = (best.width - static_cast<double>(count) * rackW + g.rackGap) / 2.0;
        double h = 0.0;
        for (std::size_t i = 0; i < count; ++i) {
            const Rack& r = layers.racks[first + i];
            const double x = x0 + static_cast<double>(i) * rackW;
            if (r.leaf >= 0)
                at[t.switches[static_cast<std::size_t>(r.leaf)].id] = {snap(x + (inner - m.switchBox.x) / 2.0),
                                                                       snap(y)};
            const int cols = std::min<int>(best.columns, static_cast<int>(std::max<std::size_t>(r.nodes.size(), 1)));
            const double nx0 = x + (inner - (cols * g.colPitch - 40.0)) / 2.0;
            for (std::size_t k = 0; k < r.nodes.size(); ++k)
                at[t.nodes[static_cast<std::size_t>(r.nodes[k])].id] = {
                    snap(nx0 + static_cast<double>(k % static_cast<std::size_t>(best.columns)) * g.colPitch),
                    snap(y + (r.leaf >= 0 ? g.leafToNodes : 0.0) +
                         static_cast<double>(k / static_cast<std::size_t>(best.columns)) * g.rowPitch)};
            h = std::max(h, rackHeight(r, best.columns, g, m));
        }
        y += h + g.podGap;
    }
    return at;
}

} // namespace gp::document
