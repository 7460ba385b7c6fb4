// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#include "clicontext.h"

#include "io/clusterconfigwriter.h"
#include "io/scenarioreader.h"
#include "sim/replay.h"
#include "sim/replaysummary.h"
#include "study/replayinput.h"
#include "ui/figures/replaycharts.h"

#include <QFileInfo>

#include <QJsonArray>
#include <QJsonDocument>

#include <QJsonObject>
#include <optional>
#include <thread>

#include <map>

namespace gp::cli {

namespace {

QJsonObject spreadJson(const sim::Spread& s)
{
    QJsonArray mean, sd;
    for (std::size_t i = 0; i < s.mean.size(); ++i) {
        mean.append(s.mean[i]);
        sd.append(s.sd[i]);
    }
    return {{"mean", mean}, {"sd", sd}};
}

QJsonObject summaryJson(const sim::ReplaySummary& s, const QString& policy, double inflate)
{
    QJsonArray arrived;
    for (int a : s.arrivedPct)
        arrived.append(a);
    return {{"policy", policy},
            {"seeds",
             QJsonObject{{"first", static_cast<double>(s.seeds.first)}, {"last", static_cast<double>(s.seeds.last)}}},
            {"runs", static_cast<double>(s.seeds.count())},
            {"inflate", inflate},
            {"tasks_mean", s.tasksMean},
            {"arrived_pct", arrived},
            {"allocation_pct", spreadJson(s.allocationPct)},
            {"fragmentation_pct", spreadJson(s.fragmentationPct)},
            {"fragmentation_rate_pct", spreadJson(s.fragmentationRatePct)},
            {"failed_tasks_mean", s.failedTasksMean},
            {"elapsed_ms", s.elapsedMs}};
}

void printSummary(const sim::ReplaySummary& s, const QString& policy, double inflate)
{
    out() << "policy " << policy << ", seeds " << s.seeds.first << "-" << s.seeds.last << " (" << s.seeds.count()
          << " runs), inflate " << inflate << ": " << QString::number(s.tasksMean, 'f', 0) << " tasks, "
          << QString::number(s.failedTasksMean, 'f', 0) << " failed on average, "
          << QString::number(s.elapsedMs, 'f', 0) << " ms\n";
    out() << "  arrived%  allocated% (mean ± sd)  fragmented% (mean ± sd)\n";
    for (std::size_t i = 0; i < s.arrivedPct.size(); ++i)
        if (i % 10 == 0 || i + 1 == s.arrivedPct.size())
            out() << QString("  %1  %2 ± %3  %4 ± %5\n")
                         .arg(s.arrivedPct[i], 8)
                         .arg(s.allocationPct.mean[i], 10, 'f', 2)
                         .arg(s.allocationPct.sd[i], 4, 'f', 2)
                         .arg(s.fragmentationPct.mean[i], 13, 'f', 2)
                         .arg(s.fragmentationPct.sd[i], 4, 'f', 2);
    out() << Qt::flush;
}

} // namespace

int runReplay(const QStringList& args)
{
    CommandLine cl("replay",
                   "Replay the Alibaba GPU-sharing trace v2023 with the protocol of Weng et al., \"Beware of "
                   "Fragmentation\" (USENIX ATC '23) as the authors' simulator runs it: the task file, plus copies of "
                   "tasks drawn at random until their GPU request reaches INFLATE x the cluster's GPU capacity, "
                   "shuffled, placed one at a time by the policy's integer score (ties to the first node by name), "
                   "none departing; a task that fits nowhere fails. Prints allocation and fragmentation against "
                   "the arrived GPU request (docs/validation.md).");
    auto& p = cl.parser();
    p.addOption({"nodes", "Node list CSV (sn,cpu_milli,memory_mib,gpu,model).", "CSV"});
    p.addOption({"tasks", "Task list CSV (11- or 5-column form).", "CSV"});
    p.addOption({"scenario",
                 "Replay a scenario's own cluster and job mix instead of a trace: each job a task of the GPU share "
                 "its memory needs, or of its whole GPUs (docs/validation.md).",
                 "FILE"});
    p.addOption(
        {"policy",
         "Scheduling policy (default fgd), a comma-separated list of them, or all (the six in the paper's order).",
         "random|dotprod|clustering|packing|bestfit|fgd|all"});
    p.addOption({"inflate", "Arrived GPU request as a multiple of capacity (default 1.3).", "X"});
    p.addOption({"seed", "Seed of the draw, the shuffle and the random policy (default 1).", "S"});
    p.addOption({"seeds",
                 "Replay once per seed of the range (the artifact's experiments: 42-51) and report the mean and "
                 "standard deviation at each arrived step; runs on every core.",
                 "A-B"});
    p.addOption({"json", "Print JSON."});
    p.addOption({"charts",
                 "Also write the allocation and fragmentation curves of every policy replayed as PNG and SVG, and "
                 "their numbers as CSV (replay.csv), into DIR.",
                 "DIR"});
    if (auto done = cl.parse(args))
        return *done;
    if (p.isSet("scenario") == (p.isSet("nodes") || p.isSet("tasks")) ||
        (!p.isSet("scenario") && !(p.isSet("nodes") && p.isSet("tasks")))) {
        err() << cl.usageError("give --nodes CSV and --tasks CSV, or --scenario FILE") << Qt::endl;
        return kBadInput;
    }
    auto policyOf = [](const QString& name) -> std::optional<sim::ReplayPolicy> {
        for (const sim::ReplayPolicyName& entry : sim::kReplayPolicies)
            if (name == entry.key)
                return entry.policy;
        return std::nullopt;
    };
    QStringList policyNames;
    const QString policyArg = p.isSet("policy") ? p.value("policy") : "fgd";
    if (policyArg == "all") // the six in the paper's order
        for (const sim::ReplayPolicyName& entry : sim::kReplayPolicies)
            policyNames << entry.key;
    else
        policyNames = policyArg.split(',', Qt::SkipEmptyParts);
    for (const QString& name : policyNames)
        if (!policyOf(name)) {
            err() << cl.usageError("--policy: '" + name +
                                   "' is not random, dotprod, clustering, packing, bestfit, fgd or all")
                  << Qt::endl;
            return kBadInput;
        }
    if (policyNames.isEmpty() || policyNames.removeDuplicates() > 0) {
        err() << cl.usageError("--policy: name each policy once") << Qt::endl;
        return kBadInput;
    }
    const QString policyName = policyNames.front();
    sim::ReplayConfig cfg;
    cfg.policy = *policyOf(policyName);
    if (p.isSet("inflate")) {
        bool ok = false;
        cfg.inflate = p.value("inflate").toDouble(&ok);
        if (!ok || !(cfg.inflate > 0) || cfg.inflate > 10) {
            err() << cl.usageError("--inflate must be a number above 0 and at most 10") << Qt::endl;
            return kBadInput;
        }
    }
    if (!cl.readSeed(cfg.seed))
        return kBadInput;
    std::optional<sim::SeedRange> seeds;
    if (p.isSet("seeds")) {
        if (p.isSet("seed")) {
            err() << cl.usageError("give --seed S or --seeds A-B, not both") << Qt::endl;
            return kBadInput;
        }
        sim::SeedRange range;
        if (const std::string why = sim::parseSeedRange(p.value("seeds").toStdString(), range); !why.empty()) {
            err() << cl.usageError("--seeds " + QString::fromStdString(why)) << Qt::endl;
            return kBadInput;
        }
        seeds = range;
    }
    study::ReplayInput input;
    if (p.isSet("scenario")) {
        auto catalog = loadCatalogOrReport(p);
        if (!catalog)
            return kFailure;
        io::ScenarioReadResult read = io::readScenarioFile(p.value("scenario"), *catalog);
        for (const Issue& i : read.issues)
            err() << formatIssue(p.value("scenario"), i) << '\n';
        if (!read.ok()) {
            err() << Qt::flush;
            return kBadInput;
        }
        input = study::scenarioInput(*read.value, *catalog, p.value("scenario"), cfg.inflate);
    } else {
        input = study::readTraceInput(p.value("nodes"), p.value("tasks"), cfg.inflate);
    }
    for (const Issue& i : input.issues)
        err() << QString::fromStdString(i.toString()) << '\n';
    err() << Qt::flush;
    if (!input.ok())
        return kBadInput;
    const QString& tasksName = input.name;
    const std::vector<TraceNode>& nodes = input.nodes;
    const std::vector<TraceTask>& tasks = input.tasks;

    if (seeds || policyNames.size() > 1 || p.isSet("charts")) {
        const sim::SeedRange range = seeds ? *seeds : sim::SeedRange{cfg.seed, cfg.seed};
        std::vector<std::pair<QString, sim::ReplaySummary>> summaries;
        for (const QString& name : policyNames) {
            cfg.policy = *policyOf(name);
            summaries.emplace_back(name,
                                   sim::replaySeeds(nodes, tasks, cfg, range, std::thread::hardware_concurrency()));
        }
        if (p.isSet("json")) {
            QJsonArray all;
            for (const auto& [name, summary] : summaries)
                all.append(summaryJson(summary, name, cfg.inflate));
            out() << QJsonDocument(all.size() == 1 ? all.first().toObject() : QJsonObject{{"policies", all}})
                         .toJson(QJsonDocument::Indented)
                  << Qt::flush;
        } else
            for (const auto& [name, summary] : summaries)
                printSummary(summary, name, cfg.inflate);
        if (p.isSet("charts")) {
            const QString title = QObject::tr("%1, seeds %2–%3")
                                      .arg(QFileInfo(tasksName).completeBaseName())
                                      .arg(range.first)
                                      .arg(range.last);
            if (const Status written = io::writeFiles(p.value("charts"), ui::replayChartFiles(summaries, title));
                !written) {
                err() << QString::fromStdString(written.errorText()) << Qt::endl;
                return kFailure;
            }
            if (!p.isSet("json"))
                out() << "charts written to " << p.value("charts") << Qt::endl;
        }
        return kOk;
    }
    const sim::ReplayResult r = sim::replayTrace(nodes, tasks, cfg);
    if (p.isSet("json")) {
        QJsonArray arrived, allocation, frag, rate;
        for (std::size_t i = 0; i < r.arrivedPct.size(); ++i) {
            arrived.append(r.arrivedPct[i]);
            allocation.append(r.allocationPct[i]);
            frag.append(r.fragmentationPct[i]);
            rate.append(r.fragmentationRatePct[i]);
        }
        const QJsonObject o{{"policy", policyName},          {"seed", static_cast<double>(cfg.seed)},
                            {"inflate", cfg.inflate},        {"tasks", r.tasks},
                            {"arrived_pct", arrived},        {"allocation_pct", allocation},
                            {"fragmentation_pct", frag},     {"fragmentation_rate_pct", rate},
                            {"failed_tasks", r.failedTasks}, {"elapsed_ms", r.elapsedMs}};
        out() << QJsonDocument(o).toJson(QJsonDocument::Indented) << Qt::flush;
        return kOk;
    }
    out() << "policy " << policyName << ", seed " << cfg.seed << ", inflate " << cfg.inflate << ": " << r.tasks
          << " tasks, " << r.failedTasks << " failed, " << QString::number(r.elapsedMs, 'f', 0) << " ms\n";
    out() << "  arrived%  allocated%  fragmented%  frag-rate%\n";
    for (std::size_t i = 0; i < r.arrivedPct.size(); i += 10)
        out() << QString("  %1  %2  %3  %4\n")
                     .arg(r.arrivedPct[i], 8)
                     .arg(r.allocationPct[i], 10, 'f', 1)
                     .arg(r.fragmentationPct[i], 11, 'f', 1)
                     .arg(r.fragmentationRatePct[i], 10, 'f', 1);
    out() << Qt::flush;
    return kOk;
}

} // namespace gp::cli
