// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
// The rules of rack-scale NVLink domains (topology groups of kind "nvlink_domain",
// docs/scenario-format.md#rack-scale-nvlink-domains): a domain names a rack template of the
// catalog and holds exactly its trays, all of the tray's template, GPU and GPU count; a tray is
// in one domain only (domains do not nest).
#include "validation.h"

#include "checks.h"

#include <map>

namespace gp {

using checks::field;
using checks::idx;

void validateRackDomains(const Topology& topo, const Catalog& catalog, Issues& out)
{
    const std::string base = "topology";
    std::map<std::string, std::size_t> groupAt;
    for (std::size_t i = 0; i < topo.groups.size(); ++i)
        groupAt.try_emplace(topo.groups[i].id, i);
    std::map<std::string, int> trays; // nvlink_domain id -> nodes in it
    for (const Node& n : topo.nodes)
        ++trays[n.group];
    for (std::size_t i = 0; i < topo.groups.size(); ++i) {
        const Group& g = topo.groups[i];
        const std::string p = idx(base + ".groups", i);
        if (!g.isNvlinkDomain()) {
            if (!g.rackTemplate.empty())
                out.push_back(Issue::error(field(p, "template"), "'" + g.rackTemplate +
                                                                     "' is given to a group of kind '" + g.kind +
                                                                     "'; only an nvlink_domain names a rack template"));
            continue;
        }
        // A domain inside another domain would put its trays in two NVLink domains.
        for (std::string up = g.parent; !up.empty();) {
            auto at = groupAt.find(up);
            if (at == groupAt.end() || at->second == i)
                break; // an unknown parent or a cycle: validateTopology reports it
            const Group& h = topo.groups[at->second];
            if (h.isNvlinkDomain()) {
                out.push_back(Issue::error(field(p, "parent"),
                                           "'" + g.parent + "' is inside the nvlink_domain '" + h.id +
                                               "': a tray belongs to one NVLink domain, so domains do not nest"));
                break;
            }
            up = h.parent;
        }
        if (g.rackTemplate.empty()) {
            out.push_back(Issue::error(field(p, "template"),
                                       "an nvlink_domain names its rack template of the catalog (e.g. gb200-nvl72)"));
            continue;
        }
        const RackTemplate* rack = catalog.rackTemplate(g.rackTemplate);
        if (!rack) {
            out.push_back(
                Issue::error(field(p, "template"), "'" + g.rackTemplate + "' is not a rack template in the catalog"));
            continue;
        }
        const int count = trays.count(g.id) ? trays.at(g.id) : 0;
        if (count != rack->trays)
            out.push_back(Issue::error(p, "holds " + std::to_string(count) + " trays; a " + rack->name + " has " +
                                              std::to_string(rack->trays) + " (nodes whose group is '" + g.id + "')"));
        const NodeTemplate* tray = catalog.nodeTemplate(rack->trayTemplate);
        if (!tray)
            continue;
        for (std::size_t j = 0; j < topo.nodes.size(); ++j) {
            const Node& n = topo.nodes[j];
            if (n.group != g.id)
                continue;
            const std::string q = idx(base + ".nodes", j);
            if (n.templateId != tray->id)
                out.push_back(Issue::error(field(q, "template"), "'" + n.templateId + "' is not the tray of " +
                                                                     rack->name + " '" + g.id + "' (" + tray->id +
                                                                     ")"));
            if (n.gpuId != tray->gpuId)
                out.push_back(Issue::error(field(q, "gpu"), "'" + n.gpuId + "' in " + rack->name + " '" + g.id +
                                                                "', whose trays hold " + tray->gpuId +
                                                                ": one NVLink domain has one GPU model"));
            if (n.gpuCount != tray->gpuCount)
                out.push_back(Issue::error(field(q, "gpu_count"), std::to_string(n.gpuCount) + " GPUs in a tray of " +
                                                                      rack->name + " '" + g.id + "', which holds " +
                                                                      std::to_string(tray->gpuCount)));
        }
    }
    // A tray of a rack template outside any domain reaches only its own GPUs over NVLink.
    for (std::size_t j = 0; j < topo.nodes.size(); ++j) {
        const Node& n = topo.nodes[j];
        auto at = groupAt.find(n.group);
        if (at != groupAt.end() && topo.groups[at->second].isNvlinkDomain())
            continue;
        for (const RackTemplate& rack : catalog.rackTemplates)
            if (rack.trayTemplate == n.templateId) {
                out.push_back(Issue::warning(idx(base + ".nodes", j) + ".group",
                                             "'" + n.group + "' is not an nvlink_domain: this " + rack.name +
                                                 " tray reaches only its own GPUs over NVLink"));
                break;
            }
    }
}

} // namespace gp
