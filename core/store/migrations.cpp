// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#include "migrations.h"

namespace gp::store {

const std::vector<QStringList>& migrationSteps()
{
    static const std::vector<QStringList> steps = {
        // 1: scenarios and their revisions, each revision keeping the JSON document.
        {
            "CREATE TABLE scenarios ("
            " id INTEGER PRIMARY KEY,"
            " name TEXT NOT NULL,"
            " created_at TEXT NOT NULL,"
            " updated_at TEXT NOT NULL)",
            "CREATE TABLE revisions ("
            " id INTEGER PRIMARY KEY,"
            " scenario_id INTEGER NOT NULL REFERENCES scenarios(id) ON DELETE CASCADE,"
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
            " revision_id INTEGER NOT NULL REFERENCES revisions(id) ON DELETE CASCADE,"
            " kpi TEXT NOT NULL,"
            " value REAL NOT NULL,"
            " PRIMARY KEY (revision_id, kpi))",
            "CREATE INDEX revisions_by_scenario ON revisions(scenario_id, number)",
        },
        // 3: autosaved drafts of unsaved work, one per workbench session, kept until the
        //    session saves or discards it (a crashed session's draft is offered at the next
        //    start). The scenario it was opened from, if any, and that revision.
        {
            "CREATE TABLE drafts ("
            " session TEXT PRIMARY KEY,"
            " scenario_id INTEGER REFERENCES scenarios(id) ON DELETE SET NULL,"
            " base_revision INTEGER,"
            " name TEXT NOT NULL,"
            " document TEXT NOT NULL,"
            " saved_at TEXT NOT NULL)",
        },
    };
    return steps;
}

} // namespace gp::store
