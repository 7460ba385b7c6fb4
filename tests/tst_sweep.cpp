// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
// Sweeps (docs/sweeps.md): the whole grid and its shards — from --shard, from a Slurm job array's
// variables, from a Kubernetes Indexed Job's — merge into the whole run byte for byte; a real
// single-node Slurm runs the shipped sbatch script as an array of 4 with the same result (or, where
// Slurm cannot run, the test says why and runs the script with the array variables set); every
// bad spec, shard and merge is refused with what and where. Replay sweeps (traces × policies ×
// seeds × inflate) replay each point as `gpuplan-cli replay` does and shard alike.
#include "slurmcluster.h"
#include "study/sweep.h"
#include "testsupport.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
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
    void sameAsWhole(const QStringList& dirs, const QString& merged, const QString& whole = "whole")
    {
        const Run m = cli(QStringList{"sweep", "merge"} + dirs + QStringList{"-o", merged});
        QVERIFY2(m.code == 0, qPrintable(m.err));
        QCOMPARE(read(merged + "/results.csv"), read(mTmp.filePath(whole + "/results.csv")));
        QCOMPARE(read(merged + "/sweep.json"), read(mTmp.filePath(whole + "/sweep.json")));
    }

    /// A small trace of our own (the Alibaba files need not be here): 6 nodes of two GPU models,
    /// GPU-sharing tasks and whole-GPU tasks.
    QString mSample;
    void writeTraces()
    {
        QByteArray nodes = "sn,cpu_milli,memory_mib,gpu,model\n";
        for (int i = 0; i < 6; ++i)
            nodes += QString("node-%1,32000,131072,%2,%3\n")
                         .arg(i)
                         .arg(i < 4 ? 8 : 4)
                         .arg(i < 4 ? "V100M16" : "T4")
                         .toUtf8();
        writeSpec("traces/nodes.csv", nodes);
        QByteArray share = "name,cpu_milli,memory_mib,num_gpu,gpu_milli,gpu_spec,qos,pod_phase,creation_time,"
                           "deletion_time,scheduled_time\n";
        QByteArray whole = share;
        for (int i = 0; i < 40; ++i) {
            share += QString("s-%1,2000,8192,1,%2,,LS,Running,0,1,0\n").arg(i).arg(150 + (i * 137) % 700).toUtf8();
            whole += QString("w-%1,4000,16384,%2,1000,%3,LS,Running,0,1,0\n")
                         .arg(i)
                         .arg(1 + i % 3)
                         .arg(i % 5 == 0 ? "T4" : "")
                         .toUtf8();
        }
        writeSpec("traces/share.csv", share);
        writeSpec("traces/whole.csv", whole);
        mSample = QDir(test::dataDir()).absoluteFilePath("samples/01-dgx-h100-three-tenants.json");
    }

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(mTmp.isValid());
        QVERIFY(QDir(mTmp.path()).mkpath("traces"));
        writeTraces();
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

    /// Traces × policies × seeds × inflate: each row is what `gpuplan-cli replay` prints for the
    /// point (the same replay, not a sweep's own); shards merge byte for byte; a trace file changed
    /// between shards makes them another sweep.
    void aReplaySweepReplaysEveryTracePolicyAndSeed()
    {
        const QString spec = writeSpec("traces/replay.json", QString(R"({"kind": "replay", "nodes": "nodes.csv",
            "axes": [{"axis": "trace", "values": ["share.csv", {"nodes": "nodes.csv", "tasks": "whole.csv"},
                                                  {"scenario": "%1"}]},
                     {"axis": "policy", "values": ["fgd", "bestfit", "random"]},
                     {"axis": "seed", "from": 41, "to": 42},
                     {"axis": "inflate", "values": [1.0, 1.3]}]})")
                                                                 .arg(mSample)
                                                                 .toUtf8());
        const Run whole = cli({"sweep", spec, "-o", mTmp.filePath("replay-whole")});
        QVERIFY2(whole.code == 0, qPrintable(whole.err));
        QVERIFY2(whole.out.contains("36 of 36 points"), qPrintable(whole.out));
        const QList<QByteArray> lines = read(mTmp.filePath("replay-whole/results.csv")).split('\n');
        QCOMPARE(lines.size(), 1 + 36 + 1);
        QCOMPARE(lines[0], QByteArray("point,trace,policy,seed,inflate,node_count,gpu_count,tasks,failed_tasks,"
                                      "allocation_pct_at_100,fragmentation_pct_at_100,fragmentation_rate_pct_at_100,"
                                      "allocation_pct_at_end,unallocated_gpus_at_end,error"));
        const QString traces = mTmp.filePath("traces");
        const Result<study::SweepTable> table =
            study::readSweepResults(read(mTmp.filePath("replay-whole/results.csv")));
        QVERIFY(table);
        QCOMPARE(table->kind, study::SweepKind::Replay);
        int checked = 0;
        for (int point : {0, 7, 14, 23, 29, 35}) {
            const study::SweepTable::Row& row = table->rows.at(static_cast<std::size_t>(point));
            QCOMPARE(row.point, point);
            QVERIFY2(row.error.empty(), row.error.c_str());
            // What the point is, from the grid's order (the last axis fastest).
            const int trace = point / 12, policy = point / 4 % 3, seed = 41 + point / 2 % 2;
            const QString inflate = point % 2 ? "1.3" : "1";
            QCOMPARE(QString::fromStdString(row.values[2]), QString::number(seed));
            QStringList args{"replay",
                             "--policy",
                             QStringList{"fgd", "bestfit", "random"}[policy],
                             "--seed",
                             QString::number(seed),
                             "--inflate",
                             inflate,
                             "--json"};
            if (trace == 2)
                args << "--scenario" << mSample;
            else
                args << "--nodes" << traces + "/nodes.csv"
                     << "--tasks" << traces + (trace == 0 ? "/share.csv" : "/whole.csv");
            const Run r = cli(args);
            QVERIFY2(r.code == 0, qPrintable(r.err));
            const QJsonObject o = QJsonDocument::fromJson(r.out.toUtf8()).object();
            QCOMPARE(row.figures.at("tasks"), o.value("tasks").toDouble());
            QCOMPARE(row.figures.at("failed_tasks"), o.value("failed_tasks").toDouble());
            const QJsonArray allocation = o.value("allocation_pct").toArray();
            const QJsonArray arrived = o.value("arrived_pct").toArray();
            QVERIFY(!allocation.isEmpty());
            auto tenDigits = [](const QJsonValue& v) { return QString::number(v.toDouble(), 'g', 10).toDouble(); };
            QCOMPARE(row.figures.at("allocation_pct_at_end"), tenDigits(allocation.last()));
            const auto at100 = std::find(arrived.begin(), arrived.end(), QJsonValue(100));
            QVERIFY(at100 != arrived.end());
            QCOMPARE(row.figures.at("allocation_pct_at_100"), tenDigits(allocation[at100 - arrived.begin()]));
            ++checked;
        }
        QCOMPARE(checked, 6);
        QVERIFY(QFileInfo::exists(mTmp.filePath("replay-whole/charts/1-trace.svg")));
        QVERIFY(read(mTmp.filePath("replay-whole/charts/1-trace.svg")).contains("share")); // the trace's name

        QStringList dirs;
        for (int k = 1; k <= 3; ++k) {
            dirs << mTmp.filePath(QString("replay-%1").arg(k));
            const Run r = cli({"sweep", spec, "-o", dirs.back(), "--shard", QString("%1/3").arg(k)});
            QVERIFY2(r.code == 0, qPrintable(r.err));
        }
        sameAsWhole(dirs, mTmp.filePath("replay-merged"), "replay-whole");

        // The last shard run again over a changed task file: not the same sweep.
        writeSpec("traces/share.csv",
                  read(mTmp.filePath("traces/share.csv")) + "s-extra,1000,4096,1,500,,LS,Running,0,1,0\n");
        const Run changed = cli({"sweep", spec, "-o", mTmp.filePath("replay-3b"), "--shard", "3/3"});
        QCOMPARE(changed.code, 0);
        const Run refused =
            cli({"sweep", "merge", dirs[0], dirs[1], mTmp.filePath("replay-3b"), "-o", mTmp.filePath("replay-m2")});
        QCOMPARE(refused.code, 2);
        QVERIFY2(refused.err.contains("a shard of another spec"), qPrintable(refused.err));
        writeTraces();
    }

    /// With the Alibaba trace at hand: a point of the paper's default task file under FGD, as
    /// `gpuplan-cli replay` replays it.
    void aReplaySweepOverTheAlibabaTrace()
    {
        const QString dir = qEnvironmentVariable("GPUPLAN_TRACE_DIR");
        if (dir.isEmpty() || !QFileInfo::exists(dir + "/openb_pod_list_default.csv"))
            QSKIP("GPUPLAN_TRACE_DIR does not hold the Alibaba GPU trace v2023");
        const QString spec =
            writeSpec("alibaba.json", QString(R"({"kind": "replay", "nodes": "%1/openb_node_list_gpu_node.csv",
            "axes": [{"axis": "trace", "values": ["%1/openb_pod_list_default.csv"]},
                     {"axis": "policy", "values": ["fgd", "packing"]}, {"axis": "seed", "values": [42]}]})")
                                          .arg(dir)
                                          .toUtf8());
        const Run r = cli({"sweep", spec, "-o", mTmp.filePath("alibaba")});
        QVERIFY2(r.code == 0, qPrintable(r.err));
        const Result<study::SweepTable> table = study::readSweepResults(read(mTmp.filePath("alibaba/results.csv")));
        QVERIFY(table);
        QCOMPARE(table->rows.size(), std::size_t{2});
        const Run one = cli({"replay", "--nodes", dir + "/openb_node_list_gpu_node.csv", "--tasks",
                             dir + "/openb_pod_list_default.csv", "--policy", "fgd", "--seed", "42", "--json"});
        QCOMPARE(one.code, 0);
        const QJsonObject o = QJsonDocument::fromJson(one.out.toUtf8()).object();
        const auto& fgd = table->rows[0].figures;
        const auto& packing = table->rows[1].figures;
        QCOMPARE(fgd.at("tasks"), o.value("tasks").toDouble());
        QCOMPARE(fgd.at("allocation_pct_at_end"),
                 QString::number(o.value("allocation_pct").toArray().last().toDouble(), 'g', 10).toDouble());
        QVERIFY2(fgd.at("unallocated_gpus_at_end") < packing.at("unallocated_gpus_at_end"),
                 qPrintable(QString("FGD %1 GPUs, packing %2")
                                .arg(fgd.at("unallocated_gpus_at_end"))
                                .arg(packing.at("unallocated_gpus_at_end"))));
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
        // Issue 34: a key twice, a node count or a growth that would build gigabytes.
        QTest::newRow("a key twice") << "{" + base + ", \"trials\": 1, \"trials\": 2, \"axes\": []}"
                                     << "trials: duplicate key 'trials'";
        QTest::newRow("a billion nodes") << "{" + base + ", \"axes\": [{\"axis\": \"nodes\", \"values\": [1e9]}]}"
                                         << "axes[0].values[0]: a node count is a whole number from 1 to 200000";
        QTest::newRow("growth x1000") << "{" + base +
                                             ", \"axes\": [{\"axis\": \"growth\", \"tenant\": \"frontier\", "
                                             "\"values\": [100000]}]}"
                                      << "axes[0].values[0]: a growth is a number from 0 to 1000";
        const QByteArray traces = mTmp.filePath("traces").toUtf8();
        const QByteArray replay = "\"kind\": \"replay\", \"nodes\": \"" + traces + "/nodes.csv\"";
        const QByteArray trace = "{\"axis\": \"trace\", \"values\": [\"" + traces + "/share.csv\"]}";
        QTest::newRow("bad kind") << "{\"kind\": \"grid\", " + base + ", \"axes\": []}"
                                  << "kind: 'grid' must be what_if or replay";
        QTest::newRow("a what-if axis in a replay sweep")
            << "{" + replay + ", \"axes\": [" + trace + ", {\"axis\": \"nodes\", \"values\": [4]}]}"
            << "axes[1].axis: 'nodes' is an axis of what-if sweeps; this spec's kind is replay";
        QTest::newRow("a replay axis in a what-if sweep")
            << "{" + base + ", \"axes\": [{\"axis\": \"policy\", \"values\": [\"fgd\"]}]}"
            << "axes[0].axis: 'policy' is an axis of replay sweeps";
        QTest::newRow("unknown policy") << "{" + replay + ", \"axes\": [" + trace +
                                               ", {\"axis\": \"policy\", \"values\": [\"fgd\", \"tetris\"]}]}"
                                        << "axes[1].values[1]: not a policy";
        QTest::newRow("seed 0") << "{" + replay + ", \"axes\": [" + trace + ", {\"axis\": \"seed\", \"values\": [0]}]}"
                                << "axes[1].values[0]: a seed is a whole number from 1";
        QTest::newRow("a reversed seed range")
            << "{" + replay + ", \"axes\": [" + trace + ", {\"axis\": \"seed\", \"from\": 9, \"to\": 3}]}"
            << "axes[1].to: a seed range runs from 1";
        QTest::newRow("a task file without a node file") << "{\"kind\": \"replay\", \"axes\": [" + trace + "]}"
                                                         << "needs the spec's \"nodes\"";
        QTest::newRow("a missing task file")
            << "{" + replay + ", \"axes\": [{\"axis\": \"trace\", \"values\": [\"nowhere.csv\"]}]}"
            << "nowhere.csv";
        QTest::newRow("nothing to replay") << "{" + replay + ", \"axes\": [{\"axis\": \"seed\", \"values\": [1]}]}"
                                           << "axes: a replay sweep needs a trace axis, or a base scenario";
        QTest::newRow("trials in a replay sweep") << "{" + replay + ", \"trials\": 5, \"axes\": [" + trace + "]}"
                                                  << "trials: unknown field";
        QTest::newRow("an axis twice") << "{" + replay + ", \"axes\": [" + trace + ", " + trace + "]}"
                                       << "axes[1]: a second trace axis";
        QTest::newRow("inflate out of range")
            << "{" + replay + ", \"axes\": [" + trace + ", {\"axis\": \"inflate\", \"values\": [12]}]}"
            << "axes[1].values[0]: an inflate is a number above 0 and at most 10";
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

    void seedRangeEndingAtIntMax()
    {
        // `for (int seed = from; seed <= to; ++seed)` overflowed at INT_MAX (undefined behaviour).
        const QByteArray spec =
            "{\"base\": \"" +
            QDir(test::dataDir()).absoluteFilePath("samples/01-dgx-h100-three-tenants.json").toUtf8() +
            "\", \"axes\": [{\"axis\": \"seed\", \"from\": 2147483646, \"to\": 2147483647}]}";
        const Result<study::SweepSpec> r = study::readSweepSpec(spec, mTmp.path());
        QVERIFY2(r.ok(), r.errorText().c_str());
        QCOMPARE(r->points(), 2LL);
        QCOMPARE(r->axes.front().values.back().toDouble(), 2147483647.0);
    }

    void aGrowthThatWouldBuildGigabytesIsAPointsError()
    {
        // 1000 % a month for 120 months: far more jobs than a scenario may have; the point says so
        // instead of copying jobs until memory runs out.
        const QByteArray spec =
            "{\"base\": \"" +
            QDir(test::dataDir()).absoluteFilePath("samples/01-dgx-h100-three-tenants.json").toUtf8() +
            "\", \"axes\": [{\"axis\": \"growth\", \"tenant\": \"frontier\", \"months\": 120, "
            "\"values\": [1000]}]}";
        const Result<study::SweepSpec> r = study::readSweepSpec(spec, mTmp.path());
        QVERIFY2(r.ok(), r.errorText().c_str());
        const Result<study::SweepInputs> in = study::loadSweepInputs(*r, test::bundledCatalog());
        QVERIFY(in.ok());
        const Result<Scenario> point = study::sweepPointScenario(*in->base, test::bundledCatalog(), *r, 0);
        QVERIFY(!point.ok());
        QVERIFY2(QString::fromStdString(point.errorText()).contains("jobs; a scenario has at most 1000000"),
                 point.errorText().c_str());
    }

    void forgedMergeInputsAreRefused()
    {
        // A shard's sweep.json edited by hand: a split into two billion shards (the list of
        // missing shards filled memory) and a point count of 1e300 (cast to an integer: UB).
        QVERIFY(QDir().mkpath(mTmp.filePath("forged")));
        QVERIFY(QFile::copy(mTmp.filePath("whole/results.csv"), mTmp.filePath("forged/results.csv")));
        const QJsonObject whole = QJsonDocument::fromJson(read(mTmp.filePath("whole/sweep.json"))).object();
        auto forge = [&](const char* key, const QJsonValue& value) {
            QJsonObject o = whole;
            o.insert("shard", "1/2");
            o.insert(key, value);
            QFile::remove(mTmp.filePath("forged/sweep.json"));
            writeSpec("forged/sweep.json", QJsonDocument(o).toJson());
            return cli({"sweep", "merge", mTmp.filePath("forged"), "-o", mTmp.filePath("forged-out")});
        };
        Run r = forge("shard", "1/2000000000");
        QCOMPARE(r.code, 2);
        QVERIFY2(r.err.contains("shard '1/2000000000' is not I/N with 1 <= I <= N <= 100000"), qPrintable(r.err));
        r = forge("points", 1e300);
        QCOMPARE(r.code, 2);
        QVERIFY2(r.err.contains("points must be a whole number from 0 to 100000"), qPrintable(r.err));
        QVERIFY(!QFileInfo::exists(mTmp.filePath("forged-out")));
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
