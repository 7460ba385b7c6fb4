// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#include "topologyedits.h"
#include "fabriclayout.h"

#include "model/ids.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <set>

namespace gp::document {

namespace {

double bottomOf(const Scenario& s)
{
    double y = 0.0;
    for (const auto& n : s.topology.nodes)
        y = std::max(y, n.position.y + 200.0);
    for (const auto& sw : s.topology.switches)
        y = std::max(y, sw.position.y + 100.0);
    return y;
}

} // namespace

TopologyItems copyItems(const Scenario& s, const std::vector<std::string>& ids)
{
    const std::set<std::string> wanted(ids.begin(), ids.end());
    TopologyItems out;
    for (const Node& n : s.topology.nodes)
        if (wanted.count(n.id))
            out.nodes.push_back(n);
    for (const Switch& sw : s.topology.switches)
        if (wanted.count(sw.id))
            out.switches.push_back(sw);
    for (const Link& l : s.topology.links)
        if (wanted.count(l.from) && wanted.count(l.to))
            out.links.push_back(l);
    return out;
}

TopologyItems renamedCopy(const TopologyItems& items, const Scenario& s, Point offset)
{
    IdAllocator ids(s);
    std::map<std::string, std::string> renamed;
    TopologyItems out = items;
    out.groups.clear();
    auto rename = [&](auto& item) {
        const std::string base = item.templateId.empty() ? std::string("item") : item.templateId;
        const std::string fresh = ids.numbered(base);
        renamed[item.id] = fresh;
        if (item.name == item.id)
            item.name = fresh;
        item.id = fresh;
        item.group.clear();
        item.position = {item.position.x + offset.x, item.position.y + offset.y};
    };
    for (Node& n : out.nodes)
        rename(n);
    for (Switch& sw : out.switches)
        rename(sw);
    for (Link& l : out.links) {
        l.id = ids.numbered("link");
        l.from = renamed[l.from];
        l.to = renamed[l.to];
    }
    return out;
}

Node nodeFromTemplate(const NodeTemplate& t, const Scenario& scenario, Point position)
{
    IdAllocator ids(scenario);
    return nodeFromTemplate(t, ids, position);
}

Node nodeFromTemplate(const NodeTemplate& t, IdAllocator& ids, Point position)
{
    Node n;
    n.id = ids.numbered(t.id);
    n.name = n.id;
    n.templateId = t.id;
    n.gpuId = t.gpuId;
    n.gpuCount = t.gpuCount;
    n.nics = {t.nicCount, t.nicSpeedGbps, t.gpudirectRdma};
    n.position = position;
    return n;
}

Switch switchFromTemplate(const SwitchTemplate& t, const Scenario& scenario, Point position, const std::string& tier)
{
    Switch sw;
    sw.id = IdAllocator(scenario).numbered(tier + "-" + t.id);
    sw.name = sw.id;
    sw.templateId = t.id;
    sw.tier = tier;
    sw.ports = t.ports;
    sw.portSpeedGbps = t.portSpeedGbps;
    sw.position = position;
    return sw;
}

Result<TopologyItems> rackFromTemplate(const RackTemplate& t, const Catalog& catalog, const Scenario& scenario,
                                       Point position, Point trayPitch, int columns)
{
    const NodeTemplate* tray = catalog.nodeTemplate(t.trayTemplate);
    if (!tray)
        return Result<TopologyItems>::failure("rack_templates." + t.id + ".tray_template",
                                              "the catalog has no node template '" + t.trayTemplate + "'");
    TopologyItems out;
    IdAllocator ids(scenario);
    Group g;
    g.id = ids.numbered(t.id);
    g.kind = Group::kNvlinkDomainKind;
    g.rackTemplate = t.id;
    g.name = t.name + " " + g.id.substr(t.id.size() + 1);
    columns = std::max(columns, 1);
    for (int i = 0; i < t.trays; ++i) { // one allocator: no tray takes the group's id or another tray's
        const Point at{position.x + (i % columns) * trayPitch.x, position.y + (i / columns) * trayPitch.y};
        Node n = nodeFromTemplate(*tray, ids, at);
        n.group = g.id;
        out.nodes.push_back(std::move(n));
    }
    out.groups.push_back(std::move(g));
    return Result<TopologyItems>::success(std::move(out));
}

Result<TopologyItems> generateFabric(const FabricSpec& spec, const Catalog& catalog, const Scenario& scenario)
{
    using R = Result<TopologyItems>;
    TopologyItems out;
    const NodeTemplate* nt = catalog.nodeTemplate(spec.nodeTemplate);
    const SwitchTemplate* st = catalog.switchTemplate(spec.switchTemplate);
    if (!nt)
        return R::failure("fabric.node_template", "unknown node template '" + spec.nodeTemplate + "'");
    if (!st)
        return R::failure("fabric.switch_template", "unknown switch template '" + spec.switchTemplate + "'");
    if (spec.nodes < 1 || spec.nodes > 10000 || spec.nodesPerLeaf < 1 || spec.spines < 1 || spec.spines > 512 ||
        !(spec.oversubscription >= 1.0) || spec.oversubscription > 64)
        return R::failure("fabric",
                          "nodes 1-10000, nodes per leaf >= 1, spines 1-512 and oversubscription 1-64 are required");
    const double nodeGbps = nt->nicCount * nt->nicSpeedGbps;
    const int leaves = (spec.nodes + spec.nodesPerLeaf - 1) / spec.nodesPerLeaf;
    const double uplinkGbps = nodeGbps * spec.nodesPerLeaf / spec.oversubscription / spec.spines;
    // A leaf needs a port per NIC below it and enough ports for its uplink capacity.
    const int down = spec.nodesPerLeaf * std::max(nt->nicCount, 1);
    const int up = static_cast<int>(std::ceil(uplinkGbps * spec.spines / st->portSpeedGbps - 1e-9));
    if (down + up > st->ports)
        return R::failure("fabric.nodes_per_leaf", "a leaf of " + std::to_string(spec.nodesPerLeaf) + " nodes needs " +
                                                       std::to_string(down + up) + " ports (" + std::to_string(down) +
                                                       " down, " + std::to_string(up) + " up); " + st->name + " has " +
                                                       std::to_string(st->ports));
    IdAllocator ids(scenario);
    const double y0 = bottomOf(scenario) + 100.0;
    std::vector<std::string> spineIds;
    for (int s = 0; s < spec.spines; ++s) {
        Switch sw{ids.numbered("spine"), "", st->id, "spine", st->ports, st->portSpeedGbps, "", {s * 260.0, y0}};
        sw.name = sw.id;
        spineIds.push_back(sw.id);
        out.switches.push_back(sw);
    }
    int made = 0;
    for (int l = 0; l < leaves; ++l) {
        Group rack{ids.numbered("rack"), "", "rack", "", ""};
        rack.name = rack.id;
        out.groups.push_back(rack);
        Switch leaf{ids.numbered("leaf"),
                    "",
                    st->id,
                    "leaf",
                    st->ports,
                    st->portSpeedGbps,
                    rack.id,
                    {l * spec.nodesPerLeaf * 300.0, y0 + 260.0}};
        leaf.name = leaf.id;
        out.switches.push_back(leaf);
        for (const auto& spine : spineIds)
            out.links.push_back({ids.numbered("link"), leaf.id, spine, uplinkGbps, st->latencyUs});
        for (int k = 0; k < spec.nodesPerLeaf && made < spec.nodes; ++k, ++made) {
            Node n;
            n.id = ids.numbered(nt->id);
            n.name = n.id;
            n.templateId = nt->id;
            n.gpuId = nt->gpuId;
            n.gpuCount = nt->gpuCount;
            n.nics = {nt->nicCount, nt->nicSpeedGbps, nt->gpudirectRdma};
            n.group = rack.id;
            n.position = {(l * spec.nodesPerLeaf + k) * 300.0, y0 + 520.0};
            out.links.push_back({ids.numbered("link"), n.id, leaf.id, nodeGbps, st->latencyUs});
            out.nodes.push_back(n);
        }
    }
    // Laid out as layers below what is there already.
    Topology fabric;
    fabric.nodes = out.nodes;
    fabric.switches = out.switches;
    fabric.links = out.links;
    const std::map<std::string, Point> at = fabricLayout(fabric);
    for (Node& n : out.nodes)
        n.position = {at.at(n.id).x, at.at(n.id).y + y0};
    for (Switch& sw : out.switches)
        sw.position = {at.at(sw.id).x, at.at(sw.id).y + y0};
    return R::success(std::move(out));
}

} // namespace gp::document
