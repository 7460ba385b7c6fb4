// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
// The SQLite scenario library under faults (docs/reliability.md §2): another program's SQLite
// database given as the library, eight programs creating one library at once, kill -9 while
// the samples are seeded, while a scenario is imported and while an old library is migrated,
// and a full disk. Each is run through gpuplan-cli as a user would.
#include "clirunner.h"
#include "faultsupport.h"

#include "io/scenarioreader.h"
#include "io/scenariowriter.h"
#include "store/scenariolibrary.h"

#include <QDirIterator>
#include <QElapsedTimer>
#include <QProcess>
#include <QSqlDatabase>
#include <QSqlQuery>
#include <QTest>
#include <QThread>

#include <memory>
#include <set>

using namespace gp;
using namespace gp::test;

namespace {

QProcessEnvironment envWithHome(const QString& home)
{
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert("HOME", home);
    env.insert("XDG_DATA_HOME", home + "/data");
    return env;
}

/// gpuplan-cli started (not waited for) with `args` in `home`.
std::unique_ptr<QProcess> start(const QStringList& args, const QString& home)
{
    auto p = std::make_unique<QProcess>();
    p->setProcessEnvironment(envWithHome(home));
    p->start(qEnvironmentVariable("GPUPLAN_CLI"), args);
    p->waitForStarted(10000);
    return p;
}

/// Runs `sql` on its own connection to `path` and returns every row's first value.
QStringList query(const QString& path, const QString& sql)
{
    QStringList out;
    {
        QSqlDatabase db = QSqlDatabase::addDatabase("QSQLITE", "fault-probe");
        db.setDatabaseName(path);
        if (db.open()) {
            QSqlQuery q(db);
            if (q.exec(sql))
                while (q.next())
                    out << q.value(0).toString();
        }
    }
    QSqlDatabase::removeDatabase("fault-probe");
    return out;
}

/// Another program's SQLite database: a table of its own and the given user_version.
bool makeForeign(const QString& path, int userVersion)
{
    bool ok = true;
    {
        QSqlDatabase db = QSqlDatabase::addDatabase("QSQLITE", "fault-make");
        db.setDatabaseName(path);
        ok = db.open();
        QSqlQuery q(db);
        ok = ok && q.exec("CREATE TABLE invoices (id INTEGER PRIMARY KEY, customer TEXT, total REAL)") &&
             q.exec("INSERT INTO invoices (customer, total) VALUES ('ACME', 1200.5), ('Initech', 88)") &&
             q.exec(QString("PRAGMA user_version = %1").arg(userVersion));
    }
    QSqlDatabase::removeDatabase("fault-make");
    return ok;
}

/// The library file the CLI uses by default in `home` (found after a first run).
QString defaultLibraryIn(const QString& home)
{
    QDirIterator it(home, {"library.sqlite"}, QDir::Files, QDirIterator::Subdirectories);
    return it.hasNext() ? it.next() : QString();
}

} // namespace

class TestFaultLibrary : public QObject
{
    Q_OBJECT

    QTemporaryDir mTmp;

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(mTmp.isValid());
        QVERIFY2(QFileInfo::exists(qEnvironmentVariable("GPUPLAN_CLI")), "GPUPLAN_CLI is not set");
    }

    // Issue 34 item 3: another program's SQLite file, whatever its user_version, is refused
    // by every library command before anything is written: same bytes, no journal left.
    void foreignDatabaseIsRefusedByEveryCommand_data()
    {
        QTest::addColumn<int>("userVersion");
        QTest::addColumn<QStringList>("args");
        const QString sample = sampleFiles().front();
        for (int v = 0; v <= 4; ++v) {
            for (const QStringList& args :
                 {QStringList{"library", "list"}, QStringList{"library", "import", sample},
                  QStringList{"library", "export", "1", "-o", "@OUT"}, QStringList{"library", "delete", "1"},
                  QStringList{"library", "check"}, QStringList{"compare", "lib:1", "lib:1"},
                  QStringList{"report", "--scenario", "1", "-o", "@OUT"}})
                QTest::newRow(qPrintable(QString("user_version %1, %2 %3").arg(v).arg(args[0], args[1]))) << v << args;
        }
    }
    void foreignDatabaseIsRefusedByEveryCommand()
    {
        QFETCH(int, userVersion);
        QFETCH(QStringList, args);
        QTemporaryDir dir;
        const QString db = dir.filePath("invoices.db");
        QVERIFY(makeForeign(db, userVersion));
        const QStringList before = listing(dir.path());
        const QByteArray bytes = readAll(db);
        for (QString& a : args)
            a.replace("@OUT", dir.filePath("exported.out"));
        const Run r = cli(args + QStringList{"--db", db}, mTmp.path());
        QCOMPARE(r.code, 1);
        QVERIFY2(r.err.contains(db + ": not a gpuplan library: the file is another program's SQLite database") ||
                     r.err.contains(db + ": not a gpuplan library: the database has tables but no gpuplan"),
                 qPrintable(r.err));
        QVERIFY2(r.err.contains("gpuplan left it as it was"), qPrintable(r.err));
        QCOMPARE(readAll(db), bytes);
        QCOMPARE(listing(dir.path()), before); // no -wal, -shm or export left behind
        QCOMPARE(query(db, "PRAGMA journal_mode"), QStringList{"delete"});
        QCOMPARE(query(db, "SELECT customer FROM invoices ORDER BY id"), QStringList({"ACME", "Initech"}));
    }

    // The same through the API the workbench uses.
    void foreignDatabaseIsRefusedByTheApi()
    {
        for (int v = 0; v <= 4; ++v) {
            const QString db = mTmp.filePath(QString("api-foreign-%1.db").arg(v));
            QVERIFY(makeForeign(db, v));
            const QByteArray bytes = readAll(db);
            const auto opened = store::ScenarioLibrary::open(db);
            QVERIFY(!opened);
            QVERIFY2(QString::fromStdString(opened.errorText()).startsWith(db + ": not a gpuplan library"),
                     opened.errorText().c_str());
            QCOMPARE(readAll(db), bytes);
            QVERIFY(!QFileInfo::exists(db + "-wal"));
        }
    }

    // Issue 34 item 7: eight programs opening one new library at the same moment all succeed,
    // ten times over, and the library has its schema once.
    void concurrentFirstOpensAllSucceed()
    {
        const int processes = 8, rounds = 10;
        int failures = 0;
        QStringList messages;
        for (int round = 0; round < rounds; ++round) {
            const QString db = mTmp.filePath(QString("concurrent-%1.sqlite").arg(round));
            std::vector<std::unique_ptr<QProcess>> running;
            for (int i = 0; i < processes; ++i)
                running.push_back(start({"library", "list", "--db", db}, mTmp.path()));
            for (auto& p : running) {
                QVERIFY(p->waitForFinished(120000));
                if (p->exitStatus() != QProcess::NormalExit || p->exitCode() != 0) {
                    ++failures;
                    messages << QString::fromUtf8(p->readAllStandardError()).trimmed();
                }
            }
            QCOMPARE(query(db, "PRAGMA user_version"),
                     QStringList{QString::number(store::ScenarioLibrary::kSchemaVersion)});
            QCOMPARE(query(db, "PRAGMA integrity_check"), QStringList{"ok"});
        }
        QVERIFY2(failures == 0, qPrintable(QString("%1 of %2 opens failed: %3")
                                               .arg(failures)
                                               .arg(processes * rounds)
                                               .arg(messages.mid(0, 3).join(" | "))));
    }

    // Issue 34 item 4: gpuplan-cli killed (kill -9) at any moment of its first start, while it
    // seeds the library with the bundled samples: the next start has every sample exactly once.
    void killDuringSeedingLeavesEverySampleOnce()
    {
        const int samples = static_cast<int>(sampleFiles().size());
        // How long a whole first start takes here: the kills are spread over it.
        qint64 whole = 0;
        {
            QTemporaryDir home;
            QElapsedTimer t;
            t.start();
            const Run r = cli({"library", "list"}, home.path());
            whole = t.elapsed();
            QCOMPARE(r.code, 0);
            QCOMPARE(query(defaultLibraryIn(home.path()), "SELECT count(*) FROM scenarios"),
                     QStringList{QString::number(samples)});
        }
        const int kills = 24;
        int partialBefore = 0;                   // kills that left some but not all samples before the next start
        int none = 0, empty = 0, wholeAfter = 0; // kills before the file, before the samples, after
        for (int k = 0; k < kills; ++k) {
            QTemporaryDir home;
            auto p = start({"library", "list"}, home.path());
            if (k % 2 == 0) { // at a moment of the whole start (a little past it too)
                QThread::msleep(static_cast<unsigned long>(whole * 3 / 2 * (k + 1) / (kills + 1)));
            } else { // or after the library file appeared, when the seeding begins
                QElapsedTimer waited;
                waited.start();
                while (defaultLibraryIn(home.path()).isEmpty() && p->state() == QProcess::Running &&
                       waited.elapsed() < 5 * whole)
                    QThread::usleep(500);
                QThread::msleep(static_cast<unsigned long>(whole / 2 * k / kills));
            }
            p->kill();
            p->waitForFinished(10000);
            const QString db = defaultLibraryIn(home.path());
            if (!db.isEmpty()) {
                const int n = query(db, "SELECT count(*) FROM scenarios").value(0).toInt();
                partialBefore += n > 0 && n < samples;
                empty += n == 0;
                wholeAfter += n == samples;
            } else {
                ++none;
            }
            const Run again = cli({"library", "list", "--json"}, home.path());
            QVERIFY2(again.code == 0, qPrintable(again.err));
            const QString lib = defaultLibraryIn(home.path());
            const QStringList names = query(lib, "SELECT name FROM scenarios ORDER BY name");
            QCOMPARE(names.size(), samples);
            QCOMPARE(static_cast<int>(std::set<QString>(names.begin(), names.end()).size()), samples);
            QCOMPARE(query(lib, "SELECT count(*) FROM revisions"), QStringList{QString::number(samples)});
            QCOMPARE(query(lib, "PRAGMA integrity_check"), QStringList{"ok"});
        }
        qInfo("%d kills in %lld ms: %d before the library existed, %d before the samples were in, %d after, %d "
              "halfway",
              kills, static_cast<long long>(whole), none, empty, wholeAfter, partialBefore);
        QCOMPARE(partialBefore, 0);
        QVERIFY2(empty > 0, "no kill landed between the library's creation and its samples: the test proved nothing");
    }

    // kill -9 during `library import` (a save) and during the migration of an old library: the
    // library stays sound, and every revision committed before stays as it was.
    void killDuringImportKeepsEveryCommittedRevision()
    {
        const QString db = mTmp.filePath("imports.sqlite");
        const QStringList files = sampleFiles();
        QCOMPARE(cli({"library", "import", files[0], "--db", db, "--note", "base"}, mTmp.path()).code, 0);
        QElapsedTimer t;
        t.start();
        QCOMPARE(cli({"library", "import", files[1], "--db", db, "--note", "timed"}, mTmp.path()).code, 0);
        const qint64 whole = t.elapsed();
        // What each sample's revision holds once imported (the library keeps gpuplan's JSON).
        std::map<QString, QByteArray> expected;
        for (const QString& f : files) {
            const auto read = io::readScenarioFile(f, bundledCatalog());
            QVERIFY(read.ok());
            expected[QString::fromStdString(read.value->name)] = io::writeScenario(*read.value);
        }
        int completed = 2;
        const int kills = 20;
        for (int k = 0; k < kills; ++k) {
            auto p =
                start({"library", "import", files[k % files.size()], "--db", db, "--note", QString("kill %1").arg(k)},
                      mTmp.path());
            QThread::msleep(static_cast<unsigned long>(whole * (k + 1) / (kills + 1)));
            p->kill();
            p->waitForFinished(10000);
            completed += p->exitStatus() == QProcess::NormalExit && p->exitCode() == 0;
        }
        qInfo("%d imports killed at moments spread over %lld ms; %d finished before their kill", kills,
              static_cast<long long>(whole), completed - 2);
        const Run check = cli({"library", "check", "--db", db}, mTmp.path());
        QVERIFY2(check.code == 0, qPrintable(check.err));
        auto lib = store::ScenarioLibrary::open(db);
        QVERIFY2(lib, lib.errorText().c_str());
        QCOMPARE((*lib)->integrityCheck().value.value(), QString("ok"));
        const auto all = (*lib)->list().value.value();
        QVERIFY(static_cast<int>(all.size()) >= completed);
        QCOMPARE(all.front().latest.note, QString("base"));
        for (const auto& s : all) {
            QCOMPARE(s.revisionCount, 1); // a scenario is never left without its revision
            // nor a revision without its KPIs: the inventory's 7 and, since issue 36, the cost
            // decomposition's 7 (cost_definition, the waste, its four parts, unused memory)
            QCOMPARE(s.latest.kpis.size(), std::size_t(14));
            QCOMPARE((*lib)->document(s.id).value.value(), expected.at(s.name));
        }
    }

    void killDuringMigrationKeepsTheOldLibrary()
    {
        const QString fixture = QDir(fixturesDir()).absoluteFilePath("library-v1.sqlite");
        QElapsedTimer t;
        t.start();
        {
            const QString db = mTmp.filePath("migrate-timed.sqlite");
            QVERIFY(QFile::copy(fixture, db));
            QFile::setPermissions(db, QFile::ReadOwner | QFile::WriteOwner);
            QCOMPARE(cli({"library", "list", "--db", db}, mTmp.path()).code, 0);
        }
        const qint64 whole = t.elapsed();
        const int kills = 12;
        for (int k = 0; k < kills; ++k) {
            const QString db = mTmp.filePath(QString("migrate-%1.sqlite").arg(k));
            QVERIFY(QFile::copy(fixture, db));
            QFile::setPermissions(db, QFile::ReadOwner | QFile::WriteOwner);
            auto p = start({"library", "list", "--db", db}, mTmp.path());
            QThread::msleep(static_cast<unsigned long>(whole * (k + 1) / (kills + 1)));
            p->kill();
            p->waitForFinished(10000);
            const Run r = cli({"library", "list", "--db", db}, mTmp.path());
            QVERIFY2(r.code == 0, qPrintable(r.err));
            QVERIFY2(r.out.contains("Mixed sharing lab (v1 library)"), qPrintable(r.out));
            QCOMPARE(query(db, "SELECT note FROM revisions ORDER BY number"),
                     QStringList({"first draft", "after review"}));
            QCOMPARE(query(db, "PRAGMA user_version"),
                     QStringList{QString::number(store::ScenarioLibrary::kSchemaVersion)});
        }
    }

    // Issue 34 item 9: a full disk is reported as a full disk, when the library is created and
    // when a save does not fit, and the library is as it was once there is room again.
    void fullDiskSaysSo()
    {
        SmallDisk disk(1024 * 1024);
        if (!disk.ok())
            QSKIP(qPrintable(disk.why()));
        const QString sample = sampleFiles().front();
        const QString existing = disk.filePath("existing.sqlite");
        QCOMPARE(cli({"library", "import", sample, "--db", existing, "--note", "before"}, mTmp.path()).code, 0);
        // A library that is open (the workbench's) when the disk fills: the save says so and
        // keeps nothing; once there is room the next save works.
        auto open = store::ScenarioLibrary::open(disk.filePath("open.sqlite"));
        QVERIFY2(open, open.errorText().c_str());
        const qint64 id = (*open)->createScenario("plan", "", "{}", "first", {{"gpus", 8}}).value.value();
        QVERIFY(disk.fill());
        const QByteArray big(256 * 1024, 'x'); // more than the write-ahead log has room for
        const auto full = (*open)->addRevision(id, "{\"pad\": \"" + big + "\"}", "full", {{"gpus", 9}}, 1);
        QVERIFY(!full);
        QVERIFY2(QString::fromStdString(full.errorText()).contains("no space left on device"),
                 full.errorText().c_str());
        QCOMPARE((*open)->revisions(id).value.value().size(), std::size_t(1));
        qInfo("save on a full disk: %s", full.errorText().c_str());
        const QByteArray bytes = readAll(existing);

        const QString fresh = disk.filePath("new.sqlite");
        const Run created = cli({"library", "import", sample, "--db", fresh}, mTmp.path());
        QCOMPARE(created.code, 1);
        QVERIFY2(created.err.contains("no space left on device"), qPrintable(created.err));
        QVERIFY2(!created.err.contains("not a gpuplan library"), qPrintable(created.err));
        qInfo("new library on a full disk: %s", qPrintable(created.err.trimmed()));
        const auto api = store::ScenarioLibrary::open(disk.filePath("api.sqlite"));
        QVERIFY(!api);
        QVERIFY2(QString::fromStdString(api.errorText()).contains("no space left on device"), api.errorText().c_str());

        const Run saved = cli({"library", "import", sample, "--db", existing, "--note", "full"}, mTmp.path());
        QCOMPARE(saved.code, 1);
        QVERIFY2(saved.err.contains("no space left on device"), qPrintable(saved.err));
        QVERIFY2(!saved.err.contains("not a gpuplan library"), qPrintable(saved.err));
        qInfo("closed library on a full disk: %s", qPrintable(saved.err.trimmed()));

        disk.unfill();
        QCOMPARE((*open)->addRevision(id, "{}", "room again", {{"gpus", 9}}, 1).value.value(), 2);
        open.value.reset(); // closed before the CLI checks the other library
        const Run after = cli({"library", "list", "--db", existing, "--json"}, mTmp.path());
        QVERIFY2(after.code == 0, qPrintable(after.err));
        QCOMPARE(query(existing, "SELECT note FROM revisions"), QStringList{"before"});
        QCOMPARE(query(existing, "PRAGMA integrity_check"), QStringList{"ok"});
        Q_UNUSED(bytes);
    }
};

QTEST_GUILESS_MAIN(TestFaultLibrary)
#include "tst_fault_library.moc"
