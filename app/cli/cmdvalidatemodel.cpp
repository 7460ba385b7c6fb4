// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
// validate-model: the model against published measurements it was not fitted to (docs/validation.md,
// "Held-out validation").
#include "clicontext.h"

#include "io/datapaths.h"
#include "io/errorbandsio.h"
#include "io/jsonfile.h"
#include "model/format.h"
#include "study/heldout.h"

#include <QJsonArray>
#include <QJsonDocument>

namespace gp::cli {

namespace {

QString pct(double f) { return QString::fromStdString(fmt::fixed(f * 100.0, 1)) + " %"; }

/// The rows of one file, or the problems printed ("FILE: [12].gpu_count: missing: …") and nullopt.
std::optional<QJsonArray> readRows(const QString& file)
{
    Issues issues;
    std::optional<QJsonArray> rows;
    if (const auto bytes = io::readFileBytes(file, issues)) {
        QJsonParseError e;
        const QJsonDocument doc = QJsonDocument::fromJson(*bytes, &e);
        if (e.error != QJsonParseError::NoError)
            issues.push_back(Issue::error("", "not JSON: " + e.errorString().toStdString() + " at offset " +
                                                  std::to_string(e.offset)));
        else if (!doc.isArray())
            issues.push_back(Issue::error("", "expected an array of rows (one published measurement each)"));
        else if (Issues bad = study::checkRows(doc.array()); !bad.empty())
            issues = std::move(bad);
        else
            rows = doc.array();
    }
    for (const Issue& i : issues)
        err() << formatIssue(file, i) << '\n';
    err() << Qt::flush;
    return rows;
}

void printReport(const study::ValidationReport& r)
{
    for (const std::string split : {"calibration", "heldout"}) {
        bool any = false;
        for (const study::SourceSummary& s : r.sources) {
            if (s.split != split)
                continue;
            if (!any)
                out() << (split == "calibration" ? "Calibration" : "Held out") << " (per source: rows, mean |error|, "
                      << "max |error|, mean signed error)\n";
            any = true;
            out() << "  " << QString::fromStdString(s.source).leftJustified(36) << " "
                  << QString::fromStdString(s.metric).leftJustified(20) << QString::number(s.rows).rightJustified(4)
                  << "  " << pct(s.meanAbsError).rightJustified(8) << "  " << pct(s.maxAbsError).rightJustified(8)
                  << "  " << (s.meanError >= 0 ? "+" : "") << pct(s.meanError) << '\n';
            if (s.ttftRows > 0 || s.itlRows > 0)
                out() << "  " << QString().leftJustified(36) << " TTFT " << s.ttftRows << " rows, mean |error| "
                      << pct(s.ttftMeanAbsError) << "; ITL " << s.itlRows << " rows, mean |error| "
                      << pct(s.itlMeanAbsError) << '\n';
        }
        if (any)
            out() << "  mean across sources: " << pct(r.meanBySplit.at(split)) << "\n\n";
    }
    int skipped = 0;
    for (const auto& [reason, n] : r.skippedByReason)
        skipped += n;
    out() << "Predicted " << (int(r.rows.size()) - skipped) << " rows, skipped " << skipped << ":\n";
    for (const auto& [reason, n] : r.skippedByReason)
        out() << "  " << QString::number(n).rightJustified(4) << "  " << QString::fromStdString(reason) << '\n';
}

} // namespace

int runValidateModel(const QStringList& args)
{
    CommandLine cl("validate-model",
                   "Predict published training and serving measurements with the shipped model and compare.\n"
                   "Each complete row that needs no missing feature becomes a scenario in memory (the row's GPU "
                   "in its catalog node (GB200/GB300 trays as NVL72 racks), a non-blocking fabric, one job with the "
                   "row's model, parallelism (with Megatron's stage layout where the row states it), batch, "
                   "precision and lengths; training on its trainer's software-stack profile) and is evaluated with "
                   "the shipped defaults; nothing is set per row. "
                   "Training compares the step time (from the printed tokens/s per GPU), serving the output "
                   "tokens/s of the whole deployment (and TTFT/ITL where printed). The error is predicted / "
                   "measured - 1, reported per source (never pooled) and as the mean across sources, calibration "
                   "and held-out apart (data/validation/split.json). Exit 0, 1 on a runtime failure, 2 on bad "
                   "input (FILE: [ROW].FIELD: message).");
    cl.parser().addPositionalArgument("ROWS", "Row files such as tests/data/validation/heldout/training.json.",
                                      "ROWS...");
    cl.parser().addOption({"split", "Which rows to report: calibration, heldout or all (default).", "SPLIT", "all"});
    cl.parser().addOption({"json", "Per row predicted, measured and error, and the summaries, as JSON."});
    cl.parser().addOption(
        {"write-bands", "Write the held-out error-band classes (data/validation/error-bands.json) to FILE.", "FILE"});
    cl.parser().addOption({"write-fitted",
                           "Write the constants fitted to the calibration rows (data/validation/fitted.json) to FILE.",
                           "FILE"});
    if (auto done = cl.parse(args))
        return *done;
    const QStringList files = cl.parser().positionalArguments();
    if (files.isEmpty())
        return cl.refuse("no ROWS file given");
    const QString splitFilter = cl.parser().value("split");
    if (splitFilter != "all" && splitFilter != "calibration" && splitFilter != "heldout")
        return cl.refuse("--split must be calibration, heldout or all, not '" + splitFilter + "'");
    for (const char* option : {"write-bands", "write-fitted"})
        if (cl.parser().isSet(option) && !outputIsNotAnInput(cl.parser(), cl.parser().value(option), files))
            return kBadInput;
    auto catalog = loadCatalogOrReport(cl.parser());
    if (!catalog)
        return kFailure;
    const auto split = study::loadValidationSplit(io::bundledDataDir());
    if (!split) {
        for (const Issue& i : split.issues)
            err() << formatIssue("split.json", i) << '\n';
        return kFailure;
    }
    std::vector<QJsonArray> inputs;
    for (const QString& file : files) {
        auto rows = readRows(file);
        if (!rows)
            return kBadInput;
        inputs.push_back(std::move(*rows));
    }
    std::vector<study::RowPrediction> all;
    QJsonArray training, serving;
    for (const QJsonArray& rows : inputs) {
        for (study::RowPrediction& p : study::predictRows(rows, *split, *catalog))
            all.push_back(std::move(p));
        for (const auto& v : rows)
            (v.toObject().contains("engine") ? serving : training).append(v);
    }
    if (cl.parser().isSet("write-bands")) {
        const QByteArray bytes = io::errorBandsToJson(study::errorBandClasses(all), study::kBandsCommand);
        if (!saveFileAtomically(cl.parser().value("write-bands"), bytes))
            return kFailure;
    }
    if (cl.parser().isSet("write-fitted")) {
        const auto constants = study::fitConstants(training, serving, *split, *catalog);
        if (!saveFileAtomically(cl.parser().value("write-fitted"), study::fittedToJson(constants)))
            return kFailure;
    }
    const study::ValidationReport report = study::summarize(std::move(all), splitFilter.toStdString());
    if (cl.parser().isSet("json"))
        out() << QJsonDocument(study::reportToJson(report)).toJson(QJsonDocument::Indented);
    else
        printReport(report);
    out() << Qt::flush;
    return kOk;
}

} // namespace gp::cli
