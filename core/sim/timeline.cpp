// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#include "timeline.h"

#include "calc/fabricindex.h"
#include "calc/placement.h"
#include "calc/slots.h"
#include "model/assumptions.h"
#include "model/calibratedplan.h"
#include "simkernel.h"

#include <cmath>

#include <algorithm>
#include <map>
#include <numeric>

namespace gp::sim {

namespace {

struct Run
{
    calc::JobDemand demand;
    int tenantPriority = 0;
    double arrivalH = 0;
    double durationH = 0;
    std::vector<int> slots; // while running
    TimelineJob record;
};

} // namespace

TimelineResult runTimeline(const Scenario& s, const Catalog& c, const calc::Evaluation& ev, const TimelineConfig& cfg)
{
    if (s.calibration)
        return withOwnCalibration(s, c,
                                  [&](const Scenario& cs, const Catalog& cc) { return runTimeline(cs, cc, ev, cfg); });
    const double horizonH = cfg.horizonDays * 24.0;
    const double restartH = assumptionValue(s.assumptions, "restart_overhead_min") / 60.0;
    const std::vector<calc::Slot> slots = calc::buildSlots(s, c);
    const calc::FabricIndex fabric = calc::FabricIndex::build(s.topology);
    double gpus = 0.0, totalVram = 0.0;
    for (const calc::GpuResult& g : ev.gpus) {
        gpus += 1.0;
        totalVram += g.capacityBytes;
    }
    std::map<std::string, const calc::JobResult*> results;
    for (const auto& r : ev.jobs)
        results[r.id] = &r;

    std::vector<Run> runs;
    for (int t = 0; t < static_cast<int>(s.tenants.size()); ++t)
        for (int j = 0; j < static_cast<int>(s.tenants[static_cast<std::size_t>(t)].jobs.size()); ++j) {
            const Job& job = s.tenants[static_cast<std::size_t>(t)].jobs[static_cast<std::size_t>(j)];
            const calc::JobResult* r = results.count(job.id) ? results[job.id] : nullptr;
            Run run;
            run.demand = {.tenant = t,
                          .job = j,
                          .tp = std::max(job.parallelism.tp, 1),
                          .groups = std::max(job.parallelism.pp, 1) * std::max(job.parallelism.dp, 1) *
                                    std::max(job.parallelism.cp, 1),
                          .alignGroups = std::max(job.parallelism.cp, 1) * std::max(job.parallelism.ep, 1),
                          .bytesPerUnit = r ? r->memory.totalBytes() : 0.0,
                          .pin = job.pin};
            run.tenantPriority = s.tenants[static_cast<std::size_t>(t)].priority;
            run.arrivalH = job.schedule.arrivalH;
            if (job.schedule.durationH > 0)
                run.durationH = job.schedule.durationH;
            else if (r && r->placed && r->perf.daysToComplete)
                run.durationH = *r->perf.daysToComplete * 24.0;
            else
                run.durationH = horizonH; // serving, or no estimate: runs to the horizon
            run.record.id = job.id;
            run.record.arrivalH = run.arrivalH;
            runs.push_back(run);
        }
    // Generated arrivals: exponential gaps at the tenant's rate, lognormal durations.
    for (std::size_t t = 0; t < s.tenants.size(); ++t) {
        const auto& a = s.tenants[t].arrivals;
        if (!a)
            continue;
        const auto tmpl = std::find_if(runs.begin(), runs.end(), [&](const Run& r) {
            return r.demand.tenant == static_cast<int>(t) && r.record.id == a->templateJob;
        });
        if (tmpl == runs.end())
            continue;
        const Run base = *tmpl;
        TrialRandom rng{static_cast<std::uint32_t>(cfg.seed), static_cast<std::uint32_t>(cfg.seed >> 32), 0,
                        0xC0000000u + static_cast<std::uint32_t>(t), 0};
        double at = 0.0;
        for (int k = 1;; ++k) {
            at += -std::log(1.0 - rng.uniform()) * 24.0 / a->jobsPerDay;
            if (at > horizonH || k > 1'000'000)
                break;
            Run copy = base;
            copy.arrivalH = at;
            copy.durationH = a->durationMedianH * std::exp(a->durationSigma * rng.normal());
            copy.record = TimelineJob{a->templateJob + "#" + std::to_string(k), at, std::nullopt, std::nullopt, 0};
            runs.push_back(copy);
        }
    }
    std::vector<calc::JobDemand> all;
    for (const Run& r : runs)
        all.push_back(r.demand);
    const calc::FragmentationView fragView(s, c, slots, all);

    std::vector<int> owner(slots.size(), -1); // run index per slot
    std::vector<int> queue;
    TimelineResult out;
    auto sample = [&](double t) {
        TimelinePoint p;
        p.hours = t;
        double held = 0.0, used = 0.0;
        std::vector<double> usedBytes(slots.size(), 0.0);
        for (std::size_t i = 0; i < slots.size(); ++i)
            if (owner[i] >= 0) {
                const double bytes = runs[static_cast<std::size_t>(owner[i])].demand.bytesPerUnit;
                usedBytes[i] = bytes;
                held += slots[i].gpuFraction;
                used += std::min(bytes, slots[i].capacityBytes);
            }
        const calc::FragmentationView::Totals frag = fragView.cluster(owner, usedBytes);
        p.allocation = gpus > 0 ? held / gpus : 0.0;
        p.vramUtilization = totalVram > 0 ? used / totalVram : 0.0;
        p.fragmentation = frag.free > 0 ? frag.unusable / frag.free : 0.0;
        p.queued = static_cast<int>(queue.size());
        p.running =
            static_cast<int>(std::count_if(runs.begin(), runs.end(), [](const Run& r) { return !r.slots.empty(); }));
        out.series.push_back(p);
    };
    auto byPriority = [&](std::vector<int>& ids) {
        std::stable_sort(ids.begin(), ids.end(), [&](int a, int b) {
            const Run& x = runs[static_cast<std::size_t>(a)];
            const Run& y = runs[static_cast<std::size_t>(b)];
            if (x.tenantPriority != y.tenantPriority)
                return x.tenantPriority > y.tenantPriority;
            return x.arrivalH < y.arrivalH;
        });
    };
    auto start = [&](int id, const std::vector<int>& jobSlots, double t) {
        Run& r = runs[static_cast<std::size_t>(id)];
        r.slots = jobSlots;
        for (int sIdx : jobSlots)
            owner[static_cast<std::size_t>(sIdx)] = id;
        r.record.startH = t;
        r.record.endH = t + r.durationH;
    };
    // Places as much of the queue as fits on the free slots; returns how many started.
    auto placeQueue = [&](double t) {
        byPriority(queue);
        std::vector<calc::JobDemand> demands;
        for (int id : queue)
            demands.push_back(runs[static_cast<std::size_t>(id)].demand);
        const calc::PlacementOutcome po = calc::placeJobs(s, c, fabric, slots, demands, s.placementPolicy, &owner);
        std::vector<int> waiting;
        int started = 0;
        for (std::size_t k = 0; k < queue.size(); ++k) {
            if (po.jobs[k].placed) {
                start(queue[k], po.jobs[k].slots, t);
                ++started;
            } else {
                waiting.push_back(queue[k]);
            }
        }
        queue = waiting;
        return started;
    };
    // Repacks running jobs and the queue from scratch; kept only if it helps (then true).
    auto defragment = [&](double t) {
        std::vector<int> running;
        for (int i = 0; i < static_cast<int>(runs.size()); ++i)
            if (!runs[static_cast<std::size_t>(i)].slots.empty())
                running.push_back(i);
        std::sort(running.begin(), running.end(), [&](int a, int b) {
            const auto& x = runs[static_cast<std::size_t>(a)].demand;
            const auto& y = runs[static_cast<std::size_t>(b)].demand;
            return x.tp * x.groups > y.tp * y.groups;
        });
        std::vector<int> order = running;
        order.insert(order.end(), queue.begin(), queue.end());
        std::vector<calc::JobDemand> demands;
        for (int id : order)
            demands.push_back(runs[static_cast<std::size_t>(id)].demand);
        // Repack by best fit: consolidation is the point of moving jobs.
        const calc::PlacementOutcome po = calc::placeJobs(s, c, fabric, slots, demands, PlacementPolicy::BestFit);
        int newlyStarted = 0;
        for (std::size_t k = 0; k < order.size(); ++k) {
            if (k < running.size() && !po.jobs[k].placed)
                return false; // a running job would lose its place: keep things as they are
            newlyStarted += k >= running.size() && po.jobs[k].placed ? 1 : 0;
        }
        if (newlyStarted == 0)
            return false;
        std::fill(owner.begin(), owner.end(), -1);
        std::vector<int> waiting;
        for (std::size_t k = 0; k < order.size(); ++k) {
            const int id = order[k];
            Run& r = runs[static_cast<std::size_t>(id)];
            if (k < running.size()) {
                if (po.jobs[k].slots != r.slots) {
                    ++r.record.migrations;
                    ++out.migrations;
                    *r.record.endH += restartH; // moved at its checkpoint, paying a restart
                }
                r.slots = po.jobs[k].slots;
                for (int sIdx : r.slots)
                    owner[static_cast<std::size_t>(sIdx)] = id;
            } else if (po.jobs[k].placed) {
                start(id, po.jobs[k].slots, t + restartH);
            } else {
                waiting.push_back(id);
            }
        }
        queue = waiting;
        return true;
    };

    // Event loop: arrivals and completions, plus regular samples.
    std::vector<int> byArrival(runs.size());
    std::iota(byArrival.begin(), byArrival.end(), 0);
    std::stable_sort(byArrival.begin(), byArrival.end(), [&](int a, int b) {
        return runs[static_cast<std::size_t>(a)].arrivalH < runs[static_cast<std::size_t>(b)].arrivalH;
    });
    std::size_t nextArrival = 0;
    double nextSample = 0.0;
    double t = 0.0;
    // Whether a completion, an arrival or a repack happened since the queue last failed to place.
    // Without one the same queue meets the same free slots and places nothing again (a job that
    // did not fit did not fit on more free slots), so the placement is skipped: at 12,500 nodes it
    // ran at every hourly sample over every slot of the cluster.
    bool changed = true;
    while (t <= horizonH) {
        for (Run& r : runs) // completions
            if (!r.slots.empty() && r.record.endH && *r.record.endH <= t) {
                for (int sIdx : r.slots)
                    owner[static_cast<std::size_t>(sIdx)] = -1;
                r.slots.clear();
                changed = true;
            }
        while (nextArrival < byArrival.size() && runs[static_cast<std::size_t>(byArrival[nextArrival])].arrivalH <= t) {
            queue.push_back(byArrival[nextArrival++]);
            changed = true;
        }
        if (!queue.empty() && (changed || cfg.retryUnchangedQueue)) {
            placeQueue(t);
            changed = false;
            if (!queue.empty() && cfg.defragThreshold) {
                sample(t);
                const double frag = out.series.back().fragmentation;
                out.series.pop_back();
                if (frag > *cfg.defragThreshold)
                    changed = defragment(t);
            }
        }
        if (t >= nextSample - 1e-9) {
            sample(t);
            nextSample += cfg.sampleHours;
        }
        out.maxQueued = std::max(out.maxQueued, static_cast<int>(queue.size()));
        // The next event: an arrival, a completion or a sample.
        double next = std::min(nextSample, horizonH + 1.0);
        if (nextArrival < byArrival.size())
            next = std::min(next, runs[static_cast<std::size_t>(byArrival[nextArrival])].arrivalH);
        for (const Run& r : runs)
            if (!r.slots.empty() && r.record.endH)
                next = std::min(next, *r.record.endH);
        t = std::max(next, t + 1e-9);
    }
    double waitSum = 0.0, allocSum = 0.0, fragSum = 0.0;
    for (const Run& r : runs) {
        out.jobs.push_back(r.record);
        if (r.record.startH) {
            ++out.started;
            waitSum += *r.record.startH - r.arrivalH;
        }
    }
    out.meanWaitH = out.started > 0 ? waitSum / out.started : 0.0;
    // Time-weighted means over the regular samples.
    int regular = 0;
    for (const TimelinePoint& p : out.series) {
        allocSum += p.allocation;
        fragSum += p.fragmentation;
        ++regular;
    }
    out.meanAllocation = regular > 0 ? allocSum / regular : 0.0;
    out.meanFragmentation = regular > 0 ? fragSum / regular : 0.0;
    return out;
}

} // namespace gp::sim
