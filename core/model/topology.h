// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#pragma once

#include "sharing.h"

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace gp {

struct Point
{
    double x = 0.0;
    double y = 0.0;
    bool operator==(const Point&) const = default;
};

/// A rack, pod or other grouping of nodes and switches; groups nest through `parent`.
/// A group of kind "nvlink_domain" is a rack-scale NVLink system (GB200 NVL72): the nodes whose
/// `group` it is are its compute trays, and all their GPUs form one scale-up domain.
struct Group
{
    std::string id;
    std::string name;
    std::string kind = "rack"; ///< "rack", "pod", "row", "zone", "nvlink_domain"
    std::string parent;        ///< "" for a top-level group
    std::string rackTemplate;  ///< nvlink_domain only: the catalog's rack template (e.g. "gb200-nvl72")
    bool isNvlinkDomain() const { return kind == kNvlinkDomainKind; }
    static constexpr const char* kNvlinkDomainKind = "nvlink_domain";
    bool operator==(const Group&) const = default;
};

/// Scale-out network interfaces of a node.
struct NicConfig
{
    int count = 0;
    double speedGbps = 0.0; ///< gigabits per second per NIC
    bool gpudirectRdma = false;
    bool operator==(const NicConfig&) const = default;
};

/// A GPU server placed on the canvas, made from a node template.
struct Node
{
    std::string id;
    std::string name;
    std::string templateId;
    std::string gpuId;
    int gpuCount = 0;
    NicConfig nics;
    std::string group;
    Point position;
    SharingConfig sharing;                   ///< applies to every GPU without an override
    std::map<int, SharingConfig> gpuSharing; ///< per-GPU overrides, by GPU index

    const SharingConfig& sharingOf(int gpuIndex) const
    {
        auto it = gpuSharing.find(gpuIndex);
        return it == gpuSharing.end() ? sharing : it->second;
    }
    bool operator==(const Node&) const = default;
};

/// A switch of the scale-out fabric.
struct Switch
{
    std::string id;
    std::string name;
    std::string templateId;
    std::string tier = "leaf"; ///< "leaf", "spine", "core"
    int ports = 0;
    double portSpeedGbps = 0.0;
    std::string group;
    Point position;
    bool operator==(const Switch&) const = default;
};

/// A cable bundle between two nodes or switches.
struct Link
{
    std::string id;
    std::string from;
    std::string to;
    double bandwidthGbps = 0.0; ///< aggregate of the bundle, gigabits per second
    double latencyUs = 0.0;
    bool operator==(const Link&) const = default;
};

struct Topology
{
    std::vector<Group> groups;
    std::vector<Node> nodes;
    std::vector<Switch> switches;
    std::vector<Link> links;
    bool operator==(const Topology&) const = default;

    /// The node or switch with this id; null when there is none (a linear search).
    const Node* findNode(const std::string& id) const
    {
        for (const Node& n : nodes)
            if (n.id == id)
                return &n;
        return nullptr;
    }
    const Switch* findSwitch(const std::string& id) const
    {
        for (const Switch& sw : switches)
            if (sw.id == id)
                return &sw;
        return nullptr;
    }
};

} // namespace gp
