// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
// The document's edits (document/commands.h), headless: every rule done, undone and redone
// byte for byte; what each announces; what each refuses, with the core's issues; gestures
// that merge; the one fresh-id scheme.
#include "document/commands.h"
#include "document/document.h"
#include "document/jobedits.h"
#include "document/topologyedits.h"
#include "io/scenarioreader.h"
#include "io/scenariowriter.h"
#include "model/ids.h"
#include "model/validation.h"
#include "testsupport.h"

#include <QSignalSpy>
#include <QTest>

using namespace gp;
using namespace gp::document;

namespace {

Scenario sample() { return *io::readScenarioFile(test::sampleFiles().front(), test::bundledCatalog()).value; }

const Catalog& cat() { return test::bundledCatalog(); }

SharingConfig migHalves()
{
    SharingConfig mig;
    mig.mode = SharingMode::Mig;
    mig.migInstances = {{"3g.40gb", 0}, {"3g.40gb", 4}};
    return mig;
}

FieldPatch patch(const char* text) { return *parseFieldPatch(text).value; }

/// The edit a row makes of sample 01.
Result<Edit> editOf(const QString& rule, const Scenario& s)
{
    if (rule == "addItems") {
        TopologyItems items;
        items.nodes.push_back(nodeFromTemplate(*cat().nodeTemplate("dgx-h100"), s, {0, 900}));
        return addItems(s, cat(), items, "Add node");
    }
    if (rule == "removeItems")
        return removeItems(s, cat(), {"node-007", "leaf-00-spine-00"});
    if (rule == "removeJobs") // a job, and a tenant with its jobs
        return removeItems(s, cat(), {"chat-8b", "acme"});
    if (rule == "moveItems")
        return moveItems(s, {{"node-001", {500, 700}}, {"leaf-00", {-20, 40}}});
    if (rule == "addLink")
        return addLink(s, cat(), "node-001", "leaf-01");
    if (rule == "pinJob")
        return pinJob(s, cat(), "acme-ft", Pin{"node-003", 2, std::nullopt});
    if (rule == "unpinJob")
        return pinJob(s, cat(), "chat-8b", std::nullopt);
    if (rule == "setNodeSharing")
        return setNodeSharing(s, cat(), {"node-001", "node-002"}, migHalves());
    if (rule == "setGpuSharing") {
        SharingConfig ts;
        ts.mode = SharingMode::TimeSlicing;
        ts.replicas = 4;
        return setGpuSharing(s, cat(), "node-002", 3, ts);
    }
    if (rule == "addJob") {
        JobRequest r;
        r.newTenantName = "Lab \"North\"";
        r.preset = "llama3-8b";
        r.kind = JobKind::Inference;
        r.amount = 5;
        return addJob(s, cat(), r);
    }
    if (rule == "editJob") {
        JobRequest r;
        r.preset = "llama3-8b";
        r.kind = JobKind::Lora;
        r.tp = 1;
        r.pp = 1;
        r.dp = 4;
        r.amount = 2;
        return editJob(s, cat(), "acme-lora", r);
    }
    if (rule == "renameScenario")
        return renameScenario(s, "Acme \"v2\"");
    if (rule == "changeScenario") {
        Scenario c = s;
        c.tenants[1].name = "Acme \"Retail\"";
        c.tenants[1].jobs[0].batch.global = 256;
        c.topology.links[0].bandwidthGbps = 800;
        return changeScenario(s, cat(), c, "Edit");
    }
    if (rule == "replaceScenario") {
        Scenario c = s;
        std::swap(c.tenants[0], c.tenants[2]); // a reorder only a whole replacement says
        return replaceScenario(s, cat(), c, "Import");
    }
    if (rule == "patchFields")
        return patchFields(s, cat(),
                           {patch("nodes[node-003].sharing={\"mode\":\"mps\",\"mps\":{\"active_thread_pct\":50}}"),
                            patch("jobs[chat-70b].parallelism.tp=4"), patch("tenants[acme].sla.max_penalty_pct=7.5"),
                            patch("links[node-001-leaf-00].bandwidth_gbps=1600"), patch("assumptions.time_slice_ms=4"),
                            patch("groups[rack-01].name=Rack B")});
    return Result<Edit>::failure("", "unknown rule");
}

} // namespace

class TestDocument : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    // Each rule's edit, pushed, undone and redone twice, gives back the exact document: the
    // serialized JSON is compared byte for byte, and the result is a valid scenario.
    void everyRuleUndoesAndRedoesExactly_data()
    {
        QTest::addColumn<QString>("rule");
        for (const char* r : {"addItems", "removeItems", "removeJobs", "moveItems", "addLink", "pinJob", "unpinJob",
                              "setNodeSharing", "setGpuSharing", "addJob", "editJob", "renameScenario",
                              "changeScenario", "replaceScenario", "patchFields"})
            QTest::newRow(r) << QString(r);
    }

    void everyRuleUndoesAndRedoesExactly()
    {
        QFETCH(QString, rule);
        Document doc(sample());
        const QByteArray before = io::writeScenario(doc.scenario());
        Result<Edit> edit = editOf(rule, doc.scenario());
        QVERIFY2(edit.ok(), issueLines(edit.issues).c_str());
        QVERIFY(!edit.value->empty());
        QCOMPARE(io::writeScenario(doc.scenario()), before); // a rule changes nothing by itself
        QVERIFY(doc.push(std::move(edit)).empty());
        const QByteArray after = io::writeScenario(doc.scenario());
        QVERIFY(after != before);
        QVERIFY(!hasErrors(validateScenario(doc.scenario(), cat())));
        // What the file reads back as is what the document holds.
        QVERIFY(*io::readScenario(after, cat()).value == doc.scenario());
        for (int round = 0; round < 2; ++round) {
            doc.undoStack()->undo();
            QCOMPARE(io::writeScenario(doc.scenario()), before);
            QVERIFY(!doc.isModified());
            doc.undoStack()->redo();
            QCOMPARE(io::writeScenario(doc.scenario()), after);
            QVERIFY(doc.isModified());
        }
    }

    // Views are told what changed, by kind, id and field, on the edit, its undo and its redo.
    /// A value given with --set (or a form) that names a key twice is refused, as in a file:
    /// Qt's parser would keep one of the two without a word.
    void fieldPatchWithAKeyTwiceIsRefused()
    {
        const auto twice = parseFieldPatch(R"(nodes[node-003].sharing={"mode":"mps","mode":"mig"})");
        QVERIFY(!twice);
        QVERIFY2(twice.errorText().find("nodes[node-003].sharing: the value: duplicate key 'mode'") !=
                     std::string::npos,
                 twice.errorText().c_str());
        QVERIFY(parseFieldPatch(R"(nodes[node-003].sharing={"mode":"mps","mps":{"mode":1}})"));
    }

    void changesNameKindIdsAndFields()
    {
        Document doc(sample());
        QSignalSpy spy(&doc, &Document::changed);
        doc.push(setNodeSharing(doc.scenario(), cat(), {"node-002"}, migHalves()));
        QCOMPARE(spy.count(), 1);
        auto changes = spy.takeFirst().at(0).value<Changes>();
        QCOMPARE(changes.size(), std::size_t(1));
        QCOMPARE(changes[0].kind, ChangeKind::Updated);
        QCOMPARE(changes[0].item, ItemKind::Node);
        QCOMPARE(changes[0].id, std::string("node-002"));
        QCOMPARE(changes[0].fields, std::vector<std::string>{"sharing"});
        QVERIFY(!onlyMoves(changes));

        doc.push(moveItems(doc.scenario(), {{"leaf-00", {40, 40}}}));
        changes = spy.takeFirst().at(0).value<Changes>();
        QVERIFY(onlyMoves(changes));
        QCOMPARE(changes[0].item, ItemKind::Switch);

        doc.push(removeItems(doc.scenario(), cat(), {"node-007"}));
        changes = spy.takeFirst().at(0).value<Changes>();
        // its link goes first, the pin of chat-8b is dropped, then the node.
        std::set<std::string> removed, updated;
        for (const Change& c : changes)
            (c.kind == ChangeKind::Removed ? removed : updated).insert(std::string(itemKindName(c.item)) + ":" + c.id);
        QCOMPARE(removed, (std::set<std::string>{"nodes:node-007", "links:node-007-leaf-01"}));
        QCOMPARE(updated, (std::set<std::string>{"jobs:chat-8b"}));
        doc.undoStack()->undo();
        changes = spy.takeFirst().at(0).value<Changes>();
        // Undo runs backwards: the node comes back before its link.
        QCOMPARE(changes.front().kind, ChangeKind::Added);
        QCOMPARE(changes.front().id, std::string("node-007"));
        QCOMPARE(changes.back().kind, ChangeKind::Added);
        QCOMPARE(changes.back().item, ItemKind::Link);

        doc.push(replaceScenario(doc.scenario(), cat(), sample(), "Import"));
        QVERIFY(anyReset(spy.takeFirst().at(0).value<Changes>()));
    }

    // A rule that would make an invalid plan refuses with the core's issue, and nothing changes.
    void refusalsCarryTheCoresIssuesAndChangeNothing_data()
    {
        QTest::addColumn<QString>("what");
        QTest::addColumn<QString>("path");
        QTest::addColumn<QString>("message");
        QTest::newRow("pin to a missing MIG instance") << "pin"
                                                       << "tenants[0].jobs[0].pin"
                                                       << "instance";
        QTest::newRow("pin of an unknown job") << "pin-unknown"
                                               << "jobs[nobody]"
                                               << "no job";
        QTest::newRow("GPU past the node's GPUs") << "gpu"
                                                  << "nodes[node-001].gpu_sharing"
                                                  << "not one of its 8";
        QTest::newRow("link to an unknown item") << "link"
                                                 << "link.to"
                                                 << "no node or switch";
        QTest::newRow("link of an item to itself") << "self-link"
                                                   << "link.to"
                                                   << "two different ends";
        QTest::newRow("MIG layout over 7 slices") << "mig"
                                                  << "nodes[node-001].sharing"
                                                  << "slice";
        QTest::newRow("new tenant without a name") << "tenant"
                                                   << "tenant.name"
                                                   << "name the new tenant";
        QTest::newRow("patch of an id") << "patch-id"
                                        << "nodes[node-001].id"
                                        << "cannot be patched";
        QTest::newRow("patch of an unknown node") << "patch-missing"
                                                  << "nodes[node-404]"
                                                  << "no node";
        QTest::newRow("patch with a wrong type") << "patch-type"
                                                 << "jobs[chat-70b].parallelism.tp"
                                                 << "integer";
        QTest::newRow("patch to an unknown mode") << "patch-mode"
                                                  << "nodes[node-003].sharing.mode"
                                                  << "mps";
        QTest::newRow("patch of an unknown field") << "patch-field"
                                                   << "nodes[node-003].colour"
                                                   << "unknown";
        QTest::newRow("remove an unknown id") << "remove"
                                              << "node-404"
                                              << "no node";
    }

    void refusalsCarryTheCoresIssuesAndChangeNothing()
    {
        QFETCH(QString, what);
        QFETCH(QString, path);
        QFETCH(QString, message);
        const Scenario s = sample();
        Result<Edit> r;
        if (what == "pin")
            r = pinJob(s, cat(), "frontier-70b", Pin{"node-007", 0, 9});
        else if (what == "pin-unknown")
            r = pinJob(s, cat(), "nobody", Pin{"node-001", std::nullopt, std::nullopt});
        else if (what == "gpu")
            r = setGpuSharing(s, cat(), "node-001", 8, migHalves());
        else if (what == "link")
            r = addLink(s, cat(), "node-001", "leaf-99");
        else if (what == "self-link")
            r = addLink(s, cat(), "node-001", "node-001");
        else if (what == "mig") {
            SharingConfig bad = migHalves();
            bad.migInstances.push_back({"3g.40gb", 4});
            r = setNodeSharing(s, cat(), {"node-001"}, bad);
        } else if (what == "tenant") {
            JobRequest req;
            req.preset = "llama3-8b";
            req.kind = JobKind::Inference;
            req.amount = 1;
            r = addJob(s, cat(), req);
        } else if (what == "patch-id")
            r = patchFields(s, cat(), {patch("nodes[node-001].id=x")});
        else if (what == "patch-missing")
            r = patchFields(s, cat(), {patch("nodes[node-404].name=x")});
        else if (what == "patch-type")
            r = patchFields(s, cat(), {patch("jobs[chat-70b].parallelism.tp=\"four\"")});
        else if (what == "patch-mode")
            r = patchFields(s, cat(), {patch("nodes[node-003].sharing.mode=shared")});
        else if (what == "patch-field")
            r = patchFields(s, cat(), {patch("nodes[node-003].colour=red")});
        else if (what == "remove")
            r = removeItems(s, cat(), {"node-404"});
        QVERIFY(!r.ok());
        QVERIFY(hasErrors(r.issues));
        const QString text = QString::fromStdString(issueLines(r.issues));
        QVERIFY2(text.contains(path), qPrintable(text));
        QVERIFY2(text.contains(message, Qt::CaseInsensitive), qPrintable(text));
        Document doc(s);
        QVERIFY(!doc.push(std::move(r)).empty());
        QVERIFY(doc.scenario() == s);
        QCOMPARE(doc.undoStack()->count(), 0);
    }

    // Steps of one gesture (same merge key) are one undo step; another key starts a new one.
    void gesturesMergeIntoOneUndoStep()
    {
        Document doc(sample());
        const QByteArray before = io::writeScenario(doc.scenario());
        for (int x = 1; x <= 5; ++x)
            doc.push(moveItems(doc.scenario(), {{"node-001", {x * 20.0, 0}}}, "nudge node-001"));
        QCOMPARE(doc.undoStack()->count(), 1);
        QCOMPARE(doc.scenario().topology.nodes[0].position.x, 100.0);
        doc.push(moveItems(doc.scenario(), {{"node-002", {0, 0}}}, "nudge node-002"));
        QCOMPARE(doc.undoStack()->count(), 2);
        doc.undoStack()->undo();
        doc.undoStack()->undo();
        QCOMPARE(io::writeScenario(doc.scenario()), before);
        // Without a key, every step is its own.
        doc.push(moveItems(doc.scenario(), {{"node-001", {20, 0}}}));
        doc.push(moveItems(doc.scenario(), {{"node-001", {40, 0}}}));
        QCOMPARE(doc.undoStack()->count(), 2);
    }

    // A form's change is an edit of only the items and fields that differ.
    void changeScenarioUpdatesOnlyWhatDiffers()
    {
        const Scenario s = sample();
        Scenario c = s;
        c.topology.nodes[2].name = "Node three";
        c.tenants[0].jobs[0].parallelism.dp = 1;
        Result<Edit> e = changeScenario(s, cat(), c, "Edit");
        QVERIFY(e.ok());
        QCOMPARE(e.value->changes.size(), std::size_t(2));
        QCOMPARE(e.value->changes[0].id, std::string("node-003"));
        QCOMPARE(e.value->changes[0].fields, std::vector<std::string>{"name"});
        QCOMPARE(e.value->changes[1].id, std::string("frontier-70b"));
        QCOMPARE(e.value->changes[1].tenant, std::string("frontier"));
        QCOMPARE(e.value->changes[1].fields, std::vector<std::string>{"parallelism"});
        // Nothing changed: an empty edit, which the document does not push.
        Result<Edit> none = changeScenario(s, cat(), s, "Nothing");
        QVERIFY(none.ok() && none.value->empty());
        Document doc(s);
        doc.push(std::move(none));
        QCOMPARE(doc.undoStack()->count(), 0);
    }

    // Ids: one scheme for everything; numbered from templates, named (then -2, -3) otherwise.
    void freshIdsComeFromOneScheme()
    {
        const Scenario s = sample();
        IdAllocator ids(s);
        QCOMPARE(ids.numbered("dgx-h100"), std::string("dgx-h100-1"));
        QCOMPARE(ids.numbered("dgx-h100"), std::string("dgx-h100-2"));
        QCOMPARE(ids.named("acme"), std::string("acme-2")); // a tenant id is taken as well
        QCOMPARE(ids.named("node-001-leaf-00"), std::string("node-001-leaf-00-2"));
        QCOMPARE(idFromName("Lab \"North\" / GPU", "tenant"), std::string("lab-north-gpu"));
        QCOMPARE(idFromName("  ", "tenant"), std::string("tenant"));
        Result<Edit> link = addLink(s, cat(), "node-001", "leaf-00");
        QVERIFY(link.ok());
        QCOMPARE(link.value->changes[0].id, std::string("node-001-leaf-00-2"));
        JobRequest r;
        r.tenantId = "acme";
        r.preset = "llama3-8b";
        r.kind = JobKind::Inference;
        r.amount = 2;
        Scenario twice = s;
        applyEdit(twice, *addJob(twice, cat(), r).value, true);
        applyEdit(twice, *addJob(twice, cat(), r).value, true);
        QCOMPARE(twice.tenants[1].jobs.back().id, std::string("llama3-8b-inference-2"));
    }

    void dropFromPaletteAddsOneNode()
    {
        Document doc(sample());
        const Scenario before = doc.scenario();
        TopologyItems items;
        items.nodes.push_back(nodeFromTemplate(*cat().nodeTemplate("dgx-h100"), doc.scenario(), {100, 40}));
        QCOMPARE(items.nodes[0].id, std::string("dgx-h100-1"));
        doc.push(addItems(doc.scenario(), cat(), items, "Add node"));
        QCOMPARE(doc.scenario().topology.nodes.size(), before.topology.nodes.size() + 1);
        QCOMPARE(doc.scenario().topology.nodes.back().gpuCount, 8);
        doc.undoStack()->undo();
        QVERIFY(doc.scenario() == before);
        doc.undoStack()->redo();
        QCOMPARE(doc.scenario().topology.nodes.back().id, std::string("dgx-h100-1"));
    }

    void deleteTakesLinksAndPinsAndUndoRestoresThem()
    {
        Document doc(sample());
        const Scenario before = doc.scenario();
        doc.push(removeItems(doc.scenario(), cat(), {"node-007", "leaf-00"}));
        const Scenario& after = doc.scenario();
        QCOMPARE(after.topology.nodes.size(), before.topology.nodes.size() - 1);
        for (const Link& l : after.topology.links)
            QVERIFY(l.from != "node-007" && l.to != "node-007" && l.from != "leaf-00" && l.to != "leaf-00");
        QVERIFY(!after.tenants[2].jobs[0].pin.has_value()); // chat-8b was pinned to node-007
        QCOMPARE(doc.undoStack()->undoText(), QString("Delete 2 items"));
        doc.undoStack()->undo();
        QVERIFY(doc.scenario() == before);
    }

    void fabricGeneratorBuildsAValidOversubscribedFabric()
    {
        Scenario s = sample();
        FabricSpec spec;
        spec.nodeTemplate = "dgx-h100";
        spec.nodes = 16;
        spec.switchTemplate = "qm9700";
        spec.nodesPerLeaf = 4;
        spec.spines = 2;
        spec.oversubscription = 2.0;
        const Result<TopologyItems> items = generateFabric(spec, cat(), s);
        QVERIFY2(items.ok(), issueLines(items.issues).c_str());
        QCOMPARE(items.value->nodes.size(), std::size_t(16));
        QCOMPARE(items.value->switches.size(), std::size_t(4 + 2));
        QCOMPARE(items.value->links.size(), std::size_t(4 * 2 + 16));
        double up = 0, down = 0;
        for (const Link& l : items.value->links)
            (l.to.rfind("spine", 0) == 0 ? up : down) += l.bandwidthGbps;
        QCOMPARE(down, 16 * 3200.0);
        QCOMPARE(up, down / 2.0); // 2:1 oversubscription
        Document doc(s);
        QVERIFY(doc.push(addItems(s, cat(), *items.value, "Generate fabric")).empty());
        QCOMPARE(doc.scenario().topology.nodes.size(), s.topology.nodes.size() + 16);
        // Too many nodes for one leaf's ports is refused with the count.
        spec.nodesPerLeaf = 16;
        const Result<TopologyItems> tooMany = generateFabric(spec, cat(), s);
        QVERIFY(!tooMany.ok());
        QVERIFY2(QString::fromStdString(issueLines(tooMany.issues)).contains("needs 192 ports"),
                 issueLines(tooMany.issues).c_str());
    }

    /// A job's copy lands in its tenant unpinned; Best Placement pins it to the node that does
    /// best, says so in the undo text, and refuses a second time and for multi-node jobs.
    void duplicateAndBestPlacement()
    {
        const Scenario s = sample();
        const Tenant& t = s.tenants.front();
        const Job& j = t.jobs.front();
        Result<Edit> copy = duplicateJob(s, cat(), j.id);
        QVERIFY2(copy.ok(), issueLines(copy.issues).c_str());
        Document doc(s);
        doc.push(*copy.value);
        const Tenant& after = doc.scenario().tenants.front();
        QCOMPARE(after.jobs.size(), t.jobs.size() + 1);
        QCOMPARE(after.jobs.back().name, j.name + " (copy)");
        QVERIFY(!after.jobs.back().pin);
        QVERIFY(!duplicateJob(s, cat(), "nope").ok());

        const std::string small = "chat-8b";
        Result<Edit> placed = placeJobBest(s, cat(), small);
        QVERIFY2(placed.ok(), issueLines(placed.issues).c_str());
        QVERIFY2(placed.value->text.rfind("Place Llama 3 8B chat API on ", 0) == 0, placed.value->text.c_str());
        Document doc2(s);
        doc2.push(*placed.value);
        const Result<Edit> again = placeJobBest(doc2.scenario(), cat(), small);
        QVERIFY(!again.ok());
        QVERIFY2(QString::fromStdString(issueLines(again.issues)).contains("already pinned"),
                 issueLines(again.issues).c_str());
    }
};

QTEST_GUILESS_MAIN(TestDocument)
#include "tst_document.moc"
