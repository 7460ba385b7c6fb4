#include "placement.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>

namespace gp::calc {

int nvlinkDomainGpus(const Node& node, const Catalog& catalog)
{
    if (const NodeTemplate* t = catalog.nodeTemplate(node.templateId))
        if (t->gpuId == node.gpuId)
            return std::max(1, std::min(t->scaleUpDomainGpus, node.gpuCount));
    const GpuSpec* g = catalog.gpu(node.gpuId);
    const bool nvlink = g && g->scaleUpKind.rfind("nvlink", 0) == 0 && g->scaleUpKind != "nvlink-bridge";
    return nvlink || (g && g->scaleUpKind == "infinity-fabric") ? std::max(node.gpuCount, 1) : 1;
}

namespace {

std::string gib(double bytes)
{
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.1f GiB", bytes / (1024.0 * 1024 * 1024));
    return buf;
}

class Placer
{
public:
    Placer(const Scenario& s, const Catalog& c, const std::vector<Slot>& slots, const std::vector<JobDemand>& demands,
           PlacementPolicy policy)
        : mScenario(s), mSlots(slots), mPolicy(policy), mOwner(slots.size(), -1)
    {
        const auto& nodes = s.topology.nodes;
        mNodeSlots.resize(nodes.size());
        mFree.assign(nodes.size(), 0);
        mFreeShare.assign(nodes.size(), 0.0);
        mDomain.resize(nodes.size());
        for (std::size_t n = 0; n < nodes.size(); ++n)
            mDomain[n] = nvlinkDomainGpus(nodes[n], c);
        for (int i = 0; i < static_cast<int>(slots.size()); ++i) {
            mNodeSlots[static_cast<std::size_t>(slots[static_cast<std::size_t>(i)].node)].push_back(i);
            ++mFree[static_cast<std::size_t>(slots[static_cast<std::size_t>(i)].node)];
            mFreeShare[static_cast<std::size_t>(slots[static_cast<std::size_t>(i)].node)] +=
                slots[static_cast<std::size_t>(i)].gpuFraction;
        }
        // The leaf switch of each node: the first switch it links to.
        mLeaf.assign(nodes.size(), "");
        std::map<std::string, int> nodeIndex;
        for (std::size_t n = 0; n < nodes.size(); ++n)
            nodeIndex[nodes[n].id] = static_cast<int>(n);
        for (const Link& l : s.topology.links) {
            auto a = nodeIndex.find(l.from), b = nodeIndex.find(l.to);
            if (a != nodeIndex.end() && b == nodeIndex.end() && mLeaf[static_cast<std::size_t>(a->second)].empty())
                mLeaf[static_cast<std::size_t>(a->second)] = l.to;
            if (b != nodeIndex.end() && a == nodeIndex.end() && mLeaf[static_cast<std::size_t>(b->second)].empty())
                mLeaf[static_cast<std::size_t>(b->second)] = l.from;
        }
        // The workload mix for the fragmentation measure (Weng et al. 2023): each demand's
        // unit shape, weighted by how many units it asks for.
        double total = 0;
        for (const auto& d : demands)
            total += d.tp * d.groups;
        for (const auto& d : demands)
            mTypes.push_back({d.bytesPerUnit, d.tp, total > 0 ? d.tp * d.groups / total : 0.0});
    }

    JobPlacement place(const JobDemand& d, int demandIndex)
    {
        JobPlacement out;
        std::vector<int> used; // nodes this job already uses
        for (int g = 0; g < d.groups; ++g) {
            const int node = chooseNode(d, used);
            if (node < 0) {
                out.reason = reasonFor(d, g);
                for (int s : out.slots)
                    release(s);
                out.slots.clear();
                return out;
            }
            for (int s : groupOn(d, node))
                take(s, demandIndex), out.slots.push_back(s);
            if (std::find(used.begin(), used.end(), node) == used.end())
                used.push_back(node);
        }
        out.placed = true;
        return out;
    }

    const std::vector<int>& owner() const { return mOwner; }

private:
    struct Type
    {
        double bytes;
        int tp;
        double weight;
    };

    const Slot& slot(int i) const { return mSlots[static_cast<std::size_t>(i)]; }
    void take(int s, int owner)
    {
        mOwner[static_cast<std::size_t>(s)] = owner;
        --mFree[static_cast<std::size_t>(slot(s).node)];
        mFreeShare[static_cast<std::size_t>(slot(s).node)] -= slot(s).gpuFraction;
    }
    void release(int s)
    {
        mOwner[static_cast<std::size_t>(s)] = -1;
        ++mFree[static_cast<std::size_t>(slot(s).node)];
        mFreeShare[static_cast<std::size_t>(slot(s).node)] += slot(s).gpuFraction;
    }

    bool fits(const Slot& s, double bytes) const { return s.capacityBytes >= bytes; }

    bool pinAllows(const JobDemand& d, const Slot& s) const
    {
        if (!d.pin)
            return true;
        if (mScenario.topology.nodes[static_cast<std::size_t>(s.node)].id != d.pin->node)
            return false;
        if (d.pin->gpu && *d.pin->gpu != s.gpu)
            return false;
        return !d.pin->migInstance || (s.mode == SharingMode::Mig && *d.pin->migInstance == s.index);
    }

    /// The slots of one group of `d` on `node`, or empty if it does not fit there.
    std::vector<int> groupOn(const JobDemand& d, int node) const
    {
        const auto& list = mNodeSlots[static_cast<std::size_t>(node)];
        if (d.tp <= 1) {
            int best = -1;
            for (int s : list) {
                const Slot& sl = slot(s);
                if (mOwner[static_cast<std::size_t>(s)] >= 0 || !fits(sl, d.bytesPerUnit) || !pinAllows(d, sl))
                    continue;
                if (best < 0 || (mPolicy != PlacementPolicy::FirstFit && sl.capacityBytes < slot(best).capacityBytes))
                    best = s;
                if (mPolicy == PlacementPolicy::FirstFit)
                    break;
            }
            return best < 0 ? std::vector<int>{} : std::vector<int>{best};
        }
        // TP group: tp distinct GPUs with peer access, one NVLink domain.
        const int domain = mDomain[static_cast<std::size_t>(node)];
        std::vector<int> chosen;
        int currentDomain = -1;
        int lastGpu = -1;
        for (int s : list) {
            const Slot& sl = slot(s);
            const int dom = sl.gpu / domain;
            if (dom != currentDomain) {
                if (static_cast<int>(chosen.size()) >= d.tp)
                    break;
                chosen.clear();
                currentDomain = dom;
                lastGpu = -1;
            }
            if (sl.gpu == lastGpu || mOwner[static_cast<std::size_t>(s)] >= 0 || !sl.peerToPeer ||
                !fits(sl, d.bytesPerUnit) || !pinAllows(d, sl))
                continue;
            chosen.push_back(s);
            lastGpu = sl.gpu;
        }
        if (static_cast<int>(chosen.size()) < d.tp)
            return {};
        chosen.resize(static_cast<std::size_t>(d.tp));
        return chosen;
    }

    /// Free GPU share on `node` that a unit of `t` cannot use: the node's fragmentation
    /// for that task type (Weng et al. 2023, §3), summed over the mix by weight.
    double fragmentation(int node, const std::vector<int>& extraTaken) const
    {
        const auto& list = mNodeSlots[static_cast<std::size_t>(node)];
        double f = 0.0;
        for (const Type& t : mTypes) {
            if (t.weight <= 0)
                continue;
            double unusable = 0.0;
            for (int s : list) {
                const bool free = mOwner[static_cast<std::size_t>(s)] < 0 &&
                                  std::find(extraTaken.begin(), extraTaken.end(), s) == extraTaken.end();
                if (free && (!fits(slot(s), t.bytes) || (t.tp > 1 && !slot(s).peerToPeer)))
                    unusable += slot(s).gpuFraction;
            }
            f += t.weight * unusable;
        }
        return f;
    }

    int chooseNode(const JobDemand& d, const std::vector<int>& used) const
    {
        const int nodes = static_cast<int>(mNodeSlots.size());
        int best = -1;
        double bestScore = std::numeric_limits<double>::infinity();
        for (int n = 0; n < nodes; ++n) {
            if (mFree[static_cast<std::size_t>(n)] < d.tp)
                continue;
            const std::vector<int> group = groupOn(d, n);
            if (group.empty())
                continue;
            if (mPolicy == PlacementPolicy::FirstFit)
                return n;
            double score = 0.0;
            switch (mPolicy) {
            case PlacementPolicy::BestFit: {
                // The tightest fit: least free GPU share left on the node, then least memory left over.
                double leftover = 0.0, taken = 0.0;
                for (int s : group) {
                    leftover += slot(s).capacityBytes - d.bytesPerUnit;
                    taken += slot(s).gpuFraction;
                }
                score = (mFreeShare[static_cast<std::size_t>(n)] - taken) * 1e15 + leftover;
                break;
            }
            case PlacementPolicy::TopologyAware: {
                // Stay on nodes the job already uses, then under the same leaf switch, then
                // take the node with the most free GPU share (whole nodes stay whole for large
                // jobs; a node carved into many small slots does not count as emptier).
                const bool same = std::find(used.begin(), used.end(), n) != used.end();
                bool sameLeaf = false;
                for (int u : used)
                    sameLeaf |= !mLeaf[static_cast<std::size_t>(n)].empty() &&
                                mLeaf[static_cast<std::size_t>(u)] == mLeaf[static_cast<std::size_t>(n)];
                score = (same ? 0.0 : sameLeaf ? 1e6 : 2e6) - mFreeShare[static_cast<std::size_t>(n)];
                break;
            }
            case PlacementPolicy::FragmentationAware:
                // Fragmentation gradient descent: the node whose fragmentation grows least.
                score = fragmentation(n, group) - fragmentation(n, {});
                break;
            case PlacementPolicy::FirstFit:
                break;
            }
            if (score < bestScore) {
                bestScore = score;
                best = n;
            }
        }
        return best;
    }

    std::string reasonFor(const JobDemand& d, int groupsPlaced) const
    {
        const int units = d.tp * d.groups;
        double largest = 0.0;
        std::string largestLabel;
        int fitting = 0;
        int p2pDomains = 0;
        for (const Slot& s : mSlots) {
            if (s.capacityBytes > largest) {
                largest = s.capacityBytes;
                largestLabel = s.label;
            }
            fitting += fits(s, d.bytesPerUnit) ? 1 : 0;
        }
        if (d.pin)
            return "pinned to " + d.pin->node + (d.pin->gpu ? " GPU " + std::to_string(*d.pin->gpu) : "") +
                   ", where no free slot holds " + gib(d.bytesPerUnit) + " per GPU for all " + std::to_string(units) +
                   " units";
        if (fitting == 0)
            return "needs " + gib(d.bytesPerUnit) + " per GPU; the largest slot holds " + gib(largest) + " (" +
                   largestLabel + ")";
        if (d.tp > 1) {
            for (std::size_t n = 0; n < mNodeSlots.size(); ++n) {
                std::vector<int> perDomain(static_cast<std::size_t>(64), 0);
                std::vector<int> seenGpu;
                for (int s : mNodeSlots[n]) {
                    const Slot& sl = slot(s);
                    if (!sl.peerToPeer || !fits(sl, d.bytesPerUnit) ||
                        std::find(seenGpu.begin(), seenGpu.end(), sl.gpu) != seenGpu.end())
                        continue;
                    seenGpu.push_back(sl.gpu);
                    ++perDomain[static_cast<std::size_t>(std::min(sl.gpu / mDomain[n], 63))];
                }
                for (int c : perDomain)
                    p2pDomains += c >= d.tp ? 1 : 0;
            }
            if (p2pDomains == 0)
                return "TP=" + std::to_string(d.tp) + " needs " + std::to_string(d.tp) + " GPUs of " +
                       gib(d.bytesPerUnit) + " with NVLink peer access in one NVLink domain; the cluster has "
                       "none (MIG instances and fractional vGPUs have no peer access)";
        }
        return "needs " + std::to_string(units) + " GPU slots of " + gib(d.bytesPerUnit) +
               (d.tp > 1 ? " in TP groups of " + std::to_string(d.tp) : std::string()) + "; only " +
               std::to_string(groupsPlaced * d.tp) + " could be found free (" + std::to_string(fitting) +
               " slots are large enough in all)";
    }

    const Scenario& mScenario;
    const std::vector<Slot>& mSlots;
    PlacementPolicy mPolicy;
    std::vector<int> mOwner;
    std::vector<std::vector<int>> mNodeSlots;
    std::vector<int> mFree;         // free slots per node
    std::vector<double> mFreeShare; // free GPU share per node
    std::vector<int> mDomain;
    std::vector<std::string> mLeaf;
    std::vector<Type> mTypes;
};

} // namespace

PlacementOutcome placeJobs(const Scenario& scenario, const Catalog& catalog, const std::vector<Slot>& slots,
                           const std::vector<JobDemand>& demands, PlacementPolicy policy)
{
    Placer placer(scenario, catalog, slots, demands, policy);
    PlacementOutcome out;
    for (int i = 0; i < static_cast<int>(demands.size()); ++i)
        out.jobs.push_back(placer.place(demands[static_cast<std::size_t>(i)], i));
    out.owner = placer.owner();
    return out;
}

} // namespace gp::calc
