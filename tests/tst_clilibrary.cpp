// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
// gpuplan-cli library save (docs/cli.md#library): a scenario file becomes the next revision of a
// library scenario through the workbench's one save path, and a save from a stale base is
// refused as the workbench refuses it, writing nothing.
#include "clirunner.h"
#include "testsupport.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

using namespace gp::test;

namespace {

/// Revisions of scenario `id` in the library `db` (-1 when it cannot be listed).
int revisionsOf(const QString& db, int id, const QString& home)
{
    const Run r = cli({"library", "list", "--db", db, "--json"}, home);
    if (r.code != 0)
        return -1;
    for (const QJsonValue& v : QJsonDocument::fromJson(r.out.toUtf8()).array())
        if (v.toObject().value("id").toInt() == id)
            return v.toObject().value("revisions").toInt();
    return -1;
}

/// The JSON of scenario `id`'s latest revision, as stored.
QByteArray latestOf(const QString& db, int id, const QString& folder, const QString& home)
{
    const QString out = folder + "/latest.json";
    QFile::remove(out);
    return cli({"library", "export", QString::number(id), "-o", out, "--db", db}, home).code == 0 ? readAll(out)
                                                                                                  : QByteArray();
}

} // namespace

class TestCliLibrary : public QObject
{
    Q_OBJECT

    QTemporaryDir mHome;
    QTemporaryDir mTmp;
    QString mDb;
    QString mEdited; ///< the first sample, renamed: a valid scenario that differs from revision 1

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(mHome.isValid() && mTmp.isValid());
        mDb = mTmp.filePath("lib.sqlite");
        mEdited = mTmp.filePath("edited.json");
        QVERIFY(writeEditedSample(mEdited, "\"name\": \"DGX H100 pod: three tenants\"",
                                  "\"name\": \"DGX H100 pod: edited\""));
        const Run r = cli({"library", "import", sampleFiles().front(), "--db", mDb}, mHome.path());
        QVERIFY2(r.code == 0 && r.out.contains("as 1"), qPrintable(r.out + r.err));
        QCOMPARE(revisionsOf(mDb, 1, mHome.path()), 1);
    }

    void saveAddsTheNextRevision()
    {
        const Run r = cli({"library", "save", mEdited, "--scenario", "1", "--db", mDb}, mHome.path());
        QVERIFY2(r.code == 0, qPrintable(r.out + r.err));
        QVERIFY2(r.out.contains("saved 'DGX H100 pod: edited' as revision 2 of scenario 1"), qPrintable(r.out));
        QCOMPARE(revisionsOf(mDb, 1, mHome.path()), 2);
        QVERIFY(latestOf(mDb, 1, mTmp.path(), mHome.path()).contains("\"name\": \"DGX H100 pod: edited\""));
    }

    void saveOnTheLatestBase()
    {
        const Run r =
            cli({"library", "save", mEdited, "--scenario", "1", "--base", "2", "--note", "reviewed", "--db", mDb},
                mHome.path());
        QVERIFY2(r.code == 0, qPrintable(r.out + r.err));
        QVERIFY2(r.out.contains("as revision 3 of scenario 1"), qPrintable(r.out));
        QCOMPARE(revisionsOf(mDb, 1, mHome.path()), 3);
    }

    void staleBaseIsRefusedAndWritesNothing()
    {
        const QByteArray before = latestOf(mDb, 1, mTmp.path(), mHome.path());
        QVERIFY(!before.isEmpty());
        const Run r = cli({"library", "save", sampleFiles().front(), "--scenario", "1", "--base", "2", "--db", mDb},
                          mHome.path());
        QCOMPARE(r.code, 1);
        QVERIFY2(r.err.contains(sampleFiles().front() + ": not saved: "), qPrintable(r.err));
        QVERIFY2(r.err.contains("saved revision 3"), qPrintable(r.err));
        QVERIFY2(r.err.contains("after revision 2, the one these edits started from"), qPrintable(r.err));
        QVERIFY(!r.out.contains("saved '"));
        QCOMPARE(revisionsOf(mDb, 1, mHome.path()), 3);
        QCOMPARE(latestOf(mDb, 1, mTmp.path(), mHome.path()), before);
    }

    void badFileIsRefusedAndWritesNothing()
    {
        const QString bad = mTmp.filePath("bad.json");
        QVERIFY(writeEditedSample(bad, "\"gpu_count\": 8", "\"gpu_count\": -8"));
        Run r = cli({"library", "save", bad, "--scenario", "1", "--db", mDb}, mHome.path());
        QCOMPARE(r.code, 2);
        QVERIFY2(r.out.contains(bad + ": topology.nodes[0].gpu_count: -8 must be between 1 and 64"), qPrintable(r.out));
        QVERIFY2(r.err.contains(bad + ": not saved (fix the problems above)"), qPrintable(r.err));
        r = cli({"library", "save", mTmp.filePath("missing.json"), "--scenario", "1", "--db", mDb}, mHome.path());
        QCOMPARE(r.code, 2);
        QCOMPARE(revisionsOf(mDb, 1, mHome.path()), 3);
    }

    void unknownScenarioAndBadOptions()
    {
        Run r = cli({"library", "save", mEdited, "--scenario", "7", "--db", mDb}, mHome.path());
        QCOMPARE(r.code, 2);
        QVERIFY2(r.err.contains("no such scenario"), qPrintable(r.err));
        QCOMPARE(cli({"library", "save", mEdited, "--db", mDb}, mHome.path()).code, 2); // no --scenario
        QCOMPARE(cli({"library", "save", mEdited, "--scenario", "abc", "--db", mDb}, mHome.path()).code, 2);
        r = cli({"library", "save", mEdited, "--scenario", "1", "--base", "0", "--db", mDb}, mHome.path());
        QCOMPARE(r.code, 2);
        QVERIFY2(r.err.contains("--base must be a positive number"), qPrintable(r.err));
        QCOMPARE(cli({"library", "save", "--scenario", "1", "--db", mDb}, mHome.path()).code, 2); // no FILE
        QCOMPARE(revisionsOf(mDb, 1, mHome.path()), 3);
        QCOMPARE(revisionsOf(mDb, 7, mHome.path()), -1);
    }
};

QTEST_GUILESS_MAIN(TestCliLibrary)
#include "tst_clilibrary.moc"
