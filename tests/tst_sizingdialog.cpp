// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
// Plan > Size Cluster… as a planner uses it (issue 36): opened from the Plan menu on the first
// sample, the plan's own template checked and the 10 % headroom stated as the CLI states it; a
// headroom typed, Size clicked, the sizing runs in the background and shows what
// study::sizeCluster gives for the same request; Apply is one undoable edit of the cluster; more
// headroom needs at least as many nodes; growth gives the month-by-month curve and the month the
// plan's own cluster runs out; what binds is said in words; the dialog fits a 1366×768 screen.
#include "guidriver.h"
#include "ui/library/librarypanel.h"
#include "ui/plan/plancontroller.h"
#include "ui/plan/sizingcurveview.h"
#include "ui/plan/sizingdialog.h"
#include "windowfixture.h"

#include "document/document.h"
#include "model/format.h"

#include <QChart>
#include <QDoubleSpinBox>
#include <QLabel>
#include <QLineSeries>
#include <QListWidget>
#include <QPushButton>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QUndoStack>

using namespace gp;

namespace {

template <typename T> T* named(QWidget* parent, const QString& name)
{
    T* w = parent->findChild<T*>(name);
    if (!w)
        qFatal("no %s", qPrintable(name));
    return w;
}

/// Types `text` over the spin box's value and leaves it with Tab, as a user does.
void typeOver(QAbstractSpinBox* box, const QString& text)
{
    box->setFocus();
    box->selectAll();
    QTest::keyClicks(box, text);
    QTest::keyClick(box, Qt::Key_Tab);
}

/// Clicks Size and waits for the result; false when none came within two minutes.
bool sizeNow(ui::SizingDialog* d)
{
    QSignalSpy done(d, &ui::SizingDialog::sizingFinished);
    QTest::mouseClick(named<QPushButton>(d, "SizingStart"), Qt::LeftButton);
    return done.wait(120000);
}

/// The row of the template list whose text starts with `name`, clicked, its box toggled with Space.
void toggleTemplate(ui::SizingDialog* d, const QString& name)
{
    auto* list = named<QListWidget>(d, "SizingTemplates");
    for (int i = 0; i < list->count(); ++i)
        if (list->item(i)->text().startsWith(name)) {
            list->scrollToItem(list->item(i));
            QTest::mouseClick(list->viewport(), Qt::LeftButton, {}, list->visualItemRect(list->item(i)).center());
            QTest::keyClick(list, Qt::Key_Space);
            return;
        }
    qFatal("no template %s", qPrintable(name));
}

QStringList checkedTemplates(ui::SizingDialog* d)
{
    auto* list = named<QListWidget>(d, "SizingTemplates");
    QStringList ids;
    for (int i = 0; i < list->count(); ++i)
        if (list->item(i)->checkState() == Qt::Checked)
            ids << list->item(i)->data(Qt::UserRole).toString();
    return ids;
}

} // namespace

class TestSizingDialog : public QObject
{
    Q_OBJECT

    QTemporaryDir mTmp;

    /// The first sample in a 1366×768 window.
    std::unique_ptr<ui::MainWindow> openSample(const QString& library)
    {
        auto w = test::makeWindow(mTmp.filePath(library));
        w->resize(1366, 768);
        w->show();
        w->files()->openFirst();
        if (!QTest::qWaitForWindowExposed(w.get()))
            qFatal("the window is not shown");
        return w;
    }

    /// Plan > Size Cluster… by the keyboard (Alt+P) and the mouse, as a user opens it.
    static ui::SizingDialog* openSizing(ui::MainWindow* w)
    {
        QApplication::setActiveWindow(w);
        QTest::keyClick(w, Qt::Key_P, Qt::AltModifier);
        if (!test::clickMenuItem("Size Cluster"))
            qFatal("the Plan menu has no Size Cluster…");
        ui::SizingDialog* d = w->plans()->sizingDialog();
        if (!d || !QTest::qWaitForWindowExposed(d))
            qFatal("Plan > Size Cluster… did not open the dialog");
        return d;
    }

private Q_SLOTS:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

    /// A headroom typed and Size: the dialog shows what study::sizeCluster gives for the same
    /// request; Apply makes the plan's cluster the sized one in one undo step, Undo restores it.
    void sizesAsTheStudyDoesAndAppliesAsOneUndoStep()
    {
        auto w = openSample("apply.sqlite");
        document::Document* doc = w->currentDocument();
        const Scenario drawn = doc->scenario();
        ui::SizingDialog* d = openSizing(w.get());

        // The plan's own node template is checked; the headroom is 10 % and says what it means.
        QCOMPARE(checkedTemplates(d), QStringList{"dgx-h100"});
        auto* headroom = named<QDoubleSpinBox>(d, "SizingHeadroom");
        QCOMPARE(headroom->value(), 10.0);
        QCOMPARE(named<QLabel>(d, "SizingHeadroomHelp")->text(), QString::fromUtf8(study::kHeadroomHelp));
        QVERIFY(QString::fromUtf8(study::kHeadroomHelp).contains("failures and growth"));
        QVERIFY(!named<QPushButton>(d, "SizingApply")->isEnabled()); // nothing sized yet

        typeOver(headroom, "20");
        QCOMPARE(headroom->value(), 20.0);
        QVERIFY(sizeNow(d));
        QVERIFY(d->result() && d->result()->ok());
        const study::SizingResult& shown = **d->result();

        // The same request, made by hand, gives the same cluster.
        study::SizingRequest asked;
        asked.templates = {"dgx-h100"};
        asked.headroomPct = 20.0;
        const Result<study::SizingResult> expected = study::sizeCluster(drawn, test::bundledCatalog(), asked);
        QVERIFY2(expected.ok(), expected.errorText().c_str());
        QCOMPARE(shown.nodes, expected->nodes);
        QCOMPARE(shown.mix, expected->mix);
        QCOMPARE(shown.costPerMonthUsd, expected->costPerMonthUsd);
        QVERIFY(shown.sized == expected->sized);
        QVERIFY(shown.allocationRatio <= 0.8 + 1e-9);

        // What the user reads: the template by its name, the nodes, the price, the choice.
        QTableWidget* candidates = d->candidatesTable();
        QCOMPARE(candidates->rowCount(), 1);
        QCOMPARE(candidates->item(0, 0)->text(), QString("NVIDIA DGX H100"));
        QCOMPARE(candidates->item(0, 1)->text(), QString::number(expected->nodes));
        QCOMPARE(candidates->item(0, 3)->text(), QString::fromStdString(fmt::usd(expected->costPerMonthUsd)));
        QVERIFY(candidates->item(0, 4)->text().contains("chosen"));
        const QString status = d->status()->text();
        QVERIFY2(status.contains(QString("%1 × NVIDIA DGX H100").arg(expected->nodes)), qPrintable(status));
        QVERIFY2(status.contains("headroom 20 %"), qPrintable(status));
        QVERIFY2(!status.contains("dgx-h100"), qPrintable(status)); // no catalog id

        // Save as Variant: a new library scenario with the sized cluster; the open plan is untouched.
        const int rows = w->findChild<ui::LibraryPanel*>()->rowCount();
        QTest::mouseClick(named<QPushButton>(d, "SizingVariant"), Qt::LeftButton);
        QCOMPARE(w->findChild<ui::LibraryPanel*>()->rowCount(), rows + 1);
        const QString variant =
            QString("%1 — sized (%2 × NVIDIA DGX H100)").arg(QString::fromStdString(drawn.name)).arg(expected->nodes);
        QVERIFY2(test::libraryScenarioId(mTmp.filePath("apply.sqlite"), variant) > 0, qPrintable(variant));
        QVERIFY(doc->scenario() == drawn);

        // Apply: one undo step; the dialog closes; the plan has the sized cluster, its name kept.
        const int steps = doc->undoStack()->count();
        QPointer<ui::SizingDialog> guard(d);
        QTest::mouseClick(named<QPushButton>(d, "SizingApply"), Qt::LeftButton);
        QTRY_VERIFY(guard.isNull());
        QCOMPARE(doc->undoStack()->count(), steps + 1);
        QCOMPARE(static_cast<int>(doc->scenario().topology.nodes.size()), expected->nodes);
        QCOMPARE(doc->scenario().name, drawn.name);
        QVERIFY(doc->undoStack()->undoText().contains("NVIDIA DGX H100"));
        QApplication::setActiveWindow(w.get());
        QTest::keyClick(w.get(), Qt::Key_Z, Qt::ControlModifier);
        QCOMPARE(doc->scenario().topology.nodes.size(), drawn.topology.nodes.size());
        QVERIFY(doc->scenario() == drawn);
    }

    /// Issue 36: a headroom of 50 % needs at least as many nodes as 10 % (here more: half the
    /// GPUs must stay free).
    void moreHeadroomNeedsAtLeastAsManyNodes()
    {
        auto w = openSample("headroom.sqlite");
        ui::SizingDialog* d = openSizing(w.get());
        auto* headroom = named<QDoubleSpinBox>(d, "SizingHeadroom");
        QVERIFY(sizeNow(d)); // the default, 10 %
        QVERIFY(d->result()->ok());
        const int at10 = (*d->result())->nodes;
        typeOver(headroom, "50");
        QVERIFY(sizeNow(d));
        QVERIFY(d->result()->ok());
        const int at50 = (*d->result())->nodes;
        QVERIFY2(at50 >= at10, qPrintable(QString("%1 nodes at 50 %, %2 at 10 %").arg(at50).arg(at10)));
        QVERIFY(at50 > at10);
        QVERIFY((*d->result())->allocationRatio <= 0.5 + 1e-9);
    }

    /// Growth for one tenant over a horizon: the month-by-month table and chart, and the month the
    /// plan's own cluster runs out, as the study computes them; a growth without a horizon is
    /// refused in words.
    void growthGivesTheCurveAndWhenTheClusterRunsOut()
    {
        auto w = openSample("growth.sqlite");
        const Scenario drawn = w->currentDocument()->scenario();
        ui::SizingDialog* d = openSizing(w.get());
        typeOver(named<QDoubleSpinBox>(d, "SizingGrowth-frontier"), "40");
        QTest::mouseClick(named<QPushButton>(d, "SizingStart"), Qt::LeftButton);
        QVERIFY(!d->running());
        QVERIFY2(d->status()->text().contains("needs a horizon"), qPrintable(d->status()->text()));

        typeOver(named<QSpinBox>(d, "SizingMonths"), "6");
        QVERIFY(sizeNow(d));
        QVERIFY(d->result()->ok());
        study::SizingRequest asked;
        asked.templates = {"dgx-h100"};
        asked.growthPct = {{"frontier", 40.0}};
        asked.months = 6;
        const Result<study::SizingResult> expected = study::sizeCluster(drawn, test::bundledCatalog(), asked);
        QVERIFY2(expected.ok(), expected.errorText().c_str());
        const study::SizingResult& shown = **d->result();
        QCOMPARE(shown.months.size(), std::size_t{7});
        QCOMPARE(shown.currentRunsOutMonth, expected->currentRunsOutMonth);
        QVERIFY(expected->currentRunsOutMonth.has_value()); // the frontier lab outgrows 8 nodes
        QTableWidget* months = d->curve()->table();
        QCOMPARE(months->rowCount(), 7);
        for (std::size_t m = 0; m < expected->months.size(); ++m) {
            const int row = static_cast<int>(m);
            QCOMPARE(months->item(row, 2)->text(), QString::number(*expected->months[m].nodes));
            QCOMPARE(months->item(row, 4)->text().startsWith("✗"), !expected->months[m].currentHosts);
            QCOMPARE(months->item(row, 4)->text().contains("runs out"),
                     static_cast<int>(m) == *expected->currentRunsOutMonth);
        }
        QVERIFY(months->horizontalHeaderItem(2)->text().contains("NVIDIA DGX H100"));
        const QList<QAbstractSeries*> series = d->curve()->chart()->series();
        QCOMPARE(series.size(), 2); // the nodes needed, the month the cluster runs out
        QCOMPARE(qobject_cast<QLineSeries*>(series.front())->count(), 7);
        QVERIFY(series.back()->name().contains(QString("month %1").arg(*expected->currentRunsOutMonth)));
        QVERIFY(d->status()->text().contains(QString("runs out in month %1").arg(*expected->currentRunsOutMonth)));
    }

    /// No template, or only one that cannot host the load: said in words, nothing to apply.
    void whatBindsIsSaidInWords()
    {
        auto w = openSample("binds.sqlite");
        ui::SizingDialog* d = openSizing(w.get());
        toggleTemplate(d, "NVIDIA DGX H100"); // unchecked: none left
        QVERIFY(checkedTemplates(d).isEmpty());
        QTest::mouseClick(named<QPushButton>(d, "SizingStart"), Qt::LeftButton);
        QVERIFY2(d->status()->text().contains("Check at least one"), qPrintable(d->status()->text()));

        toggleTemplate(d, "8x L40S server");
        QCOMPARE(checkedTemplates(d), QStringList{"pcie-l40s-8"});
        QVERIFY(sizeNow(d));
        QVERIFY(!d->result()->ok());
        const QString said = d->status()->text();
        QVERIFY2(said.contains("Cannot size this plan") && said.contains("8x L40S server"), qPrintable(said));
        QVERIFY2(!said.contains("templates:"), qPrintable(said)); // no JSON path
        QVERIFY(!named<QPushButton>(d, "SizingApply")->isEnabled());
    }

    /// Cancel stops a sizing of the 250-node sample at its next check: nothing is shown of it,
    /// nothing can be applied, and the next Size runs.
    void cancelStopsTheSizing()
    {
        auto w = test::makeWindow(mTmp.filePath("cancel.sqlite"));
        w->resize(1366, 768);
        w->show();
        QVERIFY(QTest::qWaitForWindowExposed(w.get()));
        const qint64 big =
            test::libraryScenarioId(mTmp.filePath("cancel.sqlite"), "250-node H100 cluster (2,000 GPUs)");
        QVERIFY(big > 0 && w->files()->openFromLibrary(big));
        ui::SizingDialog* d = openSizing(w.get());
        typeOver(named<QSpinBox>(d, "SizingMonths"), "12");
        typeOver(named<QDoubleSpinBox>(
                     d, "SizingGrowth-" + QString::fromStdString(w->currentDocument()->scenario().tenants.front().id)),
                 "20");
        QSignalSpy done(d, &ui::SizingDialog::sizingFinished);
        QTest::mouseClick(named<QPushButton>(d, "SizingStart"), Qt::LeftButton);
        QVERIFY(d->running());
        QVERIFY(!named<QPushButton>(d, "SizingStart")->isEnabled()); // one sizing at a time
        QTest::mouseClick(named<QPushButton>(d, "SizingCancel"), Qt::LeftButton);
        QTRY_VERIFY_WITH_TIMEOUT(!d->running(), 60000);
        QCOMPARE(done.count(), 0);
        QVERIFY(!d->result());
        QVERIFY2(d->status()->text().contains("Cancelled"), qPrintable(d->status()->text()));
        QVERIFY(!named<QPushButton>(d, "SizingApply")->isEnabled());
        QVERIFY(named<QPushButton>(d, "SizingStart")->isEnabled());
    }

    /// On a 1366×768 screen (about 1300×700 left for a dialog) every part keeps a usable size.
    void fitsAShortScreen()
    {
        auto w = openSample("screen.sqlite");
        ui::SizingDialog* d = openSizing(w.get());
        const QSize least = d->minimumSizeHint();
        QVERIFY2(least.width() <= 1300 && least.height() <= 700,
                 qPrintable(QString("%1×%2").arg(least.width()).arg(least.height())));
        d->resize(1300, 700);
        QTRY_COMPARE(d->size(), QSize(1300, 700));
        QVERIFY(sizeNow(d));
        QVERIFY(d->candidatesTable()->viewport()->height() >= 80);
        QVERIFY(named<QListWidget>(d, "SizingTemplates")->viewport()->height() >= 80);
        QVERIFY(d->status()->height() >= 2 * d->status()->fontMetrics().lineSpacing());
        for (const char* button : {"SizingStart", "SizingApply", "SizingVariant"}) {
            QPushButton* b = named<QPushButton>(d, button);
            QVERIFY(b->isVisible());
            QVERIFY(d->rect().contains(QRect(b->mapTo(d, QPoint(0, 0)), b->size())));
        }
    }
};

QTEST_MAIN(TestSizingDialog)
#include "tst_sizingdialog.moc"
