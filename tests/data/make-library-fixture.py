#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
# SPDX-FileCopyrightText: 2026 The gpuplan developers
"""Writes a scenario library at an old schema version (3, 4 or 5) the way gpuplan of that schema
wrote it: the SQLite statements of core/store/migrations.cpp's steps 1..N copied verbatim (the
{key}/{ref}/{real} placeholders as the SQLite dialect fills them), PRAGMA user_version = N and
gpuplan's application id, then a few rows. The document is the one gpuplan 0.1.0 saved in
library-v2.sqlite. Rollback-journal mode, so the fixture is one file.

    tests/data/make-library-fixture.py 3 tests/data/library-v3.sqlite

Run once per version when the schema moved past it (tests/data/README.md); never regenerate
a shipped fixture."""
import os
import sqlite3
import sys

STEPS = [
    [  # 1
        "CREATE TABLE scenarios ( id INTEGER PRIMARY KEY, name TEXT NOT NULL, created_at TEXT NOT NULL,"
        " updated_at TEXT NOT NULL)",
        "CREATE TABLE revisions ( id INTEGER PRIMARY KEY, scenario_id INTEGER NOT NULL REFERENCES scenarios(id)"
        " ON DELETE CASCADE, number INTEGER NOT NULL, note TEXT NOT NULL DEFAULT '', created_at TEXT NOT NULL,"
        " document TEXT NOT NULL, UNIQUE (scenario_id, number))",
    ],
    [  # 2
        "ALTER TABLE scenarios ADD COLUMN description TEXT NOT NULL DEFAULT ''",
        "ALTER TABLE scenarios ADD COLUMN tags TEXT NOT NULL DEFAULT ''",
        "CREATE TABLE revision_kpis ( revision_id INTEGER NOT NULL REFERENCES revisions(id) ON DELETE CASCADE,"
        " kpi TEXT NOT NULL, value REAL NOT NULL, PRIMARY KEY (revision_id, kpi))",
        "CREATE INDEX revisions_by_scenario ON revisions(scenario_id, number)",
    ],
    [  # 3
        "CREATE TABLE drafts ( session TEXT PRIMARY KEY, scenario_id INTEGER REFERENCES scenarios(id)"
        " ON DELETE SET NULL, base_revision INTEGER, name TEXT NOT NULL, document TEXT NOT NULL,"
        " saved_at TEXT NOT NULL)",
    ],
    [  # 4
        "ALTER TABLE scenarios ADD COLUMN latest_revision INTEGER NOT NULL DEFAULT 0",
        "UPDATE scenarios SET latest_revision = (SELECT COALESCE(MAX(number), 0) FROM revisions"
        " WHERE revisions.scenario_id = scenarios.id)",
        "ALTER TABLE revisions ADD COLUMN author TEXT NOT NULL DEFAULT ''",
    ],
    [  # 5
        "CREATE TABLE scenarios_v5 ( id INTEGER PRIMARY KEY AUTOINCREMENT, name TEXT NOT NULL,"
        " created_at TEXT NOT NULL, updated_at TEXT NOT NULL, description TEXT NOT NULL DEFAULT '',"
        " tags TEXT NOT NULL DEFAULT '', latest_revision INTEGER NOT NULL DEFAULT 0)",
        "INSERT INTO scenarios_v5 (id, name, created_at, updated_at, description, tags, latest_revision)"
        " SELECT id, name, created_at, updated_at, description, tags, latest_revision FROM scenarios",
        "DROP TABLE scenarios",
        "ALTER TABLE scenarios_v5 RENAME TO scenarios",
    ],
]
APPLICATION_ID = 0x47504C4E  # "GPLN"

version, out = int(sys.argv[1]), sys.argv[2]
here = os.path.dirname(os.path.abspath(__file__))
src = sqlite3.connect("file:" + os.path.join(here, "library-v2.sqlite") + "?mode=ro", uri=True)
document, = src.execute("SELECT document FROM revisions WHERE number = 1").fetchone()
kpis = src.execute("SELECT kpi, value FROM revision_kpis ORDER BY kpi").fetchall()
src.close()

if os.path.exists(out):
    sys.exit(out + " exists: fixtures are never regenerated")
db = sqlite3.connect(out, isolation_level=None)
for v in range(1, version + 1):
    db.execute("BEGIN")
    for sql in STEPS[v - 1]:
        db.execute(sql)
    db.execute("PRAGMA user_version = %d" % v)
    db.execute("PRAGMA application_id = %d" % APPLICATION_ID)
    db.execute("COMMIT")

name = "Mixed sharing lab (v%d library)" % version
t1, t2, t3 = "2026-12-04T09:00:00.000Z", "2026-12-04T09:30:00.000Z", "2026-12-04T10:00:00.000Z"
db.execute("BEGIN")
# One scenario with two revisions (by two authors from schema 4 on), each with its KPIs.
cols = "id, name, description, tags, created_at, updated_at" + (", latest_revision" if version >= 4 else "")
vals = [1, name, "Old library fixture", "lab,v%d" % version, t1, t2] + ([2] if version >= 4 else [])
db.execute("INSERT INTO scenarios (%s) VALUES (%s)" % (cols, ", ".join("?" * len(vals))), vals)
for rid, (number, note, when, author) in enumerate([(1, "first save", t1, "alice"), (2, "after review", t2, "bob")], 1):
    rcols = "id, scenario_id, number, note, created_at, document" + (", author" if version >= 4 else "")
    rvals = [rid, 1, number, note, when, document] + ([author] if version >= 4 else [])
    db.execute("INSERT INTO revisions (%s) VALUES (%s)" % (rcols, ", ".join("?" * len(rvals))), rvals)
    for kpi, value in kpis:
        db.execute("INSERT INTO revision_kpis VALUES (?, ?, ?)", (rid, kpi, value if kpi != "jobs" else value + number - 1))
# An autosaved draft of unsaved work on top of revision 2.
db.execute("INSERT INTO drafts VALUES ('fixture-session', 1, 2, ?, ?, ?)", (name, document, t3))
db.execute("COMMIT")
db.execute("PRAGMA journal_mode = DELETE")
db.execute("VACUUM")
db.close()
