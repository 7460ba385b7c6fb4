// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
// gpuplan-cli edit: the workbench's edits (document/commands.h) from a script.
#include "clicontext.h"

#include "document/commands.h"
#include "document/jobedits.h"
#include "io/scenarioreader.h"
#include "io/scenariowriter.h"
#include "model/enumnames.h"

#include <QJsonArray>
#include <QJsonDocument>

#include <cmath>
#include <map>

namespace gp::cli {

namespace {

using document::Edit;
using EditResult = Result<Edit>;

std::vector<std::string> splitIds(const QString& s)
{
    std::vector<std::string> out;
    for (const QString& part : s.split(',', Qt::SkipEmptyParts))
        out.push_back(part.trimmed().toStdString());
    return out;
}

/// "NAME=VALUE" split at the first '='; nullopt without one.
std::optional<std::pair<QString, QString>> keyValue(const QString& s)
{
    const qsizetype eq = s.indexOf('=');
    if (eq <= 0)
        return std::nullopt;
    return std::pair{s.left(eq), s.mid(eq + 1)};
}

EditResult usage(const QString& option, const QString& value, const std::string& expected)
{
    return EditResult::failure("--" + option.toStdString() + " " + value.toStdString(), "expected " + expected);
}

EditResult sharingEdit(const Scenario& s, const Catalog& catalog, const QString& option, const QString& value)
{
    const auto kv = keyValue(value);
    if (!kv)
        return usage(option, value, option == "sharing" ? "NODE[,NODE...]=JSON" : "NODE:GPU=JSON");
    QJsonParseError e{};
    const QJsonDocument doc = QJsonDocument::fromJson(kv->second.toUtf8(), &e);
    if (!doc.isObject())
        return usage(option, value,
                     "a JSON object after '=', e.g. {\"mode\": \"mps\", \"mps\": {\"active_thread_pct\": 50}}");
    if (option == "sharing") {
        auto cfg = io::readSharingJson(doc.object(), "sharing", catalog);
        if (!cfg.ok())
            return EditResult::failure(cfg.issues);
        return document::setNodeSharing(s, catalog, splitIds(kv->first), *cfg.value);
    }
    const QStringList where = kv->first.split(':');
    bool ok = false;
    const int gpu = where.size() == 2 ? where[1].toInt(&ok) : -1;
    if (!ok)
        return usage(option, value, "NODE:GPU=JSON with GPU a number");
    auto cfg = io::readSharingJson(doc.object(), "gpu_sharing", catalog);
    if (!cfg.ok())
        return EditResult::failure(cfg.issues);
    return document::setGpuSharing(s, catalog, where[0].toStdString(), gpu, *cfg.value);
}

EditResult addJobEdit(const Scenario& s, const Catalog& catalog, const QString& value)
{
    document::JobRequest r;
    bool haveKind = false;
    for (const QString& part : value.split(',', Qt::SkipEmptyParts)) {
        const auto kv = keyValue(part);
        if (!kv)
            return usage("add-job", value, "KEY=VALUE,... (tenant, new-tenant, preset, kind, tp, pp, dp, amount, pin)");
        const QString& k = kv->first;
        const std::string v = kv->second.trimmed().toStdString();
        bool ok = true;
        if (k == "tenant")
            r.tenantId = v;
        else if (k == "new-tenant")
            r.newTenantName = v;
        else if (k == "preset")
            r.preset = v;
        else if (k == "kind") {
            auto kind = enumFromName<JobKind>(v);
            if (!kind)
                return EditResult::failure("--add-job kind",
                                           "'" + v + "' is not a job kind (" + enumChoices<JobKind>() + ")");
            r.kind = *kind;
            haveKind = true;
        } else if (k == "tp")
            r.tp = kv->second.toInt(&ok);
        else if (k == "pp")
            r.pp = kv->second.toInt(&ok);
        else if (k == "dp")
            r.dp = kv->second.toInt(&ok);
        else if (k == "amount")
            r.amount = kv->second.toDouble(&ok);
        else if (k == "pin")
            r.pinNode = v;
        else
            return EditResult::failure("--add-job " + k.toStdString(), "unknown key (tenant, new-tenant, preset, kind, "
                                                                       "tp, pp, dp, amount, pin)");
        if (!ok)
            return EditResult::failure("--add-job " + k.toStdString(), "'" + v + "' is not a number");
    }
    if (!haveKind || r.preset.empty() || !(r.amount > 0) || !std::isfinite(r.amount))
        return usage("add-job", value, "at least preset=ID, kind=KIND and amount=N (billions of tokens or requests/s)");
    if (r.tenantId.empty() && r.newTenantName.empty())
        return usage("add-job", value, "tenant=ID or new-tenant=NAME");
    return document::addJob(s, catalog, r);
}

/// One operation of the command line as a rule's edit of `s`.
EditResult operation(const Scenario& s, const Catalog& catalog, const QString& option, const QString& value)
{
    if (option == "set") {
        auto patch = document::parseFieldPatch(value.toStdString());
        if (!patch.ok())
            return EditResult::failure(patch.issues);
        return document::patchFields(s, catalog, {*patch.value});
    }
    if (option == "link") {
        const std::vector<std::string> ends = splitIds(value);
        if (ends.size() != 2)
            return usage(option, value, "A,B (two node or switch ids)");
        return document::addLink(s, catalog, ends[0], ends[1]);
    }
    if (option == "pin") {
        const auto kv = keyValue(value);
        const QStringList where = kv ? kv->second.split(':') : QStringList();
        if (!kv || where.isEmpty() || where.size() > 3 || where[0].isEmpty())
            return usage(option, value, "JOB=NODE[:GPU[:INSTANCE]]");
        Pin pin{where[0].toStdString(), std::nullopt, std::nullopt};
        bool ok = true;
        if (where.size() > 1)
            pin.gpu = where[1].toInt(&ok);
        if (ok && where.size() > 2)
            pin.migInstance = where[2].toInt(&ok);
        if (!ok)
            return usage(option, value, "JOB=NODE[:GPU[:INSTANCE]] with GPU and INSTANCE numbers");
        return document::pinJob(s, catalog, kv->first.toStdString(), pin);
    }
    if (option == "unpin")
        return document::pinJob(s, catalog, value.toStdString(), std::nullopt);
    if (option == "sharing" || option == "gpu-sharing")
        return sharingEdit(s, catalog, option, value);
    if (option == "remove")
        return document::removeItems(s, catalog, splitIds(value));
    if (option == "move") {
        const auto kv = keyValue(value);
        const QStringList xy = kv ? kv->second.split(',') : QStringList();
        bool okX = false, okY = false;
        const double x = xy.size() == 2 ? xy[0].toDouble(&okX) : 0.0;
        const double y = xy.size() == 2 ? xy[1].toDouble(&okY) : 0.0;
        if (!okX || !okY || !std::isfinite(x) || !std::isfinite(y))
            return usage(option, value, "ID=X,Y");
        return document::moveItems(s, {{kv->first.toStdString(), Point{x, y}}});
    }
    if (option == "add-job")
        return addJobEdit(s, catalog, value);
    if (option == "arrange")
        return document::arrangeFabric(s);
    if (option == "duplicate-job")
        return document::duplicateJob(s, catalog, value.toStdString());
    if (option == "place-best")
        return document::placeJobBest(s, catalog, value.toStdString());
    if (option == "rename")
        return document::renameScenario(s, value.toStdString());
    return EditResult::failure("--" + option.toStdString(), "unknown operation");
}

QJsonObject changesJson(const std::string& text, const document::Changes& changes)
{
    QJsonArray arr;
    for (const document::Change& c : changes) {
        static const char* kinds[] = {"reset", "added", "removed", "updated"};
        QJsonArray fields;
        for (const std::string& f : c.fields)
            fields.append(QString::fromStdString(f));
        arr.append(QJsonObject{{"change", kinds[static_cast<int>(c.kind)]},
                               {"items", QString::fromUtf8(document::itemKindName(c.item).data())},
                               {"id", QString::fromStdString(c.id)},
                               {"fields", fields}});
    }
    return {{"edit", QString::fromStdString(text)}, {"changes", arr}};
}

} // namespace

int runEdit(const QStringList& args)
{
    CommandLine cl("edit",
                   "Apply the workbench's edits to a scenario file, in the order given, each checked by the same "
                   "rules as in the workbench; if any is refused, nothing is written and the reasons are printed "
                   "as PATH: message (exit 2). Paths address items by id: nodes[ID], switches[ID], links[ID], "
                   "groups[ID], tenants[ID], jobs[ID] (docs/cli.md#edit).");
    auto& p = cl.parser();
    p.addPositionalArgument("FILE", "The scenario JSON file.");
    p.addOption({"set",
                 "Set a field: PATH=VALUE, e.g. nodes[node-3].sharing.mode=passthrough or "
                 "jobs[chat].parallelism.tp=2; VALUE is JSON (a bare word is a string; null removes).",
                 "PATH=VALUE"});
    p.addOption({"link", "Link two nodes or switches at the bandwidth both ends offer.", "A,B"});
    p.addOption(
        {"pin", "Pin a job to a node, a GPU of it, or a MIG instance of that GPU.", "JOB=NODE[:GPU[:INSTANCE]]"});
    p.addOption({"unpin", "Let the placement policy place a job again.", "JOB"});
    p.addOption({"sharing", "Share every GPU of the nodes this way (clears their per-GPU settings).", "NODES=JSON"});
    p.addOption({"gpu-sharing", "Share one GPU of a node this way.", "NODE:GPU=JSON"});
    p.addOption({"remove",
                 "Remove nodes, switches, links, groups, jobs or tenants (with their links and jobs; pins on removed "
                 "nodes are dropped).",
                 "ID[,ID...]"});
    p.addOption({"move", "Move a node or switch on the canvas.", "ID=X,Y"});
    p.addOption({"arrange",
                 "Lay the canvas out as a layered fabric: spines on top, each leaf with its rack of nodes below, "
                 "racks in pod rows (Edit > Arrange as Fabric)."});
    p.addOption({"duplicate-job", "Copy a job into its tenant (fresh id, \"… (copy)\", unpinned).", "JOB"});
    p.addOption({"place-best",
                 "Pin a job to the node where it does best: each kind of node tried with the whole plan evaluated; "
                 "placed, within its tenant's SLA, then the least penalty, then the least cost.",
                 "JOB"});
    p.addOption({"add-job",
                 "Add a job as the Add Job dialog does: tenant=ID or new-tenant=NAME, preset=ID, "
                 "kind=KIND, amount=N, and optionally tp, pp, dp, pin=NODE.",
                 "KEY=VALUE,..."});
    p.addOption({"rename", "Rename the scenario.", "NAME"});
    p.addOption({{"o", "output"}, "Write the edited scenario here (atomically).", "OUT"});
    p.addOption({{"i", "in-place"}, "Rewrite FILE instead."});
    p.addOption({"json", "Print what each edit changed as JSON lines (edit, changes: change, items, id, fields)."});
    if (auto done = cl.parse(args))
        return *done;
    const QStringList files = p.positionalArguments();
    if (files.size() != 1) {
        err() << cl.usageError("give exactly one FILE") << Qt::endl;
        return kBadInput;
    }
    if (p.isSet("output") == p.isSet("in-place")) {
        err() << cl.usageError("give either -o OUT or --in-place") << Qt::endl;
        return kBadInput;
    }
    auto catalog = loadCatalogOrReport(p);
    if (!catalog)
        return kFailure;
    const QString& file = files[0];
    io::ScenarioReadResult read = io::readScenarioFile(file, *catalog);
    for (const Issue& i : read.issues)
        err() << formatIssue(file, i) << '\n';
    if (!read.ok()) {
        err() << Qt::flush;
        return kBadInput;
    }
    // The operations in the order they were given (QCommandLineParser keeps each option's
    // values in order, and optionNames() the order of the options).
    static const QStringList operations = {"set",         "link",    "pin",   "unpin",   "sharing",
                                           "gpu-sharing", "remove",  "move",  "arrange", "duplicate-job",
                                           "place-best",  "add-job", "rename"};
    std::map<QString, int> used;
    Scenario s = std::move(*read.value);
    int count = 0;
    for (const QString& name : p.optionNames()) {
        const QString option = name == "o" ? "output" : name == "i" ? "in-place" : name;
        if (!operations.contains(option))
            continue;
        const QString value = p.values(option).value(used[option]++);
        EditResult r = operation(s, *catalog, option, value);
        if (!r.ok()) {
            for (const Issue& i : r.issues)
                err() << formatIssue(file, i) << '\n';
            err() << file << ": --" << option << ' ' << value << ": refused; nothing was written\n" << Qt::flush;
            return kBadInput;
        }
        for (const Issue& i : r.issues)
            err() << formatIssue(file, i) << '\n';
        const document::Changes changes = document::applyEdit(s, *r.value, true);
        ++count;
        if (p.isSet("json"))
            out() << QJsonDocument(changesJson(r.value->text, changes)).toJson(QJsonDocument::Compact) << '\n';
        else
            out() << QString::fromStdString(r.value->empty() ? r.value->text + " (no change)" : r.value->text) << '\n';
    }
    if (count == 0) {
        err() << cl.usageError("no edit given (--set, --link, --pin, --unpin, --sharing, --gpu-sharing, --remove, "
                               "--move, --arrange, --duplicate-job, --place-best, --add-job, --rename)")
              << Qt::endl;
        return kBadInput;
    }
    const QString target = p.isSet("in-place") ? file : p.value("output");
    if (!outputIsNotAnInput(p, target, {})) // onto FILE itself is --in-place
        return kBadInput;
    if (!saveFileAtomically(target, io::writeScenario(s)))
        return kFailure;
    out() << Qt::flush;
    err() << Qt::flush;
    return kOk;
}

} // namespace gp::cli
