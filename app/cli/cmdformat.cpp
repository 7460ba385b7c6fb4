// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#include "clicontext.h"

#include "io/scenarioreader.h"
#include "io/scenariowriter.h"

namespace gp::cli {

int runFormat(const QStringList& args)
{
    CommandLine cl("format", "Validate scenario files and write them in gpuplan's canonical form (sorted "
                             "keys, every field explicit, 4-space indentation). Prints to standard output "
                             "unless --in-place is given. An invalid file is never written.");
    auto& p = cl.parser();
    p.addPositionalArgument("FILE", "Scenario JSON files.", "FILE...");
    p.addOption({{"i", "in-place"}, "Rewrite each FILE instead of printing it (atomically)."});
    if (auto done = cl.parse(args))
        return *done;
    const QStringList files = p.positionalArguments();
    if (files.isEmpty()) {
        err() << cl.usageError("no FILE given") << Qt::endl;
        return kBadInput;
    }
    if (files.size() > 1 && !p.isSet("in-place")) {
        err() << cl.usageError("several files need --in-place") << Qt::endl;
        return kBadInput;
    }
    auto catalog = loadCatalogOrReport(p);
    if (!catalog)
        return kFailure;
    int status = kOk;
    for (const QString& file : files) {
        const io::ScenarioReadResult r = io::readScenarioFile(file, *catalog);
        for (const Issue& i : r.issues)
            err() << formatIssue(file, i) << '\n';
        if (!r.ok()) {
            status = kBadInput;
            continue;
        }
        const QByteArray json = io::writeScenario(*r.value);
        if (!p.isSet("in-place")) {
            out() << QString::fromUtf8(json) << Qt::flush;
            continue;
        }
        if (!saveFileAtomically(file, json))
            status = kFailure;
    }
    err() << Qt::flush;
    return status;
}

} // namespace gp::cli
