// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#pragma once

#include "model/topology.h"

#include <string>
#include <vector>

namespace gp::calc {

/// The scale-out fabric as evaluation needs it, by index: each node's leaf switch (the first
/// switch it links to), the nodes under each leaf, the links from a node to its leaf and from
/// a leaf to other switches, and each leaf's oversubscription (uplink over downlink capacity,
/// at most 1). Beside the scale-out fabric, the rack-scale NVLink domains: the nodes (trays) of
/// each topology group of kind "nvlink_domain", whose GPUs all reach each other over NVLink.
struct FabricIndex
{
    std::vector<int> leafOfNode; ///< index into leaves, -1 for a node with no switch
    std::vector<std::vector<int>> nodesOfLeaf;
    std::vector<double> leafOversubscription;
    std::vector<std::vector<int>> nodeUplinks; ///< link indices, per node
    std::vector<std::vector<int>> leafUplinks; ///< link indices, per leaf
    std::vector<int> rackOfNode;               ///< index into nodesOfRack, -1 outside any nvlink_domain
    std::vector<std::vector<int>> nodesOfRack; ///< the trays of each nvlink_domain, in topology order
    std::vector<int> rackGpus;                 ///< GPUs of each nvlink_domain (its trays' GPUs summed)
    std::vector<std::string> rackGroup;        ///< the group id of each nvlink_domain

    /// Whether nodes `a` and `b` are trays of one rack-scale NVLink domain.
    bool sameRack(int a, int b) const
    {
        const auto n = rackOfNode.size();
        if (a < 0 || b < 0 || static_cast<std::size_t>(a) >= n || static_cast<std::size_t>(b) >= n)
            return false;
        const int ra = rackOfNode[static_cast<std::size_t>(a)];
        return ra >= 0 && ra == rackOfNode[static_cast<std::size_t>(b)];
    }

    static FabricIndex build(const Topology& topology);
};

} // namespace gp::calc
