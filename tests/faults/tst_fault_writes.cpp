// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
// Every command that writes, on a full disk and onto targets that are not regular files
// (docs/reliability.md §1): the user's existing files stay byte for byte, nothing half-written
// is left, a device or FIFO is never replaced, and the exit code says what happened.
#include "clirunner.h"
#include "faultsupport.h"

#include "io/filewriter.h"
#include "io/scenarioreader.h"
#include "sim/planresults.h"
#include "ui/figures/reportwriter.h"

#include <QElapsedTimer>
#include <QJsonDocument>
#include <QProcess>
#include <QTest>

using namespace gp;
using namespace gp::test;

namespace {

QString compactSample(int index)
{
    return QString::fromUtf8(QJsonDocument::fromJson(readAll(sampleFiles().at(index))).toJson(QJsonDocument::Compact));
}

} // namespace

class TestFaultWrites : public QObject
{
    Q_OBJECT

    QTemporaryDir mTmp; ///< inputs, on the ordinary disk
    QTemporaryDir mHome;

    QStringList expand(QStringList args, const QString& disk) const
    {
        for (QString& a : args)
            a.replace("@DISK", disk).replace("@TMP", mTmp.path());
        return args;
    }

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(mTmp.isValid() && mHome.isValid());
        QVERIFY(QFile::copy(sampleFiles().at(0), mTmp.filePath("s01.json")));
        QVERIFY(QFile::copy(sampleFiles().at(1), mTmp.filePath("s02.json")));
        QVERIFY(writeFile(mTmp.filePath("nodes.csv"), "sn,cpu_milli,memory_mib,gpu,model\na,64000,262144,8,G2\n"
                                                      "b,32000,131072,2,G2\n"));
        QVERIFY(writeFile(mTmp.filePath("tasks.csv"), "name,cpu_milli,memory_mib,num_gpu,gpu_milli\n"
                                                      "t1,4000,8192,1,500\nt2,8000,16384,1,1000\n"
                                                      "t3,8000,16384,2,1000\n"));
        QVERIFY(writeFile(mTmp.filePath("spec.json"), QString(R"({"format_version": 1, "base": "%1", "trials": 20,
                                      "axes": [{"axis": "nodes", "values": [6, 7]}]})")
                                                          .arg(mTmp.filePath("s01.json"))
                                                          .toUtf8()));
        const Run imported =
            cli({"library", "import", mTmp.filePath("s01.json"), "--db", mTmp.filePath("lib.sqlite")}, mHome.path());
        QVERIFY2(imported.code == 0, qPrintable(imported.err));
    }

    void fullDisk_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QStringList>("existing"); ///< files on the disk before: path, then bytes
        const QString good = "GOOD: the user's file, which must survive\n";
        QTest::newRow("format --in-place, output under 16 KiB")
            << QStringList{"format", "--in-place", "@DISK/s.json"} << QStringList{"s.json", compactSample(1)};
        QTest::newRow("format --in-place, output over 16 KiB")
            << QStringList{"format", "--in-place", "@DISK/s.json"} << QStringList{"s.json", compactSample(0)};
        QTest::newRow("edit -o") << QStringList{"edit", "@TMP/s02.json", "--rename", "Renamed", "-o", "@DISK/out.json"}
                                 << QStringList{"out.json", good};
        QTest::newRow("export-config into a folder") << QStringList{"export-config", "@TMP/s01.json", "-o", "@DISK/cfg"}
                                                     << QStringList{"cfg/mig-parted.yaml", good};
        QTest::newRow("export-config into a new folder")
            << QStringList{"export-config", "@TMP/s01.json", "-o", "@DISK/new/cfg"} << QStringList{};
        QTest::newRow("library export") << QStringList{"library", "export",         "1", "-o", "@DISK/out.json",
                                                       "--db",    "@TMP/lib.sqlite"}
                                        << QStringList{"out.json", good};
        QTest::newRow("optimize size") << QStringList{"optimize", "size", "@TMP/s02.json",   "--template",
                                                      "dgx-h100", "-o",   "@DISK/sized.json"}
                                       << QStringList{"sized.json", good};
        QTest::newRow("optimize plan") << QStringList{"optimize", "plan", "@TMP/s02.json", "--time-limit",
                                                      "2",        "-o",   "@DISK/plans"}
                                       << QStringList{"plans/pareto.json", good};
        QTest::newRow("sweep") << QStringList{"sweep", "@TMP/spec.json", "-o", "@DISK/sweep"}
                               << QStringList{"sweep/results.csv", good};
        QTest::newRow("report") << QStringList{"report", "@TMP/s01.json", "--trials", "100", "-o", "@DISK/r.pdf"}
                                << QStringList{"r.pdf", good};
        QTest::newRow("report --charts") << QStringList{"report", "@TMP/s01.json", "--trials", "100",
                                                        "-o",     "@TMP/r.pdf",    "--charts", "@DISK/charts"}
                                         << QStringList{};
        QTest::newRow("replay --charts") << QStringList{"replay",  "--nodes",        "@TMP/nodes.csv",
                                                        "--tasks", "@TMP/tasks.csv", "--seeds",
                                                        "1-2",     "--charts",       "@DISK/rc"}
                                         << QStringList{};
    }

    /// On a full disk each command fails with exit 1 naming the path and "no space left on
    /// device", and the disk holds exactly what it held before; with the space back, the same
    /// command succeeds and changes what is there (so the first half could have failed).
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
        const QStringList namesBefore = listing(disk.path());
        QVERIFY(disk.fill());

        const Run full = cli(expand(args, disk.path()), mHome.path());
        QVERIFY2(full.code == 1, qPrintable(QString("exit %1: %2").arg(full.code).arg(full.err)));
        QVERIFY2(full.err.contains("no space left on device"), qPrintable(full.err));
        QVERIFY2(full.err.contains(disk.path()), qPrintable(full.err));
        QStringList namesAfter = namesBefore;
        namesAfter << ".filler";
        namesAfter.sort();
        QCOMPARE(listing(disk.path()), namesAfter); // no temporary file, no new folder
        QCOMPARE(snapshot(disk.path()), before);

        disk.unfill();
        const Run roomy = cli(expand(args, disk.path()), mHome.path());
        QVERIFY2(roomy.code == 0, qPrintable(roomy.err));
        QVERIFY(snapshot(disk.path()) != before);
    }

    /// Standard output is a file too: `format s.json > full-disk/out.json` is a failure.
    void fullDiskOnStandardOutput()
    {
        SmallDisk disk(1024 * 1024);
        if (!disk.ok())
            QSKIP(qPrintable(disk.why()));
        QVERIFY(disk.fill());
        QProcess p;
        p.setStandardOutputFile(disk.filePath("out.json"));
        p.start(qEnvironmentVariable("GPUPLAN_CLI"), {"format", mTmp.filePath("s01.json")});
        QVERIFY(p.waitForFinished(60000));
        QCOMPARE(p.exitCode(), 1);
        QVERIFY2(p.readAllStandardError().contains("cannot write standard output: no space left on device"),
                 "the message says why");
    }

    /// A character device or a FIFO is written into and stays what it was; a block device or a
    /// folder is refused; `-` is standard output; a symbolic link is followed and stays a link.
    void specialTargets()
    {
        QTemporaryDir dir;
        const QString s = mTmp.filePath("s02.json");
        if (isRoot()) {
            QVERIFY(makeNullDevice(dir.filePath("null")));
            const Run r = cli({"report", s, "--trials", "50", "-o", dir.filePath("null")}, mHome.path());
            QVERIFY2(r.code == 0, qPrintable(r.err));
            QCOMPARE(fileType(dir.filePath("null")), mode_t(S_IFCHR));

            QVERIFY(makeBlockDevice(dir.filePath("block")));
            const Run b = cli({"edit", s, "--rename", "X", "-o", dir.filePath("block")}, mHome.path());
            QCOMPARE(b.code, 1);
            QVERIFY2(b.err.contains("it is a block device; gpuplan never replaces one"), qPrintable(b.err));
            QCOMPARE(fileType(dir.filePath("block")), mode_t(S_IFBLK));
        } else {
            qInfo("not root: mknod needs root, the device nodes are left out");
        }

        QVERIFY(makeFifo(dir.filePath("fifo")));
        QProcess reader;
        reader.start("cat", {dir.filePath("fifo")});
        QVERIFY(reader.waitForStarted());
        const Run f = cli({"edit", s, "--rename", "Through a FIFO", "-o", dir.filePath("fifo")}, mHome.path());
        QVERIFY2(f.code == 0, qPrintable(f.err));
        QVERIFY(reader.waitForFinished(30000));
        QVERIFY(reader.readAllStandardOutput().contains("\"name\": \"Through a FIFO\""));
        QCOMPARE(fileType(dir.filePath("fifo")), mode_t(S_IFIFO));

        // Nobody reads: refused at once instead of waiting for ever.
        QElapsedTimer t;
        t.start();
        const Run lonely = cli({"edit", s, "--rename", "X", "-o", dir.filePath("fifo")}, mHome.path());
        QCOMPARE(lonely.code, 1);
        QVERIFY2(lonely.err.contains("a FIFO that nobody reads"), qPrintable(lonely.err));
        QVERIFY(t.elapsed() < 30000);
        QCOMPARE(fileType(dir.filePath("fifo")), mode_t(S_IFIFO));

        QVERIFY(QDir(dir.path()).mkdir("folder"));
        const Run d = cli({"report", s, "--trials", "50", "-o", dir.filePath("folder")}, mHome.path());
        QCOMPARE(d.code, 1);
        QVERIFY2(d.err.contains("it is a folder"), qPrintable(d.err));

        const Run out = cli({"report", s, "--trials", "50", "-o", "-"}, mHome.path());
        QCOMPARE(out.code, 0);
        QVERIFY(out.out.startsWith("%PDF"));

        QVERIFY(writeFile(dir.filePath("real.json"), "GOOD\n"));
        QVERIFY(QFile::link(dir.filePath("real.json"), dir.filePath("link.json")));
        const Run l = cli({"edit", s, "--rename", "Via a link", "-o", dir.filePath("link.json")}, mHome.path());
        QCOMPARE(l.code, 0);
        QCOMPARE(fileType(dir.filePath("link.json")), mode_t(S_IFLNK));
        QVERIFY(readAll(dir.filePath("real.json")).contains("\"name\": \"Via a link\""));
        QCOMPARE(listing(dir.path()).filter(".gpuplan-").size(), 0); // no temporary file left
    }

    /// A file its owner made read-only (no write bit) is not replaced, not even by root; `sweep
    /// merge` reads a shard's files as every input is read (a FIFO there is refused at once).
    void readOnlyTargetsAndShardFiles()
    {
        QTemporaryDir dir;
        const QString s = dir.filePath("s.json");
        QVERIFY(writeFile(s, compactSample(1).toUtf8()));
        QVERIFY(QFile::setPermissions(s, QFile::ReadOwner | QFile::ReadGroup | QFile::ReadOther));
        const QByteArray hash = hashOf(s);
        const Run r = cli({"format", "--in-place", s}, mHome.path());
        QCOMPARE(r.code, 1);
        QVERIFY2(r.err.contains("cannot write: the file is read-only"), qPrintable(r.err));
        QCOMPARE(hashOf(s), hash);

        const Run sweep =
            cli({"sweep", mTmp.filePath("spec.json"), "--shard", "1/1", "-o", dir.filePath("shard")}, mHome.path());
        QVERIFY2(sweep.code == 0, qPrintable(sweep.err));
        QVERIFY(QFile::remove(dir.filePath("shard/spec.json")));
        QVERIFY(makeFifo(dir.filePath("shard/spec.json")));
        const Run merge =
            cliLimited({"sweep", "merge", dir.filePath("shard"), "-o", dir.filePath("merged")}, mHome.path(), 2048, 30);
        QCOMPARE(merge.code, 2);
        QVERIFY2(merge.err.contains("not a regular file"), qPrintable(merge.err));
        QVERIFY(!QFileInfo::exists(dir.filePath("merged")));
    }

    /// An output that is an input is refused (exit 2) and the input keeps its bytes.
    void outputIsAnInput()
    {
        QTemporaryDir dir;
        const QString s = dir.filePath("s.json");
        QVERIFY(QFile::copy(mTmp.filePath("s02.json"), s));
        const QByteArray hash = hashOf(s);
        const Run report = cli({"report", s, "-o", s}, mHome.path());
        QCOMPARE(report.code, 2);
        QVERIFY2(report.err.contains("is also an input"), qPrintable(report.err));
        const Run sized = cli({"optimize", "size", s, "--template", "dgx-h100", "-o", s}, mHome.path());
        QCOMPARE(sized.code, 2);
        QCOMPARE(hashOf(s), hash);

        const QString lib = dir.filePath("lib.sqlite");
        QVERIFY(QFile::copy(mTmp.filePath("lib.sqlite"), lib));
        const QByteArray libHash = hashOf(lib);
        const Run exported = cli({"library", "export", "1", "-o", lib, "--db", lib}, mHome.path());
        QCOMPARE(exported.code, 2);
        QVERIFY2(exported.err.contains("is also an input"), qPrintable(exported.err));
        QCOMPARE(hashOf(lib), libHash);
    }

    /// The writer itself: a batch whose later file fails puts none in place and removes the
    /// folders it made (an export never leaves half a folder).
    void batchIsAllOrNothing()
    {
        QTemporaryDir dir;
        QVERIFY(writeFile(dir.filePath("out/a.txt"), "old a\n"));
        QVERIFY(QDir(dir.path()).mkpath("out/c.txt")); // a folder where a file should go
        const Status s =
            io::writeFiles(dir.filePath("out"), {{"a.txt", "new a\n"}, {"new/b.txt", "new b\n"}, {"c.txt", "new c\n"}});
        QVERIFY(!s);
        QVERIFY2(s.errorText().find("c.txt: cannot write: it is a folder") != std::string::npos, s.errorText().c_str());
        QCOMPARE(readAll(dir.filePath("out/a.txt")), QByteArray("old a\n"));
        QVERIFY(!QFileInfo::exists(dir.filePath("out/new")));
        QCOMPARE(listing(dir.path()), (QStringList{"out", "out/a.txt", "out/c.txt"}));
    }

    /// The workbench's report (File > Export Report…) goes through the same writer: on a full disk
    /// it says so and the old report stays.
    void workbenchReportOnFullDisk()
    {
        SmallDisk disk(4 * 1024 * 1024);
        if (!disk.ok())
            QSKIP(qPrintable(disk.why()));
        QVERIFY(writeFile(disk.filePath("r.pdf"), "GOOD\n"));
        QVERIFY(disk.fill());
        const auto scenario = io::readScenarioFile(mTmp.filePath("s02.json"), bundledCatalog());
        QVERIFY(scenario.ok());
        const auto results = sim::computePlanResults(*scenario.value, bundledCatalog(), nullptr, 30.0, 50);
        QVERIFY(results);
        const Status written = ui::writeReport(*results, bundledCatalog(), disk.filePath("r.pdf"));
        QVERIFY(!written);
        QVERIFY2(written.errorText().find("no space left on device") != std::string::npos, written.errorText().c_str());
        QCOMPARE(readAll(disk.filePath("r.pdf")), QByteArray("GOOD\n"));
        QCOMPARE(listing(disk.path()), (QStringList{".filler", "r.pdf"}));
    }
};

QTEST_MAIN(TestFaultWrites)
#include "tst_fault_writes.moc"
