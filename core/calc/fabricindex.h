// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#pragma once

#include "model/topology.h"

#include <vector>

namespace gp::calc {

/// The scale-out fabric as evaluation needs it, by index: each node's leaf switch (the first
/// switch it links to), the nodes under each leaf, the links from a node to its leaf and from
/// a leaf to other switches, and each leaf's oversubscription (uplink over downlink capacity,
/// at most 1).
struct FabricIndex
{
    std::vector<int> leafOfNode; ///< index into leaves, -1 for a node with no switch
    std::vector<std::vector<int>> nodesOfLeaf;
    std::vector<double> leafOversubscription;
    std::vector<std::vector<int>> nodeUplinks; ///< link indices, per node
    std::vector<std::vector<int>> leafUplinks; ///< link indices, per leaf

    static FabricIndex build(const Topology& topology);
};

} // namespace gp::calc
