// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
// gpuplan-cli replay as a user runs it on small hand-made traces: seed ranges, several
// policies, charts, and bad input refused with the reason (the real trace: tst_replay).
#include "clirunner.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QImage>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

using namespace gp::test;

class TestCliReplay : public QObject
{
    Q_OBJECT

    QTemporaryDir mHome;

private Q_SLOTS:
    /// replay --seeds A-B: one JSON with the mean and spread per arrived step; a reversed or
    /// huge range, or one given with --seed, is a usage error (exit 2) that says why.
    void replaySeedRangeContract()
    {
        QFile nodes(mHome.filePath("nodes.csv")), tasks(mHome.filePath("tasks.csv"));
        QVERIFY(nodes.open(QIODevice::WriteOnly) && tasks.open(QIODevice::WriteOnly));
        nodes.write("sn,cpu_milli,memory_mib,gpu,model\na,64000,262144,8,G2\nb,32000,131072,2,G2\n");
        tasks.write("name,cpu_milli,memory_mib,num_gpu,gpu_milli\nt1,4000,8192,1,500\nt2,8000,16384,1,1000\n"
                    "t3,8000,16384,2,1000\nt4,2000,4096,0,0\n");
        nodes.close();
        tasks.close();
        const QStringList base{"replay", "--nodes", nodes.fileName(), "--tasks", tasks.fileName()};
        const Run r = cli(base + QStringList{"--seeds", "42-45", "--json"}, mHome.path());
        QCOMPARE(r.code, 0);
        const QJsonObject o = QJsonDocument::fromJson(r.out.toUtf8()).object();
        QCOMPARE(o["runs"].toInt(), 4);
        QCOMPARE(o["seeds"].toObject()["first"].toInt(), 42);
        QCOMPARE(o["seeds"].toObject()["last"].toInt(), 45);
        const int steps = o["arrived_pct"].toArray().size();
        QVERIFY(steps > 100);
        for (const char* series : {"allocation_pct", "fragmentation_pct", "fragmentation_rate_pct"}) {
            QCOMPARE(o[series].toObject()["mean"].toArray().size(), steps);
            QCOMPARE(o[series].toObject()["sd"].toArray().size(), steps);
        }
        for (const char* key : {"tasks_mean", "failed_tasks_mean", "elapsed_ms", "inflate", "policy"})
            QVERIFY2(o.contains(key), key);
        const Run reversed = cli(base + QStringList{"--seeds", "51-42"}, mHome.path());
        QCOMPARE(reversed.code, 2);
        QVERIFY2(reversed.err.contains("'51-42' is reversed"), qPrintable(reversed.err));
        QCOMPARE(cli(base + QStringList{"--seeds", "0-99999"}, mHome.path()).code, 2);
        QCOMPARE(cli(base + QStringList{"--seeds", "1-2", "--seed", "3"}, mHome.path()).code, 2);

        // Several policies: one summary each; --charts writes their curves and numbers.
        const QString dir = mHome.filePath("replay-charts");
        const Run charts = cli(
            base + QStringList{"--policy", "bestfit,fgd", "--seeds", "1-2", "--json", "--charts", dir}, mHome.path());
        QCOMPARE(charts.code, 0);
        const QJsonArray both = QJsonDocument::fromJson(charts.out.toUtf8()).object()["policies"].toArray();
        QCOMPARE(both.size(), 2);
        QCOMPARE(both[1].toObject()["policy"].toString(), QString("fgd"));
        for (const char* file : {"replay-allocation.png", "replay-allocation.svg", "replay-fragmentation.png",
                                 "replay-fragmentation.svg", "replay.csv"})
            QVERIFY2(QFileInfo(QDir(dir).filePath(file)).size() > 100, file);
        QVERIFY(!QImage(QDir(dir).filePath("replay-allocation.png")).isNull());
        const QByteArray csv = readAll(QDir(dir).filePath("replay.csv"));
        QCOMPARE(csv.count('\n'), 1 + 2 * both[0].toObject()["arrived_pct"].toArray().size());
        QCOMPARE(cli(base + QStringList{"--policy", "fgd,fgd"}, mHome.path()).code, 2);

        // A model no node has is refused with the line; CPU-only tasks replay without copies
        // (they never reach the target: no endless loop); a replay too large is refused.
        auto writeTasks = [this](const char* name, const QByteArray& text) {
            QFile f(mHome.filePath(name));
            f.open(QIODevice::WriteOnly);
            f.write(text);
            return f.fileName();
        };
        const QString typo = writeTasks("typo.csv", "name,cpu_milli,memory_mib,num_gpu,gpu_milli,gpu_spec\n"
                                                    "t1,1000,1024,1,500,G2\nt2,1000,1024,1,500,G9|G2\n");
        const Run bad = cli({"replay", "--nodes", nodes.fileName(), "--tasks", typo}, mHome.path());
        QCOMPARE(bad.code, 2);
        QVERIFY2(bad.err.contains("line 3, gpu_spec: 'G9' is the GPU model of no node in the node list (G2)"),
                 qPrintable(bad.err));
        const QString cpuOnly = writeTasks("cpu.csv", "name,cpu_milli,memory_mib,num_gpu,gpu_milli\nc,1000,1024,0,0\n");
        const Run cpu = cli({"replay", "--nodes", nodes.fileName(), "--tasks", cpuOnly, "--json"}, mHome.path());
        QCOMPARE(cpu.code, 0);
        QCOMPARE(QJsonDocument::fromJson(cpu.out.toUtf8()).object()["tasks"].toInt(), 1);
        const QString tiny = writeTasks("tiny.csv", "name,cpu_milli,memory_mib,num_gpu,gpu_milli\nt,1,1,1,1\n");
        QByteArray many = "sn,cpu_milli,memory_mib,gpu,model\n";
        for (int i = 0; i < 32; ++i)
            many += QByteArray("n") + QByteArray::number(i) + ",64000,262144,64,G2\n";
        const QString bigCluster = writeTasks("many-nodes.csv", many); // 2,048 GPUs
        const Run tooBig = cli({"replay", "--nodes", bigCluster, "--tasks", tiny, "--inflate", "10"}, mHome.path());
        QCOMPARE(tooBig.code, 2); // 10 × 2,048,000 milli-GPUs of 1-milli tasks: 20 million and more
        QVERIFY2(tooBig.err.contains("at most 20000000"), qPrintable(tooBig.err));
        QVERIFY(cli(base + QStringList{"--policy", "fastest"}, mHome.path()).err.contains("'fastest' is not"));
    }
};

QTEST_GUILESS_MAIN(TestCliReplay)
#include "tst_clireplay.moc"
