// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
// Benchmark of the job search (calc/jobsearch.h) on the spaces docs/performance.md compares with
// Calculon's measured rates: Megatron's 22B on 8 GPUs, 175B on 64, 530B on 2,520 (MT-NLG's GPU
// count and batch) and 175B over every GPU count from 64 to 1,024. Not a test: it measures and
// prints configurations per second on one worker and on every core.
//
// Then the plan search (calc/plansearch.h) on the 64-node and 250-node samples: plans evaluated,
// time, and whether it reached a local optimum or the time limit.
//
//   bench_optimize [--iterations I] [--fixtures DIR] [--plan-time-limit S]
//   (DIR: tests/data, or GPUPLAN_TEST_DATA_DIR; S: default 30)
#include "calc/jobsearch.h"
#include "calc/parallel.h"
#include "calc/plansearch.h"
#include "io/catalogreader.h"
#include "io/datapaths.h"
#include "io/scenarioreader.h"

#include <QCoreApplication>
#include <QDir>
#include <QStringList>

#include <algorithm>
#include <cstdio>
#include <vector>

int main(int argc, char** argv)
{
    QCoreApplication app(argc, argv);
    int iterations = 5;
    double planLimit = 30.0;
    QString fixtures = qEnvironmentVariable("GPUPLAN_TEST_DATA_DIR");
    const QStringList args = QCoreApplication::arguments();
    for (int i = 1; i + 1 < args.size(); i += 2) {
        if (args[i] == "--iterations")
            iterations = std::max(1, args[i + 1].toInt());
        else if (args[i] == "--fixtures")
            fixtures = args[i + 1];
        else if (args[i] == "--plan-time-limit")
            planLimit = std::max(0.1, args[i + 1].toDouble());
    }
    auto catalog = gp::io::loadCatalog(gp::io::bundledDataDir(), {});
    if (!catalog) {
        std::fprintf(stderr, "%s\n", catalog.errorText().c_str());
        return 1;
    }
    struct Space
    {
        const char* name;
        const char* run; // a validation run: its model, node type and assumptions
        int gpusMin, gpusMax, globalBatch;
    };
    const Space spaces[] = {
        {"22B on 8 GPUs", "korthikanti-22b-selective", 8, 8, 4},
        {"175B on 64 GPUs", "korthikanti-175b-selective", 64, 64, 64},
        {"530B on 2,520 GPUs", "korthikanti-530b-selective", 2520, 2520, 1920},
        {"175B on 64-1,024 GPUs", "korthikanti-175b-selective", 64, 1024, 1536},
    };
    for (const Space& sp : spaces) {
        const QString path = QDir(fixtures).absoluteFilePath(QString("validation/%1.json").arg(sp.run));
        auto scenario = gp::io::readScenarioFile(path, *catalog.value);
        if (!scenario.ok()) {
            std::fprintf(stderr, "%s: cannot read (give --fixtures DIR)\n", qPrintable(path));
            return 1;
        }
        const gp::Scenario& s = *scenario.value;
        gp::calc::JobSearchSetup setup =
            gp::calc::jobSearchSetup(s, *catalog.value, s.tenants.front().jobs.front(), s.topology.nodes.front());
        setup.gpusMin = sp.gpusMin;
        setup.gpusMax = sp.gpusMax;
        setup.job.batch.global = sp.globalBatch;
        for (int workers : {1, 0}) {
            gp::calc::setParallelFor({}, workers);
            std::vector<double> rates, ms;
            gp::calc::JobSearchResult r;
            for (int i = 0; i < iterations; ++i) {
                r = gp::calc::searchJob(setup);
                rates.push_back(r.configurationsPerS());
                ms.push_back(r.elapsedMs);
            }
            std::sort(rates.begin(), rates.end());
            std::sort(ms.begin(), ms.end());
            std::printf("%-22s %s: %lld configurations (%lld fit, %lld refused by the bound), median %.2f ms, "
                        "%.0f configurations/s (min %.0f, max %.0f)\n",
                        sp.name, workers == 1 ? "1 worker " : "all cores", r.configurations, r.feasible, r.pruned,
                        ms[ms.size() / 2], rates[rates.size() / 2], rates.front(), rates.back());
        }
    }
    for (const QString& file :
         {QString("03-fabric-64-node-infiniband.json"), QString("04-cluster-250-node-h100.json")}) {
        const QString path = QDir(gp::io::bundledDataDir()).absoluteFilePath("samples/" + file);
        auto scenario = gp::io::readScenarioFile(path, *catalog.value);
        if (!scenario.ok()) {
            std::fprintf(stderr, "%s: cannot read\n", qPrintable(path));
            return 1;
        }
        gp::calc::PlanSearchOptions o;
        o.timeLimitS = planLimit;
        const gp::calc::PlanSearchResult r = gp::calc::searchPlan(*scenario.value, *catalog.value, o);
        std::printf("plan search, %-34s %d plans in %.1f s (%.1f ms each), %s; %zu on the Pareto front%s\n",
                    qPrintable(file), r.evaluated, r.elapsedMs / 1000.0, r.elapsedMs / std::max(r.evaluated, 1),
                    r.timedOut ? "time limit" : "local optimum", r.pareto.size(),
                    r.pareto.empty() ? (" — " + r.infeasibleReason).c_str() : "");
    }
    return 0;
}
