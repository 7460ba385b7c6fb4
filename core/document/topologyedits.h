// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#pragma once

#include "model/catalog.h"
#include "model/scenario.h"

#include <QUndoCommand>

#include <string>
#include <vector>

namespace gp::document {

class Document;

/// Topology items added or removed together (a drop from the palette, a generated fabric, a
/// delete): the items live in the command while they are out of the scenario (DESIGN.md §5.2).
struct TopologyItems
{
    std::vector<Node> nodes;
    std::vector<Switch> switches;
    std::vector<Link> links;
    std::vector<Group> groups;
    bool empty() const { return nodes.empty() && switches.empty() && links.empty() && groups.empty(); }
};

/// Adds items (redo) and takes them out again (undo).
class AddItemsCmd : public QUndoCommand
{
public:
    AddItemsCmd(Document* document, TopologyItems items, const QString& text);
    void redo() override;
    void undo() override;

private:
    Document* mDocument;
    TopologyItems mItems;
};

/// Removes nodes and switches with their links, and the pins of jobs on removed nodes.
class RemoveItemsCmd : public QUndoCommand
{
public:
    RemoveItemsCmd(Document* document, const QStringList& ids);
    void redo() override;
    void undo() override;

private:
    Document* mDocument;
    QStringList mIds;
    Scenario mBefore; ///< the scenario before the removal (restored by undo)
};

/// The selected nodes and switches with the links among them (for copy and duplicate).
TopologyItems copyItems(const Scenario& scenario, const std::vector<std::string>& ids);
/// The items again with fresh ids (links follow), moved by `offset`, group membership dropped.
TopologyItems renamedCopy(const TopologyItems& items, const Scenario& scenario, Point offset);

/// A node made from a template, at a position, with an id not yet in the scenario.
Node nodeFromTemplate(const NodeTemplate& t, const Scenario& scenario, Point position);
/// A switch made from a template, likewise.
Switch switchFromTemplate(const SwitchTemplate& t, const Scenario& scenario, Point position, const std::string& tier);

/// The fabric generator: `nodes` nodes of a template under leaf switches of `nodesPerLeaf`
/// nodes, each leaf linked to every spine so that its uplink capacity is its downlink capacity
/// divided by `oversubscription` (1 = non-blocking). Ids are fresh; positions are laid out in a
/// grid below the existing items.
struct FabricSpec
{
    std::string nodeTemplate;
    int nodes = 16;
    std::string switchTemplate;
    int nodesPerLeaf = 4;
    int spines = 2;
    double oversubscription = 1.0;
};
TopologyItems generateFabric(const FabricSpec& spec, const Catalog& catalog, const Scenario& scenario,
                             std::string& error);

} // namespace gp::document
