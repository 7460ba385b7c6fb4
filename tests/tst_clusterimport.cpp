// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
// Issue 38, deliverable 1: a running cluster imported as a scenario. Kubernetes from kubectl's
// JSON (tests/data/cluster/kubernetes, assembled from published label sets), Slurm from what the
// Slurm installed here printed (tests/data/cluster/slurm, captured by capture.sh) and from a live
// single-node Slurm with GPU GRES; the result loads, validates (naming each placeholder) and
// evaluates like any scenario; bad input is refused naming the file and field, and nothing is
// written.
#include "calc/evaluate.h"
#include "clirunner.h"
#include "clusterimportsupport.h"
#include "document/commands.h"
#include "document/edit.h"
#include "io/clusterimport.h"
#include "io/scenarioreader.h"
#include "io/scenariowriter.h"
#include "model/validation.h"
#include "slurmcluster.h"
#include "testsupport.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

using namespace gp;
using namespace gp::test;

using gp::test::cluster::dump;
using gp::test::cluster::fixture;
using gp::test::cluster::input;
using gp::test::cluster::job;
using gp::test::cluster::nodeNamed;
using gp::test::cluster::tenantOf;

class TestClusterImport : public QObject
{
    Q_OBJECT

    QTemporaryDir mTmp;

private Q_SLOTS:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

    /// The Kubernetes fixture: nodes with their GPUs and sharing from GFD's labels and the device
    /// plugin's resources (and DRA's ResourceSlice), pods grouped by their owner workloads into
    /// jobs of their namespaces' tenants; finished and CPU-only pods left out.
    void kubernetesNodesAndSharing()
    {
        const auto r = io::importKubernetes(input(fixture("kubernetes/cluster.json")), {}, bundledCatalog());
        QVERIFY2(r.ok(), qPrintable(dump(r.issues)));
        const Scenario& s = *r;
        QCOMPARE(s.topology.nodes.size(), std::size_t(5)); // cpu-01 has no GPU
        QVERIFY(!nodeNamed(s, "cpu-01"));

        const Node* dgx = nodeNamed(s, "dgx-a100-01");
        QVERIFY(dgx);
        QCOMPARE(dgx->gpuId, std::string("a100-40gb"));
        QCOMPARE(dgx->gpuCount, 1);
        QCOMPARE(dgx->sharing.mode, SharingMode::Exclusive);

        // MIG 'mixed': the three instances of the GPU Operator's walk-through on one A100.
        const Node* mig = nodeNamed(s, "a100-mig-01");
        QVERIFY(mig);
        QCOMPARE(mig->gpuCount, 1);
        QCOMPARE(mig->sharing.mode, SharingMode::Mig);
        std::vector<std::string> profiles;
        for (const MigInstance& i : mig->sharing.migInstances)
            profiles.push_back(i.profile);
        std::sort(profiles.begin(), profiles.end());
        QCOMPARE(profiles, (std::vector<std::string>{"1g.5gb", "2g.10gb", "3g.20gb"}));

        // Time-slicing: 80 nvidia.com/gpu over 8 GPUs of 10 replicas, the "-SHARED" product.
        const Node* ts = nodeNamed(s, "h100-ts-01");
        QVERIFY(ts);
        QCOMPARE(ts->gpuId, std::string("h100-80gb"));
        QCOMPARE(ts->gpuCount, 8);
        QCOMPARE(ts->sharing.mode, SharingMode::TimeSlicing);
        QCOMPARE(ts->sharing.replicas, 10);

        // MPS: each of 4 clients gets a quarter of the compute and of the memory.
        const Node* mps = nodeNamed(s, "h100-mps-01");
        QVERIFY(mps);
        QCOMPARE(mps->gpuCount, 2);
        QCOMPARE(mps->sharing.mode, SharingMode::Mps);
        QCOMPARE(mps->sharing.mpsActiveThreadPct, 25);
        QVERIFY(mps->sharing.mpsMemoryLimitGiB);
        QCOMPARE(*mps->sharing.mpsMemoryLimitGiB, bundledCatalog().gpu("h100-80gb")->memoryUsableGiB / 4);

        // DRA only: the ResourceSlice's four H100s.
        const Node* dra = nodeNamed(s, "h100-dra-01");
        QVERIFY(dra);
        QCOMPARE(dra->gpuId, std::string("h100-80gb"));
        QCOMPARE(dra->gpuCount, 4);
    }

    void kubernetesWorkloadsBecomeJobs()
    {
        const auto r = io::importKubernetes(input(fixture("kubernetes/cluster.json")), {}, bundledCatalog());
        QVERIFY2(r.ok(), qPrintable(dump(r.issues)));
        const Scenario& s = *r;
        std::vector<std::string> tenants;
        for (const Tenant& t : s.tenants)
            tenants.push_back(t.name);
        std::sort(tenants.begin(), tenants.end());
        QCOMPARE(tenants, (std::vector<std::string>{"chat", "default", "research"}));

        struct Expect
        {
            const char* name;
            const char* workload;
            const char* tenant;
            int units;
            JobKind kind;
            const char* pinnedTo; // "" none
        };
        const Expect expected[] = {
            {"vllm-llama", "Deployment/vllm-llama", "chat", 1, JobKind::Inference, "a100-mig-01"},
            {"embedder", "Deployment/embedder", "chat", 1, JobKind::Inference, "a100-mig-01"},
            {"mig-mixed-example", "Pod/mig-mixed-example", "default", 1, JobKind::Inference, "a100-mig-01"},
            {"bert-finetune", "PyTorchJob/bert-finetune", "research", 8, JobKind::Pretraining, "h100-ts-01"},
            {"notebook", "StatefulSet/notebook", "research", 1, JobKind::Inference, "dgx-a100-01"},
            {"llama-70b", "LeaderWorkerSet/llama-70b", "chat", 4, JobKind::Inference, "h100-mps-01"},
            {"dra-trainer", "Pod/dra-trainer", "research", 2, JobKind::Inference, "h100-dra-01"},
        };
        std::size_t jobs = 0;
        for (const Tenant& t : s.tenants)
            jobs += t.jobs.size();
        QCOMPARE(jobs, std::size(expected)); // old-eval (Succeeded) and web (no GPU) left out
        for (const Expect& e : expected) {
            const Job* j = job(s, e.name);
            QVERIFY2(j, e.name);
            QVERIFY(j->imported);
            QCOMPARE(j->imported->source, std::string("kubernetes"));
            QCOMPARE(j->imported->workload, std::string(e.workload));
            QCOMPARE(tenantOf(s, e.name)->name, std::string(e.tenant));
            QCOMPARE(j->parallelism.gpus(), e.units);
            QCOMPARE(j->kind, e.kind);
            QCOMPARE(j->imported->unknown, (std::vector<std::string>{"model", "kind", "parallelism"}));
            QVERIFY(j->pin);
            QCOMPARE(s.topology.findNode(j->pin->node)->name, std::string(e.pinnedTo));
        }
        // A pod on one MIG instance is pinned to an instance of the profile it asked for.
        for (const auto& [name, profile] : {std::pair{"vllm-llama", "3g.20gb"}, std::pair{"embedder", "2g.10gb"},
                                            std::pair{"mig-mixed-example", "1g.5gb"}}) {
            const Pin& pin = *job(s, name)->pin;
            QVERIFY2(pin.gpu && pin.migInstance, name);
            const Node* node = s.topology.findNode(pin.node);
            QCOMPARE(node->sharingOf(*pin.gpu).migInstances.at(static_cast<std::size_t>(*pin.migInstance)).profile,
                     std::string(profile));
        }
        QCOMPARE(job(s, "bert-finetune")->imported->members,
                 (std::vector<std::string>{"bert-finetune-master-0", "bert-finetune-worker-0"}));
    }

    /// The placeholders are visible: validation warns once per field and job, naming the job and
    /// where it came from; the scenario still loads, writes, reads back equal and evaluates.
    void placeholdersAreNamedAndTheScenarioIsOrdinary()
    {
        const auto r = io::importKubernetes(input(fixture("kubernetes/cluster.json")), {}, bundledCatalog());
        QVERIFY2(r.ok(), qPrintable(dump(r.issues)));
        const Issues issues = validateScenario(*r, bundledCatalog());
        QVERIFY(!hasErrors(issues));
        int placeholders = 0;
        bool namedVllm = false;
        for (const Issue& i : issues) {
            if (i.message.find("placeholder") == std::string::npos)
                continue;
            ++placeholders;
            QVERIFY(!i.isError());
            if (i.message.find("job 'vllm-llama' was imported from kubernetes Deployment/vllm-llama in chat") == 0 &&
                i.path.find(".model") != std::string::npos)
                namedVllm = true;
        }
        QCOMPARE(placeholders, 7 * 3);
        QVERIFY2(namedVllm, qPrintable(dump(issues)));

        const QByteArray written = io::writeScenario(*r);
        QVERIFY(written.contains("\"imported\""));
        const auto back = io::readScenario(written, bundledCatalog());
        QVERIFY2(back.ok(), qPrintable(dump(back.issues)));
        QVERIFY(*back == *r);
        const calc::Evaluation ev = calc::evaluate(*back, bundledCatalog());
        QCOMPARE(ev.jobs.size(), std::size_t(7));
    }

    /// --tenant-label: tenants from a pod label; a pod without it keeps its namespace, said so.
    void tenantsFromAPodLabel()
    {
        io::ClusterImportOptions o;
        o.tenantLabel = "team";
        const auto r = io::importKubernetes(input(fixture("kubernetes/cluster.json")), o, bundledCatalog());
        QVERIFY2(r.ok(), qPrintable(dump(r.issues)));
        QCOMPARE(tenantOf(*r, "vllm-llama")->name, std::string("product"));
        QCOMPARE(tenantOf(*r, "embedder")->name, std::string("search"));
        QCOMPARE(tenantOf(*r, "bert-finetune")->name, std::string("nlp"));
        QCOMPARE(tenantOf(*r, "mig-mixed-example")->name, std::string("default"));
        QVERIFY2(dump(r.issues).contains("pod 'mig-mixed-example' has no label 'team'"), qPrintable(dump(r.issues)));
        // The input's notes name the input; the scenario's own warnings (no prices) do not.
        for (const Issue& i : r.issues)
            QVERIFY2((i.file == fixture("kubernetes/cluster.json").toStdString()) == (i.path.rfind("items", 0) == 0),
                     i.toString().c_str());
    }

    /// Bad Kubernetes input: refused with the file, the JSON path and why.
    void kubernetesBadInput_data()
    {
        QTest::addColumn<QByteArray>("from");
        QTest::addColumn<QByteArray>("to");
        QTest::addColumn<QString>("expected");
        QTest::newRow("another kind") << QByteArray("\"kind\": \"List\"") << QByteArray("\"kind\": \"Deployment\"")
                                      << "cluster.json: kind: 'Deployment' (apiVersion 'v1') is not a list";
        QTest::newRow("a node of another version")
            << QByteArray("\"apiVersion\": \"v1\",\n            \"kind\": \"Node\"")
            << QByteArray("\"apiVersion\": \"v2\",\n            \"kind\": \"Node\"")
            << "cluster.json: items[0].apiVersion: 'v2' of a Node: gpuplan reads v1";
        QTest::newRow("an unknown device")
            << QByteArray("\"nvidia.com/mig-2g.10gb\": \"1\"\n") << QByteArray("\"amd.com/gpu\": \"1\"\n")
            << "cluster.json: items[7].spec.containers[0].resources.limits[\"amd.com/gpu\"]: pod requests "
               "'amd.com/gpu', a device gpuplan does not model";
        QTest::newRow("an unknown GPU product")
            << QByteArray("\"nvidia.com/gpu.product\": \"A100-SXM4-40GB\",\n                    \"kubernetes")
            << QByteArray("\"nvidia.com/gpu.product\": \"Tesla-T4\",\n                    \"kubernetes")
            << "cluster.json: items[0].metadata.labels[\"nvidia.com/gpu.product\"]: GPU product 'Tesla-T4' is "
               "not a GPU gpuplan knows; name the catalog GPU it is with --map-gpu 'Tesla-T4=ID'";
        QTest::newRow("more GPUs than a node holds")
            << QByteArray("\"nvidia.com/gpu\": \"80\"") << QByteArray("\"nvidia.com/gpu\": \"999999\"")
            << "cluster.json: items[2].status.allocatable: node 'h100-ts-01' offers 999999 GPU devices; a gpuplan "
               "node has at most 64 GPUs";
        QTest::newRow("more GPU units than any cluster")
            << QByteArray("\"nvidia.com/mig-2g.10gb\": \"1\"\n")
            << QByteArray("\"nvidia.com/gpu\": 999999, \"nvidia.com/gpu.shared\": 999999\n")
            << "GPU units one imported workload may hold";
        QTest::newRow("a MIG profile the GPU lacks")
            << QByteArray("\"nvidia.com/mig-3g.20gb\": \"1\"") << QByteArray("\"nvidia.com/mig-3g.21gb\": \"1\"")
            << "'3g.21gb' is not a MIG profile of A100 40GB SXM (node 'a100-mig-01')";
    }
    void kubernetesBadInput()
    {
        QFETCH(QByteArray, from);
        QFETCH(QByteArray, to);
        QFETCH(QString, expected);
        QByteArray bytes = readAll(fixture("kubernetes/cluster.json"));
        QVERIFY2(bytes.contains(from), from.constData());
        bytes.replace(bytes.indexOf(from), from.size(), to);
        const auto r = io::importKubernetes({bytes, "cluster.json"}, {}, bundledCatalog());
        QVERIFY(!r.ok());
        QVERIFY2(dump(r.issues).contains(expected), qPrintable(dump(r.issues)));
    }

    void truncatedJsonSaysWhere()
    {
        const QByteArray bytes = readAll(fixture("kubernetes/cluster.json")).left(5000);
        const auto r = io::importKubernetes({bytes, "cut.json"}, {}, bundledCatalog());
        QVERIFY(!r.ok());
        QVERIFY2(dump(r.issues).startsWith("cut.json: ") && dump(r.issues).contains("line"),
                 qPrintable(dump(r.issues)));
    }

    /// --map-gpu names what the catalog does not: the T4 product becomes the GPU it is mapped to.
    void aProductMapIsTheUsersWord()
    {
        QByteArray bytes = readAll(fixture("kubernetes/cluster.json"));
        bytes.replace("\"A100-SXM4-40GB\",\n                    \"kubernetes",
                      "\"Tesla-T4\",\n                    \"kubernetes");
        io::ClusterImportOptions o;
        o.gpuMap["Tesla-T4"] = "l40s-48gb";
        const auto r = io::importKubernetes({bytes, "c.json"}, o, bundledCatalog());
        QVERIFY2(r.ok(), qPrintable(dump(r.issues)));
        QCOMPARE(nodeNamed(*r, "dgx-a100-01")->gpuId, std::string("l40s-48gb"));
        o.gpuMap["Tesla-T4"] = "t4-16gb";
        const auto bad = io::importKubernetes({bytes, "c.json"}, o, bundledCatalog());
        QVERIFY(!bad.ok());
        QVERIFY2(dump(bad.issues).contains("--map-gpu maps 'Tesla-T4' to 't4-16gb', which is not a GPU of the catalog"),
                 qPrintable(dump(bad.issues)));
    }

    /// The format's chain: a version-2 file loads; `imported` with a field it cannot hold is an
    /// error at its path.
    void theFormatCarriesImportedJobs()
    {
        const QByteArray v2 = R"({"format_version": 2, "name": "old",
            "topology": {"nodes": [{"id": "a", "template": "dgx-h100"}]}})";
        QVERIFY(io::readScenario(v2, bundledCatalog()).ok());
        const auto r = io::importKubernetes(input(fixture("kubernetes/cluster.json")), {}, bundledCatalog());
        QVERIFY(r.ok());
        QJsonObject root = QJsonDocument::fromJson(io::writeScenario(*r)).object();
        QJsonArray tenants = root["tenants"].toArray();
        QJsonObject tenant = tenants[0].toObject();
        QJsonArray jobs = tenant["jobs"].toArray();
        QJsonObject first = jobs[0].toObject();
        QJsonObject imported = first["imported"].toObject();
        imported["unknown"] = QJsonArray{"precision"};
        first["imported"] = imported;
        jobs[0] = first;
        tenant["jobs"] = jobs;
        tenants[0] = tenant;
        root["tenants"] = tenants;
        const auto bad = io::readScenario(QJsonDocument(root).toJson(), bundledCatalog());
        QVERIFY(!bad.ok());
        QVERIFY2(dump(bad.issues).contains("imported.unknown[0]: 'precision' must be model, kind or parallelism"),
                 qPrintable(dump(bad.issues)));
    }

    /// Setting a placeholder (the properties panel's and `gpuplan-cli edit --set`'s patch, the Edit
    /// Job dialog's rule) takes it off imported.unknown, and its warning goes with it.
    void settingAPlaceholderClearsIt()
    {
        const auto r = io::importKubernetes(input(fixture("kubernetes/cluster.json")), {}, bundledCatalog());
        QVERIFY(r.ok());
        Scenario s = *r;
        const std::string id = job(s, "vllm-llama")->id;
        auto patch = document::parseFieldPatch("jobs[" + id + "].model={\"preset\": \"llama3.1-8b\"}");
        QVERIFY(patch.ok());
        const auto edit = document::patchFields(s, bundledCatalog(), {*patch});
        QVERIFY2(edit.ok(), qPrintable(dump(edit.issues)));
        document::applyEdit(s, *edit, true);
        QCOMPARE(s.findJob(id)->imported->unknown, (std::vector<std::string>{"kind", "parallelism"}));
        int warnings = 0;
        for (const Issue& i : validateScenario(s, bundledCatalog()))
            if (i.message.find("job 'vllm-llama'") == 0)
                ++warnings;
        QCOMPARE(warnings, 2);
        // A patch of another field leaves the placeholders as they are.
        auto other = document::parseFieldPatch("jobs[" + id + "].name=\"vllm\"");
        QVERIFY(other.ok());
        const auto rename = document::patchFields(s, bundledCatalog(), {*other});
        QVERIFY(rename.ok());
        document::applyEdit(s, *rename, true);
        QCOMPARE(s.findJob(id)->imported->unknown, (std::vector<std::string>{"kind", "parallelism"}));
    }

    // ---- the command ---------------------------------------------------------------------------

    void cliWritesTheScenarioAndValidateNamesPlaceholders()
    {
        const QString out = mTmp.filePath("k8s.json");
        const Run r = cli(
            {"import-cluster", "--kubernetes", fixture("kubernetes/cluster.json"), "-o", out, "--name", "Prod cluster"},
            mTmp.path());
        QVERIFY2(r.code == 0, qPrintable(r.err));
        QVERIFY2(r.out.contains("5 nodes with 16 GPUs, 3 tenants, 7 jobs; 21 placeholders"), qPrintable(r.out));
        const auto s = io::readScenarioFile(out, bundledCatalog());
        QVERIFY(s.ok());
        QCOMPARE(s->name, std::string("Prod cluster"));
        const Run v = cli({"validate", out}, mTmp.path());
        QVERIFY2(v.out.contains("model is a placeholder") || v.err.contains("model is a placeholder"),
                 qPrintable(v.out + v.err));
        // Standard input, and standard output.
        QProcess p;
        p.start(qEnvironmentVariable("GPUPLAN_CLI"), {"import-cluster", "--kubernetes", "-", "-o", "-"});
        QVERIFY(p.waitForStarted());
        p.write(readAll(fixture("kubernetes/cluster.json")));
        p.closeWriteChannel();
        QVERIFY(p.waitForFinished(60000));
        QCOMPARE(p.exitCode(), 0);
        QVERIFY(io::readScenario(p.readAllStandardOutput(), bundledCatalog()).ok());
    }

    void cliRefusesBadInputAndWritesNothing()
    {
        const QString bad = mTmp.filePath("bad.json");
        QFile f(bad);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(readAll(fixture("kubernetes/cluster.json")).left(3000));
        f.close();
        const QString out = mTmp.filePath("never.json");
        const Run r = cli({"import-cluster", "--kubernetes", bad, "-o", out}, mTmp.path());
        QCOMPARE(r.code, 2);
        QVERIFY2(r.err.contains(bad + ": ") && r.err.contains("nothing written"), qPrintable(r.err));
        QVERIFY(!QFileInfo::exists(out));
        // An existing output stays as it was.
        const QString kept = mTmp.filePath("kept.json");
        QFile k(kept);
        QVERIFY(k.open(QIODevice::WriteOnly));
        k.write("{}");
        k.close();
        QCOMPARE(cli({"import-cluster", "--slurm-nodes", fixture("slurm/sinfo.json"), "--slurm-jobs",
                      fixture("slurm/squeue.json"), "-o", kept},
                     mTmp.path())
                     .code,
                 2);
        QCOMPARE(readAll(kept), QByteArray("{}"));
        // Usage errors.
        QCOMPARE(cli({"import-cluster", "-o", out}, mTmp.path()).code, 2);
        QCOMPARE(cli({"import-cluster", "--slurm-nodes", fixture("slurm/sinfo.json"), "-o", out}, mTmp.path()).code, 2);
        QCOMPARE(cli({"import-cluster", "--kubernetes", fixture("kubernetes/cluster.json")}, mTmp.path()).code, 2);
        const Run help = cli({"import-cluster", "--help"});
        QVERIFY(help.out.contains("--kubeconfig") && help.out.contains("--slurm-jobs") &&
                help.out.contains("--map-gpu"));
    }

    void cliImportsSlurmFiles()
    {
        const QString out = mTmp.filePath("slurm.json");
        const Run r =
            cli({"import-cluster", "--slurm-nodes", fixture("slurm/scontrol-nodes.txt"), "--slurm-jobs",
                 fixture("slurm/scontrol-jobs.txt"), "--map-gpu", "h100=h100-80gb", "--tenant-by", "user", "-o", out},
                mTmp.path());
        QVERIFY2(r.code == 0, qPrintable(r.err));
        const auto s = io::readScenarioFile(out, bundledCatalog());
        QVERIFY(s.ok());
        QCOMPARE(s->tenants.size(), std::size_t(1)); // every job ran as root
        QCOMPARE(s->tenants.front().name, std::string("root"));
    }

    /// The live Kubernetes path runs kubectl with the user's kubeconfig. No API server can be
    /// started here (no kube-apiserver, etcd or kind in Debian 12), so only its failure is
    /// checked: an unreachable server is a runtime failure naming kubectl, and nothing is written.
    void liveKubernetesWithoutAServer()
    {
        if (QStandardPaths::findExecutable("kubectl").isEmpty())
            QSKIP("kubectl is not installed");
        const QString config = mTmp.filePath("kubeconfig");
        QFile f(config);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("apiVersion: v1\nkind: Config\nclusters:\n- name: none\n  cluster:\n    server: https://127.0.0.1:9\n"
                "contexts:\n- name: none\n  context:\n    cluster: none\n    user: nobody\ncurrent-context: none\n"
                "users:\n- name: nobody\n  user:\n    token: x\n");
        f.close();
        const QString out = mTmp.filePath("live.json");
        const Run r = cli({"import-cluster", "--kubeconfig", config, "--context", "none", "--timeout", "10", "-o", out},
                          mTmp.path());
        QCOMPARE(r.code, 1);
        QVERIFY2(r.err.contains("kubectl") && r.err.contains("failed"), qPrintable(r.err));
        QVERIFY(!QFileInfo::exists(out));
        qInfo("no Kubernetes API server can be started here: the live path's success is not tested");
    }

    /// The live Slurm path on a single-node Slurm started here with GPU GRES (device nodes made
    /// for it): jobs submitted with --gres come back as jobs of their accounts.
    void liveSlurm()
    {
        SlurmCluster slurm;
        if (!slurm.start("gpu:h100:4,gpu:1g.10gb:7"))
            QSKIP(qPrintable("Slurm cannot run here: " + slurm.error()));
        const QString script = mTmp.filePath("sleep.sh");
        QFile f(script);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("#!/bin/sh\nsleep 60\n");
        f.close();
        f.setPermissions(f.permissions() | QFileDevice::ExeOwner);
        QVERIFY(slurm.submit(script, {"--job-name=trainer", "--account=research", "--gres=gpu:h100:2"}, mTmp.path()));
        QVERIFY(slurm.submit(script, {"--job-name=server", "--account=product", "--gres=gpu:1g.10gb:2"}, mTmp.path()));
        QTest::qWait(3000);
        const QString out = mTmp.filePath("live-slurm.json");
        const Run r = cli({"import-cluster", "--slurm", "--map-gpu", "h100=h100-80gb", "-o", out}, mTmp.path());
        slurm.cancelAll();
        slurm.waitIdle(30);
        QVERIFY2(r.code == 0, qPrintable(r.err));
        const auto s = io::readScenarioFile(out, bundledCatalog());
        QVERIFY(s.ok());
        QCOMPARE(s->topology.nodes.front().gpuCount, 5);
        QVERIFY(job(*s, "trainer") && job(*s, "server"));
        QCOMPARE(job(*s, "trainer")->parallelism.gpus(), 2);
        QCOMPARE(tenantOf(*s, "server")->name, std::string("product"));
    }
};

QTEST_GUILESS_MAIN(TestClusterImport)
#include "tst_clusterimport.moc"
