// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
// gpuplan-cli: everything the workbench computes, headless (architecture.md §9.9).
#include "clicontext.h"
#include "sim/simbackend.h"

#include <QApplication>
#include <QCoreApplication>
#include <QIODevice>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <map>
#include <memory>

namespace {

const char* kUsage =
    "Usage: gpuplan-cli COMMAND [options]\n"
    "\n"
    "Capacity planning for shared GPU clusters, headless.\n"
    "\n"
    "Commands:\n"
    "  validate FILE...        check scenario files; prints FILE: PATH: message per problem\n"
    "  summary [FILE...]       summarise scenarios (default: the bundled samples)\n"
    "  evaluate FILE...        memory, placement, penalty, throughput, links, KPIs and cost\n"
    "  simulate FILE           Monte Carlo of completion times, out-of-memory and congestion\n"
    "  memory                  memory per GPU of one job (the quick calculator)\n"
    "  optimize job            the fastest parallelism of one training job (the job search)\n"
    "  optimize plan FILE      sharing settings and size: the Pareto set of plans within SLA\n"
    "  optimize size FILE      the fewest nodes that host a scenario within SLA, month by month\n"
    "  mig-layouts --gpu NAME  enumerate the valid MIG layouts of a GPU\n"
    "  library ACTION          list, import, export, delete, check; init-server for a team library\n"
    "  replay --nodes --tasks  replay the Alibaba GPU-sharing trace with a scheduling policy\n"
    "  format FILE...          validate and rewrite scenarios in canonical form\n"
    "  edit FILE -o OUT        the workbench's edits by id: --set nodes[ID].FIELD=VALUE, --link, --pin, ...\n"
    "  compare A B [C D]       KPIs side by side with deltas, and what differs in the plans\n"
    "  report FILE -o OUT.pdf  the detailed PDF report (also --scenario ID [--db PATH])\n"
    "  export-config FILE -o DIR  the sharing plan as GPU Operator configs; --format dra, hami, kai or all\n"
    "  sweep SPEC -o DIR       a grid of what-ifs, whole or one shard (--shard I/N); sweep merge DIR...\n"
    "  validate-model ROWS...  the model against published measurements, calibration and held-out apart\n"
    "  check-plan FILE --prometheus URL --from T  the plan beside DCGM telemetry: predicted vs measured\n"
    "  import-cluster -o OUT   a running cluster as a scenario: Kubernetes (kubectl JSON, kubeconfig) or Slurm\n"
    "  import-measurements SCENARIO FILE... --job JOB  benchmark results and training logs beside the plan\n"
    "  calibrate FILE MEAS     fit the model's parameters to measurements: a calibration profile\n"
    "  profiles ACTION         calibration profiles: list, show, diff, export\n"
    "\n"
    "Every command takes --help. Exit status: 0 success, 1 runtime failure, 2 bad input or usage\n"
    "(check-plan adds 3 to 6, import-measurements 3 and 4, calibrate 3: see their --help).\n"
    "Options for all commands: --catalog PATH (user catalog merged over the bundled one).\n";

} // namespace

int main(int argc, char** argv)
{
    // Only the report, sweep and replay --charts draw (charts, topology through widgets): they get a QApplication, on
    // the offscreen platform when no display is set, so it runs headless too.
    bool drawing = argc > 1 && (std::strcmp(argv[1], "report") == 0 || std::strcmp(argv[1], "sweep") == 0);
    for (int i = 2; argc > 1 && std::strcmp(argv[1], "replay") == 0 && i < argc; ++i)
        drawing = drawing || std::strncmp(argv[i], "--charts", 8) == 0; // replay --charts draws too
    if (drawing && qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM") && qEnvironmentVariableIsEmpty("DISPLAY") &&
        qEnvironmentVariableIsEmpty("WAYLAND_DISPLAY"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
    std::unique_ptr<QCoreApplication> app =
        drawing ? std::make_unique<QApplication>(argc, argv) : std::make_unique<QCoreApplication>(argc, argv);
    QCoreApplication::setApplicationName("gpuplan");
    QCoreApplication::setApplicationVersion(GPUPLAN_VERSION);

    const std::map<QString, int (*)(const QStringList&)> commands{
        {"validate", gp::cli::runValidate},
        {"summary", gp::cli::runSummary},
        {"mig-layouts", gp::cli::runMigLayouts},
        {"library", gp::cli::runLibrary},
        {"format", gp::cli::runFormat},
        {"edit", gp::cli::runEdit},
        {"memory", gp::cli::runMemory},
        {"optimize", gp::cli::runOptimize},
        {"evaluate", gp::cli::runEvaluate},
        {"replay", gp::cli::runReplay},
        {"simulate", gp::cli::runSimulate},
        {"export-config", gp::cli::runExportConfig},
        {"compare", gp::cli::runCompare},
        {"report", gp::cli::runReport},
        {"sweep", gp::cli::runSweep},
        {"validate-model", gp::cli::runValidateModel},
        {"check-plan", gp::cli::runCheckPlan},
        {"import-cluster", gp::cli::runImportCluster},
        {"import-measurements", gp::cli::runImportMeasurements},
        {"calibrate", gp::cli::runCalibrate},
        {"profiles", gp::cli::runProfiles},
    };
    QStringList args = QCoreApplication::arguments();
    args.removeFirst();
    if (args.isEmpty()) {
        gp::cli::err() << kUsage << Qt::flush;
        return gp::cli::kBadInput;
    }
    const QString command = args.takeFirst();
    if (command == "--help" || command == "-h" || command == "help") {
        gp::cli::out() << kUsage << Qt::flush;
        return gp::cli::kOk;
    }
    if (command == "--version") {
        // The second line says which simulation backends this build has (scripts/run.sh prints it).
        const gp::sim::BackendInfo b = gp::sim::probeBackends();
        gp::cli::out()
            << "gpuplan-cli " << GPUPLAN_VERSION << "\nsimulation backends: CPU"
            << (!b.cudaCompiled ? QString(" only; no CUDA backend: %1").arg(QString::fromStdString(b.detail))
                : b.cudaUsable()
                    ? QString(" and CUDA, on %1").arg(QString::fromStdString(b.cudaDevice))
                    : QString(" and CUDA (built in, but not usable here: %1)").arg(QString::fromStdString(b.detail)))
            << Qt::endl;
        return gp::cli::kOk;
    }
    auto it = commands.find(command);
    if (it == commands.end()) {
        gp::cli::err() << "gpuplan-cli: unknown command '" << command << "'\n\n" << kUsage << Qt::flush;
        return gp::cli::kBadInput;
    }
    const int code = it->second(args);
    // Output on standard output is a file too (`gpuplan-cli format s.json > out.json`): a full
    // disk there is a failure, not a success with a truncated file. (A reader that closes the
    // pipe ends the process by SIGPIPE, as for any command-line tool.)
    gp::cli::out().flush();
    errno = 0;
    const bool failed = gp::cli::out().status() != QTextStream::Ok || std::fflush(stdout) != 0 || std::ferror(stdout);
    if (failed) {
        const int e = errno;
        QString why = e != 0 ? QString::fromLocal8Bit(std::strerror(e)) : gp::cli::out().device()->errorString();
        if (!why.isEmpty())
            why[0] = why[0].toLower();
        gp::cli::err() << "gpuplan-cli " << command << ": cannot write standard output"
                       << (why.isEmpty() ? QString() : ": " + why) << Qt::endl;
        return code == gp::cli::kOk ? gp::cli::kFailure : code;
    }
    return code;
}
