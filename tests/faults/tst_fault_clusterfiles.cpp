// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
// The files that go to and come from a cluster under faults (docs/reliability.md §1): the scenario
// `import-cluster` writes and the DRA, HAMi and KAI exports of `export-config`, on a full disk, onto a
// FIFO or a device, and killed (kill -9) while writing. The user's existing file stays byte for
// byte or becomes the whole new file, a device or FIFO is never replaced, and the exit code says
// what happened.
#include "clirunner.h"
#include "faultsupport.h"

#include <QDir>
#include <QElapsedTimer>
#include <QProcess>
#include <QTest>
#include <QThread>

#include <memory>

using namespace gp::test;

namespace {

const QByteArray kGood = "GOOD: the user's file, which must survive\n";

} // namespace

class TestFaultClusterFiles : public QObject
{
    Q_OBJECT

    QTemporaryDir mTmp;
    QTemporaryDir mHome;

    QString kubectlJson() const { return mTmp.filePath("cluster.json"); }
    QStringList expand(QStringList args, const QString& disk) const
    {
        for (QString& a : args)
            a.replace("@DISK", disk).replace("@TMP", mTmp.path());
        return args;
    }
    QStringList importTo(const QString& out) const
    {
        return {"import-cluster", "--kubernetes", kubectlJson(), "-o", out};
    }

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(mTmp.isValid() && mHome.isValid());
        QVERIFY(QFile::copy(fixturesDir() + "/cluster/kubernetes/cluster.json", kubectlJson()));
        QVERIFY(QFile::copy(sampleFiles().at(1), mTmp.filePath("s02.json")));
    }

    void fullDisk_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QStringList>("existing"); ///< files on the disk before: path, then bytes
        const QString good = QString::fromUtf8(kGood);
        QTest::newRow("import-cluster over a file")
            << QStringList{"import-cluster", "--kubernetes", "@TMP/cluster.json", "-o", "@DISK/imported.json"}
            << QStringList{"imported.json", good};
        QTest::newRow("import-cluster, a new file")
            << QStringList{"import-cluster", "--kubernetes", "@TMP/cluster.json", "-o", "@DISK/imported.json"}
            << QStringList{};
        QTest::newRow("export-config --format dra")
            << QStringList{"export-config", "@TMP/s02.json", "-o", "@DISK/cfg", "--format", "dra"}
            << QStringList{"cfg/dra/placement.yaml", good};
        QTest::newRow("export-config --format hami into a new folder")
            << QStringList{"export-config", "@TMP/s02.json", "-o", "@DISK/new/cfg", "--format", "hami"}
            << QStringList{};
        QTest::newRow("export-config --format kai")
            << QStringList{"export-config", "@TMP/s02.json", "-o", "@DISK/cfg", "--format", "kai"}
            << QStringList{"cfg/kai/queues.yaml", good};
        QTest::newRow("export-config --format all")
            << QStringList{"export-config", "@TMP/s02.json", "-o", "@DISK/cfg", "--format", "all"}
            << QStringList{"cfg/hami/README.md", good, "cfg/README.md", good, "cfg/kai/README.md", good};
    }

    /// On a full disk: exit 1 naming the path and "no space left on device", the disk exactly as it
    /// was; with the space back the same command succeeds and changes it.
    void fullDisk()
    {
        QFETCH(QStringList, args);
        QFETCH(QStringList, existing);
        SmallDisk disk(8 * 1024 * 1024);
        if (!disk.ok())
            QSKIP(qPrintable(disk.why()));
        for (int i = 0; i + 1 < existing.size(); i += 2)
            QVERIFY(writeFile(disk.filePath(existing[i]), existing[i + 1].toUtf8()));
        const auto before = snapshot(disk.path());
        QStringList names = listing(disk.path());
        QVERIFY(disk.fill());

        const Run full = cli(expand(args, disk.path()), mHome.path());
        QVERIFY2(full.code == 1, qPrintable(QString("exit %1: %2").arg(full.code).arg(full.err)));
        QVERIFY2(full.err.contains("no space left on device"), qPrintable(full.err));
        QVERIFY2(full.err.contains(disk.path()), qPrintable(full.err));
        names << ".filler";
        names.sort();
        QCOMPARE(listing(disk.path()), names); // no temporary file, no new folder
        QCOMPARE(snapshot(disk.path()), before);

        disk.unfill();
        const Run roomy = cli(expand(args, disk.path()), mHome.path());
        QVERIFY2(roomy.code == 0, qPrintable(roomy.err));
        QVERIFY(snapshot(disk.path()) != before);
    }

    /// import-cluster onto a FIFO someone reads writes the scenario into it; onto a FIFO nobody
    /// reads it refuses at once; a character device is written into and stays one; a block device
    /// and a folder are refused with exit 1. export-config refuses a FIFO where its folder should be.
    void specialTargets()
    {
        QTemporaryDir dir;
        QVERIFY(makeFifo(dir.filePath("fifo")));
        QProcess reader;
        reader.start("cat", {dir.filePath("fifo")});
        QVERIFY(reader.waitForStarted());
        const Run f = cli(importTo(dir.filePath("fifo")), mHome.path());
        QVERIFY2(f.code == 0, qPrintable(f.err));
        QVERIFY(reader.waitForFinished(30000));
        QVERIFY(reader.readAllStandardOutput().contains("\"format_version\""));
        QCOMPARE(fileType(dir.filePath("fifo")), mode_t(S_IFIFO));

        QElapsedTimer t;
        t.start();
        const Run lonely = cli(importTo(dir.filePath("fifo")), mHome.path());
        QCOMPARE(lonely.code, 1);
        QVERIFY2(lonely.err.contains("a FIFO that nobody reads"), qPrintable(lonely.err));
        QVERIFY(t.elapsed() < 30000);
        QCOMPARE(fileType(dir.filePath("fifo")), mode_t(S_IFIFO));

        QVERIFY(QDir(dir.path()).mkdir("folder"));
        const Run d = cli(importTo(dir.filePath("folder")), mHome.path());
        QCOMPARE(d.code, 1);
        QVERIFY2(d.err.contains("it is a folder"), qPrintable(d.err));

        const Run intoFifo = cli(
            {"export-config", mTmp.filePath("s02.json"), "-o", dir.filePath("fifo"), "--format", "dra"}, mHome.path());
        QCOMPARE(intoFifo.code, 1);
        QCOMPARE(fileType(dir.filePath("fifo")), mode_t(S_IFIFO));
        const Run kaiIntoFifo = cli(
            {"export-config", mTmp.filePath("s02.json"), "-o", dir.filePath("fifo"), "--format", "kai"}, mHome.path());
        QCOMPARE(kaiIntoFifo.code, 1);
        QCOMPARE(fileType(dir.filePath("fifo")), mode_t(S_IFIFO));

        if (!isRoot()) {
            qInfo("not root: mknod needs root, the device nodes are left out");
            return;
        }
        QVERIFY(makeNullDevice(dir.filePath("null")));
        const Run n = cli(importTo(dir.filePath("null")), mHome.path());
        QVERIFY2(n.code == 0, qPrintable(n.err));
        QCOMPARE(fileType(dir.filePath("null")), mode_t(S_IFCHR));

        QVERIFY(makeBlockDevice(dir.filePath("block")));
        const Run b = cli(importTo(dir.filePath("block")), mHome.path());
        QCOMPARE(b.code, 1);
        QVERIFY2(b.err.contains("it is a block device; gpuplan never replaces one"), qPrintable(b.err));
        QCOMPARE(fileType(dir.filePath("block")), mode_t(S_IFBLK));
    }

    /// kill -9 at moments spread over a whole import-cluster run, and as soon as its temporary file
    /// appears: the user's file is then either its old bytes or the whole new scenario, never a part.
    void killDuringImportKeepsTheFileWhole()
    {
        QTemporaryDir dir;
        const QString out = dir.filePath("imported.json");
        // The whole new file, and how long a run takes here: the kills are spread over it.
        QElapsedTimer timer;
        timer.start();
        const Run reference = cli(importTo(dir.filePath("reference.json")), mHome.path());
        const qint64 whole = timer.elapsed();
        QVERIFY2(reference.code == 0, qPrintable(reference.err));
        const QByteArray fresh = readAll(dir.filePath("reference.json"));

        const int kills = 30;
        int old = 0, replaced = 0, midWrite = 0;
        for (int k = 0; k < kills; ++k) {
            QVERIFY(writeFile(out, kGood));
            QProcess p;
            QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
            env.insert("HOME", mHome.path());
            env.insert("XDG_DATA_HOME", mHome.path() + "/data");
            p.setProcessEnvironment(env);
            p.start(qEnvironmentVariable("GPUPLAN_CLI"), importTo(out));
            QVERIFY(p.waitForStarted());
            if (k % 2 == 0) {
                QThread::msleep(static_cast<unsigned long>(whole * (k + 1) / (kills + 1)));
            } else { // the moment the staged file appears beside the target
                QElapsedTimer waited;
                waited.start();
                while (p.state() == QProcess::Running && waited.elapsed() < 5 * whole + 1000 &&
                       QDir(dir.path()).entryList({".imported.json.gpuplan-*"}, QDir::Hidden | QDir::Files).isEmpty())
                    QThread::usleep(50);
            }
            const bool running = p.state() == QProcess::Running;
            p.kill();
            p.waitForFinished(10000);
            const QStringList temps =
                QDir(dir.path()).entryList({".imported.json.gpuplan-*"}, QDir::Hidden | QDir::Files);
            midWrite += running && !temps.isEmpty();
            for (const QString& t : temps) // what a kill -9 leaves: hidden, beside the target
                QFile::remove(dir.filePath(t));
            const QByteArray now = readAll(out);
            QVERIFY2(now == kGood || now == fresh, qPrintable(QString("kill %1 left %2 bytes").arg(k).arg(now.size())));
            old += now == kGood;
            replaced += now == fresh;
        }
        qInfo("%d kills over %lld ms: %d left the old file, %d the new one, %d while a staged file existed", kills,
              static_cast<long long>(whole), old, replaced, midWrite);
        QVERIFY2(old > 0, "no kill landed before the rename: the test proved nothing");
        QVERIFY2(midWrite > 0, "no kill landed while the file was being written: the test proved nothing");
    }

    /// Bad input or a failed write: the exit code tells them apart, and the output stays as it was.
    void exitCodesSayWhatHappened()
    {
        QTemporaryDir dir;
        const QString out = dir.filePath("imported.json");
        QVERIFY(writeFile(out, kGood));
        QVERIFY(writeFile(dir.filePath("truncated.json"), readAll(kubectlJson()).left(500)));
        const Run bad =
            cli({"import-cluster", "--kubernetes", dir.filePath("truncated.json"), "-o", out}, mHome.path());
        QCOMPARE(bad.code, 2);
        QVERIFY2(bad.err.contains("nothing written"), qPrintable(bad.err));
        QCOMPARE(readAll(out), kGood);

        const Run missingFolder = cli(importTo(dir.filePath("no/such/folder/out.json")), mHome.path());
        QCOMPARE(missingFolder.code, 1);
        QVERIFY(!QFileInfo::exists(dir.filePath("no")));
    }
};

QTEST_MAIN(TestFaultClusterFiles)
#include "tst_fault_clusterfiles.moc"
