// Edits as commands: adding, removing and generating topology, undone and redone exactly.
#include "document/document.h"
#include "document/topologyedits.h"
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
