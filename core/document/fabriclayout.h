// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#pragma once

#include "model/topology.h"

#include <map>
#include <string>

namespace gp::document {

/// Sizes of the canvas items the layout arranges (the canvas's own; tests may use others).
struct LayoutMetrics
{
    Point node{260.0, 170.0};
    Point switchBox{200.0, 56.0};
    double aspect = 16.0 / 9.0; ///< width over height the arrangement aims for
};

/// A layered arrangement of a fabric (docs/workbench.md, "Arrange as fabric"): the switches
/// that nodes link to are leaves, each with its nodes below it as a rack (in columns); the
/// switches linked to leaves but not to nodes are the next tier (spines), those above them the
/// tier after (cores), each tier a centred row on top. Racks run left to right in pod rows,
/// wrapped so that the whole picture comes near `aspect`; unlinked switches end the leaf row,
/// nodes without a switch form racks of their own at the end. Every node and switch gets a
/// grid-snapped top-left position; the order within a tier follows the scenario's order.
std::map<std::string, Point> fabricLayout(const Topology& topology, const LayoutMetrics& metrics = {});

} // namespace gp::document
