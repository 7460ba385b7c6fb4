// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#include "clicontext.h"
#include "io/textformat.h"
#include "model/planningtarget.h"

#include "calc/comparison.h"
#include "calc/evaluate.h"
#include "calc/inventory.h"
#include "calc/kpiregistry.h"
#include "io/datapaths.h"
#include "io/scenarioreader.h"
#include "model/enumnames.h"
#include "sim/simbackend.h"

#include <QDir>

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <algorithm>

namespace gp::cli {

namespace {

/// A KPI formatted as compare and the slides show it ("48.4 %", "$139,693", "3").
QString kpiText(const std::string& key, double value)
{
    const calc::KpiSpec* spec = calc::findKpi(key);
    return spec ? QString::fromStdString(calc::formatKpiValue(*spec, value)) : QString::number(value);
}

struct Row
{
    QString name;
    calc::Kpis kpis;
    int jobs = 0;
};

QJsonObject toJson(const QString& file, const Scenario& s, const calc::Inventory& inv, const calc::Kpis& kpis)
{
    QJsonObject byModel, byMode;
    for (const auto& [id, n] : inv.gpusByModel)
        byModel[QString::fromStdString(id)] = n;
    for (const auto& [mode, n] : inv.gpusByMode)
        byMode[QString::fromStdString(std::string(enumName(mode)))] = n;
    QJsonArray unpriced;
    for (const auto& g : inv.unpricedGpus)
        unpriced.append(QString::fromStdString(g));
    return {{"file", file},
            {"name", QString::fromStdString(s.name)},
            {"nodes", inv.nodes},
            {"switches", inv.switches},
            {"links", inv.links},
            {"gpus", inv.gpus},
            {"vram_gib", inv.vramGiB},
            {"gpus_by_model", byModel},
            {"gpus_by_sharing_mode", byMode},
            {"mig_instances", inv.migInstances},
            {"tenants", inv.tenants},
            {"jobs", inv.jobs},
            {"gpus_requested", static_cast<double>(inv.gpusRequested)},
            {"cost_per_hour_usd", inv.costPerHourUsd},
            {"cost_per_month_usd", inv.costPerMonthUsd},
            {"unpriced_gpus", unpriced},
            {"kpis", kpisToJson(kpis)}};
}

/// A GPU model as the catalog names it ("H100 SXM 80GB"); its id where the catalog has no name.
QString gpuName(const Catalog& catalog, const std::string& id)
{
    const GpuSpec* gpu = catalog.gpu(id);
    return QString::fromStdString(gpu && !gpu->name.empty() ? gpu->name : id);
}

void printText(const QString& file, const Scenario& s, const Catalog& catalog, const calc::Inventory& inv,
               const calc::Kpis& k)
{
    out() << QString::fromStdString(s.name) << "  (" << file << ")\n";
    out() << "  topology   " << inv.nodes << " nodes, " << inv.switches << " switches, " << inv.links << " links\n";
    QStringList models;
    for (const auto& [id, n] : inv.gpusByModel)
        models << QString("%1 × %2").arg(n).arg(gpuName(catalog, id));
    out() << "  GPUs       " << inv.gpus << " (" << models.join(", ") << "), " << QString::number(inv.vramGiB, 'f', 0)
          << " GiB usable VRAM\n";
    QStringList modes;
    for (const auto& [mode, n] : inv.gpusByMode)
        modes << QString("%1 %2").arg(n).arg(QString::fromStdString(std::string(displayName(mode))));
    out() << "  sharing    " << modes.join(", ");
    if (inv.migInstances > 0)
        out() << " (" << inv.migInstances << " MIG instances)";
    out() << "\n  workload   " << inv.tenants << " tenants, " << inv.jobs << " jobs asking for " << inv.gpusRequested
          << " GPUs (tp x pp x dp)\n";
    out() << "  rent       $" << QString::number(inv.costPerHourUsd, 'f', 2) << "/hour, "
          << kpiText("cost_per_month_usd", inv.costPerMonthUsd) << "/month (730 h)";
    if (!inv.unpricedGpus.empty()) {
        QStringList u;
        for (const auto& g : inv.unpricedGpus)
            u << gpuName(catalog, g);
        out() << "; no price for " << u.join(", ");
    }
    out() << "\n  KPIs       VRAM utilization " << kpiText("vram_utilization", k.vramUtilization) << ", mean penalty "
          << kpiText("mean_penalty", k.meanPenalty) << " (target " << QString::fromStdString(PlanningTarget::text(true))
          << ": " << (k.meetsTarget ? "met" : "not met") << ")\n             " << k.slaViolations << " of " << inv.jobs
          << " jobs miss their SLA (" << k.unplacedJobs << " not placed); cost "
          << kpiText("cost_per_month_usd", k.costPerMonthUsd) << "/month, of which "
          << kpiText("waste_per_month_usd", k.wastePerMonthUsd())
          << " wasted\n             cost = " << costBreakdownText(k.costBreakdown)
          << "\n             unused memory on the jobs' GPUs " << fmt::text::gib(k.unusedMemoryBytes) << " GiB ("
          << kpiText("vram_utilization", k.unusedMemoryFraction()) << " of allocated; headroom, not waste)\n";
    if (k.servingJobs > 0) {
        const auto ms = [](double s) { return fmt::text::latency(s); };
        out() << "  serving    " << k.servingJobs << " job(s): SLO attainment "
              << QString::fromStdString(calc::formatServingSlo(k)) << ", worst P99 TTFT " << ms(k.servingTtftP99S)
              << ", ITL " << ms(k.servingItlP99S) << "\n";
    }
    out() << "\n";
}

/// One line per scenario: the figures a planner reads first.
void printKpiTable(const std::vector<Row>& rows)
{
    // The name column is as wide as the longest name, up to 48 characters (longer ones end in "…").
    int width = 8;
    for (const Row& r : rows)
        width = std::max(width, static_cast<int>(std::min<qsizetype>(r.name.size(), 48)));
    const auto line = [width](const QString& name, const QString& vram, const QString& penalty, const QString& sla,
                              const QString& cost, const QString& waste, const QString& target) {
        return QString("%1 %2 %3 %4 %5 %6 %7\n")
            .arg(name.size() > width ? name.left(width - 1) + QChar(0x2026) : name, -width)
            .arg(vram, 8)
            .arg(penalty, 8)
            .arg(sla, 9)
            .arg(cost, 13)
            .arg(waste, 13)
            .arg(target, -7);
    };
    out() << "KPIs of every scenario (VRAM utilization, mean sharing penalty, jobs missing their SLA,\n"
             "cost and waste per month; target: "
          << QString::fromStdString(PlanningTarget::text(true)) << ")\n";
    out() << line("SCENARIO", "VRAM", "PENALTY", "SLA MISS", "$/MONTH", "WASTE/MONTH", "TARGET");
    for (const Row& r : rows) {
        const calc::Kpis& k = r.kpis;
        out() << line(r.name, kpiText("vram_utilization", k.vramUtilization), kpiText("mean_penalty", k.meanPenalty),
                      QString("%1/%2").arg(k.slaViolations).arg(r.jobs),
                      kpiText("cost_per_month_usd", k.costPerMonthUsd),
                      kpiText("waste_per_month_usd", k.wastePerMonthUsd()), k.meetsTarget ? "met" : "not met");
    }
    out() << '\n';
}

} // namespace

int runSummary(const QStringList& args)
{
    CommandLine cl("summary", "Summarise scenarios: topology, GPUs and usable VRAM, sharing modes, "
                              "workload size, the fleet's rent from the price preset, and the KPIs of the "
                              "evaluation (VRAM utilization, penalty, SLA violations, cost and waste), "
                              "ending with one KPI line per scenario.\n"
                              "Without FILE, summarises every bundled sample (the headless main job).");
    auto& p = cl.parser();
    p.addPositionalArgument("FILE", "Scenario JSON files (default: the bundled samples).", "[FILE...]");
    p.addOption({"json", "Print JSON: an array with one object per scenario."});
    if (auto done = cl.parse(args))
        return *done;
    auto catalog = loadCatalogOrReport(p);
    if (!catalog)
        return kFailure;
    QStringList files = p.positionalArguments();
    if (files.isEmpty()) {
        const QDir samples(QDir(io::bundledDataDir()).absoluteFilePath("samples"));
        for (const QString& f : samples.entryList({"*.json"}, QDir::Files, QDir::Name))
            files << samples.absoluteFilePath(f);
    }
    const bool json = p.isSet("json");
    QJsonArray arr;
    std::vector<Row> rows;
    int invalid = 0;
    for (const QString& file : files) {
        const io::ScenarioReadResult r = io::readScenarioFile(file, *catalog);
        if (!r.ok()) {
            for (const Issue& i : r.issues)
                err() << formatIssue(file, i) << '\n';
            ++invalid;
            continue;
        }
        const calc::Inventory inv = calc::takeInventory(*r.value, *catalog);
        const calc::Evaluation ev = calc::evaluate(*r.value, *catalog);
        rows.push_back({QString::fromStdString(r.value->name), ev.kpis, inv.jobs});
        if (json)
            arr.append(toJson(file, *r.value, inv, ev.kpis));
        else
            printText(file, *r.value, *catalog, inv, ev.kpis);
    }
    if (json) {
        out() << QJsonDocument(arr).toJson(QJsonDocument::Indented);
    } else {
        if (!rows.empty())
            printKpiTable(rows);
        const sim::BackendInfo b = sim::probeBackends();
        out() << "simulation backend: "
              << (b.cudaUsable() ? "CUDA on " + QString::fromStdString(b.cudaDevice)
                                 : "CPU (" + QString::fromStdString(b.detail) + ")")
              << '\n';
    }
    out() << Qt::flush;
    err() << Qt::flush;
    return invalid > 0 ? kBadInput : kOk;
}

} // namespace gp::cli
