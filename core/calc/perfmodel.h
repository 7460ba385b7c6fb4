// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#pragma once

#include "model/assumptionset.h"
#include "model/gpuspec.h"
#include "model/job.h"
#include "model/modelpreset.h"
#include "model/softwarestack.h"

#include <optional>
#include <vector>

namespace gp::calc {

/// Model FLOPs per trained token: 6N + 12·L·h·s (PaLM, Chowdhery et al. 2022, Appendix B),
/// N the parameters a token passes through (active experts only).
double modelFlopsPerToken(const ModelArchitecture& arch, int sequence);

/// Hardware FLOPs per token: model FLOPs plus what recomputation repeats — the whole
/// forward pass (2N + 4·L·h·s) for full, the attention core (4·L·h·s) for selective.
double hardwareFlopsPerToken(const ModelArchitecture& arch, int sequence, Recompute recompute);

/// Dense peak at the job's precision: BF16/FP16, FP8 (BF16 where the GPU has none), FP32
/// as TF32 tensor cores (half the BF16 rate; A100 and H100 datasheets).
double peakFlops(const GpuSpec& gpu, Precision precision);

/// End-to-end training time of Narayanan et al. 2021 (SC21), eq. 4: 8·T·P / (n·X) with
/// activation recomputation (6·T·P / (n·X) without), T tokens, P parameters, n GPUs and X
/// achieved FLOP/s per GPU. Returns seconds.
double megatronTrainingTimeS(double tokens, double params, int gpus, double flopsPerGpu, bool recompute);

/// MFU from a measured per-GPU throughput: achieved model FLOP/s over the dense peak.
double modelFlopsUtilization(double achievedFlopsPerGpu, double peakFlopsPerGpu);

/// The bandwidths (GB/s per GPU, one direction, bus-bandwidth efficiency applied) the job's
/// collectives run over, as its placement decides them.
struct CommBandwidth
{
    double tensorParallelGBps = 0.0; ///< a TP group's all-reduces: its NVLink domain, or PCIe
    /// A TP group (tp > 1) spans GPUs of one node that reach each other over PCIe only
    /// (tensorParallelOverPcie): its all-reduces run at pcieTensorParallelGBps.
    bool tensorParallelOverPcie = false;
    double pipelineGBps = 0.0;     ///< between consecutive stages
    double dataParallelGBps = 0.0; ///< the slowest hop of the data-parallel ring
    /// Nodes (NVLink domains: a rack-scale domain counts as one) a data-parallel group spans: its
    /// ring's steps between them cross the network (collectiveS). 1: the group stays in one.
    int dataParallelNodes = 1;
    /// The data-parallel ring's steps inside a node run over NVLink (else PCIe).
    bool dataParallelIntraNvlink = true;
    /// An expert-parallel group's all-to-alls (ep > 1): its NVLink domain when the group stays
    /// in one, else the fabric per GPU (docs/model-reference.md#mixture-of-experts).
    double expertParallelGBps = 0.0;
    bool expertParallelOverNvlink = true;
    /// Off NVLink: the ranks of a group that share one NVLink domain (the slowest group's);
    /// their share of the all-to-all stays on NVLink at tensorParallelGBps. 0: none.
    int expertParallelLocalRanks = 0;
    /// A context-parallel ring's K/V hops: NVLink when every CP group (tp x cp consecutive
    /// ranks) sits in one NVLink domain, else the data-parallel path (PCIe or the NICs).
    double contextParallelGBps = 0.0;
    const char* contextParallelLink = ""; ///< "nvlink", "pcie" or "network" (set by evaluate's commFor)
    /// The assumptions the pipeline and data-parallel bandwidths rest on: link_efficiency off
    /// NVLink (PCIe, the NICs), no_gpudirect_bandwidth_factor across nodes without GPUDirect RDMA.
    AssumptionSet assumptionsRead;
};

/// Per GPU, what a node's NICs give a job across nodes (GB/s, one direction): NICs × speed over
/// its GPUs, times the link efficiency, and the no-GPUDirect factor without GPUDirect RDMA.
double nicGBpsPerGpu(int nicCount, double nicSpeedGbps, int gpuCount, bool gpudirectRdma, double linkEfficiency,
                     double noGpudirectFactor);

/// A collective of the data-parallel group (NCCL's names).
enum class Collective
{
    AllGather,
    ReduceScatter,
    AllReduce
};

/// Time of one NCCL collective on a `bytes` buffer (the whole gathered or reduced buffer) over
/// `ranks` ranks spread evenly over `nodes` nodes, at bus bandwidth `busGBps`: NCCL's own cost
/// model (src/graph/tuning.cc, Simple protocol), latency + bytes / bandwidth. The ring moves
/// (n − 1)/n of the buffer per link (2 (n − 1)/n for an all-reduce) and adds, on top of
/// `baseLatencyS`, the stack's hop latency for each of its n − 1 (2 (n − 1)) steps: those between
/// nodes at the network's, the rest at NVLink's or PCIe's (`intraNvlink`). An all-reduce across
/// nodes takes NCCL's tree where it is faster: 2 (ranks per node − 1) intra-node and
/// 2 floor(log2 nodes) network hops at the stack's treeAllReduceBandwidth of the bus bandwidth
/// (docs/model-reference.md, "Collective latency").
double collectiveS(Collective kind, double bytes, int ranks, int nodes, bool intraNvlink, double busGBps,
                   double baseLatencyS, const SoftwareStack& stack);

/// The bandwidths of a job's collectives (evaluate's rule, evaluatecomm.cpp): tensor parallel
/// over the GPU's NVLink domain at its scale-up collective efficiency; data parallel and pipeline
/// the same when the job sits in one node (over NVLink when `nvlink`: peer access and one domain,
/// else PCIe at the link efficiency), otherwise the slowest node's `networkGBps` per GPU.
CommBandwidth commBandwidth(const GpuSpec& gpu, bool oneNode, bool nvlink, double linkEfficiency, double networkGBps);

/// Time of one MoE all-to-all (dispatch or combine) per GPU: `tokens` hidden states of `hidden`
/// elements of `elementBytes`, each sent to `active` experts, of which (ep - 1)/ep leave the
/// GPU, times the load imbalance, at `gbps`, plus the collective latency. When only
/// `localRanks` (< ep) of the group share the GPU's NVLink domain, the (ep - localRanks)/ep
/// bound for other domains go at `gbps` (the fabric) while the (localRanks - 1)/ep stay on
/// NVLink at `localGBps`, side by side: the slower of the two.
double expertAllToAllS(double tokens, double hidden, double elementBytes, double active, int ep, double imbalance,
                       double gbps, double latencyS, int localRanks = 0, double localGBps = 0.0);

/// `comm` with the expert-parallel all-to-alls placed as the placement packs a job of several
/// nodes (Best Parallelism's rule): an EP group of tp x ep consecutive GPUs stays on NVLink when
/// it fits a `domainGpus` domain; else the share for other domains crosses the fabric.
CommBandwidth expertGroupComm(CommBandwidth comm, const GpuSpec& gpu, const Parallelism& par, int gpusPerNode,
                              int domainGpus, double networkGBps);

/// The bus bandwidth of a TP group's all-reduces over PCIe (GB/s, one direction): the GPU's
/// x16 link of its PCIe generation at the link efficiency. A ring all-reduce sends and receives
/// one stream per GPU link, so the switch or root complex the GPUs share is not the bottleneck
/// while peer-to-peer works (docs/model-reference.md, "Tensor parallelism over PCIe").
double pcieTensorParallelGBps(const GpuSpec& gpu, double linkEfficiency);

/// Where a step's time goes, in seconds; the parts add up to the step time (training) or
/// the time per output token (inference: compute and tp_exposed only).
struct StepBreakdown
{
    double compute = 0.0;    ///< GEMMs, attention and memory-bound kernels, forward and backward
    double recompute = 0.0;  ///< what activation recomputation repeats
    double tpExposed = 0.0;  ///< tensor-parallel collectives not hidden behind compute
    double ppExposed = 0.0;  ///< pipeline point-to-point transfers on the critical path
    double dpExposed = 0.0;  ///< data-parallel gradient reduction not hidden behind backward
    double bubble = 0.0;     ///< pipeline fill and drain
    double optimizer = 0.0;  ///< the optimizer step (memory-bound)
    double epAllToAll = 0.0; ///< MoE token dispatch and combine across the expert-parallel group
    double cpExposed = 0.0;  ///< context-parallel K/V ring transfers not hidden behind attention
    double total() const
    {
        return compute + recompute + tpExposed + ppExposed + dpExposed + bubble + optimizer + epAllToAll + cpExposed;
    }
};

/// One part of the step breakdown, as every view names and explains it: the JSON key of
/// `evaluate --json` (step_breakdown_s), the label the workbench shows, and the formula with
/// its source (the tooltip; docs/model-reference.md#step-time says the same at length).
struct StepPart
{
    const char* key;
    const char* label;
    const char* formula;
    double StepBreakdown::*value;
};
/// The nine parts, in the order they are stacked.
const std::vector<StepPart>& stepParts();

/// A unit's shares of its GPU's resources against the whole, unshared GPU (interference.h).
struct ResourceShares
{
    double compute = 1.0;   ///< SM throughput (time-sliced: its turn, less the switch)
    double bandwidth = 1.0; ///< HBM bandwidth
    double network = 1.0;   ///< host/PCIe and network transfers (data-parallel, pipeline)
    double time = 1.0;      ///< GPU time for the rest (tensor-parallel collectives)
    bool spatial = false;   ///< a partition of the SMs: a small GEMM runs as on a GPU that size
    bool whole() const { return compute == 1.0 && bandwidth == 1.0 && network == 1.0 && time == 1.0; }
};

/// Where a step's time goes by the resource that bounds it, as shares of the step.
struct ResourceMix
{
    double compute = 1.0; ///< SM-bound kernels (GEMMs, flash attention at their roofline)
    double memory = 0.0;  ///< HBM-bound kernels (streams, small-batch GEMMs, decode attention)
    double network = 0.0; ///< exposed data-parallel and pipeline transfers
    double other = 0.0;   ///< exposed tensor-parallel collectives
};

struct PerfInputs
{
    ModelArchitecture arch;
    const GpuSpec* gpu = nullptr;
    Job job;
    ResourceShares shares;      ///< the slowest unit's shares of its GPU (interference.h)
    double commOverlap = 0.7;   ///< share of data-parallel reduction that may hide behind backward
    double tpCommOverlap = 0.0; ///< share of tensor-parallel collectives hidden behind GEMMs
    CommBandwidth comm;
    /// moe_load_imbalance: the busiest expert-parallel rank's tokens over the mean (ep > 1).
    double moeLoadImbalance = 1.0;
    /// The job's software-stack profile (catalog): FSDP prefetch overlap, per-step overhead, FP8
    /// recipe overhead. nullptr: the profile's member defaults. The two overlaps above are the
    /// profile's too, unless the scenario sets comm_overlap / tp_comm_overlap (evaluate()).
    const SoftwareStack* stack = nullptr;
};

struct PerfResult
{
    double stepTimeS = 0.0; ///< training: optimizer step; inference: time per output token
    StepBreakdown breakdown;
    double computeS = 0.0; ///< compute + recompute + optimizer
    double bubbleS = 0.0;
    double exposedCommS = 0.0;
    double tokensPerS = 0.0; ///< trained tokens/s, or generated tokens/s of all replicas
    double mfu = 0.0;
    std::optional<double> daysToComplete; ///< training only
    double demandTokensPerS = 0.0;        ///< inference: requests/s x output tokens
    double dataParallelBytesPerGpu = 0.0; ///< per step, through each GPU's data-parallel link
    double pipelineBytesPerGpu = 0.0;     ///< per step, to the next pipeline stage
    double networkCommS = 0.0;            ///< data-parallel and pipeline transfer time per step, hidden or not
    /// The EP all-to-all time per step hidden behind another micro-batch's compute (moe_a2a_overlap);
    /// breakdown.epAllToAll is what stays exposed.
    double epAllToAllHiddenS = 0.0;
    ResourceMix mix; ///< what bounds the step (interference.h reads it)
};

/// Training: a step built from the shapes of each block's GEMMs, attention and memory-bound
/// kernels on the GPU's efficiency curves, the exposed part of each collective, the pipeline
/// schedule and the optimizer (docs/model-reference.md#step-time). Inference: the serving
/// model (servingmodel.h) on whole GPUs with the default engine; evaluate() gives it the
/// placement's shares and memory instead.
PerfResult estimatePerformance(const PerfInputs& in);

} // namespace gp::calc
