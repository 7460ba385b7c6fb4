// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#include "scenariolibrary.h"

#include "librarywatcher.h"
#include "migrations.h"
#include "serveraddress.h"
#include "sqlsupport.h"

#include "model/validation.h"

#include <QAtomicInt>
#include <QFileInfo>
#include <QSqlDatabase>
#include <QSqlError>
#include <QSqlQuery>
#include <QStorageInfo>
#include <QVariant>

namespace gp::store {

using detail::Dialect;
using detail::explain;
using detail::fail;
using detail::now;
using detail::parseTime;
using detail::Statement;

namespace {

/// Free bytes below which a disk I/O error while opening a library is taken for a full disk
/// (the write-ahead log's shared-memory file alone needs 32 KiB).
constexpr qint64 kFullDiskBytes = 1024 * 1024;

/// Every line a checking PRAGMA (quick_check, integrity_check) returns; "ok" alone when sound.
std::optional<QStringList> pragmaLines(const QString& connection, const QString& sql, QString& error)
{
    Statement s(connection, sql);
    if (!s.exec()) {
        error = s.error();
        return std::nullopt;
    }
    QStringList lines;
    while (s.query().next())
        lines << s.query().value(0).toString();
    s.query().finish();
    return lines;
}

bool writeKpis(const QString& connection, qint64 revisionId, const std::map<QString, double>& kpis, QString& error)
{
    for (const auto& [key, value] : kpis) {
        Statement s(connection, "INSERT INTO revision_kpis (revision_id, kpi, value) VALUES (?, ?, ?)");
        if (!s.bind(revisionId).bind(key).bind(value).exec()) {
            error = s.error();
            return false;
        }
    }
    return true;
}

} // namespace

ScenarioLibrary::ScenarioLibrary(QString path, QString connection, Dialect dialect)
    : mPath(std::move(path)), mConnection(std::move(connection)), mDialect(dialect)
{
}

ScenarioLibrary::~ScenarioLibrary()
{
    {
        QSqlDatabase db = QSqlDatabase::database(mConnection, false);
        if (db.isOpen())
            db.close();
    }
    QSqlDatabase::removeDatabase(mConnection);
}

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
    Statement wal(mConnection, "PRAGMA journal_mode = WAL");
    if (!wal.run())
        return fail("cannot enable write-ahead logging", wal.error());

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

Status ScenarioLibrary::exists(qint64 scenarioId)
{
    Statement s(mConnection, "SELECT 1 FROM scenarios WHERE id = ?");
    if (!s.bind(scenarioId).exec())
        return fail("cannot read scenario " + QString::number(scenarioId), s.error());
    if (!s.query().next())
        return fail("scenario " + QString::number(scenarioId), "no such scenario in the library");
    return done();
}

Result<qint64> ScenarioLibrary::insertScenario(const NewScenario& n)
{
    const QString t = now();
    Statement s(mConnection, "INSERT INTO scenarios (name, description, tags, created_at, updated_at, latest_revision)"
                             " VALUES (?, ?, '', ?, ?, 1) RETURNING id");
    if (!s.bind(n.name).bind(n.description).bind(t).bind(t).exec() || !s.query().next())
        return fail("cannot save '" + n.name + "'", s.error());
    const qint64 id = s.query().value(0).toLongLong();
    s.query().finish();
    Statement r(mConnection, "INSERT INTO revisions (scenario_id, number, note, created_at, document, author)"
                             " VALUES (?, 1, ?, ?, ?, ?) RETURNING id");
    if (!r.bind(id).bind(n.note).bind(t).bind(QString::fromUtf8(n.document)).bind(mAuthor).exec() || !r.query().next())
        return fail("cannot save '" + n.name + "'", r.error());
    const qint64 revisionId = r.query().value(0).toLongLong();
    r.query().finish();
    QString err;
    if (!writeKpis(mConnection, revisionId, n.kpis, err))
        return fail("cannot save KPIs of '" + n.name + "'", err);
    if (Status told = notifyChange(id); !told)
        return Failure{std::move(told.issues)};
    return Result<qint64>::success(id);
}

Result<qint64> ScenarioLibrary::createScenario(const QString& name, const QString& description,
                                               const QByteArray& document, const QString& note,
                                               const std::map<QString, double>& kpis)
{
    detail::Transaction tx(mConnection, mDialect);
    if (!tx.active())
        return fail("cannot save", tx.error());
    auto id = insertScenario({name, description, document, note, kpis});
    if (!id)
        return id;
    if (!tx.commit())
        return fail("cannot save '" + name + "'", tx.error());
    return id;
}

Result<int> ScenarioLibrary::seedIfEmpty(const std::vector<NewScenario>& scenarios)
{
    detail::Transaction tx(mConnection, mDialect);
    if (!tx.active())
        return fail("cannot add the samples", tx.error());
    Statement count(mConnection, "SELECT COUNT(*) FROM scenarios");
    if (!count.exec() || !count.query().next())
        return fail("cannot read the library", count.error());
    const bool empty = count.query().value(0).toLongLong() == 0;
    count.query().finish();
    if (!empty || scenarios.empty())
        return Result<int>::success(0); // another program seeded it first, or nothing to seed
    for (const NewScenario& n : scenarios)
        if (auto id = insertScenario(n); !id)
            return Failure{std::move(id.issues)};
    if (!tx.commit())
        return fail("cannot add the samples", tx.error());
    return Result<int>::success(static_cast<int>(scenarios.size()));
}

Result<int> ScenarioLibrary::addRevision(qint64 scenarioId, const QByteArray& document, const QString& note,
                                         const std::map<QString, double>& kpis, std::optional<int> baseRevision)
{
    detail::Transaction tx(mConnection, mDialect);
    if (!tx.active())
        return fail("cannot save", tx.error());
    if (Status e = exists(scenarioId); !e)
        return Failure{std::move(e.issues)};
    // One conditional update decides the number: the latest revision goes up by one only where it
    // is still the one this save started from (the row stays locked to the end of the transaction,
    // so of two saves from the same base one wins and the other finds its base gone).
    const QString t = now();
    Statement u(mConnection, "UPDATE scenarios SET latest_revision = latest_revision + 1, updated_at = ?"
                             " WHERE id = ? AND (CAST(? AS INTEGER) IS NULL OR latest_revision = ?)"
                             " RETURNING latest_revision");
    const QVariant base = baseRevision ? QVariant(*baseRevision) : QVariant(QMetaType::fromType<int>());
    if (!u.bind(t).bind(scenarioId).bind(base).bind(base).exec())
        return fail("cannot save revision", u.error());
    if (!u.query().next()) {
        u.query().finish();
        return baseRevision ? conflict(scenarioId, *baseRevision)
                            : fail("scenario " + QString::number(scenarioId), "no such scenario in the library");
    }
    const int number = u.query().value(0).toInt();
    u.query().finish();
    Statement r(mConnection, "INSERT INTO revisions (scenario_id, number, note, created_at, document, author)"
                             " VALUES (?, ?, ?, ?, ?, ?) RETURNING id");
    if (!r.bind(scenarioId).bind(number).bind(note).bind(t).bind(QString::fromUtf8(document)).bind(mAuthor).exec() ||
        !r.query().next())
        return fail("cannot save revision", r.error());
    const qint64 revisionId = r.query().value(0).toLongLong();
    r.query().finish();
    QString err;
    if (!writeKpis(mConnection, revisionId, kpis, err))
        return fail("cannot save KPIs", err);
    if (Status told = notifyChange(scenarioId); !told)
        return Failure{std::move(told.issues)};
    if (!tx.commit())
        return fail("cannot save revision", tx.error());
    return Result<int>::success(number);
}

Failure ScenarioLibrary::conflict(qint64 scenarioId, int baseRevision)
{
    // Read outside the failed transaction's locks: who saved the newer revision, and when.
    Statement s(mConnection, "SELECT r.number, r.author, r.created_at FROM revisions r"
                             " WHERE r.scenario_id = ? ORDER BY r.number DESC LIMIT 1");
    QString who = "someone", when, latest = "a newer revision";
    if (s.bind(scenarioId).exec() && s.query().next()) {
        latest = "revision " + s.query().value(0).toString();
        if (!s.query().value(1).toString().isEmpty())
            who = s.query().value(1).toString();
        when = " at " + parseTime(s.query().value(2).toString()).toLocalTime().toString("yyyy-MM-dd HH:mm");
    }
    s.query().finish();
    return Failure{{Issue::error(kConflict, (who + " saved " + latest + when + " after revision " +
                                             QString::number(baseRevision) + ", the one these edits started from")
                                                .toStdString())}};
}

Status ScenarioLibrary::notifyChange(qint64 scenarioId)
{
    if (mDialect != Dialect::Postgres)
        return done();                                  // a SQLite file's watchers read its data_version
    Statement n(mConnection, "SELECT pg_notify(?, ?)"); // delivered when the transaction commits
    if (!n.bind(QString(kLibraryChannel)).bind(QString::number(scenarioId)).run())
        return fail("cannot tell the team about the change", n.error());
    return done();
}

void ScenarioLibrary::reviveIfLost()
{
    if (mDialect != Dialect::Postgres)
        return;
    QSqlQuery ping(QSqlDatabase::database(mConnection, false));
    if (!ping.exec("SELECT 1"))
        detail::Transaction::reopen(mConnection);
}

bool ScenarioLibrary::isServer() const { return mDialect == Dialect::Postgres; }

bool ScenarioLibrary::isConflict(const Issues& issues)
{
    return std::any_of(issues.begin(), issues.end(), [](const Issue& i) { return i.path == kConflict; });
}

Result<std::vector<RevisionInfo>> ScenarioLibrary::revisions(qint64 scenarioId)
{
    reviveIfLost();
    if (Status e = exists(scenarioId); !e)
        return Failure{std::move(e.issues)};
    Statement s(mConnection, "SELECT r.id, r.number, r.note, r.created_at, k.kpi, k.value, r.author FROM revisions r"
                             " LEFT JOIN revision_kpis k ON k.revision_id = r.id"
                             " WHERE r.scenario_id = ? ORDER BY r.number, k.kpi");
    if (!s.bind(scenarioId).exec())
        return fail("cannot read revisions", s.error());
    std::vector<RevisionInfo> out;
    while (s.query().next()) {
        const qint64 id = s.query().value(0).toLongLong();
        if (out.empty() || out.back().id != id) {
            RevisionInfo r;
            r.id = id;
            r.number = s.query().value(1).toInt();
            r.note = s.query().value(2).toString();
            r.createdAt = parseTime(s.query().value(3).toString());
            r.author = s.query().value(6).toString();
            out.push_back(r);
        }
        if (!s.query().value(4).isNull())
            out.back().kpis[s.query().value(4).toString()] = s.query().value(5).toDouble();
    }
    return Result<std::vector<RevisionInfo>>::success(std::move(out));
}

Result<std::vector<ScenarioSummary>> ScenarioLibrary::list() { return summaries(std::nullopt); }

Result<std::vector<ScenarioSummary>> ScenarioLibrary::summaries(std::optional<qint64> only)
{
    reviveIfLost();
    Statement s(mConnection, "SELECT id, name, description, tags, created_at, updated_at,"
                             " (SELECT COUNT(*) FROM revisions r WHERE r.scenario_id = scenarios.id)"
                             " FROM scenarios WHERE CAST(? AS BIGINT) IS NULL OR id = ? ORDER BY id");
    const QVariant id = only ? QVariant(*only) : QVariant(QMetaType::fromType<qlonglong>());
    s.bind(id).bind(id);
    if (!s.exec())
        return fail("cannot list the library", s.error());
    std::vector<ScenarioSummary> out;
    while (s.query().next()) {
        ScenarioSummary sum;
        sum.id = s.query().value(0).toLongLong();
        sum.name = s.query().value(1).toString();
        sum.description = s.query().value(2).toString();
        const QString tags = s.query().value(3).toString();
        sum.tags = tags.isEmpty() ? QStringList() : tags.split(',');
        sum.createdAt = parseTime(s.query().value(4).toString());
        sum.updatedAt = parseTime(s.query().value(5).toString());
        sum.revisionCount = s.query().value(6).toInt();
        out.push_back(sum);
    }
    for (auto& sum : out) {
        auto revs = revisions(sum.id);
        if (!revs)
            return Failure{std::move(revs.issues)};
        if (!revs->empty())
            sum.latest = revs->back();
    }
    return Result<std::vector<ScenarioSummary>>::success(std::move(out));
}

Result<ScenarioSummary> ScenarioLibrary::scenario(qint64 id)
{
    // One row and its revisions, not the whole library: every load from the library asks.
    auto one = summaries(id);
    if (!one)
        return Failure{std::move(one.issues)};
    if (!one->empty())
        return Result<ScenarioSummary>::success(std::move(one->front()));
    return fail("scenario " + QString::number(id), "no such scenario in the library");
}

Result<QByteArray> ScenarioLibrary::document(qint64 scenarioId, std::optional<int> revision)
{
    reviveIfLost();
    if (Status e = exists(scenarioId); !e)
        return Failure{std::move(e.issues)};
    Statement s(mConnection, revision ? "SELECT document FROM revisions WHERE scenario_id = ? AND number = ?"
                                      : "SELECT document FROM revisions WHERE scenario_id = ?"
                                        " ORDER BY number DESC LIMIT 1");
    s.bind(scenarioId);
    if (revision)
        s.bind(*revision);
    if (!s.exec())
        return fail("cannot read scenario " + QString::number(scenarioId), s.error());
    if (!s.query().next())
        return fail("scenario " + QString::number(scenarioId),
                    revision ? "has no revision " + QString::number(*revision) : "has no revisions");
    return Result<QByteArray>::success(s.query().value(0).toString().toUtf8());
}

Status ScenarioLibrary::rename(qint64 scenarioId, const QString& name)
{
    if (name.trimmed().isEmpty())
        return fail("cannot rename", "the name must not be empty");
    if (const std::string why = textProblem(name.toStdString(), TextKind::Name); !why.empty())
        return fail("cannot rename", QString::fromStdString(why)); // the rules of a name in a file
    detail::Transaction tx(mConnection, mDialect);
    if (!tx.active())
        return fail("cannot rename", tx.error());
    if (Status e = exists(scenarioId); !e)
        return e;
    Statement s(mConnection, "UPDATE scenarios SET name = ?, updated_at = ? WHERE id = ?");
    if (!s.bind(name).bind(now()).bind(scenarioId).exec())
        return fail("cannot rename", s.error());
    if (Status told = notifyChange(scenarioId); !told)
        return Failure{std::move(told.issues)};
    if (!tx.commit())
        return fail("cannot rename", tx.error());
    return done();
}

Status ScenarioLibrary::setTags(qint64 scenarioId, const QStringList& tags)
{
    for (const QString& t : tags)
        if (t.contains(',') || t.trimmed().isEmpty())
            return fail("cannot tag", "tags must be non-empty and contain no comma");
    detail::Transaction tx(mConnection, mDialect);
    if (!tx.active())
        return fail("cannot tag", tx.error());
    if (Status e = exists(scenarioId); !e)
        return e;
    Statement s(mConnection, "UPDATE scenarios SET tags = ?, updated_at = ? WHERE id = ?");
    if (!s.bind(tags.join(',')).bind(now()).bind(scenarioId).exec())
        return fail("cannot tag", s.error());
    if (Status told = notifyChange(scenarioId); !told)
        return Failure{std::move(told.issues)};
    if (!tx.commit())
        return fail("cannot tag", tx.error());
    return done();
}

Status ScenarioLibrary::deleteScenario(qint64 scenarioId)
{
    detail::Transaction tx(mConnection, mDialect);
    if (!tx.active())
        return fail("cannot delete scenario " + QString::number(scenarioId), tx.error());
    if (Status e = exists(scenarioId); !e)
        return e;
    Statement s(mConnection, "DELETE FROM scenarios WHERE id = ?");
    if (!s.bind(scenarioId).exec())
        return fail("cannot delete scenario " + QString::number(scenarioId), s.error());
    if (Status told = notifyChange(scenarioId); !told)
        return Failure{std::move(told.issues)};
    if (!tx.commit())
        return fail("cannot delete", tx.error());
    return done();
}

Result<int> ScenarioLibrary::scenarioCount()
{
    reviveIfLost();
    Statement s(mConnection, "SELECT COUNT(*) FROM scenarios");
    if (!s.exec() || !s.query().next())
        return fail("cannot read the library", s.error());
    return Result<int>::success(s.query().value(0).toInt());
}

Status ScenarioLibrary::saveDraft(const Draft& draft)
{
    detail::Transaction tx(mConnection, mDialect);
    if (!tx.active())
        return fail("cannot autosave", tx.error());
    Statement s(mConnection, "INSERT INTO drafts (session, scenario_id, base_revision, name, document, saved_at)"
                             " VALUES (?, ?, ?, ?, ?, ?)"
                             " ON CONFLICT(session) DO UPDATE SET scenario_id = excluded.scenario_id,"
                             " base_revision = excluded.base_revision, name = excluded.name,"
                             " document = excluded.document, saved_at = excluded.saved_at");
    const QVariant noId(QMetaType::fromType<qlonglong>());
    const QVariant noRevision(QMetaType::fromType<int>());
    s.bind(draft.session)
        .bind(draft.scenarioId ? QVariant(*draft.scenarioId) : noId)
        .bind(draft.baseRevision ? QVariant(*draft.baseRevision) : noRevision)
        .bind(draft.name)
        .bind(QString::fromUtf8(draft.document))
        .bind(now());
    if (!s.run())
        return fail("cannot autosave", s.error());
    if (!tx.commit())
        return fail("cannot autosave", tx.error());
    return done();
}

Result<std::vector<Draft>> ScenarioLibrary::drafts()
{
    reviveIfLost();
    Statement s(mConnection, "SELECT session, scenario_id, base_revision, name, document, saved_at FROM drafts"
                             " ORDER BY saved_at DESC, session");
    if (!s.exec())
        return fail("cannot read autosaved drafts", s.error());
    std::vector<Draft> out;
    while (s.query().next()) {
        Draft d;
        d.session = s.query().value(0).toString();
        if (!s.query().value(1).isNull())
            d.scenarioId = s.query().value(1).toLongLong();
        if (!s.query().value(2).isNull())
            d.baseRevision = s.query().value(2).toInt();
        d.name = s.query().value(3).toString();
        d.document = s.query().value(4).toString().toUtf8();
        d.savedAt = parseTime(s.query().value(5).toString());
        out.push_back(std::move(d));
    }
    return Result<std::vector<Draft>>::success(std::move(out));
}

Status ScenarioLibrary::deleteDraft(const QString& session)
{
    detail::Transaction tx(mConnection, mDialect);
    if (!tx.active())
        return fail("cannot remove the autosaved draft", tx.error());
    Statement s(mConnection, "DELETE FROM drafts WHERE session = ?");
    if (!s.bind(session).run())
        return fail("cannot remove the autosaved draft", s.error());
    if (!tx.commit())
        return fail("cannot remove the autosaved draft", tx.error());
    return done();
}

Result<QString> ScenarioLibrary::integrityCheck()
{
    if (mDialect == Dialect::Postgres) // the server keeps its own consistency; a reachable library is "ok"
        return scenarioCount() ? Result<QString>::success("ok") : fail("cannot check the library", "no answer");
    QString error;
    const auto lines = pragmaLines(mConnection, "PRAGMA integrity_check", error);
    if (!lines)
        return fail("cannot check the library", error);
    return Result<QString>::success(lines->join('\n'));
}

} // namespace gp::store
