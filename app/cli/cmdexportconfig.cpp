// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#include "clicontext.h"

#include "calc/clusterconfig.h"
#include "calc/evaluate.h"
#include "io/clusterconfigwriter.h"
#include "io/scenarioreader.h"

#include <QDir>

namespace gp::cli {

int runExportConfig(const QStringList& args)
{
    CommandLine cl("export-config",
                   "Write the scenario's sharing plan as configuration a cluster team applies with the "
                   "NVIDIA GPU Operator: mig-parted.yaml (MIG layouts), device-plugin-config.yaml "
                   "(time-slicing and MPS), node-labels.yaml, tenants/<tenant>.yaml (pods' node "
                   "selectors and GPU resources where the placement put the jobs) and README.md "
                   "(docs/export.md).");
    auto& p = cl.parser();
    p.addPositionalArgument("FILE", "Scenario JSON file.");
    p.addOption(
        {{"o", "output"}, "Folder to write into (created if missing; files of the same names are replaced).", "DIR"});
    if (auto done = cl.parse(args))
        return *done;
    if (p.positionalArguments().size() != 1) {
        err() << cl.usageError("give exactly one FILE") << Qt::endl;
        return kBadInput;
    }
    if (!p.isSet("output") || p.value("output").isEmpty()) {
        err() << cl.usageError("-o DIR is required") << Qt::endl;
        return kBadInput;
    }
    auto catalog = loadCatalogOrReport(p);
    if (!catalog)
        return kFailure;
    const QString file = p.positionalArguments().front();
    const io::ScenarioReadResult r = io::readScenarioFile(file, *catalog);
    if (!r.ok()) {
        for (const Issue& i : r.issues)
            err() << formatIssue(file, i) << '\n';
        err() << Qt::flush;
        return kBadInput;
    }
    const calc::Evaluation ev = calc::evaluate(*r.value, *catalog);
    const auto files = io::clusterConfigFiles(calc::buildClusterConfig(*r.value, *catalog, ev), r.value->name);
    if (const Status written = io::writeFiles(p.value("output"), files); !written) {
        err() << "export-config: " << QString::fromStdString(written.errorText()) << Qt::endl;
        return kFailure;
    }
    for (const auto& [name, content] : files)
        out() << QDir(p.value("output")).filePath(name) << '\n';
    out() << Qt::flush;
    return kOk;
}

} // namespace gp::cli
