// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#include "calibrationoptions.h"
#include "clicontext.h"
#include "sim/planresults.h"

#include "document/librarygateway.h"
#include "io/clusterconfigwriter.h"
#include "io/jsonfile.h"
#include "io/measurementsio.h"
#include "io/scenarioreader.h"
#include "study/measurementsvsplan.h"
#include "study/planvsmeasured.h"
#include "ui/figures/planfigures.h"
#include "ui/figures/reportwriter.h"

#include <QDateTime>
#include <QDir>
#include <QFileInfo>
#include <QJsonDocument>
#include <QJsonParseError>

#include <cmath>

namespace gp::cli {

int runReport(const QStringList& args)
{
    CommandLine cl("report",
                   "Write the detailed PDF report of a scenario: executive summary and KPIs, topology, cost "
                   "and memory, sharing trade-offs, predictability and jobs, assumptions — the same report "
                   "as the workbench's File > Export Report. --check-plan and --measurements add \"Plan vs measured\" "
                   "pages.");
    auto& p = cl.parser();
    p.addPositionalArgument("FILE", "Scenario JSON file (or use --scenario).", "[FILE]");
    p.addOption(
        {{"o", "output"},
         "PDF file to write (replaced atomically; a FIFO or a character device is written into, - is standard output).",
         "OUT.pdf"});
    p.addOption({"scenario", "A library scenario by id instead of a FILE (gpuplan-cli library list).", "ID"});
    p.addOption({"trials",
                 QString("Monte Carlo trials for the predictability page (default %1, as the workbench).")
                     .arg(sim::TrialCounts::kPlan),
                 "N"});
    p.addOption({"charts", "Also write every chart as PNG and SVG and the KPIs and jobs as CSV into DIR.", "DIR"});
    p.addOption({"current",
                 "The plan is recommended in place of this scenario file (e.g. optimize plan's plan-1.json in place "
                 "of its input): adds the page \"Recommended vs current\" — what changes, what it saves per month, "
                 "what it costs in penalty and predictability.",
                 "FILE"});
    p.addOption({"check-plan",
                 "Add the pages \"Plan vs measured: telemetry\", its jobs' and its GPUs' (each table over as many "
                 "pages as it needs, up to four): the comparison check-plan --json wrote for this plan "
                 "(gpuplan-cli check-plan PLAN --prometheus URL --from T --json > check.json).",
                 "FILE"});
    p.addOption({"measurements",
                 "Add the page \"Plan vs measured: benchmarks\": a measurements file (docs/measurements.md) beside "
                 "the plan's figures.",
                 "FILE"});
    p.addOption({"threshold",
                 "Flag measurements of --measurements beyond this fraction of the prediction (0.25, or 25%; default "
                 "0.25).",
                 "F", "0.25"});
    p.addOption({"calibration",
                 "Report the plan with a calibration profile applied: a profile file or a library NAME[@VERSION] "
                 "in --db (docs/calibration.md).",
                 "PROFILE"});
    cl.addDbOption();
    if (auto done = cl.parse(args))
        return *done;
    const QStringList files = p.positionalArguments();
    if (files.size() + (p.isSet("scenario") ? 1 : 0) != 1) {
        err() << cl.usageError("give one FILE or --scenario ID") << Qt::endl;
        return kBadInput;
    }
    if (!p.isSet("output") || p.value("output").isEmpty()) {
        err() << cl.usageError("-o OUT.pdf is required") << Qt::endl;
        return kBadInput;
    }
    QStringList inputs = files;
    for (const char* o : {"check-plan", "measurements", "current"})
        if (p.isSet(o))
            inputs << p.value(o);
    if (!outputIsNotAnInput(p, p.value("output"), inputs))
        return kBadInput;
    bool ok = true;
    const int trials = p.isSet("trials") ? p.value("trials").toInt(&ok) : sim::TrialCounts::kPlan;
    if (!ok || trials < 1) {
        err() << cl.usageError("--trials must be a whole number >= 1") << Qt::endl;
        return kBadInput;
    }
    QString thresholdText = p.value("threshold").trimmed();
    const bool percent = thresholdText.endsWith('%');
    if (percent)
        thresholdText.chop(1);
    const double threshold = thresholdText.toDouble(&ok) / (percent ? 100.0 : 1.0);
    if (!ok || !(threshold > 0.0) || !std::isfinite(threshold)) {
        err() << cl.usageError("--threshold '" + p.value("threshold") + "': not a positive fraction (0.25, 25%)")
              << Qt::endl;
        return kBadInput;
    }
    // The plan vs measured pages' inputs, read before anything is computed: a bad file is exit 2.
    ui::MeasuredComparison measured;
    std::optional<MeasurementSet> measurementSet;
    if (p.isSet("check-plan")) {
        const QString f = p.value("check-plan");
        Issues issues;
        const auto bytes = io::readFileBytes(f, issues);
        QJsonParseError pe{};
        const QJsonDocument doc = bytes ? QJsonDocument::fromJson(*bytes, &pe) : QJsonDocument();
        std::string why;
        if (!bytes)
            why = issues.empty() ? "cannot read" : issues.front().message;
        else if (pe.error != QJsonParseError::NoError)
            why = QString("not JSON: %1 at byte %2").arg(pe.errorString()).arg(pe.offset).toStdString();
        else if (auto c = study::planVsMeasuredFromJson(doc.object(), &why))
            measured.telemetry = std::move(*c);
        if (!measured.telemetry) {
            err() << "report: " << f << ": " << QString::fromStdString(why) << Qt::endl;
            return kBadInput;
        }
        measured.when = QFileInfo(f).lastModified().toUTC().toString("yyyy-MM-dd HH:mm 'UTC'");
    }
    if (p.isSet("measurements")) {
        const QString f = p.value("measurements");
        Issues issues;
        if (const auto bytes = io::readFileBytes(f, issues))
            measurementSet = io::readMeasurements(*bytes, issues);
        bool bad = !measurementSet;
        for (const Issue& i : issues) {
            err() << formatIssue(f, i) << '\n';
            bad = bad || i.isError();
        }
        err() << Qt::flush;
        if (bad)
            return kBadInput; // a report never leaves a measurement out silently
    }
    auto catalog = loadCatalogOrReport(p);
    if (!catalog)
        return kFailure;
    std::optional<CalibrationProfile> profile;
    if (!readCalibrationOption(p, profile))
        return kBadInput;
    io::ScenarioReadResult r;
    QString source;
    if (p.isSet("scenario")) {
        const qint64 id = p.value("scenario").toLongLong(&ok);
        if (!ok) {
            err() << cl.usageError("--scenario takes a library id") << Qt::endl;
            return kBadInput;
        }
        auto lib = document::openLibrary(libraryPath(p), *catalog, QString());
        if (!lib) {
            err() << "report: " << QString::fromStdString(lib.errorText()) << Qt::endl;
            return kFailure;
        }
        r = document::loadFromLibrary(**lib, id, *catalog);
        source = QString("library scenario %1").arg(id);
    } else {
        source = files.front();
        r = io::readScenarioFile(source, *catalog);
    }
    if (!r.ok()) {
        for (const Issue& i : r.issues)
            err() << formatIssue(source, i) << '\n';
        err() << Qt::flush;
        return kBadInput;
    }
    // The profile's GPU and stack values go into the catalog once, its assumptions into each plan.
    if (profile)
        applyProfile(p, *profile, *r.value, &*catalog);
    std::optional<sim::PlanResults> current;
    if (p.isSet("current")) {
        std::optional<Scenario> was = readScenarioOrReport(p.value("current"), *catalog);
        if (!was)
            return kBadInput;
        if (profile)
            applyProfile(p, *profile, *was, nullptr);
        current = sim::computePlanResults(*was, *catalog, nullptr, 30.0, trials);
    }
    const std::optional<sim::PlanResults> results = sim::computePlanResults(*r.value, *catalog, nullptr, 30.0, trials);
    if (measurementSet) {
        measured.measurements =
            study::compareMeasurements(*r.value, *catalog, *results->evaluation, *measurementSet, threshold);
        measured.measurements->source = QFileInfo(p.value("measurements")).fileName().toStdString();
        if (measured.when.isEmpty())
            measured.when = QDateTime::currentDateTimeUtc().toString("yyyy-MM-dd HH:mm 'UTC'");
    }
    out() << Qt::flush; // nothing printed may follow the PDF on standard output (-o -)
    if (const Status written = ui::writeReport(*results, *catalog, p.value("output"), current ? &*current : nullptr,
                                               measured.empty() ? nullptr : &measured);
        !written) {
        err() << "report: " << QString::fromStdString(written.errorText()) << Qt::endl;
        return kFailure;
    }
    if (p.value("output") != "-") // `-o -` is the PDF on standard output, nothing else
        out() << p.value("output") << '\n';
    if (p.isSet("charts")) {
        const ui::PlanFigures figures(*results, *catalog);
        const auto files = figures.chartAndTableFiles();
        if (const Status written = io::writeFiles(p.value("charts"), files); !written) {
            err() << "report: " << QString::fromStdString(written.errorText()) << Qt::endl;
            return kFailure;
        }
        if (p.value("output") != "-")
            for (const auto& [name, content] : files)
                out() << QDir(p.value("charts")).filePath(name) << '\n';
    }
    out() << Qt::flush;
    return kOk;
}

} // namespace gp::cli
