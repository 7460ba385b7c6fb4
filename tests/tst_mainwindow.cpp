// The workbench shell shows the library and the open scenario, and keeps the title true.
#include "document/librarygateway.h"
#include "io/scenarioreader.h"
#include "model/validation.h"
#include "testsupport.h"
#include "ui/canvas/canvasscene.h"
#include "ui/canvas/canvasview.h"
#include "ui/canvas/nodeitem.h"
#include "ui/evaluationrunner.h"
#include "document/editscenariocmd.h"
#include "ui/addjobdialog.h"
#include "ui/inspector.h"
#include "ui/propertiespanel.h"
#include "io/scenariowriter.h"
#include "ui/kpicards.h"
#include "ui/resultscharts.h"
#include "ui/simulationcharts.h"
#include "ui/charttheme.h"
#include "ui/librarypanel.h"
#include "ui/comparedialog.h"
#include "calc/comparison.h"
#include "ui/palette.h"
#include "ui/workloadspanel.h"
#include "ui/mainwindow.h"
#include "ui/scenariotree.h"

#include <QAbstractBarSeries>
#include <QAreaSeries>
#include <QLineSeries>
#include <QBarSeries>
#include <QScatterSeries>
#include <QBarCategoryAxis>
#include <QBarSet>
#include <QChart>
#include <QGraphicsItem>
#include <QCheckBox>
#include <QDoubleSpinBox>
#include <QLabel>
#include <QLineEdit>
#include <QSpinBox>
#include <QSettings>
#include <QTemporaryDir>
#include <QListWidget>
#include <QTabWidget>
#include <QTreeWidget>
#include <QScrollBar>
#include <QSignalSpy>
#include <QTableWidget>
#include <QtTest>

using namespace gp;

class TestMainWindow : public QObject
{
    Q_OBJECT

    QTemporaryDir mTmp;

    /// A window on a library seeded with the samples (`file` in the test's folder; tests that
    /// delete scenarios use their own).
    std::unique_ptr<ui::MainWindow> makeWindow(const QString& file = "lib.sqlite")
    {
        QString error;
        auto lib = document::openLibrary(mTmp.filePath(file), test::bundledCatalog(),
                                         QDir(test::dataDir()).absoluteFilePath("samples"), &error);
        if (!lib)
            qFatal("%s", qPrintable(error));
        return std::make_unique<ui::MainWindow>(test::bundledCatalog(), std::move(lib));
    }

private Q_SLOTS:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

    void opensTheFirstLibraryScenario()
    {
        auto w = makeWindow();
        w->show();
        w->openFirst();
        QVERIFY(w->currentDocument());
        const QString name = QString::fromStdString(w->currentDocument()->scenario().name);
        QCOMPARE(w->windowTitle(), name + " — gpuplan");
        auto* panel = w->findChild<ui::LibraryPanel*>();
        QVERIFY(panel);
        QCOMPARE(panel->rowCount(), test::sampleFiles().size());
        auto summaryShown = [&] {
            for (auto* label : w->findChildren<QLabel*>())
                if (label->text().contains("<b>64</b> GPUs on 8 nodes"))
                    return true;
            return false;
        };
        QTRY_VERIFY(summaryShown()); // the first sample is the 8-node DGX H100 pod, evaluated in the background
        QTRY_VERIFY(w->kpiCards()->valueOf("VRAM utilization").endsWith("%"));
        QCOMPARE(w->kpiCards()->valueOf("Unplaced jobs"), QString("0"));
        QTRY_VERIFY(w->kpiCards()->valueOf("P95 completion").endsWith("days")); // the preview simulation
    }

    void outlineListsSharingPerGpu()
    {
        auto w = makeWindow();
        auto all = document::openLibrary(mTmp.filePath("lib.sqlite"), test::bundledCatalog(), {}, nullptr)->list();
        qint64 mixed = 0;
        for (const auto& s : *all)
            if (s.name == "Mixed sharing lab")
                mixed = s.id;
        QVERIFY(mixed > 0);
        QVERIFY(w->openFromLibrary(mixed));
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
        w->openFirst();
        auto* tree = w->findChild<ui::ScenarioTree*>();
        QTRY_VERIFY(!tree->findItems("node-001", Qt::MatchRecursive | Qt::MatchExactly).isEmpty());
        for (const char* id : {"node-001", "node-002"})
            tree->findItems(id, Qt::MatchRecursive | Qt::MatchExactly).front()->setSelected(true);
        QCOMPARE(tree->selectedNodeIds(), (QStringList{"node-001", "node-002"}));
        SharingConfig ts;
        ts.mode = SharingMode::TimeSlicing;
        ts.replicas = 4;
        w->setSharingOfSelection(ts);
        document::Document* doc = w->currentDocument();
        QVERIFY(doc->isModified());
        QCOMPARE(doc->undoStack()->count(), 1);
        QCOMPARE(doc->undoStack()->undoText(), QString("Set time_slicing sharing on 2 node(s)"));
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
        w->openFirst();
        ui::CanvasScene* scene = w->canvasScene();
        QGraphicsItem* a = scene->item("node-001");
        QGraphicsItem* b = scene->item("node-002");
        QVERIFY(a && b);
        const QPointF startA = a->pos();
        a->setPos(startA + QPointF(33, 47)); // a drag preview of two items...
        b->setPos(b->pos() + QPointF(33, 47));
        w->commitCanvasDrag();               // ...ends as one command
        document::Document* doc = w->currentDocument();
        QCOMPARE(doc->undoStack()->count(), 1);
        QCOMPARE(doc->undoStack()->undoText(), QString("Move 2 item(s)"));
        const Point moved = doc->scenario().topology.nodes[0].position;
        QCOMPARE(moved.x, startA.x() + 40.0); // snapped to the 20-unit grid
        QCOMPARE(moved.y, startA.y() + 40.0);
        QCOMPARE(a->pos(), QPointF(moved.x, moved.y));
        doc->undoStack()->undo();
        QCOMPARE(a->pos(), startA);
        QCOMPARE(doc->scenario().topology.nodes[0].position.x, startA.x());
        // Nothing moved: no command.
        w->commitCanvasDrag();
        QCOMPARE(doc->undoStack()->count(), 1);
    }

    void canvasSelectionDrivesTheBulkEdit()
    {
        auto w = makeWindow();
        w->openFirst();
        w->canvasScene()->item("node-003")->setSelected(true);
        w->canvasScene()->item("leaf-00")->setSelected(true); // switches are ignored
        SharingConfig pt;
        pt.mode = SharingMode::Passthrough;
        w->setSharingOfSelection(pt);
        QCOMPARE(w->currentDocument()->scenario().topology.nodes[2].sharing.mode, SharingMode::Passthrough);
        QCOMPARE(w->currentDocument()->undoStack()->undoText(), QString("Set passthrough sharing on 1 node(s)"));
    }

    void workloadsShowResultsAndTheMemoryProfile()
    {
        auto w = makeWindow();
        w->openFirst();
        ui::WorkloadsPanel* panel = w->workloads();
        QTRY_COMPARE(panel->rowCount(), 5);
        QCOMPARE(panel->cell("frontier-70b", "Placed"), QString("yes"));
        QCOMPARE(panel->cell("frontier-70b", "TP×PP×DP"), QString("8×2×2"));
        QVERIFY(panel->cell("frontier-70b", "GiB/GPU").toDouble() > 10);
        QVERIFY(panel->cell("chat-8b", "Penalty").endsWith("%"));
        panel->selectJob("acme-ft");
        QVERIFY2(panel->profileChart()->title().contains("peak: "), qPrintable(panel->profileChart()->title()));
        QCOMPARE(panel->profileChart()->series().size(), 1);
        auto* bars = qobject_cast<QBarSeries*>(panel->profileChart()->series().front());
        QVERIFY(bars);
        QCOMPARE(bars->barSets().front()->count(), 32 + 3); // embedding, 32 blocks, projection, loss
    }

    void paletteDropDeleteAndFabricAreCommands()
    {
        auto w = makeWindow();
        w->show();
        w->openFirst();
        document::Document* doc = w->currentDocument();
        const std::size_t nodes = doc->scenario().topology.nodes.size();
        w->addFromTemplate("node:pcie-l40s-8", QPointF(1213, 41));
        QCOMPARE(doc->scenario().topology.nodes.size(), nodes + 1);
        const Node& added = doc->scenario().topology.nodes.back();
        QCOMPARE(added.gpuId, std::string("l40s-48gb"));
        QCOMPARE(added.position.x, 1220.0); // on the grid
        QGraphicsItem* item = w->canvasScene()->item(QString::fromStdString(added.id));
        QVERIFY(item);
        item->setSelected(true);
        w->deleteSelection();
        QCOMPARE(doc->scenario().topology.nodes.size(), nodes);
        QVERIFY(!w->canvasScene()->item(QString::fromStdString(added.id)));
        doc->undoStack()->undo();
        QCOMPARE(doc->scenario().topology.nodes.size(), nodes + 1);
        QVERIFY(w->canvasScene()->item(QString::fromStdString(added.id)));

        // The fabric generator builds large clusters in one step; the canvas draws them.
        document::FabricSpec spec;
        spec.nodeTemplate = "dgx-h100";
        spec.switchTemplate = "qm9700";
        spec.nodes = 1024;
        spec.nodesPerLeaf = 4;
        spec.spines = 16;
        QCOMPARE(w->addFabric(spec), QString());
        QCOMPARE(doc->scenario().topology.nodes.size(), nodes + 1 + 1024);
        QCOMPARE(doc->undoStack()->undoText(), QString("Undo Generate a fabric of 1024 nodes").mid(5));
        QTRY_VERIFY(w->kpiCards()->valueOf("Allocation") != QString("–"));
        const QPixmap frame = w->canvasView()->grab(); // renders zoomed out, nodes collapsed
        QVERIFY(!frame.isNull());
        doc->undoStack()->undo();
        QCOMPARE(doc->scenario().topology.nodes.size(), nodes + 1);
    }

    void inspectorOffersOnlyValidMigLayouts()
    {
        auto w = makeWindow();
        w->openFirst();
        ui::Inspector* inspector = w->inspector();
        for (const char* id : {"node-004", "node-005"})
            w->canvasScene()->item(id)->setSelected(true);
        QVERIFY(inspector->isEnabled());
        inspector->choose(SharingMode::Mig, 0, 0);
        const SharingConfig cfg = inspector->sharing();
        QCOMPARE(cfg.mode, SharingMode::Mig);
        QVERIFY(!cfg.migInstances.empty());
        QVERIFY(inspector->canApply()); // every offered layout passes the MIG rules
        QVERIFY(inspector->message().contains("Valid for 2 node(s)"));
        inspector->choose(SharingMode::Mps, 25);
        QCOMPARE(inspector->sharing().mpsActiveThreadPct, 25);
        Q_EMIT inspector->applyRequested({"node-004", "node-005"}, inspector->sharing()); // what Apply does
        QCOMPARE(w->currentDocument()->scenario().topology.nodes[3].sharing.mode, SharingMode::Mps);
        QCOMPARE(w->currentDocument()->undoStack()->count(), 1);
        // A mixed selection cannot take MIG.
        Scenario mixedScenario = w->currentDocument()->scenario();
        mixedScenario.topology.nodes[5].gpuId = "a100-80gb";
        inspector->showNodes(mixedScenario, {"node-005", "node-006"});
        inspector->choose(SharingMode::Mig);
        QVERIFY(!inspector->canApply());
        QVERIFY(inspector->message().contains("mixes GPU models"));
    }

    void addJobDialogChecksWithTheCoreRules()
    {
        const Scenario s = *io::readScenarioFile(test::sampleFiles().front(), test::bundledCatalog()).scenario;
        ui::AddJobDialog dialog(test::bundledCatalog(), s);
        dialog.set("Frontier Lab (pre-training)", "llama3-8b", JobKind::Pretraining, 3, 1, 1);
        QVERIFY(!dialog.valid());
        QVERIFY2(dialog.message().contains("3 does not divide attention heads (32)"), qPrintable(dialog.message()));
        dialog.set("Startup X", "mixtral-8x7b", JobKind::Inference, 2, 1, 2);
        QVERIFY2(dialog.valid(), qPrintable(dialog.message()));
        const Scenario added = dialog.result();
        QCOMPARE(added.tenants.size(), s.tenants.size() + 1);
        QCOMPARE(added.tenants.back().name, std::string("Startup X"));
        QCOMPARE(added.tenants.back().jobs.front().model.preset, std::string("mixtral-8x7b"));
        // Through the window: one undoable command, evaluated like any edit.
        auto w = makeWindow();
        w->openFirst();
        document::Document* doc = w->currentDocument();
        doc->undoStack()->push(new document::EditScenarioCmd(doc, added, "Add job"));
        QCOMPARE(doc->scenario().tenants.size(), s.tenants.size() + 1);
        QTRY_COMPARE(w->workloads()->rowCount(), 6);
        doc->undoStack()->undo();
        QTRY_COMPARE(w->workloads()->rowCount(), 5);
    }

    void customModelsAndJobTemplatesFromThePalette()
    {
        const Scenario s = *io::readScenarioFile(test::sampleFiles().front(), test::bundledCatalog()).scenario;
        ui::AddJobDialog dialog(test::bundledCatalog(), s);
        dialog.set("Research", "llama3-8b", JobKind::Lora, 1, 1, 1);
        // A custom 13B-class shape: valid, and stored as the job's own architecture.
        ModelArchitecture arch;
        arch.layers = 40;
        arch.hiddenSize = 5120;
        arch.attentionHeads = 40;
        arch.kvHeads = 40;
        arch.ffnHiddenSize = 13824;
        arch.vocabSize = 32000;
        arch.sequenceLength = 4096;
        dialog.setCustom(arch);
        QVERIFY2(dialog.valid(), qPrintable(dialog.message()));
        if (qEnvironmentVariableIsSet("GPUPLAN_SCREENSHOT_DIR")) {
            dialog.show();
            dialog.grab().save(QDir(qEnvironmentVariable("GPUPLAN_SCREENSHOT_DIR")).filePath("add-job-custom.png"));
        }
        const Scenario withCustom = dialog.result();
        const Job& job = withCustom.tenants.back().jobs.back();
        QCOMPARE(job.model.preset, std::string());
        QCOMPARE(job.model.custom, arch);
        QCOMPARE(job.id, std::string("custom-lora"));
        // A shape the core refuses: the message says which field and why.
        arch.attentionHeads = 48;
        arch.kvHeads = 48;
        dialog.setCustom(arch);
        QVERIFY(!dialog.valid());
        QVERIFY2(dialog.message().contains("hidden_size") && dialog.message().contains("not divisible by attention heads"),
                 qPrintable(dialog.message()));

        // From the palette: a preset dropped on a node preselects the model and pins the job there.
        ui::AddJobDialog fromPalette(test::bundledCatalog(), s);
        fromPalette.preselect("llama3-70b", "node-003");
        fromPalette.set("Frontier Lab (pre-training)", "llama3-70b", JobKind::Inference, 4, 1, 1);
        QVERIFY2(fromPalette.valid(), qPrintable(fromPalette.message()));
        const Scenario withPinned = fromPalette.result();
        const Job& pinned = withPinned.tenants[0].jobs.back();
        QVERIFY(pinned.pin.has_value());
        QCOMPARE(pinned.pin->node, std::string("node-003"));
        // The palette offers every model preset and a custom model as job templates.
        auto w = makeWindow();
        auto* palette = w->findChild<ui::Palette*>();
        QVERIFY(palette);
        int jobs = 0;
        for (int i = 0; i < palette->count(); ++i)
            jobs += palette->item(i)->data(Qt::UserRole).toString().startsWith("job:") ? 1 : 0;
        QCOMPARE(jobs, static_cast<int>(test::bundledCatalog().models.size()) + 1);
    }

    void everyShortcutIsUnique()
    {
        auto w = makeWindow();
        QHash<QKeySequence, QString> seen;
        for (QAction* a : w->findChildren<QAction*>())
            for (const QKeySequence& k : a->shortcuts()) {
                QVERIFY2(!seen.contains(k), qPrintable(QString("%1 is used by %2 and %3")
                                                           .arg(k.toString(), seen.value(k), a->text())));
                seen.insert(k, a->text());
            }
        QVERIFY(seen.size() > 15);
    }

    void editJobChangesItInPlace()
    {
        const Scenario s = *io::readScenarioFile(test::sampleFiles().front(), test::bundledCatalog()).scenario;
        const Tenant& tenant = s.tenants.front();
        const Job& original = tenant.jobs.front();
        ui::AddJobDialog dialog(test::bundledCatalog(), s);
        dialog.editJob(original.id);
        QVERIFY2(dialog.valid(), qPrintable(dialog.message())); // the job as it is
        QCOMPARE(dialog.result(), s);                             // untouched fields: nothing changes
        // An invalid tensor-parallel degree is refused with the core's message.
        dialog.set(QString::fromStdString(tenant.name), QString::fromStdString(original.model.preset), original.kind, 3,
                   original.parallelism.pp, original.parallelism.dp);
        QVERIFY(!dialog.valid());
        QVERIFY2(dialog.message().contains("does not divide attention heads"), qPrintable(dialog.message()));
        // Halving data parallelism edits the same job: same id, tenant and pin; one job fewer nowhere.
        const int dp = std::max(1, original.parallelism.dp / 2);
        dialog.set(QString::fromStdString(tenant.name), QString::fromStdString(original.model.preset), original.kind,
                   original.parallelism.tp, original.parallelism.pp, dp);
        QVERIFY2(dialog.valid(), qPrintable(dialog.message()));
        const Scenario edited = dialog.result();
        QCOMPARE(edited.tenants.size(), s.tenants.size());
        QCOMPARE(edited.tenants.front().jobs.size(), tenant.jobs.size());
        const Job& j = edited.tenants.front().jobs.front();
        QCOMPARE(j.id, original.id);
        QCOMPARE(j.name, original.name);
        QCOMPARE(j.pin, original.pin);
        QCOMPARE(j.parallelism.dp, dp);
        QCOMPARE(j.batch.global, original.batch.global / original.parallelism.dp * dp); // same batch per replica
        QCOMPARE(j.parallelism.zeroStage, original.parallelism.zeroStage);             // what the dialog does not ask stays
    }

    void droppingAJobOnAMigInstancePinsIt()
    {
        auto w = makeWindow();
        w->show();
        w->openFirst();
        QTRY_COMPARE(w->workloads()->rowCount(), 5);
        QGraphicsItem* node = w->canvasScene()->item("node-007"); // MIG: 3g.40gb@0 + 3g.40gb@4 on GPU 1
        const QRectF cell = ui::NodeItem::gpuCell(1);
        const QPointF secondInstance = node->mapToScene(QPointF(cell.left() + cell.width() * 0.75, cell.center().y()));
        QVERIFY(w->pinJobAt("acme-lora", secondInstance));
        const Job& job = w->currentDocument()->scenario().tenants[1].jobs[1];
        QVERIFY(job.pin.has_value());
        QCOMPARE(job.pin->node, std::string("node-007"));
        QCOMPARE(*job.pin->gpu, 1);
        QCOMPARE(*job.pin->migInstance, 1);
        QCOMPARE(w->currentDocument()->undoStack()->undoText(), QString("Pin acme-lora to node-007 GPU 1 instance 1"));
        // The evaluation then places it there, or says why it cannot.
        QTRY_VERIFY(!w->workloads()->cell("acme-lora", "Placed").isEmpty());
        // Dropped on empty canvas: nothing happens.
        QVERIFY(!w->pinJobAt("acme-lora", QPointF(-5000, -5000)));
        QCOMPARE(w->currentDocument()->undoStack()->count(), 1);
    }

    void linkingANodeAndASwitchTakesThePortsBandwidth()
    {
        auto w = makeWindow();
        w->openFirst();
        document::Document* doc = w->currentDocument();
        const std::size_t links = doc->scenario().topology.links.size();
        w->addLink("node-001", "spine-00");
        QCOMPARE(doc->scenario().topology.links.size(), links + 1);
        const Link& l = doc->scenario().topology.links.back();
        QCOMPARE(l.bandwidthGbps, 8 * 400.0); // 8 NICs of 400 Gb/s, one NDR port each
        QCOMPARE(l.latencyUs, 0.13);          // the QM9700 template's latency
        QCOMPARE(l.id, std::string("node-001-spine-00"));
        QVERIFY(w->canvasScene()->idAt(w->canvasScene()->item("node-001")->sceneBoundingRect().center()) == "node-001");
        doc->undoStack()->undo();
        QCOMPARE(doc->scenario().topology.links.size(), links);
    }

    void propertiesOfCanvasItemsAreUndoableEdits()
    {
        auto w = makeWindow();
        w->openFirst();
        document::Document* doc = w->currentDocument();
        const QByteArray before = io::writeScenario(doc->scenario());
        ui::PropertiesPanel* props = w->properties();
        // Two nodes selected on the canvas: the NIC fields edit both, the name is not offered.
        w->canvasScene()->setSelectedIds({"node-001", "node-002"});
        QVERIFY(props->fieldLabels().contains("NICs"));
        QVERIFY(!props->fieldLabels().contains("Name"));
        QVERIFY(!props->canApply()); // nothing changed yet
        qobject_cast<QSpinBox*>(props->field("NICs"))->setValue(4);
        QVERIFY2(props->canApply(), qPrintable(props->message()));
        props->apply();
        QCOMPARE(doc->undoStack()->count(), 1);
        QCOMPARE(doc->undoStack()->undoText(), QString("Edit 2 nodes"));
        QCOMPARE(doc->scenario().topology.nodes[0].nics.count, 4);
        QCOMPARE(doc->scenario().topology.nodes[1].nics.count, 4);
        QCOMPARE(doc->scenario().topology.nodes[2].nics.count, 8); // not selected
        // The panel shows the edited values; undo restores the exact document.
        QCOMPARE(qobject_cast<QSpinBox*>(props->field("NICs"))->value(), 4);
        doc->undoStack()->undo();
        QCOMPARE(io::writeScenario(doc->scenario()), before);
        QCOMPARE(qobject_cast<QSpinBox*>(props->field("NICs"))->value(), 8);
        doc->undoStack()->redo();
        QCOMPARE(doc->scenario().topology.nodes[1].nics.count, 4);

        // A link is selectable; its bandwidth is editable.
        w->canvasScene()->setSelectedIds({"node-001-leaf-00"});
        QCOMPARE(w->canvasScene()->selectedIds(), QStringList{"node-001-leaf-00"});
        auto* bandwidth = qobject_cast<QDoubleSpinBox*>(props->field("Bandwidth"));
        QVERIFY(bandwidth);
        bandwidth->setValue(800);
        props->apply();
        QCOMPARE(doc->undoStack()->undoText(), QString("Edit link node-001-leaf-00"));
        for (const Link& l : doc->scenario().topology.links)
            if (l.id == "node-001-leaf-00")
                QCOMPARE(l.bandwidthGbps, 800.0);
        // Deleting a selected link removes just that link.
        const std::size_t links = doc->scenario().topology.links.size();
        w->deleteSelection();
        QCOMPARE(doc->scenario().topology.links.size(), links - 1);
        QCOMPARE(doc->scenario().topology.nodes.size(), std::size_t(8));

        // A switch: tier and name.
        w->canvasScene()->setSelectedIds({"leaf-00"});
        qobject_cast<QLineEdit*>(props->field("Name"))->setText("Leaf A");
        Q_EMIT qobject_cast<QLineEdit*>(props->field("Name"))->textEdited("Leaf A");
        props->apply();
        QCOMPARE(doc->scenario().topology.switches[2].name, std::string("Leaf A"));
    }

    void invalidPropertyShowsTheCoreErrorAndChangesNothing()
    {
        auto w = makeWindow();
        w->openFirst();
        document::Document* doc = w->currentDocument();
        ui::PropertiesPanel* props = w->properties();
        QTRY_COMPARE(w->workloads()->rowCount(), 5);
        // Selecting a job row in the workloads panel shows the job.
        w->workloads()->selectJob("acme-ft");
        props->showJob(doc->scenario(), "acme-ft");
        auto* global = qobject_cast<QSpinBox*>(props->field("Global batch"));
        QVERIFY(global);
        global->setValue(100); // not a multiple of micro 1 x dp 8
        QVERIFY(!props->canApply());
        QVERIFY2(props->message().contains("batch.global") && props->message().contains("not a multiple"),
                 qPrintable(props->message()));
        props->apply();
        QCOMPARE(doc->undoStack()->count(), 0);
        QVERIFY(!doc->isModified());
        global->setValue(256);
        QVERIFY(props->canApply());
        props->apply();
        QCOMPARE(doc->scenario().tenants[1].jobs[0].batch.global, 256);
        QVERIFY(doc->undoStack()->undoText().startsWith("Edit job "));

        // A tenant: a bad colour is refused with the core's message; a deadline is set.
        props->showTenant(doc->scenario(), "chatco");
        auto* colour = qobject_cast<QLineEdit*>(props->field("Colour"));
        colour->setText("green");
        Q_EMIT colour->textEdited("green");
        QVERIFY(!props->canApply());
        QVERIFY2(props->message().contains("#RRGGBB"), qPrintable(props->message()));
        colour->setText("#00aa00");
        Q_EMIT colour->textEdited("#00aa00");
        qobject_cast<QDoubleSpinBox*>(props->field("SLA: deadline"))->setValue(14);
        QVERIFY2(props->canApply(), qPrintable(props->message()));
        props->apply();
        QCOMPARE(doc->scenario().tenants[2].color, std::string("#00aa00"));
        QCOMPARE(doc->scenario().tenants[2].sla.deadlineDays, std::optional<double>(14.0));
    }

    void completionAndTimelineChartsFollowTheSimulation()
    {
        auto w = makeWindow();
        w->openFirst();
        ui::CompletionView* completion = w->charts()->completion();
        // The quick preview arrives by itself after the evaluation: training jobs, slowest first.
        QTRY_COMPARE(completion->jobIds().size(), 3);
        QCOMPARE(completion->jobIds().front(), QString("frontier-70b"));
        QCOMPARE(completion->trialsShown(), ui::EvaluationRunner::kQuickTrials);
        QChart* chart = completion->chart();
        QCOMPARE(chart->series().size(), 4); // histogram, P50, P95, the tenant's 30-day deadline
        QVERIFY(qobject_cast<QAreaSeries*>(chart->series().front()));
        QVERIFY(chart->series().at(3)->name().startsWith("Deadline 30"));
        auto* p95 = qobject_cast<QLineSeries*>(chart->series().at(2));
        QVERIFY(p95->name().startsWith("P95 "));
        QVERIFY2(p95->at(0).x() > 24 && p95->at(0).x() < 28, qPrintable(p95->name()));
        QVERIFY(chart->title().contains("256 trials"));
        QVERIFY(!chart->axes(Qt::Horizontal).isEmpty());
        QCOMPARE(chart->axes(Qt::Horizontal).front()->titleText(), QString("Completion (days)"));
        // Another job: its own distribution (the fine-tune takes well under a day).
        completion->selectJob("acme-ft");
        QVERIFY(qobject_cast<QLineSeries*>(chart->series().at(2))->at(0).x() < 1.0);
        // Without a deadline on the tenant, no deadline line.
        Scenario s = w->currentDocument()->scenario();
        s.tenants[0].sla.deadlineDays.reset();
        w->currentDocument()->undoStack()->push(new document::EditScenarioCmd(w->currentDocument(), s, "no deadline"));
        completion->selectJob("frontier-70b");
        QTRY_COMPARE(chart->series().size(), 3);
        // The full run replaces the preview with 10,000 trials.
        QTRY_VERIFY(!w->findChild<ui::EvaluationRunner*>()->busy());
        QSignalSpy full(w->findChild<ui::EvaluationRunner*>(), &ui::EvaluationRunner::simulated);
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
        w->openFirst();
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
        QCOMPARE(doc->undoStack()->undoText(), QString("Set mig sharing on node-005 GPU 2"));
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
        w->openFirst();
        QVERIFY(w->newScenario(false));
        document::Document* doc = w->currentDocument();
        QUndoStack* undo = doc->undoStack();
        const QByteArray blank = io::writeScenario(doc->scenario());
        for (int i = 0; i < 4; ++i)
            w->addFromTemplate("node:dgx-h100", QPointF(i * 260.0, 300.0));
        w->addFromTemplate("switch:qm9700", QPointF(390.0, 0.0));
        const Topology& t = doc->scenario().topology;
        QCOMPARE(t.nodes.size(), std::size_t(4));
        QCOMPARE(t.switches.size(), std::size_t(1));
        const std::string leaf = t.switches.front().id;
        std::vector<std::string> nodeIds;
        for (const Node& n : t.nodes)
            nodeIds.push_back(n.id);
        for (const std::string& n : nodeIds)
            w->addLink(QString::fromStdString(n), QString::fromStdString(leaf));
        QCOMPARE(doc->scenario().topology.links.size(), std::size_t(4));

        auto addJob = [&](const QString& tenant, const QString& preset, JobKind kind, int tp, int pp, int dp) {
            ui::AddJobDialog dialog(test::bundledCatalog(), doc->scenario());
            dialog.set(tenant, preset, kind, tp, pp, dp);
            QVERIFY2(dialog.valid(), qPrintable(dialog.message()));
            undo->push(new document::EditScenarioCmd(doc, dialog.result(), "Add job"));
        };
        addJob("Frontier Lab", "llama3-8b", JobKind::Pretraining, 4, 1, 2);
        addJob("Acme Retail", "llama3-8b", JobKind::Lora, 1, 1, 2);
        addJob("ChatCo", "llama3-8b", JobKind::Inference, 1, 1, 4);
        QCOMPARE(doc->scenario().tenants.size(), std::size_t(3));
        QTRY_COMPARE(w->workloads()->rowCount(), 3);
        QTRY_COMPARE(w->kpiCards()->valueOf("Unplaced jobs"), QString("0"));
        const QString costBefore = w->kpiCards()->valueOf("$/month");

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
        w->setSharingOfSelection(ts);
        QCOMPARE(doc->scenario().topology.nodes[2].sharing.mode, SharingMode::Mig);
        QCOMPARE(doc->scenario().topology.nodes[1].sharing.mode, SharingMode::TimeSlicing);
        // Every KPI card is filled from the new evaluation, the P95 from the simulation.
        QTRY_VERIFY(!w->findChild<ui::EvaluationRunner*>()->busy());
        for (const QString card : {"VRAM utilization", "Allocation", "Mean penalty", "Max penalty", "$/month",
                                    "$ wasted/month", "Unplaced jobs", "P95 completion"})
            QVERIFY2(!w->kpiCards()->valueOf(card).isEmpty() && w->kpiCards()->valueOf(card) != "–", qPrintable(card));
        QVERIFY(w->kpiCards()->valueOf("P95 completion").endsWith("days"));
        QCOMPARE(w->kpiCards()->valueOf("$/month"), costBefore); // the same GPUs are rented either way
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
        w->openFirst();
        ui::CanvasView* view = w->canvasView();
        ui::CanvasScene* scene = w->canvasScene();
        document::Document* doc = w->currentDocument();
        view->resetTransform(); // 1:1, so items are large enough to hit
        view->centerOn(scene->item("node-001"));
        auto at = [&](const QString& id) { return view->mapFromScene(scene->item(id)->sceneBoundingRect().center()); };
        // Connect tool: Shift-drag from a node to another node asks for a link.
        QSignalSpy links(view, &ui::CanvasView::linkRequested);
        QTest::mousePress(view->viewport(), Qt::LeftButton, Qt::ShiftModifier, at("node-001"));
        QTest::mouseMove(view->viewport(), at("node-002"));
        QTest::mouseRelease(view->viewport(), Qt::LeftButton, Qt::ShiftModifier, at("node-002"));
        QCOMPARE(links.size(), 1);
        QCOMPARE(links.front().at(0).toString(), QString("node-001"));
        QCOMPARE(links.front().at(1).toString(), QString("node-002"));
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
        w->openFirst();
        ui::CanvasView* view = w->canvasView();
        ui::CanvasScene* scene = w->canvasScene();
        auto layer = [&]() -> QGraphicsItem* {
            for (QGraphicsItem* item : scene->items())
                if (dynamic_cast<ui::LinkLayerItem*>(item))
                    return item;
            return nullptr;
        };
        QVERIFY(layer());
        view->resetTransform();
        view->zoomBy(1.0);
        QVERIFY(!layer()->isVisible());
        const auto links = [&] {
            int visible = 0;
            for (QGraphicsItem* item : scene->items())
                if (dynamic_cast<ui::LinkItem*>(item) && item->isVisible())
                    ++visible;
            return visible;
        };
        QCOMPARE(links(), static_cast<int>(w->currentDocument()->scenario().topology.links.size()));
        view->zoomBy(0.1); // below the detail scale: one layer, no single links
        QVERIFY(layer()->isVisible());
        QCOMPARE(links(), 0);
        view->zoomBy(10.0);
        QVERIFY(!layer()->isVisible());
        QCOMPARE(links(), static_cast<int>(w->currentDocument()->scenario().topology.links.size()));
    }

    void canvasFlagsUnplacedJobsAndMemoryRisks()
    {
        auto w = makeWindow();
        w->openFirst();
        QTRY_COMPARE(w->workloads()->rowCount(), 5);
        QVERIFY(w->canvasView()->warnings().isEmpty()); // everything placed, no risk
        Scenario s = w->currentDocument()->scenario();
        s.tenants[0].jobs[0].parallelism.dp = 16; // 256 GPUs on a 64-GPU cluster
        s.tenants[0].jobs[0].batch.global = 1024;
        w->currentDocument()->undoStack()->push(new document::EditScenarioCmd(w->currentDocument(), s, "Grow"));
        QTRY_VERIFY(!w->canvasView()->warnings().isEmpty());
        QVERIFY2(w->canvasView()->warnings().front().contains("Llama 3 70B pre-training is not placed"),
                 qPrintable(w->canvasView()->warnings().front()));
        w->currentDocument()->undoStack()->undo();
        QTRY_VERIFY(w->canvasView()->warnings().isEmpty());
    }

    void libraryCompareDuplicateRenameTagDelete()
    {
        auto w = makeWindow("library-actions.sqlite");
        w->openFirst();
        store::ScenarioLibrary& lib = *w->library();
        const auto all = *lib.list();
        const qint64 pod = *w->currentDocument()->libraryId();
        qint64 mixed = 0;
        for (const auto& row : all)
            if (row.name == "Mixed sharing lab")
                mixed = row.id;
        // Compare two: KPI rows with deltas and verdict colours, overlaid charts, the plans' diff.
        ui::CompareDialog* dialog = w->compareScenarios({pod, mixed});
        QVERIFY(dialog);
        QCOMPARE(dialog->kpiTable()->columnCount(), 2);
        QCOMPARE(dialog->kpiTable()->rowCount(), static_cast<int>(calc::comparedKpis().size()));
        const calc::KpiComparison& cost = dialog->rows()[8];
        QCOMPARE(cost.spec.key, std::string("cost_per_month_usd"));
        QCOMPARE(cost.verdicts[1], cost.deltas[1] < 0 ? calc::Verdict::Better : calc::Verdict::Worse);
        QVERIFY(dialog->kpiTable()->item(8, 1)->text().contains(cost.deltas[1] < 0 ? "better" : "worse"));
        QCOMPARE(dialog->tradeOffChart()->series().size(), 2);
        QCOMPARE(qobject_cast<QAbstractBarSeries*>(dialog->costChart()->series().front())->barSets().size(), 4);
        QVERIFY(dialog->completionChart()->series().size() >= 1);
        QVERIFY(dialog->differences()->count() > 5);
        QVERIFY(dialog->differences()->item(0)->text().startsWith("A → B"));
        QVERIFY(!w->compareScenarios({pod})); // one is not a comparison
        if (qEnvironmentVariableIsSet("GPUPLAN_SCREENSHOT_DIR")) {
            QTest::qWait(100);
            dialog->grab().save(QDir(qEnvironmentVariable("GPUPLAN_SCREENSHOT_DIR")).filePath("compare.png"));
            dialog->findChild<QTabWidget*>()->setCurrentIndex(1);
            QTest::qWait(100);
            dialog->grab().save(QDir(qEnvironmentVariable("GPUPLAN_SCREENSHOT_DIR")).filePath("compare-charts.png"));
        }
        dialog->close();

        // Duplicate as a variant, rename, tag, find by tag, delete.
        const std::optional<qint64> copy = w->duplicateScenario(pod);
        QVERIFY(copy);
        QCOMPARE(lib.scenario(*copy)->name, QString("DGX H100 pod: three tenants (variant)"));
        QCOMPARE(w->findChild<ui::LibraryPanel*>()->rowCount(), static_cast<int>(all.size()) + 1);
        QVERIFY(w->renameScenario(*copy, "Static MIG partitioning"));
        QCOMPARE(lib.scenario(*copy)->name, QString("Static MIG partitioning"));
        QVERIFY(w->setScenarioTags(*copy, {"mig", "q3-review"}));
        QCOMPARE(lib.scenario(*copy)->tags, (QStringList{"mig", "q3-review"}));
        QVERIFY(w->deleteScenario(*copy, false));
        QVERIFY(!lib.scenario(*copy));
        QCOMPARE(w->findChild<ui::LibraryPanel*>()->rowCount(), static_cast<int>(all.size()));
        // Deleting the open scenario keeps the document, now unsaved.
        QVERIFY(w->deleteScenario(pod, false));
        QVERIFY(!w->currentDocument()->libraryId());
        QVERIFY(w->currentDocument()->isModified());
    }

    void revisionsRoundTripAndOpenReadOnly()
    {
        auto w = makeWindow("revisions.sqlite");
        w->openFirst();
        document::Document* doc = w->currentDocument();
        const qint64 id = *doc->libraryId();
        const QByteArray first = io::writeScenario(doc->scenario());
        w->canvasScene()->setSelectedIds({"node-001"});
        SharingConfig ts;
        ts.mode = SharingMode::TimeSlicing;
        ts.replicas = 4;
        w->setSharingOfSelection(ts);
        QVERIFY(w->saveRevision("node-001 time-sliced"));
        const QByteArray second = io::writeScenario(w->currentDocument()->scenario());
        QVERIFY(second != first);
        // Each revision reads back exactly as it was saved.
        QCOMPARE(io::writeScenario(*document::loadFromLibrary(*w->library(), id, test::bundledCatalog(), 1).scenario), first);
        QCOMPARE(io::writeScenario(*document::loadFromLibrary(*w->library(), id, test::bundledCatalog(), 2).scenario), second);
        QCOMPARE(w->library()->revisions(id)->back().note, QString("node-001 time-sliced"));

        // Two revisions side by side: the diff names the sharing change.
        ui::CompareDialog* revs = w->compareRevisions(id, {1, 2});
        QVERIFY(revs);
        QVERIFY(revs->kpiTable()->horizontalHeaderItem(1)->text().endsWith("(revision 2)"));
        bool sawChange = false;
        for (int i = 0; i < revs->differences()->count(); ++i)
            sawChange = sawChange || revs->differences()->item(i)->text().contains("node node-001 sharing: bare metal -> time-slicing x4");
        QVERIFY(sawChange);
        revs->close();

        // Revision 1 opens read-only: edits are refused, the title says so.
        QVERIFY(w->openRevision(id, 1));
        doc = w->currentDocument();
        QVERIFY(doc->isReadOnly());
        QCOMPARE(io::writeScenario(doc->scenario()), first);
        QVERIFY(w->windowTitle().contains("revision 1 of 2 (read-only)"));
        w->addFromTemplate("node:dgx-h100", QPointF(0, 2000));
        w->setSharingOfSelection(ts);
        QCOMPARE(doc->undoStack()->count(), 0);
        QCOMPARE(io::writeScenario(doc->scenario()), first);
        // Saving makes it a new scenario, editable from then on; the original keeps its two revisions.
        QVERIFY(w->saveRevision("from the past"));
        QVERIFY(!doc->isReadOnly());
        QVERIFY(*doc->libraryId() != id);
        QCOMPARE(w->library()->revisions(id)->size(), std::size_t(2));
        w->addFromTemplate("node:dgx-h100", QPointF(0, 2000));
        QCOMPARE(doc->scenario().topology.nodes.size(), std::size_t(9));
    }

    void kpiCardsReflowToTheWidth()
    {
        ui::KpiCards cards;
        cards.resize(1400, 120);
        cards.show();
        QTRY_COMPARE(cards.columns(), 9); // one row when wide
        cards.resize(500, 200);
        QTRY_COMPARE(cards.columns(), 3); // three rows of three on a small screen
        QVERIFY(cards.minimumSizeHint().width() < 500);
    }

    void newScenarioAndSaveVariants()
    {
        auto w = makeWindow();
        w->openFirst();
        const qint64 firstId = *w->currentDocument()->libraryId();
        QVERIFY(w->newScenario(false));
        document::Document* doc = w->currentDocument();
        QVERIFY(doc->scenario().topology.nodes.empty());
        QVERIFY(!doc->libraryId());
        w->addFromTemplate("node:dgx-h100", QPointF(0, 0));
        QCOMPARE(doc->scenario().topology.nodes.size(), std::size_t(1));
        QVERIFY(w->saveAsNewScenario("Blank start"));
        const qint64 id = *doc->libraryId();
        QVERIFY(id != firstId);
        QCOMPARE(doc->scenario().name, std::string("Blank start"));
        QVERIFY(!doc->isModified());
        w->addFromTemplate("node:dgx-h100", QPointF(400, 0));
        QVERIFY(w->saveRevision("second node"));
        QCOMPARE(*doc->revision(), 2);
        store::ScenarioLibrary& lib = *w->library();
        const auto revs = lib.revisions(id);
        QCOMPARE(revs->size(), std::size_t(2));
        QCOMPARE(revs->back().note, QString("second node"));
        // The plan as GPU Operator configuration, from the File menu's action.
        QTemporaryDir out;
        QCOMPARE(w->exportClusterConfig(out.filePath("cfg")), QString());
        QVERIFY(QFile::exists(out.filePath("cfg/node-labels.yaml")));
    }

    void tradeOffMatrixShowsEverySharingMode()
    {
        auto w = makeWindow();
        w->openFirst();
        QTableWidget* m = w->charts()->tradeOffMatrix();
        QTRY_COMPARE(m->columnCount(), 6);
        QCOMPARE(m->horizontalHeaderItem(0)->text(), QString("Bare metal"));
        QCOMPARE(m->horizontalHeaderItem(2)->text(), QString("MIG"));
        QCOMPARE(m->verticalHeaderItem(1)->text(), QString("Mean penalty"));
        QCOMPARE(m->item(1, 0)->text(), QString("0.0 %"));      // bare metal has no penalty
        QCOMPARE(m->item(7, 4)->text(), QString("none"));       // time-slicing: no memory isolation
        QCOMPARE(m->item(7, 2)->text(), QString("enforced"));   // MIG: hardware memory isolation
        QVERIFY(m->item(0, 2)->text().contains("g."));          // a MIG profile was chosen
        // Predictability per mode: the frontier pre-training decides (about 25 days on bare metal,
        // 25.8 P95 as the sample is); every mode that places it has a P95 in days.
        QCOMPARE(m->verticalHeaderItem(13)->text(), QString("P95 completion"));
        QCOMPARE(m->verticalHeaderItem(14)->text(), QString("Memory overhead"));
        QCOMPARE(m->item(14, 0)->text(), QString("0.0 %")); // bare metal offers all usable VRAM
        const double bareP95 = m->item(13, 0)->text().split(' ').front().toDouble();
        QVERIFY2(bareP95 > 24 && bareP95 < 28, qPrintable(m->item(13, 0)->text()));
        for (int c = 0; c < m->columnCount(); ++c)
            QVERIFY2(m->item(13, c)->text().endsWith(" days") || m->item(13, c)->text() == "no training job placed",
                     qPrintable(m->item(13, c)->text()));
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
        w->openFirst();
        QTRY_COMPARE(w->charts()->costChart()->series().size(), 1);
        auto* cost = qobject_cast<QAbstractBarSeries*>(w->charts()->costChart()->series().front());
        QCOMPARE(cost->barSets().size(), 4); // useful, idle, stranded, overhead
        double sum = 0;
        for (QBarSet* set : cost->barSets())
            sum += set->at(0);
        QVERIFY(qAbs(sum - 139693.0 / 1000.0) < 1.0); // the cluster's $/month, in thousands
        QCOMPARE(w->charts()->tradeOffChart()->series().size(), 3); // one per tenant
        int points = 0;
        for (QAbstractSeries* series : w->charts()->tradeOffChart()->series())
            points += static_cast<int>(qobject_cast<QScatterSeries*>(series)->count());
        QCOMPARE(points, 5); // every placed job
        QCOMPARE(w->charts()->linksChart()->series().size(), 1);
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

    void copyPasteAndDuplicateKeepLinksAmongTheCopies()
    {
        auto w = makeWindow();
        w->openFirst();
        document::Document* doc = w->currentDocument();
        const std::size_t nodes = doc->scenario().topology.nodes.size();
        const std::size_t links = doc->scenario().topology.links.size();
        for (const char* id : {"node-001", "leaf-00"})
            w->canvasScene()->item(id)->setSelected(true);
        w->copySelection();
        QVERIFY(w->paste());
        QCOMPARE(doc->scenario().topology.nodes.size(), nodes + 1);
        QCOMPARE(doc->scenario().topology.links.size(), links + 1); // node-001 -- leaf-00 came along
        const Link& copied = doc->scenario().topology.links.back();
        QVERIFY(copied.from != "node-001" && copied.to != "leaf-00");
        QCOMPARE(doc->undoStack()->undoText(), QString("Paste 2 item(s)"));
        QVERIFY(!hasErrors(validateScenario(doc->scenario(), test::bundledCatalog())));
        const QStringList pasted = w->canvasScene()->selectedIds(); // the copies, not the originals
        QCOMPARE(pasted.size(), 2);
        QVERIFY(!pasted.contains("node-001") && !pasted.contains("leaf-00"));
        w->duplicateSelection();
        QCOMPARE(doc->scenario().topology.nodes.size(), nodes + 2);
        doc->undoStack()->undo();
        doc->undoStack()->undo();
        QCOMPARE(doc->scenario().topology.nodes.size(), nodes);
    }

    void recentScenariosAreRemembered()
    {
        QSettings().remove("recent/scenarios");
        auto w = makeWindow();
        w->openFirst();
        const qint64 first = *w->currentDocument()->libraryId();
        auto all = document::openLibrary(mTmp.filePath("lib.sqlite"), test::bundledCatalog(), {}, nullptr)->list();
        QVERIFY(w->openFromLibrary(all->back().id));
        QCOMPARE(w->recentScenarios(), (QList<qint64>{all->back().id, first}));
    }

    void newerRequestSupersedesOlder()
    {
        ui::EvaluationRunner runner(test::bundledCatalog());
        QSignalSpy spy(&runner, &ui::EvaluationRunner::evaluated);
        QSignalSpy alternatives(&runner, &ui::EvaluationRunner::alternativesReady);
        Scenario small = *io::readScenarioFile(test::sampleFiles().front(), test::bundledCatalog()).scenario;
        Scenario other = small;
        other.tenants.clear();
        runner.request(small, 0);
        runner.request(other, 0); // before the first could even start
        QTRY_COMPARE(spy.count(), 1);
        QTest::qWait(200);
        QCOMPARE(spy.count(), 1);
        const auto ev = spy.front().front().value<std::shared_ptr<const calc::Evaluation>>();
        QVERIFY(ev->jobs.empty()); // the newer scenario, without tenants
        QTRY_COMPARE(alternatives.count(), 1); // the matrix follows, for the newer scenario only
        const auto alts = alternatives.front().front().value<std::vector<calc::SharingAlternative>>();
        QCOMPARE(alts.size(), std::size_t(6));
        QCOMPARE(alts.front().kpis.allocationRatio, 0.0); // nothing to place
        QVERIFY(!runner.busy());
    }

    void describeSharingCoversEveryMode()
    {
        QCOMPARE(ui::describeSharing({}), QString("bare metal (exclusive)"));
        SharingConfig p;
        p.mode = SharingMode::Passthrough;
        QCOMPARE(ui::describeSharing(p), QString("passthrough VM"));
    }
};

QTEST_MAIN(TestMainWindow)
#include "tst_mainwindow.moc"
