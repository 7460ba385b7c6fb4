// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#include "clicontext.h"

#include "io/scenarioreader.h"

namespace gp::cli {

/// FILE: PATH: message, FILE: message for whole-file problems; warnings say so.
QString formatIssue(const QString& file, const Issue& issue)
{
    // An issue of another file the command read (a trace, a sweep's base) names that file.
    QString line = (issue.file.empty() ? file : QString::fromStdString(issue.file)) + ": ";
    if (!issue.path.empty())
        line += QString::fromStdString(issue.path) + ": ";
    if (!issue.isError())
        line += "warning: ";
    return line + QString::fromStdString(issue.message);
}

int runValidate(const QStringList& args)
{
    CommandLine cl("validate", "Check scenario files against the format and the catalog.\n"
                               "Prints each problem as FILE: PATH: message. Exit 0 when every file is "
                               "valid (warnings allowed), 2 when any is invalid.");
    cl.parser().addPositionalArgument("FILE", "Scenario JSON files.", "FILE...");
    if (auto done = cl.parse(args))
        return *done;
    const QStringList files = cl.parser().positionalArguments();
    if (files.isEmpty()) {
        err() << cl.usageError("no FILE given") << Qt::endl;
        return kBadInput;
    }
    auto catalog = loadCatalogOrReport(cl.parser());
    if (!catalog)
        return kFailure;
    int invalid = 0;
    for (const QString& file : files) {
        const io::ScenarioReadResult r = io::readScenarioFile(file, *catalog);
        for (const Issue& i : r.issues)
            out() << formatIssue(file, i) << '\n';
        if (!r.ok())
            ++invalid;
        else
            out() << file << ": ok\n";
    }
    out() << Qt::flush;
    if (invalid > 0) {
        err() << invalid << " of " << files.size() << " file(s) invalid" << Qt::endl;
        return kBadInput;
    }
    return kOk;
}

} // namespace gp::cli
