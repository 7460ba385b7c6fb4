// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
// The cluster-configuration export (docs/export.md): the YAML parses (read back with PyYAML,
// which the test command installs) and says what the scenario says; paths stay in the folder.
#include "calc/clusterconfig.h"
#include "calc/evaluate.h"
#include "io/clusterconfigwriter.h"
#include "io/scenarioreader.h"
#include "testsupport.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

using namespace gp;

namespace {

Scenario sample(const char* name)
{
    for (const QString& f : test::sampleFiles())
        if (f.endsWith(name))
            return *io::readScenarioFile(f, test::bundledCatalog()).value;
    qFatal("no sample %s", name);
}

/// Every YAML file under `dir`, parsed by PyYAML, as one JSON object keyed by relative path.
QJsonObject readYaml(const QString& dir)
{
    QProcess p;
    p.start("python3",
            {"-c",
             "import json, pathlib, sys, yaml\n"
             "root = pathlib.Path(sys.argv[1])\n"
             "out = {str(f.relative_to(root)): yaml.safe_load(f.read_text()) for f in root.rglob('*.yaml')}\n"
             "for k, v in out.items():\n"
             "    if k == 'device-plugin-config.yaml':\n"
             "        v['data'] = {n: yaml.safe_load(t) for n, t in v['data'].items()}\n"
             "print(json.dumps(out))\n",
             dir});
    if (!p.waitForFinished(60000) || p.exitCode() != 0)
        qFatal("python3 yaml failed: %s", p.readAllStandardError().constData());
    return QJsonDocument::fromJson(p.readAllStandardOutput()).object();
}

} // namespace

class TestExport : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void mixedLabExportsEveryConfigurationItNeeds()
    {
        const Scenario s = sample("02-mixed-sharing-lab.json");
        const calc::Evaluation ev = calc::evaluate(s, test::bundledCatalog());
        const ClusterConfigPlan plan = calc::buildClusterConfig(s, test::bundledCatalog(), ev);
        QTemporaryDir dir;
        const Status written = io::writeFiles(dir.path(), io::clusterConfigFiles(plan, s.name));
        QVERIFY2(written, written.errorText().c_str());
        const QJsonObject y = readYaml(dir.path());
        QVERIFY2(y.contains("mig-parted.yaml") && y.contains("device-plugin-config.yaml") &&
                     y.contains("node-labels.yaml"),
                 qPrintable(QStringList(y.keys()).join(", ")));

        // mig-parted: node-004's layouts as instance counts, GPUs grouped by identical layout.
        const QJsonObject migConfigs = y["mig-parted.yaml"].toObject()["mig-configs"].toObject();
        QCOMPARE(y["mig-parted.yaml"].toObject()["version"].toString(), QString("v1"));
        QVERIFY(migConfigs.contains("all-disabled"));
        const QJsonArray entries = migConfigs["gpuplan-mig-1"].toArray();
        const Node& migNode = s.topology.nodes[3];
        int gpusCovered = 0;
        for (const QJsonValue& e : entries) {
            const QJsonObject entry = e.toObject();
            QVERIFY(entry["mig-enabled"].toBool());
            for (const QJsonValue& d : entry["devices"].toArray()) {
                ++gpusCovered;
                std::map<std::string, int> expected;
                for (const MigInstance& inst : migNode.sharingOf(d.toInt()).migInstances)
                    ++expected[inst.profile];
                std::map<std::string, int> got;
                const QJsonObject devices = entry["mig-devices"].toObject();
                for (auto it = devices.begin(); it != devices.end(); ++it)
                    got[it.key().toStdString()] = it.value().toInt();
                QCOMPARE(got, expected);
            }
        }
        QCOMPARE(gpusCovered, migNode.gpuCount);

        // Device plugin: time-slicing x4 on the L40S node, MPS with two clients on the H100 node.
        const QJsonObject data = y["device-plugin-config.yaml"].toObject()["data"].toObject();
        QCOMPARE(data["ts-4"]
                     .toObject()["sharing"]
                     .toObject()["timeSlicing"]
                     .toObject()["resources"]
                     .toArray()[0]
                     .toObject()["replicas"]
                     .toInt(),
                 s.topology.nodes[1].sharing.replicas);
        QCOMPARE(data["mps-2"]
                     .toObject()["sharing"]
                     .toObject()["mps"]
                     .toObject()["resources"]
                     .toArray()[0]
                     .toObject()["replicas"]
                     .toInt(),
                 100 / s.topology.nodes[2].sharing.mpsActiveThreadPct);

        // Labels select them; notes say what the files cannot carry (vGPU, the MPS memory limit).
        const QJsonArray nodes = y["node-labels.yaml"].toObject()["nodes"].toArray();
        QCOMPARE(nodes.size(), static_cast<qsizetype>(s.topology.nodes.size()));
        QCOMPARE(nodes[1].toObject()["labels"].toObject()["nvidia.com/device-plugin.config"].toString(),
                 QString("ts-4"));
        QCOMPARE(nodes[3].toObject()["labels"].toObject()["nvidia.com/mig.config"].toString(),
                 QString("gpuplan-mig-1"));
        QVERIFY(nodes[0].toObject()["notes"].toArray()[0].toString().contains("vGPU Manager"));
        QVERIFY(nodes[2].toObject()["notes"].toArray()[0].toString().contains("MPS memory limit 38 GiB"));

        // Tenants: one pod per job and node, as many GPU resources as the job has units there.
        for (const Tenant& t : s.tenants) {
            const QJsonObject tf = y["tenants/" + QString::fromStdString(t.id) + ".yaml"].toObject();
            QCOMPARE(tf["tenant"].toString(), QString::fromStdString(t.id));
            int units = 0;
            for (const QJsonValue& pod : tf["pods"].toArray()) {
                const QJsonObject limits = pod.toObject()["resources"].toObject()["limits"].toObject();
                for (auto it = limits.begin(); it != limits.end(); ++it)
                    units += it.value().toInt();
                QCOMPARE(pod.toObject()["nodeSelector"]
                             .toObject()["gpuplan.io/tenant-" + QString::fromStdString(t.id)]
                             .toString(),
                         QString("true"));
            }
            int expected = 0;
            for (const calc::JobResult& r : ev.jobs)
                if (r.tenant == t.id)
                    expected += static_cast<int>(r.placement.size());
            QCOMPARE(units, expected);
        }
    }

    void migResourcesAreNamedByProfile()
    {
        // The DGX pod sample pins its chat service to MIG instances: its pods ask for mig-<profile>.
        const Scenario s = sample("01-dgx-h100-three-tenants.json");
        const calc::Evaluation ev = calc::evaluate(s, test::bundledCatalog());
        const ClusterConfigPlan plan = calc::buildClusterConfig(s, test::bundledCatalog(), ev);
        bool migPod = false;
        for (const TenantConfig& t : plan.tenants)
            for (const PodRequest& p : t.pods)
                for (const auto& [resource, count] : p.resources)
                    migPod = migPod || resource.rfind("nvidia.com/mig-", 0) == 0;
        QVERIFY(migPod);
    }

    // yaml-cpp writes every string of the plan so that it reads back as the same string:
    // quotes, newlines, colons, '#', and words YAML would take for booleans, nulls or numbers.
    void everyStringReadsBackAsItself()
    {
        const std::vector<std::string> hostile = {
            "say \"hi\"", "two\nlines", "key: value", "# not a comment", "true",
            "null",       "0x1F",       "- item",     "tab\there",       "\xc3\xa9t\xc3\xa9"};
        ClusterConfigPlan plan;
        for (std::size_t i = 0; i < hostile.size(); ++i) {
            NodeConfig n;
            n.id = "n" + std::to_string(i);
            n.name = hostile[i];
            n.labels = {{"gpuplan.io/label", hostile[i]}};
            n.notes = {hostile[i]};
            plan.nodes.push_back(n);
            TenantConfig t{"t" + std::to_string(i), hostile[i], {}, {hostile[i]}};
            plan.tenants.push_back(t);
        }
        QTemporaryDir dir;
        const Status written = io::writeFiles(dir.path(), io::clusterConfigFiles(plan, "scenario \"x\": y"));
        QVERIFY2(written, written.errorText().c_str());
        const QJsonObject y = readYaml(dir.path());
        const QJsonArray nodes = y["node-labels.yaml"].toObject()["nodes"].toArray();
        QCOMPARE(nodes.size(), static_cast<qsizetype>(hostile.size()));
        for (std::size_t i = 0; i < hostile.size(); ++i) {
            const QString want = QString::fromStdString(hostile[i]);
            const QJsonObject n = nodes[static_cast<qsizetype>(i)].toObject();
            QVERIFY(n["name"].isString());
            QCOMPARE(n["name"].toString(), want);
            QCOMPARE(n["labels"].toObject()["gpuplan.io/label"].toString(), want);
            QCOMPARE(n["notes"].toArray()[0].toString(), want);
            const QJsonObject t = y["tenants/t" + QString::number(i) + ".yaml"].toObject();
            QCOMPARE(t["name"].toString(), want);
            QCOMPARE(t["unplaced"].toArray()[0].toString(), want);
        }
    }

    void writesNeverLeaveTheFolder()
    {
        ClusterConfigPlan plan;
        plan.tenants.push_back({"../../escape", "Escape", {}, {}});
        plan.tenants.push_back({"/abs", "Abs", {}, {}});
        const auto files = io::clusterConfigFiles(plan, "x");
        for (const auto& [name, content] : files)
            QVERIFY2(!name.contains("..") && !name.startsWith('/'), qPrintable(name));
        QTemporaryDir dir;
        const Status refused = io::writeFiles(dir.path() + "/out", {{"../outside.yaml", "x"}});
        QVERIFY(!refused);
        QVERIFY2(refused.errorText().find("outside") != std::string::npos, refused.errorText().c_str());
        QVERIFY(!QFile::exists(dir.filePath("outside.yaml")));
        QVERIFY(io::writeFiles(dir.path() + "/out", files));
    }

    void cliWritesTheSameFilesAndRefusesBadInput()
    {
        QTemporaryDir dir;
        QProcess p;
        p.start(qEnvironmentVariable("GPUPLAN_CLI"),
                {"export-config", QDir(test::dataDir()).filePath("samples/02-mixed-sharing-lab.json"), "-o",
                 dir.filePath("cfg")});
        QVERIFY(p.waitForFinished(60000));
        QCOMPARE(p.exitCode(), 0);
        QVERIFY(QFile::exists(dir.filePath("cfg/mig-parted.yaml")));
        QVERIFY(QFile::exists(dir.filePath("cfg/README.md")));
        // No -o: usage error; an invalid scenario: its problems, exit 2, nothing written.
        p.start(qEnvironmentVariable("GPUPLAN_CLI"),
                {"export-config", QDir(test::dataDir()).filePath("samples/02-mixed-sharing-lab.json")});
        QVERIFY(p.waitForFinished(60000));
        QCOMPARE(p.exitCode(), 2);
        QFile bad(dir.filePath("bad.json"));
        QVERIFY(bad.open(QIODevice::WriteOnly));
        bad.write("{\"format_version\": 1, \"name\": 5}");
        bad.close();
        p.start(qEnvironmentVariable("GPUPLAN_CLI"), {"export-config", bad.fileName(), "-o", dir.filePath("none")});
        QVERIFY(p.waitForFinished(60000));
        QCOMPARE(p.exitCode(), 2);
        QVERIFY(!QFile::exists(dir.filePath("none")));
    }
};

QTEST_GUILESS_MAIN(TestExport)
#include "tst_export.moc"
