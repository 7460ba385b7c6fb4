// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#pragma once

#include "edit.h"
#include "topologyedits.h"

#include "model/catalog.h"
#include "model/issue.h"
#include "model/scenario.h"

#include <QJsonValue>

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace gp::document {

/// The plan's edits as rules (docs/architecture.md §3). Each takes the scenario as it is,
/// addresses items by id, and returns the Edit that makes the change — or refuses with the
/// core's issues (the JSON path of what is wrong, and why) when the result would not be a valid
/// scenario. Nothing changes until the document pushes the edit. The workbench, `gpuplan-cli
/// edit` and the headless tests share them.

/// Adds nodes, switches, links and groups (a palette drop, a paste, a generated fabric).
Result<Edit> addItems(const Scenario& s, const Catalog& catalog, const TopologyItems& items, const std::string& text);
/// Removes nodes, switches, links, groups, jobs and tenants (with their jobs) by id, with the
/// links of removed nodes and switches and the pins of jobs on removed nodes.
Result<Edit> removeItems(const Scenario& s, const Catalog& catalog, const std::vector<std::string>& ids);
/// Puts nodes and switches at new canvas positions; edits with the same `mergeKey` in a row
/// become one undo step.
Result<Edit> moveItems(const Scenario& s, const std::map<std::string, Point>& positions,
                       const std::string& mergeKey = {});
/// Lays every node and switch out as a layered fabric (fabriclayout.h: spines on top, leaves
/// with their racks of nodes below, in pod rows), as one undo step; refused when everything
/// already sits there.
Result<Edit> arrangeFabric(const Scenario& s);
/// Links a node or switch to another at the bandwidth both ends offer (a node: all its NICs;
/// a switch: one port per NIC of the node at the other end), the switch's latency, a fresh id.
Result<Edit> addLink(const Scenario& s, const Catalog& catalog, const std::string& from, const std::string& to);
/// Pins a job to a node, a GPU of it or a MIG instance of that GPU; no pin unpins it.
Result<Edit> pinJob(const Scenario& s, const Catalog& catalog, const std::string& jobId, const std::optional<Pin>& pin);
/// Sets how every GPU of the nodes is shared, clearing their per-GPU overrides.
Result<Edit> setNodeSharing(const Scenario& s, const Catalog& catalog, const std::vector<std::string>& nodeIds,
                            const SharingConfig& sharing);
/// Sets how one GPU of a node is shared (an override; the node's own setting removes it).
Result<Edit> setGpuSharing(const Scenario& s, const Catalog& catalog, const std::string& nodeId, int gpu,
                           const SharingConfig& sharing);

/// A job as the Add Job dialog (or `gpuplan-cli edit --add-job`) asks for it; everything it
/// does not ask gets the defaults documented in docs/workbench.md.
struct JobRequest
{
    std::string tenantId; ///< an existing tenant; empty: a new one named newTenantName
    std::string newTenantName;
    std::string preset; ///< a model preset id; empty: the custom architecture
    ModelArchitecture custom;
    JobKind kind = JobKind::Pretraining;
    int tp = 1, pp = 1, dp = 1;
    double amount = 0.0; ///< billions of training tokens, or requests per second for serving
    std::string pinNode; ///< a new job's pin (a palette drop onto a node)
};
/// Adds the job (and its new tenant) with fresh ids.
Result<Edit> addJob(const Scenario& s, const Catalog& catalog, const JobRequest& request);
/// Changes an existing job's model, kind, parallelism and amount; it keeps its id, tenant, pin,
/// ZeRO stage, recomputation and per-replica batch.
Result<Edit> editJob(const Scenario& s, const Catalog& catalog, const std::string& jobId, const JobRequest& request);

/// Renames the scenario.
Result<Edit> renameScenario(const Scenario& s, const std::string& name);
/// Whatever a form changed on a copy of the scenario, as an edit by id (updates of the items
/// that differ), validated.
Result<Edit> changeScenario(const Scenario& before, const Catalog& catalog, const Scenario& after,
                            const std::string& text, const std::string& mergeKey = {});
/// Replaces the whole scenario: only for an import and a restored draft.
Result<Edit> replaceScenario(const Scenario& before, const Catalog& catalog, Scenario after, const std::string& text);

/// One field of one item set to a JSON value, addressed as in docs/cli.md#edit:
/// `nodes[node-3].sharing.mode`, `jobs[chat].parallelism.tp`, `tenants[acme].sla.max_penalty_pct`,
/// `links[l-1].bandwidth_gbps`, `switches[leaf-1].position.x`, `groups[rack-1].name`, or a field
/// of the scenario itself (`name`, `placement_policy`, `assumptions.time_slice_ms`, `pricing.preset`).
/// A null value removes an optional field (`jobs[chat].pin`).
struct FieldPatch
{
    std::string path;
    QJsonValue value;
};
/// "PATH=VALUE" with VALUE as JSON when it parses as JSON, else as a string.
Result<FieldPatch> parseFieldPatch(const std::string& text);
/// Sets the fields, reads the result with every check of the file format, and returns the
/// edit by id. Issues name the id path (`nodes[node-3].sharing.mode: …`).
Result<Edit> patchFields(const Scenario& s, const Catalog& catalog, const std::vector<FieldPatch>& patches);

} // namespace gp::document
