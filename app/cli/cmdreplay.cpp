// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#include "clicontext.h"

#include "io/tracereader.h"
#include "sim/replay.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#include <map>

namespace gp::cli {

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
    p.addOption({"policy", "Scheduling policy (default fgd).", "random|dotprod|clustering|packing|bestfit|fgd"});
    p.addOption({"inflate", "Arrived GPU request as a multiple of capacity (default 1.3).", "X"});
    p.addOption({"seed", "Seed of the draw, the shuffle and the random policy (default 1).", "S"});
    p.addOption({"json", "Print JSON."});
    if (auto done = cl.parse(args))
        return *done;
    if (!p.isSet("nodes") || !p.isSet("tasks")) {
        err() << cl.usageError("--nodes CSV and --tasks CSV are required") << Qt::endl;
        return kBadInput;
    }
    const std::map<QString, sim::ReplayPolicy> policies{
        {"random", sim::ReplayPolicy::Random},         {"dotprod", sim::ReplayPolicy::DotProd},
        {"clustering", sim::ReplayPolicy::Clustering}, {"packing", sim::ReplayPolicy::Packing},
        {"bestfit", sim::ReplayPolicy::BestFit},       {"fgd", sim::ReplayPolicy::Fgd}};
    const QString policyName = p.isSet("policy") ? p.value("policy") : "fgd";
    if (!policies.count(policyName)) {
        err() << cl.usageError("--policy must be random, dotprod, clustering, packing, bestfit or fgd") << Qt::endl;
        return kBadInput;
    }
    sim::ReplayConfig cfg;
    cfg.policy = policies.at(policyName);
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
    auto nodes = io::readTraceNodes(p.value("nodes"));
    auto tasks = io::readTraceTasks(p.value("tasks"));
    for (const Issues* issues : {&nodes.issues, &tasks.issues})
        for (const Issue& i : *issues)
            err() << QString::fromStdString(i.toString()) << '\n';
    err() << Qt::flush;
    if (!nodes || !tasks)
        return kBadInput;

    const sim::ReplayResult r = sim::replayTrace(*nodes, *tasks, cfg);
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
