// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#include "clustercapture.h"

#include "model/limits.h"

#include <QElapsedTimer>
#include <QProcess>

namespace gp::study {

namespace {

/// A tool's whole standard output, or an error naming the command and what it said.
Result<io::ClusterInput> runClusterTool(const QString& program, const QStringList& args, int timeoutMs,
                                        const std::atomic<bool>* stop)
{
    if (stop && stop->load())
        return failure(program.toStdString(), kCaptureCancelled);
    const QString command = program + " " + args.join(' ');
    QProcess p;
    p.start(program, args);
    if (!p.waitForStarted(timeoutMs))
        return failure(command.toStdString(),
                       "cannot run " + program.toStdString() + ": " + p.errorString().toStdString());
    QByteArray out;
    QByteArray err;
    // Read as it comes, so a large cluster's output cannot fill the pipe and stall the tool.
    QElapsedTimer clock;
    clock.start();
    while (p.state() != QProcess::NotRunning) {
        p.waitForReadyRead(100);
        out += p.readAllStandardOutput();
        err += p.readAllStandardError();
        if (out.size() > limits::kMaxJsonBytes) {
            p.kill();
            p.waitForFinished(5000);
            return failure(command.toStdString(), "printed more than the largest input gpuplan reads");
        }
        if (stop && stop->load()) {
            p.kill();
            p.waitForFinished(5000);
            return failure(command.toStdString(), kCaptureCancelled);
        }
        if (clock.elapsed() > timeoutMs) {
            p.kill();
            p.waitForFinished(5000);
            return failure(command.toStdString(), "did not finish in " + std::to_string(timeoutMs / 1000) + " s");
        }
    }
    out += p.readAllStandardOutput();
    err += p.readAllStandardError();
    if (p.exitStatus() != QProcess::NormalExit || p.exitCode() != 0)
        return failure(command.toStdString(), "failed (exit " + std::to_string(p.exitCode()) +
                                                  "): " + QString::fromUtf8(err).trimmed().left(600).toStdString());
    return Result<io::ClusterInput>::success({out, command});
}

} // namespace

Result<io::ClusterInput> captureKubernetes(const QString& kubeconfig, const QString& context, int timeoutMs,
                                           const std::atomic<bool>* stop)
{
    QStringList base;
    if (!kubeconfig.isEmpty())
        base << "--kubeconfig" << kubeconfig;
    if (!context.isEmpty())
        base << "--context" << context;
    const QString timeout = QString("--request-timeout=%1s").arg(std::max(1, timeoutMs / 1000));
    QString kinds = "nodes,pods";
    // DRA's objects where the server has them (resource.k8s.io, Kubernetes 1.32+ beta, 1.34 GA).
    auto resources = runClusterTool(
        "kubectl", base + QStringList{timeout, "api-resources", "--api-group=resource.k8s.io", "-o", "name"}, timeoutMs,
        stop);
    if (!resources)
        return resources;
    const QString served = QString::fromUtf8(resources->bytes);
    for (const char* r : {"resourceslices", "resourceclaims"})
        if (served.contains(QLatin1String(r)))
            kinds += QString(",") + r;
    return runClusterTool("kubectl", base + QStringList{timeout, "get", kinds, "--all-namespaces", "-o", "json"},
                          timeoutMs, stop);
}

Result<std::pair<io::ClusterInput, io::ClusterInput>> captureSlurm(int timeoutMs, const std::atomic<bool>* stop)
{
    using Pair = std::pair<io::ClusterInput, io::ClusterInput>;
    // sinfo and squeue print JSON from Slurm 21.08 on where the openapi plugins are installed;
    // scontrol's one-liners everywhere.
    auto help = runClusterTool("sinfo", {"--help"}, timeoutMs, stop);
    const bool json = help && help->bytes.contains("--json");
    if (stop && stop->load())
        return failure("sinfo", kCaptureCancelled);
    auto nodes = json ? runClusterTool("sinfo", {"--json"}, timeoutMs, stop)
                      : runClusterTool("scontrol", {"show", "nodes", "--oneliner"}, timeoutMs, stop);
    if (!nodes)
        return Failure{nodes.issues};
    auto jobs = json ? runClusterTool("squeue", {"--json"}, timeoutMs, stop)
                     : runClusterTool("scontrol", {"show", "jobs", "--oneliner"}, timeoutMs, stop);
    if (!jobs)
        return Failure{jobs.issues};
    return Result<Pair>::success({*nodes, *jobs});
}

} // namespace gp::study
