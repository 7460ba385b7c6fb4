// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
// evaluate(): the bandwidth a job's collectives see, and the traffic multi-node jobs put on
// the fabric's links (docs/model-reference.md, "Interconnect").
#include "evaluatecontext.h"

#include <algorithm>
#include <map>

namespace gp::calc {

namespace detail {

namespace {

/// One direction of a x16 PCIe link, GB/s (PCI-SIG: 16 GT/s x16 = 31.5 GB/s for Gen4).
double pcieGBps(int gen) { return gen >= 6 ? 126.0 : gen == 5 ? 63.0 : gen == 4 ? 31.5 : 15.75; }

/// The distinct values of `v`, sorted (small vectors instead of std::set: no node allocations).
std::vector<int> distinct(std::vector<int> v)
{
    std::sort(v.begin(), v.end());
    v.erase(std::unique(v.begin(), v.end()), v.end());
    return v;
}

} // namespace

} // namespace detail

double nicGBpsPerGpu(int nicCount, double nicSpeedGbps, int gpuCount, bool gpudirectRdma, double linkEfficiency,
                     double noGpudirectFactor)
{
    return nicCount * nicSpeedGbps / 8.0 / std::max(gpuCount, 1) * linkEfficiency *
           (gpudirectRdma ? 1.0 : noGpudirectFactor);
}

CommBandwidth commBandwidth(const GpuSpec& gpu, bool oneNode, bool nvlink, double linkEfficiency, double networkGBps)
{
    CommBandwidth b;
    // NCCL over the NVLink domain reaches the GPU's scale-up collective efficiency (catalog).
    b.tensorParallelGBps = gpu.scaleUpBandwidthGBps / 2.0 * gpu.efficiency.scaleUpCollective;
    // Expert-parallel all-to-alls: over NVLink while the group stays in the domain (commFor
    // decides per group; here the whole job's extent), else the fabric.
    b.expertParallelOverNvlink = oneNode && nvlink && gpu.scaleUpBandwidthGBps > 0;
    b.expertParallelGBps = b.expertParallelOverNvlink ? b.tensorParallelGBps
                           : oneNode                  ? detail::pcieGBps(gpu.pcieGen) * linkEfficiency
                                                      : networkGBps;
    static const AssumptionSet linkEfficiencyRead{"link_efficiency"};
    if (oneNode) {
        const bool overNvlink = nvlink && gpu.scaleUpBandwidthGBps > 0;
        b.dataParallelGBps = b.pipelineGBps =
            overNvlink ? b.tensorParallelGBps : detail::pcieGBps(gpu.pcieGen) * linkEfficiency;
        b.dataParallelIntraNvlink = overNvlink;
        if (!overNvlink)
            b.assumptionsRead = linkEfficiencyRead;
    } else {
        b.dataParallelGBps = b.pipelineGBps = networkGBps;
        b.assumptionsRead = linkEfficiencyRead; // the NICs' bandwidth carries it (nicGBpsPerGpu)
    }
    b.contextParallelGBps = b.dataParallelGBps; // commFor narrows it to the CP groups' own links
    return b;
}

CommBandwidth expertGroupComm(CommBandwidth c, const GpuSpec& gpu, const Parallelism& par, int gpusPerNode,
                              int domainGpus, double networkGBps)
{
    if (par.ep <= 1 || par.gpus() <= gpusPerNode) // one node: commBandwidth's rule for the whole job
        return c;
    const int etp = par.expertTp(); // an EP group spans etp x ep consecutive ranks
    c.expertParallelOverNvlink = par.expertGroupSpan() <= domainGpus && gpu.scaleUpBandwidthGBps > 0;
    c.expertParallelGBps = c.expertParallelOverNvlink ? c.tensorParallelGBps : networkGBps;
    c.expertParallelLocalRanks =
        c.expertParallelOverNvlink || gpu.scaleUpBandwidthGBps <= 0 ? 0 : std::max(domainGpus / etp, 1);
    return c;
}

double pcieTensorParallelGBps(const GpuSpec& gpu, double linkEfficiency)
{
    return detail::pcieGBps(gpu.pcieGen) * linkEfficiency;
}

namespace detail {

CommBandwidth commFor(const Context& cx, const std::vector<int>& slots, const GpuSpec& gpu, const Parallelism& par)
{
    const int tp = par.tp, ep = par.ep, pp = par.pp, cp = par.cp;
    const double linkEff = cx.params.linkEfficiency;
    const double noGdrFactor = cx.params.noGpudirectFactor;
    std::vector<int> nodeList;
    nodeList.reserve(slots.size());
    bool allP2p = true;
    for (int s : slots) {
        nodeList.push_back(at(cx.slots, s).node);
        allP2p = allP2p && at(cx.slots, s).peerToPeer;
    }
    const std::vector<int> nodes = distinct(std::move(nodeList));
    double network = 1e30;
    bool withoutGpudirect = false;
    std::vector<int> leafList;
    for (int n : nodes) {
        const Node& node = cx.node(n);
        withoutGpudirect = withoutGpudirect || !node.nics.gpudirectRdma;
        network = std::min(network, nicGBpsPerGpu(node.nics.count, node.nics.speedGbps, node.gpuCount,
                                                  node.nics.gpudirectRdma, linkEff, noGdrFactor));
        leafList.push_back(at(cx.fabric.leafOfNode, n));
    }
    const std::vector<int> leaves = distinct(std::move(leafList));
    // Across leaves, the fabric's oversubscription (uplinks / downlinks of the busiest leaf).
    double oversub = 1.0;
    if (leaves.size() > 1)
        for (int l : leaves)
            if (l >= 0)
                oversub = std::min(oversub, at(cx.fabric.leafOversubscription, l));
    // Trays of one rack-scale NVLink domain (GB200 NVL72) reach each other over NVLink: for the
    // job's collectives they are one node (docs/model-reference.md, "Rack-scale NVLink domains").
    const bool oneRack = nodes.size() > 1 && std::all_of(nodes.begin(), nodes.end(),
                                                         [&](int n) { return cx.fabric.sameRack(nodes.front(), n); });
    bool oneDomain = true;
    if (nodes.size() == 1) {
        const int domain = nvlinkDomainGpus(cx.node(nodes.front()), cx.c);
        const int first = at(cx.slots, slots.front()).gpu / domain;
        for (int s : slots)
            oneDomain = oneDomain && at(cx.slots, s).gpu / domain == first;
    }
    CommBandwidth b = commBandwidth(gpu, nodes.size() == 1 || oneRack, allP2p && oneDomain, linkEff, network * oversub);
    if (nodes.size() > 1 && !oneRack) {
        // NCCL's rings across nodes run one channel per GPU of the group on a node, each over that
        // GPU's own NIC (rail-optimised, one NIC per GPU): the hop between nodes moves the ring's
        // whole per-link volume split over those NICs, so a data-parallel group with k members
        // per node reaches k x the per-GPU NIC share, up to its NVLink ring (docs/model-reference.md,
        // "Data parallelism across nodes").
        std::map<int, int> unitsOnNode;
        for (int s : slots)
            ++unitsOnNode[at(cx.slots, s).node];
        int fewest = static_cast<int>(slots.size());
        for (const auto& [n, units] : unitsOnNode)
            fewest = std::min(fewest, units);
        const int perNode = std::max(1, fewest / std::max(tp * pp, 1));
        // The data-parallel group's ring (dp x cp ranks) crosses the network once per NVLink domain
        // it spans, perNode members on each node (NCCL's nInterSteps; collectiveS); the trays of a
        // rack-scale domain reach each other over NVLink, so a domain counts once.
        int domains = 0;
        for (std::size_t i = 0; i < nodes.size(); ++i)
            domains += std::none_of(nodes.begin(), nodes.begin() + static_cast<std::ptrdiff_t>(i),
                                    [&](int earlier) { return cx.fabric.sameRack(earlier, nodes[i]); });
        const int dpRanks = std::max(par.dp, 1) * std::max(cp, 1);
        b.dataParallelNodes = std::clamp((dpRanks + perNode - 1) / perNode, 1, std::max(domains, 1));
        b.dataParallelIntraNvlink = gpu.scaleUpBandwidthGBps > 0 && allP2p;
        if (perNode > 1) {
            const double nvlinkRing = gpu.scaleUpBandwidthGBps > 0 && allP2p
                                          ? gpu.scaleUpBandwidthGBps / 2.0 * gpu.efficiency.scaleUpCollective
                                          : detail::pcieGBps(gpu.pcieGen) * linkEff;
            b.dataParallelGBps = std::min(b.dataParallelGBps * perNode, std::max(nvlinkRing, b.dataParallelGBps));
        }
    }
    // A TP group (tp consecutive slots, placement's order) that spans NVLink domains of its node
    // reaches its peers over PCIe: the all-reduces run at the PCIe link's bandwidth.
    const auto count = static_cast<int>(slots.size());
    for (int g = 0; tp > 1 && g + tp <= count && !b.tensorParallelOverPcie; g += tp) {
        const Slot& lead = at(cx.slots, slots[static_cast<std::size_t>(g)]);
        const int domain = nvlinkDomainGpus(cx.node(lead.node), cx.c);
        for (int k = g + 1; k < g + tp; ++k)
            if (const Slot& sl = at(cx.slots, slots[static_cast<std::size_t>(k)]);
                (sl.node == lead.node ? sl.gpu / domain != lead.gpu / domain
                                      : !cx.fabric.sameRack(sl.node, lead.node)) ||
                gpu.scaleUpBandwidthGBps <= 0)
                b.tensorParallelOverPcie = true;
    }
    // An expert-parallel group is ep data-parallel ranks of tp consecutive slots each
    // (Megatron-Core's default rank order tp-cp-ep-dp-pp: EP varies right after TP), so it
    // covers tp x ep consecutive slots. All groups inside one NVLink domain — a node's, or the
    // trays of one rack-scale domain (GB200 NVL72), as for TP groups above — the all-to-alls run
    // over NVLink; otherwise the slowest group crosses the fabric. With MoE parallel folding
    // (etp set) the expert grid's order is etp-ep-edp-pp over the same ranks
    // (megatron/core/parallel_state.py, expert_decoder_rank_generator): a group is ep ranks etp
    // apart, etp x ep consecutive slots.
    const int epStride = par.expertTp();
    const int epSpan = par.expertGroupSpan();
    if (ep > 1 && nodes.size() > 1) {
        // Per group, the GPUs that share the lead's NVLink domain; the slowest group counts.
        int local = epSpan;
        for (int g = 0; g + epSpan <= count; g += epSpan) {
            const Slot& lead = at(cx.slots, slots[static_cast<std::size_t>(g)]);
            const int domain = nvlinkDomainGpus(cx.node(lead.node), cx.c);
            int same = 1;
            for (int k = g + 1; k < g + epSpan; ++k) {
                const Slot& sl = at(cx.slots, slots[static_cast<std::size_t>(k)]);
                same += sl.peerToPeer && (sl.node == lead.node ? sl.gpu / domain == lead.gpu / domain
                                                               : cx.fabric.sameRack(sl.node, lead.node));
            }
            local = std::min(local, gpu.scaleUpBandwidthGBps > 0 ? same : 1);
        }
        const bool inDomain = local >= epSpan;
        b.expertParallelOverNvlink = inDomain;
        b.expertParallelGBps = inDomain ? b.tensorParallelGBps : network * oversub;
        b.expertParallelLocalRanks = inDomain ? 0 : local / std::max(epStride, 1);
    }
    if (b.tensorParallelOverPcie) {
        b.tensorParallelGBps = pcieTensorParallelGBps(gpu, linkEff);
        b.assumptionsRead.add("link_efficiency");
    }
    // A context-parallel group is tp x cp consecutive ranks (Megatron-Core's order tp-cp-dp-pp):
    // its ring runs over NVLink when every group sits in one NVLink domain, over PCIe when each
    // group is in one node, else over the job's network path.
    const int cpSpan = std::max(tp, 1) * cp;
    if (cp > 1) {
        bool inDomain = gpu.scaleUpBandwidthGBps > 0 && allP2p, inNode = true;
        for (int g = 0; g + cpSpan <= count; g += cpSpan) {
            const Slot& lead = at(cx.slots, slots[static_cast<std::size_t>(g)]);
            const int domain = nvlinkDomainGpus(cx.node(lead.node), cx.c);
            for (int k = g + 1; k < g + cpSpan; ++k) {
                const Slot& sl = at(cx.slots, slots[static_cast<std::size_t>(k)]);
                inNode = inNode && sl.node == lead.node;
                inDomain = inDomain && sl.node == lead.node && sl.gpu / domain == lead.gpu / domain;
            }
        }
        if (inDomain) {
            b.contextParallelGBps = gpu.scaleUpBandwidthGBps / 2.0 * gpu.efficiency.scaleUpCollective;
            b.contextParallelLink = "nvlink";
        } else if (inNode) {
            b.contextParallelGBps = pcieTensorParallelGBps(gpu, linkEff);
            b.contextParallelLink = "pcie";
            b.assumptionsRead.add("link_efficiency");
        } else {
            b.contextParallelGBps = network * oversub;
            b.contextParallelLink = "network";
            b.assumptionsRead.add("link_efficiency");
        }
    }
    if (nodes.size() > 1 && withoutGpudirect)
        b.assumptionsRead.add("no_gpudirect_bandwidth_factor");
    return b;
}

void addJobTraffic(const Context& cx, const std::vector<int>& slots, const std::set<int>& jobNodes, JobResult& r,
                   std::vector<double>& linkLoadGbps)
{
    if (jobNodes.size() < 2 || r.perf.stepTimeS <= 0)
        return; // traffic inside one node stays on NVLink or PCIe
    if (std::all_of(jobNodes.begin(), jobNodes.end(), [&](int n) { return cx.fabric.sameRack(*jobNodes.begin(), n); }))
        return; // and inside one rack-scale NVLink domain on its NVLink switches
    std::map<int, int> unitsOnNode;
    for (int sIdx : slots)
        ++unitsOnNode[at(cx.slots, sIdx).node];
    std::map<int, int> nodesPerLeaf;
    for (int n : jobNodes)
        ++nodesPerLeaf[at(cx.fabric.leafOfNode, n)];
    for (const auto& [n, units] : unitsOnNode) {
        const double gbps =
            (r.perf.dataParallelBytesPerGpu + r.perf.pipelineBytesPerGpu) * units * 8.0 / 1e9 / r.perf.stepTimeS;
        const auto& own = at(cx.fabric.nodeUplinks, n);
        for (int l : own) {
            at(linkLoadGbps, l) += gbps / own.size();
            r.linkGbps.push_back({l, gbps / own.size()});
        }
        const int leaf = at(cx.fabric.leafOfNode, n);
        if (leaf < 0)
            continue;
        const auto& up = at(cx.fabric.leafUplinks, leaf);
        const double leaving = 1.0 - static_cast<double>(nodesPerLeaf[leaf]) / jobNodes.size();
        for (int l : up) {
            at(linkLoadGbps, l) += gbps * leaving / up.size();
            r.linkGbps.push_back({l, gbps * leaving / up.size()});
        }
    }
}

} // namespace detail

} // namespace gp::calc
