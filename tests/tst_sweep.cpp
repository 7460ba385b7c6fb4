// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
// Sweeps (docs/sweeps.md): the whole grid and its shards — from --shard, from a Slurm job array's
// variables, from a Kubernetes Indexed Job's — merge into the whole run byte for byte; a real
// single-node Slurm runs the shipped sbatch script as an array of 4 with the same result (or, where
// Slurm cannot run, the test says why and runs the script with the array variables set); every
// bad spec, shard and merge is refused with what and where.
#include "document/sweep.h"
#include "slurmcluster.h"
#include "testsupport.h"

#include <QDir>
#include <QFile>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

using namespace gp;

namespace {

struct Run
{
    int code = -1;
    QString out, err;
};

Run cli(const QStringList& args, const QStringList& env = {})
{
    QProcess p;
    QProcessEnvironment e = QProcessEnvironment::systemEnvironment();
    for (const char* k : {"SLURM_ARRAY_TASK_ID", "SLURM_ARRAY_TASK_COUNT", "SLURM_ARRAY_TASK_MIN",
                          "JOB_COMPLETION_INDEX", "GPUPLAN_SHARD_COUNT"})
        e.remove(k);
    for (const QString& kv : env)
        e.insert(kv.section('=', 0, 0), kv.section('=', 1));
    p.setProcessEnvironment(e);
    p.start(qEnvironmentVariable("GPUPLAN_CLI"), args);
    p.waitForFinished(300000);
    return {p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1, QString::fromUtf8(p.readAllStandardOutput()),
            QString::fromUtf8(p.readAllStandardError())};
}

QByteArray read(const QString& file)
{
    QFile f(file);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

} // namespace

class TestSweep : public QObject
{
    Q_OBJECT

    QTemporaryDir mTmp;
    QString mSpec;

    QString writeSpec(const QString& name, const QByteArray& json)
    {
        const QString path = mTmp.filePath(name);
        QFile f(path);
        f.open(QIODevice::WriteOnly);
        f.write(json);
        return path;
    }

    /// The whole run and a merge of `dirs` write the same files, byte for byte.
    void sameAsWhole(const QStringList& dirs, const QString& merged)
    {
        const Run m = cli(QStringList{"sweep", "merge"} + dirs + QStringList{"-o", merged});
        QVERIFY2(m.code == 0, qPrintable(m.err));
        QCOMPARE(read(merged + "/results.csv"), read(mTmp.filePath("whole/results.csv")));
        QCOMPARE(read(merged + "/sweep.json"), read(mTmp.filePath("whole/sweep.json")));
    }

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(mTmp.isValid());
        const QString base = QDir(test::dataDir()).absoluteFilePath("samples/01-dgx-h100-three-tenants.json");
        mSpec = writeSpec("spec.json", QString(R"({"format_version": 1, "base": "%1", "trials": 50, "axes": [
            {"axis": "nodes", "values": [6, 7, 8]},
            {"axis": "sharing", "values": ["exclusive", {"mode": "time_slicing", "replicas": 4},
                                           {"mode": "vgpu", "vgpu": {"profile": "no-such-profile"}}]},
            {"axis": "pricing", "values": ["aws-on-demand-2024", "lambda-on-demand-2025"]},
            {"axis": "field", "path": "tenants[acme].sla.max_penalty_pct", "values": [5, 20]},
            {"axis": "seed", "values": [1, 2]}]})")
                                           .arg(base)
                                           .toUtf8());
        const Run whole = cli({"sweep", mSpec, "-o", mTmp.filePath("whole")});
        QVERIFY2(whole.code == 0, qPrintable(whole.err));
    }

    /// One row per point, the last axis fastest; a point that does not apply says why.
    void theWholeGridHasARowPerPoint()
    {
        const QList<QByteArray> lines = read(mTmp.filePath("whole/results.csv")).split('\n');
        QCOMPARE(lines.size(), 1 + 72 + 1); // header, 3 × 3 × 2 × 2 × 2 points, the last newline
        QVERIFY(lines[0].startsWith("point,nodes,sharing,pricing,field[tenants[acme].sla.max_penalty_pct],seed,"
                                    "node_count,gpu_count,cost_per_month_usd"));
        QVERIFY(lines[1].startsWith("0,6,exclusive,aws-on-demand-2024,5,1,6,48,"));
        QVERIFY(lines[2].startsWith("1,6,exclusive,aws-on-demand-2024,5,2,6,48,"));
        // vGPU with a profile that does not exist: the row says where and why, the rest ran.
        const QByteArray bad = lines[1 + 2 * 8];
        QVERIFY2(bad.contains("no-such-profile") && bad.endsWith("\""), bad.constData());
        QCOMPARE(read(mTmp.filePath("whole/sweep.json")).contains("\"points\": 72"), true);
    }

    void shardsMergeIntoTheWholeRun_data()
    {
        QTest::addColumn<QStringList>("env");
        QTest::addColumn<bool>("slurm");
        QTest::newRow("--shard") << QStringList{} << false;
        QTest::newRow("Slurm array variables")
            << QStringList{"SLURM_ARRAY_TASK_COUNT=4", "SLURM_ARRAY_TASK_MIN=0"} << true;
        QTest::newRow("Kubernetes Indexed Job") << QStringList{"GPUPLAN_SHARD_COUNT=4"} << false;
    }
    void shardsMergeIntoTheWholeRun()
    {
        QFETCH(QStringList, env);
        QFETCH(bool, slurm);
        const QString tag = QTest::currentDataTag();
        QStringList dirs;
        for (int k = 0; k < 4; ++k) {
            const QString dir = mTmp.filePath(QString("%1-%2").arg(tag.left(5)).arg(k));
            QStringList args{"sweep", mSpec, "-o", dir};
            QStringList vars = env;
            if (env.isEmpty())
                args << "--shard" << QString("%1/4").arg(k + 1);
            else
                vars << (slurm ? QString("SLURM_ARRAY_TASK_ID=%1").arg(k) : QString("JOB_COMPLETION_INDEX=%1").arg(k));
            const Run r = cli(args, vars);
            QVERIFY2(r.code == 0, qPrintable(r.err));
            QVERIFY2(r.out.contains(QString("(shard %1/4)").arg(k + 1)), qPrintable(r.out));
            dirs << dir;
        }
        sameAsWhole(dirs, mTmp.filePath(tag.left(5) + "-merged"));
    }

    /// The shipped sbatch script as a job array of 4 on a single-node Slurm started here.
    void aSlurmJobArrayMergesIntoTheWholeRun()
    {
        const QString script = QDir(test::dataDir()).absoluteFilePath("../packaging/slurm/gpuplan-sweep.sbatch");
        QVERIFY(QFileInfo::exists(script));
        const QString out = mTmp.filePath("slurm");
        QDir().mkpath(out);
        const QStringList env{"SPEC=" + mSpec, "OUT=" + out, "GPUPLAN_CLI=" + qEnvironmentVariable("GPUPLAN_CLI"),
                              "GPUPLAN_DATA_DIR=" + test::dataDir()};
        test::SlurmCluster slurm;
        if (slurm.start()) {
            const std::optional<QString> job = slurm.submitArray(script, 4, env, mTmp.path());
            QVERIFY(job);
            QVERIFY2(slurm.waitIdle(180), "the array did not finish in 180 s");
            qInfo("Slurm ran job %s as an array of 4", qPrintable(*job));
        } else {
            qInfo("Slurm cannot run here (%s): running the same script with the array variables set",
                  qPrintable(slurm.error()));
            for (int k = 0; k < 4; ++k) {
                QProcess p;
                QProcessEnvironment e = QProcessEnvironment::systemEnvironment();
                for (const QString& kv : env + QStringList{QString("SLURM_ARRAY_TASK_ID=%1").arg(k),
                                                           "SLURM_ARRAY_TASK_COUNT=4", "SLURM_ARRAY_TASK_MIN=0"})
                    e.insert(kv.section('=', 0, 0), kv.section('=', 1));
                p.setProcessEnvironment(e);
                p.start("bash", {script});
                QVERIFY(p.waitForFinished(120000));
                QCOMPARE(p.exitCode(), 0);
            }
        }
        QStringList dirs;
        for (int k = 0; k < 4; ++k)
            dirs << QString("%1/shard-%2").arg(out).arg(k);
        sameAsWhole(dirs, out + "/merged");
    }

    void badSpecsShardsAndMergesAreSaid_data()
    {
        QTest::addColumn<QByteArray>("spec");
        QTest::addColumn<QString>("said");
        const QByteArray base =
            "\"base\": \"" + QDir(test::dataDir()).absoluteFilePath("samples/01-dgx-h100-three-tenants.json").toUtf8() +
            "\"";
        QTest::newRow("unknown axis") << "{" + base + ", \"axes\": [{\"axis\": \"colour\", \"values\": [1]}]}"
                                      << "axes[0].axis: unknown axis 'colour'";
        QTest::newRow("empty values") << "{" + base + ", \"axes\": [{\"axis\": \"nodes\", \"values\": []}]}"
                                      << "axes[0].values: give at least one value";
        QTest::newRow("unknown field") << "{" + base + ", \"axes\": [{\"axis\": \"nodes\", \"value\": [1]}]}"
                                       << "axes[0].value: unknown field";
        QByteArray values = "[";
        for (int i = 0; i < 400; ++i)
            values += (i ? "," : "") + QByteArray::number(i + 1);
        values += "]";
        QTest::newRow("huge grid") << "{" + base + ", \"axes\": [{\"axis\": \"seed\", \"values\": " + values +
                                          "}, {\"axis\": \"nodes\", \"values\": " + values + "}]}"
                                   << "axes: the grid has more than 100000 points";
        QTest::newRow("not JSON") << QByteArray("{\"base\": ") << "not JSON";
    }
    void badSpecsShardsAndMergesAreSaid()
    {
        QFETCH(QByteArray, spec);
        QFETCH(QString, said);
        const Run r = cli({"sweep", writeSpec("bad.json", spec), "-o", mTmp.filePath("bad")});
        QCOMPARE(r.code, 2);
        QVERIFY2(r.err.contains(said), qPrintable(r.err));
        QVERIFY(!QFileInfo::exists(mTmp.filePath("bad/results.csv"))); // nothing half-written
    }

    void badShardsAndMerges()
    {
        Run r = cli({"sweep", mSpec, "-o", mTmp.filePath("x"), "--shard", "5/4"});
        QCOMPARE(r.code, 2);
        QVERIFY2(r.err.contains("--shard '5/4' is not a shard I/N with 1 <= I <= N"), qPrintable(r.err));
        r = cli({"sweep", mSpec, "-o", mTmp.filePath("x")}, {"SLURM_ARRAY_TASK_ID=7", "SLURM_ARRAY_TASK_COUNT=4"});
        QCOMPARE(r.code, 2);
        QVERIFY2(r.err.contains("SLURM_ARRAY_TASK_ID/COUNT '8/4'"), qPrintable(r.err));
        // Shards of two specs, a missing shard, a whole run given as a shard.
        const QString other = writeSpec("other.json", read(mSpec).replace("\"trials\": 50", "\"trials\": 40"));
        QCOMPARE(cli({"sweep", mSpec, "-o", mTmp.filePath("a1"), "--shard", "1/2"}).code, 0);
        QCOMPARE(cli({"sweep", other, "-o", mTmp.filePath("b2"), "--shard", "2/2"}).code, 0);
        r = cli({"sweep", "merge", mTmp.filePath("a1"), mTmp.filePath("b2"), "-o", mTmp.filePath("m")});
        QCOMPARE(r.code, 2);
        QVERIFY2(r.err.contains("a shard of another spec"), qPrintable(r.err));
        r = cli({"sweep", "merge", mTmp.filePath("a1"), "-o", mTmp.filePath("m")});
        QCOMPARE(r.code, 1);
        QVERIFY2(r.err.contains("missing shard(s) 2/2"), qPrintable(r.err));
        r = cli({"sweep", "merge", mTmp.filePath("whole"), "-o", mTmp.filePath("m")});
        QCOMPARE(r.code, 2);
        QVERIFY2(r.err.contains("not a shard"), qPrintable(r.err));
        QVERIFY(!QFileInfo::exists(mTmp.filePath("m/results.csv")));
    }
};

QTEST_GUILESS_MAIN(TestSweep)
#include "tst_sweep.moc"
