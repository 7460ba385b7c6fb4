// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#include "clicontext.h"

#include "io/catalogreader.h"
#include "io/datapaths.h"
#include "io/filewriter.h"
#include "io/scenarioreader.h"

#include <QFileInfo>
#include <QRegularExpression>

#include <cstdio>

namespace gp::cli {

QTextStream& out()
{
    static QTextStream s(stdout);
    return s;
}

QTextStream& err()
{
    static QTextStream s(stderr);
    return s;
}

CommandLine::CommandLine(const QString& name, const QString& description) : mName(name)
{
    mParser.setApplicationDescription(description);
    mParser.addHelpOption();
    mParser.addOption({"catalog",
                       "User catalog merged over the bundled one (default: catalog.json in "
                       "the app-data folder, if present).",
                       "PATH"});
}

void CommandLine::addDbOption()
{
    mParser.addOption({"db",
                       "Scenario library: a file (default: library.sqlite in the app-data folder), or a team "
                       "library postgresql://user@host:port/dbname (docs/team-library.md).",
                       "PATH|URL"});
}

QString CommandLine::usageError(const QString& message) const
{
    return "gpuplan-cli " + mName + ": " + message + "\nTry 'gpuplan-cli " + mName + " --help'.";
}

std::optional<Scenario> readScenarioOrReport(const QString& file, const Catalog& catalog)
{
    io::ScenarioReadResult read = io::readScenarioFile(file, catalog);
    if (read.ok())
        return std::move(*read.value);
    for (const Issue& i : read.issues)
        err() << formatIssue(file, i) << '\n';
    err() << Qt::flush;
    return std::nullopt;
}

bool saveFileAtomically(const QString& path, const QByteArray& bytes)
{
    const Status written = io::writeFileAtomically(path, bytes);
    if (!written)
        err() << QString::fromStdString(written.errorText()) << Qt::endl;
    return written.ok();
}

bool outputIsNotAnInput(const QCommandLineParser& parser, const QString& output, QStringList inputs)
{
    for (const char* option : {"catalog", "db", "current"})
        if (parser.optionNames().contains(option))
            inputs << parser.value(option);
    inputs.removeIf([](const QString& f) { return f.startsWith("postgresql://") || f.startsWith("postgres://"); });
    const Status ok = io::checkOutputIsNotInput(output, inputs);
    if (!ok)
        err() << QString::fromStdString(ok.errorText()) << Qt::endl;
    return ok.ok();
}

bool saveFilesAtomically(const QString& dir, const std::vector<std::pair<QString, QByteArray>>& files)
{
    const Status written = io::writeFiles(dir, files);
    if (!written)
        err() << QString::fromStdString(written.errorText()) << Qt::endl;
    return written.ok();
}

int CommandLine::refuse(const QString& message) const
{
    err() << usageError(message) << Qt::endl;
    return kBadInput;
}

std::optional<int> CommandLine::parse(const QStringList& args)
{
    QStringList full = args;
    full.prepend("gpuplan-cli " + mName);
    if (!mParser.parse(full)) {
        err() << usageError(mParser.errorText()) << Qt::endl;
        return kBadInput;
    }
    if (mParser.isSet("help")) {
        // Qt names the program from argv[0]; the usage line should name the subcommand too.
        QString help = mParser.helpText();
        help.replace(QRegularExpression("^Usage: \\S+"), "Usage: gpuplan-cli " + mName);
        out() << help << Qt::flush;
        return kOk;
    }
    return std::nullopt;
}

bool CommandLine::readSeed(std::uint64_t& seed)
{
    if (!mParser.isSet("seed"))
        return true;
    bool ok = false;
    const std::uint64_t v = mParser.value("seed").toULongLong(&ok);
    if (!ok) {
        err() << usageError("--seed must be a non-negative whole number") << Qt::endl;
        return false;
    }
    seed = v;
    return true;
}

std::optional<Catalog> loadCatalogOrReport(const QCommandLineParser& parser)
{
    QString user = io::defaultUserCatalogPath();
    if (parser.isSet("catalog")) {
        user = parser.value("catalog");
        if (!QFileInfo::exists(user)) {
            err() << user << ": catalog file does not exist" << Qt::endl;
            return std::nullopt;
        }
    }
    auto r = io::loadCatalog(io::bundledDataDir(), user);
    for (const auto& i : r.issues)
        err() << (i.isError() ? "" : "warning: ") << QString::fromStdString(i.toString()) << Qt::endl;
    if (!r.ok()) {
        err() << "the catalog has errors; nothing was done" << Qt::endl;
        return std::nullopt;
    }
    return std::move(*r);
}

QString libraryPath(const QCommandLineParser& parser)
{
    return parser.isSet("db") ? parser.value("db") : io::defaultLibraryPath();
}

} // namespace gp::cli
