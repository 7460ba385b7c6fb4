// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
// gpuplan-cli profiles: the calibration profiles of the library and of files — list, show, diff,
// export (docs/cli.md#profiles, docs/calibration.md#profiles).
#include "calibrationoptions.h"
#include "clicontext.h"

#include "io/calibrationprofileio.h"
#include "io/scenariowriter.h"
#include "model/calibratedplan.h"
#include "store/scenariolibrary.h"

#include <QJsonArray>
#include <QJsonDocument>

namespace gp::cli {

namespace {

const char* kProfilesDescription =
    "Calibration profiles (docs/calibration.md#profiles). A PROFILE is a profile file (PROFILE.json) or a\n"
    "library profile NAME or NAME@VERSION (latest version without @) in --db.\n"
    "\n"
    "  list                 every stored version: name, version, author, date, measurements digest\n"
    "  show PROFILE         the profile's parameters (--json: the profile file)\n"
    "  diff PROFILE PROFILE the parameters whose values differ, or that one of them lacks\n"
    "  export PROFILE -o FILE  write the profile as a JSON file\n"
    "  use PROFILE SCENARIO [-o FILE]  make it the scenario's own profile: every evaluation of the\n"
    "                       scenario (workbench, evaluate, report, library) applies it; the scenario\n"
    "                       file is rewritten in place unless -o names another\n"
    "  drop SCENARIO [-o FILE]  remove the scenario's own profile (back to the defaults)\n"
    "\n"
    "Exit status: 0 done (diff: also when they differ); 1 runtime failure; 2 bad input or usage.";

QString profileNum(std::optional<double> v) { return v ? QString::number(*v, 'g', 6) : QString("—"); }

} // namespace

int runProfiles(const QStringList& args)
{
    CommandLine cl("profiles", kProfilesDescription);
    auto& p = cl.parser();
    p.addPositionalArgument("ACTION", "list, show, diff, export, use or drop.");
    p.addPositionalArgument("PROFILE", "A profile file or a library NAME[@VERSION].", "[PROFILE...]");
    p.addOption({{"o", "output"}, "export: the file to write; use, drop: the scenario file to write.", "FILE"});
    p.addOption({"json", "Print JSON."});
    cl.addDbOption();
    if (auto done = cl.parse(args))
        return *done;
    QStringList pos = p.positionalArguments();
    if (pos.isEmpty())
        return cl.refuse("no ACTION given");
    const QString action = pos.takeFirst();
    if (action == "list") {
        if (!pos.isEmpty())
            return cl.refuse("list takes no PROFILE");
        auto lib = store::ScenarioLibrary::open(libraryPath(p));
        if (!lib) {
            err() << QString::fromStdString(lib.errorText()) << Qt::endl;
            return kFailure;
        }
        const auto all = (*lib)->calibrationProfiles();
        if (!all) {
            err() << QString::fromStdString(all.errorText()) << Qt::endl;
            return kFailure;
        }
        QJsonArray rows;
        for (const store::StoredProfile& s : *all) {
            if (p.isSet("json"))
                rows.append(QJsonObject{{"name", s.name},
                                        {"version", s.version},
                                        {"author", s.author},
                                        {"created_at", s.createdAt},
                                        {"measurements_digest", s.measurementsDigest}});
            else
                out() << s.name << '@' << s.version << "  " << s.createdAt << "  " << s.author << "  "
                      << s.measurementsDigest.left(12) << '\n';
        }
        if (p.isSet("json"))
            out() << QJsonDocument(rows).toJson(QJsonDocument::Indented);
        return kOk;
    }
    if (action == "show" || action == "export") {
        if (pos.size() != 1)
            return cl.refuse(action + " takes one PROFILE");
        if (action == "export" && !p.isSet("output"))
            return cl.refuse("export needs -o FILE");
        const auto profile = loadProfileOrReport(p, pos[0]);
        if (!profile)
            return kBadInput;
        if (action == "export")
            return saveFileAtomically(p.value("output"), io::profileToJson(*profile)) ? kOk : kFailure;
        if (p.isSet("json")) {
            out() << io::profileToJson(*profile);
            return kOk;
        }
        out() << QString::fromStdString(profile->name) << " version " << profile->version << ", fitted "
              << QString::fromStdString(profile->createdAt) << " by " << QString::fromStdString(profile->author)
              << " to " << profile->measurementCount << " measurements (sha256 "
              << QString::fromStdString(profile->measurementsDigest).left(12) << ")\n";
        for (const CalibratedValue& v : profile->values)
            out() << "  " << QString::fromStdString(v.key) << " = " << profileNum(v.value) << " ± "
                  << profileNum(v.stdError) << "  (default " << profileNum(v.defaultValue) << ")\n";
        for (const std::string& k : profile->unconstrained)
            out() << "  " << QString::fromStdString(k) << ": not constrained, default\n";
        return kOk;
    }
    if (action == "diff") {
        if (pos.size() != 2)
            return cl.refuse("diff takes two PROFILEs");
        const auto a = loadProfileOrReport(p, pos[0]);
        const auto b = loadProfileOrReport(p, pos[1]);
        if (!a || !b)
            return kBadInput;
        const auto diff = diffProfiles(*a, *b);
        if (p.isSet("json")) {
            QJsonArray rows;
            for (const CalibrationDifference& d : diff)
                rows.append(QJsonObject{{"key", QString::fromStdString(d.key)},
                                        {"before", d.before ? QJsonValue(*d.before) : QJsonValue(QJsonValue::Null)},
                                        {"after", d.after ? QJsonValue(*d.after) : QJsonValue(QJsonValue::Null)}});
            out() << QJsonDocument(rows).toJson(QJsonDocument::Indented);
            return kOk;
        }
        if (diff.empty())
            out() << "no parameter differs\n";
        for (const CalibrationDifference& d : diff)
            out() << QString::fromStdString(d.key) << ": " << profileNum(d.before) << " -> " << profileNum(d.after)
                  << '\n';
        return kOk;
    }
    if (action == "use" || action == "drop") {
        const qsizetype want = action == "use" ? 2 : 1;
        if (pos.size() != want)
            return cl.refuse(action == "use" ? "use takes a PROFILE and a SCENARIO" : "drop takes a SCENARIO");
        const auto catalog = loadCatalogOrReport(p);
        if (!catalog)
            return kBadInput;
        std::optional<CalibrationProfile> profile;
        if (action == "use" && !(profile = loadProfileOrReport(p, pos[0])))
            return kBadInput;
        const QString file = pos.back();
        auto scenario = readScenarioOrReport(file, *catalog);
        if (!scenario)
            return kBadInput;
        scenario->calibration = profile;
        // What the catalog cannot take is said now, not at every evaluation.
        if (profile)
            for (const Issue& i : withCalibration(*scenario, *catalog, *profile).issues)
                err() << formatIssue(pos[0], i) << '\n';
        const QString target = p.isSet("output") ? p.value("output") : file;
        if (!saveFileAtomically(target, io::writeScenario(*scenario)))
            return kFailure;
        if (profile)
            out() << target << ": evaluated with profile " << QString::fromStdString(profileLabel(*profile)) << '\n';
        else
            out() << target << ": evaluated with the default parameters\n";
        return kOk;
    }
    return cl.refuse("unknown action '" + action + "' (list, show, diff, export, use, drop)");
}

} // namespace gp::cli
