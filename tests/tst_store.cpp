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
using test::bigLibrary;
using test::fileHash;
using test::openLib;
using test::pragma;

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
        // Saved before revisions stored the cost's parts: it keeps what it had (issue 36).
        QCOMPARE(document::storedWaste(all[0].latest.kpis), document::StoredWaste::None);
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
            for (const auto& s : all) {
                big |= s.latest.kpis.at("gpus") == 2000.0;
                // New revisions store the one cost decomposition (issue 36): four parts that add
                // up to the cost, the waste three of them, under the current definition.
                const auto& k = s.latest.kpis;
                QCOMPARE(k.at("cost_definition"), double(document::kCostDefinition));
                QCOMPARE(document::storedWaste(k), document::StoredWaste::Current);
                const double parts = k.at("cost_useful_usd") + k.at("cost_idle_usd") + k.at("cost_overhead_usd") +
                                     k.at("cost_stranded_usd");
                QVERIFY(qAbs(parts - k.at("cost_per_month_usd")) < 0.01);
                QVERIFY(qAbs(k.at("waste_per_month_usd") - parts + k.at("cost_useful_usd")) < 0.01);
                QVERIFY(k.at("waste_per_month_usd") <= k.at("cost_per_month_usd"));
                QVERIFY(k.at("unused_memory_bytes") > 0);
            }
            QVERIFY(big);
            // A revision another tool saved with a waste figure but no definition is the old one.
            QCOMPARE(document::storedWaste({{"waste_per_month_usd", 93145.0}}), document::StoredWaste::OldDefinition);
            // One saved under definition 2 counted a slice's smaller size as sharing overhead.
            QCOMPARE(document::storedWaste({{"waste_per_month_usd", 93145.0}, {"cost_definition", 2.0}}),
                     document::StoredWaste::SliceAsPenalty);
        }
        auto again = document::openLibrary(path, test::bundledCatalog(), samples);
        QCOMPARE((*again)->scenarioCount().value.value(), test::sampleFiles().size());
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
