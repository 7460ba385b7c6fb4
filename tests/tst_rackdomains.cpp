// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
// Rack-scale NVLink domains (issue 37): a GB200 NVL72 rack is a topology group of kind
// "nvlink_domain" holding 18 four-GPU trays, all 72 GPUs one NVLink domain. Its file format and
// validation (JSON path, value, reason), TP groups across its trays and never across two racks,
// the collectives' bandwidth in it, the job search's TP limit, and the sample that ships one.
#include "calc/evaluate.h"
#include "calc/fabricindex.h"
#include "calc/jobsearch.h"
#include "calc/plansearch.h"
#include "calc/slots.h"
#include "io/scenarioreader.h"
#include "io/scenariowriter.h"
#include "model/validation.h"
#include "testsupport.h"

#include <QDir>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTest>

#include <algorithm>
#include <cmath>
#include <set>

using namespace gp;
using namespace gp::calc;

namespace {

/// `racks` GB200 NVL72 racks of `trays` trays each, every tray on one leaf switch.
Scenario nvl72(int racks, int trays = 18)
{
    const Catalog& c = test::bundledCatalog();
    const RackTemplate* rack = c.rackTemplate("gb200-nvl72");
    const NodeTemplate* tray = c.nodeTemplate(rack->trayTemplate);
    Scenario s;
    s.name = "nvl72";
    Switch leaf;
    leaf.id = "leaf";
    leaf.name = "leaf";
    leaf.templateId = "qm9700";
    leaf.ports = 64;
    leaf.portSpeedGbps = 400;
    s.topology.switches.push_back(leaf);
    for (int r = 0; r < racks; ++r) {
        Group g;
        g.id = "rack-" + std::to_string(r);
        g.name = g.id;
        g.kind = "nvlink_domain";
        g.rackTemplate = rack->id;
        s.topology.groups.push_back(g);
        for (int t = 0; t < trays; ++t) {
            Node n;
            n.id = g.id + "-tray-" + std::to_string(t);
            n.name = n.id;
            n.templateId = tray->id;
            n.gpuId = tray->gpuId;
            n.gpuCount = tray->gpuCount;
            n.nics = {tray->nicCount, tray->nicSpeedGbps, tray->gpudirectRdma};
            n.group = g.id;
            s.topology.nodes.push_back(n);
            s.topology.links.push_back({n.id + "-leaf", n.id, "leaf", 1600, 1});
        }
    }
    s.pricing.gpuHourUsd[tray->gpuId] = 10.5;
    return s;
}

/// A pre-training job of GPT-3 175B (96 heads: TP 16, 32 and 48 divide them) with `tp` × `pp` × `dp`.
/// Its weights, gradients and Adam states take 16 bytes a parameter: 32 GPUs or more (87.5 GB
/// each) fit a GB200's 185 GiB, 16 do not.
Job gpt3(const std::string& id, int tp, int pp, int dp)
{
    Job j;
    j.id = id;
    j.name = id;
    j.kind = JobKind::Pretraining;
    j.model.preset = "gpt3-175b";
    j.parallelism.tp = tp;
    j.parallelism.pp = pp;
    j.parallelism.dp = dp;
    j.batch = {1, 96};
    j.training = TrainingSpec{};
    j.training->tokens = 1e10;
    return j;
}

Scenario withJobs(Scenario s, std::vector<Job> jobs)
{
    Tenant t;
    t.id = "lab";
    t.name = "lab";
    t.jobs = std::move(jobs);
    s.tenants.push_back(t);
    return s;
}

QString dump(const Issues& issues)
{
    QStringList l;
    for (const auto& i : issues)
        l << QString::fromStdString(i.toString());
    return l.join('\n');
}

const Issue* issueAt(const Issues& issues, const std::string& path)
{
    for (const Issue& i : issues)
        if (i.path == path && i.isError())
            return &i;
    return nullptr;
}

Evaluation run(const Scenario& s)
{
    const Issues issues = validateScenario(s, test::bundledCatalog());
    for (const Issue& i : issues)
        if (i.isError())
            qFatal("test scenario invalid: %s", i.toString().c_str());
    return evaluate(s, test::bundledCatalog());
}

/// The racks (group ids) and trays a job's units landed on, and its TP groups' racks.
struct Landing
{
    std::set<std::string> racks;
    std::set<std::string> trays;
    bool everyGroupInOneRack = true;
};

Landing landing(const Scenario& s, const JobResult& j, int tp)
{
    Landing l;
    for (std::size_t g = 0; g + static_cast<std::size_t>(tp) <= j.placement.size(); g += static_cast<std::size_t>(tp)) {
        std::set<std::string> groupRacks;
        for (std::size_t k = g; k < g + static_cast<std::size_t>(tp); ++k) {
            const Node* n = s.topology.findNode(j.placement[k].node);
            groupRacks.insert(n->group);
            l.racks.insert(n->group);
            l.trays.insert(n->id);
        }
        l.everyGroupInOneRack = l.everyGroupInOneRack && groupRacks.size() == 1;
    }
    return l;
}

} // namespace

class TestRackDomains : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void aWholeRackIsValidAndOneDomain()
    {
        const Scenario s = nvl72(1);
        const Issues issues = validateScenario(s, test::bundledCatalog());
        QVERIFY2(!hasErrors(issues), qPrintable(dump(issues)));
        const FabricIndex f = FabricIndex::build(s.topology);
        QCOMPARE(f.nodesOfRack.size(), std::size_t{1});
        QCOMPARE(f.rackGpus.front(), 72);
        QVERIFY(f.sameRack(0, 17));
        QCOMPARE(rackDomainGpus(s.topology, s.topology.nodes[5]), 72);
        // The tray on its own is a four-GPU NVLink domain (what a tray outside a rack would be).
        QCOMPARE(nvlinkDomainGpus(s.topology.nodes[5], test::bundledCatalog()), 4);
    }

    void badRacksAreRefusedWithPathValueAndReason()
    {
        const Catalog& c = test::bundledCatalog();
        { // a tray short
            Scenario s = nvl72(1);
            s.topology.nodes.pop_back();
            const Issues issues = validateScenario(s, c);
            const Issue* i = issueAt(issues, "topology.groups[0]");
            QVERIFY2(i, qPrintable(dump(issues)));
            QVERIFY2(i->message.find("holds 17 trays") != std::string::npos &&
                         i->message.find("has 18") != std::string::npos,
                     i->message.c_str());
        }
        { // a tray of another GPU: one domain has one GPU model
            Scenario s = nvl72(1);
            s.topology.nodes[3].gpuId = "b200-180gb";
            const Issues issues = validateScenario(s, c);
            const Issue* i = issueAt(issues, "topology.nodes[3].gpu");
            QVERIFY2(i, qPrintable(dump(issues)));
            QVERIFY(i->message.find("'b200-180gb'") != std::string::npos);
            QVERIFY(i->message.find("one GPU model") != std::string::npos);
        }
        { // a node of another template, and a tray with 8 GPUs
            Scenario s = nvl72(1);
            s.topology.nodes[4].templateId = "dgx-b200";
            s.topology.nodes[5].gpuCount = 8;
            const Issues issues = validateScenario(s, c);
            QVERIFY2(issueAt(issues, "topology.nodes[4].template"), qPrintable(dump(issues)));
            const Issue* i = issueAt(issues, "topology.nodes[5].gpu_count");
            QVERIFY2(i, qPrintable(dump(issues)));
            QVERIFY(i->message.find("8 GPUs") != std::string::npos && i->message.find("holds 4") != std::string::npos);
        }
        { // a domain inside a domain would put its trays in two NVLink domains
            Scenario s = nvl72(2);
            s.topology.groups[1].parent = "rack-0";
            const Issues issues = validateScenario(s, c);
            const Issue* i = issueAt(issues, "topology.groups[1].parent");
            QVERIFY2(i, qPrintable(dump(issues)));
            QVERIFY(i->message.find("one NVLink domain") != std::string::npos);
        }
        { // no template, an unknown one, and a template on an ordinary rack
            Scenario s = nvl72(1);
            s.topology.groups[0].rackTemplate = "";
            QVERIFY(issueAt(validateScenario(s, c), "topology.groups[0].template"));
            s.topology.groups[0].rackTemplate = "nvl576";
            const Issues unknown = validateScenario(s, c);
            QVERIFY(issueAt(unknown, "topology.groups[0].template"));
            QVERIFY(issueAt(unknown, "topology.groups[0].template")->message.find("'nvl576'") != std::string::npos);
            Scenario plain = nvl72(1);
            plain.topology.groups[0].kind = "rack";
            const Issues p = validateScenario(plain, c);
            QVERIFY2(issueAt(p, "topology.groups[0].template"), qPrintable(dump(p)));
            // ... and its trays are warned that they reach only their own four GPUs over NVLink.
            bool warned = false;
            for (const Issue& i : p)
                warned = warned || (!i.isError() && i.path == "topology.nodes[0].group");
            QVERIFY2(warned, qPrintable(dump(p)));
        }
    }

    void theFileFormatReadsAndWritesTheDomain()
    {
        const Scenario s = nvl72(1);
        const QByteArray json = io::writeScenario(s);
        const QJsonObject group =
            QJsonDocument::fromJson(json).object()["topology"].toObject()["groups"].toArray()[0].toObject();
        QCOMPARE(group["kind"].toString(), QString("nvlink_domain"));
        QCOMPARE(group["template"].toString(), QString("gb200-nvl72"));
        const auto back = io::readScenario(json, test::bundledCatalog());
        QVERIFY2(back.ok(), qPrintable(dump(back.issues)));
        QCOMPARE(back.value->topology.groups, s.topology.groups);
        // An ordinary group is written as version 1 wrote it: no "template" key.
        Scenario plain = s;
        plain.topology.groups[0].kind = "rack";
        plain.topology.groups[0].rackTemplate.clear();
        const QJsonObject g2 = QJsonDocument::fromJson(io::writeScenario(plain))
                                   .object()["topology"]
                                   .toObject()["groups"]
                                   .toArray()[0]
                                   .toObject();
        QVERIFY(!g2.contains("template"));
        // A bad domain in a file is refused by the reader with the path into the file.
        QByteArray bad = json;
        bad.replace("\"gb200-nvl72\"", "\"gb200-nvl36\"");
        const auto refused = io::readScenario(bad, test::bundledCatalog());
        QVERIFY(!refused.ok());
        QVERIFY2(issueAt(refused.issues, "topology.groups[0].template"), qPrintable(dump(refused.issues)));
    }

    void tpGroupsOf16And32And72SpanTraysOfOneRack_data()
    {
        QTest::addColumn<int>("tp");
        QTest::addColumn<int>("pp");
        QTest::addColumn<int>("trays");
        QTest::newRow("TP 16 x PP 2") << 16 << 2 << 8;
        QTest::newRow("TP 32") << 32 << 1 << 8;
        QTest::newRow("TP 48") << 48 << 1 << 12;
    }
    void tpGroupsOf16And32And72SpanTraysOfOneRack()
    {
        QFETCH(int, tp);
        QFETCH(int, pp);
        QFETCH(int, trays);
        const Scenario s = withJobs(nvl72(2), {gpt3("wide", tp, pp, 1)});
        const Evaluation e = run(s);
        const JobResult& j = e.jobs.front();
        QVERIFY2(j.placed, j.reason.c_str());
        const Landing l = landing(s, j, tp);
        QCOMPARE(l.racks.size(), std::size_t{1});
        QCOMPARE(static_cast<int>(l.trays.size()), trays); // four GPUs a tray, all of each tray it uses
        QCOMPARE(j.tpLink, std::string("nvlink"));         // across trays, still NVLink 5
        const GpuSpec& gb200 = *test::bundledCatalog().gpu("gb200-186gb");
        QCOMPARE(j.tpLinkGBps, gb200.scaleUpBandwidthGBps / 2 * gb200.efficiency.scaleUpCollective);
        // Inside one rack nothing crosses the scale-out fabric.
        for (const auto& [link, gbps] : j.linkGbps)
            QCOMPARE(gbps, 0.0);
    }

    void tp72TakesAWholeRackAndNeverTwo()
    {
        // A model whose 144 heads TP 72 divides (no preset has such heads): two TP-72 groups
        // take one whole rack each.
        Job j = gpt3("tp72", 72, 1, 2);
        j.model.preset.clear();
        ModelArchitecture& a = j.model.custom;
        a.layers = 96;
        a.hiddenSize = 13824;
        a.attentionHeads = 144;
        a.kvHeads = 144;
        a.ffnHiddenSize = 4 * 13824;
        a.vocabSize = 50688;
        a.sequenceLength = 2048;
        a.gatedFfn = false;
        const Scenario two = withJobs(nvl72(2), {j});
        const Evaluation e = run(two);
        QVERIFY2(e.jobs[0].placed, e.jobs[0].reason.c_str());
        const Landing l = landing(two, e.jobs[0], 72);
        QVERIFY(l.everyGroupInOneRack);
        QCOMPARE(l.racks.size(), std::size_t{2});
        QCOMPARE(l.trays.size(), std::size_t{36});
        // Four GPUs taken in each rack (a small job pinned to a tray of each): 136 GPUs free, yet
        // no TP-72 group fits, for it never spans two domains; the refusal names the widest TP
        // one domain still takes.
        auto pinned = [](const std::string& id, const std::string& node) {
            Job p = gpt3(id, 4, 1, 1);
            p.model.preset = "llama3-8b";
            Pin pin;
            pin.node = node;
            p.pin = pin;
            return p;
        };
        Job one = j;
        one.parallelism.dp = 1;
        const Evaluation refused =
            run(withJobs(nvl72(2), {pinned("p0", "rack-0-tray-0"), pinned("p1", "rack-1-tray-0"), one}));
        QVERIFY(refused.jobs[0].placed && refused.jobs[1].placed);
        QVERIFY(!refused.jobs[2].placed);
        QVERIFY2(refused.jobs[2].reason.find("never spans two domains") != std::string::npos,
                 refused.jobs[2].reason.c_str());
        QVERIFY2(refused.jobs[2].reason.find("a TP of at most 68 fits") != std::string::npos,
                 refused.jobs[2].reason.c_str());
        // Four TP-32 groups: two per rack (a third would need 96 of 72 GPUs), leaving 8 free in
        // each. A TP-16 group then finds 16 free GPUs, but never in one domain: refused, with the
        // widest TP that would fit.
        const Scenario full = withJobs(nvl72(2), {gpt3("a", 32, 1, 4), gpt3("b", 16, 2, 1)});
        const Evaluation f = run(full);
        QVERIFY2(f.jobs[0].placed, f.jobs[0].reason.c_str());
        QVERIFY(landing(full, f.jobs[0], 32).everyGroupInOneRack);
        QVERIFY2(!f.jobs[1].placed, "16 GPUs are free, but 8 in each rack");
        QVERIFY2(f.jobs[1].reason.find("never spans two domains") != std::string::npos, f.jobs[1].reason.c_str());
        QVERIFY2(f.jobs[1].reason.find("a TP of at most 8 fits") != std::string::npos, f.jobs[1].reason.c_str());
        // The alternative it names fits: TP-8 groups (Llama 3 70B, two stages), one in either rack.
        Job b = gpt3("b", 8, 2, 1);
        b.model.preset = "llama3-70b";
        const Evaluation alt = run(withJobs(nvl72(2), {gpt3("a", 32, 1, 4), b}));
        QVERIFY2(alt.jobs[1].placed, alt.jobs[1].reason.c_str());
        // Wider than any domain: refused, saying the widest.
        Job wide = j;
        wide.parallelism.tp = 144;
        wide.parallelism.dp = 1;
        const Evaluation w = run(withJobs(nvl72(2), {wide})); // 144 GPUs in all, 72 a domain
        QVERIFY(!w.jobs[0].placed);
        QVERIFY2(w.jobs[0].reason.find("wider than the largest NVLink domain (72") != std::string::npos,
                 w.jobs[0].reason.c_str());
    }

    void aJobInOneRackCommunicatesOverNvlinkOnly()
    {
        // TP 16 x PP 2 x DP 2 = 64 GPUs in one rack: data-parallel and pipeline traffic stay on
        // the NVLink switches, nothing on the fabric's links.
        const Scenario inRack = withJobs(nvl72(1), {gpt3("j", 16, 2, 2)});
        const Evaluation a = run(inRack);
        QVERIFY2(a.jobs[0].placed, a.jobs[0].reason.c_str());
        QCOMPARE(a.jobs[0].tpLink, std::string("nvlink"));
        for (const auto& [link, gbps] : a.jobs[0].linkGbps)
            QCOMPARE(gbps, 0.0);
        for (const LinkResult& l : a.links)
            QCOMPARE(l.loadGbps, 0.0);
        // The same trays as ordinary racks (no NVLink domain): TP 16 fits no four-GPU tray.
        Scenario plain = nvl72(1);
        for (Group& g : plain.topology.groups) {
            g.kind = "rack";
            g.rackTemplate.clear();
        }
        const Evaluation b = evaluate(withJobs(plain, {gpt3("j", 16, 2, 2)}), test::bundledCatalog());
        QVERIFY(!b.jobs[0].placed);
        // TP 4 x PP 8 x DP 2: on ordinary racks its pipeline and data-parallel traffic crosses the
        // fabric (loading its links) and is slower than in one NVLink domain.
        const Evaluation c = evaluate(withJobs(plain, {gpt3("k", 4, 8, 2)}), test::bundledCatalog());
        const Evaluation d = run(withJobs(nvl72(1), {gpt3("k", 4, 8, 2)}));
        const JobResult& overFabric = c.jobs.front();
        const JobResult& overNvlink = d.jobs.front();
        QVERIFY2(overFabric.placed && overNvlink.placed, (overFabric.reason + overNvlink.reason).c_str());
        double fabricLoad = 0.0;
        for (const LinkResult& l : c.links)
            fabricLoad += l.loadGbps;
        QVERIFY(fabricLoad > 0.0);
        for (const LinkResult& l : d.links)
            QCOMPARE(l.loadGbps, 0.0);
        QVERIFY2(overNvlink.perf.stepTimeS < overFabric.perf.stepTimeS,
                 qPrintable(QString("%1 vs %2").arg(overNvlink.perf.stepTimeS).arg(overFabric.perf.stepTimeS)));
    }

    /// An expert-parallel group across trays of one rack runs its all-to-alls over NVLink, as a TP
    /// group does; the same trays as ordinary racks send them over the fabric, slower.
    void anExpertGroupAcrossTraysOfOneRackUsesNvlink()
    {
        Job moe = gpt3("moe", 1, 1, 8);
        ModelArchitecture qwen = test::bundledCatalog().model("qwen3-30b-a3b")->arch; // 128 experts
        qwen.sequenceLength = 4096;
        moe.model.preset.clear();
        moe.model.custom = qwen; // EP 8 over 8 GPUs on two trays
        moe.parallelism.ep = 8;
        moe.batch = {1, 64};
        const Evaluation a = run(withJobs(nvl72(1), {moe}));
        QVERIFY2(a.jobs[0].placed, a.jobs[0].reason.c_str());
        QCOMPARE(landing(withJobs(nvl72(1), {moe}), a.jobs[0], 1).trays.size(), std::size_t(2));
        QCOMPARE(a.jobs[0].epLink, std::string("nvlink"));
        Scenario plain = nvl72(1);
        for (Group& g : plain.topology.groups) {
            g.kind = "rack";
            g.rackTemplate.clear();
        }
        const Evaluation b = evaluate(withJobs(plain, {moe}), test::bundledCatalog());
        QVERIFY2(b.jobs[0].placed, b.jobs[0].reason.c_str());
        QCOMPARE(b.jobs[0].epLink, std::string("fabric"));
        QVERIFY(a.jobs[0].perf.breakdown.epAllToAll < b.jobs[0].perf.breakdown.epAllToAll);
    }

    /// An expert-parallel group wider than a tray stays in one rack where a rack holds it: 96
    /// GPUs of EP 32 on two racks of 72 go 64 + 32 (three whole groups), not 72 + 24 (the third
    /// group straddling the racks and its all-to-all at NIC speed), as Megatron-Bridge asks Slurm
    /// for a segment of trays per NVL72 rack.
    void expertGroupsWiderThanATrayStayInOneRack()
    {
        Job moe = gpt3("moe", 1, 1, 96);
        ModelArchitecture qwen = test::bundledCatalog().model("qwen3-30b-a3b")->arch; // 128 experts
        qwen.sequenceLength = 4096;
        moe.model.preset.clear();
        moe.model.custom = qwen;
        moe.parallelism.ep = 32;
        moe.batch = {1, 384};
        const Scenario s = withJobs(nvl72(2), {moe});
        const Evaluation a = run(s);
        QVERIFY2(a.jobs[0].placed, a.jobs[0].reason.c_str());
        const Landing blocks = landing(s, a.jobs[0], 32);
        QVERIFY(blocks.everyGroupInOneRack);
        QCOMPARE(blocks.racks.size(), std::size_t(2));
        QCOMPARE(a.jobs[0].epLink, std::string("nvlink"));
        // A rack already holding 68 busy GPUs (placed first: the larger job) has room for no
        // group of 32: both groups of a 64-GPU job go to the other rack, none straddles.
        Job filler = gpt3("filler", 4, 1, 17);
        filler.model.preset = "llama3-8b";
        filler.batch = {1, 68};
        moe.parallelism.dp = 64;
        moe.batch = {1, 256};
        const Scenario busy = withJobs(nvl72(2), {filler, moe});
        const Evaluation b = run(busy);
        QVERIFY2(b.jobs[1].placed, b.jobs[1].reason.c_str());
        QVERIFY(landing(busy, b.jobs[1], 32).everyGroupInOneRack);
        QCOMPARE(landing(busy, b.jobs[1], 32).racks.size(), std::size_t(1));
        QCOMPARE(b.jobs[1].epLink, std::string("nvlink"));
    }

    /// A data-parallel ring across two NVL72 racks crosses the network between the racks only:
    /// its 36 trays are two NVLink domains, not 36 nodes (NCCL's nInterSteps, collectiveS). Two
    /// profiles that differ only in the network hop's latency (ring only) tell the all-reduce's
    /// network steps apart: 2 (racks - 1) of them, 28 us at 14 us each, where 36 nodes would
    /// have been 70 steps (980 us).
    void aRingAcrossRacksCrossesTheNetworkOncePerRack()
    {
        Catalog c = test::bundledCatalog();
        SoftwareStack hops = *c.softwareStack("megatron-lm");
        hops.id = "hops";
        hops.treeAllReduceBandwidth = 0.0; // the ring only
        SoftwareStack none = hops;
        none.id = "no-network-hops";
        none.ringHopLatencyNetworkUs = 0.0;
        c.softwareStacks.push_back(hops);
        c.softwareStacks.push_back(none);
        auto dataParallelS = [&](const std::string& stack) {
            Job j = gpt3("j", 4, 1, 36); // 144 GPUs: both racks, one TP group per tray
            j.model.preset = "llama3-8b";
            j.batch = {1, 36};
            j.softwareStack = stack;
            const Evaluation e = evaluate(withJobs(nvl72(2), {j}), c);
            if (!e.jobs[0].placed)
                qFatal("not placed: %s", e.jobs[0].reason.c_str());
            return e.jobs[0].perf.networkCommS; // the all-reduce, hidden or not (pp 1)
        };
        const double withHops = dataParallelS("hops"), without = dataParallelS("no-network-hops");
        QVERIFY2(std::abs((withHops - without) - 2 * (2 - 1) * 14e-6) < 1e-9,
                 qPrintable(QString("%1 us").arg((withHops - without) * 1e6)));
    }

    void theJobSearchOffersTpUpToTheRack()
    {
        const Scenario s = nvl72(1);
        Job j = gpt3("search", 8, 1, 1);
        JobSearchSetup setup = jobSearchSetup(s, test::bundledCatalog(), j, s.topology.nodes.front());
        QCOMPARE(setup.rackDomainGpus, 72);
        QCOMPARE(setup.gpusPerNode, 4);
        setup.gpusMin = setup.gpusMax = 64;
        JobSearchOptions all;
        all.topK = 100000; // every feasible configuration
        const JobSearchResult r = searchJob(setup, all);
        QVERIFY2(!r.top.empty(), r.infeasibleReason.c_str());
        int widest = 0;
        for (const JobConfig& c : r.top)
            widest = std::max(widest, c.parallelism.tp);
        QCOMPARE(widest, 32); // TP wider than a tray is searched inside the rack (64 does not divide 96 heads)
        JobSearchSetup trayOnly = setup;
        trayOnly.rackDomainGpus = 0;
        QVERIFY(searchJob(trayOnly, all).configurations < r.configurations);
        // Across the rack the collectives run over NVLink, not the NICs.
        const CommBandwidth inRack = jobSearchComm(setup, 64);
        QCOMPARE(inRack.dataParallelGBps, inRack.tensorParallelGBps);
        const CommBandwidth beyond = jobSearchComm(setup, 144);
        QCOMPARE(beyond.dataParallelGBps, setup.networkGBpsPerGpu);
    }

    void fragmentationCountsTpRoomPerDomain()
    {
        // The mix is TP-16 groups. 48 GPUs taken leave 24 free in the rack, on six trays: a TP-16
        // group fits there, so nothing free is a fragment (measured tray by tray, every tray's
        // four free GPUs would be: no tray holds 16).
        const Evaluation roomy = run(withJobs(nvl72(1), {gpt3("a", 16, 3, 1)}));
        QVERIFY(roomy.jobs[0].placed);
        QCOMPARE(roomy.kpis.fragmentation, 0.0);
        // 64 taken leave 8: too few for a TP-16 group in this domain, all of it a fragment.
        const Evaluation tight = run(withJobs(nvl72(1), {gpt3("a", 16, 4, 1)}));
        QVERIFY(tight.jobs[0].placed);
        QCOMPARE(tight.kpis.fragmentation, 1.0);
        // Two racks with 8 free each (TP-32 groups, two a rack): 16 free GPUs, never 32 in one domain.
        const Evaluation split = run(withJobs(nvl72(2), {gpt3("a", 32, 1, 4)}));
        QVERIFY(split.jobs[0].placed);
        QCOMPARE(split.kpis.fragmentation, 1.0);
    }

    void thePlanSearchTreatsARackAsAUnit()
    {
        // Three racks, one job on one of them: the search may drop idle racks, never a tray
        // (a rack short of a tray is refused), and every plan it offers is valid.
        const Scenario s = withJobs(nvl72(3), {gpt3("a", 16, 2, 1)});
        PlanSearchOptions o;
        o.timeLimitS = 20.0;
        o.jobMoves = false;
        const PlanSearchResult r = searchPlan(s, test::bundledCatalog(), o);
        QVERIFY(!r.pareto.empty());
        bool fewer = false;
        for (const PlanCandidate& p : r.pareto) {
            const Issues issues = validateScenario(p.scenario, test::bundledCatalog());
            QVERIFY2(!hasErrors(issues), qPrintable(dump(issues)));
            QCOMPARE(p.scenario.topology.nodes.size() % 18, std::size_t{0});
            QCOMPARE(p.scenario.topology.groups.size(), p.scenario.topology.nodes.size() / 18);
            fewer = fewer || p.scenario.topology.nodes.size() < s.topology.nodes.size();
        }
        QVERIFY2(fewer, "idle racks cost money: a plan without one is offered");
    }

    void theSampleLoadsPlacesAndSpansTrays()
    {
        const QString path = QDir(test::dataDir()).absoluteFilePath("samples/06-gb200-nvl72-rack.json");
        const auto r = io::readScenarioFile(path, test::bundledCatalog());
        QVERIFY2(r.ok(), qPrintable(dump(r.issues)));
        QVERIFY2(!hasErrors(r.issues), qPrintable(dump(r.issues)));
        const Scenario& s = *r.value;
        QCOMPARE(s.topology.nodes.size(), std::size_t{36});
        const Evaluation e = evaluate(s, test::bundledCatalog());
        for (const JobResult& j : e.jobs)
            QVERIFY2(j.placed, (j.id + ": " + j.reason).c_str());
        const JobResult& pretrain = e.jobs.front();
        const Landing l = landing(s, pretrain, 16);
        QVERIFY(l.everyGroupInOneRack);
        QCOMPARE(l.racks.size(), std::size_t{2}); // 128 GPUs: eight TP-16 groups, four per rack
        QCOMPARE(pretrain.tpLink, std::string("nvlink"));
    }
};

QTEST_GUILESS_MAIN(TestRackDomains)
#include "tst_rackdomains.moc"
