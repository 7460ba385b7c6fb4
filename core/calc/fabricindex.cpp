// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#include "fabricindex.h"

#include <algorithm>
#include <unordered_map>

namespace gp::calc {

FabricIndex FabricIndex::build(const Topology& t)
{
    FabricIndex f;
    std::unordered_map<std::string, int> nodeIndex, switchIndex;
    for (std::size_t n = 0; n < t.nodes.size(); ++n)
        nodeIndex[t.nodes[n].id] = static_cast<int>(n);
    for (std::size_t s = 0; s < t.switches.size(); ++s)
        switchIndex[t.switches[s].id] = static_cast<int>(s);
    std::vector<int> leafOfSwitch(t.switches.size(), -1);
    f.leafOfNode.assign(t.nodes.size(), -1);
    f.nodeUplinks.assign(t.nodes.size(), {});
    std::vector<double> down, up;
    auto leafFor = [&](int sw) {
        int& l = leafOfSwitch[static_cast<std::size_t>(sw)];
        if (l < 0) {
            l = static_cast<int>(f.nodesOfLeaf.size());
            f.nodesOfLeaf.emplace_back();
            f.leafUplinks.emplace_back();
            down.push_back(0.0);
            up.push_back(0.0);
        }
        return l;
    };
    // Node-to-switch links make leaves; the first switch a node reaches is its leaf.
    for (std::size_t i = 0; i < t.links.size(); ++i) {
        const Link& l = t.links[i];
        auto a = nodeIndex.find(l.from), b = nodeIndex.find(l.to);
        auto sa = switchIndex.find(l.from), sb = switchIndex.find(l.to);
        int node = -1, sw = -1;
        if (a != nodeIndex.end() && sb != switchIndex.end())
            node = a->second, sw = sb->second;
        else if (b != nodeIndex.end() && sa != switchIndex.end())
            node = b->second, sw = sa->second;
        if (node < 0)
            continue;
        const int leaf = leafFor(sw);
        down[static_cast<std::size_t>(leaf)] += l.bandwidthGbps;
        int& mine = f.leafOfNode[static_cast<std::size_t>(node)];
        if (mine < 0) {
            mine = leaf;
            f.nodesOfLeaf[static_cast<std::size_t>(leaf)].push_back(node);
        }
        if (mine == leaf)
            f.nodeUplinks[static_cast<std::size_t>(node)].push_back(static_cast<int>(i));
    }
    // Switch-to-switch links leaving a leaf are its uplinks.
    for (std::size_t i = 0; i < t.links.size(); ++i) {
        const Link& l = t.links[i];
        auto sa = switchIndex.find(l.from), sb = switchIndex.find(l.to);
        if (sa == switchIndex.end() || sb == switchIndex.end())
            continue;
        for (int sw : {sa->second, sb->second}) {
            const int leaf = leafOfSwitch[static_cast<std::size_t>(sw)];
            if (leaf >= 0) {
                up[static_cast<std::size_t>(leaf)] += l.bandwidthGbps;
                f.leafUplinks[static_cast<std::size_t>(leaf)].push_back(static_cast<int>(i));
            }
        }
    }
    for (std::size_t l = 0; l < down.size(); ++l)
        // A leaf without uplinks (a single-switch cluster) has nothing to oversubscribe.
        f.leafOversubscription.push_back(down[l] > 0 && up[l] > 0 ? std::min(1.0, up[l] / down[l]) : 1.0);
    // Rack-scale NVLink domains: the nodes whose group is an nvlink_domain (validation checks
    // the trays against the rack template; here a domain is simply its members).
    std::unordered_map<std::string, int> rackIndex;
    for (const Group& g : t.groups)
        if (g.isNvlinkDomain() && rackIndex.try_emplace(g.id, static_cast<int>(f.rackGroup.size())).second)
            f.rackGroup.push_back(g.id);
    f.nodesOfRack.assign(f.rackGroup.size(), {});
    f.rackGpus.assign(f.rackGroup.size(), 0);
    f.rackOfNode.assign(t.nodes.size(), -1);
    for (std::size_t n = 0; n < t.nodes.size(); ++n)
        if (auto r = rackIndex.find(t.nodes[n].group); r != rackIndex.end()) {
            f.rackOfNode[n] = r->second;
            f.nodesOfRack[static_cast<std::size_t>(r->second)].push_back(static_cast<int>(n));
            f.rackGpus[static_cast<std::size_t>(r->second)] += std::max(t.nodes[n].gpuCount, 0);
        }
    return f;
}

} // namespace gp::calc
