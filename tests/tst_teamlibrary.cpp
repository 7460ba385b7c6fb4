// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
// The scenario library on both backends (issue 20): a throwaway PostgreSQL 15 server started here
// (pgserver.h) and a SQLite file run the same behaviours — schema created on an empty database,
// revisions with KPIs and authors, tags, drafts, cascades — and the same optimistic concurrency:
// of two saves from one base revision the second is refused as a conflict that names who saved
// what, and nothing of it is written. PostgreSQL only: a newer schema and a database with other
// tables are refused untouched; an unreachable server, a password in the address and an unknown
// parameter are refused with a message naming the server, within the connect timeout.
#include "pgserver.h"
#include "store/scenariolibrary.h"
#include "store/serveraddress.h"
#include "testsupport.h"

#include <QElapsedTimer>
#include <QProcess>
#include <QSqlError>
#include <QSqlQuery>

#include <QTest>
#include <csignal>
#include <map>

using namespace gp;
using store::ScenarioLibrary;

class TestTeamLibrary : public QObject
{
    Q_OBJECT

    test::PostgresServer mServer;
    QTemporaryDir mTmp;
    int mDatabases = 0;

    /// A library on a fresh database of the server, or a fresh SQLite file.
    QString freshLibrary(bool server)
    {
        const QString name = QString("lib%1").arg(++mDatabases);
        if (!server)
            return mTmp.filePath(name + ".sqlite");
        if (!mServer.sql("postgres", "CREATE DATABASE " + name))
            qFatal("%s", qPrintable(mServer.error()));
        return mServer.address(name);
    }

    static std::unique_ptr<ScenarioLibrary> open(const QString& where)
    {
        auto lib = ScenarioLibrary::open(where);
        if (!lib)
            qFatal("%s", lib.errorText().c_str());
        return std::move(*lib);
    }

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(mTmp.isValid());
        QVERIFY2(mServer.start(), qPrintable(mServer.error()));
    }

    void sameBehaviourOnBothBackends_data()
    {
        QTest::addColumn<bool>("server");
        QTest::newRow("PostgreSQL") << true;
        QTest::newRow("SQLite") << false;
    }
    void sameBehaviourOnBothBackends()
    {
        QFETCH(bool, server);
        auto lib = open(freshLibrary(server));
        QCOMPARE(lib->isServer(), server);
        QCOMPARE(lib->scenarioCount().value.value(), 0);
        const QByteArray doc1 = "{\"format_version\": 1, \"name\": \"a\", \"note\": \"it's \\\"quoted\\\"\"}\n";
        const QByteArray doc2 = "{\"format_version\": 1, \"name\": \"a, revised\"}\n";
        auto id = lib->createScenario("Plan A", "first try", doc1, "initial",
                                      {{"gpus", 64}, {"cost_per_month_usd", 139693.123456789}});
        QVERIFY2(id, id.errorText().c_str());
        QCOMPARE(lib->addRevision(*id, doc2, "after review", {{"gpus", 72}}, 1).value.value(), 2);
        QCOMPARE(lib->document(*id).value.value(), doc2);
        QCOMPARE(lib->document(*id, 1).value.value(), doc1);
        const auto revs = lib->revisions(*id).value.value();
        QCOMPARE(revs.size(), std::size_t{2});
        QCOMPARE(revs[0].kpis.at("cost_per_month_usd"), 139693.123456789); // doubles, not 4-byte reals
        QCOMPARE(revs[1].note, QString("after review"));
        QCOMPARE(revs[1].author, lib->author());
        QVERIFY(!lib->author().isEmpty());
        if (server)
            QCOMPARE(lib->author(), QString("gpuplan")); // the database role
        QVERIFY(lib->setTags(*id, {"mig", "q3"}));
        QVERIFY(lib->rename(*id, "Plan A (final)"));
        const auto summary = lib->scenario(*id).value.value();
        QCOMPARE(summary.name, QString("Plan A (final)"));
        QCOMPARE(summary.tags, (QStringList{"mig", "q3"}));
        QCOMPARE(summary.latest.number, 2);
        QCOMPARE(lib->list().value.value().size(), std::size_t{1});
        // Drafts: one per session, replaced in place.
        store::Draft d{"session-1", *id, 2, "Plan A", doc2, {}};
        QVERIFY(lib->saveDraft(d));
        d.document = doc1;
        QVERIFY(lib->saveDraft(d));
        QCOMPARE(lib->drafts().value.value().size(), std::size_t{1});
        QCOMPARE(lib->drafts().value.value().front().document, doc1);
        QVERIFY(lib->deleteDraft("session-1"));
        // Delete cascades to revisions.
        QVERIFY(lib->deleteScenario(*id));
        QVERIFY(!lib->document(*id));
        QCOMPARE(lib->integrityCheck().value.value(), QString("ok"));
    }

    /// Two programs start from revision 1; the first save wins, the second is refused as a
    /// conflict naming who saved which revision, and nothing of it is written; saving on top of
    /// the latest (after looking) then works.
    void aSecondSaveFromTheSameBaseIsAConflict_data() { sameBehaviourOnBothBackends_data(); }
    void aSecondSaveFromTheSameBaseIsAConflict()
    {
        QFETCH(bool, server);
        const QString where = freshLibrary(server);
        auto alice = open(where);
        auto bob = open(where);
        const qint64 id = alice->createScenario("Shared plan", "", "{}", "first", {}).value.value();
        QCOMPARE(alice->addRevision(id, "{\"by\": \"alice\"}", "alice's", {}, 1).value.value(), 2);
        const Result<int> refused = bob->addRevision(id, "{\"by\": \"bob\"}", "bob's", {}, 1);
        QVERIFY(!refused);
        QVERIFY(ScenarioLibrary::isConflict(refused.issues));
        const QString why = QString::fromStdString(refused.errorText());
        QVERIFY2(why.contains(alice->author() + " saved revision 2 at ") &&
                     why.contains("after revision 1, the one these edits started from"),
                 qPrintable(why));
        QCOMPARE(bob->revisions(id).value.value().size(), std::size_t{2});
        QCOMPARE(bob->document(id).value.value(), QByteArray("{\"by\": \"alice\"}"));
        QCOMPARE(bob->addRevision(id, "{\"by\": \"bob\"}", "bob's, on top", {}, 2).value.value(), 3);
        QVERIFY(!ScenarioLibrary::isConflict(bob->addRevision(999999, "{}", "", {}, 1).issues)); // not a conflict
    }

    /// Eight teammates save revisions of one scenario at once, each from the latest it read; one
    /// is killed (kill -9) while it saves. Every revision a teammate said it committed is in the
    /// library with its document intact, the numbers run 1…N without a gap, every other save was
    /// reported to its writer as a conflict, and nothing else is there.
    void eightWritersAndAKillLoseNothing_data() { sameBehaviourOnBothBackends_data(); }
    void eightWritersAndAKillLoseNothing()
    {
        QFETCH(bool, server);
        const QString where = freshLibrary(server);
        QCOMPARE(open(where)->createScenario("Contended", "", "{\"worker\": 0, \"step\": 0}", "", {}).value.value(), 1);
        const QString child = qEnvironmentVariable("GPUPLAN_CRASHCHILD");
        std::vector<std::unique_ptr<QProcess>> writers;
        for (int w = 1; w <= 8; ++w) {
            auto p = std::make_unique<QProcess>();
            p->setProcessEnvironment(QProcessEnvironment::systemEnvironment());
            p->start(child, {"team", where, QString::number(w), "40"});
            QVERIFY(p->waitForStarted(10000));
            writers.push_back(std::move(p));
        }
        // Kill writer 8 once it has committed something, so it dies mid-run.
        QProcess* victim = writers.back().get();
        QTRY_VERIFY_WITH_TIMEOUT(victim->bytesAvailable() > 0 || victim->state() == QProcess::NotRunning, 60000);
        ::kill(static_cast<pid_t>(victim->processId()), SIGKILL);
        std::map<int, std::pair<int, int>> committed; // revision -> (worker, step)
        int conflicts = 0;
        for (auto& p : writers) {
            QVERIFY(p->state() == QProcess::NotRunning || p->waitForFinished(120000)); // false when already done
            if (p.get() != victim)
                QCOMPARE(p->exitCode(), 0);
            for (const QByteArray& line : p->readAllStandardOutput().split('\n')) {
                const QList<QByteArray> f = line.split(' ');
                if (f.value(0) == "committed") {
                    QVERIFY2(!committed.count(f[1].toInt()), line.constData()); // no revision given twice
                    committed[f[1].toInt()] = {f[2].toInt(), f[3].toInt()};
                } else if (f.value(0) == "conflict")
                    ++conflicts;
            }
        }
        auto lib = open(where);
        const auto revs = lib->revisions(1).value.value();
        for (std::size_t i = 0; i < revs.size(); ++i)
            QCOMPARE(revs[i].number, static_cast<int>(i) + 1); // no gap, no duplicate
        for (const auto& [revision, who] : committed) {
            const QByteArray doc = lib->document(1, revision).value.value();
            QCOMPARE(doc, QString("{\"worker\": %1, \"step\": %2}").arg(who.first).arg(who.second).toUtf8());
        }
        // Every revision but the first was reported to its writer, except at most one the killed
        // writer committed before it could say so.
        QVERIFY2(revs.size() - 1 >= committed.size() && revs.size() - 1 <= committed.size() + 1,
                 qPrintable(QString("%1 revisions, %2 reported").arg(revs.size()).arg(committed.size())));
        QVERIFY(conflicts > 0); // eight writers from the same base do collide
        qInfo("%s: %zu revisions, %d conflicts reported", server ? "PostgreSQL" : "SQLite", revs.size(), conflicts);
    }

    void newerSchemaAndForeignDatabasesAreRefused()
    {
        const QString newer = freshLibrary(true);
        open(newer);
        const QString db = newer.section('/', 3).section('?', 0, 0);
        QVERIFY2(mServer.sql(db, "UPDATE gpuplan_schema SET version = 99"), qPrintable(mServer.error()));
        auto refused = ScenarioLibrary::open(newer);
        QVERIFY(!refused);
        QVERIFY2(
            QString::fromStdString(refused.errorText())
                .contains(QString("library schema 99 is newer than this gpuplan reads (%1): it needs a newer gpuplan")
                              .arg(ScenarioLibrary::kSchemaVersion)),
            refused.errorText().c_str());
        QVERIFY(mServer.sql("postgres", "CREATE DATABASE other"));
        QVERIFY(mServer.sql("other", "CREATE TABLE invoices (id int)"));
        auto foreign = ScenarioLibrary::open(mServer.address("other"));
        QVERIFY(!foreign);
        QVERIFY2(QString::fromStdString(foreign.errorText()).contains("not a gpuplan library"),
                 foreign.errorText().c_str());
        QVERIFY(mServer.sql("other", "SELECT 1 FROM invoices")); // untouched: still there, nothing added
        QVERIFY(!mServer.sql("other", "SELECT 1 FROM scenarios"));
    }

    /// A role that may only read: it opens the library and reads it; a save is refused with the
    /// server's reason and what it means, and nothing is written.
    void aReadOnlyRoleCannotWrite()
    {
        const QString where = freshLibrary(true);
        const qint64 id = open(where)->createScenario("Shared", "", "{}", "first", {}).value.value();
        const QString db = where.section('/', 3).section('?', 0, 0);
        QVERIFY2(mServer.sql(db, "CREATE ROLE viewer LOGIN; GRANT SELECT ON ALL TABLES IN SCHEMA public TO viewer"),
                 qPrintable(mServer.error()));
        auto viewer = open(mServer.address(db, "viewer"));
        QCOMPARE(viewer->author(), QString("viewer"));
        QCOMPARE(viewer->document(id).value.value(), QByteArray("{}"));
        const Result<int> refused = viewer->addRevision(id, "{\"x\": 1}", "", {}, 1);
        QVERIFY(!refused);
        QVERIFY2(QString::fromStdString(refused.errorText()).contains("permission denied") &&
                     QString::fromStdString(refused.errorText()).contains("may only read the library"),
                 refused.errorText().c_str());
        QCOMPARE(viewer->revisions(id).value.value().size(), std::size_t{1});
    }

    /// The command line takes a server address wherever it takes a library file.
    void theCommandLineUsesTheServer()
    {
        const QString where = freshLibrary(true);
        const QString cli = qEnvironmentVariable("GPUPLAN_CLI");
        auto run = [&](const QStringList& args, QString* out = nullptr) {
            QProcess p;
            p.start(cli, args);
            p.waitForFinished(60000);
            if (out)
                *out = QString::fromUtf8(p.readAllStandardOutput());
            return p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1;
        };
        const QString sample = QDir(test::dataDir()).absoluteFilePath("samples/01-dgx-h100-three-tenants.json");
        QCOMPARE(run({"library", "import", sample, "--db", where}), 0);
        QString listed;
        QCOMPARE(run({"library", "list", "--json", "--db", where}, &listed), 0);
        QVERIFY2(listed.contains("DGX H100 pod: three tenants"), qPrintable(listed));
        QString checked;
        QCOMPARE(run({"library", "check", "--db", where}, &checked), 0);
        QVERIFY2(checked.contains(": ok (1 scenarios"), qPrintable(checked));
        QCOMPARE(run({"library", "list", "--db", "postgresql://alice:pw@/x"}), 1);
    }

    /// init-server: the schema and the two roles; a planner saves, a viewer reads and may not
    /// write (canWrite false, a save refused, nothing written).
    void initServerCreatesPlannerAndViewerRoles()
    {
        const QString where = freshLibrary(true);
        const QString db = where.section('/', 3).section('?', 0, 0);
        QProcess p;
        p.start(qEnvironmentVariable("GPUPLAN_CLI"), {"library", "init-server", "--db", where});
        QVERIFY(p.waitForFinished(60000));
        QCOMPARE(p.exitCode(), 0);
        QVERIFY(QString::fromUtf8(p.readAllStandardOutput()).contains("roles gpuplan_planner (read and write)"));
        QVERIFY(mServer.sql(db, "CREATE ROLE alice LOGIN IN ROLE gpuplan_planner;"
                                "CREATE ROLE victor LOGIN IN ROLE gpuplan_viewer"));
        auto alice = open(mServer.address(db, "alice"));
        QVERIFY(alice->canWrite());
        const qint64 id = alice->createScenario("Plan", "", "{}", "first", {{"gpus", 8}}).value.value();
        QCOMPARE(alice->addRevision(id, "{\"a\": 2}", "second", {}, 1).value.value(), 2);
        QVERIFY(alice->saveDraft({"s", id, 2, "Plan", "{}", {}}));
        auto victor = open(mServer.address(db, "victor"));
        QVERIFY(!victor->canWrite());
        QCOMPARE(victor->revisions(id).value.value().back().author, QString("alice"));
        QVERIFY(!victor->addRevision(id, "{}", "", {}, 2));
        QVERIFY(!victor->createScenario("Mine", "", "{}", "", {}));
        QCOMPARE(victor->scenarioCount().value.value(), 1);
        // A SQLite file has no roles.
        QVERIFY(!open(freshLibrary(false))->initServerRoles());
    }

    /// A role with a password: without one, and with a wrong one, refused with the server's reason
    /// and where to put it; from a password file (libpq's own means) or typed, connected.
    void passwordsComeFromLibpqOrTheUser()
    {
        const QString where = freshLibrary(true);
        const QString db = where.section('/', 3).section('?', 0, 0);
        open(where);
        QVERIFY(mServer.sql(db, "CREATE ROLE pwuser LOGIN PASSWORD 'right'; GRANT SELECT, INSERT, UPDATE, DELETE ON "
                                "ALL TABLES IN SCHEMA public TO pwuser"));
        const QString address = mServer.address(db, "pwuser");
        qunsetenv("PGPASSFILE");
        qputenv("PGPASSFILE", mTmp.filePath("none").toUtf8()); // not the user's own ~/.pgpass
        auto none = ScenarioLibrary::open(address);
        QVERIFY(!none);
        QVERIFY2(QString::fromStdString(none.errorText()).contains("~/.pgpass"), none.errorText().c_str());
        auto wrong = ScenarioLibrary::openServer(address, "wrong");
        QVERIFY(!wrong);
        QVERIFY2(QString::fromStdString(wrong.errorText()).contains("password authentication failed"),
                 wrong.errorText().c_str());
        QVERIFY(ScenarioLibrary::openServer(address, "right"));
        QFile pass(mTmp.filePath("pgpass"));
        QVERIFY(pass.open(QIODevice::WriteOnly));
        pass.write(QString("*:*:%1:pwuser:right\n").arg(db).toUtf8());
        pass.close();
        pass.setPermissions(QFileDevice::ReadOwner | QFileDevice::WriteOwner);
        qputenv("PGPASSFILE", pass.fileName().toUtf8());
        auto fromFile = ScenarioLibrary::open(address);
        QVERIFY2(fromFile, fromFile.errorText().c_str());
        qunsetenv("PGPASSFILE");
    }

    /// The server drops the library's connection: the next read and save open it again, and the
    /// save is whole.
    void aDroppedConnectionIsOpenedAgain()
    {
        const QString where = freshLibrary(true);
        const QString db = where.section('/', 3).section('?', 0, 0);
        auto lib = open(where);
        const qint64 id = lib->createScenario("Plan", "", "{}", "first", {}).value.value();
        QVERIFY(mServer.sql(db, "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = "
                                "'gpuplan' AND pid <> pg_backend_pid()"));
        QCOMPARE(lib->scenarioCount().value.value(), 1);
        QVERIFY(mServer.sql(db, "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = "
                                "'gpuplan' AND pid <> pg_backend_pid()"));
        const Result<int> saved = lib->addRevision(id, "{\"after\": 1}", "after the drop", {}, 1);
        QVERIFY2(saved, saved.errorText().c_str());
        QCOMPARE(*saved, 2);
        QCOMPARE(lib->document(id).value.value(), QByteArray("{\"after\": 1}"));
    }

    /// Another session holds a lock the save needs: the save gives up after the address's
    /// statement_timeout, says so, writes nothing, and the next save after the lock goes works.
    void aStatementThatWaitsTooLongIsCancelled()
    {
        const QString where = freshLibrary(true) + "&statement_timeout=1";
        auto lib = open(where);
        const qint64 id = lib->createScenario("Plan", "", "{}", "first", {}).value.value();
        {
            QSqlDatabase holder = store::parseServerAddress(where)->addConnection("holder", "tst-holder", {});
            QVERIFY2(holder.open(), qPrintable(holder.lastError().text()));
            QSqlQuery lock(holder);
            QVERIFY(lock.exec("BEGIN"));
            QVERIFY(lock.exec("LOCK TABLE scenarios IN ACCESS EXCLUSIVE MODE"));
            QElapsedTimer t;
            t.start();
            const Result<int> blocked = lib->addRevision(id, "{\"blocked\": 1}", "blocked", {}, 1);
            QVERIFY(!blocked);
            QVERIFY2(t.elapsed() < 8000, qPrintable(QString::number(t.elapsed())));
            QVERIFY2(QString::fromStdString(blocked.errorText()).contains("statement_timeout"),
                     blocked.errorText().c_str());
            QVERIFY(lock.exec("ROLLBACK"));
            holder.close();
        }
        QSqlDatabase::removeDatabase("holder");
        QCOMPARE(lib->revisions(id).value.value().size(), std::size_t{1}); // nothing half-written
        const Result<int> saved = lib->addRevision(id, "{\"after\": 1}", "after the lock", {}, 1);
        QVERIFY2(saved, saved.errorText().c_str());
        QCOMPARE(*saved, 2);
        auto zero = ScenarioLibrary::open("postgresql://alice@db.example/plans?statement_timeout=0");
        QVERIFY(!zero);
        QVERIFY(QString::fromStdString(zero.errorText()).contains("statement_timeout must be 1 to 3600 seconds"));
    }

    // Issue 34: the id of a deleted scenario, the newest one included, is never given again, on
    // either backend; a server library at schema 4 goes to 5 (a step with nothing to do there).
    void scenarioIdsAreNeverReused_data() { sameBehaviourOnBothBackends_data(); }
    void scenarioIdsAreNeverReused()
    {
        QFETCH(bool, server);
        const QString where = freshLibrary(server);
        qint64 newest = 0;
        {
            auto lib = open(where);
            lib->createScenario("one", "", "{}", "", {});
            newest = lib->createScenario("two", "", "{}", "", {}).value.value();
            QVERIFY(lib->deleteScenario(newest));
            QCOMPARE(lib->createScenario("three", "", "{}", "", {}).value.value(), newest + 1);
            QVERIFY(lib->deleteScenario(newest + 1));
        }
        if (server) {
            const QString db = where.section('/', 3).section('?', 0, 0);
            QVERIFY2(mServer.sql(db, "UPDATE gpuplan_schema SET version = 4"), qPrintable(mServer.error()));
        }
        auto lib = open(where);
        QCOMPARE(lib->createScenario("four", "", "{}", "", {}).value.value(), newest + 2);
        if (server) {
            const QString db = where.section('/', 3).section('?', 0, 0);
            QVERIFY(mServer.sql(db, QString("DO $$ BEGIN IF (SELECT version FROM gpuplan_schema) <> %1 THEN RAISE "
                                            "EXCEPTION 'not migrated'; END IF; END $$")
                                        .arg(ScenarioLibrary::kSchemaVersion)));
        }
    }

    // Issue 34: what goes into libpq's connection string is quoted, sslmode is one of libpq's
    // values, and a password is masked wherever it stands in an address.
    void addressValuesAreQuotedAndPasswordsMasked()
    {
        QCOMPARE(store::conninfoValue("plain"), QString("'plain'"));
        QCOMPARE(store::conninfoValue("it's a \\ path"), QString("'it\\'s a \\\\ path'"));
        QCOMPARE(store::conninfoValue(""), QString("''"));
        for (const QString mode : {"disable", "allow", "prefer", "require", "verify-ca", "verify-full"}) {
            const auto a = store::parseServerAddress("postgresql://alice@db.example/plans?sslmode=" + mode);
            QVERIFY2(a, a.errorText().c_str());
            QCOMPARE(a->sslMode, mode);
        }
        for (const QString bad : {"DISABLE", "disable%20user=postgres", "", "verify_full"}) {
            const auto a = store::parseServerAddress("postgresql://alice@db.example/plans?sslmode=" + bad);
            QVERIFY2(!a, qPrintable(bad));
            QVERIFY2(QString::fromStdString(a.errorText()).contains("is not one of libpq's"), a.errorText().c_str());
        }
        QCOMPARE(store::maskPasswords("postgresql://alice:s3cret@db/plans"), QString("postgresql://alice:…@db/plans"));
        QCOMPARE(store::maskPasswords("postgresql://alice@db/plans?password=s3cret&port=5"),
                 QString("postgresql://alice@db/plans?password=…&port=5"));
        QCOMPARE(store::maskPasswords("postgresql://a@db/p?sslmode=disable%20PASSWORD%3Ds3cret%20port=1"),
                 QString("postgresql://a@db/p?sslmode=disable%20PASSWORD%3D…%20port=1"));
        QCOMPARE(store::maskPasswords("sslmode 'disable password=s3cret port=5998'"),
                 QString("sslmode 'disable password=… port=5998'"));
        QCOMPARE(store::maskPasswords("no secrets here"), QString("no secrets here"));
        const auto echoed = store::parseServerAddress("postgresql://alice@db.example/plans?password=s3cret");
        QVERIFY(!echoed);
        QVERIFY2(!QString::fromStdString(echoed.errorText()).contains("s3cret"), echoed.errorText().c_str());
        const auto inHost = store::parseServerAddress("postgresql://alice@/plans?host=/run/pg%20password=s3cret");
        QVERIFY2(inHost, inHost.errorText().c_str()); // one host name to libpq, but never shown
        QVERIFY2(!inHost->display().contains("s3cret"), qPrintable(inHost->display()));
        const auto smuggled =
            store::parseServerAddress("postgresql://alice@db.example/plans?sslmode=disable%20password=s3cret");
        QVERIFY(!smuggled);
        QVERIFY2(!QString::fromStdString(smuggled.errorText()).contains("s3cret"), smuggled.errorText().c_str());
    }

    void badAddressesAndUnreachableServersAreSaid()
    {
        auto withPassword = ScenarioLibrary::open("postgresql://alice:secret@db.example:5432/plans");
        QVERIFY(!withPassword);
        QVERIFY(QString::fromStdString(withPassword.errorText()).contains("give no password in the address"));
        QVERIFY(!QString::fromStdString(withPassword.errorText()).contains("secret"));
        auto noDb = ScenarioLibrary::open("postgresql://alice@db.example:5432/");
        QVERIFY(!noDb);
        QVERIFY(QString::fromStdString(noDb.errorText()).contains("name the database"));
        auto unknown = ScenarioLibrary::open("postgresql://alice@db.example/plans?colour=blue");
        QVERIFY(!unknown);
        QVERIFY(QString::fromStdString(unknown.errorText()).contains("unknown parameter 'colour'"));
        // A socket folder where no server listens: refused at once, naming the server.
        QElapsedTimer t;
        t.start();
        auto nobody = ScenarioLibrary::open(QString("postgresql://gpuplan@/plans?host=%1&port=%2&connect_timeout=3")
                                                .arg(mTmp.path())
                                                .arg(mServer.port()));
        QVERIFY(!nobody);
        QVERIFY2(QString::fromStdString(nobody.errorText()).startsWith("team library gpuplan@" + mTmp.path()),
                 nobody.errorText().c_str());
        QVERIFY(QString::fromStdString(nobody.errorText()).contains("cannot connect"));
        QVERIFY(t.elapsed() < 10000);
    }
};

QTEST_GUILESS_MAIN(TestTeamLibrary)
#include "tst_teamlibrary.moc"
