// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#include "clicontext.h"
#include "io/textformat.h"

#include "calc/comparison.h"

#include "calc/evaluate.h"
#include "io/scenarioreader.h"
#include "sim/simulation.h"
#include "sim/timeline.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

namespace gp::cli {

namespace {

QJsonObject pct(const sim::Percentiles& p, bool withTails = true)
{
    QJsonObject o{{"p50", p.p50}, {"p95", p.p95}};
    if (withTails) {
        o["p5"] = p.p5;
        o["p99"] = p.p99;
    }
    return o;
}

} // namespace

int runSimulate(const QStringList& args)
{
    CommandLine cl("simulate", "Monte Carlo of each job's whole run on its placement: step-time jitter, co-tenants' "
                               "bursts on shared GPUs, joint memory peaks on GPUs without memory isolation "
                               "(out-of-memory kills), link congestion between jobs, and hardware interruptions "
                               "with restart from the last checkpoint (docs/model-reference.md#simulation).");
    auto& p = cl.parser();
    p.addPositionalArgument("FILE", "Scenario JSON file.", "FILE");
    p.addOption({"trials", "Trials (default 1000).", "N"});
    p.addOption({"seed", "Seed (default 1): the same seed on the same backend gives the same output.", "S"});
    p.addOption({"backend", "cpu, cuda or auto (default: CUDA when a GPU is present).", "cpu|cuda|auto"});
    p.addOption({"horizon-days", "Also run the timeline (discrete-event) simulation over D days.", "D"});
    p.addOption({"defrag-threshold",
                 "With --horizon-days: also run it with defragmentation above this "
                 "fragmentation (0-1), and show both.",
                 "F"});
    p.addOption({"json", "Print JSON."});
    if (auto done = cl.parse(args))
        return *done;
    if (p.positionalArguments().size() != 1) {
        err() << cl.usageError("give one FILE") << Qt::endl;
        return kBadInput;
    }
    std::optional<sim::TimelineConfig> timeline;
    if (p.isSet("horizon-days")) {
        bool ok = false;
        sim::TimelineConfig tc;
        tc.horizonDays = p.value("horizon-days").toDouble(&ok);
        if (!ok || !(tc.horizonDays > 0) || tc.horizonDays > 3650) {
            err() << cl.usageError("--horizon-days must be a number of days above 0 and at most 3650") << Qt::endl;
            return kBadInput;
        }
        tc.sampleHours = std::max(1.0, tc.horizonDays * 24.0 / 500.0);
        timeline = tc;
    }
    std::optional<double> defrag;
    if (p.isSet("defrag-threshold")) {
        bool ok = false;
        defrag = p.value("defrag-threshold").toDouble(&ok);
        if (!ok || !(*defrag >= 0 && *defrag <= 1) || !timeline) { // NaN fails every comparison
            err() << cl.usageError("--defrag-threshold needs --horizon-days and a fraction from 0 to 1") << Qt::endl;
            return kBadInput;
        }
    }
    sim::SimulationConfig cfg;
    if (p.isSet("trials")) {
        bool ok = false;
        cfg.trials = p.value("trials").toInt(&ok);
        if (!ok || cfg.trials < 1 || cfg.trials > 10'000'000) {
            err() << cl.usageError("--trials must be from 1 to 10000000") << Qt::endl;
            return kBadInput;
        }
    }
    if (!cl.readSeed(cfg.seed))
        return kBadInput;
    if (timeline)
        timeline->seed = cfg.seed;
    const QString backend = p.isSet("backend") ? p.value("backend") : "auto";
    if (backend == "cpu")
        cfg.backend = sim::Backend::Cpu;
    else if (backend == "cuda")
        cfg.backend = sim::Backend::Cuda;
    else if (backend != "auto") {
        err() << cl.usageError("--backend must be cpu, cuda or auto") << Qt::endl;
        return kBadInput;
    }
    auto catalog = loadCatalogOrReport(p);
    if (!catalog)
        return kFailure;
    const QString file = p.positionalArguments().first();
    const io::ScenarioReadResult r = io::readScenarioFile(file, *catalog);
    for (const Issue& i : r.issues)
        err() << formatIssue(file, i) << '\n';
    if (!r.ok())
        return kBadInput;
    const calc::Evaluation ev = calc::evaluate(*r.value, *catalog);
    const sim::SimulationResult res = sim::simulate(*r.value, *catalog, ev, cfg);
    if (res.backend == "none") {
        err() << "gpuplan-cli simulate: the CUDA backend is not usable: " << QString::fromStdString(res.backendNote)
              << Qt::endl;
        return kFailure;
    }
    std::optional<sim::TimelineResult> plain, defragmented;
    if (timeline) {
        plain = sim::runTimeline(*r.value, *catalog, ev, *timeline);
        if (defrag) {
            sim::TimelineConfig tc = *timeline;
            tc.defragThreshold = defrag;
            defragmented = sim::runTimeline(*r.value, *catalog, ev, tc);
        }
    }
    auto timelineJson = [](const sim::TimelineResult& t) {
        QJsonArray hours, alloc, vram, frag, queued;
        for (const auto& pt : t.series) {
            hours.append(pt.hours);
            alloc.append(pt.allocation);
            vram.append(pt.vramUtilization);
            frag.append(pt.fragmentation);
            queued.append(pt.queued);
        }
        QJsonArray jobs;
        for (const auto& j : t.jobs)
            jobs.append(
                QJsonObject{{"id", QString::fromStdString(j.id)},
                            {"arrival_h", j.arrivalH},
                            {"start_h", j.startH ? QJsonValue(*j.startH) : QJsonValue(QJsonValue::Null)},
                            {"wait_h", j.startH ? QJsonValue(*j.startH - j.arrivalH) : QJsonValue(QJsonValue::Null)},
                            {"end_h", j.endH ? QJsonValue(*j.endH) : QJsonValue(QJsonValue::Null)},
                            {"migrations", j.migrations}});
        return QJsonObject{{"hours", hours},
                           {"allocation", alloc},
                           {"vram_utilization", vram},
                           {"fragmentation", frag},
                           {"queued", queued},
                           {"jobs", jobs},
                           {"mean_wait_h", t.meanWaitH},
                           {"started", t.started},
                           {"max_queued", t.maxQueued},
                           {"migrations", t.migrations},
                           {"mean_allocation", t.meanAllocation},
                           {"mean_fragmentation", t.meanFragmentation}};
    };
    if (!res.backendNote.empty() && backend == "auto")
        err() << "simulate: using the CPU (" << QString::fromStdString(res.backendNote) << ")" << Qt::endl;

    if (p.isSet("json")) {
        QJsonArray jobs, gpus, links, tenants;
        for (const auto& j : res.jobs) {
            QJsonObject o{{"id", QString::fromStdString(j.id)},
                          {"tenant", QString::fromStdString(j.tenant)},
                          {"slowdown", pct(j.slowdown, false)}};
            if (j.training) {
                QJsonArray hist;
                for (int c : j.histogram)
                    hist.append(c);
                o["completion_days"] = pct(j.completionDays);
                o["deadline_miss_probability"] = j.deadlineMissProbability;
                o["histogram"] =
                    QJsonObject{{"min_days", j.histogramMinDays}, {"max_days", j.histogramMaxDays}, {"counts", hist}};
            } else {
                o["completion_days"] = QJsonValue(QJsonValue::Null);
                o["deadline_miss_probability"] = QJsonValue(QJsonValue::Null);
            }
            if (j.serving) {
                const auto latency = [](const sim::Percentiles& q, bool saturated) {
                    const auto v = [&](double x) {
                        return saturated || x >= 1e29 ? QJsonValue(QJsonValue::Null) : QJsonValue(x);
                    };
                    return QJsonObject{{"p50", v(q.p50)}, {"p95", v(q.p95)}, {"p99", v(q.p99)}};
                };
                o["ttft_s"] = latency(j.ttftS, j.saturated);
                o["itl_s"] = latency(j.itlS, false);
                o["slo_miss_probability"] = j.sloMissProbability;
                o["ttft_slo_miss_probability"] = j.ttftSloMissProbability;
                o["itl_slo_miss_probability"] = j.itlSloMissProbability;
            } else {
                o["ttft_s"] = o["itl_s"] = o["slo_miss_probability"] = QJsonValue(QJsonValue::Null);
            }
            jobs.append(o);
        }
        for (const auto& g : res.gpus)
            gpus.append(QJsonObject{{"node", QString::fromStdString(g.node)},
                                    {"gpu", g.gpu},
                                    {"oom_probability", g.oomProbability},
                                    {"peak_memory_bytes", pct(g.peakBytes)},
                                    {"capacity_bytes", g.capacityBytes}});
        for (const auto& l : res.links)
            links.append(QJsonObject{{"id", QString::fromStdString(l.id)},
                                     {"load_gbps", pct(l.loadGbps)},
                                     {"congested_fraction", l.congestedFraction}});
        for (const auto& t : res.tenants)
            tenants.append(QJsonObject{{"id", QString::fromStdString(t.id)},
                                       {"worst_p95_days", t.worstP95Days},
                                       {"deadline_miss_probability", t.deadlineMissProbability}});
        const QJsonObject o{{"backend", QString::fromStdString(res.backend)},
                            {"trials", res.trials},
                            {"seed", static_cast<double>(res.seed)},
                            {"jobs", jobs},
                            {"gpus", gpus},
                            {"links", links},
                            {"tenants", tenants},
                            {"cluster_p95_days", res.clusterP95Days},
                            {"timeline", plain ? QJsonValue(timelineJson(*plain)) : QJsonValue(QJsonValue::Null)},
                            {"timeline_with_defrag",
                             defragmented ? QJsonValue(timelineJson(*defragmented)) : QJsonValue(QJsonValue::Null)},
                            {"elapsed_ms", res.elapsedMs},
                            {"trials_per_second", res.trialsPerSecond}};
        out() << QJsonDocument(o).toJson(QJsonDocument::Indented) << Qt::flush;
        return kOk;
    }
    out() << QString::fromStdString(r.value->name) << ": " << res.trials << " trials on "
          << QString::fromStdString(res.backend) << ", seed " << res.seed << ", "
          << QString::number(res.elapsedMs, 'f', 0) << " ms (" << QString::number(res.trialsPerSecond, 'f', 0)
          << " trials/s)\n";
    out() << QString("  %1 %2 %3 %4 %5 %6 %7\n")
                 .arg("JOB", -24)
                 .arg("P5 DAYS", 9)
                 .arg("P50", 8)
                 .arg("P95", 8)
                 .arg("P99", 8)
                 .arg("MISS", 7)
                 .arg("SLOWDOWN P95", 13);
    for (const auto& j : res.jobs)
        out() << QString("  %1 %2 %3 %4 %5 %6 %7\n")
                     .arg(QString::fromStdString(j.id).left(24), -24)
                     .arg(j.training ? QString::number(j.completionDays.p5, 'f', 2) : "-", 9)
                     .arg(j.training ? QString::number(j.completionDays.p50, 'f', 2) : "-", 8)
                     .arg(j.training ? QString::number(j.completionDays.p95, 'f', 2) : "-", 8)
                     .arg(j.training ? QString::number(j.completionDays.p99, 'f', 2) : "-", 8)
                     .arg(j.training ? fmt::text::percent(j.deadlineMissProbability) : "-", 7)
                     .arg(QString::number(j.slowdown.p95, 'f', 3), 13);
    const auto ms = [](double s) { return fmt::text::latency(s); };
    for (const auto& j : res.jobs)
        if (j.serving)
            out() << "  " << QString::fromStdString(j.id) << ": TTFT P50/P95/P99 " << ms(j.ttftS.p50) << " / "
                  << ms(j.ttftS.p95) << " / " << ms(j.ttftS.p99) << ", ITL " << ms(j.itlS.p50) << " / "
                  << ms(j.itlS.p95) << " / " << ms(j.itlS.p99) << ", SLO missed by "
                  << QString::number(j.sloMissProbability * 100, 'f', 1) << "% of requests\n";
    for (const auto& g : res.gpus)
        if (g.oomProbability > 0)
            out() << "  " << QString::fromStdString(g.node) << " GPU " << g.gpu << ": out-of-memory in "
                  << QString::number(g.oomProbability * 100, 'f', 1) << "% of trials\n";
    int congested = 0;
    for (const auto& l : res.links)
        congested += l.congestedFraction > 0 ? 1 : 0;
    out() << "  " << res.links.size() << " links carry traffic, " << congested << " congested at times\n";
    auto summary = [&](const char* label, const sim::TimelineResult& t) {
        out() << "  timeline " << label << ": " << t.started << " of " << t.jobs.size() << " jobs started, mean wait "
              << QString::number(t.meanWaitH, 'f', 1) << " h, max queue " << t.maxQueued << ", mean allocation "
              << QString::number(t.meanAllocation * 100, 'f', 1) << "%, mean fragmentation "
              << QString::number(t.meanFragmentation * 100, 'f', 1) << "%, " << t.migrations << " migrations\n";
    };
    if (plain)
        summary("without defragmentation", *plain);
    if (defragmented)
        summary("with defragmentation", *defragmented);
    out() << Qt::flush;
    return kOk;
}

} // namespace gp::cli
