// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#include "clicontext.h"

#include "calc/clusterconfig.h"
#include "calc/evaluate.h"
#include "io/clusterconfigwriter.h"
#include "io/scenarioreader.h"

#include <QDir>

#include <vector>

namespace gp::cli {

int runExportConfig(const QStringList& args)
{
    CommandLine cl("export-config",
                   "Write the scenario's sharing plan as configuration a cluster team applies with the "
                   "NVIDIA GPU Operator: mig-parted.yaml (MIG layouts), device-plugin-config.yaml "
                   "(time-slicing and MPS), node-labels.yaml, tenants/<tenant>.yaml (pods' node "
                   "selectors and GPU resources where the placement put the jobs) and README.md "
                   "(docs/export.md). --format dra writes the same plan as Kubernetes DRA objects for the "
                   "NVIDIA DRA driver under DIR/dra (ResourceClaimTemplates, shared ResourceClaims with MPS and "
                   "time-slicing GpuConfigs, ComputeDomains), --format hami as HAMi resource requests under "
                   "DIR/hami, --format kai as KAI Scheduler queues (a GPU quota per tenant) and pod templates "
                   "(queue label, whole GPUs, MIG, gpu-fraction/gpu-memory sharing) under DIR/kai.");
    auto& p = cl.parser();
    p.addPositionalArgument("FILE", "Scenario JSON file.");
    p.addOption(
        {{"o", "output"}, "Folder to write into (created if missing; files of the same names are replaced).", "DIR"});
    p.addOption({"format",
                 "What to write: operator (GPU Operator: mig-parted, device plugin, labels; the default), dra "
                 "(DIR/dra), hami (DIR/hami), kai (DIR/kai), or all four.",
                 "FORMAT", "operator"});
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
    const QString format = p.value("format");
    if (format != "operator" && format != "dra" && format != "hami" && format != "kai" && format != "all") {
        err() << cl.usageError("--format must be operator, dra, hami, kai or all") << Qt::endl;
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
    const ClusterConfigPlan plan = calc::buildClusterConfig(*r.value, *catalog, ev);
    std::vector<io::ClusterExportFormat> formats;
    if (format == "operator" || format == "all")
        formats.push_back(io::ClusterExportFormat::GpuOperator);
    if (format == "dra" || format == "all")
        formats.push_back(io::ClusterExportFormat::Dra);
    if (format == "hami" || format == "all")
        formats.push_back(io::ClusterExportFormat::Hami);
    if (format == "kai" || format == "all")
        formats.push_back(io::ClusterExportFormat::Kai);
    const auto files = io::clusterExportFiles(plan, r.value->name, formats);
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
