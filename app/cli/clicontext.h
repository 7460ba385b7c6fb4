// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#pragma once

#include "model/catalog.h"
#include "model/issue.h"
#include "model/scenario.h"

#include <QCommandLineParser>
#include <QJsonObject>
#include <QString>
#include <QStringList>
#include <QTextStream>

#include <cstdint>
#include <functional>
#include <optional>
#include <utility>
#include <vector>

namespace gp::calc {
struct Kpis;
struct CostBreakdown;
} // namespace gp::calc

namespace gp::cli {

/// Exit statuses of every subcommand (docs/cli.md).
enum Exit : int
{
    kOk = 0,
    kFailure = 1,
    kBadInput = 2
};

QTextStream& out();
QTextStream& err();

/// A subcommand's parser with the options every subcommand shares (--catalog, --help).
/// parse() handles --help and usage errors; it returns the exit code to stop with, if any.
class CommandLine
{
public:
    CommandLine(const QString& name, const QString& description);
    QCommandLineParser& parser() { return mParser; }
    void addDbOption();
    std::optional<int> parse(const QStringList& args);
    /// Reads --seed (if given) into `seed`; on a bad value prints the usage error and returns false.
    bool readSeed(std::uint64_t& seed);
    QString usageError(const QString& message) const;
    /// Prints usageError(message) and returns kBadInput, for `return cl.refuse(…)`.
    int refuse(const QString& message) const;

private:
    QString mName;
    QCommandLineParser mParser;
};

/// The catalog every command needs: bundled data merged with the user's catalog file.
/// Problems are printed; nullopt when the catalog cannot be used.
std::optional<Catalog> loadCatalogOrReport(const QCommandLineParser& parser);

/// The scenario in `file`; its problems printed as "FILE: PATH: message" and nullopt when it does
/// not load.
std::optional<Scenario> readScenarioOrReport(const QString& file, const Catalog& catalog);

/// Writes `bytes` to `path` through io::writeFileAtomically; on failure says "PATH: cannot write:
/// why" and returns false.
bool saveFileAtomically(const QString& path, const QByteArray& bytes);

/// Refuses an output file that is one of the command's inputs — `inputs`, and --catalog, --db
/// (a file) and --current where given: says so and returns false (the caller exits with kBadInput).
bool outputIsNotAnInput(const QCommandLineParser& parser, const QString& output, QStringList inputs);

/// Writes `files` (relative paths) under `dir` all or none through io::writeFiles; on failure says
/// which file and why and returns false.
bool saveFilesAtomically(const QString& dir, const std::vector<std::pair<QString, QByteArray>>& files);

/// The library path: --db if given, else the default one in the app-data folder.
QString libraryPath(const QCommandLineParser& parser);

int runValidate(const QStringList& args);
int runMigLayouts(const QStringList& args);
int runLibrary(const QStringList& args);
int runSummary(const QStringList& args);
int runFormat(const QStringList& args);
int runEdit(const QStringList& args);
int runMemory(const QStringList& args);
int runOptimize(const QStringList& args);
int runOptimizeSize(const QStringList& args); // optimize size
int runOptimizePlan(const QStringList& args); // optimize plan
int runEvaluate(const QStringList& args);
int runReplay(const QStringList& args);
int runSimulate(const QStringList& args);
int runExportConfig(const QStringList& args);
int runCompare(const QStringList& args);
int runReport(const QStringList& args);
int runSweep(const QStringList& args);
int runValidateModel(const QStringList& args);
int runCheckPlan(const QStringList& args);
int runImportCluster(const QStringList& args);
int runImportMeasurements(const QStringList& args);
int runCalibrate(const QStringList& args);
int runProfiles(const QStringList& args);

/// The cluster KPIs as `evaluate --json` prints them (docs/cli.md#evaluate); summary reuses it.
QJsonObject kpisToJson(const calc::Kpis& kpis);
/// A cost decomposition as `evaluate --json` prints it: {useful, idle, overhead, stranded}.
QJsonObject costBreakdownToJson(const calc::CostBreakdown& parts);
/// The same in words: "useful $… + idle $… + sharing overhead $… + stranded $…".
QString costBreakdownText(const calc::CostBreakdown& parts);

/// One problem as validate prints it: "FILE: PATH: message".
QString formatIssue(const QString& file, const Issue& issue);

} // namespace gp::cli
