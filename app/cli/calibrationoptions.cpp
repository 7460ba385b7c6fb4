// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#include "calibrationoptions.h"

#include "clicontext.h"

#include "calc/evaluation.h"
#include "document/librarygateway.h"
#include "io/calibrationprofileio.h"
#include "io/jsonfile.h"
#include "model/scenario.h"
#include "model/softwarestack.h"
#include "store/scenariolibrary.h"

#include <QFileInfo>
#include <QJsonArray>

namespace gp::cli {

std::optional<CalibrationProfile> loadProfileOrReport(const QCommandLineParser& parser, const QString& spec)
{
    if (QFileInfo(spec).isFile() || spec.endsWith(".json")) {
        Issues issues;
        const auto bytes = io::readFileBytes(spec, issues);
        if (bytes) {
            auto read = io::readCalibrationProfile(*bytes);
            for (const Issue& i : read.issues)
                err() << formatIssue(spec, i) << '\n';
            if (read)
                return std::move(*read);
            return std::nullopt;
        }
        for (const Issue& i : issues)
            err() << formatIssue(spec, i) << '\n';
        return std::nullopt;
    }
    QString name = spec;
    std::optional<int> version;
    if (const qsizetype at = spec.lastIndexOf('@'); at > 0) {
        bool ok = false;
        version = spec.mid(at + 1).toInt(&ok);
        if (!ok || *version < 1) {
            err() << spec << ": the version after @ must be a whole number from 1\n";
            return std::nullopt;
        }
        name = spec.left(at);
    }
    auto lib = store::ScenarioLibrary::open(libraryPath(parser));
    if (!lib) {
        err() << QString::fromStdString(lib.errorText()) << '\n';
        return std::nullopt;
    }
    const auto stored = (*lib)->calibrationProfile(name, version);
    if (!stored) {
        err() << libraryPath(parser) << ": " << QString::fromStdString(stored.errorText()) << '\n';
        return std::nullopt;
    }
    auto read = io::readCalibrationProfile(stored->document);
    if (!read) {
        for (const Issue& i : read.issues)
            err() << formatIssue(libraryPath(parser) + ": " + spec, i) << '\n';
        return std::nullopt;
    }
    read->version = stored->version;
    return std::move(*read);
}

bool readCalibrationOption(const QCommandLineParser& parser, std::optional<CalibrationProfile>& profile)
{
    if (!parser.isSet("calibration"))
        return true;
    profile = loadProfileOrReport(parser, parser.value("calibration"));
    return profile.has_value();
}

void applyProfile(const QCommandLineParser& parser, const CalibrationProfile& profile, Scenario& scenario,
                  Catalog* catalog)
{
    scenario.calibration.reset(); // the option's profile replaces the scenario's own
    Catalog scratch;
    Catalog& target = catalog ? *catalog : scratch;
    for (const CalibratedValue& v : profile.values) {
        // Without a catalog only what lives in the scenario: its assumptions and its tenants.
        const auto k = CalibrationKey::parse(v.key);
        const bool inScenario = k && (k->scope == CalibrationScope::Assumption || k->scope == CalibrationScope::Tenant);
        if (!inScenario && !catalog)
            continue;
        const Status s = applyCalibratedValue(v.key, v.value, scenario, target);
        for (const Issue& i : s.issues)
            err() << parser.value("calibration") << ": " << QString::fromStdString(i.path)
                  << ": warning: " << QString::fromStdString(i.message) << ": left at its default\n";
    }
}

std::optional<int> saveProfileToLibrary(const QCommandLineParser& parser, const CalibrationProfile& profile)
{
    auto lib = store::ScenarioLibrary::open(libraryPath(parser));
    if (!lib) {
        err() << QString::fromStdString(lib.errorText()) << '\n';
        return std::nullopt;
    }
    const auto version = document::saveCalibrationProfile(**lib, profile);
    if (!version) {
        err() << libraryPath(parser) << ": " << QString::fromStdString(version.errorText()) << '\n';
        return std::nullopt;
    }
    return *version;
}

QJsonObject calibrationUsedJson(const CalibrationProfile& profile)
{
    QJsonArray params;
    for (const CalibratedValue& v : profile.values)
        params.append(
            QJsonObject{{"key", QString::fromStdString(v.key)}, {"value", v.value}, {"default", v.defaultValue}});
    return QJsonObject{
        {"profile", QString::fromStdString(profile.name)}, {"version", profile.version}, {"parameters", params}};
}

void markCalibratedJobs(QJsonObject& evaluation, const CalibrationProfile& profile, const calc::Evaluation& ev,
                        const Scenario& scenario)
{
    QJsonArray jobs = evaluation.value("jobs").toArray();
    for (qsizetype i = 0; i < jobs.size() && std::size_t(i) < ev.jobs.size(); ++i) {
        const calc::JobResult& r = ev.jobs[std::size_t(i)];
        const Job* job = scenario.findJob(r.id);
        const std::string stack = job ? softwareStackOf(*job) : std::string();
        QJsonArray keys;
        for (const CalibratedValue* v : valuesFor(profile, r.gpuId, stack))
            keys.append(QString::fromStdString(v->key));
        QJsonObject o = jobs[i].toObject();
        o["calibrated_parameters"] = QJsonObject{
            {"profile", QString::fromStdString(profile.name)}, {"version", profile.version}, {"keys", keys}};
        jobs[i] = o;
    }
    evaluation["jobs"] = jobs;
}

} // namespace gp::cli
