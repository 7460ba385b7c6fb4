// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
// The plan's sharing for KAI Scheduler (docs/export.md, "KAI Scheduler"): every Queue validates
// against KAI's Queue CRD and every pod template against core/v1 and the rules KAI's binder applies
// (tests/data/schemas, python3-jsonschema); the check fails on a wrong field, value or name; and the
// export keeps every placed job's units, each share as KAI expresses it, and gives each tenant's
// queue exactly what KAI charges for its pods.
#include "calc/clusterconfig.h"
#include "calc/evaluate.h"
#include "clirunner.h"
#include "exportcheck.h"
#include "io/clusterconfigwriter.h"
#include "io/hamiwriter.h"
#include "io/scenarioreader.h"
#include "testsupport.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>

#include <algorithm>
#include <cmath>
#include <map>
#include <optional>
#include <utility>
#include <vector>

using namespace gp;

namespace {

Scenario sample(const QString& name)
{
    for (const QString& f : test::sampleFiles())
        if (f.endsWith(name))
            return *io::readScenarioFile(f, test::bundledCatalog()).value;
    qFatal("no sample %s", qPrintable(name));
}

struct Exported
{
    Scenario scenario;
    calc::Evaluation ev;
};

Exported exportInto(const QString& dir, const QString& name)
{
    Exported e{sample(name), {}};
    e.ev = calc::evaluate(e.scenario, test::bundledCatalog());
    const Status written =
        io::writeFiles(dir, io::clusterExportFiles(calc::buildClusterConfig(e.scenario, test::bundledCatalog(), e.ev),
                                                   e.scenario.name, {io::ClusterExportFormat::Kai}));
    if (!written)
        qFatal("export failed: %s", written.errorText().c_str());
    return e;
}

/// KAI's memory of each GPU of a node: GPU Feature Discovery's nvidia.com/gpu.memory (MiB, what
/// the catalog's usable memory was read from) floored to 100 MiB.
long long nodeMiB(double usableGiB)
{
    const auto mib = static_cast<long long>(std::floor(usableGiB * 1024.0));
    return mib - mib % 100;
}

/// A share of a GPU as KAI is told it: gpu-fraction × 10000, or gpu-memory in MiB.
using Share = std::pair<bool, long long>; // (memory?, value)

/// What the evaluation put on a node for a job, as KAI expresses it, and what KAI charges for it
/// (0.01 GPU).
struct Expected
{
    int whole = 0;
    std::map<QString, int> mig; ///< resource name -> instances
    std::vector<Share> shares;
    long long charge = 0;
    bool mps = false;
};

std::map<std::pair<std::string, std::string>, Expected> expectedPods(const Exported& e,
                                                                     std::map<std::string, long long>& byTenant)
{
    std::map<std::pair<std::string, std::string>, Expected> out;
    for (const calc::JobResult& r : e.ev.jobs) {
        std::map<std::pair<std::string, int>, int> sharedUnits; // (node, gpu) -> units
        for (const calc::UnitLocation& u : r.placement) {
            const Node* n = e.scenario.topology.findNode(u.node);
            Expected& x = out[{r.id, u.node}];
            const SharingConfig& c = n->sharingOf(u.gpu);
            if (c.mode == SharingMode::Mig) {
                const std::string profile = u.slot.substr(0, u.slot.find('@'));
                ++x.mig[QString::fromStdString("nvidia.com/mig-" + profile)];
                // KAI: a MIG instance is its compute-slice count of GPUs.
                const auto m = QRegularExpression(R"(^(\d+)g\.\d+gb$)").match(QString::fromStdString(profile));
                x.charge += m.hasMatch() ? 100LL * m.captured(1).toInt() : 0;
            } else if (c.mode == SharingMode::TimeSlicing || c.mode == SharingMode::Mps)
                ++sharedUnits[{u.node, u.gpu}];
            else {
                ++x.whole;
                x.charge += 100;
            }
        }
        for (const auto& [at, units] : sharedUnits) {
            const Node* n = e.scenario.topology.findNode(at.first);
            const SharingConfig& c = n->sharingOf(at.second);
            const long long gpuMiB = nodeMiB(test::bundledCatalog().gpu(n->gpuId)->memoryUsableGiB);
            Expected& x = out[{r.id, at.first}];
            const bool mps = c.mode == SharingMode::Mps;
            const int ways = mps ? std::max(1, 100 / c.mpsActiveThreadPct) : c.replicas;
            if (units >= ways) {
                ++x.whole;
                x.charge += 100;
            } else if (mps && c.mpsMemoryLimitGiB) {
                const long long mib =
                    std::min(gpuMiB, static_cast<long long>(std::floor(*c.mpsMemoryLimitGiB * units * 1024.0)));
                x.shares.push_back({true, mib});
                x.charge += static_cast<long long>(std::ceil(static_cast<double>(mib) * 100.0 / gpuMiB));
            } else {
                const long long f = static_cast<long long>(std::floor(10000.0 * units / ways + 1e-9));
                x.shares.push_back({false, f});
                x.charge += std::llround(static_cast<double>(f) / 100.0);
            }
            x.mps = x.mps || mps;
        }
    }
    for (const calc::JobResult& r : e.ev.jobs)
        for (const auto& [key, x] : out)
            if (key.first == r.id)
                byTenant[r.tenant] += x.charge;
    return out;
}

long long hundredths(const QJsonValue& v) { return std::llround(v.toDouble() * 100.0); }

/// Replaces `pattern` by `replacement` in the export's files under `sub`; false when nothing matched.
bool edit(const QString& dir, const QString& sub, const QString& pattern, const QString& replacement)
{
    bool changed = false;
    QStringList files;
    if (sub.endsWith(".yaml"))
        files << dir + "/" + sub;
    else
        for (const QString& name : QDir(dir + "/" + sub).entryList({"*.yaml"}))
            files << dir + "/" + sub + "/" + name;
    for (const QString& path : files) {
        QString text = QString::fromUtf8(test::readAll(path));
        const QString before = text;
        text.replace(QRegularExpression(pattern), replacement);
        if (text != before) {
            changed = true;
            QFile f(path);
            if (!f.open(QIODevice::WriteOnly | QIODevice::Truncate))
                return false;
            f.write(text.toUtf8());
        }
    }
    return changed;
}

} // namespace

class TestKaiExport : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY2(test::schemaToolsPresent(), "python3-jsonschema and python3-yaml are needed (scripts/deps.sh)");
    }

    /// The check accepts KAI's own default queues and example pods (whole GPU, gpu-fraction,
    /// gpu-memory, MPS, a non-default container).
    void kaisOwnExamplesValidate()
    {
        const test::Check c = test::validateExport(test::fixturesDir() + "/schemas/kai-demo");
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
        exportInto(dir.path(), file);
        QVERIFY(QFileInfo::exists(dir.filePath("kai/queues.yaml")));
        QVERIFY(QFileInfo::exists(dir.filePath("kai/README.md")));
        const test::Check c = test::validateExport(dir.path());
        QVERIFY2(c.code == 0, qPrintable(c.output));
    }

    /// The check can fail: a field the Queue CRD lacks, a quota as a string, a parent queue that is
    /// not there, a pod field core/v1 lacks, an annotation KAI does not read, a fraction of 1 or
    /// more, another scheduler, the pre-v0.6 queue label, a resource name the API server refuses.
    void theCheckFailsOnAWrongFieldOrValue_data()
    {
        QTest::addColumn<QString>("sample");
        QTest::addColumn<QString>("file");
        QTest::addColumn<QString>("pattern");
        QTest::addColumn<QString>("replacement");
        QTest::addColumn<QString>("named");
        const QString lab = "02-mixed-sharing-lab.json";
        QTest::newRow("misspelt queue field") << lab << "kai/queues.yaml"
                                              << "overQuotaWeight:"
                                              << "overquotaWeight:"
                                              << "'overquotaWeight' was unexpected";
        QTest::newRow("quota as a string") << lab << "kai/queues.yaml"
                                           << "quota: ([0-9.]+)\n"
                                           << "quota: \"\\1\"\n"
                                           << "is not of type 'number'";
        QTest::newRow("missing parent queue") << lab << "kai/queues.yaml"
                                              << "parentQueue: (\\S+)"
                                              << "parentQueue: nowhere"
                                              << "no queue 'nowhere'";
        QTest::newRow("misspelt pod field") << lab << "kai/tenants"
                                            << "nodeSelector:"
                                            << "nodeselector:"
                                            << "'nodeselector' was unexpected";
        QTest::newRow("annotation KAI does not read") << lab << "kai/tenants"
                                                      << "\"gpu-fraction\":"
                                                      << "\"gpu_fraction\":"
                                                      << "not an annotation KAI reads";
        QTest::newRow("fraction of a whole GPU") << lab << "kai/tenants"
                                                 << "\"gpu-fraction\": \"[0-9.]+\""
                                                 << "\"gpu-fraction\": \"1\""
                                                 << "is not a number between 0 and 1";
        QTest::newRow("another scheduler") << lab << "kai/tenants"
                                           << "schedulerName: kai-scheduler"
                                           << "schedulerName: default-scheduler"
                                           << "is not 'kai-scheduler'";
        QTest::newRow("pre-v0.6 queue label") << lab << "kai/tenants"
                                              << "\"kai.scheduler/queue\""
                                              << "\"runai/queue\""
                                              << "no kai.scheduler/queue label";
        QTest::newRow("MIG resource with a plus") << "05-mig-inference-farm.json"
                                                  << "kai/tenants"
                                                  << "\"nvidia.com/mig-3g.40gb\""
                                                  << "\"nvidia.com/mig-3g.40gb+me\""
                                                  << "not a GPU resource name";
    }
    void theCheckFailsOnAWrongFieldOrValue()
    {
        QFETCH(QString, sample);
        QFETCH(QString, file);
        QFETCH(QString, pattern);
        QFETCH(QString, replacement);
        QFETCH(QString, named);
        QTemporaryDir dir;
        exportInto(dir.path(), sample);
        QVERIFY(test::validateExport(dir.path()).code == 0);
        QVERIFY2(edit(dir.path(), file, pattern, replacement), "the export has no such field: the row proves nothing");
        const test::Check c = test::validateExport(dir.path());
        QCOMPARE(c.code, 1);
        QVERIFY2(c.output.contains(named), qPrintable(c.output));
        QVERIFY2(c.output.contains(file), qPrintable(c.output)); // names the file
    }

    /// Round trip against the evaluation, for every sharing mode of the samples (exclusive and
    /// passthrough GPUs, MIG, vGPU, time-slicing, MPS with a memory limit, a GB200 NVL72 rack):
    /// per job and node exactly its whole GPUs, MIG instances by resource and shares (gpu-fraction
    /// = its replicas / the GPU's, gpu-memory = its clients × the MPS limit); every pod labelled
    /// with its tenant's leaf queue and scheduled by kai-scheduler; each queue's GPU quota and
    /// limit what KAI charges for its pods, priority 100 + the tenant's; the parent's quota the sum.
    void kaiKeepsEveryJobUnitAndQuota_data()
    {
        QTest::addColumn<QString>("file");
        for (const char* f : {"01-dgx-h100-three-tenants.json", "02-mixed-sharing-lab.json",
                              "05-mig-inference-farm.json", "06-gb200-nvl72-rack.json"})
            QTest::newRow(f) << QString(f);
    }
    void kaiKeepsEveryJobUnitAndQuota()
    {
        QFETCH(QString, file);
        QTemporaryDir dir;
        const Exported e = exportInto(dir.path(), file);
        const QJsonObject y = test::readExportYaml(dir.path());
        std::map<std::string, long long> tenantCharge;
        auto expected = expectedPods(e, tenantCharge);

        std::map<QString, QJsonObject> queues;
        QString parent;
        for (const QJsonValue& d : y["kai/queues.yaml"].toArray()) {
            QCOMPARE(d["apiVersion"].toString(), QString("scheduling.run.ai/v2"));
            queues[d["metadata"]["name"].toString()] = d.toObject();
            if (!d["spec"].toObject().contains("parentQueue"))
                parent = d["metadata"]["name"].toString();
        }
        QVERIFY(!parent.isEmpty());
        QCOMPARE(static_cast<std::size_t>(queues.size()), e.scenario.tenants.size() + 1);

        std::map<std::pair<std::string, std::string>, Expected> got;
        std::map<std::string, long long> podCharge; // tenant -> Σ queue_gpus
        long long children = 0;
        int unplaced = 0;
        bool sawShare = false;
        for (auto it = y.begin(); it != y.end(); ++it) {
            if (!it.key().startsWith("kai/tenants/"))
                continue;
            const QJsonObject t = it.value().toArray().at(0).toObject();
            const std::string tenant = t["tenant"].toString().toStdString();
            const auto st = std::find_if(e.scenario.tenants.begin(), e.scenario.tenants.end(),
                                         [&](const Tenant& x) { return x.id == tenant; });
            QVERIFY(st != e.scenario.tenants.end());
            const QString queue = t["queue"].toString();
            QVERIFY(queues.count(queue));
            const QJsonObject spec = queues[queue]["spec"].toObject();
            QCOMPARE(spec["parentQueue"].toString(), parent);
            QCOMPARE(spec["priority"].toInt(), 100 + st->priority);
            QCOMPARE(spec["displayName"].toString().toStdString(), st->name);
            const QJsonObject gpu = spec["resources"]["gpu"].toObject();
            QCOMPARE(hundredths(gpu["quota"]), tenantCharge[tenant]);
            QCOMPARE(hundredths(gpu["limit"]), tenantCharge[tenant]);
            QCOMPARE(gpu["overQuotaWeight"].toInt(), 1);
            for (const char* r : {"cpu", "memory"}) {
                QCOMPARE(spec["resources"][r]["quota"].toInt(), 0);
                QCOMPARE(spec["resources"][r]["limit"].toInt(), -1);
            }
            children += hundredths(gpu["quota"]);
            unplaced += static_cast<int>(t["unplaced"].toArray().size());
            for (const QJsonValue& v : t["pods"].toArray()) {
                const QJsonObject pod = v.toObject();
                const QJsonObject tm = pod["template"].toObject();
                QCOMPARE(tm["metadata"]["labels"]["kai.scheduler/queue"].toString(), queue);
                QCOMPARE(tm["spec"]["schedulerName"].toString(), QString("kai-scheduler"));
                const Node* node = e.scenario.topology.findNode(pod["node"].toString().toStdString());
                QVERIFY(node);
                QCOMPARE(tm["spec"]["nodeSelector"]["kubernetes.io/hostname"].toString().toStdString(),
                         node->name.empty() ? node->id : node->name);
                podCharge[tenant] += hundredths(pod["queue_gpus"]);
                Expected& g = got[{pod["job"].toString().toStdString(), node->id}];
                const QJsonObject ann = tm["metadata"]["annotations"].toObject();
                const QJsonArray containers = tm["spec"]["containers"].toArray();
                QCOMPARE(containers.size(), 1);
                const QJsonObject limits = containers[0]["resources"]["limits"].toObject();
                const QString sharing = pod["sharing"].toString();
                if (sharing == "whole") {
                    QVERIFY(ann.isEmpty());
                    QCOMPARE(limits.keys(), QStringList{"nvidia.com/gpu"});
                    g.whole += limits["nvidia.com/gpu"].toInt();
                } else if (sharing == "mig") {
                    QVERIFY(ann.isEmpty());
                    for (const QString& k : limits.keys()) {
                        QVERIFY(k.startsWith("nvidia.com/mig-"));
                        g.mig[k] += limits[k].toInt();
                    }
                } else {
                    QVERIFY2(sharing == "time-slicing" || sharing == "mps", qPrintable(sharing));
                    QVERIFY(limits.isEmpty());
                    sawShare = true;
                    const int devices = ann.contains("gpu-fraction-num-devices")
                                            ? ann["gpu-fraction-num-devices"].toString().toInt()
                                            : 1;
                    QVERIFY(devices >= 1);
                    const Share s = ann.contains("gpu-memory")
                                        ? Share{true, ann["gpu-memory"].toString().toLongLong()}
                                        : Share{false, std::llround(ann["gpu-fraction"].toString().toDouble() * 1e4)};
                    for (int i = 0; i < devices; ++i)
                        g.shares.push_back(s);
                    const bool mount = tm["spec"].toObject().contains("volumes");
                    QCOMPARE(mount, sharing == "mps");
                    if (mount)
                        QCOMPARE(tm["spec"]["volumes"][0]["hostPath"]["path"].toString(), QString("/tmp/nvidia-mps"));
                }
            }
        }
        for (const auto& [tenant, charge] : tenantCharge)
            QCOMPARE(podCharge[tenant], charge);
        QCOMPARE(hundredths(std::as_const(queues).at(parent)["spec"]["resources"]["gpu"]["quota"]), children);

        for (auto& [key, want] : expected) {
            const auto have = got.find(key);
            QVERIFY2(have != got.end(), qPrintable(QString::fromStdString(key.first + " on " + key.second)));
            QCOMPARE(have->second.whole, want.whole);
            QCOMPARE(have->second.mig, want.mig);
            std::sort(want.shares.begin(), want.shares.end());
            std::sort(have->second.shares.begin(), have->second.shares.end());
            QVERIFY2(have->second.shares == want.shares, qPrintable(QString::fromStdString(key.first)));
            got.erase(have);
        }
        QVERIFY2(got.empty(), "a pod template for units the evaluation did not place");
        int wantUnplaced = 0;
        for (const calc::JobResult& r : e.ev.jobs)
            wantUnplaced += r.placed ? 0 : 1;
        QCOMPARE(unplaced, wantUnplaced);
        if (file.startsWith("02")) {
            QVERIFY2(sawShare, "the mixed lab's time-sliced and MPS GPUs were checked");
            // The vGPU node's note: its Kubernetes nodes are VMs.
            const QString readme = QString::fromUtf8(test::readAll(dir.filePath("kai/README.md")));
            QVERIFY2(readme.contains("- vgpu-a100: vGPU") && readme.contains("the Kubernetes nodes are the VMs"),
                     qPrintable(readme));
        }
    }

    /// Shares the samples do not have: MPS without a memory limit as gpu-fraction on two GPUs at
    /// once (gpu-fraction-num-devices), two of three time-slicing replicas, every replica of a GPU
    /// (asked for whole), an MPS memory limit over the GPU's memory (capped), a MIG profile with
    /// media extensions (the device plugin's `.me` name, which KAI charges nothing); tenant ids
    /// that are no DNS labels, two of them alike.
    void sharesAsKaiExpressesThem()
    {
        ClusterConfigPlan plan;
        auto shared = [](int gpu, int units, const char* strategy, int ways, std::optional<double> limitGiB = {}) {
            SharedGpuUse s;
            s.gpu = gpu;
            s.units = units;
            s.strategy = strategy;
            s.ways = ways;
            s.mpsActiveThreadPct = 100 / ways;
            s.mpsMemoryLimitGiB = limitGiB;
            return s;
        };
        PodRequest a;
        a.job = "job-a";
        a.jobName = "Job A";
        a.node = "n1";
        a.nodeName = "Node #1";
        a.gpuMemoryGiB = 80.0; // 81920 MiB: KAI's 81900
        a.sharedGpus = {shared(0, 1, "MPS", 4),         shared(1, 1, "MPS", 4),       shared(2, 2, "TimeSlicing", 3),
                        shared(3, 4, "TimeSlicing", 4), shared(4, 1, "MPS", 2, 20.0), shared(5, 2, "MPS", 4, 60.0)};
        a.migUnits = {{"1g.10gb+me", 1}, {"3g.40gb", 2}};
        PodRequest b = a;
        b.job = "job-b";
        b.sharedGpus.clear();
        b.migUnits.clear();
        b.wholeGpus = 2;
        plan.tenants.push_back({"Team A_1", "Team \"A\"", {a}, {"Job C"}, 2});
        plan.tenants.push_back({"team-a.1", "Team a.1", {b}, {}, 0});
        QTemporaryDir dir;
        QVERIFY(io::writeFiles(dir.path(), io::clusterExportFiles(plan, "Lab: 2026", {io::ClusterExportFormat::Kai})));
        const test::Check c = test::validateExport(dir.path());
        QVERIFY2(c.code == 0, qPrintable(c.output));
        const QJsonObject y = test::readExportYaml(dir.path());

        std::map<QString, QJsonObject> queues;
        for (const QJsonValue& d : y["kai/queues.yaml"].toArray())
            queues[d["metadata"]["name"].toString()] = d.toObject();
        QVERIFY(queues.count("gpuplan-lab-2026"));
        QVERIFY(queues.count("team-a-1"));
        QVERIFY(queues.count("team-a-1x")); // the second tenant's id gives the same label
        const QRegularExpression label("^[a-z0-9]([-a-z0-9]*[a-z0-9])?$");
        for (const auto& [name, q] : queues)
            QVERIFY2(label.match(name).hasMatch(), qPrintable(name));

        const QJsonArray pods = y["kai/tenants/team-a-1.yaml"].toArray().at(0)["pods"].toArray();
        std::map<QString, QJsonObject> byAnnotations; // sorted annotations -> template
        QJsonObject whole, mig;
        long long charge = 0;
        for (const QJsonValue& v : pods) {
            charge += hundredths(v["queue_gpus"]);
            const QJsonObject tm = v["template"].toObject();
            if (v["sharing"] == "whole")
                whole = tm;
            else if (v["sharing"] == "mig")
                mig = tm;
            else
                byAnnotations[QString::fromUtf8(
                    QJsonDocument(tm["metadata"]["annotations"].toObject()).toJson(QJsonDocument::Compact))] =
                    v.toObject();
        }
        // 1 of 4 MPS clients on GPUs 0 and 1: one pod, 0.25 on each (charged 0.5).
        const QString quarter = R"({"gpu-fraction":"0.25","gpu-fraction-num-devices":"2"})";
        QVERIFY2(byAnnotations.count(quarter), qPrintable(byAnnotations.begin()->first));
        QCOMPARE(hundredths(byAnnotations[quarter]["queue_gpus"]), 50LL);
        QCOMPARE(byAnnotations[quarter]["sharing"].toString(), QString("mps"));
        // 2 of 3 replicas: 0.6666 (floored, so three thirds fit one GPU), charged 0.67.
        const QString twoThirds = R"({"gpu-fraction":"0.6666"})";
        QVERIFY(byAnnotations.count(twoThirds));
        QCOMPARE(hundredths(byAnnotations[twoThirds]["queue_gpus"]), 67LL);
        QCOMPARE(byAnnotations[twoThirds]["sharing"].toString(), QString("time-slicing"));
        // One MPS client limited to 20 GiB: 20480 MiB of KAI's 81900, charged ceil(25.006) / 100.
        const QString limited = R"({"gpu-memory":"20480"})";
        QVERIFY(byAnnotations.count(limited));
        QCOMPARE(hundredths(byAnnotations[limited]["queue_gpus"]), 26LL);
        // Two clients limited to 60 GiB each: more than the GPU, capped at it.
        const QString capped = R"({"gpu-memory":"81900"})";
        QVERIFY(byAnnotations.count(capped));
        QCOMPARE(hundredths(byAnnotations[capped]["queue_gpus"]), 100LL);
        QCOMPARE(byAnnotations.size(), std::size_t(4));
        // Every replica of GPU 3: the GPU whole.
        QCOMPARE(std::as_const(whole)["spec"]["containers"][0]["resources"]["limits"]["nvidia.com/gpu"].toInt(), 1);
        const QJsonObject migLimits = std::as_const(mig)["spec"]["containers"][0]["resources"]["limits"].toObject();
        QCOMPARE(migLimits["nvidia.com/mig-1g.10gb.me"].toInt(), 1);
        QCOMPARE(migLimits["nvidia.com/mig-3g.40gb"].toInt(), 2);
        QVERIFY(!migLimits.contains("nvidia.com/mig-1g.10gb+me"));
        // 0.5 + 0.67 + 0.26 + 1 + 1 (whole) + 0 (.me) + 2 × 3 (3g.40gb) = 9.43
        QCOMPARE(charge, 943LL);
        const QJsonObject qa = queues["team-a-1"]["spec"].toObject();
        QCOMPARE(hundredths(qa["resources"]["gpu"]["quota"]), 943LL);
        QCOMPARE(qa["priority"].toInt(), 102);
        QCOMPARE(qa["displayName"].toString(), QString("Team \"A\""));
        QCOMPARE(hundredths(std::as_const(queues).at("team-a-1x")["spec"]["resources"]["gpu"]["quota"]), 200LL);
        QCOMPARE(hundredths(std::as_const(queues).at("gpuplan-lab-2026")["spec"]["resources"]["gpu"]["quota"]), 1143LL);
        QCOMPARE(y["kai/tenants/team-a-1.yaml"].toArray().at(0)["unplaced"].toArray().size(), 1);
        const QString readme = QString::fromUtf8(test::readAll(dir.filePath("kai/README.md")));
        QVERIFY(readme.contains("kai/queues.yaml") && readme.contains("kai/tenants/team-a-1_.yaml"));
    }

    /// The CLI: --format kai writes only kai/, and `all` includes it.
    void cliFormats()
    {
        QTemporaryDir home;
        QTemporaryDir dir;
        const QString s = test::sampleFiles().at(1);
        const test::Run kai = test::cli({"export-config", s, "-o", dir.filePath("k"), "--format", "kai"}, home.path());
        QVERIFY2(kai.code == 0, qPrintable(kai.err));
        QVERIFY(kai.out.contains("kai/queues.yaml") && kai.out.contains("kai/README.md"));
        QVERIFY(!kai.out.contains("node-labels.yaml") && !kai.out.contains("dra/") && !kai.out.contains("hami/"));
        const test::Check c = test::validateExport(dir.filePath("k"));
        QVERIFY2(c.code == 0, qPrintable(c.output));
        const test::Run all = test::cli({"export-config", s, "-o", dir.filePath("a"), "--format", "all"}, home.path());
        QVERIFY2(all.code == 0, qPrintable(all.err));
        QVERIFY(all.out.contains("kai/queues.yaml") && all.out.contains("dra/README.md"));
        QCOMPARE(test::readAll(dir.filePath("a/kai/queues.yaml")), test::readAll(dir.filePath("k/kai/queues.yaml")));
        const test::Run help = test::cli({"export-config", "--help"}, home.path());
        QVERIFY2(help.out.simplified().contains("kai (DIR/kai)"), qPrintable(help.out));
    }

    /// A MIG profile with an extension ("+me") is "1g.10gb.me" in every resource name gpuplan
    /// writes (a Kubernetes resource name holds no '+'), and read back as the profile.
    void migExtensionsAreValidResourceNames()
    {
        QCOMPARE(migResourceName("1g.10gb+me"), std::string("nvidia.com/mig-1g.10gb.me"));
        QCOMPARE(migResourceName("3g.40gb"), std::string("nvidia.com/mig-3g.40gb"));
        QCOMPARE(*migProfileOfResource("nvidia.com/mig-1g.10gb.me"), std::string("1g.10gb+me"));
        QCOMPARE(*migProfileOfResource("nvidia.com/mig-3g.40gb"), std::string("3g.40gb"));
        QVERIFY(!migProfileOfResource("nvidia.com/gpu"));
        ClusterConfigPlan plan;
        PodRequest a;
        a.job = "job-a";
        a.jobName = "Job A";
        a.node = "n1";
        a.nodeName = "n1";
        a.migUnits = {{"1g.10gb+me", 1}};
        plan.tenants.push_back({"team", "Team", {a}, {}, 0});
        for (const auto& [name, bytes] : io::hamiFiles(plan, "Lab")) {
            QVERIFY2(!bytes.contains("+me"), qPrintable(name));
            if (name.startsWith("hami/tenants/"))
                QVERIFY2(bytes.contains("nvidia.com/mig-1g.10gb.me"), bytes.constData());
        }
    }
};

QTEST_MAIN(TestKaiExport)
#include "tst_kaiexport.moc"
