// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
// Edits as commands: adding, removing and generating topology, undone and redone exactly.
#include "document/document.h"
#include "document/editscenariocmd.h"
#include "document/moveitemscmd.h"
#include "document/setsharingcmd.h"
#include "document/topologyedits.h"
#include "io/scenariowriter.h"
#include "io/scenarioreader.h"
#include "model/validation.h"
#include "testsupport.h"

#include <QtTest>

using namespace gp;
using namespace gp::document;

namespace {

Scenario sample()
{
    return *io::readScenarioFile(test::sampleFiles().front(), test::bundledCatalog()).scenario;
}

} // namespace

class TestDocument : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    // Each kind of command, undone and redone twice, gives back the exact document: the
    // serialized JSON is compared byte for byte.
    void everyCommandKindUndoesAndRedoesExactly_data()
    {
        QTest::addColumn<int>("kind");
        QTest::newRow("SetSharingCmd") << 0;
        QTest::newRow("MoveItemsCmd") << 1;
        QTest::newRow("AddItemsCmd") << 2;
        QTest::newRow("RemoveItemsCmd") << 3;
        QTest::newRow("EditScenarioCmd") << 4;
    }

    void everyCommandKindUndoesAndRedoesExactly()
    {
        QFETCH(int, kind);
        Document doc(sample());
        const QByteArray before = io::writeScenario(doc.scenario());
        QUndoCommand* cmd = nullptr;
        switch (kind) {
        case 0: {
            SharingConfig mig;
            mig.mode = SharingMode::Mig;
            mig.migInstances = {{"3g.40gb", 0}, {"3g.40gb", 4}};
            cmd = new SetSharingCmd(&doc, {"node-001", "node-002"}, mig);
            break;
        }
        case 1: cmd = new MoveItemsCmd(&doc, {{"node-001", {500, 700}}, {"leaf-00", {-20, 40}}}); break;
        case 2: {
            TopologyItems items;
            items.nodes.push_back(nodeFromTemplate(*test::bundledCatalog().nodeTemplate("dgx-h100"), doc.scenario(), {0, 900}));
            cmd = new AddItemsCmd(&doc, items, "Add node");
            break;
        }
        case 3: cmd = new RemoveItemsCmd(&doc, {"node-007", "leaf-00-spine-00"}); break;
        case 4: {
            Scenario s = doc.scenario();
            s.tenants[1].name = "Acme \"Retail\"";
            s.tenants[1].jobs[0].batch.global = 256;
            s.topology.links[0].bandwidthGbps = 800;
            cmd = new EditScenarioCmd(&doc, s, "Edit");
            break;
        }
        default: QFAIL("unknown kind");
        }
        doc.undoStack()->push(cmd);
        const QByteArray after = io::writeScenario(doc.scenario());
        QVERIFY(after != before);
        QVERIFY(!hasErrors(validateScenario(doc.scenario(), test::bundledCatalog())));
        for (int round = 0; round < 2; ++round) {
            doc.undoStack()->undo();
            QCOMPARE(io::writeScenario(doc.scenario()), before);
            QVERIFY(!doc.isModified());
            doc.undoStack()->redo();
            QCOMPARE(io::writeScenario(doc.scenario()), after);
            QVERIFY(doc.isModified());
        }
    }

    void dropFromPaletteAddsOneNode()
    {
        Document doc(sample());
        const Scenario before = doc.scenario();
        TopologyItems items;
        items.nodes.push_back(nodeFromTemplate(*test::bundledCatalog().nodeTemplate("dgx-h100"), doc.scenario(), {100, 40}));
        QCOMPARE(items.nodes[0].id, std::string("dgx-h100-1"));
        doc.undoStack()->push(new AddItemsCmd(&doc, items, "Add node"));
        QCOMPARE(doc.scenario().topology.nodes.size(), before.topology.nodes.size() + 1);
        QCOMPARE(doc.scenario().topology.nodes.back().gpuCount, 8);
        QVERIFY(!hasErrors(validateScenario(doc.scenario(), test::bundledCatalog())));
        doc.undoStack()->undo();
        QVERIFY(doc.scenario() == before);
        doc.undoStack()->redo();
        QCOMPARE(doc.scenario().topology.nodes.back().id, std::string("dgx-h100-1"));
    }

    void deleteTakesLinksAndPinsAndUndoRestoresThem()
    {
        Document doc(sample());
        const Scenario before = doc.scenario();
        doc.undoStack()->push(new RemoveItemsCmd(&doc, {"node-007", "leaf-00"}));
        const Scenario& after = doc.scenario();
        QCOMPARE(after.topology.nodes.size(), before.topology.nodes.size() - 1);
        for (const Link& l : after.topology.links)
            QVERIFY(l.from != "node-007" && l.to != "node-007" && l.from != "leaf-00" && l.to != "leaf-00");
        QVERIFY(!after.tenants[2].jobs[0].pin.has_value()); // chat-8b was pinned to node-007
        QVERIFY(!hasErrors(validateScenario(after, test::bundledCatalog())));
        QCOMPARE(doc.undoStack()->undoText(), QString("Delete 2 item(s)"));
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
        std::string error;
        const TopologyItems items = generateFabric(spec, test::bundledCatalog(), s, error);
        QVERIFY2(error.empty(), error.c_str());
        QCOMPARE(items.nodes.size(), std::size_t(16));
        QCOMPARE(items.switches.size(), std::size_t(4 + 2));
        QCOMPARE(items.links.size(), std::size_t(4 * 2 + 16));
        double up = 0, down = 0;
        for (const Link& l : items.links)
            (l.to.rfind("spine", 0) == 0 ? up : down) += l.bandwidthGbps;
        QCOMPARE(down, 16 * 3200.0);
        QCOMPARE(up, down / 2.0); // 2:1 oversubscription
        Document doc(s);
        doc.undoStack()->push(new AddItemsCmd(&doc, items, "Generate fabric"));
        QVERIFY(!hasErrors(validateScenario(doc.scenario(), test::bundledCatalog())));
        // Too many nodes for one leaf's ports is refused with the count.
        spec.nodesPerLeaf = 16;
        generateFabric(spec, test::bundledCatalog(), s, error);
        QVERIFY2(QString::fromStdString(error).contains("needs 192 ports"), error.c_str());
    }
};

QTEST_GUILESS_MAIN(TestDocument)
#include "tst_document.moc"
