// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
// libFuzzer target: the cluster import's readers (issue 38): the input as kubectl's JSON, and as
// Slurm's nodes and jobs (JSON or scontrol's one-liners), each beside the real other half.
#include "fuzzsupport.h"
#include "io/clusterimport.h"
#include "io/datapaths.h"

#include <QDir>
#include <QFile>

#include <cstddef>
#include <cstdint>

namespace {

QByteArray fixture(const char* name)
{
    // The captured Slurm output kept beside the tests (tests/data/cluster/slurm).
    QFile f(QDir(gp::io::bundledDataDir()).absoluteFilePath(QString("../tests/data/cluster/slurm/") + name));
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    static const QByteArray nodes = fixture("sinfo.json");
    static const QByteArray jobs = fixture("squeue.json");
    const QByteArray bytes = QByteArray::fromRawData(reinterpret_cast<const char*>(data), static_cast<qsizetype>(size));
    gp::io::ClusterImportOptions options;
    options.gpuMap["h100"] = "h100-80gb";
    const auto& catalog = gp::fuzz::bundledCatalog();
    const auto k8s = gp::io::importKubernetes({bytes, "fuzz.json"}, options, catalog);
    GPUPLAN_FUZZ_CHECK(k8s.ok() != gp::hasErrors(k8s.issues));
    const auto asNodes = gp::io::importSlurm({bytes, "fuzz"}, {jobs, "squeue.json"}, options, catalog);
    GPUPLAN_FUZZ_CHECK(asNodes.ok() != gp::hasErrors(asNodes.issues));
    const auto asJobs = gp::io::importSlurm({nodes, "sinfo.json"}, {bytes, "fuzz"}, options, catalog);
    GPUPLAN_FUZZ_CHECK(asJobs.ok() != gp::hasErrors(asJobs.issues));
    for (const auto* r : {&k8s, &asNodes, &asJobs})
        if (r->ok())
            for (const gp::Node& n : (*r)->topology.nodes)
                GPUPLAN_FUZZ_CHECK(n.gpuCount >= 1 && n.gpuCount <= 64);
    return 0;
}
