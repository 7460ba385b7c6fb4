// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
// The workbench's editing and presenting: the sharing inspector, the MIG editor, simulation
// charts, the blank-to-cluster walkthrough, canvas tools, library actions and revisions (split
// from tst_mainwindow.cpp, which keeps the shell, canvas and charts; the properties panel's
// tests are in tst_properties.cpp).
#include "calc/comparison.h"
#include "calc/kpiregistry.h"
#include "document/commands.h"
#include "document/librarygateway.h"
#include "document/plansession.h"
#include "io/clusterconfigwriter.h"
#include "io/scenarioreader.h"
#include "io/scenariowriter.h"
#include "model/format.h"
#include "model/validation.h"
#include "sim/planresults.h"
#include "testsupport.h"
#include "ui/canvas/canvasscene.h"
#include "ui/canvas/canvasview.h"
#include "ui/canvas/linkitem.h"
#include "ui/canvas/linklayer.h"
#include "ui/canvas/nodeitem.h"
#include "ui/edit/addjobdialog.h"
#include "ui/edit/inspector.h"
#include "ui/edit/propertiespanel.h"
#include "ui/edit/scenariotree.h"
#include "ui/edit/workloadspanel.h"
#include "ui/figures/charttheme.h"
#include "ui/figures/planfigures.h"
#include "ui/library/librarypanel.h"
#include "ui/mainwindow.h"
#include "ui/palette.h"
#include "ui/results/comparedialog.h"
#include "ui/results/kpicards.h"
#include "ui/results/resultscharts.h"
#include "ui/results/simulationcharts.h"
#include "windowfixture.h"

#include <QAbstractBarSeries>
#include <QAction>
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
#include <QValueAxis>

using namespace gp;

class TestWorkbench : public QObject
{
    Q_OBJECT

    QTemporaryDir mTmp;

    std::unique_ptr<ui::MainWindow> makeWindow(const QString& file = "lib.sqlite")
    {
        return test::makeWindow(mTmp.filePath(file));
    }

private Q_SLOTS:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

    void completionAndTimelineChartsFollowTheSimulation()
    {
        auto w = makeWindow();
        w->files()->openFirst();
        ui::CompletionView* completion = w->charts()->completion();
        // The quick preview arrives by itself after the evaluation: training jobs, slowest first.
        QTRY_COMPARE(completion->jobIds().size(), 3);
        QCOMPARE(completion->jobIds().front(), QString("frontier-70b"));
        QCOMPARE(completion->trialsShown(), sim::TrialCounts::kPlan);
        QChart* chart = completion->chart();
        QCOMPARE(chart->series().size(), 4); // histogram, P50, P95, the tenant's 30-day deadline
        QVERIFY(qobject_cast<QAreaSeries*>(chart->series().front()));
        QVERIFY(chart->series().at(3)->name().startsWith("Deadline 30"));
        auto* p95 = qobject_cast<QLineSeries*>(chart->series().at(2));
        QVERIFY(p95->name().startsWith("P95 "));
        QVERIFY2(p95->at(0).x() > 16 && p95->at(0).x() < 20, qPrintable(p95->name())); // 17.3 d without faults
        QVERIFY(chart->title().contains(QString("%L1 trials").arg(sim::TrialCounts::kPlan)));
        QVERIFY(!chart->axes(Qt::Horizontal).isEmpty());
        QCOMPARE(qobject_cast<QValueAxis*>(chart->axes(Qt::Horizontal).front())->labelFormat(), QString("%.1f d"));
        // Another job: its own distribution (the fine-tune takes well under a day).
        completion->selectJob("acme-ft");
        QVERIFY(qobject_cast<QLineSeries*>(chart->series().at(2))->at(0).x() < 1.0);
        // Without a deadline on the tenant, no deadline line.
        Scenario s = w->currentDocument()->scenario();
        s.tenants[0].sla.deadlineDays.reset();
        QVERIFY(w->currentDocument()
                    ->push(document::changeScenario(w->currentDocument()->scenario(), test::bundledCatalog(), s,
                                                    "no deadline"))
                    .empty());
        completion->selectJob("frontier-70b");
        QTRY_COMPARE(chart->series().size(), 3);
        // The full run replaces the preview with 10,000 trials.
        QTRY_VERIFY(!w->session()->busy());
        QSignalSpy full(w->session(), &document::PlanSession::resultsChanged);
        Q_EMIT completion->fullSimulationRequested(10000);
        QTRY_VERIFY_WITH_TIMEOUT(completion->trialsShown() == 10000, 20000);
        QVERIFY(chart->title().contains("10,000 trials"));

        // The timeline: three series over the horizon; a new horizon re-runs it.
        ui::TimelineView* timeline = w->charts()->timeline();
        QTRY_COMPARE(timeline->chart()->series().size(), 3);
        auto* alloc = qobject_cast<QLineSeries*>(timeline->chart()->series().front());
        QCOMPARE(alloc->name(), QString("GPU share allocated"));
        QVERIFY(alloc->count() > 24);
        QVERIFY(timeline->summary().contains("5 jobs started"));
        Q_EMIT timeline->horizonChanged(60);
        QTRY_VERIFY(qobject_cast<QLineSeries*>(timeline->chart()->series().front())->points().back().x() > 50);
    }

    void migLayoutEditorOffersOnlyValidProfilesAndStarts()
    {
        auto w = makeWindow();
        w->files()->openFirst();
        document::Document* doc = w->currentDocument();
        ui::Inspector* in = w->inspector();
        w->canvasScene()->setSelectedIds({"node-005"});
        in->choose(SharingMode::Mig, 0, 0); // the first maximal layout: one 7g.80gb
        QCOMPARE(in->sharing().migInstances, (std::vector<MigInstance>{{"7g.80gb", 0}}));
        QVERIFY(in->addableProfiles().isEmpty()); // the GPU is full
        in->removeInstance(0);
        QVERIFY(!in->canApply()); // an empty layout is refused with the core's message
        QVERIFY2(in->message().contains("at least one instance"), qPrintable(in->message()));
        QVERIFY(in->addableProfiles().contains("3g.40gb"));
        QCOMPARE(in->startsFor("3g.40gb"), (QList<int>{0, 4}));
        QVERIFY(in->addInstance("3g.40gb", 4));
        // Next to 3g@4 only the lower half is free: 3g or 4g at 0, never a 7g, never 3g@4 again.
        QCOMPARE(in->startsFor("3g.40gb"), (QList<int>{0}));
        QCOMPARE(in->startsFor("4g.40gb"), (QList<int>{0}));
        QVERIFY(in->startsFor("7g.80gb").isEmpty());
        QVERIFY(!in->addInstance("7g.80gb", 0));
        QVERIFY(!in->addInstance("3g.40gb", 4));
        QVERIFY(in->addInstance("4g.40gb", 0));
        QVERIFY(in->addableProfiles().isEmpty());
        QVERIFY2(in->canApply(), qPrintable(in->message()));
        // Applied to one GPU only: an override on GPU 2, one undoable command.
        const QByteArray before = io::writeScenario(doc->scenario());
        in->chooseGpu(2);
        QCOMPARE(in->sharing().mode, SharingMode::Exclusive); // GPU 2's sharing as it is
        in->choose(SharingMode::Mig, 0, 0);
        in->removeInstance(0);
        QVERIFY(in->addInstance("3g.40gb", 4));
        QVERIFY(in->addInstance("4g.40gb", 0));
        in->apply();
        QCOMPARE(doc->undoStack()->undoText(), QString("Set MIG sharing on node-005 GPU 2"));
        const Node& n = doc->scenario().topology.nodes[4];
        QCOMPARE(n.sharing.mode, SharingMode::Exclusive);
        QCOMPARE(n.sharingOf(2).migInstances, (std::vector<MigInstance>{{"4g.40gb", 0}, {"3g.40gb", 4}}));
        QCOMPARE(n.sharingOf(1).mode, SharingMode::Exclusive);
        doc->undoStack()->undo();
        QCOMPARE(io::writeScenario(doc->scenario()), before);
    }

    // The "done when": from a blank scenario, a 4-node H100 cluster behind a leaf switch,
    // three tenants (pre-training, LoRA, inference), GPUs switched between MIG and time-slicing,
    // every KPI updated, and each step undoable.
    void blankScenarioToASharedClusterStepByStep()
    {
        auto w = makeWindow();
        w->resize(1600, 1000);
        w->show();
        w->files()->openFirst();
        QVERIFY(w->files()->newScenario(false));
        document::Document* doc = w->currentDocument();
        QUndoStack* undo = doc->undoStack();
        const QByteArray blank = io::writeScenario(doc->scenario());
        for (int i = 0; i < 4; ++i)
            w->canvasView()->editor()->addFromTemplate("node:dgx-h100", QPointF(i * 260.0, 300.0));
        w->canvasView()->editor()->addFromTemplate("switch:qm9700", QPointF(390.0, 0.0));
        const Topology& t = doc->scenario().topology;
        QCOMPARE(t.nodes.size(), std::size_t(4));
        QCOMPARE(t.switches.size(), std::size_t(1));
        const std::string leaf = t.switches.front().id;
        std::vector<std::string> nodeIds;
        for (const Node& n : t.nodes)
            nodeIds.push_back(n.id);
        for (const std::string& n : nodeIds)
            w->canvasView()->editor()->addLink(QString::fromStdString(n), QString::fromStdString(leaf));
        QCOMPARE(doc->scenario().topology.links.size(), std::size_t(4));

        auto addJob = [&](const QString& tenant, const QString& preset, JobKind kind, int tp, int pp, int dp) {
            ui::AddJobDialog dialog(test::bundledCatalog(), doc->scenario());
            dialog.set(tenant, preset, kind, tp, pp, dp);
            QVERIFY2(dialog.valid(), qPrintable(dialog.message()));
            QVERIFY(doc->push(dialog.edit()).empty());
        };
        addJob("Frontier Lab", "llama3-8b", JobKind::Pretraining, 4, 1, 2);
        addJob("Acme Retail", "llama3-8b", JobKind::Lora, 1, 1, 2);
        addJob("ChatCo", "llama3-8b", JobKind::Inference, 1, 1, 4);
        QCOMPARE(doc->scenario().tenants.size(), std::size_t(3));
        QTRY_COMPARE(w->workloads()->rowCount(), 3);
        QTRY_COMPARE(w->kpiCards()->valueOf("unplaced_jobs"), QString("0"));
        const QString costBefore = w->kpiCards()->valueOf("cost_per_month_usd");

        // Nodes 3 and 4: MIG 3g.40gb x2 through the inspector; node 2: time-slicing x4 (Ctrl+3).
        w->canvasScene()->setSelectedIds({QString::fromStdString(nodeIds[2]), QString::fromStdString(nodeIds[3])});
        w->inspector()->choose(SharingMode::Mig, 0, 0);
        w->inspector()->removeInstance(0);
        QVERIFY(w->inspector()->addInstance("3g.40gb", 0));
        QVERIFY(w->inspector()->addInstance("3g.40gb", 4));
        w->inspector()->apply();
        w->canvasScene()->setSelectedIds({QString::fromStdString(nodeIds[1])});
        SharingConfig ts;
        ts.mode = SharingMode::TimeSlicing;
        ts.replicas = 4;
        w->edits()->setSharingOfSelection(ts);
        QCOMPARE(doc->scenario().topology.nodes[2].sharing.mode, SharingMode::Mig);
        QCOMPARE(doc->scenario().topology.nodes[1].sharing.mode, SharingMode::TimeSlicing);
        // Every KPI card is filled from the new evaluation, the P95 from the simulation.
        QTRY_VERIFY(!w->session()->busy());
        for (const QString card : {"vram_utilization", "allocation_ratio", "mean_penalty", "max_penalty",
                                   "cost_per_month_usd", "waste_per_month_usd", "unplaced_jobs", "p95_completion_days"})
            QVERIFY2(!w->kpiCards()->valueOf(card).isEmpty() && w->kpiCards()->valueOf(card) != "–", qPrintable(card));
        QVERIFY(w->kpiCards()->valueOf("p95_completion_days").endsWith("days"));
        QCOMPARE(w->kpiCards()->valueOf("cost_per_month_usd"), costBefore); // the same GPUs are rented either way
        QCOMPARE(w->charts()->tradeOffMatrix()->columnCount(), 6);
        if (qEnvironmentVariableIsSet("GPUPLAN_SCREENSHOT_DIR")) {
            w->canvasView()->fitAll();
            QTest::qWait(200);
            w->grab().save(QDir(qEnvironmentVariable("GPUPLAN_SCREENSHOT_DIR")).filePath("walkthrough.png"));
        }

        // Each step is one command: undo all of them and the blank scenario is back, exactly.
        const QByteArray built = io::writeScenario(doc->scenario());
        QCOMPARE(undo->count(), 4 + 1 + 4 + 3 + 2);
        while (undo->canUndo())
            undo->undo();
        QCOMPARE(io::writeScenario(doc->scenario()), blank);
        while (undo->canRedo())
            undo->redo();
        QCOMPARE(io::writeScenario(doc->scenario()), built);
    }

    void chartsFollowTheDarkPalette()
    {
        const QPalette original = QApplication::palette();
        QPalette dark;
        dark.setColor(QPalette::Window, QColor(40, 40, 40));
        dark.setColor(QPalette::WindowText, QColor(230, 230, 230));
        QApplication::setPalette(dark);
        QVERIFY(ui::darkPalette());
        {
            ui::ResultsCharts charts;
            QCOMPARE(charts.costChart()->theme(), QChart::ChartThemeDark);
            QCOMPARE(charts.completion()->chart()->theme(), QChart::ChartThemeDark);
        }
        QApplication::setPalette(original);
        QVERIFY(!ui::darkPalette());
        ui::ResultsCharts charts;
        QCOMPARE(charts.costChart()->theme(), QChart::ChartThemeLight);
    }

    void canvasToolsTurnMouseGesturesIntoCommands()
    {
        auto w = makeWindow();
        w->resize(1600, 1000);
        w->show();
        QVERIFY(QTest::qWaitForWindowExposed(w.get()));
        w->files()->openFirst();
        ui::CanvasView* view = w->canvasView();
        ui::CanvasScene* scene = w->canvasScene();
        document::Document* doc = w->currentDocument();
        view->resetTransform(); // 1:1, so items are large enough to hit
        view->centerOn(scene->item("node-001"));
        auto at = [&](const QString& id) { return view->mapFromScene(scene->item(id)->sceneBoundingRect().center()); };
        // Connect tool: Shift-drag from a node to another node links them, one undo step.
        const std::size_t linksBefore = doc->scenario().topology.links.size();
        const int steps = doc->undoStack()->count();
        QTest::mousePress(view->viewport(), Qt::LeftButton, Qt::ShiftModifier, at("node-001"));
        QTest::mouseMove(view->viewport(), at("node-002"));
        QTest::mouseRelease(view->viewport(), Qt::LeftButton, Qt::ShiftModifier, at("node-002"));
        QCOMPARE(doc->scenario().topology.links.size(), linksBefore + 1);
        QCOMPARE(doc->undoStack()->count(), steps + 1);
        QCOMPARE(doc->scenario().topology.links.back().id, std::string("node-001-node-002"));
        // Select tool: a click selects the item under the cursor.
        QTest::mouseClick(view->viewport(), Qt::LeftButton, Qt::NoModifier, at("node-002"));
        QCOMPARE(scene->selectedIds(), QStringList{"node-002"});
        QTest::mouseClick(view->viewport(), Qt::LeftButton, Qt::ControlModifier, at("node-001"));
        QCOMPARE(scene->selectedIds().size(), 2);
        // Pan tool: the middle button moves the view, not the items.
        const int before = view->horizontalScrollBar()->value();
        const QPointF nodePos = scene->item("node-001")->pos();
        QTest::mousePress(view->viewport(), Qt::MiddleButton, Qt::NoModifier, QPoint(400, 200));
        QTest::mouseMove(view->viewport(), QPoint(300, 200));
        QTest::mouseRelease(view->viewport(), Qt::MiddleButton, Qt::NoModifier, QPoint(300, 200));
        QVERIFY(view->horizontalScrollBar()->value() != before);
        QCOMPARE(scene->item("node-001")->pos(), nodePos);
    }

    void zoomedOutLinksAreDrawnAsOneLayer()
    {
        auto w = makeWindow();
        w->show();
        w->files()->openFirst();
        ui::CanvasView* view = w->canvasView();
        ui::CanvasScene* scene = w->canvasScene();
        auto layer = [&]() -> ui::LinkLayerItem* {
            for (QGraphicsItem* item : scene->items())
                if (auto* l = qgraphicsitem_cast<ui::LinkLayerItem*>(item))
                    return l;
            return nullptr;
        };
        QVERIFY(layer());
        view->resetTransform();
        view->zoomBy(1.0);
        QVERIFY(!layer()->drawsSingles());
        const auto links = [&] {
            int visible = 0;
            for (QGraphicsItem* item : scene->items())
                if (qgraphicsitem_cast<ui::LinkItem*>(item) && item->isVisible())
                    ++visible;
            return visible;
        };
        QCOMPARE(links(), static_cast<int>(w->currentDocument()->scenario().topology.links.size()));
        view->zoomBy(0.1); // below the detail scale: one layer, no single links
        QVERIFY(layer()->drawsSingles());
        QCOMPARE(links(), 0);
        view->zoomBy(10.0);
        QVERIFY(!layer()->drawsSingles());
        QCOMPARE(links(), static_cast<int>(w->currentDocument()->scenario().topology.links.size()));
    }

    void canvasFlagsUnplacedJobsAndMemoryRisks()
    {
        auto w = makeWindow();
        w->files()->openFirst();
        QTRY_COMPARE(w->workloads()->rowCount(), 5);
        // Everything placed, no memory risk, every SLA met (the chat API's latency objectives
        // judge it, not its MIG static loss): no warning.
        QCOMPARE(w->canvasView()->warnings().size(), 0);
        Scenario s = w->currentDocument()->scenario();
        s.tenants[0].jobs[0].parallelism.dp = 4; // 64 GPUs: as many as the cluster has, with others on them
        s.tenants[0].jobs[0].batch.global = 1024;
        QVERIFY(
            w->currentDocument()
                ->push(document::changeScenario(w->currentDocument()->scenario(), test::bundledCatalog(), s, "Grow"))
                .empty());
        QTRY_VERIFY(!w->canvasView()->warnings().empty());
        QTRY_VERIFY2(w->canvasView()->warnings().front().contains("Llama 3 70B pre-training is not placed"),
                     qPrintable(w->canvasView()->warnings().front()));
        w->currentDocument()->undoStack()->undo();
        QTRY_COMPARE(w->canvasView()->warnings().size(), 0);
    }

    void libraryCompareDuplicateRenameTagDelete()
    {
        auto w = makeWindow("library-actions.sqlite");
        w->files()->openFirst();
        store::ScenarioLibrary& lib = *w->library();
        const auto all = *lib.list();
        const qint64 pod = *w->currentDocument()->libraryId();
        qint64 mixed = 0;
        for (const auto& row : all)
            if (row.name == "Mixed sharing lab")
                mixed = row.id;
        // Compare two: KPI rows with deltas and verdict colours, overlaid charts, the plans' diff.
        ui::CompareDialog* dialog = w->files()->compareScenarios({pod, mixed});
        QVERIFY(dialog);
        QCOMPARE(dialog->kpiTable()->columnCount(), 2);
        QCOMPARE(dialog->kpiTable()->rowCount(), static_cast<int>(calc::comparedKpis().size()));
        const auto costRow =
            static_cast<int>(std::find_if(calc::comparedKpis().begin(), calc::comparedKpis().end(),
                                          [](const calc::KpiSpec& k) { return k.key == "cost_per_month_usd"; }) -
                             calc::comparedKpis().begin());
        const calc::KpiComparison& cost = dialog->rows()[static_cast<std::size_t>(costRow)];
        QCOMPARE(cost.spec.key, std::string("cost_per_month_usd"));
        QCOMPARE(cost.verdicts[1], cost.deltas[1] < 0 ? calc::Verdict::Better : calc::Verdict::Worse);
        QVERIFY(dialog->kpiTable()->item(costRow, 1)->text().contains(cost.deltas[1] < 0 ? "better" : "worse"));
        QCOMPARE(dialog->tradeOffChart()->series().size(), 2);
        const auto* costBars = qobject_cast<QAbstractBarSeries*>(dialog->costChart()->series().front());
        QCOMPARE(costBars->barSets().size(), 4);
        // Each stacked bar is exactly its plan's cost (issue 36: the Mixed sharing lab's stood
        // taller than its bill), in the parts' words.
        QCOMPARE(costBars->barSets().front()->label(), QString("Useful"));
        for (int plan = 0; plan < 2; ++plan) {
            double stacked = 0.0;
            for (const QBarSet* set : costBars->barSets())
                stacked += set->at(plan);
            QVERIFY2(qAbs(stacked - cost.values[static_cast<std::size_t>(plan)] / 1000.0) < 1e-5,
                     qPrintable(QString::number(stacked)));
        }
        QVERIFY(dialog->completionChart()->series().size() >= 1);
        QVERIFY(dialog->differences()->count() > 5);
        QVERIFY(dialog->differences()->item(0)->text().startsWith("A → B"));
        QVERIFY(!w->files()->compareScenarios({pod})); // one is not a comparison
        if (qEnvironmentVariableIsSet("GPUPLAN_SCREENSHOT_DIR")) {
            QTest::qWait(100);
            dialog->grab().save(QDir(qEnvironmentVariable("GPUPLAN_SCREENSHOT_DIR")).filePath("compare.png"));
            dialog->findChild<QTabWidget*>()->setCurrentIndex(1);
            QTest::qWait(100);
            dialog->grab().save(QDir(qEnvironmentVariable("GPUPLAN_SCREENSHOT_DIR")).filePath("compare-charts.png"));
        }
        dialog->close();

        // Duplicate as a variant, rename, tag, find by tag, delete.
        const std::optional<qint64> copy = w->files()->duplicateScenario(pod);
        QVERIFY(copy);
        QCOMPARE(lib.scenario(*copy)->name, QString("DGX H100 pod: three tenants (variant)"));
        QCOMPARE(w->findChild<ui::LibraryPanel*>()->rowCount(), static_cast<int>(all.size()) + 1);
        QVERIFY(w->files()->renameScenario(*copy, "Static MIG partitioning"));
        QCOMPARE(lib.scenario(*copy)->name, QString("Static MIG partitioning"));
        QVERIFY(w->files()->setScenarioTags(*copy, {"mig", "q3-review"}));
        QCOMPARE(lib.scenario(*copy)->tags, (QStringList{"mig", "q3-review"}));
        QVERIFY(w->files()->deleteScenario(*copy, false));
        QVERIFY(!lib.scenario(*copy));
        QCOMPARE(w->findChild<ui::LibraryPanel*>()->rowCount(), static_cast<int>(all.size()));
        // Deleting the open scenario keeps the document, now unsaved.
        QVERIFY(w->files()->deleteScenario(pod, false));
        QVERIFY(!w->currentDocument()->libraryId());
        QVERIFY(w->currentDocument()->isModified());
    }

    void revisionsRoundTripAndOpenReadOnly()
    {
        auto w = makeWindow("revisions.sqlite");
        w->files()->openFirst();
        document::Document* doc = w->currentDocument();
        const qint64 id = *doc->libraryId();
        const QByteArray first = io::writeScenario(doc->scenario());
        w->canvasScene()->setSelectedIds({"node-001"});
        SharingConfig ts;
        ts.mode = SharingMode::TimeSlicing;
        ts.replicas = 4;
        w->edits()->setSharingOfSelection(ts);
        QVERIFY(w->files()->saveRevision("node-001 time-sliced"));
        const QByteArray second = io::writeScenario(w->currentDocument()->scenario());
        QVERIFY(second != first);
        // Each revision reads back exactly as it was saved.
        QCOMPARE(io::writeScenario(*document::loadFromLibrary(*w->library(), id, test::bundledCatalog(), 1).value),
                 first);
        QCOMPARE(io::writeScenario(*document::loadFromLibrary(*w->library(), id, test::bundledCatalog(), 2).value),
                 second);
        QCOMPARE(w->library()->revisions(id)->back().note, QString("node-001 time-sliced"));

        // Two revisions side by side: the diff names the sharing change.
        ui::CompareDialog* revs = w->files()->compareRevisions(id, {1, 2});
        QVERIFY(revs);
        QVERIFY(revs->kpiTable()->horizontalHeaderItem(1)->text().endsWith("(revision 2)"));
        bool sawChange = false;
        for (int i = 0; i < revs->differences()->count(); ++i)
            sawChange = sawChange || revs->differences()->item(i)->text().contains(
                                         "node node-001 sharing: bare metal → time-slicing x4");
        QVERIFY(sawChange);
        revs->close();

        // Revision 1 opens read-only: edits are refused, the title says so.
        QVERIFY(w->files()->openRevision(id, 1));
        doc = w->currentDocument();
        QVERIFY(doc->isReadOnly());
        QCOMPARE(io::writeScenario(doc->scenario()), first);
        QVERIFY(w->windowTitle().contains("revision 1 of 2 (read-only)"));
        w->canvasView()->editor()->addFromTemplate("node:dgx-h100", QPointF(0, 2000));
        w->edits()->setSharingOfSelection(ts);
        w->canvasScene()->setSelectedIds({"node-002"}); // the inspectors' Apply is refused too
        w->inspector()->choose(SharingMode::TimeSlicing, 2, 0);
        w->inspector()->apply();
        QCOMPARE(doc->undoStack()->count(), 0);
        QCOMPARE(io::writeScenario(doc->scenario()), first);
        // Saving makes it a new scenario, editable from then on; the original keeps its two revisions.
        QVERIFY(w->files()->saveRevision("from the past"));
        QVERIFY(!doc->isReadOnly());
        QVERIFY(*doc->libraryId() != id);
        QCOMPARE(w->library()->revisions(id)->size(), std::size_t(2));
        w->canvasView()->editor()->addFromTemplate("node:dgx-h100", QPointF(0, 2000));
        QCOMPARE(doc->scenario().topology.nodes.size(), std::size_t(9));
    }

    // One plan, one set of results: the P95 on the card is the one the report, the slides and
    // a comparison of the same scenario show (sim::TrialCounts::kPlan trials everywhere).
    void thePlanShowsTheSameP95Everywhere()
    {
        auto w = makeWindow();
        w->show();
        w->files()->openFirst();
        const std::shared_ptr<const sim::PlanResults> results = w->exports()->planResults(); // waits for the matrix too
        QVERIFY(results && results->complete());
        QCOMPARE(results->simulation->trials, sim::TrialCounts::kPlan);
        const double p95 = results->simulation->clusterP95Days;
        QVERIFY(p95 > 0);
        QCOMPARE(w->kpiCards()->valueOf("p95_completion_days"), QString("%1 days").arg(p95, 0, 'f', 1));
        QCOMPARE(w->exports()->planResults(), results); // nothing changed: the same object, not recomputed
        const ui::PlanFigures figures(*results, test::bundledCatalog());
        QCOMPARE(figures.simulation->clusterP95Days, p95);
        // A comparison of the open scenario with itself computes it the same way.
        const qint64 pod = *w->currentDocument()->libraryId();
        ui::CompareDialog* dialog = w->files()->compareScenarios({pod, pod});
        QVERIFY(dialog);
        const auto& rows = dialog->rows();
        const auto p95Row = std::find_if(
            rows.begin(), rows.end(), [](const calc::KpiComparison& r) { return r.spec.key == "p95_completion_days"; });
        QVERIFY(p95Row != rows.end());
        QCOMPARE(p95Row->values[0], p95);
        QCOMPARE(p95Row->values[1], p95);
        dialog->close();
        // After an edit the old results are no longer current; the new ones come from the session.
        QVERIFY(
            w->currentDocument()->push(document::renameScenario(w->currentDocument()->scenario(), "renamed")).empty());
        const std::shared_ptr<const sim::PlanResults> after = w->exports()->planResults();
        QVERIFY(after && after != results);
        QCOMPARE(after->scenario->name, std::string("renamed"));
    }

    void kpiCardsReflowToTheWidth()
    {
        ui::KpiCards cards;
        cards.resize(1400, 120);
        cards.show();
        QTRY_COMPARE(cards.columns(), 10); // one row when wide
        cards.resize(500, 200);
        QTRY_COMPARE(cards.columns(), 4); // three rows (4 + 4 + 2) on a small screen
        QVERIFY(cards.minimumSizeHint().width() < 500);
    }

    /// The $/month and $ wasted cards say where the money goes: the four parts that add up to the
    /// cost, in the words every view uses, and unused memory as headroom (issue 36).
    void costCardsShowTheDecomposition()
    {
        const auto read = io::readScenarioFile(
            QDir(test::dataDir()).absoluteFilePath("samples/02-mixed-sharing-lab.json"), test::bundledCatalog());
        QVERIFY(read.ok());
        const sim::PlanResults results =
            sim::computeCoreResults(std::make_shared<const Scenario>(*read.value), test::bundledCatalog(), 30.0, 16);
        ui::KpiCards cards;
        cards.showResults(results);
        const calc::Kpis& k = results.evaluation->kpis;
        QVERIFY(k.wastePerMonthUsd() <= k.costPerMonthUsd);
        for (const char* card : {"kpi-cost_per_month_usd", "kpi-waste_per_month_usd"}) {
            const QString tip = cards.findChild<QWidget*>(card)->toolTip();
            for (const calc::CostPart& part : calc::costParts())
                QVERIFY2(tip.contains(QString::fromUtf8(part.label) + ": " +
                                      QString::fromStdString(fmt::usd(k.costBreakdown.*part.value))),
                         qPrintable(tip));
            QVERIFY2(tip.contains("Unused memory"), qPrintable(tip));
        }
        QCOMPARE(cards.valueOf("waste_per_month_usd"), QString::fromStdString(fmt::usd(k.wastePerMonthUsd())));
    }

    void newScenarioAndSaveVariants()
    {
        auto w = makeWindow();
        w->files()->openFirst();
        const qint64 firstId = *w->currentDocument()->libraryId();
        QVERIFY(w->files()->newScenario(false));
        document::Document* doc = w->currentDocument();
        QVERIFY(doc->scenario().topology.nodes.empty());
        QVERIFY(!doc->libraryId());
        w->canvasView()->editor()->addFromTemplate("node:dgx-h100", QPointF(0, 0));
        QCOMPARE(doc->scenario().topology.nodes.size(), std::size_t(1));
        QVERIFY(w->files()->saveAsNewScenario("Blank start"));
        const qint64 id = *doc->libraryId();
        QVERIFY(id != firstId);
        QCOMPARE(doc->scenario().name, std::string("Blank start"));
        QVERIFY(!doc->isModified());
        w->canvasView()->editor()->addFromTemplate("node:dgx-h100", QPointF(400, 0));
        QVERIFY(w->files()->saveRevision("second node"));
        QCOMPARE(*doc->revision(), 2);
        store::ScenarioLibrary& lib = *w->library();
        const auto revs = lib.revisions(id);
        QCOMPARE(revs->size(), std::size_t(2));
        QCOMPARE(revs->back().note, QString("second node"));
        // The plan as GPU Operator configuration, from the File menu's action.
        QTemporaryDir out;
        QVERIFY(w->exports()->exportClusterConfig(out.filePath("cfg")));
        QVERIFY(QFile::exists(out.filePath("cfg/node-labels.yaml")));
        // ... and as DRA objects and HAMi requests, from their File menu actions.
        QStringList actions;
        for (const QAction* a : w->findChildren<QAction*>())
            actions << a->text();
        QVERIFY(actions.contains(QString::fromUtf8("Export &DRA Objects\u2026")));
        QVERIFY(actions.contains(QString::fromUtf8("Export HA&Mi Requests\u2026")));
        QVERIFY(w->exports()->exportClusterConfig(out.filePath("cfg"), io::ClusterExportFormat::Dra));
        QVERIFY(QFile::exists(out.filePath("cfg/dra/placement.yaml")));
        QVERIFY(w->exports()->exportClusterConfig(out.filePath("cfg"), io::ClusterExportFormat::Hami));
        QVERIFY(QFile::exists(out.filePath("cfg/hami/README.md")));
    }
};

QTEST_MAIN(TestWorkbench)
#include "tst_workbench.moc"
