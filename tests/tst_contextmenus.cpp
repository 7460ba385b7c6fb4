// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
// The right-click menus and the GPU explanation (issue 17), driven with the mouse.
#include "guidriver.h"
#include "windowfixture.h"

#include "document/document.h"
#include "document/plansession.h"
#include "ui/canvas/nodeitem.h"
#include "ui/edit/workloadspanel.h"

#include <QContextMenuEvent>
#include <QDialog>
#include <QDir>
#include <QLabel>
#include <QMenu>
#include <QMessageBox>
#include <QPushButton>
#include <QStandardPaths>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>
#include <QUndoStack>

using namespace gp;
using test::clickMenuItem;
using test::rightClick;

namespace {

/// The texts of the open popup menu's actions; closes it.
QStringList menuTexts()
{
    QStringList out;
    if (!QTest::qWaitFor([] { return qobject_cast<QMenu*>(QApplication::activePopupWidget()) != nullptr; }, 2000))
        return out;
    auto* menu = qobject_cast<QMenu*>(QApplication::activePopupWidget());
    for (const QAction* a : menu->actions())
        if (!a->isSeparator())
            out << a->text().remove('&');
    menu->close();
    return out;
}

} // namespace

class TestContextMenus : public QObject
{
    Q_OBJECT

    QTemporaryDir mTmp;

    std::unique_ptr<ui::MainWindow> openSample()
    {
        auto w = test::openSampleAtOneToOne(mTmp.filePath("lib.sqlite"), "node-001");
        if (!QTest::qWaitFor([&] { return w->session()->latest() && !w->session()->busy(); }, 10000))
            qFatal("no evaluation");
        return w;
    }

    /// Where GPU `gpu` of node `id` is on the canvas's viewport.
    static QPoint gpuAt(ui::MainWindow* w, const QString& id, int gpu)
    {
        const QGraphicsItem* node = w->canvasScene()->item(id);
        return w->canvasView()->mapFromScene(node->mapToScene(ui::NodeItem::gpuCell(gpu).center()));
    }

    static QPoint rowAt(QTableWidget* table, int row, int column)
    {
        return table->visualItemRect(table->item(row, column)).center();
    }

    /// Right-clicks the Workloads row, chooses Best Parallelism… and waits for its first results;
    /// nullptr when the dialog or its results do not come.
    static QDialog* openBestParallelism(ui::MainWindow* w, int row)
    {
        QTableWidget* table = w->workloads()->table();
        rightClick(table->viewport(), rowAt(table, row, 1));
        if (!clickMenuItem("Best Parallelism…"))
            return nullptr;
        QDialog* dialog = nullptr;
        const bool shown = QTest::qWaitFor(
            [&] {
                dialog = w->findChild<QDialog*>("parallelismDialog");
                return dialog && dialog->isVisible() &&
                       dialog->findChild<QTableWidget*>("ParallelismTable")->rowCount() > 0;
            },
            5000);
        return shown ? dialog : nullptr;
    }

private Q_SLOTS:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

    /// A GPU explains itself: double-click it, or right-click it and choose Explain GPU.
    void aGpuExplainsItself()
    {
        auto w = openSample();
        QWidget* viewport = w->canvasView()->viewport();
        QTest::mouseDClick(viewport, Qt::LeftButton, {}, gpuAt(w.get(), "node-001", 2));
        auto* dialog = w->findChild<QDialog*>("explainDialog");
        QVERIFY(dialog && dialog->isVisible());
        const QString formula = dialog->findChild<QLabel*>("explainFormula")->text();
        QVERIFY2(formula.contains("memory in use") && formula.contains("GiB"), qPrintable(formula));
        QVERIFY2(dialog->windowTitle().contains("GPU 2 of node-001"), qPrintable(dialog->windowTitle()));
        dialog->close();
        dialog->deleteLater();
        rightClick(viewport, gpuAt(w.get(), "node-001", 5));
        QVERIFY(clickMenuItem("Explain GPU 5"));
        QTRY_VERIFY(w->findChild<QDialog*>("explainDialog") && w->findChild<QDialog*>("explainDialog")->isVisible());
    }

    /// A job's menu: duplicate it, place it best, unpin it, each one undoable step.
    void aJobsMenuDuplicatesPlacesAndUnpins()
    {
        auto w = openSample();
        QTableWidget* table = w->workloads()->table();
        const int rows = table->rowCount();
        const QString job = table->item(0, 1)->data(Qt::UserRole).toString();
        rightClick(table->viewport(), rowAt(table, 0, 1));
        const QStringList texts = menuTexts();
        for (const char* expected : {"Edit Job…", "Explain Penalty", "Explain Cost", "Show on Canvas", "Best Placement",
                                     "Unpin", "Duplicate Job", "Delete Job…"})
            QVERIFY2(texts.contains(expected), qPrintable(texts.join(" | ")));

        rightClick(table->viewport(), rowAt(table, 0, 1));
        QVERIFY(clickMenuItem("Duplicate Job"));
        const Scenario& s = w->currentDocument()->scenario();
        int copies = 0;
        for (const Tenant& t : s.tenants)
            for (const Job& j : t.jobs)
                copies += QString::fromStdString(j.name).endsWith("(copy)") ? 1 : 0;
        QCOMPARE(copies, 1);
        QTRY_COMPARE(table->rowCount(), rows + 1);
        w->currentDocument()->undoStack()->undo();
        QTRY_COMPARE(table->rowCount(), rows);

        const int row = [&] {
            for (int r = 0; r < table->rowCount(); ++r)
                if (table->item(r, 1)->data(Qt::UserRole).toString() == job)
                    return r;
            return -1;
        }();
        rightClick(table->viewport(), rowAt(table, row, 1));
        QVERIFY(clickMenuItem("Best Placement"));
        const auto pinOf = [&]() -> std::optional<Pin> {
            for (const Tenant& t : w->currentDocument()->scenario().tenants)
                for (const Job& j : t.jobs)
                    if (QString::fromStdString(j.id) == job)
                        return j.pin;
            return std::nullopt;
        };
        QTRY_VERIFY(pinOf().has_value());
        QVERIFY(
            w->currentDocument()->undoStack()->undoText().startsWith("Place " + table->item(row, 1)->text() + " on "));
        QTRY_VERIFY(!w->session()->busy());
        rightClick(table->viewport(), rowAt(table, row, 1));
        QVERIFY(clickMenuItem("Unpin"));
        QVERIFY(!pinOf().has_value());
    }

    /// A tenant's menu deletes it with its jobs after asking; undo brings them back.
    /// A training job's Best Parallelism…: the search runs, lists the fastest configurations, and
    /// Apply sets the chosen one as one undoable step.
    void aJobsBestParallelismIsAppliedAndUndone()
    {
        auto w = openSample();
        QTableWidget* table = w->workloads()->table();
        const Scenario& before = w->currentDocument()->scenario();
        int row = -1;
        for (int r = 0; r < table->rowCount() && row < 0; ++r)
            if (const Job* j = before.findJob(table->item(r, 1)->data(Qt::UserRole).toString().toStdString());
                j && j->isTraining())
                row = r;
        QVERIFY2(row >= 0, "the sample has a training job");
        const std::string jobId = table->item(row, 1)->data(Qt::UserRole).toString().toStdString();
        const Job original = *before.findJob(jobId);
        QDialog* dialog = openBestParallelism(w.get(), row);
        QVERIFY(dialog);
        auto* results = dialog->findChild<QTableWidget*>("ParallelismTable");
        QVERIFY2(dialog->findChild<QLabel*>("ParallelismStatus")->text().contains("fit"),
                 qPrintable(dialog->findChild<QLabel*>("ParallelismStatus")->text()));
        if (qEnvironmentVariableIsSet("GPUPLAN_SCREENSHOT_DIR"))
            dialog->grab().save(QDir(qEnvironmentVariable("GPUPLAN_SCREENSHOT_DIR")).filePath("best-parallelism.png"));
        // The first row differs from the job's own configuration, or choose the one that does.
        int choice = -1;
        for (int r = 0; r < results->rowCount() && choice < 0; ++r)
            if (results->item(r, 1)->text().toInt() != original.parallelism.tp ||
                results->item(r, 3)->text().toInt() != original.parallelism.dp ||
                results->item(r, 7)->text().toInt() != original.batch.micro ||
                results->item(r, 4)->text() != QString("ZeRO-%1").arg(original.parallelism.zeroStage))
                choice = r;
        QVERIFY(choice >= 0);
        QTest::mouseClick(results->viewport(), Qt::LeftButton, {},
                          results->visualItemRect(results->item(choice, 0)).center());
        const int chosenTp = results->item(choice, 1)->text().toInt();
        QTest::mouseClick(dialog->findChild<QPushButton*>("ParallelismApply"), Qt::LeftButton); // closes it
        const Job* changed = w->currentDocument()->scenario().findJob(jobId);
        QVERIFY(changed);
        QVERIFY(changed->parallelism != original.parallelism || changed->batch.micro != original.batch.micro);
        QCOMPARE(changed->parallelism.tp, chosenTp);
        QVERIFY(w->currentDocument()->undoStack()->undoText().startsWith("Parallelism of "));
        w->currentDocument()->undoStack()->undo();
        QCOMPARE(w->currentDocument()->scenario().findJob(jobId)->parallelism, original.parallelism);
        QCOMPARE(w->currentDocument()->scenario().findJob(jobId)->batch.micro, original.batch.micro);
    }

    /// A serving job's Best Parallelism…: deployments that meet its tenant's objectives, fewest
    /// GPUs first; Apply sets TP, replicas, batch cap and precision as one undoable step.
    void aServingJobsBestDeploymentIsAppliedAndUndone()
    {
        auto w = openSample();
        QTableWidget* table = w->workloads()->table();
        int row = -1;
        for (int r = 0; r < table->rowCount() && row < 0; ++r)
            if (table->item(r, 1)->data(Qt::UserRole).toString() == "chat-70b")
                row = r;
        QVERIFY2(row >= 0, "the sample serves Llama 3 70B as chat-70b");
        const Job original = *w->currentDocument()->scenario().findJob("chat-70b");
        QDialog* dialog = openBestParallelism(w.get(), row);
        QVERIFY(dialog);
        auto* results = dialog->findChild<QTableWidget*>("ParallelismTable");
        QCOMPARE(results->horizontalHeaderItem(2)->text(), QString("Replicas"));
        if (qEnvironmentVariableIsSet("GPUPLAN_SCREENSHOT_DIR"))
            dialog->grab().save(QDir(qEnvironmentVariable("GPUPLAN_SCREENSHOT_DIR")).filePath("best-deployment.png"));
        for (int r = 1; r < results->rowCount(); ++r) // fewest GPUs first
            QVERIFY(results->item(r, 0)->text().toInt() >= results->item(r - 1, 0)->text().toInt());
        int choice = -1;
        for (int r = 0; r < results->rowCount() && choice < 0; ++r)
            if (results->item(r, 1)->text().toInt() != original.parallelism.tp ||
                results->item(r, 2)->text().toInt() != original.parallelism.dp ||
                results->item(r, 3)->text().toInt() != original.inference->concurrency)
                choice = r;
        QVERIFY(choice >= 0);
        QTest::mouseClick(results->viewport(), Qt::LeftButton, {},
                          results->visualItemRect(results->item(choice, 0)).center());
        const int tp = results->item(choice, 1)->text().toInt(), cap = results->item(choice, 3)->text().toInt();
        QTest::mouseClick(dialog->findChild<QPushButton*>("ParallelismApply"), Qt::LeftButton); // closes it
        const Job* changed = w->currentDocument()->scenario().findJob("chat-70b");
        QCOMPARE(changed->parallelism.tp, tp);
        QCOMPARE(changed->inference->concurrency, cap);
        QVERIFY(w->currentDocument()->undoStack()->undoText().startsWith("Deployment of "));
        w->currentDocument()->undoStack()->undo();
        QCOMPARE(w->currentDocument()->scenario().findJob("chat-70b")->parallelism, original.parallelism);
        QCOMPARE(w->currentDocument()->scenario().findJob("chat-70b")->inference->concurrency,
                 original.inference->concurrency);
    }

    void aTenantsMenuDeletesItWithItsJobs()
    {
        auto w = openSample();
        QTableWidget* table = w->workloads()->table();
        const QString tenant = table->item(0, 0)->data(Qt::UserRole).toString();
        const std::size_t tenants = w->currentDocument()->scenario().tenants.size();
        rightClick(table->viewport(), rowAt(table, 0, 0));
        test::answerNext("confirmDeleteTenant", QMessageBox::Yes);
        QVERIFY(clickMenuItem("Delete Tenant and Its Jobs"));
        QTRY_COMPARE(w->currentDocument()->scenario().tenants.size(), tenants - 1);
        for (const Tenant& t : w->currentDocument()->scenario().tenants)
            QVERIFY(QString::fromStdString(t.id) != tenant);
        w->currentDocument()->undoStack()->undo();
        QCOMPARE(w->currentDocument()->scenario().tenants.size(), tenants);
    }

    /// Right-click on a node selects it and offers what can be done to it; on empty canvas,
    /// Arrange as Fabric is one undoable step.
    void theCanvasMenusActOnWhatIsUnderThePointer()
    {
        auto w = openSample();
        QWidget* viewport = w->canvasView()->viewport();
        rightClick(viewport, gpuAt(w.get(), "node-002", 0));
        QCOMPARE(w->canvasScene()->selectedIds(), QStringList{"node-002"});
        const QStringList texts = menuTexts();
        for (const char* expected :
             {"Explain GPU 0", "Show Jobs Here", "Edit Properties", "Set Sharing", "Duplicate", "Delete"})
            QVERIFY2(texts.contains(expected), qPrintable(texts.join(" | ")));
        const std::size_t nodes = w->currentDocument()->scenario().topology.nodes.size();
        rightClick(viewport, gpuAt(w.get(), "node-002", 0));
        QVERIFY(clickMenuItem("Delete"));
        QCOMPARE(w->currentDocument()->scenario().topology.nodes.size(), nodes - 1);
        w->currentDocument()->undoStack()->undo();

        const QPointF empty = w->canvasScene()->contentBounds().bottomRight() + QPointF(150, 150);
        w->canvasView()->centerOn(empty);
        rightClick(viewport, w->canvasView()->mapFromScene(empty));
        QVERIFY(clickMenuItem("Arrange as Fabric"));
        QCOMPARE(w->currentDocument()->undoStack()->undoText(), QString("Arrange as fabric"));
    }
};

QTEST_MAIN(TestContextMenus)
#include "tst_contextmenus.moc"
