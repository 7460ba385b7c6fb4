// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#pragma once

// Sizing (issue 19): the fewest nodes of a template that host a scenario's tenants within their
// SLAs, the cheapest of several templates, and with growth the nodes month by month.
#include "model/catalog.h"
#include "model/issue.h"
#include "model/scenario.h"

#include <atomic>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace gp::study {

/// What the headroom is, in the words of `optimize plan --help`, `optimize size --help` and the
/// Size Cluster dialog (issue 36: one text, so they cannot drift apart).
inline constexpr const char* kHeadroomHelp =
    "Spare capacity kept free for failures and growth, % of the GPUs (default 10): a plan is acceptable only if at "
    "most 100 − P % of its GPUs are allocated to jobs.";

struct SizingRequest
{
    std::vector<std::string> templates;      ///< candidate node templates (catalog ids)
    std::map<std::string, double> growthPct; ///< tenant id -> load growth, % per month
    int months = 0;                          ///< horizon of the capacity curve (0: none)
    /// Spare capacity kept free for failures and growth, % of the GPUs: a cluster hosts the load
    /// only if at most 100 − headroomPct % of its GPUs are allocated (calc's allocation ratio).
    double headroomPct = 10.0;
    /// Set from another thread (the workbench's Cancel or a closed dialog): the sizing ends at its
    /// next check and is refused as cancelled.
    const std::atomic<bool>* stop = nullptr;
    /// Told what is being sized ("DGX H100", "month 4 of 12"), on the sizing's thread.
    std::function<void(const std::string& what)> progress = {};
};

/// One candidate template's answer (for the load of month 0).
struct SizedTemplate
{
    std::string nodeTemplate;
    std::optional<int> nodes;              ///< nullopt: no count up to the limit hosts the load
    std::optional<double> costPerMonthUsd; ///< nullopt: the scenario's pricing has no price for its GPU
    std::string why; ///< when it hosts nothing: what stays unplaced or outside its SLA; or no price
};

struct SizingMonth
{
    int month = 0;
    int jobs = 0;
    std::optional<int> nodes; ///< of the chosen template
    double costPerMonthUsd = 0.0;
    bool currentHosts = false; ///< the scenario's own cluster hosts that month's load within SLA
};

/// Nodes by template: {"dgx-h100", 3}, {"pcie-l40s-8", 2}.
using NodeMix = std::vector<std::pair<std::string, int>>;

struct SizingResult
{
    Scenario sized;           ///< the scenario on the cheapest cluster found (month 0)
    std::string nodeTemplate; ///< the chosen template; for a mix, their ids joined with "+"
    int nodes = 0;            ///< all of them
    NodeMix mix;              ///< the nodes by template (one entry when one template wins)
    double costPerMonthUsd = 0.0;
    double allocationRatio = 0.0; ///< of the sized scenario: at most 1 − headroomPct / 100
    std::vector<SizedTemplate> candidates;
    std::vector<SizingMonth> months;        ///< month 0 … months, with growth
    std::optional<int> currentRunsOutMonth; ///< the first month the scenario's own cluster does not host
};

/// The scenario's tenants and jobs on `nodes` nodes of `nodeTemplate` under a non-blocking
/// leaf-spine fabric (generateFabric with the scenario's first switch template, else the
/// catalog's first), whole GPUs (the template's default sharing), jobs unpinned.
std::optional<Scenario> onNodes(const Scenario& s, const Catalog& catalog, const std::string& nodeTemplate, int nodes);
/// The same on a mix of templates: each template's nodes in racks under leaves of their own, all
/// leaves linked to one pair of spines.
std::optional<Scenario> onNodeMix(const Scenario& s, const Catalog& catalog, const NodeMix& mix);

/// The load of month `month`: each tenant with growth g has ceil(jobs × (1 + g/100)^month) jobs,
/// copies of its own in turn (ids "<job>-m<month>-<k>").
Scenario grownLoad(const Scenario& s, const std::map<std::string, double>& growthPct, int month);
/// How many jobs grownLoad(s, growthPct, month) would have, counted without making them (as a
/// double: a steep growth passes any integer); callers refuse a load over kMaxScenarioJobs.
double grownJobCount(const Scenario& s, const std::map<std::string, double>& growthPct, int month);

/// Whether the scenario hosts every job within its tenant's SLA (evaluate: no unplaced job, no
/// SLA violation) and keeps the headroom (at most 100 − headroomPct % of its GPUs allocated),
/// whether every job is at least placed, and what does not: the first job not placed and why,
/// else the first outside its SLA and by how much, else the headroom it keeps.
struct HostCheck
{
    bool hosts = false;
    bool allPlaced = false;
    std::string why;
    int unplaced = 0;       ///< jobs not placed
    bool withinSla = false; ///< every job placed and within its SLA (more nodes may still be needed for headroom)
    double allocationRatio = 0.0;
};
HostCheck checkHosting(const Scenario& s, const Catalog& catalog, double headroomPct = 0.0);

/// Sizes the scenario (docs/model-reference.md, "Sizing"): per template the fewest nodes that host
/// the load (exponential then binary search from the GPU-count lower bound, then down while one
/// fewer still hosts it: the answer is minimal), the cheapest template's scenario (of those the
/// scenario's pricing prices; the fewest GPUs when it prices none), then the cheapest mix of two
/// priced templates that hosts the load if it costs less than any one template (for each count a
/// of the one, the fewest b of the other; then down while a node fewer still hosts it, so the mix
/// is minimal too), every count keeping the request's headroom, and with a horizon the nodes of the chosen template
/// (the mix's first for a mix) month by month and when the scenario's own cluster runs out. Refused with the reason for
/// no templates, unknown ones, a negative or absurd growth, or a load no candidate hosts; refused as "cancelled" when
/// request.stop is set before it ends.
Result<SizingResult> sizeCluster(const Scenario& s, const Catalog& catalog, const SizingRequest& request);

} // namespace gp::study
