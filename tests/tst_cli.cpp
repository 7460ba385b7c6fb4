// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
// gpuplan-cli as a user runs it: exit codes, output formats, and that bad input changes
// nothing.
#include "clirunner.h"
#include "testsupport.h"

#include <QCryptographicHash>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QSignalSpy>
#include <QSqlDatabase>
#include <QSqlQuery>
#include <QTemporaryDir>
#include <QTest>

using namespace gp::test;

class TestCli : public QObject
{
    Q_OBJECT

    QTemporaryDir mHome;

private Q_SLOTS:
    void usageErrorsExitTwo()
    {
        QCOMPARE(cli({}, mHome.path()).code, 2);
        QCOMPARE(cli({"frobnicate"}, mHome.path()).code, 2);
        QCOMPARE(cli({"validate"}, mHome.path()).code, 2);
        QCOMPARE(cli({"validate", "--bogus", "x"}, mHome.path()).code, 2);
        QCOMPARE(cli({"mig-layouts"}, mHome.path()).code, 2);
        QCOMPARE(cli({"library", "export", "1"}, mHome.path()).code, 2); // no -o
        QCOMPARE(cli({"library", "delete", "abc"}, mHome.path()).code, 2);
    }

    void everySubcommandHasHelp_data()
    {
        QTest::addColumn<QString>("command");
        for (const char* c : {"validate", "summary", "mig-layouts", "library", "format", "edit", "memory", "evaluate",
                              "replay", "simulate", "export-config", "compare", "report"})
            QTest::newRow(c) << QString(c);
    }
    void everySubcommandHasHelp()
    {
        QFETCH(QString, command);
        const Run r = cli({command, "--help"}, mHome.path());
        QCOMPARE(r.code, 0);
        QVERIFY2(r.out.startsWith("Usage: gpuplan-cli " + command), qPrintable(r.out));
        QVERIFY(r.out.contains("--catalog"));
    }

    void migLayoutsJson()
    {
        const Run r = cli({"mig-layouts", "--gpu", "A100-40GB", "--profiles", "1g.5gb,2g.10gb,3g.20gb,4g.20gb,7g.40gb",
                           "--maximal", "--json"},
                          mHome.path());
        QCOMPARE(r.code, 0);
        const QJsonObject o = QJsonDocument::fromJson(r.out.toUtf8()).object();
        QCOMPARE(o.value("gpu").toString(), QString("a100-40gb"));
        QCOMPARE(o.value("count").toInt(), 19);
        const QJsonArray layouts = o.value("layouts").toArray();
        QCOMPARE(layouts.size(), 19);
        QCOMPARE(layouts.at(0).toArray().at(0).toObject().value("profile").toString(), QString("7g.40gb"));
        QCOMPARE(layouts.at(0).toArray().at(0).toObject().value("start").toInt(), 0);
        for (const auto& l : layouts)
            for (const auto& inst : l.toArray())
                QVERIFY(inst.toObject().contains("profile") && inst.toObject().contains("start"));
    }

    void migLayoutsText()
    {
        const Run r = cli({"mig-layouts", "--gpu", "h100-80gb", "--profiles", "3g.40gb"}, mHome.path());
        QCOMPARE(r.code, 0);
        QVERIFY2(r.out.contains("3 MIG layout(s) of H100 SXM 80GB"), qPrintable(r.out));
        QVERIFY(r.out.contains("3g.40gb@0 + 3g.40gb@4"));
    }

    void migLayoutsBadInput()
    {
        Run r = cli({"mig-layouts", "--gpu", "L40S-48GB"}, mHome.path());
        QCOMPARE(r.code, 2);
        QVERIFY(r.err.contains("does not support MIG"));
        r = cli({"mig-layouts", "--gpu", "V100"}, mHome.path());
        QCOMPARE(r.code, 2);
        QVERIFY(r.err.contains("no GPU 'V100'"));
        r = cli({"mig-layouts", "--gpu", "A100-40GB", "--profiles", "3g.40gb"}, mHome.path());
        QCOMPARE(r.code, 2);
        QVERIFY(r.err.contains("'3g.40gb' is not a MIG profile of A100 40GB SXM"));
    }

    void libraryLifecycle()
    {
        QTemporaryDir tmp;
        const QString db = tmp.filePath("lib.sqlite");
        const QString sample = gp::test::sampleFiles().first();
        Run r = cli({"library", "import", sample, "--db", db}, mHome.path());
        QVERIFY2(r.code == 0, qPrintable(r.out + r.err));
        QVERIFY(r.out.contains("as 1"));
        r = cli({"library", "list", "--db", db, "--json"}, mHome.path());
        QCOMPARE(r.code, 0);
        const QJsonArray list = QJsonDocument::fromJson(r.out.toUtf8()).array();
        QCOMPARE(list.size(), 1); // --db is not seeded with the samples
        QCOMPARE(list.at(0).toObject().value("kpis").toObject().value("gpus").toDouble(), 64.0);
        const QString exported = tmp.filePath("out.json");
        r = cli({"library", "export", "1", "-o", exported, "--db", db}, mHome.path());
        QCOMPARE(r.code, 0);
        QCOMPARE(hashOf(exported), hashOf(sample)); // exactly as stored
        r = cli({"library", "export", "7", "-o", exported, "--db", db}, mHome.path());
        QCOMPARE(r.code, 2);
        QVERIFY(r.err.contains("no such scenario"));
        r = cli({"library", "delete", "1", "--db", db}, mHome.path());
        QCOMPARE(r.code, 0);
        r = cli({"library", "list", "--db", db}, mHome.path());
        QVERIFY(r.out.contains("0 scenario(s)"));
    }

    void libraryImportValidatesFirst()
    {
        QTemporaryDir tmp;
        const QString db = tmp.filePath("lib.sqlite");
        const QString bad = tmp.filePath("bad.json");
        QFile f(bad);
        f.open(QIODevice::WriteOnly);
        f.write(
            "{\"format_version\": 1, \"name\": \"x\", \"topology\": {\"nodes\": [{\"id\": \"n\", \"gpu\": \"v100\", "
            "\"gpu_count\": 1}]}}");
        f.close();
        const Run r = cli({"library", "import", bad, "--db", db}, mHome.path());
        QCOMPARE(r.code, 2);
        QVERIFY(r.out.contains(bad + ": topology.nodes[0].gpu: 'v100' is not a GPU in the catalog"));
        QVERIFY(cli({"library", "list", "--db", db}, mHome.path()).out.contains("0 scenario(s)"));
    }

    void defaultLibraryIsSeeded()
    {
        QTemporaryDir home;
        const Run r = cli({"library", "list", "--json"}, home.path());
        QCOMPARE(r.code, 0);
        QCOMPARE(QJsonDocument::fromJson(r.out.toUtf8()).array().size(), gp::test::sampleFiles().size());
        QVERIFY(QFile::exists(home.path() + "/data/gpuplan/library.sqlite"));
    }

    void newerLibraryFailsCleanly()
    {
        QTemporaryDir tmp;
        const QString db = tmp.filePath("garbage.sqlite");
        QFile f(db);
        f.open(QIODevice::WriteOnly);
        f.write(QByteArray("garbage").repeated(1000));
        f.close();
        const QByteArray before = hashOf(db);
        const Run r = cli({"library", "list", "--db", db}, mHome.path());
        QCOMPARE(r.code, 1);
        QVERIFY(r.err.contains("not a gpuplan library"));
        QCOMPARE(hashOf(db), before);
    }

    void damagedReadOnlyOrLockedLibrarySaysSoAndStaysAsItWas_data()
    {
        QTest::addColumn<QString>("kind");
        QTest::addColumn<QString>("expected");
        QTest::newRow("truncated") << "truncated"
                                   << "the library is damaged";
        QTest::newRow("read-only") << "readonly"
                                   << "the file is read-only";
        QTest::newRow("newer") << "newer"
                               << "library schema 99 is newer than this gpuplan reads";
    }
    void damagedReadOnlyOrLockedLibrarySaysSoAndStaysAsItWas()
    {
        QFETCH(QString, kind);
        QFETCH(QString, expected);
        QTemporaryDir tmp;
        const QString db = tmp.filePath("lib.sqlite");
        for (const QString& f : gp::test::sampleFiles().mid(0, 3))
            QCOMPARE(cli({"library", "import", f, "--db", db}, mHome.path()).code, 0);
        const Run ok = cli({"library", "check", "--db", db}, mHome.path());
        QCOMPARE(ok.code, 0);
        QVERIFY2(ok.out.contains(": ok (3 scenarios, 3 revisions, 0 autosaved drafts)"), qPrintable(ok.out));
        if (kind == "truncated") {
            QFile f(db);
            QVERIFY(f.open(QIODevice::ReadWrite) && f.resize(f.size() / 2));
        } else if (kind == "readonly") {
            QVERIFY(QFile::setPermissions(db, QFile::ReadOwner | QFile::ReadGroup));
        } else {
            QSqlDatabase c = QSqlDatabase::addDatabase("QSQLITE", "newer");
            c.setDatabaseName(db);
            QVERIFY(c.open());
            QSqlQuery(c).exec("PRAGMA user_version = 99");
            c.close();
            c = QSqlDatabase();
            QSqlDatabase::removeDatabase("newer");
        }
        const QByteArray before = hashOf(db);
        for (const QStringList& args : {QStringList{"library", "list"}, QStringList{"library", "check"},
                                        QStringList{"library", "import", gp::test::sampleFiles().first()}}) {
            const Run r = cli(args + QStringList{"--db", db}, mHome.path());
            QCOMPARE(r.code, 1);
            QVERIFY2(r.err.startsWith(db + ": " + expected), qPrintable(r.err));
        }
        // The workbench says the same, and starts no further.
        QProcess gui;
        gui.start(qEnvironmentVariable("GPUPLAN_GUI"), {"--db", db, "--screenshot", tmp.filePath("never.png")});
        QVERIFY(gui.waitForFinished(60000));
        QCOMPARE(gui.exitCode(), 1);
        const QString guiErr = QString::fromUtf8(gui.readAllStandardError());
        QVERIFY2(guiErr.contains("The scenario library cannot be opened:\n\n" + db + ": " + expected),
                 qPrintable(guiErr));
        QVERIFY(!QFile::exists(tmp.filePath("never.png")));
        QCOMPARE(hashOf(db), before);
    }

    void summaryOfTheSamples()
    {
        const Run r = cli({"summary", "--json"}, mHome.path());
        QCOMPARE(r.code, 0);
        const QJsonArray arr = QJsonDocument::fromJson(r.out.toUtf8()).array();
        QCOMPARE(arr.size(), gp::test::sampleFiles().size());
        int total = 0;
        for (const auto& v : arr) {
            const QJsonObject s = v.toObject();
            total += s.value("gpus").toInt();
            // The headless main job shows what gpuplan computes, not only counts: the same KPIs
            // as evaluate --json, with the SLA violations among them.
            const QJsonObject k = s.value("kpis").toObject();
            const Run ev = cli({"evaluate", s.value("file").toString(), "--json"}, mHome.path());
            QCOMPARE(ev.code, 0);
            const QJsonObject o = QJsonDocument::fromJson(ev.out.toUtf8()).object();
            QCOMPARE(k, o.value("kpis").toObject());
            int missing = 0;
            for (const auto& j : o.value("jobs").toArray())
                missing += !j.toObject().value("placed").toBool() || !j.toObject().value("meets_sla").toBool();
            QCOMPARE(k.value("sla_violations").toInt(), missing);
        }
        QCOMPARE(total, 2000 + 512 + 64 + 32 + 8 + 144); // 144: the two GB200 NVL72 racks of sample 06
        const Run text = cli({"summary"}, mHome.path());
        QCOMPARE(text.code, 0);
        const int table = text.out.indexOf("KPIs of every scenario");
        QVERIFY2(table > 0, qPrintable(text.out));
        // The cost's one decomposition, per scenario, and unused memory as headroom (issue 36).
        QCOMPARE(text.out.count(QRegularExpression("cost = useful \\$[0-9,]+ \\+ idle \\$[0-9,]+ \\+ sharing "
                                                   "overhead \\$[0-9,]+ \\+ stranded \\$[0-9,]+")),
                 arr.size());
        QCOMPARE(text.out.count("unused memory on the jobs' GPUs"), arr.size());
        QVERIFY(
            text.out.indexOf(QRegularExpression("SCENARIO +VRAM +PENALTY +SLA MISS +\\$/MONTH +WASTE/MONTH +TARGET"),
                             table) > table);
        for (const auto& v : arr)
            QVERIFY2(text.out.indexOf(v.toObject().value("name").toString().left(47), table) > table,
                     qPrintable(v.toObject().value("name").toString()));
    }

    void versionNamesTheBackendsAndCudaRefusesClearly()
    {
        const Run v = cli({"--version"}, mHome.path());
        QCOMPARE(v.code, 0);
        const QStringList lines = v.out.trimmed().split('\n');
        QCOMPARE(lines.size(), 2);
        QVERIFY(lines[0].startsWith("gpuplan-cli "));
        QVERIFY2(lines[1].startsWith("simulation backends: CPU"), qPrintable(lines[1]));
        const QString sample = gp::test::sampleFiles().first();
        const Run cuda = cli({"simulate", sample, "--trials", "50", "--backend", "cuda"}, mHome.path());
        if (lines[1].contains("CPU only")) {
            QVERIFY(lines[1].contains("nvcc was not found at configure time"));
            QCOMPARE(cuda.code, 1);
            QVERIFY2(cuda.err.contains("the CUDA backend is not usable: built without CUDA"), qPrintable(cuda.err));
        } else if (lines[1].contains("not usable here")) {
            QCOMPARE(cuda.code, 1);
            QVERIFY2(cuda.err.contains("the CUDA backend is not usable: "), qPrintable(cuda.err));
        } else {
            QVERIFY(lines[1].contains("and CUDA, on "));
            QCOMPARE(cuda.code, 0);
        }
    }

    void memoryCalculatorJson()
    {
        Run r = cli({"memory", "--params", "7.5B", "--dp", "64", "--zero", "1", "--json"}, mHome.path());
        QCOMPARE(r.code, 0);
        QJsonObject o = QJsonDocument::fromJson(r.out.toUtf8()).object();
        QCOMPARE(o.value("model_states_bytes_per_gpu").toDouble(), 31406250000.0); // ZeRO Figure 1
        for (const char* unknown : {"activations_bytes_per_layer", "activations_bytes_per_gpu", "total_bytes_per_gpu",
                                    "peak_layer", "layers"})
            QVERIFY2(o.value(unknown).isNull(), unknown); // unknown without a shape, never invented
        r = cli({"memory", "--model", "gpt3-175b", "--tp", "8", "--pp", "8", "--sequence-parallel", "--recompute",
                 "selective", "--json"},
                mHome.path());
        QCOMPARE(r.code, 0);
        o = QJsonDocument::fromJson(r.out.toUtf8()).object();
        QCOMPARE(o.value("activations_bytes_per_layer").toDouble(), 34.0 / 8 * 2048 * 12288); // Korthikanti
        const QJsonArray layers = o.value("layers").toArray();
        QCOMPARE(layers.size(), 1 + 12 + 0); // stage 0: embedding and its 12 blocks
        QVERIFY(!o.value("peak_layer").toString().isEmpty());
        double sum = o.value("runtime_bytes_per_gpu").toDouble();
        for (const auto& l : layers)
            sum += l.toObject().value("total_bytes").toDouble();
        QVERIFY(qAbs(sum - o.value("total_bytes_per_gpu").toDouble()) < 1.0);
        r = cli({"memory", "--model", "llama3-8b", "--tp", "3"}, mHome.path());
        QCOMPARE(r.code, 2);
        QVERIFY2(r.err.contains("parallelism.tp: 3 does not divide attention heads (32)"), qPrintable(r.err));
        QCOMPARE(cli({"memory", "--params", "-3"}, mHome.path()).code, 2);
        QCOMPARE(cli({"memory", "--model", "llama3-8b", "--params", "8B"}, mHome.path()).code, 2);
        QCOMPARE(cli({"memory", "--model", "llama3-8b", "--recompute", "some"}, mHome.path()).code, 2);
    }

    void memoryCalculatorSwitches()
    {
        const auto json = [&](QStringList args) {
            const Run r = cli(QStringList{"memory"} + args + QStringList{"--json"}, mHome.path());
            if (r.code != 0)
                qWarning() << r.err;
            return QJsonDocument::fromJson(r.out.toUtf8()).object();
        };
        // Megatron's fp32 main gradients: 18 bytes per parameter instead of 16.
        const QStringList gpt3{"--model", "gpt3-175b", "--tp", "8", "--pp", "8"};
        const double plain = json(gpt3).value("model_states_bytes_per_gpu").toDouble();
        const double main =
            json(gpt3 + QStringList{"--main-grads-fp32"}).value("model_states_bytes_per_gpu").toDouble();
        QVERIFY(plain > 0);
        QVERIFY2(qAbs(main / plain - 18.0 / 16.0) < 1e-12, qPrintable(QString::number(main / plain)));
        // A custom model starts from the same defaults as a scenario's custom model: gated FFN,
        // no dropout. --no-gated-ffn and --dropout change what they describe.
        const QStringList custom{"--params", "6.7B",  "--layers", "32",      "--hidden", "4096",  "--heads",
                                 "32",       "--ffn", "11008",    "--vocab", "32000",    "--seq", "4096"};
        const QJsonObject byDefault = json(custom);
        QCOMPARE(byDefault, json(custom + QStringList{"--gated-ffn"}));
        const QJsonObject plainFfn = json(custom + QStringList{"--no-gated-ffn"});
        QVERIFY(plainFfn.value("activations_bytes_per_gpu").toDouble() <
                byDefault.value("activations_bytes_per_gpu").toDouble());
        const QJsonObject dropout = json(custom + QStringList{"--dropout"});
        QVERIFY(dropout.value("activations_bytes_per_gpu").toDouble() >
                byDefault.value("activations_bytes_per_gpu").toDouble());
        QCOMPARE(dropout.value("model_states_bytes_per_gpu"), byDefault.value("model_states_bytes_per_gpu"));
        // Contradictions and misplaced switches are usage errors.
        QCOMPARE(cli(QStringList{"memory"} + custom + QStringList{"--gated-ffn", "--no-gated-ffn"}, mHome.path()).code,
                 2);
        QCOMPARE(cli({"memory", "--model", "llama3-8b", "--dropout"}, mHome.path()).code, 2);
        // The interleaved schedule: 1 + (p - 1)/(p v) of the plain first stage's activations,
        // and it needs the micro-batches in groups of pp.
        const double plainAct =
            json(gpt3 + QStringList{"--micro-batches", "16"}).value("activations_bytes_per_gpu").toDouble();
        const double interAct = json(gpt3 + QStringList{"--micro-batches", "16", "--virtual-stages", "3"})
                                    .value("activations_bytes_per_gpu")
                                    .toDouble();
        QVERIFY2(interAct > 1.2 * plainAct && interAct < 1.3 * plainAct,
                 qPrintable(QString::number(interAct / plainAct)));
        const Run few = cli(QStringList{"memory"} + gpt3 + QStringList{"--micro-batches", "4", "--virtual-stages", "3"},
                            mHome.path());
        QCOMPARE(few.code, 2);
        QVERIFY2(few.err.contains("virtual_stages: interleaving needs the micro-batches per step"),
                 qPrintable(few.err));
        QCOMPARE(cli(QStringList{"memory"} + gpt3 + QStringList{"--virtual-stages", "5"}, mHome.path()).code, 2);
        // Attention kernels: GPT-3 keeps dropout masks, so it is unfused unless told; flash
        // keeps no s x s scores.
        QCOMPARE(json(gpt3), json(gpt3 + QStringList{"--attention", "unfused"}));
        // Per layer, flash drops Korthikanti's 5as²b/t and keeps a fp32 log-sum-exp 4asb/t.
        const double unfusedLayer = json(gpt3).value("activations_bytes_per_layer").toDouble();
        const double flashLayer =
            json(gpt3 + QStringList{"--attention", "flash"}).value("activations_bytes_per_layer").toDouble();
        QCOMPARE(unfusedLayer - flashLayer, (5.0 * 96 * 2048 * 2048 - 4.0 * 96 * 2048) / 8);
        const Run kernels = cli(QStringList{"memory"} + gpt3 + QStringList{"--attention", "fused"}, mHome.path());
        QCOMPARE(kernels.code, 2);
        QVERIFY2(kernels.err.contains("--attention must be auto, flash or unfused"), qPrintable(kernels.err));
        const Run infer = cli({"memory", "--model", "gpt3-175b", "--mode", "infer", "--main-grads-fp32"}, mHome.path());
        QCOMPARE(infer.code, 2);
        QVERIFY2(infer.err.contains("main_grads_fp32: applies to training only"), qPrintable(infer.err));
    }

    void evaluateJsonContract()
    {
        const QString sample = gp::test::sampleFiles().first();
        const Run r = cli({"evaluate", sample, "--json"}, mHome.path());
        QCOMPARE(r.code, 0);
        const QJsonObject o = QJsonDocument::fromJson(r.out.toUtf8()).object();
        const QJsonObject k = o.value("kpis").toObject();
        for (const char* key : {"vram_utilization", "allocation_ratio", "stranded_bytes", "fragmentation",
                                "mean_penalty", "max_penalty", "meets_target", "cost_per_month_usd",
                                "waste_per_month_usd", "waste_breakdown_usd", "unplaced_jobs", "sla_violations"})
            QVERIFY2(k.contains(key), key);
        for (const char* ratio : {"vram_utilization", "allocation_ratio", "fragmentation"})
            QVERIFY(k.value(ratio).toDouble() >= 0 && k.value(ratio).toDouble() <= 1);
        const QJsonObject w = k.value("waste_breakdown_usd").toObject();
        QVERIFY(qAbs(w.value("idle").toDouble() + w.value("stranded").toDouble() + w.value("overhead").toDouble() -
                     k.value("waste_per_month_usd").toDouble()) < 1e-6);
        // One cost decomposition (issue 36): exactly four parts that add up to the bill; the
        // waste is three of them, so it never exceeds the cost.
        const QJsonObject parts = k.value("cost_breakdown_usd").toObject();
        QCOMPARE(parts.keys(), QStringList({"idle", "overhead", "stranded", "useful"}));
        double sum = 0.0;
        for (const QString& part : parts.keys()) {
            QVERIFY2(parts.value(part).toDouble() >= 0.0, qPrintable(part));
            sum += parts.value(part).toDouble();
        }
        const double cost = k.value("cost_per_month_usd").toDouble();
        QVERIFY(qAbs(sum - cost) < 0.01);
        QVERIFY(qAbs(parts.value("idle").toDouble() + parts.value("overhead").toDouble() +
                     parts.value("stranded").toDouble() - k.value("waste_per_month_usd").toDouble()) < 1e-6);
        QVERIFY(k.value("waste_per_month_usd").toDouble() <= cost);
        QVERIFY(k.value("unused_memory_bytes").toDouble() > 0);
        QVERIFY(k.value("unused_memory_fraction").toDouble() > 0 && k.value("unused_memory_fraction").toDouble() < 1);
        QCOMPARE(k.value("stranded_bytes").toDouble(), k.value("unused_memory_bytes").toDouble());
        // Each tenant's parts add up to its cost; with what no tenant holds, to the bill.
        const QJsonObject tenantCost = o.value("tenant_cost_per_month_usd").toObject();
        const QJsonObject tenantParts = o.value("tenant_cost_breakdown_usd").toObject();
        QCOMPARE(tenantParts.keys(), tenantCost.keys());
        double tenants = 0.0;
        for (const QString& t : tenantParts.keys()) {
            const QJsonObject p = tenantParts.value(t).toObject();
            QCOMPARE(p.keys(), parts.keys());
            const double total = p.value("useful").toDouble() + p.value("overhead").toDouble() +
                                 p.value("idle").toDouble() + p.value("stranded").toDouble();
            QVERIFY(qAbs(total - tenantCost.value(t).toDouble()) < 0.01);
            tenants += total;
        }
        QVERIFY(qAbs(tenants + parts.value("idle").toDouble() + parts.value("stranded").toDouble() - cost) < 0.01);
        const QJsonArray jobs = o.value("jobs").toArray();
        QCOMPARE(jobs.size(), 5);
        for (const auto& v : jobs) {
            const QJsonObject j = v.toObject();
            for (const char* key :
                 {"id", "tenant", "placed", "reason", "placement", "memory_per_gpu_bytes", "breakdown", "step_time_s",
                  "tokens_per_s", "mfu", "days_to_complete", "penalty", "oom_risk", "cost_usd", "step_breakdown_s",
                  "serving", "penalty_breakdown", "noisiest_neighbour", "slowdown_vs_dedicated"})
                QVERIFY2(j.contains(key), key);
            // The sharing penalty by resource adds up to the penalty.
            const QJsonObject byResource = j.value("penalty_breakdown").toObject();
            QCOMPARE(byResource.keys(),
                     QStringList({"compute", "context_switch", "memory_bandwidth", "pcie_network", "static_loss"}));
            double penalty = 0.0;
            for (const QString& part : byResource.keys())
                penalty += byResource.value(part).toDouble();
            QVERIFY(qAbs(penalty - j.value("penalty").toDouble()) <= 1e-9 * std::max(1.0, penalty));
            QVERIFY(j.value("noisiest_neighbour").isNull() || j.value("noisiest_neighbour").isString());
            if (j.value("serving").isObject()) {
                const QJsonObject v = j.value("serving").toObject();
                for (const char* key : {"ttft_s", "itl_s", "output_tokens_per_s", "requests_per_s", "max_batch",
                                        "kv_cache_bytes_per_gpu", "ttft_p99_s", "itl_p99_s", "slo_attainment"})
                    QVERIFY2(v.value(key).isDouble(), key);
                QVERIFY(v.value("ttft_p99_s").toDouble() >= v.value("ttft_s").toDouble());
                QVERIFY(v.value("itl_p99_s").toDouble() >= v.value("itl_s").toDouble());
                QVERIFY(v.value("max_batch").toInt() >= 1);
                QCOMPARE(j.value("step_time_s").toDouble(), v.value("itl_s").toDouble());
                // Cost per million tokens (issue 39's contract): allocation and used basis.
                QCOMPARE(v.value("deployment").toString(), QString("aggregated"));
                for (const char* key :
                     {"cost_per_million_input_tokens_usd", "cost_per_million_output_tokens_usd",
                      "cost_per_million_input_tokens_usd_used_basis", "cost_per_million_output_tokens_usd_used_basis"})
                    QVERIFY2(v.value(key).isDouble() && v.value(key).toDouble() > 0, key);
                QVERIFY(v.value("cost_per_million_output_tokens_usd_used_basis").toDouble() <=
                        v.value("cost_per_million_output_tokens_usd").toDouble() * (1 + 1e-12));
                QVERIFY(k.value("cost_per_million_output_tokens_usd").isDouble());
                QVERIFY(o.value("tenant_token_cost_usd").toObject().contains(j.value("tenant").toString()));
            } else {
                QVERIFY(j.value("serving").isNull());
            }
            // The nine parts of the step (the MoE all-to-all and the CP ring among them), in seconds, add up
            // to the step.
            const QJsonObject parts = j.value("step_breakdown_s").toObject();
            QCOMPARE(parts.keys(), QStringList({"bubble", "compute", "cp_exposed", "dp_exposed", "ep_all_to_all",
                                                "optimizer", "pp_exposed", "recompute", "tp_exposed"}));
            double sum = 0.0;
            for (const QString& part : parts.keys())
                sum += parts.value(part).toDouble();
            const double step = j.value("step_time_s").toDouble();
            QVERIFY2(step > 0 && qAbs(sum - step) <= 1e-9 * step, qPrintable(j.value("id").toString()));
        }
        QVERIFY(o.value("links").toArray().size() == 12);
        QVERIFY(o.value("elapsed_ms").toDouble() > 0);
        QCOMPARE(cli({"evaluate", sample, "--policy", "worst_fit"}, mHome.path()).code, 2);
        QCOMPARE(cli({"evaluate", sample, "--policy", "fragmentation_aware"}, mHome.path()).code, 0);
        QVERIFY(!o.contains("alternatives")); // only when asked
        // The mixed-sharing sample's time-sliced pair name each other, in JSON and in text.
        const QString mixed = gp::test::dataDir() + "/samples/02-mixed-sharing-lab.json";
        const Run m = cli({"evaluate", mixed, "--json"}, mHome.path());
        QCOMPARE(m.code, 0);
        QStringList named;
        for (const auto& v : QJsonDocument::fromJson(m.out.toUtf8()).object().value("jobs").toArray())
            if (v.toObject().value("noisiest_neighbour").isString())
                named << v.toObject().value("id").toString() + ">" +
                             v.toObject().value("noisiest_neighbour").toString();
        QVERIFY2(named.contains("notebooks>notebooks-eval") && named.contains("notebooks-eval>notebooks"),
                 qPrintable(named.join(' ')));
        const Run text = cli({"evaluate", mixed}, mHome.path());
        QVERIFY2(text.out.contains("penalty by resource: context switch") &&
                     text.out.contains("noisiest neighbour Notebook evaluation server") &&
                     text.out.contains("slowdown against whole dedicated GPUs"),
                 qPrintable(text.out));
    }

    void evaluateAlternativesContract()
    {
        const QString sample = gp::test::sampleFiles().first();
        const Run r = cli({"evaluate", sample, "--json", "--alternatives"}, mHome.path());
        QCOMPARE(r.code, 0);
        const QJsonArray alts = QJsonDocument::fromJson(r.out.toUtf8()).object().value("alternatives").toArray();
        QCOMPARE(alts.size(), 6);
        const char* modes[] = {"exclusive", "passthrough", "mig", "vgpu", "time_slicing", "mps"};
        for (int i = 0; i < 6; ++i) {
            const QJsonObject a = alts.at(i).toObject();
            QCOMPARE(a.value("mode").toString(), QString(modes[i]));
            for (const char* key : {"offered", "setting", "candidates_tried", "nodes_kept", "isolation", "kpis"})
                QVERIFY2(a.contains(key), key);
            QVERIFY(a.value("offered").toBool()); // the sample's H100s offer every mode
            QVERIFY(a.value("kpis").toObject().contains("mean_penalty"));
        }
        QCOMPARE(alts.at(0).toObject().value("kpis").toObject().value("mean_penalty").toDouble(), 0.0);
        QCOMPARE(alts.at(4).toObject().value("isolation").toObject().value("memory").toInt(), 0);
        const Run text = cli({"evaluate", sample, "--alternatives"}, mHome.path());
        QCOMPARE(text.code, 0);
        QVERIFY(text.out.contains("sharing trade-offs") && text.out.contains("Time-slicing"));
    }

    void simulateJsonContract()
    {
        const QString sample = gp::test::sampleFiles().first();
        const Run r =
            cli({"simulate", sample, "--trials", "300", "--seed", "5", "--backend", "cpu", "--json"}, mHome.path());
        QCOMPARE(r.code, 0);
        const QJsonObject o = QJsonDocument::fromJson(r.out.toUtf8()).object();
        QCOMPARE(o.value("backend").toString(), QString("cpu"));
        QCOMPARE(o.value("trials").toInt(), 300);
        QCOMPARE(o.value("seed").toInt(), 5);
        QVERIFY(o.value("trials_per_second").toDouble() > 0 && o.value("elapsed_ms").toDouble() > 0);
        bool training = false;
        for (const auto& v : o.value("jobs").toArray()) {
            const QJsonObject j = v.toObject();
            QVERIFY(j.value("slowdown").toObject().contains("p95"));
            if (j.value("completion_days").isObject()) {
                training = true;
                const QJsonObject c = j.value("completion_days").toObject();
                QVERIFY(c.value("p5").toDouble() <= c.value("p50").toDouble());
                QVERIFY(c.value("p50").toDouble() <= c.value("p95").toDouble());
                QVERIFY(c.value("p95").toDouble() <= c.value("p99").toDouble());
                const double miss = j.value("deadline_miss_probability").toDouble();
                QVERIFY(miss >= 0 && miss <= 1);
            }
        }
        QVERIFY(training);
        // Serving jobs: TTFT and ITL percentiles of their requests and the chance of missing an objective.
        int serving = 0;
        for (const auto& v : o.value("jobs").toArray()) {
            const QJsonObject j = v.toObject();
            QVERIFY(j.contains("ttft_s") && j.contains("itl_s") && j.contains("slo_miss_probability"));
            if (!j.value("ttft_s").isObject()) {
                QVERIFY(j.value("ttft_s").isNull() && j.value("slo_miss_probability").isNull());
                continue;
            }
            ++serving;
            for (const char* key : {"ttft_s", "itl_s"}) {
                const QJsonObject q = j.value(key).toObject();
                QVERIFY2(q.value("p50").toDouble() > 0, key);
                QVERIFY(q.value("p50").toDouble() <= q.value("p95").toDouble());
                QVERIFY(q.value("p95").toDouble() <= q.value("p99").toDouble());
            }
            const double miss = j.value("slo_miss_probability").toDouble(-1);
            QVERIFY(miss >= 0 && miss <= 1);
        }
        QCOMPARE(serving, 2);
        for (const auto& v : o.value("links").toArray())
            QVERIFY(v.toObject().value("load_gbps").toObject().contains("p99"));
        // The same seed on the same backend: the same output, timing aside.
        const Run again =
            cli({"simulate", sample, "--trials", "300", "--seed", "5", "--backend", "cpu", "--json"}, mHome.path());
        QJsonObject a = o, b = QJsonDocument::fromJson(again.out.toUtf8()).object();
        for (auto* x : {&a, &b}) {
            x->remove("elapsed_ms");
            x->remove("trials_per_second");
        }
        QCOMPARE(a, b);
        QCOMPARE(cli({"simulate", sample, "--backend", "tpu"}, mHome.path()).code, 2);
        QCOMPARE(cli({"simulate", sample, "--trials", "0"}, mHome.path()).code, 2);
    }

    void brokenUserCatalogStopsEverything()
    {
        QTemporaryDir tmp;
        const QString cat = tmp.filePath("cat.json");
        QFile f(cat);
        f.open(QIODevice::WriteOnly);
        f.write("{\"format_version\": 1, \"gpus\": [{\"id\": \"x\"}]}");
        f.close();
        const Run r = cli({"validate", "--catalog", cat, gp::test::sampleFiles().first()}, mHome.path());
        QCOMPARE(r.code, 1);
        QVERIFY2(r.err.contains(cat + ": gpus[0].vendor: is missing"), qPrintable(r.err));
        // The workbench refuses to start on it with the same words, instead of half a catalog.
        QProcess gui;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert("HOME", mHome.path());
        gui.setProcessEnvironment(env);
        gui.start(qEnvironmentVariable("GPUPLAN_GUI"), {"--catalog", cat, "--screenshot", tmp.filePath("never.png")});
        QVERIFY(gui.waitForFinished(60000));
        QCOMPARE(gui.exitCode(), 1);
        const QString guiErr = QString::fromUtf8(gui.readAllStandardError());
        QVERIFY2(guiErr.contains("The hardware catalog cannot be loaded") &&
                     guiErr.contains(cat + ": gpus[0].vendor: is missing"),
                 qPrintable(guiErr));
        QVERIFY(!QFile::exists(tmp.filePath("never.png")));
    }
};

QTEST_GUILESS_MAIN(TestCli)
#include "tst_cli.moc"
