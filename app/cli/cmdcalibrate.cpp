// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
// gpuplan-cli calibrate: the model's parameters fitted to the user's measurements, as a calibration
// profile (docs/cli.md#calibrate, docs/calibration.md, issue 38).
#include "calibrationoptions.h"
#include "clicontext.h"

#include "io/calibrationprofileio.h"
#include "io/jsonfile.h"
#include "io/measurementsio.h"
#include "study/calibration.h"
#include "study/calibrationjson.h"

#include <QDateTime>
#include <QJsonDocument>

#include <cmath>

namespace gp::cli {

namespace {

/// calibrate's exit status beyond 0/1/2 (its --help and docs/cli.md say the same).
constexpr int kNotConverged = 3;

const char* kCalibrateDescription =
    "Fit the model's parameters to measurements of the scenario's jobs (a gpuplan-measurements file,\n"
    "docs/measurements.md) by weighted least squares on relative errors with bounds, and write the result as\n"
    "a calibration profile (docs/calibration.md). Per GPU model the measured jobs run on: GEMM efficiency\n"
    "scale, memory-bound efficiency, scale-up collective efficiency and the sharing constants; per software\n"
    "stack: the step (or decode iteration) overhead; scenario-wide: runtime memory, link efficiency and the\n"
    "co-tenant busy fraction. Parameters no measurement depends on, or that move the same figures as another,\n"
    "stay at their default and are named. The report gives each measurement's error before and after, and\n"
    "the held-out error by k-fold cross-validation (leave-one-out with fewer than 2k measurements).\n"
    "\n"
    "The scenario and the measurements file are only read; the profile is written (--out, --save-to-library)\n"
    "only when the fit converged.\n"
    "\n"
    "Exit status: 0 fitted; 1 runtime failure (--out or the library cannot be written); 2 bad input or usage\n"
    "(unreadable files, unknown job ids, contradicting measurements, no measurement that constrains a\n"
    "parameter); 3 the fit did not converge (nothing written).";

QString calNum(double v) { return QString::number(v, 'g', 4); }
QString calPct(double f) { return QString::number(100.0 * f, 'f', 1) + " %"; }

void printCalibration(const study::CalibrationResult& r, const QString& scenarioFile)
{
    out() << "Calibration of " << scenarioFile << ": " << QString::fromStdString(r.convergence) << " (" << r.iterations
          << " iterations, " << r.evaluations << " evaluations)\n\nParameters fitted:\n";
    for (const study::FittedParameter& p : r.parameters) {
        if (!p.fitted)
            continue;
        out() << "  " << QString::fromStdString(p.parameter.key) << " = " << calNum(p.value)
              << (p.stdError ? " ± " + calNum(*p.stdError) : QString()) << " "
              << QString::fromStdString(p.parameter.unit) << "  (default " << calNum(p.parameter.defaultValue)
              << ", bounds " << calNum(p.parameter.minValue) << ".." << calNum(p.parameter.maxValue)
              << (p.atBound ? ", at a bound" : "") << ")\n";
    }
    out() << "\nLeft at their default:\n";
    for (const study::FittedParameter& p : r.parameters)
        if (!p.fitted)
            out() << "  " << QString::fromStdString(p.parameter.key) << " = " << calNum(p.parameter.defaultValue)
                  << ": " << QString::fromStdString(p.why) << '\n';
    out() << "\nMeasurements (predicted / measured - 1):\n";
    for (const study::MeasurementFit& m : r.measurements) {
        out() << "  " << QString::fromStdString(m.measurement.jobId) << " "
              << QString::fromUtf8(quantityName(m.measurement.quantity)) << " "
              << QString::fromUtf8(statisticName(m.measurement.statistic)) << " " << calNum(m.measurement.value)
              << ": ";
        if (!m.why.empty())
            out() << "left out: " << QString::fromStdString(m.why) << '\n';
        else
            out() << "before " << calPct(m.errorBefore()) << ", after " << calPct(m.errorAfter())
                  << (m.heldOut ? ", held out " + calPct(*m.heldOut / m.measurement.value - 1.0) : QString()) << '\n';
    }
    out() << "\nMean |error|: before " << calPct(r.meanAbsErrorBefore) << ", after " << calPct(r.meanAbsErrorAfter)
          << '\n';
    if (r.heldOutErrorAfter)
        out() << "Held out (" << r.folds << "-fold cross-validation): default " << calPct(*r.heldOutErrorBefore)
              << ", calibrated " << calPct(*r.heldOutErrorAfter) << '\n';
    else
        out() << "Held out: no cross-validation (--folds 0 or fewer than 2 measurements)\n";
    if (r.profile)
        out() << "Profile: " << QString::fromStdString(r.profile->name) << '\n';
}

} // namespace

int runCalibrate(const QStringList& args)
{
    CommandLine cl("calibrate", kCalibrateDescription);
    auto& p = cl.parser();
    p.addPositionalArgument("SCENARIO", "The scenario file whose jobs were measured.");
    p.addPositionalArgument("MEASUREMENTS", "A gpuplan-measurements file (docs/measurements.md).");
    p.addOption({"params",
                 "Only these parameters, comma-separated: keys (gpu.ID.memory_bound), names (memory_bound: every "
                 "GPU's) or prefixes (gpu.ID, stack). Default: all candidates.",
                 "LIST"});
    p.addOption({"folds", "k of the cross-validation (default 5; 0: none).", "K", "5"});
    p.addOption({"max-iterations", "Give up after N Levenberg-Marquardt iterations (default 200).", "N", "200"});
    p.addOption({"name", "The profile's name (default: SCENARIO-NAME/STACK).", "NAME"});
    p.addOption({"author", "The profile's author (default: $USER).", "NAME"});
    p.addOption({"out", "Write the profile as a JSON file (only when the fit converged).", "PROFILE.json"});
    p.addOption(
        {"save-to-library", "Store the profile in the scenario library (--db) as the next version of its name."});
    p.addOption({"json", "Print the report as JSON."});
    cl.addDbOption();
    if (auto done = cl.parse(args))
        return *done;
    const QStringList files = p.positionalArguments();
    if (files.size() != 2)
        return cl.refuse("give SCENARIO and MEASUREMENTS");
    bool foldsOk = false;
    const int folds = p.value("folds").toInt(&foldsOk);
    if (!foldsOk || folds < 0 || folds > 1000)
        return cl.refuse("--folds must be a whole number from 0 to 1000");
    bool iterationsOk = false;
    const int maxIterations = p.value("max-iterations").toInt(&iterationsOk);
    if (!iterationsOk || maxIterations < 1 || maxIterations > 100000)
        return cl.refuse("--max-iterations must be a whole number from 1 to 100000");
    if (p.isSet("out") && !outputIsNotAnInput(p, p.value("out"), files))
        return kBadInput;
    auto catalog = loadCatalogOrReport(p);
    if (!catalog)
        return kFailure;
    const auto scenario = readScenarioOrReport(files[0], *catalog);
    if (!scenario)
        return kBadInput;
    Issues issues;
    const auto bytes = io::readFileBytes(files[1], issues);
    MeasurementSet set;
    if (bytes)
        set = io::readMeasurements(*bytes, issues);
    for (const Issue& i : issues)
        err() << formatIssue(files[1], i) << '\n';
    if (hasErrors(issues)) {
        err() << "calibrate: " << files[1] << " has errors: nothing was fitted" << Qt::endl;
        return kBadInput;
    }
    if (!set.scenarioId.empty() && !scenario->name.empty() && set.scenarioId != scenario->name)
        err() << files[1] << ": scenario: warning: the measurements name scenario '"
              << QString::fromStdString(set.scenarioId) << "', the scenario is '"
              << QString::fromStdString(scenario->name) << "'\n";

    study::CalibrationOptions options;
    for (const QString& s : p.value("params").split(',', Qt::SkipEmptyParts))
        options.params.push_back(s.trimmed().toStdString());
    options.folds = folds;
    options.maxIterations = maxIterations;
    options.name = p.value("name").toStdString();
    options.author = (p.isSet("author") ? p.value("author") : qEnvironmentVariable("USER")).toStdString();
    options.createdAt = QDateTime::currentDateTimeUtc().toString(Qt::ISODate).toStdString();
    options.measurementsDigest = io::measurementsDigest(set);
    const study::CalibrationResult r = study::calibrate(*scenario, *catalog, set, options);
    for (const Issue& i : r.issues)
        err() << formatIssue(files[1], i) << '\n';
    if (p.isSet("json"))
        out() << QJsonDocument(study::calibrationToJson(r)).toJson(QJsonDocument::Indented);
    if (!r.ok()) {
        err() << "calibrate: " << QString::fromStdString(r.error) << Qt::endl;
        return r.converged || r.convergence.empty() ? kBadInput : kNotConverged;
    }
    if (!p.isSet("json"))
        printCalibration(r, files[0]);
    CalibrationProfile profile = *r.profile;
    if (p.isSet("save-to-library")) {
        const auto version = saveProfileToLibrary(p, profile);
        if (!version)
            return kFailure;
        profile.version = *version;
        if (!p.isSet("json"))
            out() << "Stored in the library as " << QString::fromStdString(profile.name) << " version "
                  << profile.version << '\n';
    }
    if (p.isSet("out") && !saveFileAtomically(p.value("out"), io::profileToJson(profile)))
        return kFailure;
    return kOk;
}

} // namespace gp::cli
