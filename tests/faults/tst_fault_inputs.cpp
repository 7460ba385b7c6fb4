// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
// Fault test (docs/reliability.md §4): gpuplan-cli given inputs that used to crash, hang or run
// for minutes — a sweep spec that is /dev/zero or a FIFO nobody writes to, a replay sweep whose
// trace files are /dev/zero, a trace of a million rows, a 10 MB name, a key given twice, a
// control character in a name, a NaN option, forged shard figures — answers each with exit 2 and
// a message saying where and why, within seconds and under a memory ceiling (ulimit -v; not in
// sanitizer builds, whose shadow memory needs terabytes of address space), and changes no file.
#include "clirunner.h"
#include "faultsupport.h"
#include "testsupport.h"

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QProcess>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>

#include <map>
#include <sys/stat.h>

using namespace gp;

namespace {

/// Every regular file under `dir` with its SHA-256, to show that a refused input changed none.
std::map<QString, QByteArray> hashes(const QString& dir)
{
    std::map<QString, QByteArray> out;
    for (const QString& f : QDir(dir).entryList(QDir::Files | QDir::NoSymLinks)) // not /dev/zero
        out[f] = test::hashOf(QDir(dir).filePath(f));
    return out;
}

QString sample() { return QDir(test::dataDir()).absoluteFilePath("samples/01-dgx-h100-three-tenants.json"); }

} // namespace

class TestFaultInputs : public QObject
{
    Q_OBJECT

    QTemporaryDir mTmp;
    QString mHome;

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(mTmp.isValid());
        mHome = mTmp.filePath("home");
        QVERIFY(QDir().mkpath(mHome));
    }

    void sweepSpecThatIsDevZero()
    {
        // Read whole, /dev/zero never ends: std::bad_alloc, abort.
        const QString spec = mTmp.filePath("zero-spec.json");
        QVERIFY(QFile::link("/dev/zero", spec));
        const test::Run r = test::cliLimited({"sweep", spec, "-o", mTmp.filePath("zero-out")}, mHome);
        QCOMPARE(r.code, 2);
        QVERIFY2(r.err.contains("not a regular file"), qPrintable(r.err));
        QVERIFY(!QFileInfo::exists(mTmp.filePath("zero-out")));
    }

    void sweepSpecThatIsAFifo()
    {
        // Opened for reading, a FIFO without a writer blocks forever.
        const QString fifo = mTmp.filePath("spec.fifo");
        if (::mkfifo(QFile::encodeName(fifo).constData(), 0600) != 0)
            QSKIP("mkfifo is not available in this temporary folder");
        QElapsedTimer clock;
        clock.start();
        const test::Run r = test::cliLimited({"sweep", fifo, "-o", mTmp.filePath("fifo-out")}, mHome, 2048, 30);
        QVERIFY2(r.code != -2, "gpuplan-cli hung on a FIFO");
        QCOMPARE(r.code, 2);
        QVERIFY2(r.err.contains("not a regular file"), qPrintable(r.err));
        QVERIFY(clock.elapsed() < 20000);
    }

    void replaySweepWhoseTracesAreDevZero()
    {
        // The trace reader refused /dev/zero, but the sweep's input digest then hashed it forever.
        const QString dir = mTmp.filePath("zero-trace");
        QVERIFY(QDir().mkpath(dir));
        QVERIFY(QFile::link("/dev/zero", dir + "/nodes.csv"));
        QVERIFY(QFile::link("/dev/zero", dir + "/tasks.csv"));
        const QByteArray spec = "{\"kind\": \"replay\", \"nodes\": \"nodes.csv\", \"axes\": [{\"axis\": \"trace\", "
                                "\"values\": [\"tasks.csv\"]}]}";
        QVERIFY(test::writeFile(dir + "/spec.json", spec));
        const auto before = hashes(dir);
        const test::Run r = test::cliLimited({"sweep", dir + "/spec.json", "-o", dir + "/out"}, mHome, 2048, 30);
        QVERIFY2(r.code != -2, "gpuplan-cli hung on /dev/zero as a trace");
        QCOMPARE(r.code, 2);
        QVERIFY2(r.err.contains("nodes.csv") && r.err.contains("not a regular file"), qPrintable(r.err));
        QCOMPARE(hashes(dir), before);
        QVERIFY(!QFileInfo::exists(dir + "/out"));
    }

    void aMillionRowTraceIsReadInBoundedMemory()
    {
        // A million task rows (~45 MB), the last one bad: the reader reads every row and refuses
        // the file. Read whole and split, it took ~20x the file; streamed, it takes the rows kept.
        const int rows = test::kSanitized ? 100'000 : 1'000'000;
        const QString dir = mTmp.filePath("big-trace");
        QVERIFY(QDir().mkpath(dir));
        QVERIFY(test::writeFile(dir + "/nodes.csv", "sn,cpu_milli,memory_mib,gpu,model\nn1,96000,786432,8,V100M32\n"));
        {
            QFile f(dir + "/tasks.csv");
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write("name,cpu_milli,memory_mib,num_gpu,gpu_milli,gpu_spec\n");
            QByteArray block;
            for (int i = 0; i < rows; ++i) {
                block += "openb-pod-" + QByteArray::number(i) + ",8000,30000,1,500,\n";
                if (block.size() > (1 << 20)) {
                    f.write(block);
                    block.clear();
                }
            }
            block += "openb-pod-last,x,1,1,500,\n";
            f.write(block);
        }
        const auto before = hashes(dir);
        QElapsedTimer clock;
        clock.start();
        const test::Run r =
            test::cliLimited({"replay", "--nodes", dir + "/nodes.csv", "--tasks", dir + "/tasks.csv"}, mHome, 768, 120);
        QCOMPARE(r.code, 2);
        QVERIFY2(r.err.contains(QString("tasks.csv: line %1, cpu_milli: 'x' is not a whole number").arg(rows + 2)),
                 qPrintable(r.err.left(2000)));
        QCOMPARE(hashes(dir), before);
        qInfo("%d rows read and refused in %lld ms", rows, static_cast<long long>(clock.elapsed()));
    }

    void tenMegabyteName()
    {
        // A 10 MB job name made `report` run for minutes; it is refused where it is read.
        QFile src(sample());
        QVERIFY(src.open(QIODevice::ReadOnly));
        QByteArray json = src.readAll();
        const QByteArray from = "\"name\": \"Llama 3 70B pre-training\"";
        QVERIFY(json.contains(from));
        json.replace(from, "\"name\": \"" + QByteArray(10'000'000, 'x') + "\"");
        const QString file = mTmp.filePath("long-name.json");
        QVERIFY(test::writeFile(file, json));
        const QByteArray hash = test::hashOf(file);
        QElapsedTimer clock;
        clock.start();
        const test::Run r =
            test::cliLimited({"report", file, "-o", mTmp.filePath("long-name-report")}, mHome, 2048, 60);
        QCOMPARE(r.code, 2);
        QVERIFY2(r.err.contains("tenants[0].jobs[0].name: is 10000000 characters long; a name has at most 256") ||
                     r.out.contains("tenants[0].jobs[0].name: is 10000000 characters long; a name has at most 256"),
                 qPrintable(r.err.left(2000)));
        QVERIFY(clock.elapsed() < 30000);
        QCOMPARE(test::hashOf(file), hash);
        QVERIFY(!QFileInfo::exists(mTmp.filePath("long-name-report")));
    }

    void duplicateKeyAndControlCharacters_data()
    {
        QTest::addColumn<QByteArray>("from");
        QTest::addColumn<QByteArray>("to");
        QTest::addColumn<QString>("said");
        QTest::newRow("a key twice") << QByteArray("\"id\": \"frontier-70b\",")
                                     << QByteArray("\"id\": \"frontier-70b\", \"id\": \"other\",")
                                     << "tenants[0].jobs[0].id: duplicate key 'id'";
        QTest::newRow("an escape sequence in a name")
            << QByteArray("\"name\": \"Llama 3 70B pre-training\"")
            << QByteArray("\"name\": \"Llama \\u001b[2J\\u0001 pre-training\"")
            << "tenants[0].jobs[0].name: holds the control character U+001B at character 7";
    }
    void duplicateKeyAndControlCharacters()
    {
        QFETCH(QByteArray, from);
        QFETCH(QByteArray, to);
        QFETCH(QString, said);
        QFile src(sample());
        QVERIFY(src.open(QIODevice::ReadOnly));
        QByteArray json = src.readAll();
        QVERIFY(json.contains(from));
        json.replace(json.indexOf(from), from.size(), to);
        const QString file = mTmp.filePath("edited.json");
        QFile::remove(file);
        QVERIFY(test::writeFile(file, json));
        const QByteArray hash = test::hashOf(file);
        const test::Run r = test::cliLimited({"validate", file}, mHome);
        QCOMPARE(r.code, 2);
        QVERIFY2((r.out + r.err).contains(said), qPrintable(r.out + r.err));
        QVERIFY(!(r.out + r.err).contains(QChar(0x1b))); // nothing raw reaches the terminal
        QCOMPARE(test::hashOf(file), hash);
    }

    void nonFiniteOptions_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QString>("said");
        QTest::newRow("defrag nan") << QStringList{"simulate",           sample(), "--horizon-days", "30",
                                                   "--defrag-threshold", "nan"}
                                    << "--defrag-threshold needs --horizon-days and a fraction from 0 to 1";
        QTest::newRow("growth inf") << QStringList{"optimize", "size",     sample(),       "--template",
                                                   "dgx-h100", "--growth", "frontier=inf", "--months",
                                                   "12",       "-o",       "OUT"}
                                    << "--growth must be TENANT=PCT with PCT from 0 to 1000";
        QTest::newRow("growth beyond the job limit")
            << QStringList{"optimize",      "size",     sample(), "--template", "dgx-h100", "--growth",
                           "frontier=1000", "--months", "120",    "-o",         "OUT"}
            << "jobs; a scenario has at most 1000000";
    }
    void nonFiniteOptions()
    {
        QFETCH(QStringList, args);
        QFETCH(QString, said);
        const QString out = mTmp.filePath("options-out.json");
        args.replaceInStrings(QRegularExpression("^OUT$"), out);
        const test::Run r = test::cliLimited(args, mHome);
        QCOMPARE(r.code, 2);
        QVERIFY2(r.err.contains(said), qPrintable(r.err));
        QVERIFY(!QFileInfo::exists(out));
    }
};

QTEST_GUILESS_MAIN(TestFaultInputs)
#include "tst_fault_inputs.moc"
