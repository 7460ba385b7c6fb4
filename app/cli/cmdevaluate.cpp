// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#include "calibrationoptions.h"
#include "clicontext.h"
#include "io/textformat.h"
#include "model/planningtarget.h"

#include "calc/alternatives.h"
#include "calc/comparison.h"
#include "calc/errorband.h"
#include "calc/evaluate.h"
#include "calc/kpiregistry.h"
#include "io/scenarioreader.h"
#include "model/calibratedplan.h"
#include "model/enumnames.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#include <algorithm>
#include <functional>
#include <map>

namespace gp::cli {

namespace {

QJsonValue opt(const std::optional<double>& v) { return v ? QJsonValue(*v) : QJsonValue(QJsonValue::Null); }
using fmt::text::gib;
using fmt::text::usd;
QString pct(double f) { return fmt::text::percent(f); }

/// A latency, or null when the queue grows without bound.
QJsonValue latency(double s, bool saturated) { return saturated ? QJsonValue(QJsonValue::Null) : QJsonValue(s); }

/// A $ figure that may not exist (no token served): the number or null.
QJsonValue optionalUsd(const std::optional<double>& v) { return v ? QJsonValue(*v) : QJsonValue(QJsonValue::Null); }

/// The four $/M-token figures (docs/model-reference.md, "Cost per million tokens"), into `o`.
void addTokenCost(QJsonObject& o, const std::optional<calc::TokenCost>& c)
{
    const calc::TokenCost none;
    const calc::TokenCost& t = c ? *c : none;
    o["cost_per_million_input_tokens_usd"] = optionalUsd(t.inputPerMillion());
    o["cost_per_million_output_tokens_usd"] = optionalUsd(t.outputPerMillion());
    o["cost_per_million_input_tokens_usd_used_basis"] = optionalUsd(t.inputPerMillionUsed());
    o["cost_per_million_output_tokens_usd_used_basis"] = optionalUsd(t.outputPerMillionUsed());
}

QJsonValue servingJson(const calc::JobResult& j)
{
    if (!j.serving)
        return QJsonValue(QJsonValue::Null);
    const calc::ServingResult& v = *j.serving;
    QJsonObject o{{"deployment", "aggregated"}, // prefill and decode on the same GPUs (issue 39)
                  {"engine_busy", v.engineBusy},
                  {"prefill_share", v.prefillBusy},
                  {"ttft_s", latency(v.ttftS, v.saturated)},
                  {"itl_s", v.itlS},
                  {"output_tokens_per_s", v.outputTokensPerS},
                  {"requests_per_s", v.requestsPerS},
                  {"max_batch", v.maxBatch},
                  {"running", v.running},
                  {"queued", v.saturated ? QJsonValue(QJsonValue::Null) : QJsonValue(v.queued)},
                  {"saturated", v.saturated},
                  {"kv_cache_bytes_per_gpu", v.kvCacheBytesPerGpu},
                  {"ttft_p99_s", latency(v.ttftP99S, v.saturated)},
                  {"itl_p99_s", v.itlP99S},
                  {"slo_attainment", v.sloJudged ? QJsonValue(v.sloAttainment) : QJsonValue(QJsonValue::Null)}};
    addTokenCost(o, j.tokenCost);
    return o;
}

QString seconds(double s) { return fmt::text::latency(s); }

/// The keys of the assumptions a figure read, in the registry's order.
QJsonArray assumptionKeys(const AssumptionSet& read)
{
    QJsonArray keys;
    for (const std::string& key : read.keys())
        keys.append(QString::fromStdString(key));
    return keys;
}

QJsonObject toJson(const calc::Evaluation& ev, const Scenario& scenario, const Catalog& catalog)
{
    const QJsonObject kpis = kpisToJson(ev.kpis);
    QJsonArray jobs;
    for (const calc::JobResult& j : ev.jobs) {
        QJsonArray placement;
        for (const auto& u : j.placement)
            placement.append(QJsonObject{
                {"node", QString::fromStdString(u.node)}, {"gpu", u.gpu}, {"slot", QString::fromStdString(u.slot)}});
        const calc::MemoryBreakdown& m = j.memory;
        // How far this kind of prediction was off on held-out published runs (docs/model-reference.md).
        const Job* spec = scenario.findJob(j.id);
        calc::ErrorBand band;
        if (spec)
            band = calc::errorBandFor(*spec, j, catalog);
        else
            band.reason = "unknown job";
        QJsonObject steps;
        for (const calc::StepPart& part : calc::stepParts())
            steps[QLatin1String(part.key)] = j.perf.breakdown.*part.value;
        QJsonArray stageLayers;
        for (int n : j.stageLayers)
            stageLayers.append(n);
        QJsonObject penaltyParts;
        for (const calc::PenaltyPart& part : calc::penaltyParts())
            penaltyParts[QLatin1String(part.key)] = j.penaltyBreakdown.*part.value;
        jobs.append(QJsonObject{
            {"id", QString::fromStdString(j.id)},
            {"tenant", QString::fromStdString(j.tenant)},
            {"placed", j.placed},
            {"reason", QString::fromStdString(j.reason)},
            {"placement", placement},
            {"memory_per_gpu_bytes", m.totalBytes()},
            {"breakdown", QJsonObject{{"weights", m.weightsBytes},
                                      {"gradients", m.gradientsBytes},
                                      {"optimizer", m.optimizerBytes},
                                      {"activations", opt(m.activationsBytes)},
                                      {"kv_cache", opt(m.kvCacheBytes)},
                                      {"runtime", m.runtimeBytes}}},
            {"step_time_s", j.placed ? QJsonValue(j.perf.stepTimeS) : QJsonValue(QJsonValue::Null)},
            {"step_breakdown_s", j.placed ? QJsonValue(steps) : QJsonValue(QJsonValue::Null)},
            {"tokens_per_s", j.placed ? QJsonValue(j.perf.tokensPerS) : QJsonValue(QJsonValue::Null)},
            {"mfu", j.placed ? QJsonValue(j.perf.mfu) : QJsonValue(QJsonValue::Null)},
            {"days_to_complete", j.placed ? opt(j.perf.daysToComplete) : QJsonValue(QJsonValue::Null)},
            {"penalty", j.placed ? QJsonValue(j.penalty) : QJsonValue(QJsonValue::Null)},
            {"penalty_breakdown", j.placed ? QJsonValue(penaltyParts) : QJsonValue(QJsonValue::Null)},
            {"slowdown_vs_dedicated", j.placed ? QJsonValue(j.slowdownVsDedicated) : QJsonValue(QJsonValue::Null)},
            {"noisiest_neighbour", j.noisiestNeighbour.empty()
                                       ? QJsonValue(QJsonValue::Null)
                                       : QJsonValue(QString::fromStdString(j.noisiestNeighbour))},
            {"cotenant_busy_fraction", j.placed ? QJsonValue(j.coTenantBusy) : QJsonValue(QJsonValue::Null)},
            {"mean_step_factor", j.placed ? QJsonValue(j.meanStepFactor()) : QJsonValue(QJsonValue::Null)},
            {"oom_risk", j.oomRisk},
            {"tp_link", j.tpLink.empty() ? QJsonValue(QJsonValue::Null) : QJsonValue(QString::fromStdString(j.tpLink))},
            {"ep", j.ep},
            {"ep_link", j.epLink.empty() ? QJsonValue(QJsonValue::Null) : QJsonValue(QString::fromStdString(j.epLink))},
            {"cp", j.cp},
            {"cp_link", j.cpLink.empty() ? QJsonValue(QJsonValue::Null) : QJsonValue(QString::fromStdString(j.cpLink))},
            {"stage_layers", j.stageLayers.empty() ? QJsonValue(QJsonValue::Null) : QJsonValue(stageLayers)},
            {"cost_usd", opt(j.costUsd)},
            {"cost_per_month_usd", j.costPerMonthUsd},
            {"overhead_per_month_usd", j.overheadPerMonthUsd},
            {"extra_days", opt(j.extraDays)},
            {"serving", servingJson(j)},
            {"meets_sla", j.meetsSla},
            {"error_band", band.fraction ? QJsonValue(*band.fraction) : QJsonValue(QJsonValue::Null)},
            {"error_band_class",
             band.fraction ? QJsonValue(QString::fromStdString(band.className)) : QJsonValue(QJsonValue::Null)},
            {"error_band_rows", band.rows},
            {"error_band_reason",
             band.fraction ? QJsonValue(QJsonValue::Null) : QJsonValue(QString::fromStdString(band.reason))},
            {"assumptions_read", QJsonObject{{"memory", assumptionKeys(j.memoryAssumptions)},
                                             {"performance", assumptionKeys(j.performanceAssumptions)}}}});
    }
    QJsonArray links;
    for (const calc::LinkResult& l : ev.links)
        links.append(QJsonObject{
            {"id", QString::fromStdString(l.id)}, {"load_gbps", l.loadGbps}, {"utilization", l.utilization}});
    QJsonObject tenants;
    for (const auto& [id, cost] : ev.tenantCostPerMonthUsd)
        tenants[QString::fromStdString(id)] = cost;
    QJsonObject tenantBreakdown;
    for (const auto& [id, parts] : ev.tenantCostBreakdown)
        tenantBreakdown[QString::fromStdString(id)] = costBreakdownToJson(parts);
    QJsonObject tenantTokens; // tenants with a placed serving job
    for (const auto& [id, cost] : ev.tenantTokenCost) {
        QJsonObject o;
        addTokenCost(o, cost);
        tenantTokens[QString::fromStdString(id)] = o;
    }
    return {{"kpis", kpis},
            {"jobs", jobs},
            {"links", links},
            {"tenant_cost_per_month_usd", tenants},
            {"tenant_cost_breakdown_usd", tenantBreakdown},
            {"tenant_token_cost_usd", tenantTokens},
            {"elapsed_ms", ev.elapsedMs}};
}

void printText(const QString& file, const Scenario& s, const calc::Evaluation& ev)
{
    const calc::Kpis& k = ev.kpis;
    out() << QString::fromStdString(s.name) << "  (" << file << ")\n";
    out() << "  VRAM utilization " << pct(k.vramUtilization) << ", allocation " << pct(k.allocationRatio)
          << ", unused memory " << gib(k.unusedMemoryBytes) << " GiB (" << pct(k.unusedMemoryFraction())
          << " of allocated), fragmentation " << pct(k.fragmentation);
    if (k.migUnusableSlices > 0)
        out() << ", " << k.migUnusableSlices << " unusable MIG slices";
    out() << "\n  penalty mean " << pct(k.meanPenalty) << ", max " << pct(k.maxPenalty) << "; target ("
          << QString::fromStdString(PlanningTarget::text(true)) << ") " << (k.meetsTarget ? "met" : "not met");
    if (k.servingJobs > 0)
        out() << "; serving SLO attainment " << QString::fromStdString(calc::formatServingSlo(k)) << " (worst P99 TTFT "
              << seconds(k.servingTtftP99S) << ", ITL " << seconds(k.servingItlP99S) << ")";
    out() << "\n";
    out() << "  cost " << usd(k.costPerMonthUsd) << "/month = " << costBreakdownText(k.costBreakdown) << "; waste "
          << usd(k.wastePerMonthUsd());
    if (k.tokenCost)
        out() << "\n  serving " << QString::fromStdString(calc::tokenCostText(*k.tokenCost));
    if (k.oomRiskGpus > 0)
        out() << "\n  OUT-OF-MEMORY RISK on " << k.oomRiskGpus << " GPU(s) without memory isolation";
    // Jobs by the names a planner gave them (their ids are in --json): the column as wide as the
    // longest, up to 40 characters (longer ones end in "…").
    int width = 26;
    std::map<std::string, QString> names;
    for (const calc::JobResult& j : ev.jobs) {
        names[j.id] = QString::fromStdString(j.name.empty() ? j.id : j.name);
        width = std::max(width, static_cast<int>(std::min<qsizetype>(names[j.id].size(), 40)));
    }
    const auto nameOf = [&names, width](const std::string& id) {
        const QString n = names.count(id) ? names.at(id) : QString::fromStdString(id);
        return n.size() > width ? n.left(width - 1) + QChar(0x2026) : n;
    };
    out() << "\n\n  "
          << QString("%1 %2 %3 %4 %5 %6 %7 %8")
                 .arg("JOB", -width)
                 .arg("PLACED", -7)
                 .arg("GiB/GPU", 8)
                 .arg("PENALTY", 8)
                 .arg("MFU", 6)
                 .arg("TOK/S", 12)
                 .arg("DAYS", 8)
                 .arg("$/MONTH", 12)
          << '\n';
    for (const calc::JobResult& j : ev.jobs) {
        out() << "  "
              << QString("%1 %2 %3 %4 %5 %6 %7 %8")
                     .arg(nameOf(j.id), -width)
                     .arg(j.placed ? (j.oomRisk ? "OOM?" : "yes") : "NO", -7)
                     .arg(gib(j.memory.totalBytes()), 8)
                     .arg(j.placed ? pct(j.penalty) : "-", 8)
                     .arg(j.placed ? pct(j.perf.mfu) : "-", 6)
                     .arg(j.placed ? QString::number(j.perf.tokensPerS, 'f', 0) : "-", 12)
                     .arg(j.placed && j.perf.daysToComplete ? QString::number(*j.perf.daysToComplete, 'f', 1) : "-", 8)
                     .arg(usd(j.costPerMonthUsd), 12)
              << '\n';
        if (!j.placed)
            out() << "      not placed: " << QString::fromStdString(j.reason) << '\n';
        const bool uneven = std::adjacent_find(j.stageLayers.begin(), j.stageLayers.end(), std::not_equal_to<>()) !=
                            j.stageLayers.end();
        if (j.cp > 1 || uneven) {
            QStringList stages;
            for (int n : j.stageLayers)
                stages << QString::number(n);
            out() << "      ";
            if (j.cp > 1)
                out() << "context-parallel " << j.cp
                      << (j.cpLink.empty() ? QString()
                                           : QString(" over %1 (%2 GB/s)")
                                                 .arg(QString::fromStdString(j.cpLink))
                                                 .arg(j.cpLinkGBps, 0, 'f', 0))
                      << (uneven ? "; " : "");
            if (uneven)
                out() << "layers per pipeline stage " << stages.join(',');
            out() << '\n';
        }
        if (j.placed && j.penalty >= 0.0005) {
            QStringList parts;
            for (const calc::PenaltyPart& part : calc::penaltyParts())
                if (j.penaltyBreakdown.*part.value >= 0.0005)
                    parts << QString("%1 %2").arg(QLatin1String(part.label), pct(j.penaltyBreakdown.*part.value));
            out() << "      penalty by resource: " << parts.join(", ");
            if (!j.noisiestNeighbour.empty())
                out() << "; noisiest neighbour " << nameOf(j.noisiestNeighbour) << " (+" << pct(j.noisiestNeighbourCost)
                      << ")";
            out() << '\n';
        }
        if (j.placed && j.ep > 1) {
            const double step = j.perf.breakdown.total();
            out() << "      expert parallel: ep " << j.ep << " over " << QString::fromStdString(j.epLink) << " at "
                  << QString::number(j.epLinkGBps, 'f', 0) << " GB/s per GPU; all-to-all "
                  << pct(step > 0 ? j.perf.breakdown.epAllToAll / step : 0.0) << " of the step\n";
        }
        if (const std::string w = calc::tpLinkWarning(j); !w.empty())
            out() << "      WARNING: " << QString::fromStdString(w) << '\n';
        if (j.placed && j.slowdownVsDedicated >= 0.0005)
            out() << "      slowdown against whole dedicated GPUs (its share, a sizing choice): "
                  << pct(j.slowdownVsDedicated) << '\n';
        if (j.serving) {
            const calc::ServingResult& v = *j.serving;
            out() << "      serving: TTFT " << seconds(v.ttftS) << " (P99 " << seconds(v.ttftP99S) << "), ITL "
                  << seconds(v.itlS) << " (P99 " << seconds(v.itlP99S) << "), "
                  << QString::number(v.requestsPerS, 'f', 2) << " req/s, batch " << QString::number(v.running, 'f', 0)
                  << " of " << v.maxBatch << " that fit"
                  << (v.saturated       ? ", SATURATED: the queue grows"
                      : v.queued >= 0.5 ? ", " + QString::number(v.queued, 'f', 0) + " queued"
                                        : QString())
                  << ", SLO attainment " << QString::fromStdString(calc::formatSloAttainment(v)) << '\n';
            if (j.tokenCost)
                out() << "      " << QString::fromStdString(calc::tokenCostText(*j.tokenCost)) << '\n';
        }
    }
    int busy = 0;
    double worst = 0;
    for (const auto& l : ev.links) {
        busy += l.utilization > 0 ? 1 : 0;
        worst = std::max(worst, l.utilization);
    }
    out() << "  links: " << busy << " of " << ev.links.size() << " carry traffic, busiest at " << pct(worst) << "\n";
    out() << "  evaluated in " << QString::number(ev.elapsedMs, 'f', 2) << " ms\n\n";
}

QJsonArray toJson(const std::vector<calc::SharingAlternative>& alts)
{
    QJsonArray arr;
    for (const calc::SharingAlternative& a : alts)
        arr.append(
            QJsonObject{{"mode", QString::fromStdString(std::string(enumName(a.mode)))},
                        {"offered", a.offered},
                        {"setting", QString::fromStdString(a.setting)},
                        {"candidates_tried", a.candidatesTried},
                        {"nodes_kept", a.nodesKept},
                        {"memory_overhead", a.offered ? QJsonValue(a.memoryOverhead) : QJsonValue(QJsonValue::Null)},
                        {"isolation", QJsonObject{{"memory", a.isolation.memory},
                                                  {"fault", a.isolation.fault},
                                                  {"performance", a.isolation.performance}}},
                        {"kpis", a.offered ? QJsonValue(kpisToJson(a.kpis)) : QJsonValue(QJsonValue::Null)}});
    return arr;
}

void printAlternatives(const std::vector<calc::SharingAlternative>& alts)
{
    out() << "  sharing trade-offs (every GPU shared one way; isolation memory/fault/performance, 2 = enforced)\n  "
          << QString("%1 %2 %3 %4 %5 %6 %7 %8 %9 %10 %11")
                 .arg("MODE", -13)
                 .arg("SETTING", -22)
                 .arg("VRAM", 7)
                 .arg("ALLOC", 7)
                 .arg("PENALTY", 8)
                 .arg("UNPLACED", 9)
                 .arg("WASTE/MONTH", 12)
                 .arg("ISOL", 6)
                 .arg("TTFT99", 10)
                 .arg("ITL99", 9)
                 .arg("SLO", 7)
          << '\n';
    for (const calc::SharingAlternative& a : alts) {
        const QString isol =
            QString("%1/%2/%3").arg(a.isolation.memory).arg(a.isolation.fault).arg(a.isolation.performance);
        out() << "  "
              << QString("%1 %2 ")
                     .arg(QString::fromStdString(std::string(displayName(a.mode))), -13)
                     .arg(QString::fromStdString(a.setting).left(22), -22);
        if (a.offered)
            out() << QString("%1 %2 %3 %4 %5 %6")
                         .arg(pct(a.kpis.vramUtilization), 7)
                         .arg(pct(a.kpis.allocationRatio), 7)
                         .arg(pct(a.kpis.meanPenalty), 8)
                         .arg(a.kpis.unplacedJobs, 9)
                         .arg(usd(a.kpis.wastePerMonthUsd()), 12)
                         .arg(isol, 6)
                  << QString(" %1 %2 %3")
                         .arg(a.kpis.servingJobs > 0 ? seconds(a.kpis.servingTtftP99S) : "-", 10)
                         .arg(a.kpis.servingJobs > 0 ? seconds(a.kpis.servingItlP99S) : "-", 9)
                         .arg(a.kpis.servingJobsJudged > 0 ? pct(a.kpis.servingSloAttainment)
                              : a.kpis.servingJobs > 0     ? QString("n/a")
                                                           : QString("-"),
                              7);
        out() << '\n';
    }
    out() << '\n';
}

} // namespace

QJsonObject costBreakdownToJson(const calc::CostBreakdown& b)
{
    QJsonObject o;
    for (const calc::CostPart& part : calc::costParts())
        o[QLatin1String(part.key)] = b.*part.value;
    return o;
}

QString costBreakdownText(const calc::CostBreakdown& b)
{
    QStringList parts;
    for (const calc::CostPart& part : calc::costParts())
        parts << QString::fromUtf8(part.label).toLower() + " " + usd(b.*part.value);
    return parts.join(" + ");
}

QJsonObject kpisToJson(const calc::Kpis& k)
{
    QJsonObject o{{"vram_utilization", k.vramUtilization},
                  {"allocation_ratio", k.allocationRatio},
                  {"stranded_bytes", k.unusedMemoryBytes}, // the old name of unused_memory_bytes (docs/cli.md)
                  {"allocated_memory_bytes", k.allocatedMemoryBytes},
                  {"unused_memory_bytes", k.unusedMemoryBytes},
                  {"unused_memory_fraction", k.unusedMemoryFraction()},
                  {"fragmentation", k.fragmentation},
                  {"mig_unusable_slices", k.migUnusableSlices},
                  {"compute_utilization", k.computeUtilization},
                  {"mean_penalty", k.meanPenalty},
                  {"max_penalty", k.maxPenalty},
                  {"meets_target", k.meetsTarget},
                  {"cost_per_month_usd", k.costPerMonthUsd},
                  {"cost_breakdown_usd", costBreakdownToJson(k.costBreakdown)},
                  {"waste_per_month_usd", k.wastePerMonthUsd()},
                  {"waste_breakdown_usd", QJsonObject{{"idle", k.costBreakdown.idleUsd},
                                                      {"stranded", k.costBreakdown.strandedUsd},
                                                      {"overhead", k.costBreakdown.overheadUsd}}},
                  {"unplaced_jobs", k.unplacedJobs},
                  {"sla_violations", k.slaViolations},
                  {"oom_risk_gpus", k.oomRiskGpus},
                  {"serving_jobs", k.servingJobs},
                  {"serving_slo_attainment",
                   k.servingJobsJudged > 0 ? QJsonValue(k.servingSloAttainment) : QJsonValue(QJsonValue::Null)},
                  {"serving_jobs_judged", k.servingJobsJudged},
                  {"serving_ttft_p99_s", k.servingJobs > 0 && k.servingTtftP99S < 1e29 ? QJsonValue(k.servingTtftP99S)
                                                                                       : QJsonValue(QJsonValue::Null)},
                  {"serving_itl_p99_s", k.servingJobs > 0 && k.servingItlP99S < 1e29 ? QJsonValue(k.servingItlP99S)
                                                                                     : QJsonValue(QJsonValue::Null)}};
    addTokenCost(o, k.tokenCost);
    return o;
}

int runEvaluate(const QStringList& args)
{
    CommandLine cl(
        "evaluate",
        "Evaluate scenarios: memory per job, placement, sharing penalty and slowdown against dedicated GPUs, "
        "throughput, link load, cluster KPIs and cost (docs/model-reference.md).");
    auto& p = cl.parser();
    p.addPositionalArgument("FILE", "Scenario JSON files.", "FILE...");
    p.addOption({"policy", "Placement policy instead of the scenario's.",
                 "first_fit|best_fit|topology_aware|fragmentation_aware"});
    p.addOption({"json", "Print JSON (one object; an array for several files)."});
    p.addOption({"alternatives", "Also evaluate the tenant mix with every GPU shared one way (bare metal, passthrough, "
                                 "MIG, vGPU, time-slicing, MPS): the sharing trade-off matrix."});
    p.addOption({"calibration",
                 "Evaluate with a calibration profile: a profile file or a library NAME[@VERSION] in --db "
                 "(docs/calibration.md). --json marks each job's calibrated parameters.",
                 "PROFILE"});
    cl.addDbOption();
    if (auto done = cl.parse(args))
        return *done;
    const QStringList files = p.positionalArguments();
    if (files.isEmpty()) {
        err() << cl.usageError("no FILE given") << Qt::endl;
        return kBadInput;
    }
    std::optional<PlacementPolicy> policy;
    if (p.isSet("policy")) {
        policy = enumFromName<PlacementPolicy>(p.value("policy").toStdString());
        if (!policy) {
            err() << cl.usageError("--policy must be " + QString::fromStdString(enumChoices<PlacementPolicy>()))
                  << Qt::endl;
            return kBadInput;
        }
    }
    auto catalog = loadCatalogOrReport(p);
    if (!catalog)
        return kFailure;
    std::optional<CalibrationProfile> profile;
    if (p.isSet("calibration") && !(profile = loadProfileOrReport(p, p.value("calibration"))))
        return kBadInput;
    QJsonArray all;
    int status = kOk;
    for (const QString& file : files) {
        const io::ScenarioReadResult r = io::readScenarioFile(file, *catalog);
        if (!r.ok()) {
            for (const Issue& i : r.issues)
                err() << formatIssue(file, i) << '\n';
            status = kBadInput;
            continue;
        }
        // A profile changes only what the evaluation reads anyway: the catalog's GPU and stack
        // figures and the scenario's assumptions (docs/calibration.md). --calibration replaces
        // the scenario's own profile; evaluate applies the scenario's own itself.
        CalibratedPlan plan{*r.value, *catalog, {}};
        if (profile) {
            plan = withCalibration(*r.value, *catalog, *profile);
            for (const Issue& i : plan.issues)
                err() << formatIssue(p.value("calibration"), i) << '\n';
        }
        const std::optional<CalibrationProfile> used = profile ? profile : r.value->calibration;
        const calc::Evaluation ev = calc::evaluate(plan.scenario, plan.catalog, policy);
        for (const Issue& i : ev.calibrationIssues)
            err() << formatIssue(file + ": calibration", i) << '\n';
        if (p.isSet("json")) {
            QJsonObject o = toJson(ev, plan.scenario, plan.catalog);
            if (used) {
                o["calibration"] = calibrationUsedJson(*used);
                markCalibratedJobs(o, *used, ev, plan.scenario);
            }
            o["file"] = file;
            o["name"] = QString::fromStdString(r.value->name);
            if (p.isSet("alternatives"))
                o["alternatives"] = toJson(calc::compareSharing(plan.scenario, plan.catalog));
            all.append(o);
        } else {
            if (used)
                out() << "Calibrated with profile " << QString::fromStdString(used->name) << " version "
                      << used->version << (profile ? "" : " (the scenario's own)") << ": " << used->values.size()
                      << " parameters fitted, the rest at their defaults\n";
            printText(file, plan.scenario, ev);
            if (p.isSet("alternatives"))
                printAlternatives(calc::compareSharing(plan.scenario, plan.catalog));
        }
    }
    if (p.isSet("json"))
        out() << (all.size() == 1 ? QJsonDocument(all.at(0).toObject()).toJson(QJsonDocument::Indented)
                                  : QJsonDocument(all).toJson(QJsonDocument::Indented));
    out() << Qt::flush;
    err() << Qt::flush;
    return status;
}

} // namespace gp::cli
