// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
// gpuplan-cli import-cluster: a running cluster as a scenario (issue 38; docs/cluster-import.md).
#include "clicontext.h"

#include "io/clusterimport.h"
#include "io/filewriter.h"
#include "io/jsonfile.h"
#include "io/scenariowriter.h"
#include "study/clustercapture.h"

#include <QFile>

#include <set>

namespace gp::cli {

namespace {

/// A file's bytes, or standard input's for "-"; problems printed.
std::optional<io::ClusterInput> readInput(const QString& path)
{
    if (path == "-") {
        QFile in;
        if (!in.open(stdin, QIODevice::ReadOnly)) {
            err() << "import-cluster: cannot read standard input" << Qt::endl;
            return std::nullopt;
        }
        QByteArray bytes = in.read(io::kMaxJsonBytes + 1);
        if (bytes.size() > io::kMaxJsonBytes) {
            err() << "standard input: " << QString::fromStdString(io::overLimitMessage(io::kMaxJsonBytes)) << Qt::endl;
            return std::nullopt;
        }
        return io::ClusterInput{bytes, "standard input"};
    }
    Issues issues;
    auto bytes = io::readFileBytes(path, issues);
    if (!bytes) {
        for (const Issue& i : issues)
            err() << formatIssue(path, i) << '\n';
        err() << Qt::flush;
        return std::nullopt;
    }
    return io::ClusterInput{*bytes, path};
}

void printIssues(const Issues& issues, bool errors)
{
    for (const Issue& i : issues)
        if (i.isError() == errors)
            err() << (errors ? "" : "warning: ") << QString::fromStdString(i.toString()) << '\n';
    err() << Qt::flush;
}

} // namespace

int runImportCluster(const QStringList& args)
{
    CommandLine cl("import-cluster",
                   "Import a running cluster as a scenario: its GPU nodes (GPU model, count, MIG layout, "
                   "time-slicing or MPS), and the pods or jobs holding GPUs as tenants and jobs. Kubernetes: what "
                   "`kubectl get nodes,pods -o json` prints (--kubernetes FILE, - for standard input), or the live "
                   "cluster through kubectl (--kubeconfig, --context). Slurm: `sinfo --json` and `squeue --json`, "
                   "or `scontrol show nodes --oneliner` and `scontrol show jobs --oneliner` (--slurm-nodes, "
                   "--slurm-jobs), or the live cluster (--slurm). What the cluster does not say - each job's "
                   "model, kind and parallelism - is a placeholder listed in the job's imported.unknown, which "
                   "`gpuplan-cli validate` names until it is set (docs/cluster-import.md).");
    auto& p = cl.parser();
    p.addOption(
        {"kubernetes", "kubectl's JSON (a v1 List of Nodes and Pods; ResourceSlices and ResourceClaims too).", "FILE"});
    p.addOption({"kubeconfig", "Run kubectl against the cluster of this kubeconfig.", "PATH"});
    p.addOption({"context", "The kubeconfig context to use (with the live cluster).", "NAME"});
    p.addOption(
        {"tenant-label", "Kubernetes: the pod label naming each pod's tenant (default: its namespace).", "LABEL"});
    p.addOption({"slurm-nodes", "Slurm's nodes: sinfo --json, or scontrol show nodes --oneliner.", "FILE"});
    p.addOption({"slurm-jobs", "Slurm's jobs: squeue --json, or scontrol show jobs --oneliner.", "FILE"});
    p.addOption({"slurm", "Run sinfo and squeue (or scontrol) on this host's Slurm."});
    p.addOption({"tenant-by", "Slurm: tenants are 'account' (default) or 'user'.", "KIND", "account"});
    p.addOption({"map-gpu",
                 "Which catalog GPU a product string of the cluster is, e.g. h100=h100-80gb or "
                 "Tesla-T4=my-t4 (repeatable).",
                 "PRODUCT=ID"});
    p.addOption({"name", "The scenario's name (default: Imported cluster).", "NAME"});
    p.addOption({"timeout", "Seconds to wait for kubectl or Slurm's tools (default 60).", "S", "60"});
    p.addOption({{"o", "output"}, "The scenario file to write (- for standard output).", "OUT"});
    if (auto done = cl.parse(args))
        return *done;
    if (!p.positionalArguments().isEmpty())
        return cl.refuse("unexpected argument '" + p.positionalArguments().front() + "'");
    const bool k8sFile = p.isSet("kubernetes");
    const bool k8sLive = p.isSet("kubeconfig") || p.isSet("context");
    const bool slurmFiles = p.isSet("slurm-nodes") || p.isSet("slurm-jobs");
    const bool slurmLive = p.isSet("slurm");
    if (int(k8sFile) + int(k8sLive) + int(slurmFiles) + int(slurmLive) != 1)
        return cl.refuse("give one source: --kubernetes FILE, --kubeconfig/--context, --slurm-nodes with "
                         "--slurm-jobs, or --slurm");
    if (slurmFiles && !(p.isSet("slurm-nodes") && p.isSet("slurm-jobs")))
        return cl.refuse("--slurm-nodes and --slurm-jobs go together");
    if (!p.isSet("output") || p.value("output").isEmpty())
        return cl.refuse("-o OUT is required");
    const QString tenantBy = p.value("tenant-by");
    if (tenantBy != "account" && tenantBy != "user")
        return cl.refuse("--tenant-by must be account or user");
    bool timeoutOk = false;
    const int timeoutS = p.value("timeout").toInt(&timeoutOk);
    if (!timeoutOk || timeoutS < 1 || timeoutS > 3600)
        return cl.refuse("--timeout must be 1 to 3600 seconds");

    io::ClusterImportOptions options;
    options.name = p.value("name").toStdString();
    options.tenantLabel = p.value("tenant-label").toStdString();
    options.slurmTenantByUser = tenantBy == "user";
    for (const QString& m : p.values("map-gpu")) {
        const auto eq = m.lastIndexOf('=');
        if (eq <= 0 || eq == m.size() - 1)
            return cl.refuse("--map-gpu '" + m + "' must be PRODUCT=ID");
        options.gpuMap[m.left(eq).toStdString()] = m.mid(eq + 1).toStdString();
    }
    const QString output = p.value("output");
    QStringList inputs;
    for (const char* o : {"kubernetes", "slurm-nodes", "slurm-jobs", "kubeconfig"})
        if (p.isSet(o) && p.value(o) != "-")
            inputs << p.value(o);
    if (output != "-" && !outputIsNotAnInput(p, output, inputs))
        return kBadInput;
    auto catalog = loadCatalogOrReport(p);
    if (!catalog)
        return kFailure;

    Result<Scenario> imported;
    if (k8sFile || k8sLive) {
        std::optional<io::ClusterInput> in;
        if (k8sFile) {
            in = readInput(p.value("kubernetes"));
            if (!in)
                return kBadInput;
        } else {
            auto captured = study::captureKubernetes(p.value("kubeconfig"), p.value("context"), timeoutS * 1000);
            if (!captured) {
                err() << "import-cluster: " << QString::fromStdString(captured.errorText()) << Qt::endl;
                return kFailure;
            }
            in = *captured;
        }
        imported = io::importKubernetes(*in, options, *catalog);
    } else {
        std::optional<io::ClusterInput> nodes;
        std::optional<io::ClusterInput> jobs;
        if (slurmFiles) {
            nodes = readInput(p.value("slurm-nodes"));
            jobs = nodes ? readInput(p.value("slurm-jobs")) : std::nullopt;
            if (!nodes || !jobs)
                return kBadInput;
        } else {
            auto captured = study::captureSlurm(timeoutS * 1000);
            if (!captured) {
                err() << "import-cluster: " << QString::fromStdString(captured.errorText()) << Qt::endl;
                return kFailure;
            }
            nodes = captured->first;
            jobs = captured->second;
        }
        imported = io::importSlurm(*nodes, *jobs, options, *catalog);
    }
    if (!imported) {
        printIssues(imported.issues, true);
        err() << "import-cluster: nothing written" << Qt::endl;
        return kBadInput;
    }
    // The import's own notes; the placeholders' warnings are validate's to list, one line here.
    Issues notes;
    std::size_t placeholders = 0;
    for (const Issue& i : imported.issues)
        if (i.message.find("is a placeholder the cluster does not say") != std::string::npos)
            ++placeholders;
        else
            notes.push_back(i);
    printIssues(notes, false);
    if (const Status written = io::writeFileAtomically(output, io::writeScenario(*imported), true); !written) {
        err() << QString::fromStdString(written.errorText()) << Qt::endl;
        return kFailure;
    }
    const Scenario& s = *imported;
    int gpus = 0;
    for (const Node& n : s.topology.nodes)
        gpus += n.gpuCount;
    std::size_t jobs = 0;
    for (const Tenant& t : s.tenants)
        jobs += t.jobs.size();
    (output == "-" ? err() : out()) << (output == "-" ? QString("standard output") : output) << ": "
                                    << s.topology.nodes.size() << " nodes with " << gpus << " GPUs, "
                                    << s.tenants.size() << " tenants, " << jobs << " jobs; " << placeholders
                                    << " placeholders (each job's model, kind and parallelism): gpuplan-cli validate "
                                    << (output == "-" ? QString("FILE") : output) << " lists them" << Qt::endl;
    return kOk;
}

} // namespace gp::cli
