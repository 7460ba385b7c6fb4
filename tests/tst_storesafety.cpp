// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
// The scenario library keeps the user's data whatever it is given (issue 34, docs/reliability.md
// §2): every older schema migrates with its data, ids are never reused, another program's SQLite
// file is refused untouched, $USER is validated, and first-use seeding is all or nothing.
#include "document/librarygateway.h"
#include "io/scenarioreader.h"
#include "io/scenariowriter.h"
#include "model/limits.h"
#include "store/scenariolibrary.h"
#include "storesupport.h"
#include "testsupport.h"
#include <QCryptographicHash>
#include <QRegularExpression>
#include <QSignalSpy>
#include <QSqlDatabase>
#include <QSqlQuery>
#include <QTemporaryDir>
#include <QTest>

using namespace gp;
using store::ScenarioLibrary;
using test::fileHash;
using test::openLib;
using test::pragma;

class TestStoreSafety : public QObject
{
    Q_OBJECT

    QTemporaryDir mTmp;

private Q_SLOTS:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QVERIFY(mTmp.isValid());
    }

    // Issue 34: every older schema has a fixture (tests/data/README.md), and each opens and
    // migrates with its scenarios, revisions, KPIs, authors and drafts as they were.
    void migratesEveryOlderSchemaFixture_data()
    {
        QTest::addColumn<int>("version");
        for (int v = 1; v < ScenarioLibrary::kSchemaVersion; ++v)
            QTest::newRow(qPrintable(QString("v%1").arg(v))) << v;
    }
    void migratesEveryOlderSchemaFixture()
    {
        QFETCH(int, version);
        const QString fixture = QDir(test::fixturesDir()).absoluteFilePath(QString("library-v%1.sqlite").arg(version));
        QVERIFY2(QFileInfo::exists(fixture), qPrintable(fixture + " is missing: every older schema keeps a fixture"));
        const QString path = mTmp.filePath(QString("every-v%1.sqlite").arg(version));
        QFile::remove(path);
        QVERIFY(QFile::copy(fixture, path));
        QFile::setPermissions(path, QFile::ReadOwner | QFile::WriteOwner);
        QCOMPARE(pragma(path, "PRAGMA user_version").toInt(), version);
        const int revisionsBefore = pragma(path, "SELECT count(*) FROM revisions").toInt();
        QString error;
        auto lib = openLib(path, error);
        QVERIFY2(lib, qPrintable(error));
        QCOMPARE(pragma(path, "PRAGMA user_version").toInt(), ScenarioLibrary::kSchemaVersion);
        QCOMPARE(pragma(path, "SELECT count(*) FROM revisions").toInt(), revisionsBefore);
        QCOMPARE(pragma(path, "SELECT count(*) FROM pragma_foreign_key_check").toInt(), 0);
        QCOMPARE(lib->integrityCheck().value.value(), QString("ok"));
        const auto all = lib->list().value.value();
        QVERIFY(!all.empty());
        QVERIFY(all[0].revisionCount >= 1);
        QVERIFY(document::loadFromLibrary(*lib, all[0].id, test::bundledCatalog()).ok());
        if (version >= 3) { // the fixtures made by make-library-fixture.py
            QCOMPARE(all[0].name, QString("Mixed sharing lab (v%1 library)").arg(version));
            QCOMPARE(all[0].tags, QStringList({"lab", QString("v%1").arg(version)}));
            QCOMPARE(all[0].revisionCount, 2);
            QCOMPARE(all[0].latest.note, QString("after review"));
            QCOMPARE(all[0].latest.kpis.at("gpus"), 32.0);
            QCOMPARE(all[0].latest.author, version >= 4 ? QString("bob") : QString());
            const auto drafts = lib->drafts().value.value();
            QCOMPARE(drafts.size(), std::size_t(1));
            QCOMPARE(drafts[0].scenarioId.value_or(0), all[0].id);
            QCOMPARE(drafts[0].baseRevision.value_or(0), 2);
        }
        // The migrated library goes on: a save from the latest revision, then a new scenario
        // whose id is never one given before, even after the newest is deleted.
        const int latest = all[0].revisionCount;
        QCOMPARE(lib->addRevision(all[0].id, "{}", "after migration", {}, latest).value.value(), latest + 1);
        const qint64 a = lib->createScenario("a", "", "{}", "", {}).value.value();
        QVERIFY(lib->deleteScenario(a));
        QCOMPARE(lib->createScenario("b", "", "{}", "", {}).value.value(), a + 1);
        // Deleting a scenario still takes its revisions along (foreign keys on after the copy).
        QVERIFY(lib->deleteScenario(all[0].id));
        QCOMPARE(pragma(path, QString("SELECT count(*) FROM revisions WHERE scenario_id = %1").arg(all[0].id)).toInt(),
                 0);
    }

    // Issue 34: the newest scenario's id is not handed to the next one after it is deleted,
    // neither in this session nor after the library is opened again.
    void scenarioIdsAreNeverReused()
    {
        const QString path = mTmp.filePath("ids.sqlite");
        QString error;
        qint64 third = 0;
        {
            auto lib = openLib(path, error);
            QVERIFY2(lib, qPrintable(error));
            lib->createScenario("one", "", "{}", "", {});
            lib->createScenario("two", "", "{}", "", {});
            third = lib->createScenario("three", "", "{}", "", {}).value.value();
            QVERIFY(lib->deleteScenario(third));
            QCOMPARE(lib->createScenario("four", "", "{}", "", {}).value.value(), third + 1);
            QVERIFY(lib->deleteScenario(third + 1));
        }
        auto lib = openLib(path, error);
        QVERIFY2(lib, qPrintable(error));
        QCOMPARE(lib->createScenario("five", "", "{}", "", {}).value.value(), third + 2);
        QVERIFY(pragma(path, "SELECT sql FROM sqlite_master WHERE name = 'scenarios'")
                    .toString()
                    .contains("AUTOINCREMENT"));
    }

    // Issue 34: a SQLite file of another program — whatever its user_version — is refused
    // before anything is written to it, its journal mode included.
    void foreignSqliteFilesAreRefusedUntouched_data()
    {
        QTest::addColumn<int>("userVersion");
        QTest::addColumn<int>("applicationId");
        QTest::addColumn<QString>("journal");
        for (int v = 0; v <= 5; ++v)
            QTest::newRow(qPrintable(QString("user_version %1").arg(v))) << v << 0 << "delete";
        QTest::newRow("user_version 2, wal") << 2 << 0 << "wal";
        QTest::newRow("another application id") << 3 << 0x12345678 << "delete";
    }
    void foreignSqliteFilesAreRefusedUntouched()
    {
        QFETCH(int, userVersion);
        QFETCH(int, applicationId);
        QFETCH(QString, journal);
        const QString path =
            mTmp.filePath(QString("foreign-%1-%2-%3.sqlite").arg(userVersion).arg(applicationId).arg(journal));
        QFile::remove(path);
        {
            QSqlDatabase db = QSqlDatabase::addDatabase("QSQLITE", "make");
            db.setDatabaseName(path);
            QVERIFY(db.open());
            QSqlQuery q(db);
            QVERIFY(q.exec("PRAGMA journal_mode = " + journal));
            QVERIFY(q.exec("CREATE TABLE orders (id INTEGER PRIMARY KEY, customer TEXT)"));
            QVERIFY(q.exec("INSERT INTO orders (customer) VALUES ('ACME')"));
            QVERIFY(q.exec(QString("PRAGMA user_version = %1").arg(userVersion)));
            QVERIFY(q.exec(QString("PRAGMA application_id = %1").arg(applicationId)));
            q.finish();
            db.close();
        }
        QSqlDatabase::removeDatabase("make");
        const QByteArray before = fileHash(path);
        QString error;
        QVERIFY(!openLib(path, error));
        QVERIFY2(error.startsWith(path + ": not a gpuplan library: "), qPrintable(error));
        QVERIFY2(error.contains("gpuplan left it as it was"), qPrintable(error));
        QCOMPARE(fileHash(path), before);
        QCOMPARE(pragma(path, "PRAGMA journal_mode").toString(), journal);
        QCOMPARE(pragma(path, "SELECT count(*) FROM sqlite_master WHERE name = 'drafts'").toInt(), 0);
    }

    // A file with gpuplan's application id but not the tables its version has is not taken
    // for a library either.
    void applicationIdWithoutTheTablesIsRefused()
    {
        const QString path = mTmp.filePath("appid-only.sqlite");
        pragma(path, "CREATE TABLE orders (id INTEGER)");
        pragma(path, "PRAGMA user_version = 2");
        pragma(path, QString("PRAGMA application_id = %1").arg(ScenarioLibrary::kApplicationId));
        const QByteArray before = fileHash(path);
        QString error;
        QVERIFY(!openLib(path, error));
        QVERIFY2(error.contains("not a gpuplan library: schema 2 has the tables"), qPrintable(error));
        QCOMPARE(fileHash(path), before);
    }

    // Issue 34: $USER is recorded as the author only when it is a name.
    void authorFromTheEnvironmentIsValidated_data()
    {
        QTest::addColumn<QByteArray>("user");
        QTest::addColumn<bool>("kept");
        QTest::newRow("plain") << QByteArray("alice") << true;
        QTest::newRow("unicode") << QByteArray("zoë.müller") << true;
        QTest::newRow("escape") << QByteArray("bob\x1b[2J\x1b[31mroot") << false;
        QTest::newRow("newline") << QByteArray("bob\nsaved revision 9") << false;
        QTest::newRow("bidi override") << QByteArray("bob\u202egnp.exe") << false;
        QTest::newRow("too long") << QByteArray(129, 'a') << false;
        QTest::newRow("blank") << QByteArray("   ") << false;
    }
    void authorFromTheEnvironmentIsValidated()
    {
        QFETCH(QByteArray, user);
        QFETCH(bool, kept);
        const QByteArray oldUser = qgetenv("USER"), oldLogname = qgetenv("LOGNAME");
        qputenv("USER", user);
        qputenv("LOGNAME", user);
        QString error;
        auto lib = openLib(mTmp.filePath("author.sqlite"), error);
        qputenv("USER", oldUser);
        qputenv("LOGNAME", oldLogname);
        QVERIFY2(lib, qPrintable(error));
        const QString author = lib->author();
        if (kept)
            QCOMPARE(author, QString::fromUtf8(user));
        else
            QVERIFY2(author != QString::fromUtf8(user) && !author.isEmpty(), qPrintable(author));
        QVERIFY(author.size() <= limits::kMaxAuthorChars);
        for (const QChar c : author)
            QVERIFY(c.category() != QChar::Other_Control && c.category() != QChar::Other_Format);
        const qint64 id = lib->createScenario("by", "", "{}", "", {}).value.value();
        QCOMPARE(lib->revisions(id).value.value().front().author, author);
    }

    // Issue 34: the samples go in as one transaction; a library that holds a scenario is never
    // seeded again, and seedIfEmpty on it adds nothing.
    void seedingIsAllOrNothing()
    {
        const QString path = mTmp.filePath("seed-once.sqlite");
        QString error;
        auto lib = openLib(path, error);
        QVERIFY2(lib, qPrintable(error));
        std::vector<store::NewScenario> two{{"a", "", "{}", "sample a", {}}, {"b", "", "{}", "sample b", {}}};
        QCOMPARE(lib->seedIfEmpty(two).value.value(), 2);
        QCOMPARE(lib->seedIfEmpty(two).value.value(), 0);
        QCOMPARE(lib->scenarioCount().value.value(), 2);
        // One sample that cannot be written (its KPI twice is impossible, so use a lock held
        // by another connection): nothing of the batch stays.
        const QString other = mTmp.filePath("seed-fail.sqlite");
        auto fresh = openLib(other, error);
        QVERIFY2(fresh, qPrintable(error));
        QSqlDatabase db = QSqlDatabase::addDatabase("QSQLITE", "seed-trigger");
        db.setDatabaseName(other);
        QVERIFY(db.open());
        QVERIFY(QSqlQuery(db).exec("CREATE TRIGGER no_c BEFORE INSERT ON scenarios WHEN NEW.name = 'c'"
                                   " BEGIN SELECT RAISE(ABORT, 'sample c refused'); END"));
        db.close();
        QSqlDatabase::removeDatabase("seed-trigger");
        std::vector<store::NewScenario> three{
            {"a", "", "{}", "", {}}, {"b", "", "{}", "", {}}, {"c", "", "{}", "", {}}};
        const auto seeded = fresh->seedIfEmpty(three);
        QVERIFY(!seeded);
        QVERIFY2(QString::fromStdString(seeded.errorText()).contains("sample c refused"), seeded.errorText().c_str());
        QCOMPARE(fresh->scenarioCount().value.value(), 0);
    }
};

QTEST_GUILESS_MAIN(TestStoreSafety)
#include "tst_storesafety.moc"
