// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
// Plan > Optimize… as a planner uses it: Ctrl+Shift+O on the first sample, a time limit typed,
// Optimize clicked; the search runs in the background and ends with the Pareto set in the chart
// (target zone, plans coloured by cost, the current plan) and the table; the selected plan is
// previewed on the canvas; Save as Variant adds it to the library; Compare with Current opens the
// compare view on its "Recommended vs current" page; the report gets that page; Apply is one
// undoable edit; Cancel stops a search and shows what it found; the Jobs check boxes bind what
// the search may change in the tenants' jobs and the selected plan's changes are listed.
#include "guidriver.h"
#include "pdfcheck.h"
#include "ui/canvas/nodeitem.h"
#include "ui/figures/reportwriter.h"
#include "ui/library/librarypanel.h"
#include "ui/plan/optimizedialog.h"
#include "ui/plan/plancontroller.h"
#include "ui/results/comparedialog.h"
#include "windowfixture.h"

#include "document/commands.h"
#include "document/document.h"

#include <QAreaSeries>
#include <QChart>
#include <QCheckBox>
#include <QDoubleSpinBox>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QScatterSeries>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTabWidget>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QUndoStack>

using namespace gp;
using gp::test::child;

namespace {

void typeInto(QSpinBox* box, const QString& text)
{
    box->setFocus();
    box->selectAll();
    QTest::keyClicks(box, text);
    QTest::keyClick(box, Qt::Key_Tab);
}

} // namespace

class TestOptimizeDialog : public QObject
{
    Q_OBJECT

    QTemporaryDir mTmp;

    static ui::OptimizeDialog* openOptimize(ui::MainWindow* w)
    {
        QApplication::setActiveWindow(w);
        QTest::keyClick(w, Qt::Key_O, Qt::ControlModifier | Qt::ShiftModifier);
        ui::OptimizeDialog* d = w->plans()->optimizeDialog();
        if (!d || !QTest::qWaitForWindowExposed(d))
            qFatal("Ctrl+Shift+O did not open Plan > Optimize");
        return d;
    }

private Q_SLOTS:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

    void findsPreviewsSavesComparesReportsAndApplies()
    {
        const QString db = mTmp.filePath("lib.sqlite");
        auto w = test::makeWindow(db);
        w->resize(1366, 768);
        w->show();
        w->files()->openFirst();
        QVERIFY(QTest::qWaitForWindowExposed(w.get()));
        document::Document* doc = w->currentDocument();
        const Scenario drawn = doc->scenario();
        ui::OptimizeDialog* d = openOptimize(w.get());

        typeInto(child<QSpinBox>(d, "OptimizeTimeLimit"), "60");
        QSignalSpy done(d, &ui::OptimizeDialog::searchFinished);
        QTest::mouseClick(child<QPushButton>(d, "OptimizeStart"), Qt::LeftButton);
        QVERIFY(d->running());
        QVERIFY(!child<QPushButton>(d, "OptimizeStart")->isEnabled()); // one search at a time
        QVERIFY(done.wait(120000));
        QVERIFY(!d->running());
        const calc::PlanSearchResult& r = d->result();
        QVERIFY2(!r.pareto.empty(), r.infeasibleReason.c_str());
        QVERIFY(!r.timedOut);
        QVERIFY(r.pareto.front().kpis.costPerMonthUsd < r.current.kpis.costPerMonthUsd);
        QVERIFY2(d->status()->text().contains("no move improves"), qPrintable(d->status()->text()));
        QVERIFY(d->status()->text().contains("No plan can cost less than"));

        // The table: one row per plan, the best first, what each saves; the first is selected.
        QTableWidget* table = d->table();
        QCOMPARE(table->rowCount(), static_cast<int>(r.pareto.size()));
        QCOMPARE(table->currentRow(), 0);
        QVERIFY(d->selectedPlan() == &r.pareto.front());
        // The chart: the target zone, one point per plan, the current plan.
        const QList<QAbstractSeries*> series = d->chart()->series();
        QCOMPARE(series.size(), static_cast<int>(r.pareto.size()) + 2);
        QVERIFY(qobject_cast<QAreaSeries*>(series.front()));
        QVERIFY(series.front()->name().contains("80 %"));
        QVERIFY(series.back()->name().startsWith("Current plan"));
        auto* best = qobject_cast<QScatterSeries*>(series.at(1));
        QVERIFY(best);
        QCOMPARE(best->at(0).x(), r.pareto.front().kpis.vramUtilization * 100.0);

        // The canvas previews the plan: every node it changes or removes is marked.
        int marked = 0;
        for (const Node& n : drawn.topology.nodes) {
            auto* item = qgraphicsitem_cast<ui::NodeItem*>(w->canvasScene()->item(QString::fromStdString(n.id)));
            QVERIFY(item);
            const Node* after = r.pareto.front().scenario.topology.findNode(n.id);
            QCOMPARE(item->previewRemoved(), after == nullptr);
            marked += item->previewRemoved() || !item->previewChange().isEmpty();
        }
        QVERIFY(marked > 0);
        if (qEnvironmentVariableIsSet("GPUPLAN_SCREENSHOT_DIR")) {
            QTest::qWait(200);
            d->grab().save(QDir(qEnvironmentVariable("GPUPLAN_SCREENSHOT_DIR")).filePath("optimize.png"));
            w->grab().save(QDir(qEnvironmentVariable("GPUPLAN_SCREENSHOT_DIR")).filePath("optimize-preview.png"));
        }

        // Save as Variant: a new library scenario; the open plan is untouched.
        const int rows = w->findChild<ui::LibraryPanel*>()->rowCount();
        QTest::mouseClick(child<QPushButton>(d, "OptimizeVariant"), Qt::LeftButton);
        QCOMPARE(w->findChild<ui::LibraryPanel*>()->rowCount(), rows + 1);
        const qint64 variant =
            test::libraryScenarioId(db, QString::fromStdString(drawn.name) + " — optimized (plan 1)");
        QVERIFY(variant > 0);
        QVERIFY(doc->scenario() == drawn);

        // Compare with Current: the compare view on its recommended-vs-current page.
        QTest::mouseClick(child<QPushButton>(d, "OptimizeCompare"), Qt::LeftButton);
        ui::CompareDialog* compare = nullptr;
        QTRY_VERIFY((compare = w->findChild<ui::CompareDialog*>()) != nullptr);
        const QString verdict = compare->recommendation()->text();
        QVERIFY2(verdict.contains("What it saves") && verdict.contains("per month"), qPrintable(verdict));
        QVERIFY(verdict.contains("What it costs in predictability"));
        QVERIFY(verdict.contains("What changes"));
        if (qEnvironmentVariableIsSet("GPUPLAN_SCREENSHOT_DIR")) {
            compare->tabs()->setCurrentIndex(compare->tabs()->count() - 1);
            QTest::qWait(200);
            compare->grab().save(
                QDir(qEnvironmentVariable("GPUPLAN_SCREENSHOT_DIR")).filePath("compare-recommended.png"));
        }
        compare->close();

        // The report on the recommended plan has the same page, the seventh.
        const QString pdf = mTmp.filePath("recommended.pdf");
        QVERIFY(w->plans()->writeRecommendationReport(r.pareto.front().scenario, pdf));
        QCOMPARE(test::pdfPages(pdf), ui::kReportPages + 1);
        QVERIFY(test::pdfText(pdf).contains("Recommended vs current"));

        // Apply: one undoable edit that makes the open plan the chosen one; the dialog closes.
        const Scenario chosen = r.pareto.front().scenario;
        const int steps = doc->undoStack()->count();
        QPointer<ui::OptimizeDialog> guard(d);
        QTest::mouseClick(child<QPushButton>(d, "OptimizeApply"), Qt::LeftButton);
        QTRY_VERIFY(guard.isNull());
        QCOMPARE(doc->undoStack()->count(), steps + 1);
        Scenario applied = doc->scenario();
        applied.name = chosen.name;
        QVERIFY(applied == chosen);
        for (const Node& n : drawn.topology.nodes) // the preview is gone
            if (auto* item = qgraphicsitem_cast<ui::NodeItem*>(w->canvasScene()->item(QString::fromStdString(n.id))))
                QVERIFY(!item->previewRemoved() && item->previewChange().isEmpty());
        QApplication::setActiveWindow(w.get());
        QTest::keyClick(w.get(), Qt::Key_Z, Qt::ControlModifier);
        QVERIFY(doc->scenario() == drawn);
    }

    /// Cancel ends a search at once and shows what it found; a search of a plan edited since
    /// cannot be applied to it.
    void cancelStopsAndAStaleSearchIsNotApplied()
    {
        auto w = test::makeWindow(mTmp.filePath("cancel.sqlite"));
        w->resize(1366, 768);
        w->show();
        w->files()->openFirst();
        QVERIFY(QTest::qWaitForWindowExposed(w.get()));
        ui::OptimizeDialog* d = openOptimize(w.get());
        typeInto(child<QSpinBox>(d, "OptimizeTimeLimit"), "600");
        QSignalSpy done(d, &ui::OptimizeDialog::searchFinished);
        QTest::mouseClick(child<QPushButton>(d, "OptimizeStart"), Qt::LeftButton);
        QTest::mouseClick(child<QPushButton>(d, "OptimizeCancel"), Qt::LeftButton);
        QVERIFY(done.wait(60000));
        QVERIFY(d->result().cancelled);
        QVERIFY2(d->status()->text().contains("cancelled"), qPrintable(d->status()->text()));

        // A finished search of the plan as it was: after an edit it is not applied.
        QTest::mouseClick(child<QPushButton>(d, "OptimizeStart"), Qt::LeftButton);
        QVERIFY(done.wait(120000));
        QVERIFY(!d->result().pareto.empty());
        document::Document* doc = w->currentDocument();
        Scenario edited = doc->scenario();
        edited.tenants.front().priority += 1;
        doc->push(*document::changeScenario(doc->scenario(), test::bundledCatalog(), edited, "priority"));
        const int steps = doc->undoStack()->count();
        QTimer::singleShot(200, [] { // the refusal's message box
            if (QWidget* box = QApplication::activeModalWidget())
                QTest::keyClick(box, Qt::Key_Escape);
        });
        QVERIFY(!w->plans()->applyPlan(d->result().pareto.front().scenario, {}));
        QCOMPARE(doc->undoStack()->count(), steps);
        QVERIFY(doc->scenario() == edited);
    }

    /// Issue 36: the Jobs check boxes (parallelism and batch ticked, precision not, as the CLI's
    /// default) and the 10 % headroom are stated; unticked with the mouse, the search changes no
    /// job and the change table lists the best plan's changes (what, from, to, why); with every
    /// box ticked some plan changes a precision and its table says so.
    void jobBoxesBindTheSearchAndTheChangesAreListed()
    {
        auto w = test::makeWindow(mTmp.filePath("boxes.sqlite"));
        w->resize(1366, 768);
        w->show();
        w->files()->openFirst();
        QVERIFY(QTest::qWaitForWindowExposed(w.get()));
        const Scenario drawn = w->currentDocument()->scenario();
        ui::OptimizeDialog* d = openOptimize(w.get());
        auto* parallelism = child<QCheckBox>(d, "OptimizeAllowParallelism");
        auto* batch = child<QCheckBox>(d, "OptimizeAllowBatch");
        auto* precision = child<QCheckBox>(d, "OptimizeAllowPrecision");
        QVERIFY(parallelism->isChecked() && batch->isChecked() && !precision->isChecked());
        QVERIFY(precision->text().contains("model quality"));
        QCOMPARE(child<QDoubleSpinBox>(d, "OptimizeHeadroom")->value(), 10.0);
        bool stated = false;
        for (const QLabel* l : d->findChildren<QLabel*>())
            stated = stated || (l->text().contains("precision") && l->text().contains("headroom"));
        QVERIFY(stated);

        const QPoint box(8, parallelism->height() / 2); // on the indicator
        QTest::mouseClick(parallelism, Qt::LeftButton, {}, box);
        QTest::mouseClick(batch, Qt::LeftButton, {}, box);
        QVERIFY(!parallelism->isChecked() && !batch->isChecked() && !precision->isChecked());
        QSignalSpy done(d, &ui::OptimizeDialog::searchFinished);
        QTest::mouseClick(child<QPushButton>(d, "OptimizeStart"), Qt::LeftButton);
        QVERIFY(done.wait(120000));
        const calc::PlanSearchResult& kept = d->result();
        QVERIFY2(!kept.pareto.empty(), kept.infeasibleReason.c_str());
        for (const calc::PlanCandidate& p : kept.pareto)
            for (const Tenant& t : drawn.tenants)
                for (const Job& j : t.jobs)
                    QVERIFY2(*p.scenario.findJob(j.id) == j, j.id.c_str());
        QTableWidget* changes = d->changesTable();
        QVERIFY(changes->isVisible());
        QCOMPARE(changes->columnCount(), 4);
        QCOMPARE(changes->horizontalHeaderItem(3)->text(), QString("Why it helps"));
        QCOMPARE(changes->rowCount(), static_cast<int>(kept.pareto.front().changes.size()));
        QVERIFY(changes->rowCount() > 0);
        for (int row = 0; row < changes->rowCount(); ++row)
            for (int col = 0; col < 4; ++col)
                QVERIFY(!changes->item(row, col)->text().isEmpty());
        QVERIFY(changes->columnWidth(0) > 150); // a table to read, not a narrow column

        QTest::mouseClick(parallelism, Qt::LeftButton, {}, box);
        QTest::mouseClick(batch, Qt::LeftButton, {}, box);
        QTest::mouseClick(precision, Qt::LeftButton, {}, box);
        QVERIFY(parallelism->isChecked() && batch->isChecked() && precision->isChecked());
        QTest::mouseClick(child<QPushButton>(d, "OptimizeStart"), Qt::LeftButton);
        QVERIFY(done.wait(120000));
        const calc::PlanSearchResult& all = d->result();
        int withPrecision = -1;
        for (std::size_t i = 0; i < all.pareto.size() && withPrecision < 0; ++i)
            for (const calc::PlanChange& c : all.pareto[i].changes)
                if (c.field == "precision")
                    withPrecision = static_cast<int>(i);
        QVERIFY(withPrecision >= 0);
        d->table()->selectRow(withPrecision);
        bool listed = false;
        for (int row = 0; row < changes->rowCount(); ++row)
            listed = listed || (changes->item(row, 0)->text().endsWith("precision") &&
                                changes->item(row, 1)->text() == "fp8" && !changes->item(row, 3)->text().isEmpty());
        QVERIFY(listed);
        if (qEnvironmentVariableIsSet("GPUPLAN_SCREENSHOT_DIR"))
            d->grab().save(QDir(qEnvironmentVariable("GPUPLAN_SCREENSHOT_DIR")).filePath("optimize-changes.png"));
    }
};

QTEST_MAIN(TestOptimizeDialog)
#include "tst_optimizedialog.moc"
