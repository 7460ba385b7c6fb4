// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
// Building a plan as planners expect (issue 17): the palette's groups, icons and filter, the
// visual MIG layout editor, and the welcome panel of a first start — driven with mouse and keys.
#include "windowfixture.h"

#include "guidriver.h"

#include "document/document.h"
#include "model/miglayout.h"
#include "ui/edit/inspector.h"
#include "ui/edit/miglayoutview.h"
#include "ui/palette.h"
#include "ui/welcomepanel.h"

#include <QCheckBox>
#include <QComboBox>
#include <QLineEdit>
#include <QPushButton>
#include <QSettings>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>
#include <QTreeWidget>
#include <QUndoStack>

using namespace gp;

class TestBuildingPlan : public QObject
{
    Q_OBJECT

    QTemporaryDir mTmp;

    std::unique_ptr<ui::MainWindow> open(const QString& name)
    {
        return test::openLibraryScenario(mTmp.filePath("lib.sqlite"), name);
    }

private Q_SLOTS:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

    /// The palette groups its entries (nodes by GPU family, switches by fabric, jobs), each
    /// with an icon; typing in its filter leaves only what matches; a double-click adds one.
    void thePaletteHasGroupsIconsAndAFilter()
    {
        auto w = open("DGX H100 pod: three tenants");
        auto* palette = w->findChild<ui::Palette*>();
        QVERIFY(palette);
        QStringList groups = palette->visibleGroups();
        QVERIFY2(groups.contains("Nodes — NVIDIA Hopper") && groups.contains("Switches — InfiniBand") &&
                     groups.contains("Jobs — model presets"),
                 qPrintable(groups.join(", ")));
        for (const QString& key : palette->keys())
            QVERIFY2(!palette->entry(key)->icon(0).isNull(), qPrintable(key));
        QTest::keyClicks(palette->filter(), "h100 dgx");
        QStringList shown = palette->visibleKeys();
        QVERIFY2(shown.contains("node:dgx-h100"), qPrintable(shown.join(", ")));
        for (const QString& key : shown)
            QVERIFY2(key.startsWith("node:"), qPrintable(key));
        QCOMPARE(palette->visibleGroups(), QStringList{"Nodes — NVIDIA Hopper"});
        palette->filter()->clear();
        QTest::keyClicks(palette->filter(), "llama 70");
        shown = palette->visibleKeys();
        QVERIFY(!shown.isEmpty());
        for (const QString& key : shown)
            QVERIFY2(key.startsWith("job:llama"), qPrintable(key));
        palette->filter()->clear();
        QCOMPARE(palette->visibleKeys(), palette->keys());
        // A double-click on a node template adds one node.
        const std::size_t nodes = w->currentDocument()->scenario().topology.nodes.size();
        QVERIFY(w->raisePanel("Palette"));
        QTreeWidget* tree = palette->tree();
        const QRect r = tree->visualItemRect(palette->entry("node:dgx-h100"));
        QTest::mouseClick(tree->viewport(), Qt::LeftButton, {}, r.center());
        QTest::mouseDClick(tree->viewport(), Qt::LeftButton, {}, r.center());
        QCOMPARE(w->currentDocument()->scenario().topology.nodes.size(), nodes + 1);
    }

    /// The MIG layout editor draws the slices: a double-click removes an instance, a profile
    /// dragged onto the slices lands on a start the rules allow, an instance dragged where
    /// nothing may go stays; Apply sets the edited layout.
    void theMigEditorIsDrawnAndDragged()
    {
        auto w = open("Mixed sharing lab");
        ui::CanvasView* view = w->canvasView();
        view->stopAutoFit();
        view->resetTransform();
        view->centerOn(w->canvasScene()->item("node-004")->sceneBoundingRect().center());
        QTest::mouseClick(view->viewport(), Qt::LeftButton, {},
                          view->mapFromScene(w->canvasScene()->item("node-004")->mapToScene(QPointF(130, 20))));
        QCOMPARE(w->canvasScene()->selectedIds(), QStringList{"node-004"});
        ui::MigLayoutView* mig = w->inspector()->migView();
        QTRY_VERIFY(mig->isVisible());
        const std::vector<MigInstance> before = mig->instances();
        QVERIFY(before.size() >= 2);
        // Remove the last two instances by double-clicking them.
        for (int k = 0; k < 2; ++k) {
            const int last = static_cast<int>(mig->instances().size()) - 1;
            QTest::mouseDClick(mig, Qt::LeftButton, {}, mig->instanceRect(last).center());
        }
        QCOMPARE(mig->instances().size(), before.size() - 2);
        // Drag the largest profile that still fits onto the last memory slice.
        QString profile;
        int expected = -1;
        for (const char* candidate : {"2g.10gb", "1g.10gb", "1g.5gb"}) {
            for (int start : mig->validStarts(candidate))
                if (start <= 7)
                    expected = start;
            if (expected >= 0) {
                profile = candidate;
                break;
            }
        }
        QVERIFY2(!profile.isEmpty(), "no profile fits the freed slices");
        // Onto the slice the expected start covers.
        test::dragWithin(mig, mig->chipRect(profile).center(), mig->sliceRect(expected).center());
        const auto& now = mig->instances();
        QVERIFY2(std::find(now.begin(), now.end(), MigInstance{profile.toStdString(), expected}) != now.end(),
                 qPrintable(profile + " not at " + QString::number(expected)));
        // Dragging the first instance onto the slice of another does nothing.
        const std::vector<MigInstance> kept = mig->instances();
        test::dragWithin(mig, mig->instanceRect(0).center(), mig->sliceRect(1).center());
        QCOMPARE(mig->instances(), kept);
        QTest::mouseClick(w->findChild<QPushButton*>("applySharing"), Qt::LeftButton);
        const Node* n = w->currentDocument()->scenario().topology.findNode("node-004");
        QCOMPARE(n->sharing.migInstances, kept);
        QVERIFY(mig::check(*test::bundledCatalog().gpu(n->gpuId), kept).empty());
    }

    /// A first start offers the samples, a blank plan, an import and the user guide; a sample
    /// opens it, Esc closes it, and "Show this at start" is remembered.
    void theWelcomePanelStartsTheFirstHour()
    {
        QSettings().remove("welcome/show");
        QVERIFY(ui::WelcomePanel::showAtStart());
        auto w = test::makeWindow(mTmp.filePath("lib.sqlite"));
        w->resize(1366, 768);
        w->show();
        QVERIFY(QTest::qWaitForWindowExposed(w.get()));
        ui::WelcomePanel* welcome = w->showWelcome();
        QVERIFY(welcome->isVisible());
        // Inside the window, whole, even on a 1366×768 screen.
        QVERIFY(w->rect().contains(welcome->geometry()));
        QVERIFY(welcome->height() >= welcome->sizeHint().height());
        const qint64 mixed = test::libraryScenarioId(mTmp.filePath("lib.sqlite"), "Mixed sharing lab");
        auto* open = welcome->findChild<QPushButton*>(QString("welcomeScenario-%1").arg(mixed));
        QVERIFY(open);
        for (const char* name : {"welcomeBlank", "welcomeImport", "welcomeGuide"})
            QVERIFY2(welcome->findChild<QPushButton*>(name), name);
        QTest::mouseClick(open, Qt::LeftButton);
        QVERIFY(!welcome->isVisible());
        QCOMPARE(w->currentDocument()->libraryId(), std::optional<qint64>(mixed));

        welcome = w->showWelcome();
        QTest::mouseClick(welcome->findChild<QPushButton*>("welcomeBlank"), Qt::LeftButton);
        QTRY_COMPARE(w->currentDocument()->scenario().topology.nodes.size(), std::size_t(0));

        welcome = w->showWelcome();
        auto* atStart = welcome->findChild<QCheckBox*>("welcomeShowAtStart");
        QTest::mouseClick(atStart, Qt::LeftButton, {}, QPoint(8, atStart->height() / 2)); // on its box
        QVERIFY(!ui::WelcomePanel::showAtStart());
        QTest::keyClick(welcome, Qt::Key_Escape);
        QVERIFY(!welcome->isVisible());
        QSettings().remove("welcome/show");
    }
};

QTEST_MAIN(TestBuildingPlan)
#include "tst_buildingplan.moc"
