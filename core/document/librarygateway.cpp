#include "librarygateway.h"

#include "io/scenariowriter.h"

#include <QDir>

namespace gp::document {

std::map<QString, double> kpisOf(const Scenario& scenario, const Catalog& catalog)
{
    const calc::Inventory inv = calc::takeInventory(scenario, catalog);
    return {{"nodes", inv.nodes},
            {"gpus", inv.gpus},
            {"vram_gib", inv.vramGiB},
            {"tenants", inv.tenants},
            {"jobs", inv.jobs},
            {"gpus_requested", static_cast<double>(inv.gpusRequested)},
            {"cost_per_month_usd", inv.costPerMonthUsd}};
}

std::optional<qint64> saveAsNew(store::ScenarioLibrary& lib, const Scenario& scenario,
                                const Catalog& catalog, const QString& note)
{
    return lib.createScenario(QString::fromStdString(scenario.name),
                              QString::fromStdString(scenario.description), io::writeScenario(scenario),
                              note, kpisOf(scenario, catalog));
}

io::ScenarioReadResult loadFromLibrary(store::ScenarioLibrary& lib, qint64 id, const Catalog& catalog,
                                       std::optional<int> revision)
{
    auto bytes = lib.document(id, revision);
    if (!bytes) {
        io::ScenarioReadResult r;
        r.issues.push_back(Issue::error("", lib.lastError().toStdString()));
        return r;
    }
    return io::readScenario(*bytes, catalog);
}

std::unique_ptr<store::ScenarioLibrary> openLibrary(const QString& path, const Catalog& catalog,
                                                    const QString& samplesDir, QString* error)
{
    auto lib = store::ScenarioLibrary::open(path, error);
    if (!lib)
        return nullptr;
    auto count = lib->scenarioCount();
    if (!count) {
        if (error)
            *error = lib->lastError();
        return nullptr;
    }
    if (*count > 0 || samplesDir.isEmpty())
        return lib;
    const QDir dir(samplesDir);
    for (const QString& f : dir.entryList({"*.json"}, QDir::Files, QDir::Name)) {
        auto read = io::readScenarioFile(dir.absoluteFilePath(f), catalog);
        if (!read.ok())
            continue; // a broken sample is reported by `gpuplan-cli validate`, not here
        if (!saveAsNew(*lib, *read.scenario, catalog, "Bundled sample " + f)) {
            if (error)
                *error = lib->lastError();
            return nullptr;
        }
    }
    return lib;
}

} // namespace gp::document
