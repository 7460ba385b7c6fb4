// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#include "migrations.h"

namespace gp::store {

namespace {

/// The steps, written once for both dialects: {key} is an id primary key, {ref} an id that
/// refers to one, {real} an 8-byte floating-point value (REAL in SQLite, DOUBLE PRECISION in PostgreSQL);
/// {sqlite} starts a statement only SQLite runs.
const std::vector<QStringList> kSteps = {
    // 1: scenarios and their revisions, each revision keeping the JSON document.
    {
        "CREATE TABLE scenarios ("
        " id {key},"
        " name TEXT NOT NULL,"
        " created_at TEXT NOT NULL,"
        " updated_at TEXT NOT NULL)",
        "CREATE TABLE revisions ("
        " id {key},"
        " scenario_id {ref} NOT NULL REFERENCES scenarios(id) ON DELETE CASCADE,"
        " number INTEGER NOT NULL,"
        " note TEXT NOT NULL DEFAULT '',"
        " created_at TEXT NOT NULL,"
        " document TEXT NOT NULL,"
        " UNIQUE (scenario_id, number))",
    },
    // 2: descriptions and tags on scenarios; KPI values per revision to sort and
    //    compare by (one row per KPI, so new KPIs need no schema change).
    {
        "ALTER TABLE scenarios ADD COLUMN description TEXT NOT NULL DEFAULT ''",
        "ALTER TABLE scenarios ADD COLUMN tags TEXT NOT NULL DEFAULT ''",
        "CREATE TABLE revision_kpis ("
        " revision_id {ref} NOT NULL REFERENCES revisions(id) ON DELETE CASCADE,"
        " kpi TEXT NOT NULL,"
        " value {real} NOT NULL,"
        " PRIMARY KEY (revision_id, kpi))",
        "CREATE INDEX revisions_by_scenario ON revisions(scenario_id, number)",
    },
    // 3: autosaved drafts of unsaved work, one per workbench session, kept until the
    //    session saves or discards it (a crashed session's draft is offered at the next
    //    start). The scenario it was opened from, if any, and that revision.
    {
        "CREATE TABLE drafts ("
        " session TEXT PRIMARY KEY,"
        " scenario_id {ref} REFERENCES scenarios(id) ON DELETE SET NULL,"
        " base_revision INTEGER,"
        " name TEXT NOT NULL,"
        " document TEXT NOT NULL,"
        " saved_at TEXT NOT NULL)",
    },
    // 4: optimistic concurrency and authors (issue 20): each scenario keeps the number of its
    //    latest revision, which a save raises only if it is still the one the save started from;
    //    each revision records who saved it (the database role, or the OS user for SQLite).
    {
        "ALTER TABLE scenarios ADD COLUMN latest_revision INTEGER NOT NULL DEFAULT 0",
        "UPDATE scenarios SET latest_revision ="
        " (SELECT COALESCE(MAX(number), 0) FROM revisions WHERE revisions.scenario_id = scenarios.id)",
        "ALTER TABLE revisions ADD COLUMN author TEXT NOT NULL DEFAULT ''",
    },
    // 5: scenario ids are never used twice (issue 34): SQLite's INTEGER PRIMARY KEY takes the
    //    largest id + 1, so deleting the newest scenario handed its id to the next one (a
    //    `library show 7` in a script then showed another plan). AUTOINCREMENT keeps the
    //    largest id ever given in sqlite_sequence; a SQLite table gets it only when it is made,
    //    so the table is copied into a new one (the ids, and so every revision and draft that
    //    refers to them, stay as they were; gpuplan turns foreign keys on only after migrating,
    //    so dropping the old table deletes nothing else). PostgreSQL's identity columns never
    //    hand out a number twice already: there the step only records the version.
    {
        "{sqlite}CREATE TABLE scenarios_v5 ("
        " id INTEGER PRIMARY KEY AUTOINCREMENT,"
        " name TEXT NOT NULL,"
        " created_at TEXT NOT NULL,"
        " updated_at TEXT NOT NULL,"
        " description TEXT NOT NULL DEFAULT '',"
        " tags TEXT NOT NULL DEFAULT '',"
        " latest_revision INTEGER NOT NULL DEFAULT 0)",
        "{sqlite}INSERT INTO scenarios_v5 (id, name, created_at, updated_at, description, tags, latest_revision)"
        " SELECT id, name, created_at, updated_at, description, tags, latest_revision FROM scenarios",
        "{sqlite}DROP TABLE scenarios",
        "{sqlite}ALTER TABLE scenarios_v5 RENAME TO scenarios",
    },
    // 6: calibration profiles (issue 38, docs/calibration.md#profiles): every version of a named
    //    profile kept, each with its author, date, the digest of the measurements it was fitted to
    //    and its JSON document (the profile file's content). IF NOT EXISTS: a team library whose
    //    recorded version was set back (tst_teamlibrary does) migrates again without failing.
    {
        "CREATE TABLE IF NOT EXISTS calibration_profiles ("
        " id {key},"
        " name TEXT NOT NULL,"
        " version INTEGER NOT NULL,"
        " author TEXT NOT NULL DEFAULT '',"
        " created_at TEXT NOT NULL,"
        " measurements_digest TEXT NOT NULL DEFAULT '',"
        " document TEXT NOT NULL,"
        " UNIQUE (name, version))",
    },
};

/// A statement that starts with {sqlite} belongs to the SQLite library only (a step whose
/// change PostgreSQL has already: the version still goes up on both).
std::vector<QStringList> inDialect(detail::Dialect dialect, const QString& key, const QString& ref, const QString& real)
{
    const QString sqliteOnly = "{sqlite}";
    std::vector<QStringList> out;
    for (const QStringList& step : kSteps) {
        QStringList sql;
        for (QString statement : step) {
            if (statement.startsWith(sqliteOnly)) {
                if (dialect != detail::Dialect::Sqlite)
                    continue;
                statement.remove(0, sqliteOnly.size());
            }
            sql << statement.replace("{key}", key).replace("{ref}", ref).replace("{real}", real);
        }
        out.push_back(sql);
    }
    return out;
}

} // namespace

const std::vector<QStringList>& migrationSteps(detail::Dialect dialect)
{
    static const std::vector<QStringList> sqlite =
        inDialect(detail::Dialect::Sqlite, "INTEGER PRIMARY KEY", "INTEGER", "REAL");
    static const std::vector<QStringList> postgres = inDialect(
        detail::Dialect::Postgres, "BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY", "BIGINT", "DOUBLE PRECISION");
    return dialect == detail::Dialect::Postgres ? postgres : sqlite;
}

} // namespace gp::store
