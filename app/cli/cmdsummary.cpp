#include "clicontext.h"

#include "calc/inventory.h"
#include "io/datapaths.h"
#include "io/scenarioreader.h"
#include "model/enumnames.h"
#include "sim/simbackend.h"

#include <QDir>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

namespace gp::cli {

namespace {

QJsonObject toJson(const QString& file, const Scenario& s, const calc::Inventory& inv)
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
            {"unpriced_gpus", unpriced}};
}

void printText(const QString& file, const Scenario& s, const calc::Inventory& inv)
{
    out() << QString::fromStdString(s.name) << "  (" << file << ")\n";
    out() << "  topology   " << inv.nodes << " nodes, " << inv.switches << " switches, " << inv.links
          << " links\n";
    QStringList models;
    for (const auto& [id, n] : inv.gpusByModel)
        models << QString("%1 x %2").arg(n).arg(QString::fromStdString(id));
    out() << "  GPUs       " << inv.gpus << " (" << models.join(", ") << "), "
          << QString::number(inv.vramGiB, 'f', 0) << " GiB usable VRAM\n";
    QStringList modes;
    for (const auto& [mode, n] : inv.gpusByMode)
        modes << QString("%1 %2").arg(n).arg(QString::fromStdString(std::string(enumName(mode))));
    out() << "  sharing    " << modes.join(", ");
    if (inv.migInstances > 0)
        out() << " (" << inv.migInstances << " MIG instances)";
    out() << "\n  workload   " << inv.tenants << " tenants, " << inv.jobs << " jobs asking for "
          << inv.gpusRequested << " GPUs (tp x pp x dp)\n";
    out() << "  rent       $" << QString::number(inv.costPerHourUsd, 'f', 2) << "/hour, $"
          << QString::number(inv.costPerMonthUsd, 'f', 0) << "/month (730 h)";
    if (!inv.unpricedGpus.empty()) {
        QStringList u;
        for (const auto& g : inv.unpricedGpus)
            u << QString::fromStdString(g);
        out() << "; no price for " << u.join(", ");
    }
    out() << "\n\n";
}

} // namespace

int runSummary(const QStringList& args)
{
    CommandLine cl("summary", "Summarise scenarios: topology, GPUs and usable VRAM, sharing modes, "
                              "workload size and the fleet's rent from the price preset.\n"
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
    int invalid = 0;
    for (const QString& file : files) {
        const io::ScenarioReadResult r = io::readScenarioFile(file, *catalog);
        if (!r.ok()) {
            for (const Issue& i : r.issues)
                err() << formatIssue(file, i) << '\n';
            ++invalid;
            continue;
        }
        const calc::Inventory inv = calc::takeInventory(*r.scenario, *catalog);
        if (json)
            arr.append(toJson(file, *r.scenario, inv));
        else
            printText(file, *r.scenario, inv);
    }
    if (json) {
        out() << QJsonDocument(arr).toJson(QJsonDocument::Indented);
    } else {
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
