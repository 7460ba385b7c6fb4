// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#include "librarygateway.h"

#include "io/calibrationprofileio.h"

#include "calc/evaluate.h"
#include "calc/kpiregistry.h"
#include "commands.h"
#include "document.h"
#include "io/scenariowriter.h"
#include "model/validation.h"

#include <QDir>

namespace gp::document {

std::map<QString, double> kpisOf(const Scenario& scenario, const Catalog& catalog)
{
    const calc::Inventory inv = calc::takeInventory(scenario, catalog);
    std::map<QString, double> kpis = {{"nodes", inv.nodes},
                                      {"gpus", inv.gpus},
                                      {"vram_gib", inv.vramGiB},
                                      {"tenants", inv.tenants},
                                      {"jobs", inv.jobs},
                                      {"gpus_requested", static_cast<double>(inv.gpusRequested)},
                                      {"cost_per_month_usd", inv.costPerMonthUsd}};
    // The cost decomposition of the plan as saved (docs/model-reference.md, "Cost decomposition").
    const calc::Kpis k = calc::evaluate(scenario, catalog).kpis;
    kpis["cost_definition"] = kCostDefinition;
    kpis["waste_per_month_usd"] = k.wastePerMonthUsd();
    for (const calc::CostPart& part : calc::costParts())
        kpis[QStringLiteral("cost_") + QLatin1String(part.key) + QStringLiteral("_usd")] = k.costBreakdown.*part.value;
    kpis["unused_memory_bytes"] = k.unusedMemoryBytes;
    return kpis;
}

StoredWaste storedWaste(const std::map<QString, double>& kpis)
{
    if (!kpis.count("waste_per_month_usd"))
        return StoredWaste::None;
    const auto definition = kpis.find("cost_definition");
    if (definition == kpis.end() || definition->second < 2)
        return StoredWaste::OldDefinition;
    return definition->second >= kCostDefinition ? StoredWaste::Current : StoredWaste::SliceAsPenalty;
}

Result<qint64> saveAsNew(store::ScenarioLibrary& lib, const Scenario& scenario, const Catalog& catalog,
                         const QString& note)
{
    return lib.createScenario(QString::fromStdString(scenario.name), QString::fromStdString(scenario.description),
                              io::writeScenario(scenario), note, kpisOf(scenario, catalog));
}

Result<int> saveRevision(store::ScenarioLibrary& lib, qint64 id, const Scenario& scenario, const Catalog& catalog,
                         const QString& note, std::optional<int> baseRevision)
{
    return lib.addRevision(id, io::writeScenario(scenario), note, kpisOf(scenario, catalog), baseRevision);
}

io::ScenarioReadResult loadFromLibrary(store::ScenarioLibrary& lib, qint64 id, const Catalog& catalog,
                                       std::optional<int> revision)
{
    auto bytes = lib.document(id, revision);
    if (!bytes)
        return Failure{std::move(bytes.issues)};
    io::ScenarioReadResult read = io::readScenario(*bytes, catalog);
    // The library's name is the scenario's name: a rename in the library applies to every
    // revision without rewriting them (the next save writes it into the JSON).
    // A name another program wrote into the library is used only if it is a name by the rules
    // of a file; else the document keeps its own, with a warning.
    if (read)
        if (auto summary = lib.scenario(id)) {
            const std::string name = summary->name.toStdString();
            if (const std::string why = textProblem(name, TextKind::Name); why.empty())
                read->name = name;
            else
                read.issues.push_back(Issue::warning("name", "the library's name for scenario " + std::to_string(id) +
                                                                 " is not used: " + why));
        }
    return read;
}

Result<std::unique_ptr<store::ScenarioLibrary>> openLibrary(const QString& path, const Catalog& catalog,
                                                            const QString& samplesDir)
{
    auto opened = store::ScenarioLibrary::open(path);
    if (!opened)
        return opened;
    store::ScenarioLibrary* lib = opened->get();
    auto count = lib->scenarioCount();
    if (!count)
        return Failure{std::move(count.issues)};
    if (*count > 0 || samplesDir.isEmpty())
        return opened;
    // Every sample in one transaction (seedIfEmpty): a start killed while seeding leaves no
    // sample behind, and the next start seeds them all; of two first starts at once, one seeds.
    const QDir dir(samplesDir);
    std::vector<store::NewScenario> samples;
    for (const QString& f : dir.entryList({"*.json"}, QDir::Files, QDir::Name)) {
        auto read = io::readScenarioFile(dir.absoluteFilePath(f), catalog);
        if (!read.ok())
            continue; // a broken sample is reported by `gpuplan-cli validate`, not here
        const Scenario& s = *read.value;
        samples.push_back({QString::fromStdString(s.name), QString::fromStdString(s.description), io::writeScenario(s),
                           "Bundled sample " + f, kpisOf(s, catalog)});
    }
    if (auto seeded = lib->seedIfEmpty(samples); !seeded)
        return Failure{std::move(seeded.issues)};
    return opened;
}

Result<std::unique_ptr<Document>> restoreDraft(store::ScenarioLibrary& lib, const store::Draft& draft,
                                               const Catalog& catalog)
{
    using R = Result<std::unique_ptr<Document>>;
    io::ScenarioReadResult read = io::readScenario(draft.document, catalog);
    if (!read.ok()) {
        // Where the draft came from, then what is wrong with it, each with its JSON path.
        Issues issues{
            Issue::error("", QObject::tr("The autosaved draft of '%1' cannot be read").arg(draft.name).toStdString())};
        for (auto& i : read.issues)
            if (i.isError())
                issues.push_back(std::move(i));
        return R::failure(std::move(issues));
    }
    std::unique_ptr<Document> doc;
    if (draft.scenarioId && draft.baseRevision) {
        io::ScenarioReadResult base = loadFromLibrary(lib, *draft.scenarioId, catalog, draft.baseRevision);
        if (base.ok()) {
            doc = std::make_unique<Document>(std::move(*base.value));
            doc->markSaved(*draft.scenarioId, *draft.baseRevision);
            Scenario restored = std::move(*read.value);
            doc->push(replaceScenario(doc->scenario(), catalog, std::move(restored),
                                      QObject::tr("Restore autosaved work").toStdString()));
            return R::success(std::move(doc));
        }
    }
    doc = std::make_unique<Document>(std::move(*read.value));
    if (draft.scenarioId) {
        if (auto revs = lib.revisions(*draft.scenarioId); revs && !revs->empty())
            doc->markSaved(*draft.scenarioId, revs->back().number);
    }
    doc->markUnsaved();
    return R::success(std::move(doc));
}

Result<int> saveCalibrationProfile(store::ScenarioLibrary& lib, const CalibrationProfile& profile)
{
    return lib.addCalibrationProfile(QString::fromStdString(profile.name), QString::fromStdString(profile.author),
                                     QString::fromStdString(profile.createdAt),
                                     QString::fromStdString(profile.measurementsDigest), [&](int v) {
                                         CalibrationProfile p = profile;
                                         p.version = v;
                                         return io::profileToJson(p);
                                     });
}

} // namespace gp::document
