// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
// gpuplan-cli optimize size and optimize plan: the sizing (study/sizing.h) and the plan
// search (calc/plansearch.h) of a whole scenario, from the command line.
#include "clicontext.h"
#include "jobmodeloptions.h"

#include "calc/plansearch.h"
#include "io/scenariowriter.h"
#include "model/format.h"
#include "model/limits.h"
#include "study/sizing.h"

#include <QDir>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#include <cmath>

namespace gp::cli {

namespace {

QJsonObject kpiSummary(const calc::Kpis& k)
{
    return QJsonObject{{"vram_utilization", k.vramUtilization}, {"mean_penalty", k.meanPenalty},
                       {"max_penalty", k.maxPenalty},           {"cost_per_month_usd", k.costPerMonthUsd},
                       {"fragmentation", k.fragmentation},      {"unplaced_jobs", k.unplacedJobs},
                       {"sla_violations", k.slaViolations},     {"meets_target", k.meetsTarget},
                       {"allocation_ratio", k.allocationRatio}};
}

/// --headroom-pct: a percentage from 0 to 90 (default 10); nullopt (said) otherwise.
std::optional<double> headroomOption(CommandLine& cl)
{
    const QCommandLineParser& p = cl.parser();
    if (!p.isSet("headroom-pct"))
        return 10.0;
    bool ok = false;
    const double pct = p.value("headroom-pct").toDouble(&ok);
    if (!ok || !std::isfinite(pct) || pct < 0.0 || pct > 90.0) {
        cl.refuse("--headroom-pct must be a percentage from 0 to 90, not '" + p.value("headroom-pct") + "'");
        return std::nullopt;
    }
    return pct;
}

/// The workbench's words (study::kHeadroomHelp), and the field of --json that shows it.
QString headroomHelp()
{
    return QString::fromUtf8(study::kHeadroomHelp) + " With --json: allocation_ratio at most 1 − P/100.";
}

QJsonObject changeJson(const calc::PlanChange& c)
{
    return QJsonObject{{"job", QString::fromStdString(c.job)},
                       {"field", QString::fromStdString(c.field)},
                       {"from", QString::fromStdString(c.from)},
                       {"to", QString::fromStdString(c.to)},
                       {"reason", QString::fromStdString(c.reason)}};
}

} // namespace

int runOptimizeSize(const QStringList& args)
{
    CommandLine cl("optimize size",
                   "The fewest nodes of a node template (the cheapest of several) that host every job of the scenario "
                   "within its tenant's SLA, on whole GPUs under a non-blocking leaf-spine fabric; with --growth and "
                   "--months, the nodes needed month by month and when the scenario's own cluster runs out "
                   "(docs/model-reference.md, \"Sizing\"). Writes the sized scenario to OUT.json.");
    auto& p = cl.parser();
    p.addOptions({
        {"template", "Candidate node templates (catalog ids), comma-separated.", "ID[,ID…]"},
        {"growth", "A tenant's load growth, % per month (repeatable): tenant=PCT.", "TENANT=PCT"},
        {"months", "Horizon of the capacity curve in months (default 0: none; at most 120).", "N"},
        {"headroom-pct",
         headroomHelp() + " Sizing adds nodes until that holds (and the current cluster runs out when it no "
                          "longer does).",
         "P"},
        {{"o", "output"}, "Write the sized scenario here (atomically).", "OUT.json"},
        {"json", "Print JSON."},
    });
    if (auto done = cl.parse(args))
        return *done;
    const QStringList files = p.positionalArguments();
    if (files.size() != 1)
        return cl.refuse("give one scenario FILE");
    if (!p.isSet("template"))
        return cl.refuse("give --template ID[,ID…]");
    if (!p.isSet("output"))
        return cl.refuse("give -o OUT.json");
    if (!outputIsNotAnInput(p, p.value("output"), files))
        return kBadInput;
    auto catalog = loadCatalogOrReport(p);
    if (!catalog)
        return kFailure;
    const std::optional<Scenario> read = readScenarioOrReport(files.front(), *catalog);
    if (!read)
        return kBadInput;
    study::SizingRequest request;
    for (const QString& id : p.value("template").split(',', Qt::SkipEmptyParts))
        request.templates.push_back(id.trimmed().toStdString());
    for (const QString& g : p.values("growth")) {
        const int eq = g.indexOf('=');
        bool ok = false;
        const double pct = eq > 0 ? g.mid(eq + 1).toDouble(&ok) : 0.0;
        if (eq <= 0 || !ok || !(pct >= 0.0 && pct <= limits::kMaxGrowthPctPerMonth))
            return cl.refuse(QString("--growth must be TENANT=PCT with PCT from 0 to %1 (% per month), not '%2'")
                                 .arg(limits::kMaxGrowthPctPerMonth)
                                 .arg(g));
        request.growthPct[g.left(eq).toStdString()] = pct;
    }
    const auto months = intOption(p, "months", 0, 0, 120, [&](const QString& m) { return cl.refuse(m); });
    if (!months)
        return kBadInput;
    request.months = *months;
    const auto headroom = headroomOption(cl);
    if (!headroom)
        return kBadInput;
    request.headroomPct = *headroom;
    if (!request.growthPct.empty() && request.months == 0)
        return cl.refuse("--growth needs --months N");
    { // the last month's load, counted before it is made: a steep growth would copy jobs into gigabytes
        const double jobs = study::grownJobCount(*read, request.growthPct, request.months);
        if (!(jobs <= static_cast<double>(limits::kMaxScenarioJobs)))
            return cl.refuse(
                QString("--growth over %1 months grows the load to about %2 jobs; a scenario has at most %3")
                    .arg(request.months)
                    .arg(jobs, 0, 'g', 3)
                    .arg(limits::kMaxScenarioJobs));
    }

    const Result<study::SizingResult> sized = study::sizeCluster(*read, *catalog, request);
    if (!sized.ok()) { // a constraint that binds: what, and by how much (docs/cli.md: exit 1)
        for (const Issue& i : sized.issues)
            err() << "gpuplan-cli optimize size: " << QString::fromStdString(i.toString()) << '\n';
        err() << Qt::flush;
        return kFailure;
    }
    const study::SizingResult& r = *sized.value;
    if (!saveFileAtomically(p.value("output"), io::writeScenario(r.sized)))
        return kFailure;
    if (p.isSet("json")) {
        QJsonArray candidates, monthList;
        for (const auto& c : r.candidates)
            candidates.append(QJsonObject{{"node_template", QString::fromStdString(c.nodeTemplate)},
                                          {"nodes", c.nodes ? QJsonValue(*c.nodes) : QJsonValue(QJsonValue::Null)},
                                          {"cost_per_month_usd", c.costPerMonthUsd ? QJsonValue(*c.costPerMonthUsd)
                                                                                   : QJsonValue(QJsonValue::Null)},
                                          {"why", QString::fromStdString(c.why)}});
        for (const auto& m : r.months)
            monthList.append(QJsonObject{
                {"month", m.month},
                {"jobs", m.jobs},
                {"nodes", m.nodes ? QJsonValue(*m.nodes) : QJsonValue(QJsonValue::Null)},
                {"cost_per_month_usd", m.nodes ? QJsonValue(m.costPerMonthUsd) : QJsonValue(QJsonValue::Null)},
                {"current_cluster_hosts", m.currentHosts}});
        QJsonArray mix;
        for (const auto& [id, n] : r.mix)
            mix.append(QJsonObject{{"node_template", QString::fromStdString(id)}, {"nodes", n}});
        QJsonObject o{{"node_template", QString::fromStdString(r.nodeTemplate)},
                      {"nodes", r.nodes},
                      {"mix", mix},
                      {"cost_per_month_usd", r.costPerMonthUsd},
                      {"headroom_pct", request.headroomPct},
                      {"allocation_ratio", r.allocationRatio},
                      {"candidates", candidates},
                      {"output", p.value("output")}};
        if (request.months > 0) {
            o.insert("months", monthList);
            o.insert("current_runs_out_month",
                     r.currentRunsOutMonth ? QJsonValue(*r.currentRunsOutMonth) : QJsonValue(QJsonValue::Null));
        }
        out() << QJsonDocument(o).toJson(QJsonDocument::Indented) << Qt::flush;
        return kOk;
    }
    // Templates by the catalog's names; each candidate's id beside it, as --template takes it.
    const auto nameOf = [&catalog](const std::string& id) {
        const NodeTemplate* t = catalog->nodeTemplate(id);
        return QString::fromStdString(t && !t->name.empty() ? t->name : id);
    };
    QStringList parts;
    for (const auto& [id, n] : r.mix)
        parts << QString("%1 × %2").arg(n).arg(nameOf(id));
    out() << QString("%1: %2 per month, %3 of the GPUs free (headroom %4 %) (%5)\n")
                 .arg(parts.join(" + "))
                 .arg(QString::fromStdString(fmt::usd(r.costPerMonthUsd)))
                 .arg(QString::fromStdString(fmt::percent(1.0 - r.allocationRatio)))
                 .arg(request.headroomPct)
                 .arg(p.value("output"));
    for (const auto& c : r.candidates)
        out() << "  " << nameOf(c.nodeTemplate) << " (" << QString::fromStdString(c.nodeTemplate) << "): "
              << (!c.nodes            ? QString("hosts nothing — %1").arg(QString::fromStdString(c.why))
                  : c.costPerMonthUsd ? QString("%1 nodes, %2 per month")
                                            .arg(*c.nodes)
                                            .arg(QString::fromStdString(fmt::usd(*c.costPerMonthUsd)))
                                      : QString("%1 nodes; %2").arg(*c.nodes).arg(QString::fromStdString(c.why)))
              << '\n';
    for (const auto& m : r.months)
        out() << QString("  month %1: %2 jobs, %3 nodes%4\n")
                     .arg(m.month, 3)
                     .arg(m.jobs, 5)
                     .arg(m.nodes ? QString::number(*m.nodes) : QString("–"), 5)
                     .arg(m.currentHosts ? "" : "   (the current cluster no longer hosts it)");
    out() << Qt::flush;
    return kOk;
}

int runOptimizePlan(const QStringList& args)
{
    CommandLine cl("optimize plan",
                   "Sharing settings and cluster size for a scenario: per group of identical nodes every setting its "
                   "GPU offers (bare metal, time-slicing, MPS, every maximal MIG layout, vGPU profiles) and fewer "
                   "nodes, and — within --allow — each job's parallelism and batch, by a seeded local search with "
                   "every plan scored by evaluate; writes the Pareto set of plans within every SLA and the headroom "
                   "(utilization, max penalty, $/month, fragmentation, number of changes) as scenario files and "
                   "pareto.json, each with its changes: what, from, to and why (docs/model-reference.md, \"Plan "
                   "search\"). Of plans equal in cost and SLA outcome, the one with the fewest changes comes first.");
    auto& p = cl.parser();
    p.addOptions({
        {"objective", "What orders the plans within SLA (default cost).", "cost|utilization"},
        {"time-limit", "Seconds the search may take (default 10).", "S"},
        {{"o", "output"}, "Folder for plan-1.json … and pareto.json (created).", "OUT_DIR"},
        {"json", "Print JSON."},
    });
    p.addOption({"seed", "Seed of the move order (default 1).", "N"});
    p.addOption({"max-penalty", "Also refuse plans whose largest penalty passes PCT percent.", "PCT"});
    p.addOption({"keep-nodes", "Search sharing settings only: remove no node."});
    p.addOption({"keep-jobs", "Change no job at all (parallelism, batch, precision and pins stay as given)."});
    p.addOption({"allow",
                 "What the search may change in the jobs, a comma list of parallelism, batch and precision "
                 "(default parallelism,batch; precision changes a serving model's quality, so only when listed).",
                 "KINDS"});
    p.addOption({"headroom-pct", headroomHelp(), "P"});
    if (auto done = cl.parse(args))
        return *done;
    const QStringList files = p.positionalArguments();
    if (files.size() != 1)
        return cl.refuse("give one scenario FILE");
    if (!p.isSet("output"))
        return cl.refuse("give -o OUT_DIR");
    std::optional<double> maxPenalty;
    if (p.isSet("max-penalty")) {
        bool ok = false;
        const double pct = p.value("max-penalty").toDouble(&ok);
        if (!ok || !std::isfinite(pct) || pct < 0.0 || pct > 1000.0)
            return cl.refuse("--max-penalty must be a percentage from 0 to 1000, not '" + p.value("max-penalty") + "'");
        maxPenalty = pct / 100.0;
    }
    if (p.isSet("keep-jobs") && p.isSet("allow"))
        return cl.refuse("--keep-jobs changes no job; it cannot go with --allow");
    calc::JobChangeKinds allow;
    if (p.isSet("allow")) {
        std::string bad;
        const auto kinds = calc::parseJobChangeKinds(p.value("allow").toStdString(), &bad);
        if (!kinds)
            return cl.refuse(bad.empty() ? QString("--allow needs at least one of parallelism, batch, precision")
                                         : "--allow: '" + QString::fromStdString(bad) +
                                               "' is not a kind of change (parallelism, batch, precision)");
        allow = *kinds;
    }
    if (p.isSet("keep-jobs"))
        allow = calc::JobChangeKinds{false, false, false};
    const auto headroom = headroomOption(cl);
    if (!headroom)
        return kBadInput;
    const QString objective = p.value("objective").isEmpty() ? "cost" : p.value("objective");
    if (objective != "cost" && objective != "utilization")
        return cl.refuse("--objective must be cost or utilization");
    std::uint64_t seed = 1;
    if (!cl.readSeed(seed))
        return kBadInput;
    double limit = 10.0;
    if (p.isSet("time-limit")) {
        bool ok = false;
        limit = p.value("time-limit").toDouble(&ok);
        if (!ok || !std::isfinite(limit))
            return cl.refuse("--time-limit must be a number of seconds");
        if (limit <= 0.0 || limit > 86400.0) {
            err() << "gpuplan-cli optimize plan: a time limit of " << p.value("time-limit")
                  << " s leaves no time to search; give 0 < S <= 86400" << Qt::endl;
            return kFailure;
        }
    }
    auto catalog = loadCatalogOrReport(p);
    if (!catalog)
        return kFailure;
    const std::optional<Scenario> read = readScenarioOrReport(files.front(), *catalog);
    if (!read)
        return kBadInput;
    calc::PlanSearchOptions o;
    o.objective = objective == "cost" ? calc::PlanObjective::Cost : calc::PlanObjective::Utilization;
    o.timeLimitS = limit;
    o.seed = seed;
    o.maxPenalty = maxPenalty;
    o.removeNodes = !p.isSet("keep-nodes");
    o.allow = allow;
    o.headroom = *headroom / 100.0;
    const calc::PlanSearchResult r = calc::searchPlan(*read, *catalog, o);
    if (r.timedOut && !r.pareto.empty())
        err() << "gpuplan-cli optimize plan: stopped at the time limit of " << limit << " s after " << r.evaluated
              << " plans, with the best plans found so far (a longer --time-limit may find better ones)" << Qt::endl;
    if (r.pareto.empty()) {
        err() << "gpuplan-cli optimize plan: " << QString::fromStdString(r.infeasibleReason) << Qt::endl;
        return kFailure;
    }
    std::vector<std::pair<QString, QByteArray>> outputs; // written all or none
    QJsonArray plans;
    for (std::size_t i = 0; i < r.pareto.size(); ++i) {
        const calc::PlanCandidate& plan = r.pareto[i];
        const QString name = QString("plan-%1.json").arg(i + 1);
        Scenario named = plan.scenario;
        named.name = read->name + " — plan " + std::to_string(i + 1);
        outputs.emplace_back(name, io::writeScenario(named));
        QJsonArray changes;
        for (const calc::PlanChange& c : plan.changes)
            changes.append(changeJson(c));
        QJsonObject entry = kpiSummary(plan.kpis);
        entry.insert("file", name);
        entry.insert("changes", changes);
        plans.append(entry);
    }
    const calc::Kpis& best = r.pareto.front().kpis;
    const QJsonObject summary{
        {"objective", objective},
        {"seed", static_cast<double>(seed)},
        {"allow", QString::fromStdString(calc::jobChangeKindsText(allow))},
        {"headroom_pct", *headroom},
        {"allocation_limit", r.allocationLimit},
        {"evaluated", r.evaluated},
        {"elapsed_ms", r.elapsedMs},
        {"timed_out", r.timedOut},
        {"current", kpiSummary(r.current.kpis)},
        {"plans", plans},
        {"cost_lower_bound_usd", r.costLowerBoundUsd},
        {"cost_gap",
         best.costPerMonthUsd > 0 ? (best.costPerMonthUsd - r.costLowerBoundUsd) / best.costPerMonthUsd : 0.0},
    };
    outputs.emplace_back("pareto.json", QJsonDocument(summary).toJson(QJsonDocument::Indented));
    if (!saveFilesAtomically(p.value("output"), outputs))
        return kFailure;
    if (p.isSet("json")) {
        out() << QJsonDocument(summary).toJson(QJsonDocument::Indented) << Qt::flush;
        return kOk;
    }
    out() << QString("Jobs may change: %1; headroom kept: at least %2 of the GPUs free.\n")
                 .arg(QString::fromStdString(calc::jobChangeKindsText(allow)))
                 .arg(QString::fromStdString(fmt::percent(1.0 - r.allocationLimit)));
    out() << QString("%1 plans evaluated in %2 s%3; %4 within every SLA on the Pareto front (%5):\n")
                 .arg(r.evaluated)
                 .arg(r.elapsedMs / 1000.0, 0, 'f', 1)
                 .arg(r.timedOut ? " (stopped at the time limit)" : "")
                 .arg(r.pareto.size())
                 .arg(QDir(p.value("output")).path());
    auto line = [](const calc::Kpis& k) {
        return QString("VRAM %1, max penalty %2, %3/month, fragmentation %4, %5 of GPUs free")
            .arg(QString::fromStdString(fmt::percent(k.vramUtilization)))
            .arg(QString::fromStdString(fmt::percent(k.maxPenalty)))
            .arg(QString::fromStdString(fmt::usd(k.costPerMonthUsd)))
            .arg(QString::fromStdString(fmt::percent(k.fragmentation)))
            .arg(QString::fromStdString(fmt::percent(1.0 - k.allocationRatio)));
    };
    out() << "  current: " << line(r.current.kpis) << " (" << r.current.kpis.slaViolations << " outside SLA, "
          << r.current.kpis.unplacedJobs << " unplaced)\n";
    for (std::size_t i = 0; i < r.pareto.size(); ++i) {
        out() << "  plan-" << i + 1 << ": " << line(r.pareto[i].kpis) << '\n';
        for (const calc::PlanChange& c : r.pareto[i].changes)
            out() << "      " << QString::fromStdString(calc::changeText(c)) << '\n';
        if (r.pareto[i].changes.empty())
            out() << "      (no change: the plan as given)\n";
    }
    out() << QString("  no plan costs less than %1/month (the jobs' memory on the cheapest GPUs)\n")
                 .arg(QString::fromStdString(fmt::usd(r.costLowerBoundUsd)))
          << Qt::flush;
    return kOk;
}

} // namespace gp::cli
