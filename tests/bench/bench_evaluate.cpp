// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
// Benchmark of calc::evaluate on a generated 1,024-node / 8,192-GPU cluster with 2,000
// jobs across 50 tenants (docs/performance.md). Not a test: it measures and prints.
//
//   bench_evaluate [--nodes N] [--tenants T] [--jobs-per-tenant J] [--iterations I] [--policy P]
//                  [--write FILE]   (writes the generated scenario with gpuplan's writer and exits:
//                                    the large plans of docs/performance.md's CLI measurements)
#include "calc/alternatives.h"
#include "calc/evaluate.h"
#include "io/catalogreader.h"
#include "io/datapaths.h"
#include "io/scenariowriter.h"
#include "model/enumnames.h"
#include "model/validation.h"
#include "scenariogenerator.h"

#include <QCoreApplication>
#include <QFile>
#include <QStringList>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <vector>

int main(int argc, char** argv)
{
    QCoreApplication app(argc, argv);
    int nodes = 1024, tenants = 50, jobsPerTenant = 40, iterations = 20, alternatives = 0;
    std::optional<gp::PlacementPolicy> policy;
    QString writeTo;
    const QStringList args = QCoreApplication::arguments();
    for (int i = 1; i + 1 < args.size(); i += 2) {
        const QString k = args[i], v = args[i + 1];
        if (k == "--nodes")
            nodes = v.toInt();
        else if (k == "--tenants")
            tenants = v.toInt();
        else if (k == "--jobs-per-tenant")
            jobsPerTenant = v.toInt();
        else if (k == "--iterations")
            iterations = std::max(1, v.toInt());
        else if (k == "--alternatives")
            alternatives = std::max(0, v.toInt());
        else if (k == "--policy")
            policy = gp::enumFromName<gp::PlacementPolicy>(v.toStdString());
        else if (k == "--write")
            writeTo = v;
    }
    const auto cat = gp::io::loadCatalog(gp::io::bundledDataDir());
    if (!cat.ok()) {
        std::fprintf(stderr, "catalog does not load\n");
        return 1;
    }
    const gp::Scenario s = gp::bench::generateCluster(*cat, nodes, tenants, jobsPerTenant);
    for (const auto& issue : gp::validateScenario(s, *cat))
        if (issue.isError()) {
            std::fprintf(stderr, "generated scenario invalid: %s\n", issue.toString().c_str());
            return 1;
        }
    if (!writeTo.isEmpty()) {
        QFile out(writeTo);
        const QByteArray json = gp::io::writeScenario(s);
        if (!out.open(QIODevice::WriteOnly) || out.write(json) != json.size()) {
            std::fprintf(stderr, "%s: cannot write\n", qPrintable(writeTo));
            return 1;
        }
        std::printf("wrote %s (%lld bytes)\n", qPrintable(writeTo), static_cast<long long>(json.size()));
        return 0;
    }
    std::vector<double> ms, placing;
    gp::calc::Evaluation last;
    for (int i = 0; i < iterations + 1; ++i) {
        const auto t0 = std::chrono::steady_clock::now();
        last = gp::calc::evaluate(s, *cat, policy);
        const double elapsed = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
        if (i > 0) { // the first run warms caches and the allocator
            ms.push_back(elapsed);
            placing.push_back(last.placementMs);
        }
    }
    std::sort(ms.begin(), ms.end());
    std::sort(placing.begin(), placing.end());
    int gpus = 0;
    for (const auto& n : s.topology.nodes)
        gpus += n.gpuCount;
    std::printf("evaluate: %d nodes, %d GPUs, %zu links, %d jobs, policy %s\n", nodes, gpus, s.topology.links.size(),
                tenants * jobsPerTenant, std::string(gp::enumName(policy.value_or(s.placementPolicy))).c_str());
    std::printf("  %d iterations: min %.2f ms, median %.2f ms, max %.2f ms\n", iterations, ms.front(),
                ms[ms.size() / 2], ms.back());
    std::printf("  of which placement: min %.2f ms, median %.2f ms, max %.2f ms\n", placing.front(),
                placing[placing.size() / 2], placing.back());
    std::printf("  placed %zu of %zu jobs, VRAM utilization %.3f, allocation %.3f\n",
                last.jobs.size() - static_cast<std::size_t>(last.kpis.unplacedJobs), last.jobs.size(),
                last.kpis.vramUtilization, last.kpis.allocationRatio);
    if (alternatives > 0) { // the trade-off matrix the workbench computes after each evaluation
        std::vector<double> alt;
        int candidates = 0;
        for (int i = 0; i < alternatives; ++i) {
            const auto t0 = std::chrono::steady_clock::now();
            const auto a = gp::calc::compareSharing(s, *cat);
            alt.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
            candidates = 0;
            for (const auto& x : a)
                candidates += x.candidatesTried;
        }
        std::sort(alt.begin(), alt.end());
        std::printf("compareSharing: %d settings evaluated; %d iterations: min %.1f ms, median %.1f ms, max %.1f ms\n",
                    candidates, alternatives, alt.front(), alt[alt.size() / 2], alt.back());
    }
    return 0;
}
