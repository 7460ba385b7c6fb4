// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#include "replay.h"

#include "philox.h"

#include "calc/fragmentation.h"

#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <limits>
#include <map>
#include <tuple>
#include <unordered_map>

namespace gp::sim {

namespace {

constexpr int kWholeGpu = 1000;

/// Counter-based random numbers: the n-th draw of a stream is a pure function of the seed.
class Random
{
public:
    Random(std::uint64_t seed, std::uint32_t stream) : mSeed(seed), mStream(stream) {}
    double uniform()
    {
        const auto b = Philox4x32::generate({{mCounter++, mStream, 0, 0}}, static_cast<std::uint32_t>(mSeed),
                                            static_cast<std::uint32_t>(mSeed >> 32));
        return Philox4x32::toUnit(b.v[0], b.v[1]);
    }
    std::size_t below(std::size_t n) { return std::min(n - 1, static_cast<std::size_t>(uniform() * n)); }

private:
    std::uint64_t mSeed;
    std::uint32_t mStream;
    std::uint32_t mCounter = 0;
};

struct ReplayNode
{
    std::string name;
    int cpuCap = 0, cpuFree = 0;
    long long memCap = 0, memFree = 0;
    int model = -1;
    std::vector<int> gpuFree; // milli-GPU free per GPU
    std::map<int, int> tags;  // GPU tasks placed by the artifact's affinity tag: 0 sharing, N whole GPUs
    /// FGD's score and GPU for a task shape (GPUs, milli, CPU) on this node as it is now; emptied
    /// whenever a task lands here (the score depends on nothing else).
    std::unordered_map<long long, std::pair<long long, int>> fgdScores;
    double frag = 0.0;

    int freeMilli() const
    {
        int s = 0;
        for (int f : gpuFree)
            s += f;
        return s;
    }
    int fullFree() const
    {
        int c = 0;
        for (int f : gpuFree)
            c += f == kWholeGpu ? 1 : 0;
        return c;
    }
};

/// The artifact's GPU affinity tag of a task (GetGpuAffinityFromPodAnnotation): "share" for a
/// GPU share, "N-gpu" for N whole GPUs, none (-1) for a CPU-only task.
int affinityTag(const TraceTask& t) { return t.numGpu == 0 ? -1 : t.sharing() ? 0 : t.numGpu; }

/// A typical task shape (the artifact's utils.GetTypicalPods): CPU, per-GPU demand, GPU count
/// and allowed GPU models, with its popularity among the typical shapes. Memory is not part of
/// it. Shapes with the same GPU demand form a group, so a node's fragmentation costs one GPU
/// scan per group.
struct Member
{
    int cpu;
    std::vector<int> models; // allowed model indices; empty = any
    double p;
};
struct Group
{
    int numGpu; // 0: a CPU-only shape
    int demand; // per GPU, milli
    double weight;
    std::vector<Member> members;
};

/// The artifact's typical-pod set (Weng et al.'s simulator, pkg/utils/frag.go GetTypicalPods,
/// with its experiments' settings: CPU-only pods included, popularity threshold 95 %, step 1,
/// no GPU weighting): the most frequent shapes, one at a time, until they cover 95 % of the
/// tasks; their frequencies renormalised to sum to 1.
inline constexpr double kTypicalPopularity = 0.95;

bool modelAllowed(const std::vector<int>& allowed, int model)
{
    return allowed.empty() || std::find(allowed.begin(), allowed.end(), model) != allowed.end();
}

/// Which typical shapes of each group a node's free CPU (and GPU model) admit: the popularity
/// of the admitted ones, per group. Memoised: many nodes share these values.
class AdmittedWeights
{
public:
    explicit AdmittedWeights(const std::vector<Group>& groups) : mGroups(groups) {}
    const std::vector<double>& of(int cpuFree, int model)
    {
        const Key key{cpuFree, model};
        auto it = mMemo.find(key);
        if (it != mMemo.end())
            return it->second;
        std::vector<double> w(mGroups.size(), 0.0);
        for (std::size_t g = 0; g < mGroups.size(); ++g)
            for (const Member& m : mGroups[g].members)
                if (m.cpu <= cpuFree && modelAllowed(m.models, model))
                    w[g] += m.p;
        if (mMemo.size() > 1'000'000)
            mMemo.clear();
        return mMemo.emplace(key, std::move(w)).first->second;
    }

private:
    struct Key
    {
        int cpu;
        int model;
        bool operator==(const Key&) const = default;
    };
    struct Hash
    {
        std::size_t operator()(const Key& k) const
        {
            return std::hash<long long>()(static_cast<long long>(k.cpu) * 1000003 + k.model);
        }
    };
    const std::vector<Group>& mGroups;
    std::unordered_map<Key, std::vector<double>, Hash> mMemo;
};

/// A node's fragmentation (the artifact's NodeGpuShareFragAmount summed over every class but
/// "satisfied", pkg/utils/frag.go): for each typical shape with popularity p, p × the node's free
/// GPU milli — all of it when the shape is CPU-only (the artifact counts its "satisfied" and
/// "lack CPU" classes alike as fragment), may not use the node's GPU model, lacks CPU or finds
/// too few GPUs with its per-GPU demand free; when it fits, only the GPUs whose free share is
/// below that demand. Memory plays no part.
double fragmentation(const ReplayNode& n, const std::vector<Group>& groups, AdmittedWeights& admitted)
{
    std::array<calc::frag::Place, 64> places{};
    std::size_t count = 0;
    int allFree = 0;
    for (int g = 0; g < static_cast<int>(n.gpuFree.size()) && count < places.size(); ++g)
        if (const int f = n.gpuFree[static_cast<std::size_t>(g)]; f > 0) {
            places[count++] = {g, 0, static_cast<double>(f), static_cast<double>(f), true};
            allFree += f;
        }
    if (allFree == 0)
        return 0.0;
    const std::vector<double>& admittedWeights = admitted.of(n.cpuFree, n.model);
    double frag = 0.0;
    for (const Group& g : groups) {
        // The shapes of the group the node's CPU and GPU model admit see the GPUs; the others
        // find nothing here.
        const double ok = admittedWeights[static_cast<std::size_t>(&g - groups.data())];
        frag += ok * calc::frag::unusableShare(places.data(), count, g.numGpu, g.demand) + (g.weight - ok) * allFree;
    }
    return frag;
}

struct Task
{
    const TraceTask* t;
    std::vector<int> models;
};

bool fits(const ReplayNode& n, const Task& task)
{
    const TraceTask& t = *task.t;
    if (t.cpuMilli > n.cpuFree || t.memoryMib > n.memFree || !modelAllowed(task.models, n.model))
        return false;
    if (t.numGpu == 0)
        return true;
    if (t.sharing())
        return std::any_of(n.gpuFree.begin(), n.gpuFree.end(), [&](int f) { return f >= t.gpuMilli; });
    return n.fullFree() >= t.numGpu;
}

/// Takes (or, with `undo`, gives back) a task's CPU, memory and GPUs on a node: a sharing
/// task's share of GPU `gpu`, or `numGpu` whole GPUs (the first free ones; `undo` restores
/// those listed in `taken`).
void takeResources(ReplayNode& n, const TraceTask& t, int gpu, std::vector<int>& taken, bool undo = false)
{
    const int sign = undo ? -1 : 1;
    n.cpuFree -= sign * t.cpuMilli;
    n.memFree -= sign * t.memoryMib;
    if (t.sharing()) {
        n.gpuFree[static_cast<std::size_t>(gpu)] -= sign * t.gpuMilli;
    } else if (undo) {
        for (int g : taken)
            n.gpuFree[static_cast<std::size_t>(g)] = kWholeGpu;
    } else {
        taken.clear();
        for (int g = 0; g < static_cast<int>(n.gpuFree.size()) && static_cast<int>(taken.size()) < t.numGpu; ++g)
            if (n.gpuFree[static_cast<std::size_t>(g)] == kWholeGpu) {
                n.gpuFree[static_cast<std::size_t>(g)] = 0;
                taken.push_back(g);
            }
    }
}

void apply(ReplayNode& n, const TraceTask& t, int gpu)
{
    std::vector<int> taken;
    takeResources(n, t, gpu, taken);
    if (const int tag = affinityTag(t); tag >= 0)
        ++n.tags[tag];
    n.fgdScores.clear();
}

/// The GPU a sharing task takes on a node: the fullest one that still fits (best fit).
int bestFitGpu(const ReplayNode& n, int milli)
{
    int best = -1;
    for (int g = 0; g < static_cast<int>(n.gpuFree.size()); ++g) {
        const int f = n.gpuFree[static_cast<std::size_t>(g)];
        if (f >= milli && (best < 0 || f < n.gpuFree[static_cast<std::size_t>(best)]))
            best = g;
    }
    return best;
}

class Replayer
{
public:
    Replayer(const std::vector<TraceNode>& nodes, const std::vector<TraceTask>& tasks, const ReplayConfig& cfg)
        : mConfig(cfg), mRng(cfg.seed, 2)
    {
        for (const TraceNode& tn : nodes) {
            ReplayNode n;
            n.name = tn.name;
            n.cpuCap = n.cpuFree = tn.cpuMilli;
            n.memCap = n.memFree = tn.memoryMib;
            n.model = modelIndex(tn.model);
            n.gpuFree.assign(static_cast<std::size_t>(std::max(tn.gpus, 0)), kWholeGpu);
            mCapacity += tn.gpus * kWholeGpu;
            mNodes.push_back(std::move(n));
        }
        // The typical shapes: the most frequent until they cover 95 % of the tasks.
        using Shape = std::tuple<int, int, int, std::vector<std::string>>; // GPUs, milli, CPU, models
        std::map<Shape, int> counts;
        for (const TraceTask& t : tasks)
            ++counts[{t.numGpu, t.numGpu == 0 ? 0 : t.gpuMilli, t.cpuMilli, t.gpuSpec}];
        std::vector<std::pair<Shape, int>> ranked(counts.begin(), counts.end());
        std::stable_sort(ranked.begin(), ranked.end(),
                         [](const auto& a, const auto& b) { return a.second > b.second; });
        std::size_t kept = 0;
        double covered = 0.0;
        while (kept < ranked.size() && covered < kTypicalPopularity * static_cast<double>(tasks.size()))
            covered += ranked[kept++].second;
        std::map<std::pair<int, int>, std::size_t> groupIndex;
        for (std::size_t i = 0; i < kept; ++i) {
            const auto& [numGpu, milli, cpu, spec] = ranked[i].first;
            auto [it, fresh] = groupIndex.try_emplace({numGpu, milli}, mGroups.size());
            if (fresh)
                mGroups.push_back({numGpu, milli, 0.0, {}});
            Group& g = mGroups[it->second];
            const double p = ranked[i].second / covered;
            g.weight += p;
            g.members.push_back({cpu, modelIndices(spec), p});
        }
        for (ReplayNode& n : mNodes) {
            n.frag = fragmentation(n, mGroups, mAdmitted);
            mFrag += n.frag;
        }
    }

    ReplayResult run(const std::vector<TraceTask>& tasks)
    {
        ReplayResult r;
        // The artifact's order of work (core.go, simulator.go): the task file shuffled
        // (SortClusterPods with shufflePod), then tuned to inflate x capacity
        // (TunePodsByNodeTotalResource): tasks removed at random while the file asks for more,
        // or copies of tasks drawn uniformly with replacement appended at the end while the next
        // copy's per-GPU request still fits under the target.
        Random draw(mConfig.seed, 1);
        std::vector<Task> arriving;
        long long requested = 0;
        const double target = mConfig.inflate * mCapacity;
        for (const TraceTask& t : tasks) {
            arriving.push_back({&t, modelIndices(t.gpuSpec)});
            requested += t.gpuRequestMilli();
        }
        for (std::size_t i = arriving.size(); i > 1; --i)
            std::swap(arriving[i - 1], arriving[draw.below(i)]);
        while (!arriving.empty() && static_cast<double>(requested) > target) {
            const std::size_t i = draw.below(arriving.size());
            requested -= arriving[i].t->gpuRequestMilli();
            arriving.erase(arriving.begin() + static_cast<std::ptrdiff_t>(i));
        }
        const bool anyGpu =
            std::any_of(tasks.begin(), tasks.end(), [](const TraceTask& t) { return t.gpuRequestMilli() > 0; });
        while (anyGpu && arriving.size() < kMaxReplayTasks) { // CPU-only tasks alone never reach the target
            const TraceTask& t = tasks[draw.below(tasks.size())];
            if (static_cast<double>(requested + t.gpuMilli) > target)
                break;
            arriving.push_back({&t, modelIndices(t.gpuSpec)});
            requested += t.gpuRequestMilli();
        }
        r.tasks = static_cast<int>(arriving.size());

        long long arrived = 0, allocated = 0;
        int nextPct = 0;
        auto record = [&](int pct) {
            r.arrivedPct.push_back(pct);
            r.allocationPct.push_back(mCapacity > 0 ? 100.0 * allocated / mCapacity : 0.0);
            r.fragmentationPct.push_back(mCapacity > 0 ? 100.0 * mFrag / mCapacity : 0.0);
            const double unallocated = static_cast<double>(mCapacity - allocated);
            r.fragmentationRatePct.push_back(unallocated > 0 ? 100.0 * mFrag / unallocated : 0.0);
        };
        record(nextPct++);
        const int lastPct = static_cast<int>(std::floor(mConfig.inflate * 100.0 + 1e-9));
        for (const Task& task : arriving) {
            arrived += task.t->gpuRequestMilli();
            const auto [node, gpu] = choose(task);
            if (node < 0) {
                ++r.failedTasks;
            } else {
                ReplayNode& n = mNodes[static_cast<std::size_t>(node)];
                apply(n, *task.t, gpu);
                allocated += task.t->gpuRequestMilli();
                mFrag -= n.frag;
                n.frag = fragmentation(n, mGroups, mAdmitted);
                mFrag += n.frag;
            }
            while (nextPct <= lastPct && mCapacity > 0 && arrived * 100 >= static_cast<long long>(nextPct) * mCapacity)
                record(nextPct++);
        }
        // The copies stop just short of inflate × capacity: the final state stands for the last
        // point when it is within one percent of it.
        while (nextPct <= lastPct && mCapacity > 0 && arrived * 100 >= static_cast<long long>(nextPct - 1) * mCapacity)
            record(nextPct++);
        return r;
    }

private:
    int modelIndex(const std::string& model)
    {
        auto [it, fresh] = mModels.try_emplace(model, static_cast<int>(mModels.size()));
        return it->second;
    }
    std::vector<int> modelIndices(const std::vector<std::string>& spec)
    {
        std::vector<int> out;
        for (const auto& m : spec)
            out.push_back(modelIndex(m));
        return out;
    }

    /// The node (and, for a sharing task, the GPU) the policy picks; {-1, -1} when none fits.
    /// As the artifact runs under the Kubernetes scheduling framework: every feasible node
    /// gets the policy's integer score (0–100, higher is better) and of the nodes with the best
    /// score the one whose name sorts first is taken (the artifact's selectHost, patched "for
    /// reproducibility" from kube-scheduler's random pick, vendor/k8s.io/kubernetes/pkg/
    /// scheduler/core/generic_scheduler.go); the GPU inside it
    /// is the artifact's choice for that policy (open_gpu_share.go: best fit by default, random
    /// for Random, the FGD score's own choice for FGD).
    std::pair<int, int> choose(const Task& task)
    {
        const TraceTask& t = *task.t;
        const int nodes = static_cast<int>(mNodes.size());
        if (mConfig.policy == ReplayPolicy::Random) {
            std::vector<int> feasible;
            for (int i = 0; i < nodes; ++i)
                if (fits(mNodes[static_cast<std::size_t>(i)], task))
                    feasible.push_back(i);
            if (feasible.empty())
                return {-1, -1};
            const int node = feasible[mRng.below(feasible.size())];
            if (!t.sharing())
                return {node, -1};
            std::vector<int> gpus;
            const ReplayNode& n = mNodes[static_cast<std::size_t>(node)];
            for (int g = 0; g < static_cast<int>(n.gpuFree.size()); ++g)
                if (n.gpuFree[static_cast<std::size_t>(g)] >= t.gpuMilli)
                    gpus.push_back(g);
            return {node, gpus[mRng.below(gpus.size())]};
        }
        int bestNode = -1, bestGpu = -1;
        long long bestScore = std::numeric_limits<long long>::min();
        for (int i = 0; i < nodes; ++i) {
            ReplayNode& n = mNodes[static_cast<std::size_t>(i)];
            if (!fits(n, task))
                continue;
            const auto [score, gpu] = scoreOf(n, t);
            if (score > bestScore || (score == bestScore && n.name < mNodes[static_cast<std::size_t>(bestNode)].name)) {
                bestScore = score;
                bestNode = i;
                bestGpu = gpu;
            }
        }
        return {bestNode, bestGpu};
    }

    /// A policy's score of a feasible node for a task and the GPU it would give a sharing task
    /// there (-1: whole GPUs, the first free ones, or none).
    std::pair<long long, int> scoreOf(ReplayNode& n, const TraceTask& t)
    {
        constexpr long long kMax = 100;        // framework.MaxNodeScore
        constexpr double kMaxSpecCpu = 128000; // the artifact's MaxSpecCpu, milli-CPU
        constexpr double kMaxSpecGpu = 8000;   // MaxSpecGpu, milli-GPU
        const long long freeGpu = n.freeMilli();
        const double gpuReq = t.gpuRequestMilli();
        // The GPU the heuristics give a sharing task (FGD chooses its own; not scanned for it).
        const int bestFit = t.sharing() && mConfig.policy != ReplayPolicy::Fgd ? bestFitGpu(n, t.gpuMilli) : -1;
        switch (mConfig.policy) {
        case ReplayPolicy::DotProd: {
            // dot_product_score.go with dimExtMethod merge, normMethod max: 1 − the dot product
            // of the node's free [CPU, GPU] and the request, each over the largest node's.
            const double dot = (n.cpuFree / kMaxSpecCpu) * (t.cpuMilli / kMaxSpecCpu) +
                               (static_cast<double>(freeGpu) / kMaxSpecGpu) * (gpuReq / kMaxSpecGpu);
            return {static_cast<long long>(static_cast<double>(kMax) * (1.0 - dot / 2.0)), bestFit};
        }
        case ReplayPolicy::Clustering: {
            // gpu_clustering_score.go: nodes holding only this task's affinity, then nodes with
            // it among others, then empty nodes, then the rest; within a band the fuller node.
            const int tag = affinityTag(t);
            if (tag < 0)
                return {0, bestFit};
            const long long fill =
                kMax / 4 * (static_cast<long long>(kMaxSpecGpu) - freeGpu) / static_cast<long long>(kMaxSpecGpu);
            long long band = 0;
            if (n.tags.count(tag))
                band = n.tags.size() == 1 ? kMax * 3 / 4 : kMax * 2 / 4;
            else
                band = n.tags.empty() ? kMax / 4 : 0;
            return {fill + band, bestFit};
        }
        case ReplayPolicy::Packing: return {packingScore(n, t), bestFit};
        case ReplayPolicy::BestFit: {
            // best_fit_score.go: 1 − (CPU and GPU left after placing, each over the largest
            // node's, weighted one half each), as 0–100.
            const double left = (n.cpuFree - t.cpuMilli) / kMaxSpecCpu * 0.5 +
                                (static_cast<double>(freeGpu) - gpuReq) / kMaxSpecGpu * 0.5;
            return {static_cast<long long>((1.0 - left) * static_cast<double>(kMax)), bestFit};
        }
        case ReplayPolicy::Fgd: {
            // Most tasks share a few shapes: the node's score for one is kept until the node changes.
            const long long shape = (static_cast<long long>(t.numGpu) * 1001 + t.gpuMilli) * 200'000'001LL + t.cpuMilli;
            if (auto it = n.fgdScores.find(shape); it != n.fgdScores.end())
                return it->second;
            return n.fgdScores.emplace(shape, fgdScore(n, t)).first->second;
        }
        case ReplayPolicy::Random: break;
        }
        return {0, bestFit};
    }

    /// gpu_packing_score.go: a sharing task onto already shared GPUs first (the fuller the
    /// better), then onto free GPUs of a used node (the fewer the better), then an idle node
    /// (the fewer GPUs the better); CPU-only tasks score nothing.
    static long long packingScore(const ReplayNode& n, const TraceTask& t)
    {
        constexpr long long kMax = 100;
        if (t.numGpu == 0)
            return 0;
        const long long fullyFree = n.fullFree();
        if (fullyFree == static_cast<long long>(n.gpuFree.size()))
            return std::max(kMax / 3 - fullyFree, fullyFree);
        // GPUs by free share, least first (a node has at most 64: no allocation in this hot loop).
        std::array<int, 64> order{};
        const auto gpus = static_cast<std::ptrdiff_t>(std::min<std::size_t>(n.gpuFree.size(), order.size()));
        for (std::ptrdiff_t g = 0; g < gpus; ++g)
            order[static_cast<std::size_t>(g)] = static_cast<int>(g);
        std::stable_sort(order.begin(), order.begin() + gpus, [&n](int a, int b) {
            return n.gpuFree[static_cast<std::size_t>(a)] < n.gpuFree[static_cast<std::size_t>(b)];
        });
        const int milli = t.sharing() ? t.gpuMilli : kWholeGpu;
        int wanted = t.numGpu;
        long long fullyFreeUsed = 0, freeRatio = 0;
        for (auto it = order.begin(); it != order.begin() + gpus; ++it) {
            const int g = *it;
            if (wanted == 0)
                break;
            const int f = n.gpuFree[static_cast<std::size_t>(g)];
            if (milli <= f) {
                --wanted;
                fullyFreeUsed += f == kWholeGpu ? 1 : 0;
                freeRatio += static_cast<long long>(f) * 100 / kWholeGpu;
            }
        }
        if (wanted != 0)
            return 0;
        if (fullyFreeUsed > 0)
            return std::max(kMax / 2 - fullyFreeUsed, kMax / 3);
        return std::max(kMax - freeRatio / 10, kMax / 2);
    }

    /// fgd_score.go: ⌊sigmoid((fragmentation before − after) / 1000) × 100⌋; a sharing task tries
    /// each GPU it fits on and keeps the first with the best score, other tasks take their GPUs
    /// as the artifact's NodeResource.Sub does (the least free that suffice, i.e. free whole GPUs
    /// in order) and CPU.
    std::pair<long long, int> fgdScore(ReplayNode& n, const TraceTask& t)
    {
        auto scoreAfter = [&](int gpu) {
            takeResources(n, t, gpu, mTaken);
            const double after = fragmentation(n, mGroups, mAdmitted);
            takeResources(n, t, gpu, mTaken, true);
            const double x = (n.frag - after) / 1000.0;
            return static_cast<long long>(1.0 / (1.0 + std::exp(-x)) * 100.0);
        };
        if (!t.sharing())
            return {scoreAfter(-1), -1};
        long long best = 0;
        int bestGpu = -1;
        std::array<int, 16> tried{};
        std::size_t triedCount = 0;
        for (int g = 0; g < static_cast<int>(n.gpuFree.size()); ++g) {
            const int f = n.gpuFree[static_cast<std::size_t>(g)];
            if (f < t.gpuMilli)
                continue;
            // GPUs with the same free share leave the node alike: the first of them stands for all.
            if (std::find(tried.begin(), tried.begin() + static_cast<std::ptrdiff_t>(triedCount), f) !=
                tried.begin() + static_cast<std::ptrdiff_t>(triedCount))
                continue;
            if (triedCount < tried.size())
                tried[triedCount++] = f;
            const long long score = scoreAfter(g);
            if (bestGpu < 0 || score > best) {
                best = score;
                bestGpu = g;
            }
        }
        return {best, bestGpu};
    }

    ReplayConfig mConfig;
    Random mRng;
    std::vector<int> mTaken; // scratch for takeResources
    std::vector<ReplayNode> mNodes;
    std::vector<Group> mGroups;
    AdmittedWeights mAdmitted{mGroups};
    std::map<std::string, int> mModels;
    long long mCapacity = 0;
    double mFrag = 0.0;
};

} // namespace

double expectedReplayTasks(const std::vector<TraceTask>& tasks, double gpuCapacityMilli, double inflate)
{
    double request = 0.0;
    for (const TraceTask& t : tasks)
        request += t.gpuRequestMilli();
    if (request <= 0.0 || tasks.empty())
        return static_cast<double>(tasks.size());
    const double mean = request / static_cast<double>(tasks.size());
    return std::max(static_cast<double>(tasks.size()), inflate * gpuCapacityMilli / mean);
}

ReplayResult replayTrace(const std::vector<TraceNode>& nodes, const std::vector<TraceTask>& tasks,
                         const ReplayConfig& config)
{
    const auto start = std::chrono::steady_clock::now();
    Replayer replayer(nodes, tasks, config);
    ReplayResult r = replayer.run(tasks);
    r.elapsedMs = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    return r;
}

} // namespace gp::sim
