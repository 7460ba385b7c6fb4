// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
// ScenarioLibrary: how a SQLite file becomes a library — refused unless it is empty or gpuplan's
// (before any write), then migrated step by step under concurrent opens (docs/reliability.md §2).
#include "scenariolibrary.h"

#include "librarywatcher.h"
#include "migrations.h"
#include "serveraddress.h"
#include "sqlsupport.h"

#include <QElapsedTimer>
#include <QFileInfo>
#include <QSqlDatabase>
#include <QSqlError>
#include <QSqlQuery>
#include <QStorageInfo>
#include <QThread>
#include <QVariant>

namespace gp::store {

using detail::Dialect;
using detail::explain;
using detail::fail;
using detail::pragmaLines;
using detail::Statement;

namespace {

/// Free bytes below which a disk I/O error while opening a library is taken for a full disk
/// (the write-ahead log's shared-memory file alone needs 32 KiB).
constexpr qint64 kFullDiskBytes = 1024 * 1024;

} // namespace

Result<std::unique_ptr<ScenarioLibrary>> ScenarioLibrary::open(const QString& path)
{
    if (isServerAddress(path))
        return openServer(path);
    auto refuse = [&](const QString& why) { return fail(path, why); };
    const QFileInfo info(path);
    if (info.exists() && !info.isFile())
        return refuse("not a regular file");
    // Permission bits, not access(): root may write anything, but a file its owner made
    // read-only is meant to stay as it is.
    if (info.exists() && !(info.permissions() & QFileDevice::WriteOwner))
        return refuse("the file is read-only; gpuplan keeps its library writable (make the file writable, "
                      "or copy it and open the copy)");
    if (info.exists() && !QFileInfo(info.absolutePath()).isWritable())
        return refuse("the folder " + info.absolutePath() +
                      " cannot be written; SQLite needs it for the library's journal");
    const QString connection = detail::nextConnectionName();
    std::unique_ptr<ScenarioLibrary> lib(new ScenarioLibrary(path, connection, Dialect::Sqlite));
    lib->mAuthor = detail::osUser();
    {
        QSqlDatabase db = QSqlDatabase::addDatabase("QSQLITE", connection);
        db.setDatabaseName(path);
        db.setConnectOptions(QString("QSQLITE_BUSY_TIMEOUT=%1").arg(kBusyTimeoutMs));
        if (!db.open())
            return refuse("cannot open: " + explain(db.lastError().text()));
    }
    if (Status migrated = lib->migrateSqlite(); !migrated) {
        // SQLite says only "disk I/O error" when it cannot make the shared-memory file of the
        // write-ahead log: on a full disk, say that the disk is full.
        const bool full = QStorageInfo(info.absolutePath()).bytesAvailable() < kFullDiskBytes;
        // "<path>: <what>: <why>", as every message about the file reads.
        for (Issue& i : migrated.issues) {
            if (full && QString::fromStdString(i.message).contains("disk I/O error")) {
                i.path = "no space left on device";
                i.message += " (the disk holding the library is full: free some space on it and try again; "
                             "gpuplan left the file as it was)";
            }
            i.path = path.toStdString() + ": " + i.path;
        }
        return Failure{std::move(migrated.issues)};
    }
    return Result<std::unique_ptr<ScenarioLibrary>>::success(std::move(lib));
}

Status ScenarioLibrary::migrateSqlite()
{
    // Nothing is written to a file before it is known to be empty or a sound gpuplan library
    // (not even its journal mode): another program's database stays byte for byte as it was.
    Result<int> current = sqliteVersion();
    if (!current)
        return Failure{std::move(current.issues)};
    if (*current > 0) { // a damaged library is refused before anything is written to it
        QString error;
        const auto problems = pragmaLines(mConnection, "PRAGMA quick_check", error);
        if (!problems)
            return detail::failRead(error);
        if (*problems != QStringList{"ok"})
            return fail("the library is damaged",
                        problems->mid(0, 3).join("; ") + " (restore it from a backup; gpuplan left it as it was)");
    }
    // The switch to WAL needs the file to itself. SQLite does not wait for that (the busy
    // handler is skipped where waiting could deadlock, as when another program opening the same
    // new library holds its read lock): retry while the lock is busy, up to the usual timeout.
    QElapsedTimer waited;
    waited.start();
    for (int attempt = 0;; ++attempt) {
        Statement wal(mConnection, "PRAGMA journal_mode = WAL");
        if (wal.run())
            break;
        const QString code = wal.query().lastError().nativeErrorCode();
        const bool busy = code == "5" || code == "6"; // SQLITE_BUSY, SQLITE_LOCKED
        if (!busy || waited.elapsed() >= kBusyTimeoutMs)
            return fail("cannot enable write-ahead logging", wal.error());
        QThread::msleep(static_cast<unsigned long>(5 + (attempt % 8) * 5));
    }

    // Each step in its own write transaction, the version read again inside it: of several
    // programs opening a new library at once, one makes each step and the others find it made.
    const auto& steps = migrationSteps(Dialect::Sqlite);
    // Off, whatever SQLite was built to default to, while the steps run (a pragma outside any
    // transaction): a step that copies a table (5) must not cascade the old table's deletion.
    if (*current < kSchemaVersion)
        if (Statement off(mConnection, "PRAGMA foreign_keys = OFF"); !off.run())
            return fail("cannot turn foreign keys off to migrate", off.error());
    while (*current < kSchemaVersion) {
        detail::Transaction tx(mConnection, mDialect);
        if (!tx.active())
            return fail("cannot start migration to schema " + QString::number(*current + 1), tx.error());
        current = sqliteVersion();
        if (!current)
            return Failure{std::move(current.issues)};
        if (*current >= kSchemaVersion)
            break; // another program migrated it while this one waited (nothing to commit)
        const int v = *current + 1;
        for (const QString& sql : steps[static_cast<std::size_t>(v - 1)]) {
            Statement s(mConnection, sql);
            if (!s.run())
                return fail("migration to schema " + QString::number(v) + " failed", s.error());
        }
        Statement setVersion(mConnection, QString("PRAGMA user_version = %1").arg(v));
        Statement setApp(mConnection, QString("PRAGMA application_id = %1").arg(kApplicationId));
        if (!setVersion.run() || !setApp.run())
            return fail("cannot record schema " + QString::number(v), setVersion.error());
        if (!tx.commit())
            return fail("migration to schema " + QString::number(v) + " failed", tx.error());
        current = Result<int>::success(v);
    }
    // Only now (see above).
    Statement fk(mConnection, "PRAGMA foreign_keys = ON");
    if (!fk.run())
        return fail("cannot enable foreign keys", fk.error());
    return done();
}

Result<int> ScenarioLibrary::sqliteVersion()
{
    // Reads only, in one statement: one snapshot of the file, so a program that is creating
    // the library meanwhile is seen before or after its step, never halfway. The statement is
    // finished, so no read transaction stays open when the journal mode changes.
    Statement s(mConnection, "SELECT (SELECT user_version FROM pragma_user_version),"
                             " (SELECT application_id FROM pragma_application_id),"
                             " (SELECT count(*) FROM sqlite_master),"
                             " (SELECT group_concat(name, ',') FROM (SELECT name FROM sqlite_master"
                             "  WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name))");
    if (!s.exec() || !s.query().next())
        return detail::failRead(s.error());
    const qint64 version = s.query().value(0).toLongLong();
    const qint64 appId = s.query().value(1).toLongLong();
    const qint64 objects = s.query().value(2).toLongLong();
    const QString names = s.query().value(3).toString();
    const QStringList tables = names.isEmpty() ? QStringList() : names.split(',');
    s.query().finish();
    const QString what = QString("user_version %1, application id %2, tables: %3")
                             .arg(version)
                             .arg(appId)
                             .arg(tables.isEmpty() ? QString("none") : tables.join(", "));
    // An empty file, or a database with nothing in it, becomes a new library.
    if (appId == 0 && version == 0 && objects == 0)
        return Result<int>::success(0);
    if (appId == 0 && version == 0)
        return fail("not a gpuplan library",
                    "the database has tables but no gpuplan schema version (" + what + "); gpuplan left it as it was");
    // Every gpuplan library carries the application id from its first schema on (the first
    // release wrote it, tests/data/library-v1.sqlite): without it the file is someone else's.
    if (appId != kApplicationId)
        return fail("not a gpuplan library",
                    "the file is another program's SQLite database (" + what + "); gpuplan left it as it was");
    if (version > kSchemaVersion)
        return fail("library schema " + QString::number(version) + " is newer than this gpuplan reads (" +
                        QString::number(kSchemaVersion) + ")",
                    "it needs a newer gpuplan");
    // And the tables its version has.
    QStringList expected;
    if (version >= 1)
        expected << "revisions"
                 << "scenarios";
    if (version >= 2)
        expected << "revision_kpis";
    if (version >= 3)
        expected << "drafts";
    if (version >= 6)
        expected << "calibration_profiles";
    QStringList missing;
    for (const QString& t : expected)
        if (!tables.contains(t))
            missing << t;
    if (version == 0 && objects > 0)
        return fail("not a gpuplan library",
                    "the database has tables but no gpuplan schema version (" + what + "); gpuplan left it as it was");
    if (!missing.isEmpty())
        return fail("not a gpuplan library", "schema " + QString::number(version) + " has the tables " +
                                                 missing.join(", ") + ", this file lacks them (" + what +
                                                 "); gpuplan left it as it was");
    return Result<int>::success(static_cast<int>(version));
}

} // namespace gp::store
