// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#include "datapaths.h"

#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>
#include <QStandardPaths>
#include <QStringList>

namespace gp::io {

QString bundledDataDir()
{
    QString env = qEnvironmentVariable("GPUPLAN_DATA_DIR");
    if (!env.isEmpty())
        return env;
    if (QCoreApplication::instance()) {
        const QString installed = QDir(QCoreApplication::applicationDirPath()).absoluteFilePath("../share/gpuplan");
        if (QDir(installed).exists("catalog"))
            return QDir::cleanPath(installed);
    }
    return QStringLiteral(GPUPLAN_SOURCE_DATA_DIR);
}

QString appDataDir()
{
    QString dir = QStandardPaths::writableLocation(QStandardPaths::AppDataLocation);
    QDir().mkpath(dir);
    return dir;
}

QString defaultLibraryPath() { return QDir(appDataDir()).absoluteFilePath("library.sqlite"); }

QString defaultUserCatalogPath() { return QDir(appDataDir()).absoluteFilePath("catalog.json"); }

QString userGuidePath()
{
    QStringList candidates;
    if (QCoreApplication::instance())
        candidates
            << QDir(QCoreApplication::applicationDirPath()).absoluteFilePath("../share/doc/gpuplan/user-guide.md");
    candidates << QDir(QStringLiteral(GPUPLAN_SOURCE_DATA_DIR)).absoluteFilePath("../docs/user-guide.md");
    for (const QString& c : candidates)
        if (QFileInfo::exists(c))
            return QDir::cleanPath(c);
    return {};
}

} // namespace gp::io
