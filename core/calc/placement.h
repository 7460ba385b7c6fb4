#pragma once

#include "fabricindex.h"
#include "slots.h"

#include "model/catalog.h"
#include "model/scenario.h"

#include <optional>
#include <string>
#include <vector>

namespace gp::calc {

/// What one job asks the cluster for: pp x dp groups of tp units, each unit needing
/// `bytesPerUnit` of GPU memory; a TP group (tp > 1) needs GPUs with NVLink peer access in
/// one NVLink domain of one node.
struct JobDemand
{
    int tenant = 0;
    int job = 0;
    int tp = 1;
    int groups = 1;
    double bytesPerUnit = 0.0;
    std::optional<Pin> pin;
};

/// The workload mix as the fragmentation measure of Weng et al. (USENIX ATC '23) sees it:
/// every demand's unit shape weighted by its number of units. unusableWeight() is the share
/// of the mix a free slot cannot serve (too small, or without peer access for TP groups).
class WorkloadMix
{
public:
    WorkloadMix() = default;
    explicit WorkloadMix(const std::vector<JobDemand>& demands);
    double unusableWeight(const Slot& slot) const;

private:
    std::vector<double> mBytes = {};              // unit sizes, ascending
    std::vector<double> mWeightAbove = {0.0};     // [i]: share of units from the i-th size up
    std::vector<double> mTpBytes = {};            // TP>1 unit sizes, ascending
    std::vector<double> mTpWeightAtMost = {0.0};  // [i]: share of the i smallest TP>1 units
};

struct JobPlacement
{
    bool placed = false;
    std::string reason;     ///< why not, when not placed
    std::vector<int> slots; ///< indices into the slot list, group by group
};

struct PlacementOutcome
{
    std::vector<JobPlacement> jobs; ///< one per demand, same order
    std::vector<int> owner;         ///< per slot: the demand index using it, or -1
};

/// The NVLink domain size of a node: its template's scale-up domain, else the whole node
/// for NVLink/NVSwitch GPUs and 1 for PCIe-only GPUs.
int nvlinkDomainGpus(const Node& node, const Catalog& catalog);

/// Places the demands in the order given (callers sort by pin, priority, size) with one of
/// the policies of docs/model-reference.md#placement. A demand that cannot be placed
/// whole takes nothing and says why.
PlacementOutcome placeJobs(const Scenario& scenario, const Catalog& catalog, const FabricIndex& fabric,
                           const std::vector<Slot>& slots, const std::vector<JobDemand>& demands,
                           PlacementPolicy policy);

} // namespace gp::calc
