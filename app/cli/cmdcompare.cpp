// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#include "clicontext.h"

#include "calc/comparison.h"
#include "calc/evaluate.h"
#include "document/librarygateway.h"
#include "io/scenarioreader.h"
#include "model/scenariodiff.h"
#include "sim/planresults.h"
#include "sim/simulation.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>

#include <algorithm>
#include <cmath>

namespace gp::cli {

namespace {

const char* verdictName(calc::Verdict v)
{
    switch (v) {
    case calc::Verdict::Better: return "better";
    case calc::Verdict::Worse: return "worse";
    case calc::Verdict::Same: return "same";
    }
    return "same";
}

} // namespace

int runCompare(const QStringList& args)
{
    CommandLine cl("compare",
                   "Compare two to four scenarios: their KPIs side by side with each one's change against the "
                   "first, marked better or worse, and what differs in the plans (nodes, sharing, tenants, "
                   "jobs, pricing, assumptions).");
    auto& p = cl.parser();
    p.addPositionalArgument("SCENARIOS",
                            "Two to four scenarios, the first the baseline: JSON files, or lib:ID (a library "
                            "scenario's latest revision) or lib:ID@REV (one of its revisions).",
                            "A B [C D]");
    cl.addDbOption();
    p.addOption({"json", "Print JSON."});
    p.addOption(
        {"trials",
         QString("Monte Carlo trials for the P95 completion row (default %1, as the workbench; 0 leaves the row out).")
             .arg(sim::TrialCounts::kPlan),
         "N"});
    if (auto done = cl.parse(args))
        return *done;
    const QStringList files = p.positionalArguments();
    if (files.size() < 2 || files.size() > 4) {
        err() << cl.usageError("give two to four scenario files") << Qt::endl;
        return kBadInput;
    }
    bool ok = true;
    const int trials = p.isSet("trials") ? p.value("trials").toInt(&ok) : sim::TrialCounts::kPlan;
    if (!ok || trials < 0) {
        err() << cl.usageError("--trials must be a whole number >= 0") << Qt::endl;
        return kBadInput;
    }
    auto catalog = loadCatalogOrReport(p);
    if (!catalog)
        return kFailure;
    std::vector<Scenario> scenarios;
    std::vector<std::map<std::string, double>> values;
    int status = kOk;
    std::unique_ptr<store::ScenarioLibrary> library; // opened for the first lib: reference
    static const QRegularExpression libRef("^lib:(\\d+)(?:@(\\d+))?$");
    for (const QString& file : files) {
        io::ScenarioReadResult r;
        if (const QRegularExpressionMatch m = libRef.match(file); m.hasMatch()) {
            if (!library) {
                auto opened = document::openLibrary(libraryPath(p), *catalog, QString());
                if (!opened) {
                    err() << "compare: " << QString::fromStdString(opened.errorText()) << Qt::endl;
                    return kFailure;
                }
                library = std::move(*opened);
            }
            r = document::loadFromLibrary(*library, m.captured(1).toLongLong(), *catalog,
                                          m.captured(2).isEmpty() ? std::optional<int>() : m.captured(2).toInt());
            if (r.ok() && !m.captured(2).isEmpty())
                r.value->name += " (revision " + m.captured(2).toStdString() + ")";
        } else {
            r = io::readScenarioFile(file, *catalog);
        }
        if (!r.ok()) {
            for (const Issue& i : r.issues)
                err() << formatIssue(file, i) << '\n';
            status = kBadInput;
            continue;
        }
        const calc::Evaluation ev = calc::evaluate(*r.value, *catalog);
        std::optional<sim::SimulationResult> simulated; // the P95 row, unless --trials 0
        if (trials > 0)
            simulated = sim::planSimulation(*r.value, *catalog, ev, trials);
        values.push_back(sim::kpiValues(ev, simulated ? &*simulated : nullptr));
        scenarios.push_back(std::move(*r.value));
    }
    if (status != kOk) {
        err() << Qt::flush;
        return status;
    }
    const std::vector<calc::KpiComparison> rows = calc::compareKpis(values);
    if (p.isSet("json")) {
        QJsonArray sc, kpis, diffs;
        for (int i = 0; i < files.size(); ++i)
            sc.append(QJsonObject{{"file", files[i]},
                                  {"name", QString::fromStdString(scenarios[static_cast<std::size_t>(i)].name)}});
        for (const calc::KpiComparison& row : rows) {
            QJsonArray vals, deltas, verdicts;
            for (std::size_t i = 0; i < row.values.size(); ++i) {
                vals.append(row.values[i]);
                deltas.append(i == 0 ? QJsonValue(QJsonValue::Null) : QJsonValue(row.deltas[i]));
                verdicts.append(i == 0 ? QJsonValue(QJsonValue::Null) : QJsonValue(verdictName(row.verdicts[i])));
            }
            kpis.append(QJsonObject{{"key", QString::fromStdString(row.spec.key)},
                                    {"label", QString::fromStdString(row.spec.label)},
                                    {"unit", QString::fromStdString(row.spec.unit)},
                                    {"higher_is_better", row.spec.higherIsBetter},
                                    {"values", vals},
                                    {"deltas", deltas},
                                    {"verdicts", verdicts}});
        }
        for (std::size_t i = 1; i < scenarios.size(); ++i) {
            QJsonArray lines;
            for (const std::string& line : diffScenarios(scenarios.front(), scenarios[i]))
                lines.append(QString::fromStdString(line));
            diffs.append(QJsonObject{{"from", 0}, {"to", static_cast<int>(i)}, {"changes", lines}});
        }
        out() << QJsonDocument(QJsonObject{{"scenarios", sc}, {"kpis", kpis}, {"differences", diffs}})
                     .toJson(QJsonDocument::Indented);
        out() << Qt::flush;
        return kOk;
    }
    auto width = [](std::size_t i) { return i == 0 ? 20 : 34; };
    int labels = 22; // the KPI column as wide as its longest label and two spaces
    for (const calc::KpiComparison& row : rows)
        labels = std::max(labels, static_cast<int>(QString::fromStdString(row.spec.label).size()) + 2);
    out() << QString("%1").arg("KPI", -labels);
    for (std::size_t i = 0; i < scenarios.size(); ++i) {
        const QString name =
            QString("%1: %2").arg(QChar('A' + static_cast<int>(i))).arg(QString::fromStdString(scenarios[i].name));
        out() << QString("%1").arg(name.left(width(i) - 2), -width(i));
    }
    out() << '\n';
    for (const calc::KpiComparison& row : rows) {
        out() << QString("%1").arg(QString::fromStdString(row.spec.label), -labels);
        for (std::size_t i = 0; i < row.values.size(); ++i) {
            QString cell = QString::fromStdString(calc::formatKpiValue(row.spec, row.values[i]));
            if (i > 0 && row.verdicts[i] != calc::Verdict::Same)
                cell += QString(" (%1, %2)")
                            .arg(QString::fromStdString(calc::formatKpiDelta(row.spec, row.deltas[i])),
                                 verdictName(row.verdicts[i]));
            out() << QString("%1").arg(cell, -width(i));
        }
        out() << '\n';
    }
    for (std::size_t i = 1; i < scenarios.size(); ++i) {
        const std::vector<std::string> lines = diffScenarios(scenarios.front(), scenarios[i], &*catalog); // by name
        out() << QString("\nWhat differs, A -> %1 (%2):\n").arg(QChar('A' + static_cast<int>(i))).arg(lines.size());
        for (const std::string& line : lines)
            out() << "  " << QString::fromStdString(line) << '\n';
    }
    out() << Qt::flush;
    return kOk;
}

} // namespace gp::cli
