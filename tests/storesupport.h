// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
// What the scenario-library tests share: opening a library, reading a pragma on a connection
// of its own, hashing a file, and a library with many revisions.
#pragma once

#include "store/scenariolibrary.h"

#include <QCryptographicHash>
#include <QFile>
#include <QSqlDatabase>
#include <QSqlQuery>
#include <QVariant>

#include <memory>

namespace gp::test {

using store::ScenarioLibrary;

inline QByteArray fileHash(const QString& path)
{
    QFile f(path);
    f.open(QIODevice::ReadOnly);
    return QCryptographicHash::hash(f.readAll(), QCryptographicHash::Sha256);
}

/// Runs one pragma on a separate connection and returns its first value.
inline QVariant pragma(const QString& path, const QString& sql)
{
    QVariant out;
    {
        QSqlDatabase db = QSqlDatabase::addDatabase("QSQLITE", "probe");
        db.setDatabaseName(path);
        db.open();
        QSqlQuery q(db);
        if (q.exec(sql) && q.next())
            out = q.value(0);
    }
    QSqlDatabase::removeDatabase("probe");
    return out;
}

/// The library at `path`, or null with the reason in `error` (what the tests check).
inline std::unique_ptr<store::ScenarioLibrary> openLib(const QString& path, QString& error)
{
    auto opened = ScenarioLibrary::open(path);
    error = QString::fromStdString(opened.errorText());
    return opened ? std::move(*opened) : nullptr;
}

/// A real library with enough revisions to span many pages.
inline QString bigLibrary(const QString& path)
{
    QString error;
    auto lib = openLib(path, error);
    const auto id = lib->createScenario("big", "", QByteArray(5000, 'x'), "", {{"gpus", 1}});
    for (int i = 0; i < 40; ++i)
        lib->addRevision(*id, QByteArray(5000 + i * 100, char('a' + i % 26)), QString::number(i), {{"gpus", i}});
    return path; // closing checkpoints the write-ahead log into the file
}

} // namespace gp::test
