// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
// The edit flow through the workbench's own widgets: the palette (drops, custom models and job
// templates), Delete and the fabric generator as undoable commands, the inspector's MIG layouts,
// Add Job and Edit Job checked with the core rules, a job dropped on a MIG instance, a link's
// port bandwidth, and copy, paste and duplicate.
#include "document/commands.h"
#include "document/document.h"
#include "io/scenarioreader.h"
#include "model/validation.h"
#include "testsupport.h"
#include "ui/canvas/canvasscene.h"
#include "ui/canvas/canvasview.h"
#include "ui/canvas/nodeitem.h"
#include "ui/edit/addjobdialog.h"
#include "ui/edit/inspector.h"
#include "ui/edit/propertiespanel.h"
#include "ui/edit/workloadspanel.h"
#include "ui/mainwindow.h"
#include "ui/palette.h"
#include "ui/results/kpicards.h"
#include "windowfixture.h"

#include <QApplication>
#include <QCheckBox>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QDoubleSpinBox>
#include <QGraphicsItem>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QPushButton>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QTreeWidget>

using namespace gp;

class TestEditFlows : public QObject
{
    Q_OBJECT

    QTemporaryDir mTmp;

    /// A window on a library seeded with the samples.
    std::unique_ptr<ui::MainWindow> makeWindow(const QString& file = "lib.sqlite")
    {
        return test::makeWindow(mTmp.filePath(file));
    }

private Q_SLOTS:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

    void paletteDropDeleteAndFabricAreCommands()
    {
        auto w = makeWindow();
        w->show();
        w->files()->openFirst();
        document::Document* doc = w->currentDocument();
        const std::size_t nodes = doc->scenario().topology.nodes.size();
        w->canvasView()->editor()->addFromTemplate("node:pcie-l40s-8", QPointF(1213, 41));
        QCOMPARE(doc->scenario().topology.nodes.size(), nodes + 1);
        const Node added = doc->scenario().topology.nodes.back(); // a copy: deleting swaps the scenario
        QCOMPARE(added.gpuId, std::string("l40s-48gb"));
        QCOMPARE(added.position.x, 1080.0); // centred on the point (1213 - 260 / 2), on the grid
        QGraphicsItem* item = w->canvasScene()->item(QString::fromStdString(added.id));
        QVERIFY(item);
        item->setSelected(true);
        QApplication::setActiveWindow(w.get());
        w->canvasView()->setFocus(); // Del deletes the selection of the focused panel
        w->edits()->deleteSelection();
        QCOMPARE(doc->scenario().topology.nodes.size(), nodes);
        QVERIFY(!w->canvasScene()->item(QString::fromStdString(added.id)));
        doc->undoStack()->undo();
        QCOMPARE(doc->scenario().topology.nodes.size(), nodes + 1);
        QVERIFY(w->canvasScene()->item(QString::fromStdString(added.id)));

        // The fabric generator builds large clusters in one step; the canvas draws them (a
        // smaller one under the sanitizers, where the 1,024 nodes alone take twenty seconds).
        document::FabricSpec spec;
        spec.nodeTemplate = "dgx-h100";
        spec.switchTemplate = "qm9700";
        spec.nodes = test::kSanitized ? 256 : 1024;
        spec.nodesPerLeaf = 4;
        spec.spines = 16;
        QVERIFY(w->edits()->addFabric(spec));
        QCOMPARE(doc->scenario().topology.nodes.size(), nodes + 1 + spec.nodes);
        QCOMPARE(doc->undoStack()->undoText(), QString("Generate a fabric of %1 nodes").arg(spec.nodes));
        QTRY_VERIFY(w->kpiCards()->valueOf("allocation_ratio") != QString("–"));
        const QPixmap frame = w->canvasView()->grab(); // renders zoomed out, nodes collapsed
        QVERIFY(!frame.isNull());
        doc->undoStack()->undo();
        QCOMPARE(doc->scenario().topology.nodes.size(), nodes + 1);
    }

    void inspectorOffersOnlyValidMigLayouts()
    {
        auto w = makeWindow();
        w->files()->openFirst();
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
        const Scenario s = *io::readScenarioFile(test::sampleFiles().front(), test::bundledCatalog()).value;
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
        w->files()->openFirst();
        document::Document* doc = w->currentDocument();
        QVERIFY(doc->push(dialog.edit()).empty());
        QCOMPARE(doc->scenario().tenants.size(), s.tenants.size() + 1);
        QTRY_COMPARE(w->workloads()->rowCount(), 6);
        doc->undoStack()->undo();
        QTRY_COMPARE(w->workloads()->rowCount(), 5);
    }

    /// Issue 36: Add Job's defaults (10 req/s, 16 requests in flight) saturate a service; the
    /// dialog says so with the cap, as it warns about memory, and offers Add Anyway; at a rate the
    /// service keeps up with, it says what it serves.
    void addJobWarnsWhenAServiceIsSaturated()
    {
        const Scenario s = *io::readScenarioFile(test::sampleFiles().front(), test::bundledCatalog()).value;
        ui::AddJobDialog dialog(test::bundledCatalog(), s);
        dialog.show();
        dialog.set("Startup X", "llama3-8b", JobKind::Inference, 1, 1, 1);
        QVERIFY2(dialog.message().contains("Saturated at this load"), qPrintable(dialog.message()));
        QVERIFY2(dialog.message().contains("the concurrency cap is 16"), qPrintable(dialog.message()));
        QPushButton* ok = dialog.findChild<QDialogButtonBox*>()->button(QDialogButtonBox::Ok);
        QCOMPARE(ok->text(), QString("Add Anyway"));
        QVERIFY(ok->isEnabled());
        auto* amount = dialog.findChild<QDoubleSpinBox*>("addJobAmount");
        amount->setFocus();
        QTest::keyClick(amount, Qt::Key_A, Qt::ControlModifier);
        QTest::keyClicks(amount, "0.5");
        QVERIFY2(dialog.message().contains("Serves 0.50 req/s"), qPrintable(dialog.message() + " / " + amount->text()));
        QVERIFY(!dialog.message().contains("Saturated"));
        QCOMPARE(ok->text(), QString("OK"));
    }

    /// Issue 36: where no tenant sets a serving objective the Serving SLO card reads "n/a (no
    /// objective)", never 100 %; a saturated service reads 0 %.
    /// Issue 36: Add Job offers a serving job's tenant latency objectives by use case (MLPerf's
    /// server limits), Chat for a tenant without any, the tenant's own where it has them, or none;
    /// the job and its tenant's objectives are one undo step.
    void addJobOffersObjectivesByUseCase()
    {
        const Scenario s = *io::readScenarioFile(test::sampleFiles().front(), test::bundledCatalog()).value;
        ui::AddJobDialog dialog(test::bundledCatalog(), s);
        dialog.show();
        auto* objectives = dialog.findChild<QComboBox*>("addJobObjectives");
        QVERIFY(objectives);
        dialog.set("Frontier Lab (pre-training)", "llama3-8b", JobKind::Pretraining, 1, 1, 1);
        QVERIFY(!objectives->isVisible()); // training: no latency objectives
        dialog.set("Startup X", "llama3-8b", JobKind::Inference, 1, 1, 1);
        QVERIFY(objectives->isVisible());
        QVERIFY2(objectives->currentText().startsWith("Chat") && objectives->currentText().contains("2.00 s"),
                 qPrintable(objectives->currentText()));
        Scenario added = dialog.result();
        QCOMPARE(added.tenants.back().sla.ttftP99Ms, std::optional<double>(2000.0));
        QCOMPARE(added.tenants.back().sla.itlP99Ms, std::optional<double>(200.0));
        // None, chosen with the keyboard: no objective (its SLO then reads n/a).
        objectives->setFocus();
        QTest::keyClick(objectives, Qt::Key_End);
        QVERIFY(objectives->currentText().startsWith("None"));
        added = dialog.result();
        QVERIFY(!added.tenants.back().sla.ttftP99Ms && !added.tenants.back().sla.itlP99Ms);
        // A tenant with objectives keeps them by default; Interactive replaces them, in one step.
        const Tenant& chat = *std::find_if(s.tenants.begin(), s.tenants.end(),
                                           [](const Tenant& t) { return t.sla.ttftP99Ms.has_value(); });
        ui::AddJobDialog second(test::bundledCatalog(), s);
        second.show();
        second.set(QString::fromStdString(chat.name), "llama3-8b", JobKind::Inference, 1, 1, 1);
        auto* theirs = second.findChild<QComboBox*>("addJobObjectives");
        QVERIFY2(theirs->currentText().startsWith("Keep the tenant's"), qPrintable(theirs->currentText()));
        QCOMPARE(second.result().findTenant(chat.id)->sla.ttftP99Ms, chat.sla.ttftP99Ms);
        theirs->setCurrentIndex(theirs->findData("interactive"));
        document::Document doc(s);
        doc.push(second.edit());
        QCOMPARE(doc.scenario().findTenant(chat.id)->sla.itlP99Ms, std::optional<double>(40.0));
        QCOMPARE(doc.undoStack()->count(), 1);
        doc.undoStack()->undo();
        QVERIFY(doc.scenario() == s);
    }

    void servingSloCardSaysWhenThereIsNoObjective()
    {
        auto w = makeWindow();
        w->files()->openFirst();
        document::Document* doc = w->currentDocument();
        Scenario s = doc->scenario();
        for (Tenant& t : s.tenants) {
            t.sla.ttftP99Ms.reset();
            t.sla.itlP99Ms.reset();
        }
        doc->push(*document::changeScenario(doc->scenario(), test::bundledCatalog(), s, "objectives"));
        QTRY_COMPARE(w->kpiCards()->valueOf("serving_slo_attainment"), QString("n/a (no objective)"));
        for (Tenant& t : s.tenants)
            for (Job& j : t.jobs)
                if (j.inference)
                    j.inference->requestsPerS = 1000.0;
        doc->push(*document::changeScenario(doc->scenario(), test::bundledCatalog(), s, "load"));
        QTRY_COMPARE(w->kpiCards()->valueOf("serving_slo_attainment"), QString("0.0 %"));
    }

    /// Issue 36: the Inspector showed two subjects at once — a job's properties over the GPU
    /// sharing of nodes picked before; the sharing box now goes while a job or tenant is shown,
    /// and comes back with a node.
    void theInspectorShowsOneSubjectAtATime()
    {
        auto w = test::openSampleAtOneToOne(mTmp.filePath("one.sqlite"), "node-004");
        auto* sharingBox = w->findChild<QWidget*>("gpuSharingBox");
        QVERIFY(sharingBox && sharingBox->isVisible());
        const auto node = [&] {
            return w->canvasView()->mapFromScene(w->canvasScene()->item("node-004")->mapToScene(QPointF(130, 20)));
        };
        QTest::mouseClick(w->canvasView()->viewport(), Qt::LeftButton, {}, node());
        QCOMPARE(w->canvasScene()->selectedIds(), QStringList{"node-004"});
        QVERIFY(sharingBox->isVisible());
        QTRY_VERIFY(w->workloads()->rowCount() > 0);
        QTableWidget* table = w->workloads()->table();
        QTest::mouseClick(table->viewport(), Qt::LeftButton, {}, table->visualItemRect(table->item(0, 1)).center());
        QVERIFY(!w->workloads()->selectedJobId().isEmpty());
        QVERIFY2(!sharingBox->isVisible(), "a job shown: no GPU sharing beside it");
        QTest::mouseClick(w->canvasView()->viewport(), Qt::LeftButton, {}, node());
        QVERIFY(sharingBox->isVisible());
    }

    void customModelsAndJobTemplatesFromThePalette()
    {
        const Scenario s = *io::readScenarioFile(test::sampleFiles().front(), test::bundledCatalog()).value;
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
        QVERIFY2(dialog.message().contains("Hidden size: ") &&
                     dialog.message().contains("not divisible by attention heads"),
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
        for (const QString& key : palette->keys())
            jobs += key.startsWith("job:") ? 1 : 0;
        QCOMPARE(jobs, static_cast<int>(test::bundledCatalog().models.size()) + 1);
    }

    void editJobChangesItInPlace()
    {
        const Scenario s = *io::readScenarioFile(test::sampleFiles().front(), test::bundledCatalog()).value;
        const Tenant& tenant = s.tenants.front();
        const Job& original = tenant.jobs.front();
        ui::AddJobDialog dialog(test::bundledCatalog(), s);
        dialog.editJob(original.id);
        QVERIFY2(dialog.valid(), qPrintable(dialog.message())); // the job as it is
        QCOMPARE(dialog.result(), s);                           // untouched fields: nothing changes
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
        QCOMPARE(j.parallelism.zeroStage, original.parallelism.zeroStage); // what the dialog does not ask stays
    }

    void droppingAJobOnAMigInstancePinsIt()
    {
        auto w = makeWindow();
        w->show();
        w->files()->openFirst();
        QTRY_COMPARE(w->workloads()->rowCount(), 5);
        QGraphicsItem* node = w->canvasScene()->item("node-007"); // MIG: 3g.40gb@0 + 3g.40gb@4 on GPU 1
        const QRectF cell = ui::NodeItem::gpuCell(1);
        const QPointF secondInstance = node->mapToScene(QPointF(cell.left() + cell.width() * 0.75, cell.center().y()));
        QVERIFY(w->canvasView()->editor()->pinJobAt("acme-lora", secondInstance));
        const Job& job = w->currentDocument()->scenario().tenants[1].jobs[1];
        QVERIFY(job.pin.has_value());
        QCOMPARE(job.pin->node, std::string("node-007"));
        QCOMPARE(*job.pin->gpu, 1);
        QCOMPARE(*job.pin->migInstance, 1);
        QCOMPARE(w->currentDocument()->undoStack()->undoText(), QString("Pin acme-lora to node-007 GPU 1 instance 1"));
        // The evaluation then places it there, or says why it cannot.
        QTRY_VERIFY(!w->workloads()->cell("acme-lora", "Placed").isEmpty());
        // Dropped on empty canvas: nothing happens.
        QVERIFY(!w->canvasView()->editor()->pinJobAt("acme-lora", QPointF(-5000, -5000)));
        QCOMPARE(w->currentDocument()->undoStack()->count(), 1);
    }

    void linkingANodeAndASwitchTakesThePortsBandwidth()
    {
        auto w = makeWindow();
        w->files()->openFirst();
        document::Document* doc = w->currentDocument();
        const std::size_t links = doc->scenario().topology.links.size();
        w->canvasView()->editor()->addLink("node-001", "spine-00");
        QCOMPARE(doc->scenario().topology.links.size(), links + 1);
        const Link& l = doc->scenario().topology.links.back();
        QCOMPARE(l.bandwidthGbps, 8 * 400.0); // 8 NICs of 400 Gb/s, one NDR port each
        QCOMPARE(l.latencyUs, 0.13);          // the QM9700 template's latency
        QCOMPARE(l.id, std::string("node-001-spine-00"));
        QVERIFY(w->canvasScene()->idAt(w->canvasScene()->item("node-001")->sceneBoundingRect().center()) == "node-001");
        doc->undoStack()->undo();
        QCOMPARE(doc->scenario().topology.links.size(), links);
    }

    void copyPasteAndDuplicateKeepLinksAmongTheCopies()
    {
        auto w = makeWindow();
        w->files()->openFirst();
        document::Document* doc = w->currentDocument();
        const std::size_t nodes = doc->scenario().topology.nodes.size();
        const std::size_t links = doc->scenario().topology.links.size();
        for (const char* id : {"node-001", "leaf-00"})
            w->canvasScene()->item(id)->setSelected(true);
        w->edits()->copySelection();
        QVERIFY(w->edits()->paste());
        QCOMPARE(doc->scenario().topology.nodes.size(), nodes + 1);
        QCOMPARE(doc->scenario().topology.links.size(), links + 1); // node-001 -- leaf-00 came along
        const Link& copied = doc->scenario().topology.links.back();
        QVERIFY(copied.from != "node-001" && copied.to != "leaf-00");
        QCOMPARE(doc->undoStack()->undoText(), QString("Paste 2 item(s)"));
        QVERIFY(!hasErrors(validateScenario(doc->scenario(), test::bundledCatalog())));
        const QStringList pasted = w->canvasScene()->selectedIds(); // the copies, not the originals
        QCOMPARE(pasted.size(), 2);
        QVERIFY(!pasted.contains("node-001") && !pasted.contains("leaf-00"));
        w->edits()->duplicateSelection();
        QCOMPARE(doc->scenario().topology.nodes.size(), nodes + 2);
        doc->undoStack()->undo();
        doc->undoStack()->undo();
        QCOMPARE(doc->scenario().topology.nodes.size(), nodes);
    }
};

QTEST_MAIN(TestEditFlows)
#include "tst_editflows.moc"
