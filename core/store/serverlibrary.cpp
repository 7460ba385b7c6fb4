// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
// The scenario library on a PostgreSQL server (docs/team-library.md): connecting through Qt's
// QPSQL driver, and the schema's versions in the table gpuplan_schema.
#include "migrations.h"
#include "scenariolibrary.h"
#include "serveraddress.h"
#include "sqlsupport.h"

namespace gp::store {

using detail::Dialect;
using detail::fail;
using detail::Statement;

Result<std::unique_ptr<ScenarioLibrary>> ScenarioLibrary::openServer(const QString& address, const QString& password)
{
    const Result<ServerAddress> parsed = parseServerAddress(address);
    if (!parsed)
        return Failure{parsed.issues};
    const ServerAddress& a = *parsed;
    const QString where = "team library " + a.display();
    if (!QSqlDatabase::isDriverAvailable("QPSQL"))
        return fail(where, "this gpuplan has no PostgreSQL driver (install the Debian package libqt6sql6-psql)");
    const QString connection = detail::nextConnectionName();
    std::unique_ptr<ScenarioLibrary> lib(new ScenarioLibrary(address, connection, Dialect::Postgres));
    {
        QSqlDatabase db = a.addConnection(connection, "gpuplan", password);
        if (!db.open()) {
            // libpq's message names the host as given: masked like every address gpuplan shows.
            const QString why = maskPasswords(db.lastError().text().trimmed());
            return fail(where, why.contains("password") ? "cannot connect: " + why +
                                                              " (give the password in ~/.pgpass, a service file, or "
                                                              "when the workbench asks)"
                                                        : "cannot connect: " + why);
        }
    }
    Statement who(connection, "SELECT current_user");
    if (!who.exec() || !who.query().next())
        return fail(where, who.error());
    lib->mAuthor = who.query().value(0).toString();
    lib->mPassword = password;
    who.query().finish();
    if (Status migrated = lib->migratePostgres(); !migrated) {
        for (Issue& i : migrated.issues)
            i.path = where.toStdString() + ": " + i.path;
        return Failure{std::move(migrated.issues)};
    }
    Statement rights(connection, "SELECT has_table_privilege('revisions', 'INSERT')"
                                 " AND has_table_privilege('scenarios', 'UPDATE')");
    if (!rights.exec() || !rights.query().next())
        return fail(where, rights.error());
    lib->mCanWrite = rights.query().value(0).toBool();
    rights.query().finish();
    return Result<std::unique_ptr<ScenarioLibrary>>::success(std::move(lib));
}

Status ScenarioLibrary::initServerRoles()
{
    if (mDialect != Dialect::Postgres)
        return fail(mPath, "roles belong to a team library on a server (--db postgresql://…)");
    const QString tables = "gpuplan_schema, scenarios, revisions, revision_kpis, drafts, calibration_profiles";
    QString error;
    detail::Transaction tx(mConnection, mDialect);
    if (!tx.active())
        return fail("cannot set up the roles", tx.error());
    const QStringList steps = {
        QString("DO $$ BEGIN IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = '%1') THEN CREATE ROLE %1 NOLOGIN; "
                "END IF; IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = '%2') THEN CREATE ROLE %2 NOLOGIN; END "
                "IF; END $$")
            .arg(kPlannerRole, kViewerRole),
        QString("GRANT USAGE ON SCHEMA public TO %1, %2").arg(kPlannerRole, kViewerRole),
        QString("GRANT SELECT ON %1 TO %2").arg(tables, kViewerRole),
        QString("GRANT SELECT, INSERT, UPDATE, DELETE ON %1 TO %2").arg(tables, kPlannerRole),
        QString("REVOKE INSERT, UPDATE, DELETE ON gpuplan_schema FROM %1").arg(kPlannerRole),
        QString("GRANT USAGE, SELECT ON ALL SEQUENCES IN SCHEMA public TO %1").arg(kPlannerRole),
    };
    for (const QString& sql : steps)
        if (!detail::execDirect(mConnection, sql, error))
            return fail("cannot set up the roles", error);
    if (!tx.commit())
        return fail("cannot set up the roles", tx.error());
    return done();
}

Status ScenarioLibrary::migratePostgres()
{
    // The version, or nothing in an empty database; a database with other tables and no
    // gpuplan_schema is not a library. Each step runs in a transaction that holds an advisory
    // lock, so two programs opening a fresh library at once migrate it once.
    auto version = [this](QString& error) -> std::optional<int> {
        Statement has(mConnection, "SELECT to_regclass('gpuplan_schema') IS NOT NULL,"
                                   " (SELECT count(*) FROM information_schema.tables"
                                   "  WHERE table_schema = current_schema())");
        if (!has.exec() || !has.query().next()) {
            error = has.error();
            return std::nullopt;
        }
        const bool versioned = has.query().value(0).toBool();
        const int tables = has.query().value(1).toInt();
        has.query().finish();
        if (!versioned) {
            if (tables > 0) {
                error = "not a gpuplan library: the database has tables but no gpuplan_schema";
                return std::nullopt;
            }
            return 0;
        }
        Statement v(mConnection, "SELECT version, application FROM gpuplan_schema");
        if (!v.exec() || !v.query().next()) {
            error = v.error();
            return std::nullopt;
        }
        if (v.query().value(1).toString() != "gpuplan") {
            error = "not a gpuplan library: gpuplan_schema belongs to '" + v.query().value(1).toString() + "'";
            return std::nullopt;
        }
        const int n = v.query().value(0).toInt();
        v.query().finish();
        return n;
    };
    QString error;
    std::optional<int> current = version(error);
    if (!current)
        return fail(error.startsWith("not a gpuplan") ? "not a gpuplan library" : "cannot read the schema version",
                    error);
    if (*current > kSchemaVersion)
        return fail("library schema " + QString::number(*current) + " is newer than this gpuplan reads (" +
                        QString::number(kSchemaVersion) + ")",
                    "it needs a newer gpuplan");
    const auto& steps = migrationSteps(Dialect::Postgres);
    while (*current < kSchemaVersion) {
        detail::Transaction tx(mConnection, mDialect);
        if (!tx.active())
            return fail("cannot start a migration", tx.error());
        Statement lock(mConnection, "SELECT pg_advisory_xact_lock(1196444750)"); // "GPLN"
        if (!lock.run())
            return fail("cannot lock the library for its migration", lock.error());
        current = version(error); // another program may have migrated it while we waited
        if (!current)
            return fail("cannot read the schema version", error);
        if (*current >= kSchemaVersion)
            break;
        const int v = *current + 1;
        if (v == 1)
            for (const char* sql : {"CREATE TABLE gpuplan_schema (version INTEGER NOT NULL, application TEXT NOT NULL)",
                                    "INSERT INTO gpuplan_schema VALUES (0, 'gpuplan')"})
                if (!detail::execDirect(mConnection, sql, error))
                    return fail("cannot create the library's schema", error);
        for (const QString& sql : steps[static_cast<std::size_t>(v - 1)])
            if (!detail::execDirect(mConnection, sql, error))
                return fail("migration to schema " + QString::number(v) + " failed", error);
        Statement record(mConnection, "UPDATE gpuplan_schema SET version = ?");
        if (!record.bind(v).run())
            return fail("cannot record schema " + QString::number(v), record.error());
        if (!tx.commit())
            return fail("migration to schema " + QString::number(v) + " failed", tx.error());
        current = v;
    }
    return done();
}

} // namespace gp::store
