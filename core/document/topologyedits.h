// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#pragma once

#include "model/catalog.h"
#include "model/ids.h"
#include "model/issue.h"
#include "model/scenario.h"

#include <string>
#include <vector>

namespace gp::document {

/// Topology items added or removed together (a drop from the palette, a generated fabric, a
/// delete): the items live in the command while they are out of the scenario (architecture.md §3).
struct TopologyItems
{
    std::vector<Node> nodes;
    std::vector<Switch> switches;
    std::vector<Link> links;
    std::vector<Group> groups;
    bool empty() const { return nodes.empty() && switches.empty() && links.empty() && groups.empty(); }
};

/// The selected nodes and switches with the links among them (for copy and duplicate).
TopologyItems copyItems(const Scenario& scenario, const std::vector<std::string>& ids);
/// The items again with fresh ids (links follow), moved by `offset`, group membership dropped.
TopologyItems renamedCopy(const TopologyItems& items, const Scenario& scenario, Point offset);

/// A node made from a template, at a position, with an id not yet in the scenario.
Node nodeFromTemplate(const NodeTemplate& t, const Scenario& scenario, Point position);
/// The same, its id taken from `ids` (several nodes made in one go).
Node nodeFromTemplate(const NodeTemplate& t, IdAllocator& ids, Point position);
/// A switch made from a template, likewise.
Switch switchFromTemplate(const SwitchTemplate& t, const Scenario& scenario, Point position, const std::string& tier);
/// A rack-scale NVLink domain made from a rack template (GB200 NVL72: 18 compute trays): a group
/// of kind nvlink_domain naming the template, and its trays from the template's tray node
/// template, laid out `columns` to a row from `position` (`trayPitch` apart), each a member of
/// the group. Fresh ids; no links (the trays' NICs are cabled to the fabric by the user).
/// An error when the catalog lacks the tray template.
Result<TopologyItems> rackFromTemplate(const RackTemplate& t, const Catalog& catalog, const Scenario& scenario,
                                       Point position, Point trayPitch, int columns = 6);

/// The fabric generator: `nodes` nodes of a template under leaf switches of `nodesPerLeaf`
/// nodes, each leaf linked to every spine so that its uplink capacity is its downlink capacity
/// divided by `oversubscription` (1 = non-blocking). Ids are fresh; positions are laid out in a
/// layered fabric (fabriclayout.h) below the existing items.
struct FabricSpec
{
    std::string nodeTemplate;
    int nodes = 16;
    std::string switchTemplate;
    int nodesPerLeaf = 4;
    int spines = 2;
    double oversubscription = 1.0;
};
Result<TopologyItems> generateFabric(const FabricSpec& spec, const Catalog& catalog, const Scenario& scenario);

} // namespace gp::document
