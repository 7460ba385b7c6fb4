// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
// Benchmark of sweeps (docs/performance.md, "Sweeps"): points per second of a replay sweep — the
// Alibaba trace's default task file when GPUPLAN_TRACE_DIR holds it, else the 250-node sample's
// cluster and job mix — under the six policies and a range of seeds, and of a what-if sweep of the
// three-tenant sample over node counts and prices with 200 Monte Carlo trials a point; each on one
// worker and on every core. Not a test: it measures and prints.
//
//   bench_sweep [--seeds N] [--iterations I]
#include "calc/parallel.h"
#include "io/catalogreader.h"
#include "io/datapaths.h"
#include "study/sweep.h"

#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>
#include <QStringList>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <vector>

namespace {

struct Space
{
    const char* name;
    QByteArray spec;
};

} // namespace

int main(int argc, char** argv)
{
    QCoreApplication app(argc, argv);
    int seeds = 4, iterations = 3;
    const QStringList args = QCoreApplication::arguments();
    for (int i = 1; i + 1 < args.size(); i += 2) {
        if (args[i] == "--seeds")
            seeds = std::max(1, args[i + 1].toInt());
        else if (args[i] == "--iterations")
            iterations = std::max(1, args[i + 1].toInt());
    }
    const auto catalog = gp::io::loadCatalog(gp::io::bundledDataDir());
    if (!catalog.ok()) {
        std::fprintf(stderr, "catalog does not load\n");
        return 1;
    }
    const QDir samples(gp::io::bundledDataDir() + "/samples");
    const QString traceDir = qEnvironmentVariable("GPUPLAN_TRACE_DIR");
    const bool alibaba = QFileInfo::exists(traceDir + "/openb_pod_list_default.csv");
    const QByteArray trace =
        alibaba ? QString(R"("nodes": "%1/openb_node_list_gpu_node.csv", "axes": [{"axis": "trace", "values":
                  ["%1/openb_pod_list_default.csv"]},)")
                      .arg(traceDir)
                      .toUtf8()
                : QString(R"("base": "%1", "axes": [)").arg(samples.filePath("04-cluster-250-node-h100.json")).toUtf8();
    const std::vector<Space> spaces = {
        {alibaba ? "replay, Alibaba default trace" : "replay, 250-node sample",
         R"({"kind": "replay", )" + trace + R"( {"axis": "policy", "values": ["random", "dotprod",
           "clustering", "packing", "bestfit", "fgd"]}, {"axis": "seed", "from": 42, "to": )" +
             QByteArray::number(41 + seeds) + "}]}"},
        {"what-if, sample 01, 200 trials",
         QString(R"({"base": "%1", "trials": 200, "axes": [{"axis": "nodes", "values": [6, 7, 8, 9]},
           {"axis": "pricing", "values": ["aws-on-demand-2024", "lambda-on-demand-2025"]}]})")
             .arg(samples.filePath("01-dgx-h100-three-tenants.json"))
             .toUtf8()}};
    std::printf("%-34s %-9s %7s %10s %12s\n", "sweep", "workers", "points", "median s", "points/s");
    for (const Space& space : spaces) {
        const gp::Result<gp::study::SweepSpec> spec = gp::study::readSweepSpec(space.spec, QDir::currentPath());
        if (!spec) {
            std::fprintf(stderr, "%s: %s\n", space.name, spec.errorText().c_str());
            return 1;
        }
        const gp::Result<gp::study::SweepInputs> inputs = gp::study::loadSweepInputs(*spec, *catalog);
        if (!inputs) {
            std::fprintf(stderr, "%s: %s\n", space.name, inputs.errorText().c_str());
            return 1;
        }
        for (int workers : {1, 0}) {
            gp::calc::setParallelFor({}, workers);
            std::vector<double> seconds;
            for (int i = 0; i < iterations; ++i) {
                const auto t0 = std::chrono::steady_clock::now();
                const QByteArray rows = gp::study::sweepCsvRows(*inputs, *catalog, *spec, 0, 0);
                seconds.push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
                if (rows.isEmpty())
                    return 1;
            }
            std::sort(seconds.begin(), seconds.end());
            const double median = seconds[seconds.size() / 2];
            std::printf("%-34s %-9s %7lld %10.3f %12.1f\n", space.name, workers == 1 ? "1" : "all cores",
                        spec->points(), median, static_cast<double>(spec->points()) / median);
        }
    }
    return 0;
}
