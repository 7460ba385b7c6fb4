// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
// A canvas for big clusters (issue 17): the layered fabric layout, bundled spine links, the
// legend, sharing badges, Ctrl+F search, the minimap and the highlight of a chosen job.
#include "windowfixture.h"

#include "document/commands.h"
#include "document/document.h"
#include "document/fabriclayout.h"
#include "document/plansession.h"
#include "document/topologyedits.h"
#include "io/scenarioreader.h"
#include "ui/canvas/canvaslegend.h"
#include "ui/canvas/canvasminimap.h"
#include "ui/canvas/canvassearch.h"
#include "ui/canvas/linkitem.h"
#include "ui/canvas/linklayer.h"
#include "ui/canvas/nodeitem.h"
#include "ui/edit/canvasnavigator.h"
#include "ui/edit/workloadspanel.h"

#include <QLineEdit>
#include <QStandardPaths>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>

#include <cmath>
#include <set>

using namespace gp;

namespace {

Scenario readSample(const char* file)
{
    auto r = io::readScenarioFile(QDir(test::dataDir()).absoluteFilePath(QString("samples/") + file),
                                  test::bundledCatalog());
    if (!r.ok())
        qFatal("%s", issueLines(r.issues).c_str());
    return *r.value;
}

QRectF rectOf(const Point& at, const Point& size) { return {at.x, at.y, size.x, size.y}; }

/// No node or switch of the layout covers another.
bool overlaps(const Topology& t, const std::map<std::string, Point>& at, const document::LayoutMetrics& m)
{
    std::vector<QRectF> rects;
    for (const Node& n : t.nodes)
        rects.push_back(rectOf(at.at(n.id), m.node));
    for (const Switch& sw : t.switches)
        rects.push_back(rectOf(at.at(sw.id), m.switchBox));
    for (std::size_t i = 0; i < rects.size(); ++i)
        for (std::size_t j = i + 1; j < rects.size(); ++j)
            if (rects[i].intersects(rects[j]))
                return true;
    return false;
}

int visibleLinks(ui::CanvasScene* scene)
{
    int n = 0;
    for (QGraphicsItem* item : scene->items())
        if (qgraphicsitem_cast<ui::LinkItem*>(item) && item->isVisible())
            ++n;
    return n;
}

} // namespace

class TestBigCanvas : public QObject
{
    Q_OBJECT

    QTemporaryDir mTmp;

    std::unique_ptr<ui::MainWindow> open(const QString& name)
    {
        auto w = test::openLibraryScenario(mTmp.filePath("lib.sqlite"), name);
        if (!QTest::qWaitFor([&] { return w->session()->latest() && !w->session()->busy(); }, 10000))
            qFatal("no evaluation");
        return w;
    }

private Q_SLOTS:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

    /// The 250-node sample put all 95 switches in one row and its links formed a solid fan. The
    /// layout puts spines on top and each leaf over its rack of nodes, nothing on anything else.
    void theLayoutPutsSpinesOverLeavesOverRacks()
    {
        const Scenario s = readSample("04-cluster-250-node-h100.json");
        const document::LayoutMetrics m;
        const auto at = document::fabricLayout(s.topology, m);
        QCOMPARE(at.size(), s.topology.nodes.size() + s.topology.switches.size());
        QVERIFY(!overlaps(s.topology, at, m));
        std::set<double> spineRows, leafRows;
        for (const Switch& sw : s.topology.switches)
            (sw.tier == "spine" ? spineRows : leafRows).insert(at.at(sw.id).y);
        QCOMPARE(spineRows.size(), std::size_t(1)); // 32 spines fit one row of this width
        QVERIFY(*spineRows.begin() < *leafRows.begin());
        // Each node sits below its leaf (the first switch it links to), near it.
        for (const Link& l : s.topology.links)
            if (const Node* n = s.topology.findNode(l.from)) {
                const Point leaf = at.at(l.to), node = at.at(n->id);
                QVERIFY2(node.y > leaf.y, n->id.c_str());
                QVERIFY2(std::abs(node.x + m.node.x / 2 - (leaf.x + m.switchBox.x / 2)) < 700, n->id.c_str());
            }
        // The whole picture is near the aspect it aims for (a wide screen), not one long row.
        double right = 0, bottom = 0;
        for (const auto& [id, p] : at) {
            right = std::max(right, p.x + m.node.x);
            bottom = std::max(bottom, p.y + m.node.y);
        }
        const double aspect = right / bottom;
        QVERIFY2(aspect > 1.0 && aspect < 3.0, qPrintable(QString::number(aspect)));
    }

    /// Three tiers, a switch nothing links to, and nodes without a switch all get a place.
    void everyKindOfItemGetsAPlace()
    {
        Topology t;
        auto sw = [&t](const std::string& id, const std::string& tier) {
            Switch s;
            s.id = id;
            s.tier = tier;
            t.switches.push_back(s);
        };
        sw("core", "core");
        sw("spine-a", "spine");
        sw("spine-b", "spine");
        sw("leaf-a", "leaf");
        sw("leaf-b", "leaf");
        sw("lonely", "leaf");
        for (int i = 0; i < 6; ++i) {
            Node n;
            n.id = "n" + std::to_string(i);
            t.nodes.push_back(n);
            if (i < 4)
                t.links.push_back({"l" + std::to_string(i), n.id, i < 2 ? "leaf-a" : "leaf-b", 400, 1});
        }
        for (const char* leaf : {"leaf-a", "leaf-b"})
            for (const char* spine : {"spine-a", "spine-b"})
                t.links.push_back({std::string(leaf) + spine, leaf, spine, 400, 1});
        t.links.push_back({"up-a", "spine-a", "core", 400, 1});
        t.links.push_back({"up-b", "spine-b", "core", 400, 1});
        const document::LayoutMetrics m;
        const auto at = document::fabricLayout(t, m);
        QCOMPARE(at.size(), std::size_t(12));
        QVERIFY(!overlaps(t, at, m));
        QVERIFY(at.at("core").y < at.at("spine-a").y);
        QCOMPARE(at.at("spine-a").y, at.at("spine-b").y);
        QVERIFY(at.at("spine-a").y < at.at("leaf-a").y);
        QVERIFY(at.at("leaf-a").y < at.at("n0").y);
        QVERIFY(at.count("lonely") && at.count("n5")); // no links: still placed, below or beside
        for (const auto& [id, p] : at)
            QVERIFY2(std::fmod(p.x, 20.0) == 0.0 && std::fmod(p.y, 20.0) == 0.0, id.c_str()); // on the grid
    }

    /// Arrange as Fabric is one undo step; arranging again says there is nothing to do.
    void arrangeIsOneUndoStep()
    {
        Scenario s = readSample("02-mixed-sharing-lab.json");
        document::Document doc(s);
        const Result<document::Edit> arranged = document::arrangeFabric(doc.scenario());
        QVERIFY2(arranged.ok(), issueLines(arranged.issues).c_str());
        doc.push(*arranged.value);
        QCOMPARE(doc.undoStack()->undoText(), QString("Arrange as fabric"));
        const auto expected = document::fabricLayout(doc.scenario().topology);
        for (const Node& n : doc.scenario().topology.nodes)
            QVERIFY(n.position == expected.at(n.id));
        const Result<document::Edit> again = document::arrangeFabric(doc.scenario());
        QVERIFY(!again.ok());
        QVERIFY(QString::fromStdString(issueLines(again.issues)).contains("already sits"));
        doc.undoStack()->undo();
        QVERIFY(doc.scenario() == s);
    }

    /// Spine-to-leaf links, every leaf to every spine, are one bus per row of racks; a click on
    /// a spine shows its own links one by one; nodes are drawn over links and take the click.
    void spineLinksAreBundledAndASelectedSwitchShowsItsOwn()
    {
        auto w = open("250-node H100 cluster (2,000 GPUs)");
        ui::CanvasScene* scene = w->canvasScene();
        ui::CanvasView* view = w->canvasView();
        const Scenario& s = w->currentDocument()->scenario();
        std::size_t bundled = 0;
        for (const ui::LinkBundle& b : scene->bundles())
            bundled += b.links.size();
        QCOMPARE(bundled, std::size_t(32 * 63)); // every leaf-spine link, no node link
        view->stopAutoFit();
        view->resetTransform(); // 1:1: single links are items
        view->zoomBy(1.0);
        view->centerOn(scene->item("spine-00")->sceneBoundingRect().center());
        QCOMPARE(visibleLinks(scene), static_cast<int>(s.topology.links.size() - bundled));
        const QPoint spine = view->mapFromScene(scene->item("spine-00")->sceneBoundingRect().center());
        QTest::mouseClick(view->viewport(), Qt::LeftButton, {}, spine);
        QCOMPARE(scene->selectedIds(), QStringList{"spine-00"});
        QCOMPARE(visibleLinks(scene), static_cast<int>(s.topology.links.size() - bundled + 63));
        // A node takes a click on itself, not a link drawn across it.
        const QString node = QString::fromStdString(s.topology.nodes.front().id);
        view->centerOn(scene->item(node)->sceneBoundingRect().center());
        QTest::mouseClick(view->viewport(), Qt::LeftButton, {},
                          view->mapFromScene(scene->item(node)->sceneBoundingRect().center()));
        QCOMPARE(scene->selectedIds(), QStringList{node});
    }

    /// Ctrl+F finds a node, a job or a tenant and flies there; a name that matches nothing
    /// says so and changes nothing.
    void ctrlFFindsANodeAJobOrATenant()
    {
        auto w = open("250-node H100 cluster (2,000 GPUs)");
        ui::CanvasView* view = w->canvasView();
        ui::CanvasScene* scene = w->canvasScene();
        view->setFocus();
        QTest::keyClick(w.get(), Qt::Key_F, Qt::ControlModifier);
        QLineEdit* field = w->navigator()->search()->field();
        QTRY_VERIFY(field->isVisible() && field->hasFocus());
        QTest::keyClicks(field, "node-200");
        QTest::keyClick(field, Qt::Key_Return);
        QCOMPARE(scene->selectedIds(), QStringList{"node-200"});
        const QRectF visible = view->mapToScene(view->viewport()->rect()).boundingRect();
        QVERIFY(visible.contains(scene->item("node-200")->sceneBoundingRect()));
        QVERIFY(view->transform().m11() >= 0.5); // close enough to read it

        field->selectAll();
        QTest::keyClicks(field, "70B serving");
        QTest::keyClick(field, Qt::Key_Return);
        QCOMPARE(scene->highlightedJobs().size(), 1);
        const calc::Evaluation& ev = *w->session()->latest()->evaluation;
        for (const calc::JobResult& j : ev.jobs)
            if (j.name == "Llama 3 70B serving") {
                QCOMPARE(scene->highlightedJobs().front(), QString::fromStdString(j.id));
                const calc::UnitLocation& u = j.placement.front();
                auto* n = qgraphicsitem_cast<ui::NodeItem*>(scene->item(QString::fromStdString(u.node)));
                QVERIFY(n && n->highlightedGpus().count(u.gpu));
            }

        field->selectAll();
        QTest::keyClicks(field, "Product models");
        QTest::keyClick(field, Qt::Key_Return);
        QCOMPARE(scene->highlightedJobs().size(), 1); // that tenant's one job

        field->selectAll();
        QTest::keyClicks(field, "no such thing");
        QTest::keyClick(field, Qt::Key_Return);
        QVERIFY(field->toolTip().contains("No node, switch, job or tenant matches"));
        QCOMPARE(scene->highlightedJobs().size(), 1);
        QTest::keyClick(field, Qt::Key_Escape);
        QVERIFY(!field->isVisible());
    }

    /// Choosing a job in Workloads frames its GPUs (and its links stand out); Esc on the canvas
    /// lets go.
    void choosingAJobShowsWhereItRuns()
    {
        auto w = open("Mixed sharing lab");
        auto* table = w->workloads()->findChild<QTableWidget*>();
        QVERIFY(table && table->rowCount() > 0);
        const QRect cell = table->visualItemRect(table->item(0, 1));
        QTest::mouseClick(table->viewport(), Qt::LeftButton, {}, cell.center());
        const QString job = table->item(0, 1)->data(Qt::UserRole).toString();
        ui::CanvasScene* scene = w->canvasScene();
        QCOMPARE(scene->highlightedJobs(), QStringList{job});
        int framed = 0;
        for (const calc::JobResult& j : w->session()->latest()->evaluation->jobs)
            if (QString::fromStdString(j.id) == job)
                for (const calc::UnitLocation& u : j.placement) {
                    auto* n = qgraphicsitem_cast<ui::NodeItem*>(scene->item(QString::fromStdString(u.node)));
                    QVERIFY(n && n->highlightedGpus().count(u.gpu));
                    ++framed;
                }
        QVERIFY(framed > 0);
        bool linkShown = false;
        for (QGraphicsItem* item : scene->items())
            if (auto* l = qgraphicsitem_cast<ui::LinkItem*>(item); l && l->highlighted())
                linkShown = true;
        QVERIFY(linkShown);
        w->canvasView()->setFocus();
        QTest::keyClick(w->canvasView(), Qt::Key_Escape);
        QVERIFY(scene->highlightedJobs().isEmpty());
    }

    /// The legend names each tenant and the sharing modes the plan uses, with the badge each
    /// node shows; its title folds it.
    void theLegendExplainsColoursAndBadges()
    {
        auto w = open("Mixed sharing lab");
        ui::CanvasLegend* legend = w->navigator()->legend();
        QTRY_VERIFY(legend->isVisible());
        const QStringList entries = legend->entries();
        for (const Tenant& t : w->currentDocument()->scenario().tenants)
            QVERIFY2(entries.contains(QString::fromStdString(t.name)), qPrintable(entries.join(", ")));
        QVERIFY2(entries.join(",").contains("MIG"), qPrintable(entries.join(", ")));
        QVERIFY(entries.contains("may run out of memory"));
        bool badged = false;
        for (const Node& n : w->currentDocument()->scenario().topology.nodes)
            if (n.sharing.mode == SharingMode::Mig)
                if (auto* item =
                        qgraphicsitem_cast<ui::NodeItem*>(w->canvasScene()->item(QString::fromStdString(n.id))))
                    badged = badged || (!item->badges().empty() && item->badges().front().first == "MIG");
        QVERIFY(badged);
        const bool wasFolded = legend->collapsed();
        const int height = legend->height();
        QTest::mouseClick(legend, Qt::LeftButton, {}, legend->titleRect().center());
        QCOMPARE(legend->collapsed(), !wasFolded);
        QVERIFY(legend->height() != height);
        QTest::mouseClick(legend, Qt::LeftButton, {}, legend->titleRect().center());
        QCOMPARE(legend->collapsed(), wasFolded);
    }

    /// Zoomed in on the 250-node cluster, the minimap shows where the view is; a click on it
    /// moves the view there. With everything in view it hides.
    void theMinimapMovesTheView()
    {
        auto w = open("250-node H100 cluster (2,000 GPUs)");
        ui::CanvasView* view = w->canvasView();
        ui::CanvasMinimap* minimap = w->navigator()->minimap();
        view->fitAll();
        QVERIFY(!minimap->isVisible());
        view->stopAutoFit();
        view->resetTransform();
        view->centerOn(w->canvasScene()->contentBounds().bottomRight());
        QTRY_VERIFY(minimap->isVisible());
        const QRectF before = minimap->visibleFrame();
        QTest::mouseClick(minimap, Qt::LeftButton, {}, QPoint(10, 10));
        const QRectF after = minimap->visibleFrame();
        QVERIFY2(after.center().x() < before.center().x() && after.center().y() < before.center().y(),
                 qPrintable(QString("%1,%2 -> %3,%4")
                                .arg(before.center().x())
                                .arg(before.center().y())
                                .arg(after.center().x())
                                .arg(after.center().y())));
        const QPointF centre = view->mapToScene(view->viewport()->rect().center());
        const QRectF content = w->canvasScene()->contentBounds();
        QVERIFY(centre.x() < content.center().x() && centre.y() < content.center().y());
    }
};

QTEST_MAIN(TestBigCanvas)
#include "tst_bigcanvas.moc"
