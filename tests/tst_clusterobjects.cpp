// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
// The plan's sharing as DRA objects for the NVIDIA DRA driver and as HAMi requests (docs/export.md):
// every object validates against the published schemas (tests/data/schemas, python3-jsonschema),
// the check fails on a wrong field or type, and neither export drops a job, a unit or a sharing
// setting of the evaluated plan.
#include "calc/clusterconfig.h"
#include "calc/evaluate.h"
#include "clirunner.h"
#include "exportcheck.h"
#include "io/clusterconfigwriter.h"
#include "io/scenarioreader.h"
#include "testsupport.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>

#include <cmath>
#include <map>
#include <set>

using namespace gp;

namespace {

Scenario sample(const char* name)
{
    for (const QString& f : test::sampleFiles())
        if (f.endsWith(name))
            return *io::readScenarioFile(f, test::bundledCatalog()).value;
    qFatal("no sample %s", name);
}

const std::vector<io::ClusterExportFormat> kAll = {io::ClusterExportFormat::GpuOperator, io::ClusterExportFormat::Dra,
                                                   io::ClusterExportFormat::Hami};

struct Exported
{
    Scenario scenario;
    calc::Evaluation ev;
};

Exported exportInto(const QString& dir, const char* name)
{
    Exported e{sample(name), {}};
    e.ev = calc::evaluate(e.scenario, test::bundledCatalog());
    const Status written =
        io::writeFiles(dir, io::clusterExportFiles(calc::buildClusterConfig(e.scenario, test::bundledCatalog(), e.ev),
                                                   e.scenario.name, kAll));
    if (!written)
        qFatal("export failed: %s", written.errorText().c_str());
    return e;
}

using test::Check;
Check validate(const QString& dir) { return test::validateExport(dir); }
QJsonObject readYaml(const QString& dir) { return test::readExportYaml(dir); }

/// Every object of the DRA export by namespace/name.
std::map<QString, QJsonObject> draObjects(const QJsonObject& y)
{
    std::map<QString, QJsonObject> out;
    for (auto it = y.begin(); it != y.end(); ++it)
        if (it.key().startsWith("dra/") && !it.key().endsWith("placement.yaml"))
            for (const QJsonValue& d : it.value().toArray()) {
                const QJsonObject m = d.toObject()["metadata"].toObject();
                out[m["namespace"].toString() + "/" + m["name"].toString()] = d.toObject();
            }
    return out;
}

/// What the evaluation put where, by job and node: whole GPUs, MIG instances by profile, and
/// shared units per GPU index, with the node's sharing of that GPU.
struct Expected
{
    int whole = 0;
    std::map<QString, int> mig;
    std::map<int, int> shared;
    const Node* node = nullptr;
};
std::map<std::pair<std::string, std::string>, Expected> expectedUnits(const Exported& e)
{
    std::map<std::pair<std::string, std::string>, Expected> out;
    for (const calc::JobResult& r : e.ev.jobs)
        for (const calc::UnitLocation& u : r.placement) {
            const Node* n = e.scenario.topology.findNode(u.node);
            Expected& x = out[{r.id, n->name.empty() ? n->id : n->name}];
            x.node = n;
            const SharingConfig& c = n->sharingOf(u.gpu);
            if (c.mode == SharingMode::Mig)
                ++x.mig[QString::fromStdString(u.slot.substr(0, u.slot.find('@')))];
            else if (c.mode == SharingMode::TimeSlicing || c.mode == SharingMode::Mps)
                ++x.shared[u.gpu];
            else
                ++x.whole;
        }
    return out;
}

int placedJobs(const Exported& e)
{
    int n = 0;
    for (const calc::JobResult& r : e.ev.jobs)
        n += r.placed ? 1 : 0;
    return n;
}

} // namespace

class TestClusterObjects : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY2(test::schemaToolsPresent(), "python3-jsonschema and python3-yaml are needed (scripts/deps.sh)");
    }

    /// The schemas accept what the NVIDIA DRA driver's own demo specs apply.
    void theDriversOwnExamplesValidate()
    {
        const Check c = validate(test::fixturesDir() + "/schemas/driver-demo");
        QVERIFY2(c.code == 0, qPrintable(c.output));
    }

    void everySampleValidates_data()
    {
        QTest::addColumn<QString>("file");
        for (const QString& f : test::sampleFiles())
            QTest::newRow(qPrintable(QFileInfo(f).fileName())) << QFileInfo(f).fileName();
    }
    void everySampleValidates()
    {
        QFETCH(QString, file);
        QTemporaryDir dir;
        exportInto(dir.path(), qPrintable(file));
        QVERIFY(QFileInfo::exists(dir.filePath("dra/placement.yaml")));
        QVERIFY(QFileInfo::exists(dir.filePath("hami/README.md")));
        const Check c = validate(dir.path());
        QVERIFY2(c.code == 0, qPrintable(c.output));
    }

    /// The check can fail: a misspelt field, a string where an integer belongs, an unknown sharing
    /// strategy and a field the ComputeDomain CRD does not have are each named with their path.
    void theCheckFailsOnAWrongFieldOrType_data()
    {
        QTest::addColumn<QString>("sample");
        QTest::addColumn<QString>("pattern");
        QTest::addColumn<QString>("replacement");
        QTest::addColumn<QString>("named");
        QTest::newRow("misspelt MPS field") << "02-mixed-sharing-lab.json"
                                            << "defaultActiveThreadPercentage:"
                                            << "activeThreadPercentage:"
                                            << "'activeThreadPercentage' was unexpected";
        QTest::newRow("count as a string") << "01-dgx-h100-three-tenants.json"
                                           << "count: (\\d+)"
                                           << "count: \"\\1\""
                                           << "is not of type 'integer'";
        QTest::newRow("unknown strategy") << "02-mixed-sharing-lab.json"
                                          << "strategy: MPS"
                                          << "strategy: Mps"
                                          << "'Mps' is not one of";
        QTest::newRow("percentage over 100") << "02-mixed-sharing-lab.json"
                                             << "defaultActiveThreadPercentage: \\d+"
                                             << "defaultActiveThreadPercentage: 150"
                                             << "150 is greater than";
        QTest::newRow("field the CRD lacks") << "06-gb200-nvl72-rack.json"
                                             << "  channel:"
                                             << "  numNode: 2\n  channel:"
                                             << "'numNode' was unexpected";
        QTest::newRow("request without class") << "05-mig-inference-farm.json"
                                               << "deviceClassName:"
                                               << "deviceClass:"
                                               << "'deviceClassName' is a required property";
    }
    void theCheckFailsOnAWrongFieldOrType()
    {
        QFETCH(QString, sample);
        QFETCH(QString, pattern);
        QFETCH(QString, replacement);
        QFETCH(QString, named);
        QTemporaryDir dir;
        exportInto(dir.path(), qPrintable(sample));
        QVERIFY(validate(dir.path()).code == 0);
        bool changed = false;
        for (const QString& name : QDir(dir.filePath("dra/tenants")).entryList({"*.yaml"})) {
            const QString path = dir.filePath("dra/tenants/" + name);
            QString text = QString::fromUtf8(test::readAll(path));
            const QString before = text;
            text.replace(QRegularExpression(pattern), replacement);
            if (text != before) {
                changed = true;
                QFile f(path);
                QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
                f.write(text.toUtf8());
            }
        }
        QVERIFY2(changed, "the sample's export has no such field: the row proves nothing");
        const Check c = validate(dir.path());
        QCOMPARE(c.code, 1);
        QVERIFY2(c.output.contains(named), qPrintable(c.output));
        QVERIFY2(c.output.contains("dra/tenants/"), qPrintable(c.output)); // names the file
    }

    /// Round trip of the DRA export against the evaluation: every job placed or listed unplaced,
    /// every pod's claims holding exactly its whole GPUs, MIG instances by profile and shared GPUs,
    /// and every shared GPU's claim carrying the node's time-slicing or MPS setting.
    void draKeepsEveryJobUnitAndSetting_data()
    {
        QTest::addColumn<QString>("file");
        for (const char* f : {"01-dgx-h100-three-tenants.json", "02-mixed-sharing-lab.json",
                              "05-mig-inference-farm.json", "06-gb200-nvl72-rack.json"})
            QTest::newRow(f) << QString(f);
    }
    void draKeepsEveryJobUnitAndSetting()
    {
        QFETCH(QString, file);
        QTemporaryDir dir;
        const Exported e = exportInto(dir.path(), qPrintable(file));
        const QJsonObject y = readYaml(dir.path());
        const auto objects = draObjects(y);
        const QJsonObject placement = y["dra/placement.yaml"].toArray().at(0).toObject();
        auto expected = expectedUnits(e);

        std::set<QString> jobsSeen;
        int sharedSettings = 0;
        for (const QJsonValue& v : placement["pods"].toArray()) {
            const QJsonObject pod = v.toObject();
            const std::string job = pod["job"].toString().toStdString();
            const std::string node = pod["nodeSelector"].toObject()["kubernetes.io/hostname"].toString().toStdString();
            jobsSeen.insert(pod["job"].toString());
            const auto want = expected.find({job, node});
            QVERIFY2(want != expected.end(), qPrintable(QString::fromStdString(job + " on " + node)));
            const QString ns = pod["namespace"].toString();
            int whole = 0;
            std::map<QString, int> mig;
            std::map<int, int> sharedGpus; // gpu index -> 1
            for (const QJsonValue& c : pod["resourceClaims"].toArray()) {
                const QJsonObject claim = c.toObject();
                if (claim.contains("resourceClaimTemplateName") && claim["name"] == "gpus") {
                    const QJsonObject t = objects.at(ns + "/" + claim["resourceClaimTemplateName"].toString());
                    QCOMPARE(t["kind"].toString(), QString("ResourceClaimTemplate"));
                    for (const QJsonValue& r : t["spec"]["spec"]["devices"]["requests"].toArray()) {
                        const QJsonObject exactly = r["exactly"].toObject();
                        QCOMPARE(exactly["allocationMode"].toString(), QString("ExactCount"));
                        if (exactly["deviceClassName"] == "gpu.nvidia.com")
                            whole += exactly["count"].toInt();
                        else {
                            QCOMPARE(exactly["deviceClassName"].toString(), QString("mig.nvidia.com"));
                            const QString expr = exactly["selectors"][0]["cel"]["expression"].toString();
                            const auto m = QRegularExpression("profile == '([^']+)'").match(expr);
                            QVERIFY2(m.hasMatch(), qPrintable(expr));
                            mig[m.captured(1)] += exactly["count"].toInt();
                        }
                    }
                } else if (claim.contains("resourceClaimName")) {
                    const QJsonObject c2 = objects.at(ns + "/" + claim["resourceClaimName"].toString());
                    QCOMPARE(c2["kind"].toString(), QString("ResourceClaim"));
                    const int gpu = c2["metadata"]["annotations"]["gpuplan.io/gpu-index"].toString().toInt();
                    QCOMPARE(c2["metadata"]["annotations"]["gpuplan.io/node"].toString().toStdString(), node);
                    sharedGpus[gpu] = 1;
                    // The node's setting for that GPU, as the driver's GpuConfig.
                    const SharingConfig& s = want->second.node->sharingOf(gpu);
                    const QJsonObject sharing =
                        c2["spec"]["devices"]["config"][0]["opaque"]["parameters"]["sharing"].toObject();
                    if (s.mode == SharingMode::Mps) {
                        QCOMPARE(sharing["strategy"].toString(), QString("MPS"));
                        QCOMPARE(sharing["mpsConfig"]["defaultActiveThreadPercentage"].toInt(), s.mpsActiveThreadPct);
                        if (s.mpsMemoryLimitGiB)
                            QCOMPARE(sharing["mpsConfig"]["defaultPinnedDeviceMemoryLimit"].toString(),
                                     QString("%1Mi").arg(static_cast<long long>(*s.mpsMemoryLimitGiB * 1024)));
                        else
                            QVERIFY(!sharing["mpsConfig"].toObject().contains("defaultPinnedDeviceMemoryLimit"));
                    } else {
                        QCOMPARE(s.mode, SharingMode::TimeSlicing);
                        QCOMPARE(sharing["strategy"].toString(), QString("TimeSlicing"));
                        QCOMPARE(c2["metadata"]["annotations"]["gpuplan.io/ways"].toString().toInt(), s.replicas);
                    }
                    ++sharedSettings;
                } else {
                    QCOMPARE(claim["name"].toString(), QString("compute-domain-channel"));
                }
            }
            QCOMPARE(whole, want->second.whole);
            QCOMPARE(mig, want->second.mig);
            QCOMPARE(sharedGpus.size(), want->second.shared.size());
            for (const auto& [gpu, units] : want->second.shared)
                QVERIFY(sharedGpus.count(gpu));
            expected.erase(want);
        }
        QVERIFY2(expected.empty(), "a job's units on a node have no pod");
        QCOMPARE(static_cast<int>(jobsSeen.size()), placedJobs(e));
        int unplaced = 0;
        for (const calc::JobResult& r : e.ev.jobs)
            unplaced += r.placed ? 0 : 1;
        QCOMPARE(placement["unplaced"].toArray().size(), unplaced);
        if (file.startsWith("02"))
            QVERIFY2(sharedSettings > 0, "the mixed lab's time-sliced and MPS GPUs were checked");
    }

    /// Jobs on two or more trays of a GB200 NVL72 rack get a ComputeDomain; their pods on those
    /// trays ask for its channel; a job on one tray gets none.
    void rackScaleJobsGetAComputeDomain()
    {
        QTemporaryDir dir;
        const Exported e = exportInto(dir.path(), "06-gb200-nvl72-rack.json");
        const QJsonObject y = readYaml(dir.path());
        const auto objects = draObjects(y);
        std::map<QString, int> traysInARack; // job -> its pods on nvlink_domain trays
        for (const calc::JobResult& r : e.ev.jobs) {
            std::set<std::string> nodes;
            for (const calc::UnitLocation& u : r.placement)
                nodes.insert(u.node);
            if (nodes.size() >= 2)
                traysInARack[QString::fromStdString(r.id)] = static_cast<int>(nodes.size());
        }
        QVERIFY2(!traysInARack.empty(), "the rack sample has a multi-tray job");
        int domains = 0;
        for (const auto& [key, o] : objects)
            if (o["kind"] == "ComputeDomain") {
                ++domains;
                const QString job = o["metadata"]["annotations"]["gpuplan.io/job"].toString();
                QVERIFY(traysInARack.count(job));
                QCOMPARE(o["metadata"]["annotations"]["gpuplan.io/nodes"].toString().toInt(), traysInARack[job]);
                const QString channel = o["spec"]["channel"]["resourceClaimTemplate"]["name"].toString();
                int asking = 0;
                for (const QJsonValue& v : y["dra/placement.yaml"].toArray().at(0).toObject()["pods"].toArray())
                    for (const QJsonValue& c : v["resourceClaims"].toArray())
                        if (c["resourceClaimTemplateName"].toString() == channel) {
                            QCOMPARE(v["job"].toString(), job);
                            ++asking;
                        }
                QCOMPARE(asking, traysInARack[job]);
            }
        QCOMPARE(domains, static_cast<int>(traysInARack.size()));
    }

    /// Round trip of the HAMi export: per job and node, whole GPUs as nvidia.com/gpu with all
    /// memory and cores, MIG instances as nvidia.com/mig-<profile>, and each shared GPU with its
    /// memory share (MiB) and, under MPS, its active-thread share as nvidia.com/gpucores; only
    /// names HAMi reads.
    void hamiKeepsEveryJobUnitAndSetting()
    {
        QTemporaryDir dir;
        const Exported e = exportInto(dir.path(), "02-mixed-sharing-lab.json");
        const QJsonObject y = readYaml(dir.path());
        auto expected = expectedUnits(e);
        const std::set<QString> hamiNames = {"nvidia.com/gpu", "nvidia.com/gpumem", "nvidia.com/gpumem-percentage",
                                             "nvidia.com/gpucores"};
        bool sawMps = false;
        for (auto it = y.begin(); it != y.end(); ++it) {
            if (!it.key().startsWith("hami/tenants/"))
                continue;
            for (const QJsonValue& v : it.value().toArray().at(0).toObject()["pods"].toArray()) {
                const QJsonObject pod = v.toObject();
                const std::string node = pod["nodeSelector"]["kubernetes.io/hostname"].toString().toStdString();
                const auto want = expected.find({pod["job"].toString().toStdString(), node});
                QVERIFY(want != expected.end());
                const GpuSpec* gpu = test::bundledCatalog().gpu(want->second.node->gpuId);
                QVERIFY(QString::fromStdString(gpu->name).startsWith(
                    pod["annotations"]["nvidia.com/use-gputype"].toString()));
                int whole = 0;
                int sharedGpus = 0;
                qint64 memMiB = 0;
                int cores = 0;
                std::map<QString, int> mig;
                for (const QJsonValue& c : pod["containers"].toArray()) {
                    const QJsonObject limits = c["resources"]["limits"].toObject();
                    for (const QString& k : limits.keys())
                        QVERIFY2(hamiNames.count(k) || k.startsWith("nvidia.com/mig-"), qPrintable(k));
                    if (c["name"] == "gpus") {
                        whole += limits["nvidia.com/gpu"].toInt();
                        QCOMPARE(limits["nvidia.com/gpumem-percentage"].toInt(), 100);
                    } else if (c["name"] == "mig") {
                        for (const QString& k : limits.keys())
                            mig[k.mid(QString("nvidia.com/mig-").size())] += limits[k].toInt();
                    } else {
                        const int n = limits["nvidia.com/gpu"].toInt();
                        sharedGpus += n;
                        memMiB += limits["nvidia.com/gpumem"].toInteger() * n;
                        cores += limits["nvidia.com/gpucores"].toInt() * n;
                    }
                }
                // What the node's setting gives each shared GPU's units.
                qint64 wantMemMiB = 0;
                int wantCores = 0;
                for (const auto& [index, units] : want->second.shared) {
                    const SharingConfig& s = want->second.node->sharingOf(index);
                    const bool mps = s.mode == SharingMode::Mps;
                    const double perUnitGiB =
                        mps && s.mpsMemoryLimitGiB
                            ? *s.mpsMemoryLimitGiB
                            : gpu->memoryUsableGiB / (mps ? std::max(1, 100 / s.mpsActiveThreadPct) : s.replicas);
                    wantMemMiB += static_cast<qint64>(std::floor(perUnitGiB * units * 1024.0));
                    if (mps) {
                        wantCores += std::min(100, s.mpsActiveThreadPct * units);
                        sawMps = true;
                        QCOMPARE(pod["annotations"]["nvidia.com/vgpu-mode"].toString(), QString("mps"));
                    }
                }
                QCOMPARE(memMiB, wantMemMiB);
                QCOMPARE(cores, wantCores);
                QCOMPARE(whole, want->second.whole);
                QCOMPARE(mig, want->second.mig);
                QCOMPARE(sharedGpus, static_cast<int>(want->second.shared.size()));
                expected.erase(want);
            }
        }
        QVERIFY2(expected.empty(), "a job's units on a node have no HAMi pod");
        QVERIFY(sawMps);
    }

    /// A GPU that jobs of two tenants share is one claim in namespace gpuplan-shared, with the
    /// template of a pod that also holds whole GPUs beside it, and both pods run there; every
    /// object name and namespace is a DNS label, whatever the ids were.
    void crossTenantSharingUsesOneClaim()
    {
        ClusterConfigPlan plan;
        SharedGpuUse mps;
        mps.gpu = 3;
        mps.units = 1;
        mps.strategy = "MPS";
        mps.ways = 4;
        mps.mpsActiveThreadPct = 25;
        mps.slotMemoryGiB = 20.0;
        for (const char* tenant : {"Team A_1", "team.B"}) {
            PodRequest p;
            p.job = std::string("Job of ") + tenant;
            p.jobName = p.job;
            p.node = "n1";
            p.nodeName = "Node #1";
            p.sharedGpus = {mps};
            p.wholeGpus = tenant[0] == 'T' ? 2 : 0;
            plan.tenants.push_back({tenant, tenant, {p}, {}});
        }
        QTemporaryDir dir;
        QVERIFY(io::writeFiles(dir.path(), io::clusterExportFiles(plan, "cross", {io::ClusterExportFormat::Dra})));
        const Check c = validate(dir.path());
        QVERIFY2(c.code == 0, qPrintable(c.output));
        const QJsonObject y = readYaml(dir.path());
        const QJsonArray shared = y["dra/shared.yaml"].toArray();
        QCOMPARE(shared.size(), 2); // the claim and the first pod's template
        int claims = 0;
        for (const QJsonValue& d : shared) {
            QCOMPARE(d["metadata"]["namespace"].toString(), QString("gpuplan-shared"));
            if (d["kind"] == QJsonValue("ResourceClaim")) {
                ++claims;
                QCOMPARE(d["metadata"]["annotations"]["gpuplan.io/tenants"].toString(), QString("Team A_1,team.B"));
                QCOMPARE(d["spec"]["devices"]["config"][0]["opaque"]["parameters"]["sharing"]["mpsConfig"]
                          ["defaultActiveThreadPercentage"]
                              .toInt(),
                         25);
            }
        }
        QCOMPARE(claims, 1);
        const QJsonArray pods = y["dra/placement.yaml"].toArray().at(0).toObject()["pods"].toArray();
        QCOMPARE(pods.size(), 2);
        const QRegularExpression label("^[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?$");
        for (const QJsonValue& p : pods) {
            QCOMPARE(p["namespace"].toString(), QString("gpuplan-shared"));
            for (const QJsonValue& rc : p["resourceClaims"].toArray())
                for (const char* k : {"resourceClaimName", "resourceClaimTemplateName"})
                    if (rc.toObject().contains(k))
                        QVERIFY2(label.match(rc[k].toString()).hasMatch(), qPrintable(rc[k].toString()));
        }
        for (auto it = y.begin(); it != y.end(); ++it)
            if (!it.key().endsWith("placement.yaml"))
                for (const QJsonValue& d : it.value().toArray())
                    for (const char* k : {"name", "namespace"})
                        QVERIFY2(label.match(d["metadata"][k].toString()).hasMatch(),
                                 qPrintable(d["metadata"][k].toString()));
        QVERIFY(QString::fromUtf8(test::readAll(dir.filePath("dra/README.md"))).contains("gpuplan-shared"));
    }

    /// The CLI: --format picks what is written; an unknown format is refused with exit 2.
    void cliFormats()
    {
        QTemporaryDir home;
        QTemporaryDir dir;
        const QString s = test::sampleFiles().at(1);
        const test::Run dra = test::cli({"export-config", s, "-o", dir.filePath("d"), "--format", "dra"}, home.path());
        QVERIFY2(dra.code == 0, qPrintable(dra.err));
        QVERIFY(dra.out.contains("dra/placement.yaml"));
        QVERIFY(!dra.out.contains("mig-parted.yaml") && !dra.out.contains("hami/"));
        const test::Run all = test::cli({"export-config", s, "-o", dir.filePath("a"), "--format", "all"}, home.path());
        QVERIFY2(all.code == 0, qPrintable(all.err));
        QVERIFY(all.out.contains("dra/README.md") && all.out.contains("hami/README.md") &&
                all.out.contains("kai/README.md") && all.out.contains("node-labels.yaml"));
        const test::Run bad =
            test::cli({"export-config", s, "-o", dir.filePath("b"), "--format", "volcano"}, home.path());
        QCOMPARE(bad.code, 2);
        QVERIFY2(bad.err.contains("--format must be operator, dra, hami, kai or all"), qPrintable(bad.err));
        QVERIFY(!QFileInfo::exists(dir.filePath("b")));
    }
};

QTEST_MAIN(TestClusterObjects)
#include "tst_clusterobjects.moc"
