// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
// The SQLite scenario library: schema and migrations (from an empty file and from the
// version-1 fixture), revisions, CRUD, refusal of damaged and newer files without
// touching them, and seeding with the samples on first start.
#include "document/librarygateway.h"
#include "io/scenarioreader.h"
#include "io/scenariowriter.h"
#include "model/limits.h"
#include "store/scenariolibrary.h"
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

namespace {

QByteArray fileHash(const QString& path)
{
    QFile f(path);
    f.open(QIODevice::ReadOnly);
    return QCryptographicHash::hash(f.readAll(), QCryptographicHash::Sha256);
}

/// Runs one pragma on a separate connection and returns its first value.
QVariant pragma(const QString& path, const QString& sql)
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
std::unique_ptr<ScenarioLibrary> openLib(const QString& path, QString& error)
{
    auto opened = ScenarioLibrary::open(path);
    error = QString::fromStdString(opened.errorText());
    return opened ? std::move(*opened) : nullptr;
}

/// A real library with enough revisions to span many pages.
QString bigLibrary(const QString& path)
{
    QString error;
    auto lib = openLib(path, error);
    const auto id = lib->createScenario("big", "", QByteArray(5000, 'x'), "", {{"gpus", 1}});
    for (int i = 0; i < 40; ++i)
        lib->addRevision(*id, QByteArray(5000 + i * 100, char('a' + i % 26)), QString::number(i), {{"gpus", i}});
    return path; // closing checkpoints the write-ahead log into the file
}

} // namespace

class TestStore : public QObject
{
    Q_OBJECT

    QTemporaryDir mTmp;

private Q_SLOTS:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QVERIFY(mTmp.isValid());
    }

    void createsSchemaOnAnEmptyFile()
    {
        const QString path = mTmp.filePath("new.sqlite");
        QString error;
        {
            auto lib = openLib(path, error);
            QVERIFY2(lib, qPrintable(error));
            QCOMPARE(lib->scenarioCount().value.value(), 0);
        }
        QCOMPARE(pragma(path, "PRAGMA user_version").toInt(), ScenarioLibrary::kSchemaVersion);
        QCOMPARE(pragma(path, "PRAGMA application_id").toInt(), ScenarioLibrary::kApplicationId);
        QCOMPARE(pragma(path, "PRAGMA journal_mode").toString(), QString("wal"));
        QCOMPARE(pragma(path, "SELECT count(*) FROM sqlite_master WHERE name = 'revision_kpis'").toInt(), 1);
    }

    void crudAndRevisions()
    {
        QString error;
        auto lib = openLib(mTmp.filePath("crud.sqlite"), error);
        QVERIFY2(lib, qPrintable(error));
        const QByteArray doc1 = "{\"format_version\": 1, \"name\": \"a\"}\n";
        const QByteArray doc2 = "{\"format_version\": 1, \"name\": \"a, revised\"}\n";
        auto id =
            lib->createScenario("Plan A", "first try", doc1, "initial", {{"gpus", 64}, {"cost_per_month_usd", 1e5}});
        QVERIFY2(id, id.errorText().c_str());
        QCOMPARE(lib->addRevision(*id, doc2, "after review", {{"gpus", 72}}).value.value(), 2);
        QCOMPARE(lib->document(*id).value.value(), doc2);
        QCOMPARE(lib->document(*id, 1).value.value(), doc1);
        const auto third = lib->document(*id, 3);
        QVERIFY(!third);
        QVERIFY(third.errorText().find("has no revision 3") != std::string::npos);

        auto revs = lib->revisions(*id).value.value();
        QCOMPARE(revs.size(), std::size_t(2));
        QCOMPARE(revs[0].note, QString("initial"));
        QCOMPARE(revs[0].kpis.at("cost_per_month_usd"), 1e5);
        QCOMPARE(revs[1].note, QString("after review"));
        QCOMPARE(revs[1].kpis.at("gpus"), 72.0);
        QVERIFY(revs[1].createdAt.isValid());

        QVERIFY(lib->rename(*id, "Plan A (final)"));
        QVERIFY(lib->setTags(*id, {"mig", "q3"}));
        auto s = lib->scenario(*id).value.value();
        QCOMPARE(s.name, QString("Plan A (final)"));
        QCOMPARE(s.tags, (QStringList{"mig", "q3"}));
        QCOMPARE(s.revisionCount, 2);
        QCOMPARE(s.latest.number, 2);
        QVERIFY(!lib->rename(*id, "  "));
        const Status escape = lib->rename(*id, "Plan \x1b[31mB");
        QVERIFY(!escape);
        QVERIFY2(escape.errorText().find("control character U+001B") != std::string::npos, escape.errorText().c_str());
        QVERIFY(!lib->rename(*id, QString(int(gp::limits::kMaxNameChars) + 1, 'x')));
        QCOMPARE(lib->scenario(*id).value->name, QString("Plan A (final)"));
        QVERIFY(!lib->setTags(*id, {"a,b"}));

        QVERIFY(lib->deleteScenario(*id));
        QCOMPARE(lib->scenarioCount().value.value(), 0);
        const Status again = lib->deleteScenario(*id);
        QVERIFY(!again);
        QCOMPARE(again.errorText(), "scenario " + std::to_string(*id) + ": no such scenario in the library");
        QVERIFY(!lib->addRevision(*id, doc1, "", {}));
    }

    /// A name another program wrote into the library that breaks the rules of a name (a control
    /// character) is not used when the scenario is opened: it keeps its document's name, with a
    /// warning.
    void aForeignNameInTheLibraryIsNotUsed()
    {
        const QString path = mTmp.filePath("foreign-name.sqlite");
        QString error;
        qint64 id = 0;
        {
            auto lib = openLib(path, error);
            QVERIFY2(lib, qPrintable(error));
            const auto s = io::readScenarioFile(test::sampleFiles().at(1), test::bundledCatalog());
            QVERIFY(s.ok());
            auto created = lib->createScenario("Lab", "", io::writeScenario(*s.value), "", {});
            QVERIFY(created);
            id = *created;
        }
        pragma(path, QString("UPDATE scenarios SET name = 'Lab' || char(27) || '[2J' WHERE id = %1").arg(id));
        auto lib = openLib(path, error);
        QVERIFY2(lib, qPrintable(error));
        const io::ScenarioReadResult read = document::loadFromLibrary(*lib, id, test::bundledCatalog());
        QVERIFY(read.ok());
        QCOMPARE(read.value->name, std::string("Mixed sharing lab"));
        QVERIFY2(read.errorText().find("the library's name for scenario") != std::string::npos,
                 read.errorText().c_str());
    }

    void deleteCascadesToRevisionsAndKpis()
    {
        const QString path = mTmp.filePath("cascade.sqlite");
        {
            QString error;
            auto lib = openLib(path, error);
            auto id = lib->createScenario("x", "", "{}", "", {{"gpus", 1}});
            lib->addRevision(*id, "{}", "", {{"gpus", 2}});
            QVERIFY(lib->deleteScenario(*id));
        }
        QCOMPARE(pragma(path, "SELECT count(*) FROM revisions").toInt(), 0);
        QCOMPARE(pragma(path, "SELECT count(*) FROM revision_kpis").toInt(), 0);
    }

    void quotesAndSqlAreStoredVerbatim()
    {
        QString error;
        auto lib = openLib(mTmp.filePath("quotes.sqlite"), error);
        const QString name = "Robert'); DROP TABLE scenarios;-- \"quoted\"";
        const QString note = "note with ' and \" and '); DELETE FROM revisions; --";
        auto id = lib->createScenario(name, "it's", "{\"a\": \"'\"}", note, {{"k'); DROP TABLE revision_kpis;--", 1}});
        QVERIFY(id);
        QCOMPARE(lib->scenario(*id)->name, name);
        QCOMPARE(lib->revisions(*id)->front().note, note);
        QCOMPARE(lib->addRevision(*id, "{}", "x' OR '1'='1", {}).value.value(), 2);
        QCOMPARE(lib->revisions(*id)->back().note, QString("x' OR '1'='1"));
        QVERIFY(lib->rename(*id, "a'; UPDATE scenarios SET name='pwned"));
        QCOMPARE(lib->scenario(*id)->name, QString("a'; UPDATE scenarios SET name='pwned"));
        QVERIFY(lib->setTags(*id, {"it's", "\"x\"; DROP TABLE drafts"}));
        QCOMPARE(lib->scenario(*id)->tags, QStringList({"it's", "\"x\"; DROP TABLE drafts"}));
        QVERIFY(lib->saveDraft({"s'; DELETE FROM drafts;--", id.value, 1, "d'\"", "{}", {}}));
        QCOMPARE(lib->drafts().value.value().front().session, QString("s'; DELETE FROM drafts;--"));
        QCOMPARE(lib->scenarioCount().value.value(), 1);
        QCOMPARE(lib->revisions(*id)->size(), std::size_t(2));
        QCOMPARE(lib->integrityCheck().value.value(), QString("ok"));
    }

    void migratesTheVersion1Fixture()
    {
        const QString path = mTmp.filePath("v1.sqlite");
        QVERIFY(QFile::copy(QDir(test::fixturesDir()).absoluteFilePath("library-v1.sqlite"), path));
        QFile::setPermissions(path, QFile::ReadOwner | QFile::WriteOwner);
        QCOMPARE(pragma(path, "PRAGMA user_version").toInt(), 1);
        QString error;
        auto lib = openLib(path, error);
        QVERIFY2(lib, qPrintable(error));
        QCOMPARE(pragma(path, "PRAGMA user_version").toInt(), ScenarioLibrary::kSchemaVersion);
        auto all = lib->list().value.value();
        QCOMPARE(all.size(), std::size_t(1));
        QCOMPARE(all[0].name, QString("Mixed sharing lab (v1 library)"));
        QCOMPARE(all[0].revisionCount, 2);
        QCOMPARE(all[0].latest.note, QString("after review"));
        QVERIFY(all[0].latest.kpis.empty()); // v1 had no KPIs
        QVERIFY(all[0].tags.isEmpty());
        // The old documents still load, named as the library names them (the JSON says "Mixed
        // sharing lab, reviewed"), and new revisions go on top.
        const auto r = document::loadFromLibrary(*lib, all[0].id, test::bundledCatalog());
        QVERIFY(r.ok());
        QCOMPARE(r.value->name, std::string("Mixed sharing lab (v1 library)"));
        QCOMPARE(lib->addRevision(all[0].id, io::writeScenario(*r.value), "v2", {{"gpus", 32}}).value.value(), 3);
    }

    void newerLibraryIsRefusedUntouched()
    {
        const QString path = mTmp.filePath("future.sqlite");
        {
            QString error;
            auto lib = openLib(path, error);
        }
        pragma(path, "PRAGMA user_version = 99");
        const QByteArray before = fileHash(path);
        QString error;
        QVERIFY(!openLib(path, error));
        QVERIFY2(
            error.contains(QString("library schema 99 is newer than this gpuplan reads (%1): it needs a newer gpuplan")
                               .arg(ScenarioLibrary::kSchemaVersion)),
            qPrintable(error));
        QCOMPARE(fileHash(path), before);
    }

    void damagedFilesAreRefusedUntouched_data()
    {
        QTest::addColumn<QByteArray>("content");
        QTest::addColumn<QString>("expected");
        QTest::newRow("text") << QByteArray("this is not a database at all, just some text\n").repeated(100)
                              << "not a gpuplan library";
        QByteArray header("SQLite format 3");
        header.append('\0');
        QTest::newRow("truncated") << header + QByteArray(50, '\x01') << "not a gpuplan library";
    }
    void damagedFilesAreRefusedUntouched()
    {
        QFETCH(QByteArray, content);
        QFETCH(QString, expected);
        const QString path = mTmp.filePath("damaged.sqlite");
        QFile::remove(path);
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(content);
        f.close();
        QString error;
        QVERIFY(!openLib(path, error));
        QVERIFY2(error.contains(expected), qPrintable(error));
        QCOMPARE(fileHash(path), QCryptographicHash::hash(content, QCryptographicHash::Sha256));
    }

    void foreignDatabaseIsRefused()
    {
        const QString path = mTmp.filePath("foreign.sqlite");
        pragma(path, "CREATE TABLE customers (id INTEGER)");
        QString error;
        QVERIFY(!openLib(path, error));
        QVERIFY2(error.contains("has tables but no gpuplan schema version"), qPrintable(error));
    }

    void migratesTheVersion2Fixture()
    {
        const QString path = mTmp.filePath("v2.sqlite");
        QVERIFY(QFile::copy(QDir(test::fixturesDir()).absoluteFilePath("library-v2.sqlite"), path));
        QFile::setPermissions(path, QFile::ReadOwner | QFile::WriteOwner);
        QCOMPARE(pragma(path, "PRAGMA user_version").toInt(), 2);
        QString error;
        auto lib = openLib(path, error);
        QVERIFY2(lib, qPrintable(error));
        QCOMPARE(pragma(path, "PRAGMA user_version").toInt(), ScenarioLibrary::kSchemaVersion);
        const auto all = lib->list().value.value();
        QCOMPARE(all.size(), std::size_t(1));
        QCOMPARE(all[0].name, QString("Mixed sharing lab"));
        QCOMPARE(all[0].tags, QStringList({"lab", "v2"}));
        QCOMPARE(all[0].latest.note, QString("first save"));
        QCOMPARE(all[0].latest.kpis.at("gpus"), 32.0);
        QVERIFY(document::loadFromLibrary(*lib, all[0].id, test::bundledCatalog()).ok());
        QVERIFY(lib->drafts().value.value().empty()); // schema 3's table is there
    }

    void draftsAreOnePerSessionAndOutliveTheirScenario()
    {
        QString error;
        auto lib = openLib(mTmp.filePath("drafts.sqlite"), error);
        const auto id = lib->createScenario("plan", "", "{}", "", {});
        store::Draft d{"session-a", id.value, 1, "plan", "{\"v\": 1}", {}};
        QVERIFY(lib->saveDraft(d));
        d.document = "{\"v\": 2}";
        QVERIFY(lib->saveDraft(d)); // replaces, never piles up
        QVERIFY(lib->saveDraft({"session-b", std::nullopt, std::nullopt, "new one", "{}", {}}));
        auto drafts = lib->drafts().value.value();
        QCOMPARE(drafts.size(), std::size_t(2));
        const auto& a = drafts[0].session == "session-a" ? drafts[0] : drafts[1];
        QCOMPARE(a.document, QByteArray("{\"v\": 2}"));
        QCOMPARE(a.baseRevision.value(), 1);
        QVERIFY(a.savedAt.isValid());
        QVERIFY(lib->deleteScenario(*id)); // the unsaved work stays, now without its origin
        drafts = lib->drafts().value.value();
        QCOMPARE(drafts.size(), std::size_t(2));
        QVERIFY(!drafts[0].scenarioId && !drafts[1].scenarioId);
        QVERIFY(lib->deleteDraft("session-a"));
        QCOMPARE(lib->drafts().value.value().size(), std::size_t(1));
    }

    void truncatedOrCorruptedLibraryIsRefusedUntouched_data()
    {
        QTest::addColumn<QString>("damage");
        QTest::newRow("truncated to 60 %") << "truncate";
        QTest::newRow("pages overwritten") << "overwrite";
    }
    void truncatedOrCorruptedLibraryIsRefusedUntouched()
    {
        QFETCH(QString, damage);
        const QString path = bigLibrary(mTmp.filePath("damaged-" + damage + ".sqlite"));
        QFile f(path);
        QVERIFY(f.open(QIODevice::ReadWrite));
        const qint64 size = f.size();
        QVERIFY(size > 100000);
        if (damage == "truncate") {
            QVERIFY(f.resize(size * 6 / 10));
        } else {
            QVERIFY(f.seek(size / 2));
            QByteArray noise(16384, '\0');
            for (int i = 0; i < noise.size(); ++i)
                noise[i] = char((i * 7919) % 251);
            f.write(noise);
        }
        f.close();
        const QByteArray before = fileHash(path);
        QString error;
        QVERIFY(!openLib(path, error));
        QVERIFY2(error.startsWith(path + ": the library is damaged"), qPrintable(error));
        QVERIFY2(error.contains("restore it from a backup"), qPrintable(error));
        QCOMPARE(fileHash(path), before);
        QVERIFY(!QFile::exists(path + "-wal") || QFileInfo(path + "-wal").size() == 0);
    }

    void readOnlyLibraryIsRefusedUntouched()
    {
        const QString path = bigLibrary(mTmp.filePath("readonly.sqlite"));
        QVERIFY(QFile::setPermissions(path, QFile::ReadOwner | QFile::ReadGroup | QFile::ReadOther));
        const QByteArray before = fileHash(path);
        QString error;
        QVERIFY(!openLib(path, error));
        QVERIFY2(error == path + ": the file is read-only; gpuplan keeps its library writable (make the file "
                                 "writable, or copy it and open the copy)",
                 qPrintable(error));
        QCOMPARE(fileHash(path), before);
    }

    void lockedLibraryFailsTheWriteWithAClearMessage()
    {
        const QString path = mTmp.filePath("locked.sqlite");
        QString error;
        auto lib = openLib(path, error);
        QVERIFY(lib->createScenario("before", "", "{}", "", {}));
        {
            // Another program holds the write lock for longer than the library waits.
            QSqlDatabase other = QSqlDatabase::addDatabase("QSQLITE", "other-program");
            other.setDatabaseName(path);
            QVERIFY(other.open());
            QSqlQuery hold(other);
            QVERIFY(hold.exec("BEGIN IMMEDIATE"));
            QElapsedTimer waited;
            waited.start();
            const auto during = lib->createScenario("during", "", "{}", "", {});
            QVERIFY(!during);
            QVERIFY(waited.elapsed() >= ScenarioLibrary::kBusyTimeoutMs - 100);
            QVERIFY2(during.errorText().find("another program is writing to the library") != std::string::npos,
                     during.errorText().c_str());
            QVERIFY(!lib->rename(1, "renamed"));
            QVERIFY(lib->list()); // reading goes on meanwhile
            QVERIFY(hold.exec("ROLLBACK"));
            other.close();
        }
        QSqlDatabase::removeDatabase("other-program");
        QCOMPARE(lib->scenarioCount().value.value(), 1); // nothing half-written
        QCOMPARE(lib->scenario(1)->name, QString("before"));
        QVERIFY(lib->createScenario("after", "", "{}", "", {}));
    }

    void everyStatementIsParameterized()
    {
        // Values reach SQL only as bound parameters: no statement text is built from strings.
        const QDir store(QDir(test::sourceDir()).absoluteFilePath("core/store"));
        int statements = 0;
        for (const QString& name : store.entryList({"*.cpp"})) {
            QFile f(store.absoluteFilePath(name));
            QVERIFY(f.open(QIODevice::ReadOnly));
            const QStringList lines = QString::fromUtf8(f.readAll()).split('\n');
            static const QRegularExpression sql("\"\\s*(SELECT|INSERT|UPDATE|DELETE)\\b");
            for (int i = 0; i < lines.size(); ++i) {
                if (!sql.match(lines[i]).hasMatch())
                    continue;
                ++statements;
                // The statement, up to its closing parenthesis or semicolon.
                QString text;
                for (int j = i; j < lines.size() && j < i + 6; ++j) {
                    text += lines[j];
                    if (lines[j].trimmed().endsWith(';') || lines[j].trimmed().endsWith(");"))
                        break;
                }
                QVERIFY2(!text.contains(".arg(") && !text.contains("\" +") && !text.contains("+ \""),
                         qPrintable(name + ":" + QString::number(i + 1) + ": SQL built from strings: " + text));
            }
        }
        QVERIFY(statements >= 15);
    }

    void seedsTheSamplesOnceOnFirstStart()
    {
        const QString path = mTmp.filePath("seeded.sqlite");
        const QString samples = QDir(test::dataDir()).absoluteFilePath("samples");
        QString error;
        {
            auto lib = document::openLibrary(path, test::bundledCatalog(), samples);
            QVERIFY2(lib, lib.errorText().c_str());
            auto all = (*lib)->list().value.value();
            QCOMPARE(all.size(), static_cast<std::size_t>(test::sampleFiles().size()));
            bool big = false;
            for (const auto& s : all)
                big |= s.latest.kpis.at("gpus") == 2000.0;
            QVERIFY(big);
        }
        auto again = document::openLibrary(path, test::bundledCatalog(), samples);
        QCOMPARE((*again)->scenarioCount().value.value(), test::sampleFiles().size());
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

    void savedDocumentRoundTrips()
    {
        QString error;
        auto lib = openLib(mTmp.filePath("roundtrip.sqlite"), error);
        const QString file = test::sampleFiles().front();
        const auto r = io::readScenarioFile(file, test::bundledCatalog());
        auto id = document::saveAsNew(*lib, *r.value, test::bundledCatalog(), "import");
        QVERIFY(id);
        QFile f(file);
        f.open(QIODevice::ReadOnly);
        QCOMPARE(lib->document(*id).value.value(), f.readAll());
        const auto back = document::loadFromLibrary(*lib, *id, test::bundledCatalog());
        QVERIFY(back.ok());
        QVERIFY(*back.value == *r.value);
    }
};

QTEST_GUILESS_MAIN(TestStore)
#include "tst_store.moc"
