// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
// Calibration profiles in the scenario library (issue 38, deliverable 3; schema 6): on a throwaway
// PostgreSQL 15 server (pgserver.h) and on a SQLite file alike, each store of a name is its next
// version, every version reads back byte for byte with its author, date and measurements digest,
// two versions diff by parameter, and an unknown name or version is refused naming it. An older
// library (tests/data/library-v4.sqlite, migrated on opening) gains the table and keeps its scenarios.
#include "io/calibrationprofileio.h"
#include "pgserver.h"
#include "store/scenariolibrary.h"
#include "testsupport.h"

#include <QDir>
#include <QFile>
#include <QTest>

using namespace gp;
using store::ScenarioLibrary;

namespace {

CalibrationProfile profile(double memoryBound)
{
    CalibrationProfile p;
    p.name = "dgx-pod/megatron-lm";
    p.cluster = "dgx-pod";
    p.stack = "megatron-lm";
    p.author = "ana";
    p.createdAt = "2026-12-05T12:00:00Z";
    p.measurementsDigest = "0123abcd";
    p.measurementCount = 12;
    p.values = {{"gpu.h100-80gb.memory_bound", memoryBound, 0.7, 0.2, 1.0, 0.01},
                {"stack.megatron-lm.step_overhead_s", 0.25, 0.0, 0.0, 5.0, std::nullopt}};
    return p;
}

} // namespace

class TestCalibrationStore : public QObject
{
    Q_OBJECT

    test::PostgresServer mServer;
    QTemporaryDir mTmp;
    int mDatabases = 0;

    QString freshLibrary(bool server)
    {
        const QString name = QString("cal%1").arg(++mDatabases);
        if (!server)
            return mTmp.filePath(name + ".sqlite");
        if (!mServer.sql("postgres", "CREATE DATABASE " + name))
            qFatal("%s", qPrintable(mServer.error()));
        return mServer.address(name);
    }

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(mTmp.isValid());
        QVERIFY2(mServer.start(), qPrintable(mServer.error()));
    }

    void versionsRoundTripAndDiff_data()
    {
        QTest::addColumn<bool>("server");
        QTest::newRow("PostgreSQL") << true;
        QTest::newRow("SQLite") << false;
    }
    void versionsRoundTripAndDiff()
    {
        QFETCH(bool, server);
        const QString where = freshLibrary(server);
        {
            auto lib = ScenarioLibrary::open(where);
            QVERIFY2(lib, lib.errorText().c_str());
            QCOMPARE((*lib)->calibrationProfiles().value.value().size(), std::size_t(0));
            for (double mb : {0.61, 0.64}) {
                const CalibrationProfile p = profile(mb);
                const auto v =
                    (*lib)->addCalibrationProfile(QString::fromStdString(p.name), QString::fromStdString(p.author),
                                                  QString::fromStdString(p.createdAt),
                                                  QString::fromStdString(p.measurementsDigest), [&](int version) {
                                                      CalibrationProfile q = p;
                                                      q.version = version;
                                                      return io::profileToJson(q);
                                                  });
                QVERIFY2(v, v.errorText().c_str());
            }
            QCOMPARE((*lib)
                         ->addCalibrationProfile("other/vllm", "bo", "2026-12-06T00:00:00Z", "",
                                                 [](int) { return io::profileToJson(profile(0.5)); })
                         .value.value(),
                     1);
        }
        // Another connection sees what the first stored.
        auto lib = ScenarioLibrary::open(where);
        QVERIFY2(lib, lib.errorText().c_str());
        const auto all = (*lib)->calibrationProfiles();
        QVERIFY2(all, all.errorText().c_str());
        QCOMPARE(all->size(), std::size_t(3));
        QCOMPARE(all->at(0).name, QString("dgx-pod/megatron-lm"));
        QCOMPARE(all->at(0).version, 1);
        QCOMPARE(all->at(1).version, 2);
        QCOMPARE(all->at(1).author, QString("ana"));
        QCOMPARE(all->at(1).createdAt, QString("2026-12-05T12:00:00Z"));
        QCOMPARE(all->at(1).measurementsDigest, QString("0123abcd"));
        QCOMPARE(all->at(2).name, QString("other/vllm"));

        const auto latest = (*lib)->calibrationProfile("dgx-pod/megatron-lm");
        QVERIFY2(latest, latest.errorText().c_str());
        QCOMPARE(latest->version, 2);
        const auto first = (*lib)->calibrationProfile("dgx-pod/megatron-lm", 1);
        QVERIFY2(first, first.errorText().c_str());
        const auto a = io::readCalibrationProfile(first->document);
        const auto b = io::readCalibrationProfile(latest->document);
        QVERIFY2(a && b, (a.errorText() + b.errorText()).c_str());
        QCOMPARE(a->version, 1);
        QCOMPARE(b->version, 2);
        CalibrationProfile expected = profile(0.61);
        expected.version = 1;
        QVERIFY(*a == expected);
        const auto diff = diffProfiles(*a, *b);
        QCOMPARE(diff.size(), std::size_t(1));
        QCOMPARE(diff[0].key, std::string("gpu.h100-80gb.memory_bound"));
        QCOMPARE(*diff[0].before, 0.61);
        QCOMPARE(*diff[0].after, 0.64);

        const auto missing = (*lib)->calibrationProfile("dgx-pod/megatron-lm", 7);
        QVERIFY(!missing);
        QVERIFY2(missing.errorText().find("no version 7") != std::string::npos, missing.errorText().c_str());
        const auto unknown = (*lib)->calibrationProfile("nope");
        QVERIFY(!unknown);
        QVERIFY2(unknown.errorText().find("'nope'") != std::string::npos, unknown.errorText().c_str());
    }

    void olderLibraryGainsTheTable()
    {
        const QString path = mTmp.filePath("v4.sqlite");
        QVERIFY(QFile::copy(QDir(test::fixturesDir()).absoluteFilePath("library-v4.sqlite"), path));
        QFile::setPermissions(path, QFile::ReadOwner | QFile::WriteOwner);
        auto lib = ScenarioLibrary::open(path);
        QVERIFY2(lib, lib.errorText().c_str());
        const int scenarios = (*lib)->scenarioCount().value.value();
        QVERIFY(scenarios > 0);
        QCOMPARE((*lib)
                     ->addCalibrationProfile("x", "", "2026-12-05T00:00:00Z", "",
                                             [](int) { return io::profileToJson(profile(0.6)); })
                     .value.value(),
                 1);
        QCOMPARE((*lib)->scenarioCount().value.value(), scenarios);
    }
};

QTEST_GUILESS_MAIN(TestCalibrationStore)
#include "tst_calibrationstore.moc"
