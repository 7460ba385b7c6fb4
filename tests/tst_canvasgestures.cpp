// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
// The canvas driven with the mouse and keyboard as a user does (QTest events on the real
// view): select, drag to move, Shift-drag to link, Esc to abort either, drop a job to pin it;
// and the canvas following the document by id (an edit updates only the items it names).
#include "windowfixture.h"

#include "document/commands.h"
#include "ui/canvas/canvasscene.h"
#include "ui/canvas/canvasview.h"
#include "ui/canvas/nodeitem.h"
#include "ui/edit/workloadspanel.h"

#include <QMimeData>
#include <QTemporaryDir>
#include <QTest>

using namespace gp;

class TestCanvasGestures : public QObject
{
    Q_OBJECT

    QTemporaryDir mTmp;

    std::unique_ptr<ui::MainWindow> openSample()
    {
        return test::openSampleAtOneToOne(mTmp.filePath("lib.sqlite"), "node-002");
    }

    /// Where an item's point (item coordinates) is in the view's viewport.
    static QPoint at(ui::MainWindow* w, const QString& id, QPointF local = {130, 20})
    {
        return w->canvasView()->mapFromScene(w->canvasScene()->item(id)->mapToScene(local));
    }

    static QWidget* viewport(ui::MainWindow* w) { return w->canvasView()->viewport(); }

private Q_SLOTS:
    void clickSelectsAndCtrlClickAdds()
    {
        auto w = openSample();
        QTest::mouseClick(viewport(w.get()), Qt::LeftButton, {}, at(w.get(), "node-002"));
        QCOMPARE(w->canvasScene()->selectedIds(), QStringList{"node-002"});
        QTest::mouseClick(viewport(w.get()), Qt::LeftButton, Qt::ControlModifier, at(w.get(), "node-003"));
        QStringList ids = w->canvasScene()->selectedIds();
        ids.sort();
        QCOMPARE(ids, (QStringList{"node-002", "node-003"}));
    }

    void dragMovesByTheGridAsOneUndoStep()
    {
        auto w = openSample();
        document::Document* doc = w->currentDocument();
        const Point start = doc->scenario().topology.nodes[1].position; // node-002
        const QPoint from = at(w.get(), "node-002");
        QTest::mousePress(viewport(w.get()), Qt::LeftButton, {}, from);
        for (int step = 1; step <= 4; ++step)
            QTest::mouseMove(viewport(w.get()), from + QPoint(step * 22, step * 13));
        QTest::mouseRelease(viewport(w.get()), Qt::LeftButton, {}, from + QPoint(88, 52));
        QCOMPARE(doc->undoStack()->count(), 1);
        QCOMPARE(doc->undoStack()->undoText(), QString("Move node-002"));
        const Point moved = doc->scenario().topology.nodes[1].position;
        QCOMPARE(moved.x, start.x + 80.0); // 88 px at 1:1, snapped to the 20-unit grid
        QCOMPARE(moved.y, start.y + 60.0);
        QCOMPARE(w->canvasScene()->item("node-002")->pos(), QPointF(moved.x, moved.y));
        QTest::keyClick(w.get(), Qt::Key_Z, Qt::ControlModifier);
        QCOMPARE(doc->scenario().topology.nodes[1].position.x, start.x);
        QCOMPARE(w->canvasScene()->item("node-002")->pos(), QPointF(start.x, start.y));
    }

    void escapeDuringADragPutsItBackAndMakesNoCommand()
    {
        auto w = openSample();
        document::Document* doc = w->currentDocument();
        const QPointF start = w->canvasScene()->item("node-002")->pos();
        const QPoint from = at(w.get(), "node-002");
        QTest::mousePress(viewport(w.get()), Qt::LeftButton, {}, from);
        QTest::mouseMove(viewport(w.get()), from + QPoint(60, 40));
        QVERIFY(w->canvasScene()->item("node-002")->pos() != start); // the live preview
        QTest::keyClick(w->canvasView(), Qt::Key_Escape);
        QCOMPARE(w->canvasScene()->item("node-002")->pos(), start);
        QVERIFY(!w->canvasView()->gestureActive());
        QTest::mouseRelease(viewport(w.get()), Qt::LeftButton, {}, from + QPoint(60, 40));
        QCOMPARE(doc->undoStack()->count(), 0);
        QCOMPARE(w->canvasScene()->item("node-002")->pos(), start);
    }

    void shiftDragLinksAndEscapeAborts()
    {
        auto w = openSample();
        document::Document* doc = w->currentDocument();
        const std::size_t links = doc->scenario().topology.links.size();
        // Esc first: the dashed preview goes, no link is made.
        QTest::mousePress(viewport(w.get()), Qt::LeftButton, Qt::ShiftModifier, at(w.get(), "node-002"));
        QTest::mouseMove(viewport(w.get()), at(w.get(), "node-003"));
        QVERIFY(w->canvasView()->previewLine().has_value());
        QTest::keyClick(w->canvasView(), Qt::Key_Escape);
        QVERIFY(!w->canvasView()->previewLine().has_value());
        QTest::mouseRelease(viewport(w.get()), Qt::LeftButton, Qt::ShiftModifier, at(w.get(), "node-003"));
        QCOMPARE(doc->scenario().topology.links.size(), links);
        // Then the whole gesture: one link at the ports' bandwidth, one undo step.
        QTest::mousePress(viewport(w.get()), Qt::LeftButton, Qt::ShiftModifier, at(w.get(), "node-002"));
        QTest::mouseMove(viewport(w.get()), at(w.get(), "node-003"));
        QTest::mouseRelease(viewport(w.get()), Qt::LeftButton, Qt::ShiftModifier, at(w.get(), "node-003"));
        QCOMPARE(doc->scenario().topology.links.size(), links + 1);
        QCOMPARE(doc->scenario().topology.links.back().id, std::string("node-002-node-003"));
        QCOMPARE(doc->undoStack()->undoText(), QString("Link node-002 and node-003"));
        QVERIFY(!w->canvasView()->previewLine().has_value());
    }

    // An undo that rebuilds the scene while a Shift-drag is under way leaves nothing dangling.
    void aRebuildDuringALinkGestureIsSafe()
    {
        auto w = openSample();
        document::Document* doc = w->currentDocument();
        doc->push(document::renameScenario(doc->scenario(), "renamed"));
        QTest::mousePress(viewport(w.get()), Qt::LeftButton, Qt::ShiftModifier, at(w.get(), "node-002"));
        QTest::mouseMove(viewport(w.get()), at(w.get(), "node-003"));
        doc->push(document::replaceScenario(doc->scenario(), test::bundledCatalog(), doc->scenario(), "Import"));
        doc->undoStack()->undo(); // a Reset: the scene rebuilds mid-gesture
        QTest::mouseMove(viewport(w.get()), at(w.get(), "node-004"));
        QTest::mouseRelease(viewport(w.get()), Qt::LeftButton, Qt::ShiftModifier, at(w.get(), "node-004"));
        QCOMPARE(doc->scenario().topology.links.back().id, std::string("node-002-node-004"));
    }

    void droppingAJobOnAGpuPinsIt()
    {
        auto w = openSample();
        QTRY_COMPARE(w->workloads()->rowCount(), 5);
        const QPointF local = ui::NodeItem::gpuCell(2).center();
        const QPoint where = at(w.get(), "node-003", local);
        QMimeData mime;
        mime.setData(ui::CanvasView::kJobMimeType, "acme-ft");
        QDragEnterEvent enter(where, Qt::MoveAction, &mime, Qt::LeftButton, {});
        QCoreApplication::sendEvent(viewport(w.get()), &enter);
        QDropEvent drop(where, Qt::MoveAction, &mime, Qt::LeftButton, {});
        QCoreApplication::sendEvent(viewport(w.get()), &drop);
        const Job& job = w->currentDocument()->scenario().tenants[1].jobs[0];
        QVERIFY(job.pin.has_value());
        QCOMPARE(job.pin->node, std::string("node-003"));
        QCOMPARE(*job.pin->gpu, 2);
        QCOMPARE(w->currentDocument()->undoStack()->undoText(), QString("Pin acme-ft to node-003 GPU 2"));
    }

    // An edit updates the items it names and leaves every other item as it was.
    void anEditUpdatesOnlyTheItemsItNames()
    {
        auto w = openSample();
        document::Document* doc = w->currentDocument();
        ui::CanvasScene* scene = w->canvasScene();
        QGraphicsItem* other = scene->item("node-001");
        QGraphicsItem* edited = scene->item("node-003");
        const int itemsBefore = static_cast<int>(scene->items().size());
        QVERIFY(doc->push(document::patchFields(doc->scenario(), test::bundledCatalog(),
                                                {*document::parseFieldPatch("nodes[node-003].name=Three").value}))
                    .empty());
        QCOMPARE(scene->item("node-001"), other);  // not rebuilt
        QCOMPARE(scene->item("node-003"), edited); // updated in place
        QVERIFY(edited->toolTip().startsWith("Three\n"));
        QCOMPARE(static_cast<int>(scene->items().size()), itemsBefore);
        // A removal takes the node and its links; undo brings both back as new items.
        doc->push(document::removeItems(doc->scenario(), test::bundledCatalog(), {"node-003"}));
        QVERIFY(!scene->item("node-003"));
        QCOMPARE(scene->item("node-001"), other);
        QVERIFY(static_cast<int>(scene->items().size()) < itemsBefore);
        doc->undoStack()->undo();
        QVERIFY(scene->item("node-003"));
        QCOMPARE(static_cast<int>(scene->items().size()), itemsBefore);
        QCOMPARE(scene->item("node-001"), other);
    }
};

QTEST_MAIN(TestCanvasGestures)
#include "tst_canvasgestures.moc"
