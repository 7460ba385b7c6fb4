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
    const auto lines = detail::pragmaLines(mConnection, "PRAGMA integrity_check", error);
    if (!lines)
        return fail("cannot check the library", error);
    return Result<QString>::success(lines->join('\n'));
}

} // namespace gp::store
