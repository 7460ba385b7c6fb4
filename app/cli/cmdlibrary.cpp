// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#include "clicontext.h"

#include "document/librarygateway.h"
#include "io/datapaths.h"
#include "io/scenarioreader.h"
#include "store/serveraddress.h"

#include <QDir>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

namespace gp::cli {

namespace {

std::optional<qint64> parseId(const QString& s)
{
    bool ok = false;
    const qint64 id = s.toLongLong(&ok);
    return ok && id > 0 ? std::optional<qint64>(id) : std::nullopt;
}

QString kpi(const store::RevisionInfo& r, const char* key, int decimals)
{
    auto it = r.kpis.find(key);
    return it == r.kpis.end() ? QStringLiteral("-") : QString::number(it->second, 'f', decimals);
}

int list(store::ScenarioLibrary& lib, bool json)
{
    auto all = lib.list();
    if (!all) {
        err() << QString::fromStdString(all.errorText()) << Qt::endl;
        return kFailure;
    }
    if (json) {
        QJsonArray arr;
        for (const auto& s : *all) {
            QJsonObject kpis;
            for (const auto& [k, v] : s.latest.kpis)
                kpis[k] = v;
            arr.append(QJsonObject{{"id", s.id},
                                   {"name", s.name},
                                   {"tags", QJsonArray::fromStringList(s.tags)},
                                   {"revisions", s.revisionCount},
                                   {"updated_at", s.updatedAt.toString(Qt::ISODate)},
                                   {"kpis", kpis}});
        }
        out() << QJsonDocument(arr).toJson(QJsonDocument::Indented) << Qt::flush;
        return kOk;
    }
    out() << QString("%1  %2  %3  %4  %5  %6\n")
                 .arg("ID", 4)
                 .arg("NAME", -44)
                 .arg("REV", 3)
                 .arg("GPUS", 6)
                 .arg("$/MONTH", 12)
                 .arg("UPDATED (UTC)");
    for (const auto& s : *all)
        out() << QString("%1  %2  %3  %4  %5  %6\n")
                     .arg(s.id, 4)
                     .arg(s.name.left(44), -44)
                     .arg(s.revisionCount, 3)
                     .arg(kpi(s.latest, "gpus", 0), 6)
                     .arg(kpi(s.latest, "cost_per_month_usd", 0), 12)
                     .arg(s.updatedAt.toString("yyyy-MM-dd HH:mm"));
    out() << all->size() << " scenario(s) in " << QDir::toNativeSeparators(lib.path()) << '\n' << Qt::flush;
    return kOk;
}

int import(store::ScenarioLibrary& lib, const Catalog& catalog, const QString& file, const QString& note)
{
    const io::ScenarioReadResult r = io::readScenarioFile(file, catalog);
    for (const Issue& i : r.issues)
        out() << formatIssue(file, i) << '\n';
    out() << Qt::flush;
    if (!r.ok()) {
        err() << file << ": not imported (fix the problems above)" << Qt::endl;
        return kBadInput;
    }
    auto id = document::saveAsNew(lib, *r.value, catalog, note.isEmpty() ? "Imported from " + file : note);
    if (!id) {
        err() << QString::fromStdString(id.errorText()) << Qt::endl;
        return kFailure;
    }
    out() << "imported '" << QString::fromStdString(r.value->name) << "' as " << *id << Qt::endl;
    return kOk;
}

/// A revision of library scenario `id` from FILE, through the workbench's one save path
/// (document::saveRevision): with `base`, refused as a conflict when another save came after it.
int save(store::ScenarioLibrary& lib, const Catalog& catalog, const QString& file, qint64 id, std::optional<int> base,
         const QString& note)
{
    const io::ScenarioReadResult r = io::readScenarioFile(file, catalog);
    for (const Issue& i : r.issues)
        out() << formatIssue(file, i) << '\n';
    out() << Qt::flush;
    if (!r.ok()) {
        err() << file << ": not saved (fix the problems above)" << Qt::endl;
        return kBadInput;
    }
    if (auto known = lib.scenario(id); !known) { // as export and delete: an unknown id is bad input
        err() << QString::fromStdString(known.errorText()) << Qt::endl;
        return kBadInput;
    }
    auto rev = document::saveRevision(lib, id, *r.value, catalog, note.isEmpty() ? "Saved from " + file : note, base);
    if (!rev && store::ScenarioLibrary::isConflict(rev.issues)) {
        err() << file << ": not saved: " << QString::fromStdString(rev.issues.front().message)
              << " (export the latest revision, carry your edits over and save with its number as --base)" << Qt::endl;
        return kFailure;
    }
    if (!rev) {
        err() << QString::fromStdString(rev.errorText()) << Qt::endl;
        return kFailure;
    }
    out() << "saved '" << QString::fromStdString(r.value->name) << "' as revision " << *rev << " of scenario " << id
          << Qt::endl;
    return kOk;
}

int exportDoc(store::ScenarioLibrary& lib, qint64 id, std::optional<int> revision, const QString& file)
{
    auto doc = lib.document(id, revision);
    if (!doc) {
        err() << QString::fromStdString(doc.errorText()) << Qt::endl;
        return kBadInput;
    }
    if (!saveFileAtomically(file, *doc))
        return kFailure;
    out() << "exported scenario " << id << " to " << file << Qt::endl;
    return kOk;
}

/// Opening already refused a damaged file (quick check); this runs the full check.
int check(store::ScenarioLibrary& lib)
{
    const auto integrity = lib.integrityCheck();
    const auto all = lib.list();
    const auto drafts = lib.drafts();
    for (const Issues* issues : {&integrity.issues, &all.issues, &drafts.issues})
        if (hasErrors(*issues)) {
            err() << QString::fromStdString(issueLines(*issues)) << Qt::endl;
            return kFailure;
        }
    if (*integrity != "ok") {
        err() << lib.path() << ": the library is damaged: " << integrity->split('\n').mid(0, 10).join("; ") << Qt::endl;
        return kFailure;
    }
    int revisions = 0;
    for (const auto& s : *all)
        revisions += s.revisionCount;
    out() << lib.path() << ": ok (" << all->size() << " scenarios, " << revisions << " revisions, " << drafts->size()
          << " autosaved drafts)" << Qt::endl;
    return kOk;
}

} // namespace

int runLibrary(const QStringList& args)
{
    CommandLine cl("library", "Manage the scenario library.\n"
                              "  list                 every scenario with its KPIs\n"
                              "  import FILE          validate FILE, then add it as a new scenario\n"
                              "  save FILE --scenario ID [--base N]\n"
                              "                       validate FILE, then add it as the next revision of scenario\n"
                              "                       ID; refused (nothing saved) when N is not the latest revision\n"
                              "  export ID -o FILE    write the scenario's JSON exactly as stored\n"
                              "  delete ID            remove a scenario and all its revisions\n"
                              "  check                SQLite's integrity check, scenarios and autosaved drafts\n"
                              "  init-server          a team library: its schema and the roles gpuplan_planner and\n"
                              "                       gpuplan_viewer (--db postgresql://…)");
    auto& p = cl.parser();
    cl.addDbOption();
    p.addPositionalArgument("action", "list, import, save, export, delete, check or init-server.",
                            "list|import|save|export|delete|check|init-server");
    p.addPositionalArgument("arg", "FILE for import and save, ID for export and delete.", "[FILE|ID]");
    p.addOption({{"o", "output"}, "export: the file to write.", "FILE"});
    p.addOption({"revision", "export: this revision number instead of the latest.", "N"});
    p.addOption({"scenario", "save: the library scenario that gets the revision.", "ID"});
    p.addOption({"base", "save: the revision FILE's edits started from; refused unless it is still the latest.", "N"});
    p.addOption({"note", "import and save: the revision note.", "TEXT"});
    p.addOption({"json", "list: print JSON."});
    if (auto done = cl.parse(args))
        return *done;
    const QStringList pos = p.positionalArguments();
    const QString action = pos.value(0);
    const int wantArgs = action == "list" || action == "check" || action == "init-server" ? 1 : 2;
    if (action.isEmpty() ||
        !QStringList{"list", "import", "save", "export", "delete", "check", "init-server"}.contains(action)) {
        err() << cl.usageError(action.isEmpty() ? "no action given" : "unknown action '" + action + "'") << Qt::endl;
        return kBadInput;
    }
    if (pos.size() != wantArgs) {
        err() << cl.usageError(action + (wantArgs == 1 ? " takes no argument" : " needs one argument")) << Qt::endl;
        return kBadInput;
    }
    std::optional<qint64> id;
    if (action == "export" || action == "delete") {
        id = parseId(pos[1]);
        if (!id) {
            err() << cl.usageError("'" + pos[1] + "' is not a scenario id") << Qt::endl;
            return kBadInput;
        }
    }
    if (action == "save") {
        if (!p.isSet("scenario")) {
            err() << cl.usageError("save needs --scenario ID") << Qt::endl;
            return kBadInput;
        }
        id = parseId(p.value("scenario"));
        if (!id) {
            err() << cl.usageError("'" + p.value("scenario") + "' is not a scenario id") << Qt::endl;
            return kBadInput;
        }
    }
    std::optional<int> revision;
    std::optional<int> base;
    for (const auto& [option, value] : {std::pair{"revision", &revision}, std::pair{"base", &base}})
        if (p.isSet(option)) {
            bool ok = false;
            *value = p.value(option).toInt(&ok);
            if (!ok || **value < 1) {
                err() << cl.usageError(QString("--%1 must be a positive number").arg(option)) << Qt::endl;
                return kBadInput;
            }
        }
    if (action == "export" && !p.isSet("output")) {
        err() << cl.usageError("export needs -o FILE") << Qt::endl;
        return kBadInput;
    }
    if (action == "init-server" && !store::isServerAddress(p.value("db"))) {
        err() << cl.usageError("init-server sets up a team library: give --db postgresql://user@host:port/dbname")
              << Qt::endl;
        return kBadInput;
    }
    auto catalog = loadCatalogOrReport(p);
    if (!catalog)
        return kFailure;
    // Only the default library is seeded with the samples on first use; --db is the user's.
    const QString samples = p.isSet("db") ? QString() : QDir(io::bundledDataDir()).absoluteFilePath("samples");
    auto opened = document::openLibrary(libraryPath(p), *catalog, samples);
    if (!opened) {
        err() << QString::fromStdString(opened.errorText()) << Qt::endl;
        return kFailure;
    }
    store::ScenarioLibrary* lib = opened->get();
    if (action == "list")
        return list(*lib, p.isSet("json"));
    if (action == "check")
        return check(*lib);
    if (action == "init-server") {
        if (Status roles = lib->initServerRoles(); !roles) {
            err() << QString::fromStdString(roles.errorText()) << Qt::endl;
            return kFailure;
        }
        out() << "team library " << p.value("db") << ": schema " << store::ScenarioLibrary::kSchemaVersion << ", roles "
              << store::ScenarioLibrary::kPlannerRole << " (read and write) and " << store::ScenarioLibrary::kViewerRole
              << " (read only)\n"
              << "give people one: CREATE ROLE alice LOGIN IN ROLE " << store::ScenarioLibrary::kPlannerRole << ";\n"
              << Qt::flush;
        return kOk;
    }
    if (action == "import")
        return import(*lib, *catalog, pos[1], p.value("note"));
    if (action == "save")
        return save(*lib, *catalog, pos[1], *id, base, p.value("note"));
    if (action == "export" && !outputIsNotAnInput(p, p.value("output"), {libraryPath(p)}))
        return kBadInput;
    if (action == "export")
        return exportDoc(*lib, *id, revision, p.value("output"));
    if (Status deleted = lib->deleteScenario(*id); !deleted) {
        err() << QString::fromStdString(deleted.errorText()) << Qt::endl;
        return kBadInput;
    }
    out() << "deleted scenario " << *id << Qt::endl;
    return kOk;
}

} // namespace gp::cli
