// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
// The properties panel of the workbench (split from tst_workbench.cpp): edits of canvas items,
// tenants and jobs are one undoable command each; an invalid value shows the core's message
// and changes nothing.
#include "document/commands.h"
#include "guidriver.h"
#include "io/scenariowriter.h"
#include "testsupport.h"
#include "ui/canvas/canvasscene.h"
#include "ui/canvas/nodeitem.h"
#include "ui/edit/propertiespanel.h"
#include "ui/edit/workloadspanel.h"
#include "ui/mainwindow.h"
#include "ui/results/kpicards.h"
#include "windowfixture.h"

#include <QApplication>
#include <QBarSet>
#include <QChart>
#include <QChartView>
#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QHorizontalStackedBarSeries>
#include <QLabel>
#include <QLineEdit>
#include <QLineSeries>
#include <QPushButton>
#include <QScatterSeries>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QUndoStack>

using namespace gp;

using gp::test::clickApply;
using gp::test::typeIntoField;

namespace {
/// The Workloads row of a job, or -1.
int rowOf(const QTableWidget* table, const QString& jobId)
{
    for (int r = 0; r < table->rowCount(); ++r)
        if (table->item(r, 1)->data(Qt::UserRole).toString() == jobId)
            return r;
    return -1;
}
} // namespace

class TestProperties : public QObject
{
    Q_OBJECT

    QTemporaryDir mTmp;

    std::unique_ptr<ui::MainWindow> makeWindow() { return test::makeWindow(mTmp.filePath("lib.sqlite")); }

private Q_SLOTS:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

    // A move while the form holds typed text: Apply keeps the move (it used to put the node back).
    void applyAfterAMoveKeepsTheMove()
    {
        auto w = makeWindow();
        w->files()->openFirst();
        document::Document* doc = w->currentDocument();
        ui::PropertiesPanel* props = w->properties();
        w->canvasScene()->setSelectedIds({"node-003"});
        auto* name = qobject_cast<QLineEdit*>(props->field("name"));
        QVERIFY(name);
        name->selectAll();
        QTest::keyClicks(name, "Node three");
        QVERIFY2(props->canApply(), qPrintable(props->message()));
        const Point moved{1000, 1200};
        QVERIFY(doc->push(document::moveItems(doc->scenario(), {{"node-003", moved}})).empty());
        QCOMPARE(name->text(), QString("Node three")); // the typed text stays
        clickApply(props);
        const Node& n = doc->scenario().topology.nodes[2];
        QCOMPARE(n.name, std::string("Node three"));
        QCOMPARE(n.position, moved);
        QCOMPARE(doc->undoStack()->count(), 2);
    }

    void propertiesOfCanvasItemsAreUndoableEdits()
    {
        auto w = makeWindow();
        w->files()->openFirst();
        document::Document* doc = w->currentDocument();
        const QByteArray before = io::writeScenario(doc->scenario());
        ui::PropertiesPanel* props = w->properties();
        // Two nodes selected on the canvas: the NIC fields edit both, the name is not offered.
        w->canvasScene()->setSelectedIds({"node-001", "node-002"});
        QVERIFY(props->fieldKeys().contains("nics.count"));
        QVERIFY(!props->fieldKeys().contains("name"));
        QVERIFY(!props->canApply()); // nothing changed yet
        typeIntoField(props->field("nics.count"), "4");
        QVERIFY2(props->canApply(), qPrintable(props->message()));
        clickApply(props);
        QCOMPARE(doc->undoStack()->count(), 1);
        QCOMPARE(doc->undoStack()->undoText(), QString("Edit 2 nodes"));
        QCOMPARE(doc->scenario().topology.nodes[0].nics.count, 4);
        QCOMPARE(doc->scenario().topology.nodes[1].nics.count, 4);
        QCOMPARE(doc->scenario().topology.nodes[2].nics.count, 8); // not selected
        // The panel shows the edited values; undo restores the exact document.
        QCOMPARE(qobject_cast<QSpinBox*>(props->field("nics.count"))->value(), 4);
        doc->undoStack()->undo();
        QCOMPARE(io::writeScenario(doc->scenario()), before);
        QCOMPARE(qobject_cast<QSpinBox*>(props->field("nics.count"))->value(), 8);
        doc->undoStack()->redo();
        QCOMPARE(doc->scenario().topology.nodes[1].nics.count, 4);

        // A link is selectable; its bandwidth is editable.
        w->canvasScene()->setSelectedIds({"node-001-leaf-00"});
        QCOMPARE(w->canvasScene()->selectedIds(), QStringList{"node-001-leaf-00"});
        auto* bandwidth = qobject_cast<QDoubleSpinBox*>(props->field("bandwidth_gbps"));
        QVERIFY(bandwidth);
        typeIntoField(bandwidth, "800");
        clickApply(props);
        QCOMPARE(doc->undoStack()->undoText(), QString("Edit link node-001-leaf-00"));
        for (const Link& l : doc->scenario().topology.links)
            if (l.id == "node-001-leaf-00")
                QCOMPARE(l.bandwidthGbps, 800.0);
        // Deleting a selected link removes just that link.
        const std::size_t links = doc->scenario().topology.links.size();
        w->show();
        QVERIFY(QTest::qWaitForWindowExposed(w.get()));
        QApplication::setActiveWindow(w.get());
        w->canvasView()->setFocus(); // Del deletes the selection of the focused panel
        w->edits()->deleteSelection();
        QCOMPARE(doc->scenario().topology.links.size(), links - 1);
        QCOMPARE(doc->scenario().topology.nodes.size(), std::size_t(8));

        // A switch: tier and name.
        w->canvasScene()->setSelectedIds({"leaf-00"});
        typeIntoField(props->field("name"), "Leaf A");
        clickApply(props);
        QCOMPARE(doc->scenario().topology.switches[2].name, std::string("Leaf A"));
    }

    void invalidPropertyShowsTheCoreErrorAndChangesNothing()
    {
        auto w = makeWindow();
        w->files()->openFirst();
        document::Document* doc = w->currentDocument();
        ui::PropertiesPanel* props = w->properties();
        QTRY_COMPARE(w->workloads()->rowCount(), 5);
        // Selecting a job row in the workloads panel shows the job.
        w->workloads()->selectJob("acme-ft");
        props->showJob(doc->scenario(), "acme-ft");
        auto* global = qobject_cast<QSpinBox*>(props->field("batch.global"));
        QVERIFY(global);
        typeIntoField(global, "100"); // not a multiple of micro 1 x dp 8
        QVERIFY(!props->canApply());
        QVERIFY2(props->message().contains("batch.global") && props->message().contains("not a multiple"),
                 qPrintable(props->message()));
        clickApply(props);
        QCOMPARE(doc->undoStack()->count(), 0);
        QVERIFY(!doc->isModified());
        typeIntoField(global, "256");
        QVERIFY(props->canApply());
        clickApply(props);
        QCOMPARE(doc->scenario().tenants[1].jobs[0].batch.global, 256);
        QVERIFY(doc->undoStack()->undoText().startsWith("Edit job "));

        // fp32 main gradients, ticked with the mouse: one undoable edit, 2 more bytes per
        // parameter in the job's gradients.
        props->showJob(doc->scenario(), "acme-ft");
        auto* mainGrads = qobject_cast<QCheckBox*>(props->field("main_grads_fp32"));
        QVERIFY(mainGrads);
        QVERIFY(!mainGrads->isChecked());
        QTest::mouseClick(mainGrads, Qt::LeftButton, {}, QPoint(4, mainGrads->height() / 2));
        QVERIFY(mainGrads->isChecked());
        QVERIFY(props->canApply());
        clickApply(props);
        QVERIFY(doc->scenario().tenants[1].jobs[0].mainGradsFp32);
        doc->undoStack()->undo();
        QVERIFY(!doc->scenario().tenants[1].jobs[0].mainGradsFp32);
        doc->undoStack()->redo();

        // Interleaving the pre-training job's pipeline: v must divide its 40 layers per stage.
        props->showJob(doc->scenario(), "frontier-70b");
        auto* virtualStages = qobject_cast<QSpinBox*>(props->field("parallelism.virtual_stages"));
        QVERIFY(virtualStages);
        typeIntoField(virtualStages, "3");
        QVERIFY(!props->canApply());
        QVERIFY2(props->message().contains("virtual_stages: 3 does not divide the layers per stage (40)"),
                 qPrintable(props->message()));
        typeIntoField(virtualStages, "2");
        QVERIFY2(props->canApply(), qPrintable(props->message()));
        clickApply(props);
        QCOMPARE(doc->scenario().tenants[0].jobs[0].parallelism.virtualStages, 2);

        // A tenant: a bad colour is refused with the core's message; a deadline is set.
        props->showTenant(doc->scenario(), "chatco");
        auto* colour = qobject_cast<QLineEdit*>(props->field("color"));
        typeIntoField(colour, "green");
        QVERIFY(!props->canApply());
        QVERIFY2(props->message().contains("#RRGGBB"), qPrintable(props->message()));
        typeIntoField(colour, "#00aa00");
        typeIntoField(props->field("sla.deadline_days"), "14");
        QVERIFY2(props->canApply(), qPrintable(props->message()));
        clickApply(props);
        QCOMPARE(doc->scenario().tenants[2].color, std::string("#00aa00"));
        QCOMPARE(doc->scenario().tenants[2].sla.deadlineDays, std::optional<double>(14.0));
    }

    /// Clicking a job row shows where its step goes: one stacked bar of the nine parts (in
    /// percent of the step), a legend with seconds, each part's formula in the tooltips; the
    /// attention kernels are a job property whose change moves the step.
    void servingJobShowsLatenciesAndItsCurve()
    {
        auto w = makeWindow();
        w->files()->openFirst();
        ui::WorkloadsPanel* workloads = w->workloads();
        QTRY_COMPARE(workloads->rowCount(), 5);
        QTableWidget* table = workloads->table();
        const int row = rowOf(table, "chat-70b");
        QVERIFY(row >= 0);
        // The table shows the serving figures; training rows show a dash.
        QVERIFY2(workloads->cell("chat-70b", "TTFT").endsWith(" ms"), qPrintable(workloads->cell("chat-70b", "TTFT")));
        QVERIFY(workloads->cell("chat-70b", "ITL P99").endsWith(" ms"));
        QVERIFY(workloads->cell("chat-70b", "SLO").endsWith(" %"));
        QCOMPARE(workloads->cell("frontier-70b", "TTFT"), QString("–"));
        // Its $/month says what its tokens cost (issue 39, item 5); a training job's does not.
        const int cost = static_cast<int>(table->columnCount()) - 1;
        QCOMPARE(table->horizontalHeaderItem(cost)->text(), QString("$/month"));
        QVERIFY2(table->item(row, cost)->toolTip().contains("$/M tokens: input $"),
                 qPrintable(table->item(row, cost)->toolTip()));
        const int training = rowOf(table, "frontier-70b");
        QVERIFY(!table->item(training, cost)->toolTip().contains("$/M tokens"));
        QTest::mouseClick(table->viewport(), Qt::LeftButton, {},
                          table->visualItemRect(table->item(training, 2)).center());
        QVERIFY(!workloads->servingView()->isVisibleTo(workloads));
        QVERIFY(workloads->profileChart()->series().size() > 0);
        QTest::mouseClick(table->viewport(), Qt::LeftButton, {}, table->visualItemRect(table->item(row, 2)).center());
        QCOMPARE(workloads->selectedJobId(), QString("chat-70b"));
        // Selecting it swaps the per-layer chart for its latency-throughput curve.
        QVERIFY(workloads->servingView()->isVisibleTo(workloads));
        QChart* chart = workloads->servingChart();
        QCOMPARE(chart->series().size(), 3); // TTFT, ITL, the operating point
        auto* ttft = qobject_cast<QLineSeries*>(chart->series().at(0));
        QVERIFY(ttft && ttft->count() >= 3);
        for (int i = 1; i < ttft->count(); ++i)
            QVERIFY(ttft->at(i).x() >= ttft->at(i - 1).x() * (1 - 1e-9)); // throughput grows with users
        auto* here = qobject_cast<QScatterSeries*>(chart->series().at(2));
        QVERIFY(here && here->count() == 2);
        QVERIFY(chart->title().contains("users"));
        QVERIFY(workloads->servingView()->toolTip().contains("1 users"));
        QVERIFY(workloads->stepChart()->title().startsWith("Time per output token"));
        // Back on a training job, the per-layer chart returns.
        QTest::mouseClick(table->viewport(), Qt::LeftButton, {},
                          table->visualItemRect(table->item(training, 2)).center());
        QVERIFY(!workloads->servingView()->isVisibleTo(workloads));
        QCOMPARE(w->findChild<ui::KpiCards*>()->valueOf("serving_slo_attainment").endsWith("%"), true);
    }

    void servingObjectivesAndLoadAreEditedInTheInspector()
    {
        auto w = makeWindow();
        w->files()->openFirst();
        document::Document* doc = w->currentDocument();
        ui::WorkloadsPanel* workloads = w->workloads();
        QTRY_COMPARE(workloads->rowCount(), 5);
        QTableWidget* table = workloads->table();
        const int row = rowOf(table, "chat-70b");
        QVERIFY(row >= 0);
        QCOMPARE(workloads->cell("chat-70b", "SLO"), QString("100.0 %"));
        // The tenant cell opens the tenant: a 1 ms TTFT objective, typed, no request meets.
        QTest::mouseClick(table->viewport(), Qt::LeftButton, {}, table->visualItemRect(table->item(row, 0)).center());
        ui::PropertiesPanel* props = w->properties();
        auto* ttft = qobject_cast<QDoubleSpinBox*>(props->field("sla.ttft_p99_ms"));
        QVERIFY(ttft);
        QCOMPARE(ttft->value(), 2000.0);
        ttft->setFocus();
        ttft->selectAll();
        QTest::keyClicks(ttft, "1");
        QTest::keyClick(ttft, Qt::Key_Enter);
        QCOMPARE(ttft->value(), 1.0);
        QVERIFY2(props->canApply(), qPrintable(props->message()));
        clickApply(props);
        QCOMPARE(*doc->scenario().tenants[2].sla.ttftP99Ms, 1.0);
        QTRY_COMPARE(workloads->cell("chat-70b", "SLO"), QString("0.0 %"));
        doc->undoStack()->undo();
        QTRY_COMPARE(workloads->cell("chat-70b", "SLO"), QString("100.0 %"));

        // The job: a closed load of its 128 users, chosen with the keyboard.
        QTest::mouseClick(table->viewport(), Qt::LeftButton, {}, table->visualItemRect(table->item(row, 2)).center());
        auto* load = qobject_cast<QComboBox*>(props->field("inference.load"));
        QVERIFY(load);
        QCOMPARE(load->currentText(), QString("open"));
        load->setFocus();
        QTest::keyClick(load, Qt::Key_End);
        QCOMPARE(load->currentText(), QString("closed"));
        QVERIFY(qobject_cast<QDoubleSpinBox*>(props->field("inference.input_tokens")));
        QCOMPARE(qobject_cast<QDoubleSpinBox*>(props->field("inference.input_tokens"))->value(), 2048.0);
        clickApply(props);
        QCOMPARE(doc->scenario().tenants[2].jobs[1].inference->load, ServingLoad::Closed);
        // 128 users keep the engine busier than 1.5 requests/s: the first token comes later.
        QTRY_VERIFY(workloads->cell("chat-70b", "TTFT") != QString("114 ms"));
    }

    /// The mixed-sharing sample's time-sliced pair: clicking the fine-tune's row explains its
    /// penalty by resource and names the evaluation server; the canvas marks that server's slot.
    void penaltyByResourceAndTheNoisiestNeighbour()
    {
        auto w = makeWindow();
        const qint64 mixed = test::libraryScenarioId(mTmp.filePath("lib.sqlite"), "Mixed sharing lab");
        QVERIFY(mixed > 0);
        QVERIFY(w->files()->openFromLibrary(mixed));
        ui::WorkloadsPanel* workloads = w->workloads();
        QTableWidget* table = workloads->table();
        QTRY_VERIFY(rowOf(table, "notebooks-eval") >= 0);
        const int row = rowOf(table, "notebooks");
        QVERIFY(row >= 0);
        QTest::mouseClick(table->viewport(), Qt::LeftButton, {}, table->visualItemRect(table->item(row, 2)).center());
        QCOMPARE(workloads->selectedJobId(), QString("notebooks"));
        const QString line = workloads->penaltyLine()->text();
        QVERIFY2(line.startsWith("Penalty ") && line.contains("context switch") &&
                     line.contains("noisiest neighbour Notebook evaluation server"),
                 qPrintable(line));
        QVERIFY(workloads->penaltyLine()->toolTip().contains("time_slice_cache_refill_us"));
        QVERIFY(table->item(row, 7)->toolTip().contains("noisiest neighbour Notebook evaluation server"));
        // A job alone on its GPU has nobody to blame.
        const int alone = rowOf(table, "mig-chat");
        QTest::mouseClick(table->viewport(), Qt::LeftButton, {}, table->visualItemRect(table->item(alone, 2)).center());
        QVERIFY2(workloads->penaltyLine()->text().contains("no co-tenant adds to it") ||
                     workloads->penaltyLine()->text().contains("noisiest neighbour Llama 3 8B chat on MIG"),
                 qPrintable(workloads->penaltyLine()->text()));
        // On the canvas: node-002 GPU 0 carries one marked slot (each of the two is the other's
        // noisiest neighbour: both slots), other GPUs none.
        auto* node = qgraphicsitem_cast<ui::NodeItem*>(w->canvasScene()->item("node-002"));
        QVERIFY(node);
        QTRY_VERIFY(!node->gpus().empty());
        int marked = 0;
        for (const auto& slot : node->gpus()[0].slots)
            marked += slot.noisiest ? 1 : 0;
        QCOMPARE(marked, 2);
        for (std::size_t g = 1; g < node->gpus().size(); ++g)
            for (const auto& slot : node->gpus()[g].slots)
                QVERIFY(!slot.noisiest);
        QVERIFY2(node->toolTip().contains("Notebook evaluation server costs Notebook fine-tunes most"),
                 qPrintable(node->toolTip()));
    }

    void stepBreakdownOfTheSelectedJob()
    {
        auto w = makeWindow();
        w->files()->openFirst();
        document::Document* doc = w->currentDocument();
        ui::WorkloadsPanel* workloads = w->workloads();
        QTRY_COMPARE(workloads->rowCount(), 5);
        QTableWidget* table = workloads->table();
        const int row = rowOf(table, "frontier-70b");
        QVERIFY(row >= 0);
        QTest::mouseClick(table->viewport(), Qt::LeftButton, {}, table->visualItemRect(table->item(row, 2)).center());
        QCOMPARE(workloads->selectedJobId(), QString("frontier-70b"));
        QChart* chart = workloads->stepChart();
        QCOMPARE(chart->series().size(), 1);
        auto* bars = qobject_cast<QHorizontalStackedBarSeries*>(chart->series().front());
        QVERIFY(bars);
        QCOMPARE(bars->count(), 9); // the parts of stepParts(), the MoE all-to-all and the CP ring included
        double sum = 0.0;
        for (QBarSet* set : bars->barSets())
            sum += set->at(0);
        QVERIFY2(qAbs(sum - 100.0) < 1e-6, qPrintable(QString::number(sum)));
        QCOMPARE(bars->barSets().front()->label(), QString("Compute"));
        QVERIFY(chart->title().startsWith("Step time "));
        QVERIFY(chart->title().contains("MFU"));
        const QString legend = workloads->stepLegend()->text();
        QVERIFY2(legend.contains("Compute") && legend.contains("TP exposed") &&
                     QRegularExpression("Compute&nbsp;[0-9.]+ s&nbsp;\\([0-9.]+&nbsp;%\\)").match(legend).hasMatch(),
                 qPrintable(legend));
        QVERIFY2(workloads->stepLegend()->toolTip().contains("Narayanan"),
                 qPrintable(workloads->stepLegend()->toolTip()));
        // Hovering a segment says what it is and where its formula comes from.
        QBarSet* compute = bars->barSets().front();
        Q_EMIT compute->hovered(true, 0);
        QVERIFY2(workloads->stepView()->toolTip().contains("Compute") &&
                     workloads->stepView()->toolTip().contains("GEMM"),
                 qPrintable(workloads->stepView()->toolTip()));
        Q_EMIT compute->hovered(false, 0);
        QVERIFY(workloads->stepView()->toolTip().isEmpty());
        const double flashShare = compute->at(0);

        // Unfused attention, chosen with the keyboard in the inspector and applied: the job's
        // attention core now streams its scores, and the step grows.
        ui::PropertiesPanel* props = w->properties();
        props->showJob(doc->scenario(), "frontier-70b");
        auto* attention = qobject_cast<QComboBox*>(props->field("flash_attention"));
        QVERIFY(attention);
        QCOMPARE(attention->currentText(), QString("As the model"));
        attention->setFocus();
        QTest::keyClick(attention, Qt::Key_End); // the last choice: Unfused
        QCOMPARE(attention->currentText(), QString("Unfused"));
        QVERIFY2(props->canApply(), qPrintable(props->message()));
        clickApply(props);
        QCOMPARE(doc->scenario().tenants[0].jobs[0].flashAttention, std::optional<bool>(false));
        QTRY_VERIFY(workloads->stepChart()->title().startsWith("Step time ") &&
                    qobject_cast<QHorizontalStackedBarSeries*>(workloads->stepChart()->series().value(0)) &&
                    qobject_cast<QHorizontalStackedBarSeries*>(workloads->stepChart()->series().front())
                            ->barSets()
                            .front()
                            ->at(0) != flashShare);
        doc->undoStack()->undo();
        QVERIFY(!doc->scenario().tenants[0].jobs[0].flashAttention);
    }
};

QTEST_MAIN(TestProperties)
#include "tst_properties.moc"
