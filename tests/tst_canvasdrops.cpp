// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
// Drops land where aimed (issue 36, state and layout): a palette template, a Workloads job or a
// palette job dropped on the canvas, zoomed out and in and scrolled away from where the plan
// opened, lands under the pointer (a node or switch centred there within the grid's snap, a job
// pinned to the GPU or node under it), and the rest of the canvas stays where it was.
#include "guidriver.h"
#include "windowfixture.h"

#include "ui/canvas/canvasscene.h"
#include "ui/canvas/canvasview.h"
#include "ui/canvas/nodeitem.h"
#include "ui/edit/addjobdialog.h"
#include "ui/edit/workloadspanel.h"
#include "ui/palette.h"

#include <QMimeData>
#include <QScrollBar>
#include <QTemporaryDir>
#include <QTest>
#include <QTreeWidget>

#include <set>

using namespace gp;

namespace {

/// A drag from the palette's entry `key` (the data its own drag carries) or a job row's
/// (`jobId`, the Workloads table's), entering the canvas away from `at`, moving there and dropped.
void dragOnto(QWidget* viewport, const QMimeData& mime, QPoint at)
{
    const QPoint entry = at + QPoint(40, 25);
    QDragEnterEvent enter(entry, Qt::CopyAction, &mime, Qt::LeftButton, {});
    QApplication::sendEvent(viewport, &enter);
    for (int step = 1; step <= 3; ++step) {
        QDragMoveEvent move(entry + (at - entry) * step / 3, Qt::CopyAction, &mime, Qt::LeftButton, {});
        QApplication::sendEvent(viewport, &move);
    }
    QDropEvent drop(at, Qt::CopyAction, &mime, Qt::LeftButton, {});
    QApplication::sendEvent(viewport, &drop);
}

std::unique_ptr<QMimeData> paletteData(ui::Palette* palette, const QString& key)
{
    QTreeWidget* tree = palette->tree();
    return std::unique_ptr<QMimeData>(tree->model()->mimeData({tree->indexFromItem(palette->entry(key))}));
}

/// The view at `scale`, scrolled `by` pixels away from where it was centred on node-004.
void zoomAndScroll(ui::MainWindow* w, double scale, QPoint by)
{
    ui::CanvasView* view = w->canvasView();
    view->stopAutoFit();
    view->setTransform(QTransform::fromScale(scale, scale));
    view->centerOn(w->canvasScene()->item("node-004")->sceneBoundingRect().center());
    view->horizontalScrollBar()->setValue(view->horizontalScrollBar()->value() + by.x());
    view->verticalScrollBar()->setValue(view->verticalScrollBar()->value() + by.y());
}

} // namespace

class TestCanvasDrops : public QObject
{
    Q_OBJECT

    QTemporaryDir mTmp;

private Q_SLOTS:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

    void paletteItemsLandUnderThePointer_data()
    {
        QTest::addColumn<double>("scale");
        QTest::addColumn<QPoint>("scroll");
        QTest::addColumn<QString>("key");
        QTest::newRow("node zoomed out, scrolled right and down") << 0.55 << QPoint(170, 90) << "node:dgx-h100";
        QTest::newRow("node zoomed in, scrolled left and up") << 1.7 << QPoint(-230, -140) << "node:dgx-h100";
        QTest::newRow("switch zoomed out, scrolled") << 0.42 << QPoint(-120, 60) << "switch:qm9700";
    }

    void paletteItemsLandUnderThePointer()
    {
        QFETCH(double, scale);
        QFETCH(QPoint, scroll);
        QFETCH(QString, key);
        auto w = test::openSampleAtOneToOne(mTmp.filePath(QString("drops-%1.sqlite").arg(QTest::currentDataTag())),
                                            "node-004");
        auto* palette = w->findChild<ui::Palette*>();
        QVERIFY(palette && palette->entry(key));
        ui::CanvasView* view = w->canvasView();
        zoomAndScroll(w.get(), scale, scroll);
        const QSize size = view->viewport()->size();
        const auto mime = paletteData(palette, key);
        // Three aims: near the top-left, the middle and the bottom-right of the canvas (the last
        // one grows the scene past the view's edge when the view shows its end).
        for (const QPoint aim : {QPoint(70, 60), QPoint(size.width() / 2 + 13, size.height() / 2 - 7),
                                 QPoint(size.width() - 60, size.height() - 50)}) {
            const QPoint fixedBefore =
                view->mapFromScene(w->canvasScene()->item("node-001")->sceneBoundingRect().center());
            const std::size_t before = w->currentDocument()->scenario().topology.nodes.size() +
                                       w->currentDocument()->scenario().topology.switches.size();
            dragOnto(view->viewport(), *mime, aim);
            const Topology& t = w->currentDocument()->scenario().topology;
            QCOMPARE(t.nodes.size() + t.switches.size(), before + 1);
            const std::string id = key.startsWith("node:") ? t.nodes.back().id : t.switches.back().id;
            QGraphicsItem* added = w->canvasScene()->item(QString::fromStdString(id));
            QVERIFY(added);
            // Under the pointer: the item covers the point aimed at, centred on it within the
            // grid's snap (half a grid step each way).
            const QPointF aimed = view->mapToScene(aim);
            const QPointF off = added->sceneBoundingRect().center() - aimed;
            const QString where = QString("aimed at %1,%2 (scene %3,%4), centred %5,%6 away at scale %7")
                                      .arg(aim.x())
                                      .arg(aim.y())
                                      .arg(aimed.x())
                                      .arg(aimed.y())
                                      .arg(off.x())
                                      .arg(off.y())
                                      .arg(view->transform().m11());
            QVERIFY2(added->sceneBoundingRect().contains(aimed), qPrintable(where));
            QVERIFY2(std::abs(off.x()) <= ui::CanvasView::kGrid / 2 + 0.5 &&
                         std::abs(off.y()) <= ui::CanvasView::kGrid / 2 + 0.5,
                     qPrintable(where));
            // Where the user aimed is still where the item is on screen: the view did not jump.
            QVERIFY2((view->mapFromScene(added->sceneBoundingRect().center()) - aim).manhattanLength() <=
                         ui::CanvasView::kGrid * view->transform().m11() + 2,
                     qPrintable(where));
            QCOMPARE(view->mapFromScene(w->canvasScene()->item("node-001")->sceneBoundingRect().center()), fixedBefore);
            QCOMPARE(view->transform().m11(), scale);
        }
    }

    /// A job dragged from Workloads onto a GPU, zoomed out and scrolled, is pinned to that GPU.
    void aJobDroppedOnAGpuIsPinnedThere()
    {
        auto w = test::openSampleAtOneToOne(mTmp.filePath("pin.sqlite"), "node-004");
        QTRY_COMPARE(w->workloads()->rowCount(), 5);
        ui::CanvasView* view = w->canvasView();
        zoomAndScroll(w.get(), 0.6, QPoint(-110, 45));
        for (const auto& [node, gpu] : {std::pair{"node-002", 6}, std::pair{"node-007", 1}}) {
            const QPoint aim =
                view->mapFromScene(w->canvasScene()->item(node)->mapToScene(ui::NodeItem::gpuCell(gpu).center()));
            QVERIFY2(view->viewport()->rect().contains(aim), node);
            QMimeData mime;
            mime.setData(ui::CanvasView::kJobMimeType, "acme-ft");
            dragOnto(view->viewport(), mime, aim);
            const Job& job = w->currentDocument()->scenario().tenants[1].jobs[0];
            QCOMPARE(QString::fromStdString(job.id), QString("acme-ft"));
            QVERIFY(job.pin.has_value());
            QCOMPARE(job.pin->node, std::string(node));
            QCOMPARE(job.pin->gpu.value_or(-1), gpu);
        }
    }

    /// A model from the palette dropped on a node opens Add Job pinned to the node under the
    /// pointer, zoomed in and scrolled.
    void aPaletteJobDroppedOnANodeIsPinnedToIt()
    {
        auto w = test::openSampleAtOneToOne(mTmp.filePath("addjob.sqlite"), "node-004");
        auto* palette = w->findChild<ui::Palette*>();
        QString key;
        for (const QString& k : palette->keys())
            if (k.startsWith("job:") && k.size() > 4 && key.isEmpty())
                key = k;
        QVERIFY(!key.isEmpty());
        ui::CanvasView* view = w->canvasView();
        zoomAndScroll(w.get(), 1.3, QPoint(180, -60));
        const QPoint aim =
            view->mapFromScene(w->canvasScene()->item("node-004")->mapToScene(ui::NodeItem::gpuCell(5).center()));
        QVERIFY(view->viewport()->rect().contains(aim));
        std::string pinned = "(no dialog)";
        std::set<std::string> jobs;
        for (const Tenant& t : w->currentDocument()->scenario().tenants)
            for (const Job& j : t.jobs)
                jobs.insert(j.id);
        auto answered = test::onNextModal({}, [&pinned, &jobs](QDialog* dialog) {
            // The job the dialog would add, and where it would pin it.
            if (auto* add = qobject_cast<ui::AddJobDialog*>(dialog))
                for (const Tenant& t : add->result().tenants)
                    for (const Job& j : t.jobs)
                        if (!jobs.count(j.id))
                            pinned = j.pin ? j.pin->node : std::string("(not pinned)");
            dialog->reject();
        });
        dragOnto(view->viewport(), *paletteData(palette, key), aim);
        QTRY_VERIFY(*answered);
        QCOMPARE(QString::fromStdString(pinned), QString("node-004"));
    }
};

QTEST_MAIN(TestCanvasDrops)
#include "tst_canvasdrops.moc"
