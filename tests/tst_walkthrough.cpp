// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
// The user guide's walkthrough (docs/user-guide.md, section 2) on a 1366×768 screen, done as a
// first-time user does it: keys, clicks, the palette's filter and drops, Shift-drags, the Add
// Job dialog, the MIG editor's drags, Apply, Ctrl+3 and Ctrl+S — checking on the way that
// nothing the user needs is cut off or hidden (issue 17's "done when").
#include "windowfixture.h"

#include "guidriver.h"

#include "document/document.h"
#include "document/plansession.h"
#include "ui/edit/addjobdialog.h"
#include "ui/edit/inspector.h"
#include "ui/edit/miglayoutview.h"
#include "ui/edit/workloadspanel.h"
#include "ui/palette.h"
#include "ui/results/kpicards.h"

#include <QComboBox>
#include <QDoubleSpinBox>
#include <QLabel>
#include <QMimeData>
#include <QPushButton>
#include <QScrollArea>
#include <QSpinBox>
#include <QStandardPaths>
#include <QTabBar>
#include <QTemporaryDir>
#include <QTreeWidget>
#include <QUndoStack>

using namespace gp;

namespace {

/// Clicks the tab called `title` of whichever dock tab bar has one.
bool clickDockTab(QWidget* window, const QString& title)
{
    for (QTabBar* bar : window->findChildren<QTabBar*>())
        for (int i = 0; i < bar->count(); ++i)
            if (bar->tabText(i) == title && bar->isVisible()) {
                QTest::mouseClick(bar, Qt::LeftButton, {}, bar->tabRect(i).center());
                return true;
            }
    return false;
}

/// Drops the palette's entry `key` on the canvas at `at` (viewport pixels) with the data the
/// palette's own drag carries.
void dropFromPalette(ui::Palette* palette, QWidget* viewport, const QString& key, QPoint at)
{
    QTreeWidget* tree = palette->tree();
    const QModelIndex index = tree->indexFromItem(palette->entry(key));
    std::unique_ptr<QMimeData> mime(tree->model()->mimeData({index}));
    QDragEnterEvent enter(at, Qt::CopyAction, mime.get(), Qt::LeftButton, {});
    QApplication::sendEvent(viewport, &enter);
    QDragMoveEvent move(at, Qt::CopyAction, mime.get(), Qt::LeftButton, {});
    QApplication::sendEvent(viewport, &move);
    QDropEvent drop(at, Qt::CopyAction, mime.get(), Qt::LeftButton, {});
    QApplication::sendEvent(viewport, &drop);
}

/// Picks the item `text` of a combo box with the keyboard, as a user typing its start does.
void pick(QComboBox* box, const QString& text)
{
    box->setFocus();
    const int target = box->findText(text);
    QVERIFY2(target >= 0, qPrintable(text));
    QTest::keyClick(box, Qt::Key_Home);
    for (int i = 0; i < target; ++i)
        QTest::keyClick(box, Qt::Key_Down);
    QCOMPARE(box->currentText(), text);
}

void typeInto(QAbstractSpinBox* box, const QString& value)
{
    box->setFocus();
    box->selectAll();
    QTest::keyClicks(box, value);
}

/// Whether a widget is shown whole inside the window (not cut off by its parents).
bool wholeOnScreen(const QWidget* w)
{
    const QRect mine(w->mapTo(w->window(), QPoint(0, 0)), w->size());
    QRect visible = mine;
    for (const QWidget* p = w->parentWidget(); p; p = p->parentWidget())
        visible &= QRect(p->mapTo(w->window(), QPoint(0, 0)), p->size());
    return w->isVisible() && visible == mine;
}

} // namespace

class TestWalkthrough : public QObject
{
    Q_OBJECT

    QTemporaryDir mTmp;

private Q_SLOTS:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

    void theUserGuideWalkthroughOnA1366x768Screen()
    {
        auto w = test::makeWindow(mTmp.filePath("lib.sqlite"));
        w->resize(1298, 730); // what a 1366×768 screen leaves a maximised window
        w->show();
        QVERIFY(QTest::qWaitForWindowExposed(w.get()));
        QApplication::setActiveWindow(w.get());
        w->files()->openFirst();
        QTRY_VERIFY(!w->session()->busy());

        // 1. File > New Scenario (Ctrl+N).
        QTest::keyClick(w.get(), Qt::Key_N, Qt::ControlModifier);
        document::Document* doc = w->currentDocument();
        QCOMPARE(doc->scenario().topology.nodes.size(), std::size_t(0));
        ui::CanvasView* view = w->canvasView();
        QVERIFY2(view->viewport()->height() >= 120, "the canvas is too short to work in");

        // 2. The palette (tab beside Library): filter, then four DGX H100 and a leaf switch,
        // each landing where it is dropped.
        QVERIFY(clickDockTab(w.get(), "Palette"));
        auto* palette = w->findChild<ui::Palette*>();
        QTRY_VERIFY(palette->isVisible());
        QTest::keyClicks(palette->filter(), "dgx h100");
        QVERIFY(palette->visibleKeys().contains("node:dgx-h100"));
        QWidget* viewport = view->viewport();
        // Four nodes side by side below the middle, the switch above them: where a user would
        // put them on the empty canvas, which shows room for them.
        QCOMPARE(view->transform().m11(), ui::CanvasView::kEmptyScale);
        std::vector<QPoint> spots;
        for (int i = 0; i < 4; ++i)
            spots.push_back(view->mapFromScene(QPointF((i - 1.5) * 300.0, 120.0)));
        for (const QPoint spot : spots) {
            QVERIFY2(viewport->rect().contains(spot), "no room on the empty canvas");
            dropFromPalette(palette, viewport, "node:dgx-h100", spot);
        }
        palette->filter()->clear();
        QTest::keyClicks(palette->filter(), "qm9700");
        dropFromPalette(palette, viewport, "switch:qm9700", view->mapFromScene(QPointF(0.0, -110.0)));
        const Topology& t = doc->scenario().topology;
        QCOMPARE(t.nodes.size(), std::size_t(4));
        QCOMPARE(t.switches.size(), std::size_t(1));
        for (int i = 0; i < 4; ++i) {
            const QPoint centre =
                view->mapFromScene(w->canvasScene()
                                       ->item(QString::fromStdString(t.nodes[static_cast<std::size_t>(i)].id))
                                       ->sceneBoundingRect()
                                       .center());
            const QPoint dropped = spots[static_cast<std::size_t>(i)];
            QVERIFY2((centre - dropped).manhattanLength() <= 2 * ui::CanvasView::kGrid * view->transform().m11() + 2,
                     qPrintable(QString("node %1 dropped at %2,%3, centred at %4,%5")
                                    .arg(i)
                                    .arg(dropped.x())
                                    .arg(dropped.y())
                                    .arg(centre.x())
                                    .arg(centre.y())));
        }

        // 3. Shift-drag from each node to the switch.
        const QString leaf = QString::fromStdString(t.switches.front().id);
        auto at = [&](const QString& id) {
            return view->mapFromScene(w->canvasScene()->item(id)->sceneBoundingRect().center());
        };
        auto header = [&](const QString& id) { // a node's name bar: a click there selects it
            return view->mapFromScene(w->canvasScene()->item(id)->mapToScene(QPointF(130, 20)));
        };
        QStringList nodes;
        for (const Node& n : t.nodes)
            nodes << QString::fromStdString(n.id);
        for (const QString& n : nodes) {
            QTest::mousePress(viewport, Qt::LeftButton, Qt::ShiftModifier, at(n));
            QTest::mouseMove(viewport, at(leaf));
            QTest::mouseRelease(viewport, Qt::LeftButton, Qt::ShiftModifier, at(leaf));
        }
        QCOMPARE(doc->scenario().topology.links.size(), std::size_t(4));

        // Add the teams and their jobs: Ctrl+J, the dialog filled with the keyboard, OK.
        struct Wanted
        {
            const char* tenant;
            const char* model;
            JobKind kind;
            int tp, dp;
        };
        for (const Wanted& job : {Wanted{"Frontier Lab", "Llama 3 8B", JobKind::Pretraining, 4, 2},
                                  Wanted{"Acme Retail", "Llama 3 8B", JobKind::Lora, 1, 2},
                                  Wanted{"ChatCo", "Llama 3 8B", JobKind::Inference, 1, 4}}) {
            auto filled = test::onNextModal({}, [job](QDialog* dialog) {
                auto* tenant = dialog->findChild<QComboBox*>("addJobTenant");
                pick(tenant, "New tenant…");
                auto* name = dialog->findChild<QLineEdit*>();
                name->setFocus();
                QTest::keyClicks(name, job.tenant);
                pick(dialog->findChild<QComboBox*>("addJobModel"), job.model);
                auto* kind = dialog->findChild<QComboBox*>("addJobKind");
                pick(kind, kind->itemText(kind->findData(static_cast<int>(job.kind))));
                typeInto(dialog->findChild<QSpinBox*>("addJobTp"), QString::number(job.tp));
                typeInto(dialog->findChild<QSpinBox*>("addJobDp"), QString::number(job.dp));
                auto* ok = dialog->findChild<QPushButton*>("addJobOk");
                if (!ok->isEnabled())
                    qWarning("%s", qPrintable(dialog->findChild<QLabel*>("addJobMessage")->text()));
                QTest::mouseClick(ok, Qt::LeftButton);
            });
            QApplication::setActiveWindow(w.get()); // offscreen, a closed dialog does not hand it back
            view->setFocus();
            QTest::keyClick(w.get(), Qt::Key_J, Qt::ControlModifier);
            QVERIFY2(*filled, job.tenant);
        }
        QCOMPARE(doc->scenario().tenants.size(), std::size_t(3));
        QTRY_COMPARE(w->workloads()->rowCount(), 3);

        QApplication::setActiveWindow(w.get());
        // Decide how each GPU is shared: the last two nodes MIG 3g.40gb ×2, dragged in the
        // editor; the second time-slicing ×4 with Ctrl+3.
        view->setFocus();
        QTest::mouseClick(viewport, Qt::LeftButton, {}, header(nodes[2]));
        QTest::mouseClick(viewport, Qt::LeftButton, Qt::ControlModifier, header(nodes[3]));
        QCOMPARE(w->canvasScene()->selectedIds().size(), 2);
        QVERIFY(clickDockTab(w.get(), "Inspector"));
        pick(w->findChild<QComboBox*>("sharingMode"), "MIG partitions");
        ui::MigLayoutView* mig = w->inspector()->migView();
        QTRY_VERIFY(mig->isVisible());
        while (!mig->instances().empty())
            QTest::mouseDClick(mig, Qt::LeftButton, {}, mig->instanceRect(0).center());
        for (int start : {0, 4})
            test::dragWithin(mig, mig->chipRect("3g.40gb").center(), mig->sliceRect(start).center());
        QCOMPARE(mig->instances(), (std::vector<MigInstance>{{"3g.40gb", 0}, {"3g.40gb", 4}}));
        auto* apply = w->findChild<QPushButton*>("applySharing");
        // The Apply button can be reached: the Inspector scrolls to it (it was cut off).
        auto* scroll = qobject_cast<QScrollArea*>(w->findChild<QDockWidget*>("InspectorDock")->widget());
        scroll->ensureWidgetVisible(apply);
        QVERIFY2(wholeOnScreen(apply), "Apply is cut off");
        QTest::mouseClick(apply, Qt::LeftButton);
        QCOMPARE(doc->scenario().topology.nodes[2].sharing.mode, SharingMode::Mig);
        QCOMPARE(doc->scenario().topology.nodes[3].sharing.migInstances.size(), std::size_t(2));
        QTest::mouseClick(viewport, Qt::LeftButton, {}, header(nodes[1]));
        QTest::keyClick(w.get(), Qt::Key_3, Qt::ControlModifier);
        QCOMPARE(doc->scenario().topology.nodes[1].sharing.mode, SharingMode::TimeSlicing);

        // Read the results: every card filled and whole.
        QTRY_VERIFY_WITH_TIMEOUT(!w->session()->busy(), 20000);
        for (const QString card : {"vram_utilization", "allocation_ratio", "mean_penalty", "max_penalty",
                                   "cost_per_month_usd", "waste_per_month_usd", "unplaced_jobs"}) {
            QVERIFY2(!w->kpiCards()->valueOf(card).isEmpty() && w->kpiCards()->valueOf(card) != "–", qPrintable(card));
            auto* cardWidget = w->kpiCards()->findChild<QWidget*>("kpi-" + card);
            QVERIFY2(cardWidget && wholeOnScreen(cardWidget), qPrintable(card + " is cut off"));
        }

        // Save (Ctrl+S): a new plan asks for its name first.
        auto named = test::typeIntoNextInput("Walkthrough plan");
        QTest::keyClick(w.get(), Qt::Key_S, Qt::ControlModifier);
        QVERIFY(*named);
        QVERIFY(doc->libraryId().has_value());
        QCOMPARE(QString::fromStdString(doc->scenario().name), QString("Walkthrough plan"));
        QVERIFY(!doc->isModified());
    }
};

QTEST_MAIN(TestWalkthrough)
#include "tst_walkthrough.moc"
