// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
// The canvas draws a rack-scale NVLink domain (issue 37) as a frame round its trays, labelled
// "NVL72 domain", readable on a 1366×768 screen; a tray dragged with the mouse stays inside its
// rack's frame (the frame follows it, live and after the move), and the frame takes no click.
#include "windowfixture.h"

#include "ui/canvas/linkitem.h"
#include "ui/canvas/linklayer.h"
#include "ui/canvas/rackframeitem.h"
#include "ui/edit/propertiespanel.h"
#include "ui/palette.h"

#include "io/scenariowriter.h"

#include "model/validation.h"

#include <QComboBox>
#include <QPushButton>
#include <QTemporaryDir>
#include <QTest>
#include <QTreeWidget>

using namespace gp;

namespace {

const QString kSample = "GB200 NVL72 racks: TP 16 across trays";

} // namespace

class TestRackCanvas : public QObject
{
    Q_OBJECT

    QTemporaryDir mTmp;

    std::unique_ptr<ui::MainWindow> open()
    {
        auto w = test::openLibraryScenario(mTmp.filePath("lib.sqlite"), kSample);
        w->resize(1366, 768);
        QTest::qWait(50);
        return w;
    }

    static QWidget* viewport(ui::MainWindow* w) { return w->canvasView()->viewport(); }

private Q_SLOTS:
    void eachRackIsAFramedDomainReadableOnASmallScreen()
    {
        auto w = open();
        ui::CanvasScene* scene = w->canvasScene();
        QCOMPARE(scene->rackFrames().size(), 2);
        const Scenario& s = w->currentDocument()->scenario();
        for (const char* rack : {"nvl72-a", "nvl72-b"}) {
            ui::RackFrameItem* f = scene->rackFrame(rack);
            QVERIFY2(f, rack);
            QVERIFY2(f->label().startsWith("NVL72 domain"), qPrintable(f->label()));
            QCOMPARE(f->trays().size(), 18);
            for (const Node& n : s.topology.nodes) {
                const QRectF tray = scene->item(QString::fromStdString(n.id))->sceneBoundingRect();
                QCOMPARE(f->frame().contains(tray), n.group == rack); // its own trays, no other
            }
            // Its label drawn at the scale the plan opens at (at least 12 px high), and the frame
            // on screen once scrolled to at that scale.
            ui::CanvasView* view = w->canvasView();
            const double scale = view->transform().m11();
            view->stopAutoFit();
            view->centerOn(f->frame().center());
            const QRect onScreen = view->mapFromScene(f->frame()).boundingRect();
            QVERIFY2(onScreen.intersects(view->viewport()->rect()),
                     qPrintable(QString("frame %1,%2 %3x%4 in a %5x%6 viewport at scale %7")
                                    .arg(onScreen.x())
                                    .arg(onScreen.y())
                                    .arg(onScreen.width())
                                    .arg(onScreen.height())
                                    .arg(view->viewport()->width())
                                    .arg(view->viewport()->height())
                                    .arg(scale)));
            QVERIFY2(f->labelShownAt(scale, scene->font()), qPrintable(QString("scale %1").arg(scale)));
            // Drawn above the links, so that none crosses the label, and below the trays; inside
            // the frame (between trays) a hit reaches what is under it, not the frame.
            int links = 0;
            for (QGraphicsItem* item : scene->items())
                if (item->type() == ui::LinkItem::Type || item->type() == ui::LinkLayerItem::Type) {
                    ++links;
                    QVERIFY(item->zValue() < f->zValue());
                }
            QVERIFY(links > 0);
            for (QGraphicsItem* tray : f->trays())
                QVERIFY(tray->zValue() > f->zValue());
            const QRectF first = f->trays().front()->sceneBoundingRect();
            const QPointF between = first.bottomRight() + QPointF(8, 8);
            QVERIFY(f->frame().contains(between));
            QVERIFY(!scene->items(between).contains(f));
        }
    }

    void aDraggedTrayStaysInsideItsFrame()
    {
        auto w = open();
        ui::CanvasView* view = w->canvasView();
        ui::CanvasScene* scene = w->canvasScene();
        document::Document* doc = w->currentDocument();
        view->stopAutoFit();
        view->resetTransform();
        QGraphicsItem* tray = scene->item("nvl72-a-tray-17");
        view->centerOn(tray->sceneBoundingRect().center());
        const ui::RackFrameItem* frame = scene->rackFrame("nvl72-a");
        const QRectF before = frame->frame();
        const Point start = doc->scenario().topology.findNode("nvl72-a-tray-17")->position;

        const QPoint from = view->mapFromScene(tray->mapToScene(QPointF(130, 20)));
        QTest::mousePress(viewport(w.get()), Qt::LeftButton, {}, from);
        for (int step = 1; step <= 4; ++step)
            QTest::mouseMove(viewport(w.get()), from + QPoint(step * 40, step * 45));
        // Live: the frame already holds the tray where it is being dragged.
        QVERIFY(frame->frame().contains(tray->sceneBoundingRect()));
        QTest::mouseRelease(viewport(w.get()), Qt::LeftButton, {}, from + QPoint(160, 180));

        QCOMPARE(doc->undoStack()->count(), 1);
        const Point moved = doc->scenario().topology.findNode("nvl72-a-tray-17")->position;
        QCOMPARE(moved.x, start.x + 160.0);
        QCOMPARE(moved.y, start.y + 180.0);
        // The frame the scene shows now is the one made from the edited scenario.
        frame = scene->rackFrame("nvl72-a");
        QVERIFY(frame);
        QVERIFY(frame->frame().contains(scene->item("nvl72-a-tray-17")->sceneBoundingRect()));
        QVERIFY(frame->frame().bottom() > before.bottom()); // it grew to hold the tray (of the bottom row)
        QVERIFY(frame->frame().contains(before.adjusted(1, 1, -1, -1)) || frame->frame().top() <= before.top());
        // Undo puts the tray back and the frame round it as it was.
        QTest::keyClick(w.get(), Qt::Key_Z, Qt::ControlModifier);
        QCOMPARE(scene->rackFrame("nvl72-a")->frame(), before);
    }

    /// The palette offers the catalog's racks; double-clicking one adds its 18 trays as one
    /// NVLink domain that validates, draws as a frame, and goes again with one undo.
    void aRackFromThePaletteIsOneDomainOfItsTrays_data()
    {
        QTest::addColumn<QSize>("screen");
        QTest::newRow("1920x1080") << QSize(1920, 1080);
        QTest::newRow("1366x768") << QSize(1366, 768);
    }
    void aRackFromThePaletteIsOneDomainOfItsTrays()
    {
        QFETCH(QSize, screen);
        auto w = open();
        w->resize(screen);
        QTest::qWait(50);
        auto* palette = w->findChild<ui::Palette*>();
        QVERIFY(palette);
        QVERIFY(w->raisePanel("Palette"));
        QTreeWidgetItem* entry = palette->entry("rack:gb300-nvl72");
        QVERIFY(entry);
        QTreeWidget* tree = palette->tree();
        tree->scrollToItem(entry);
        const QPoint at = tree->visualItemRect(entry).center();
        QVERIFY(tree->viewport()->rect().contains(at));
        document::Document* doc = w->currentDocument();
        const std::size_t nodesBefore = doc->scenario().topology.nodes.size();
        QTest::mouseClick(tree->viewport(), Qt::LeftButton, {}, at);
        QTest::mouseDClick(tree->viewport(), Qt::LeftButton, {}, at);

        const Topology& t = doc->scenario().topology;
        QCOMPARE(t.groups.size(), std::size_t(3));
        const Group& rack = t.groups.back();
        QVERIFY(rack.isNvlinkDomain());
        QCOMPARE(QString::fromStdString(rack.rackTemplate), QString("gb300-nvl72"));
        QCOMPARE(t.nodes.size(), nodesBefore + 18);
        for (std::size_t i = nodesBefore; i < t.nodes.size(); ++i) {
            QCOMPARE(QString::fromStdString(t.nodes[i].group), QString::fromStdString(rack.id));
            QCOMPARE(QString::fromStdString(t.nodes[i].templateId), QString("gb300-nvl72-tray"));
        }
        for (const Issue& i : validateScenario(doc->scenario(), w->workbench().catalog()))
            QVERIFY2(i.path.find("groups") == std::string::npos && i.path.find("nodes[") == std::string::npos,
                     qPrintable(QString::fromStdString(i.path + ": " + i.message)));
        ui::RackFrameItem* frame = w->canvasScene()->rackFrame(QString::fromStdString(rack.id));
        QVERIFY(frame);
        QCOMPARE(frame->trays().size(), 18);
        QCOMPARE(doc->undoStack()->count(), 1);
        QTest::keyClick(w.get(), Qt::Key_Z, Qt::ControlModifier);
        QCOMPARE(doc->scenario().topology.nodes.size(), nodesBefore);
        QCOMPARE(doc->scenario().topology.groups.size(), std::size_t(2));
        QCOMPARE(w->canvasScene()->rackFrames().size(), 2);
    }

    /// A node's Group field in the inspector: a tray shows its NVLink domain; taking it out of
    /// the rack would leave the rack a tray short, so Apply is refused with the reason and the
    /// plan stays as it was; a DGX moves between plain racks as one undoable edit.
    void aNodesGroupIsEditableInTheInspector()
    {
        auto w = open();
        document::Document* doc = w->currentDocument();
        ui::PropertiesPanel* props = w->properties();
        ui::CanvasView* view = w->canvasView();
        view->stopAutoFit();
        view->resetTransform();
        QGraphicsItem* tray = w->canvasScene()->item("nvl72-a-tray-05");
        view->centerOn(tray->sceneBoundingRect().center());
        QTest::mouseClick(viewport(w.get()), Qt::LeftButton, {},
                          view->mapFromScene(tray->mapToScene(QPointF(130, 12))));
        QCOMPARE(w->canvasScene()->selectedIds(), QStringList{"nvl72-a-tray-05"});
        auto* group = qobject_cast<QComboBox*>(props->field("group"));
        QVERIFY(group);
        QVERIFY2(group->currentText().startsWith("Rack A — NVLink domain"), qPrintable(group->currentText()));
        const QByteArray before = io::writeScenario(doc->scenario());
        group->setFocus();
        QTest::keyClick(group, Qt::Key_Home); // "(none)"
        QCOMPARE(group->currentIndex(), 0);
        QVERIFY(!props->canApply());
        QVERIFY2(props->message().contains("nvl72-a"), qPrintable(props->message()));
        QCOMPARE(io::writeScenario(doc->scenario()), before);

        auto plain = test::openLibraryScenario(mTmp.filePath("plain.sqlite"), "DGX H100 pod: three tenants");
        document::Document* pod = plain->currentDocument();
        plain->canvasScene()->setSelectedIds({"node-004"});
        auto* choice = qobject_cast<QComboBox*>(plain->properties()->field("group"));
        QVERIFY(choice);
        QCOMPARE(choice->currentText(), QString("Rack 1 — rack"));
        choice->setFocus();
        QTest::keyClick(choice, Qt::Key_End); // "Rack 2"
        QVERIFY2(plain->properties()->canApply(), qPrintable(plain->properties()->message()));
        auto* apply = plain->properties()->findChild<QPushButton*>("applyProperties");
        QVERIFY(apply);
        QTest::mouseClick(apply, Qt::LeftButton);
        QCOMPARE(pod->scenario().topology.findNode("node-004")->group, std::string("rack-01"));
        QCOMPARE(pod->undoStack()->count(), 1);
        pod->undoStack()->undo();
        QCOMPARE(pod->scenario().topology.findNode("node-004")->group, std::string("rack-00"));
    }

    void theFrameTakesNoClick()
    {
        auto w = open();
        ui::CanvasView* view = w->canvasView();
        ui::CanvasScene* scene = w->canvasScene();
        view->stopAutoFit();
        view->resetTransform();
        const ui::RackFrameItem* frame = scene->rackFrame("nvl72-a");
        const QPointF label = frame->frame().topLeft() + QPointF(40, 20); // inside, above the trays
        view->centerOn(label);
        QTest::mouseClick(viewport(w.get()), Qt::LeftButton, {}, view->mapFromScene(label));
        QVERIFY(scene->selectedIds().isEmpty());
        QCOMPARE(w->currentDocument()->undoStack()->count(), 0);
        QCOMPARE(scene->idAt(label), QString());
    }
};

QTEST_MAIN(TestRackCanvas)
#include "tst_rackcanvas.moc"
