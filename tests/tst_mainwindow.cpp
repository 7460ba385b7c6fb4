// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
// The workbench shell shows the library and the open scenario, and keeps the title true.
#include "calc/comparison.h"
#include "calc/evaluate.h"
#include "calc/kpiregistry.h"
#include "document/commands.h"
#include "document/librarygateway.h"
#include "document/plansession.h"
#include "io/scenarioreader.h"
#include "io/scenariowriter.h"
#include "model/validation.h"
#include "testsupport.h"
#include "ui/canvas/canvasscene.h"
#include "ui/canvas/canvasview.h"
#include "ui/canvas/nodeitem.h"
#include "ui/edit/addjobdialog.h"
#include "ui/edit/inspector.h"
#include "ui/edit/propertiespanel.h"
#include "ui/edit/scenariotree.h"
#include "ui/edit/workloadspanel.h"
#include "ui/figures/charttheme.h"
#include "ui/library/librarypanel.h"
#include "ui/mainwindow.h"
#include "ui/palette.h"
#include "ui/results/comparedialog.h"
#include "ui/results/kpicards.h"
#include "ui/results/plansummary.h"
#include "ui/results/resultscharts.h"
#include "ui/results/simulationcharts.h"
#include "windowfixture.h"

#include <QAbstractBarSeries>
#include <QApplication>
#include <QAreaSeries>
#include <QBarCategoryAxis>
#include <QBarSeries>
#include <QBarSet>
#include <QChart>
#include <QCheckBox>
#include <QDoubleSpinBox>
#include <QGraphicsItem>
#include <QLabel>
#include <QLineEdit>
#include <QLineSeries>
#include <QListWidget>
#include <QScatterSeries>
#include <QScrollBar>
#include <QSettings>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTabWidget>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QTreeWidget>

#include <set>

using namespace gp;

class TestMainWindow : public QObject
{
    Q_OBJECT

    QTemporaryDir mTmp;

    /// A window on a library seeded with the samples (`file` in the test's folder; tests that
    /// delete scenarios use their own).
    std::unique_ptr<ui::MainWindow> makeWindow(const QString& file = "lib.sqlite")
    {
        return test::makeWindow(mTmp.filePath(file));
    }

private Q_SLOTS:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

    void opensTheFirstLibraryScenario()
    {
        auto w = makeWindow();
        w->show();
        w->files()->openFirst();
        QVERIFY(w->currentDocument());
        const QString name = QString::fromStdString(w->currentDocument()->scenario().name);
        QCOMPARE(w->windowTitle(), name + " — gpuplan");
        auto* panel = w->findChild<ui::LibraryPanel*>();
        QVERIFY(panel);
        QCOMPARE(panel->rowCount(), test::sampleFiles().size());
        auto* summary = w->findChild<QLabel*>("PlanSummary");
        QVERIFY(summary);
        auto summaryShown = [&] { return summary->text().contains("<b>64</b> GPUs on 8 nodes"); };
        QTRY_VERIFY(summaryShown()); // the first sample is the 8-node DGX H100 pod, evaluated in the background
        QTRY_VERIFY(w->kpiCards()->valueOf("vram_utilization").endsWith("%"));
        QCOMPARE(w->kpiCards()->valueOf("unplaced_jobs"), QString("0"));
        QTRY_VERIFY(w->kpiCards()->valueOf("p95_completion_days").endsWith("days")); // the preview simulation
        // The library's highlight follows the open scenario (issue 36), and is gone for a new plan.
        QCOMPARE(panel->selectedIds(), QList<qint64>{*w->currentDocument()->libraryId()});
        const qint64 mixed = test::libraryScenarioId(mTmp.filePath("lib.sqlite"), "Mixed sharing lab");
        QVERIFY(w->files()->openFromLibrary(mixed));
        QCOMPARE(panel->selectedIds(), QList<qint64>{mixed});
        QApplication::setActiveWindow(w.get());
        QTest::keyClick(w.get(), Qt::Key_N, Qt::ControlModifier);
        QTRY_VERIFY(!w->currentDocument()->libraryId());
        QVERIFY(panel->selectedIds().isEmpty());
    }

    void outlineListsSharingPerGpu()
    {
        auto w = makeWindow();
        const qint64 mixed = test::libraryScenarioId(mTmp.filePath("lib.sqlite"), "Mixed sharing lab");
        QVERIFY(mixed > 0);
        QVERIFY(w->files()->openFromLibrary(mixed));
        auto* tree = w->findChild<ui::ScenarioTree*>();
        QVERIFY(tree);
        QTRY_VERIFY(!tree->findItems("GPU 4", Qt::MatchRecursive | Qt::MatchExactly).isEmpty());
        const auto items = tree->findItems("GPU 4", Qt::MatchRecursive | Qt::MatchExactly);
        QStringList details;
        for (auto* i : items)
            details << i->text(1);
        QVERIFY2(details.contains("MIG 3g.20gb@0 + 2g.10gb@4 + 1g.5gb@6"), qPrintable(details.join(" | ")));
        QVERIFY(details.contains("time-slicing x4"));
        QVERIFY(details.contains("vGPU A100D-20C (equal_share)"));
        QVERIFY(details.contains("MPS 50% threads, 38 GiB limit"));
        QVERIFY(!w->currentDocument()->isModified());
    }

    void bulkSharingEditIsOneUndoableCommand()
    {
        auto w = makeWindow();
        w->files()->openFirst();
        auto* tree = w->findChild<ui::ScenarioTree*>();
        QTRY_VERIFY(!tree->findItems("node-001", Qt::MatchRecursive | Qt::MatchExactly).isEmpty());
        for (const char* id : {"node-001", "node-002"})
            tree->findItems(id, Qt::MatchRecursive | Qt::MatchExactly).front()->setSelected(true);
        QCOMPARE(tree->selectedNodeIds(), (QStringList{"node-001", "node-002"}));
        SharingConfig ts;
        ts.mode = SharingMode::TimeSlicing;
        ts.replicas = 4;
        w->edits()->setSharingOfSelection(ts);
        document::Document* doc = w->currentDocument();
        QVERIFY(doc->isModified());
        QCOMPARE(doc->undoStack()->count(), 1);
        QCOMPARE(doc->undoStack()->undoText(), QString("Set Time-slicing sharing on 2 node(s)"));
        QCOMPARE(doc->scenario().topology.nodes[1].sharing.mode, SharingMode::TimeSlicing);
        QVERIFY(w->windowTitle().contains("*"));
        // The outline follows after the background evaluation, selection kept.
        QTRY_VERIFY(tree->findItems("time-slicing x4", Qt::MatchRecursive | Qt::MatchExactly, 1).size() == 16);
        QCOMPARE(tree->selectedNodeIds(), (QStringList{"node-001", "node-002"}));
        doc->undoStack()->undo();
        QCOMPARE(doc->scenario().topology.nodes[1].sharing.mode, SharingMode::Exclusive);
        QVERIFY(!doc->isModified());
        QTRY_VERIFY(tree->findItems("time-slicing x4", Qt::MatchRecursive | Qt::MatchExactly, 1).isEmpty());
        doc->undoStack()->redo();
        QCOMPARE(doc->scenario().topology.nodes[0].sharing.mode, SharingMode::TimeSlicing);
    }

    void canvasDragIsOneSnappedUndoableMove()
    {
        auto w = makeWindow();
        w->show();
        w->files()->openFirst();
        ui::CanvasScene* scene = w->canvasScene();
        QGraphicsItem* a = scene->item("node-001");
        QGraphicsItem* b = scene->item("node-002");
        QVERIFY(a && b);
        const QPointF startA = a->pos();
        a->setPos(startA + QPointF(33, 47)); // a drag preview of two items...
        b->setPos(b->pos() + QPointF(33, 47));
        w->canvasView()->editor()->commitDrag(); // ...ends as one command
        document::Document* doc = w->currentDocument();
        QCOMPARE(doc->undoStack()->count(), 1);
        QCOMPARE(doc->undoStack()->undoText(), QString("Move 2 items"));
        const Point moved = doc->scenario().topology.nodes[0].position;
        QCOMPARE(moved.x, startA.x() + 40.0); // snapped to the 20-unit grid
        QCOMPARE(moved.y, startA.y() + 40.0);
        QCOMPARE(a->pos(), QPointF(moved.x, moved.y));
        doc->undoStack()->undo();
        QCOMPARE(a->pos(), startA);
        QCOMPARE(doc->scenario().topology.nodes[0].position.x, startA.x());
        // Nothing moved: no command.
        w->canvasView()->editor()->commitDrag();
        QCOMPARE(doc->undoStack()->count(), 1);
    }

    void canvasSelectionDrivesTheBulkEdit()
    {
        auto w = makeWindow();
        w->files()->openFirst();
        w->canvasScene()->item("node-003")->setSelected(true);
        w->canvasScene()->item("leaf-00")->setSelected(true); // switches are ignored
        SharingConfig pt;
        pt.mode = SharingMode::Passthrough;
        w->edits()->setSharingOfSelection(pt);
        QCOMPARE(w->currentDocument()->scenario().topology.nodes[2].sharing.mode, SharingMode::Passthrough);
        QCOMPARE(w->currentDocument()->undoStack()->undoText(), QString("Set Passthrough sharing on node-003"));
    }

    void workloadsShowResultsAndTheMemoryProfile()
    {
        auto w = makeWindow();
        w->files()->openFirst();
        ui::WorkloadsPanel* panel = w->workloads();
        QTRY_COMPARE(panel->rowCount(), 5);
        QCOMPARE(panel->cell("frontier-70b", "Placed"), QString("yes"));
        QCOMPARE(panel->cell("frontier-70b", "TP×PP×DP"), QString("8×2×2"));
        QVERIFY(panel->cell("frontier-70b", "GiB/GPU").toDouble() > 10);
        // Its MIG static loss is above its tenant's 5 %, but its latency objectives judge it: not flagged.
        QVERIFY(panel->cell("chat-8b", "Penalty").endsWith(" %"));
        panel->selectJob("acme-ft");
        QVERIFY2(panel->profileChart()->title().contains("peak: "), qPrintable(panel->profileChart()->title()));
        QCOMPARE(panel->profileChart()->series().size(), 1);
        auto* bars = qobject_cast<QBarSeries*>(panel->profileChart()->series().front());
        QVERIFY(bars);
        QCOMPARE(bars->barSets().front()->count(), 32 + 3); // embedding, 32 blocks, projection, loss
    }

    void everyShortcutIsUnique()
    {
        auto w = makeWindow();
        QHash<QKeySequence, QString> seen;
        for (QAction* a : w->findChildren<QAction*>())
            for (const QKeySequence& k : a->shortcuts()) {
                QVERIFY2(!seen.contains(k),
                         qPrintable(QString("%1 is used by %2 and %3").arg(k.toString(), seen.value(k), a->text())));
                seen.insert(k, a->text());
            }
        QVERIFY(seen.size() > 15);
    }

    void tradeOffMatrixShowsEverySharingMode()
    {
        auto w = makeWindow();
        w->files()->openFirst();
        QTableWidget* m = w->charts()->tradeOffMatrix();
        QTRY_COMPARE(m->columnCount(), 6);
        QCOMPARE(m->horizontalHeaderItem(0)->text(), QString("Bare metal"));
        QCOMPARE(m->horizontalHeaderItem(2)->text(), QString("MIG"));
        QCOMPARE(m->verticalHeaderItem(1)->text(), QString("Mean penalty"));
        QCOMPARE(m->item(1, 0)->text(), QString("0.0 %"));     // bare metal has no penalty
        QCOMPARE(m->item(10, 4)->text(), QString("none"));     // time-slicing: no memory isolation
        QCOMPARE(m->item(10, 2)->text(), QString("enforced")); // MIG: hardware memory isolation
        QVERIFY(m->item(0, 2)->text().contains("g."));         // a MIG profile was chosen
        // Serving tenants per mode: the worst P99 TTFT and ITL and the SLO attainment; MIG's
        // small slices decode more slowly than whole GPUs.
        QCOMPARE(m->verticalHeaderItem(3)->text(), QString("Serving TTFT P99"));
        QCOMPARE(m->verticalHeaderItem(4)->text(), QString("Serving ITL P99"));
        QCOMPARE(m->verticalHeaderItem(5)->text(), QString("Serving SLO attainment"));
        const auto ms = [&](int row, int col) {
            const QString t = m->item(row, col)->text();
            return t.endsWith(" ms")  ? t.chopped(3).toDouble()
                   : t.endsWith(" s") ? t.chopped(2).toDouble() * 1e3
                                      : 1e30;
        };
        // A mode that leaves a serving job without GPUs shows it unbounded, not fast.
        std::set<QString> itls;
        for (int c = 0; c < m->columnCount(); ++c) {
            const bool all = m->item(9, c)->text() == "0";
            QVERIFY2(!all || (ms(4, c) > 0 && ms(4, c) < 1e29), qPrintable(m->item(4, c)->text()));
            QVERIFY2(all || m->item(3, c)->text() == "unbounded" || m->item(9, c)->text() != "0",
                     qPrintable(m->item(3, c)->text()));
            itls.insert(m->item(4, c)->text());
        }
        QVERIFY2(ms(4, 0) > 0 && ms(4, 0) < 1e29, qPrintable(m->item(4, 0)->text()));
        QVERIFY(itls.size() >= 3); // the modes change serving latency
        QVERIFY(m->item(5, 0)->text().endsWith(" %"));
        // Predictability per mode: the frontier pre-training decides (about 17.3 days on bare metal
        // with flash attention on H100); every mode that places it has a P95 in days.
        QCOMPARE(m->verticalHeaderItem(16)->text(), QString("P95 completion"));
        QCOMPARE(m->verticalHeaderItem(17)->text(), QString("Memory overhead"));
        QCOMPARE(m->item(17, 0)->text(), QString("0.0 %")); // bare metal offers all usable VRAM
        const double bareP95 = m->item(16, 0)->text().split(' ').front().toDouble();
        QVERIFY2(bareP95 > 16 && bareP95 < 20, qPrintable(m->item(16, 0)->text()));
        for (int c = 0; c < m->columnCount(); ++c)
            QVERIFY2(m->item(16, c)->text().contains(" days") || m->item(16, c)->text() == "no training job placed",
                     qPrintable(m->item(16, c)->text()));
        // The same alternatives as points, with the target zone and this scenario.
        QChart* modes = w->charts()->sharingModesChart();
        QCOMPARE(modes->series().size(), 8); // zone + six modes + this scenario
        QVERIFY(qobject_cast<QAreaSeries*>(modes->series().front()));
        QCOMPARE(modes->series().at(1)->name(), QString("this scenario"));
        auto* bare = qobject_cast<QScatterSeries*>(modes->series().at(2));
        QVERIFY(bare->name().startsWith("Bare metal"));
        QCOMPARE(bare->at(0).y(), 0.0); // no penalty
    }

    void resultChartsFollowTheEvaluation()
    {
        auto w = makeWindow();
        w->files()->openFirst();
        QTRY_COMPARE(w->charts()->costChart()->series().size(), 1);
        auto* cost = qobject_cast<QAbstractBarSeries*>(w->charts()->costChart()->series().front());
        QCOMPARE(cost->barSets().size(), 4); // Useful, Idle, Sharing overhead, Stranded (calc::costParts)
        QVERIFY(cost->barSets().front()->label().startsWith("Useful"));
        double sum = 0;
        for (QBarSet* set : cost->barSets())
            sum += set->at(0);
        QVERIFY(qAbs(sum - 139693.0 / 1000.0) < 1.0);               // the cluster's $/month, in thousands
        QCOMPARE(w->charts()->tradeOffChart()->series().size(), 3); // one per tenant
        int points = 0;
        for (QAbstractSeries* series : w->charts()->tradeOffChart()->series())
            points += static_cast<int>(qobject_cast<QScatterSeries*>(series)->count());
        QCOMPARE(points, 5); // every placed job
        // Its links carry under 1 % of their bandwidth: a line says so instead of bars (tst_chartnotes).
        QVERIFY(w->charts()->note(w->charts()->linksChart()).startsWith("No link is busier than 1 %"));
        // Memory per job: six kinds stacked per job, largest job at the top, its slot named.
        auto* memory = qobject_cast<QAbstractBarSeries*>(w->charts()->memoryChart()->series().front());
        QCOMPARE(memory->barSets().size(), 6);
        QCOMPARE(memory->barSets().front()->label(), QString("weights"));
        QCOMPARE(memory->barSets().front()->count(), 5);
        auto* jobs = qobject_cast<QBarCategoryAxis*>(w->charts()->memoryChart()->axes(Qt::Vertical).front());
        QVERIFY2(jobs->categories().back().startsWith("Llama 3 70B pre-training (slot 80 GiB)"),
                 qPrintable(jobs->categories().back()));
        double top = 0;
        for (QBarSet* set : memory->barSets())
            top += set->at(4);
        QVERIFY2(qAbs(top - 63.0) < 0.5, qPrintable(QString::number(top))); // its 63.0 GiB per GPU
    }

    void recentScenariosAreRemembered()
    {
        QSettings().remove("recent/scenarios");
        auto w = makeWindow();
        w->files()->openFirst();
        const qint64 first = *w->currentDocument()->libraryId();
        auto all = (*document::openLibrary(mTmp.filePath("lib.sqlite"), test::bundledCatalog(), {}))->list();
        QVERIFY(w->files()->openFromLibrary(all->back().id));
        QCOMPARE(w->files()->recentScenarios(), (QList<qint64>{all->back().id, first}));
    }

    void newerRequestSupersedesOlder()
    {
        document::PlanSession runner(test::bundledCatalog());
        QSignalSpy spy(&runner, &document::PlanSession::resultsChanged);
        // The results come partial (evaluated) first, then complete (with the matrix).
        auto published = [&spy](bool complete) {
            std::vector<std::shared_ptr<const sim::PlanResults>> out;
            for (const QList<QVariant>& args : spy)
                if (auto r = args.front().value<std::shared_ptr<const sim::PlanResults>>(); r->complete() == complete)
                    out.push_back(r);
            return out;
        };
        auto evaluated = [&] { return published(false).size(); };
        auto withMatrix = [&] { return published(true).size(); };
        Scenario big = *io::readScenarioFile(test::sampleFiles().back(), test::bundledCatalog()).value; // 2,000 GPUs
        Scenario other = big;
        other.tenants.clear();
        runner.request(big, 0);
        QCoreApplication::processEvents(); // the debounce timer fires: the first request starts
        QVERIFY(runner.evaluating());
        runner.request(other, 0); // while the first one runs
        QTRY_COMPARE(evaluated(), std::size_t(1));
        QCOMPARE(runner.droppedResults(), 1); // the first one's result came back stale and was dropped
        QTest::qWait(200);
        QCOMPARE(evaluated(), std::size_t(1));
        const auto ev = published(false).front()->evaluation;
        QVERIFY(ev->jobs.empty());                  // the newer scenario, without tenants
        QTRY_COMPARE(withMatrix(), std::size_t(1)); // the matrix follows, for the newer scenario only
        const auto alts = *published(true).front()->alternatives;
        QCOMPARE(alts.size(), std::size_t(6));
        QCOMPARE(alts.front().kpis.allocationRatio, 0.0); // nothing to place
        QVERIFY(!runner.busy());
    }

    /// Issue 36: the SLA banner sent every reader to Max penalty; a job past its deadline is
    /// explained on the P95 completion card.
    void slaBannerPointsToTheCardThatSaysWhy()
    {
        const Scenario s =
            *io::readScenarioFile(QDir(test::dataDir()).absoluteFilePath("samples/03-fabric-64-node-infiniband.json"),
                                  test::bundledCatalog())
                 .value;
        const calc::Evaluation ev = calc::evaluate(s, test::bundledCatalog());
        QCOMPARE(ev.kpis.slaViolations, 1);
        ui::PlanSummary summary;
        summary.showEvaluation(s, test::bundledCatalog(), ev);
        QVERIFY2(summary.text().contains("click <i>P95 completion</i>"), qPrintable(summary.text()));
        QVERIFY(!summary.text().contains("Max penalty"));
        // Max penalty is red past the target as the mean is (321 % stood in black next to it).
        const calc::KpiSpec* maxPenalty = calc::findKpi("max_penalty");
        calc::Kpis k;
        k.maxPenalty = 3.21;
        QVERIFY(maxPenalty->isFlagged(k));
        k.maxPenalty = 0.01;
        QVERIFY(!maxPenalty->isFlagged(k));
    }

    void describeSharingCoversEveryMode()
    {
        QCOMPARE(ui::describeGpuSharing({}), QString("bare metal (exclusive)"));
        SharingConfig p;
        p.mode = SharingMode::Passthrough;
        QCOMPARE(ui::describeGpuSharing(p), QString("passthrough VM"));
    }
};

QTEST_MAIN(TestMainWindow)
#include "tst_mainwindow.moc"
