// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#include "planvsmeasuredrun.h"

#include "calc/evaluate.h"
#include "io/jsonfile.h"
#include "io/measurementsio.h"

#include <QFileInfo>
#include <QObject>
#include <QStringList>

namespace gp::ui::pvm {

namespace {

void compareFile(ComparisonOutcome& o, const Scenario& scenario, const Catalog& catalog, const QString& file,
                 double threshold)
{
    Issues issues;
    const auto bytes = io::readFileBytes(file, issues);
    MeasurementSet set;
    if (bytes)
        set = io::readMeasurements(*bytes, issues);
    inFile(issues, file.toStdString());
    QStringList problems;
    for (const Issue& i : issues)
        if (problems.size() < 12)
            problems << QString::fromStdString(i.toString());
    if (!set.items.empty()) {
        const calc::Evaluation ev = calc::evaluate(scenario, catalog);
        o.measurements = study::compareMeasurements(scenario, catalog, ev, set, threshold);
        o.measurements->source = QFileInfo(file).fileName().toStdString();
        if (o.measurements->unknownJobs == static_cast<int>(set.items.size()))
            problems << QObject::tr("%1: no measurement names a job of the open plan%2")
                            .arg(file, set.scenarioId.empty() ? QString()
                                                              : QObject::tr(" (the file is for scenario '%1')")
                                                                    .arg(QString::fromStdString(set.scenarioId)));
    }
    o.problems = problems.join('\n');
}

} // namespace

ComparisonOutcome runComparison(const Scenario& scenario, const Catalog& catalog, const ComparisonAsk& ask,
                                const std::atomic<bool>& stop)
{
    ComparisonOutcome o;
    o.asked = ask;
    if (ask.request) {
        study::PlanCheckRequest request = *ask.request;
        request.telemetry.stop = &stop;
        o.check = study::checkPlan(scenario, catalog, request);
    }
    if (!ask.file.isEmpty() && !stop.load())
        compareFile(o, scenario, catalog, ask.file, ask.threshold);
    return o;
}

} // namespace gp::ui::pvm
