// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
// Results > Placement Replay (issue 18), driven with keys and the mouse: the open scenario's
// replay with three policies and three seeds, its curves, the unallocated-GPU gap and the
// export; bad seeds and a missing file refused with the reason; Cancel on the Alibaba trace.
#include "guidriver.h"
#include "windowfixture.h"

#include "ui/studies/replaydialog.h"

#include <QChart>
#include <QChartView>
#include <QCheckBox>
#include <QComboBox>
#include <QLabel>
#include <QLineEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QRadioButton>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>

using namespace gp;
using gp::test::child;

namespace {

void click(QAbstractButton* button) { QTest::mouseClick(button, Qt::LeftButton, {}, QPoint(8, button->height() / 2)); }

void typeInto(QLineEdit* edit, const QString& text)
{
    QTest::mouseDClick(edit, Qt::LeftButton);
    edit->setFocus();
    QTest::keyClick(edit, Qt::Key_A, Qt::ControlModifier);
    QTest::keyClicks(edit, text);
}

} // namespace

class TestReplayDialog : public QObject
{
    Q_OBJECT

    QTemporaryDir mTmp;
    std::unique_ptr<ui::MainWindow> mWindow;

    ui::ReplayDialog* openReplay()
    {
        QApplication::setActiveWindow(mWindow.get());
        QTest::keyClick(mWindow.get(), Qt::Key_R, Qt::ControlModifier | Qt::ShiftModifier);
        ui::ReplayDialog* d = mWindow->placementReplay();
        if (!d || !QTest::qWaitForWindowExposed(d))
            qFatal("Ctrl+Shift+R did not open the Placement Replay");
        return d;
    }

private Q_SLOTS:
    void initTestCase()
    {
        mWindow = test::makeWindow(mTmp.filePath("lib.sqlite"));
        mWindow->resize(1366, 768);
        mWindow->show();
        mWindow->files()->openFirst();
        QVERIFY(QTest::qWaitForWindowExposed(mWindow.get()));
        QApplication::setActiveWindow(mWindow.get());
    }

    void replaysTheOpenScenario()
    {
        ui::ReplayDialog* d = openReplay();
        click(d->findChildren<QRadioButton*>().at(1)); // the open scenario
        for (const char* off : {"random", "dotprod", "clustering"})
            click(child<QCheckBox>(d, QString("ReplayPolicy_%1").arg(off)));
        typeInto(child<QLineEdit>(d, "ReplaySeeds"), "1-3");
        click(child<QPushButton>(d, "ReplayRun"));
        QTRY_VERIFY_WITH_TIMEOUT(!d->running() && d->results().size() == 3, 60000);
        QCOMPARE(d->results()[0].first, QString("GpuPacking"));
        QCOMPARE(d->results()[2].first, QString("FGD"));
        for (const auto& [name, s] : d->results())
            QCOMPARE(s.seeds.count(), std::size_t{3});
        const auto views = d->findChildren<QChartView*>();
        QCOMPARE(views.size(), 2);
        for (QChartView* v : views)
            QCOMPARE(v->chart()->series().size(), 3);
        // The gap table: the best policy first, the others with the GPUs they leave over it.
        auto* gap = child<QTableWidget>(d, "ReplayGap");
        QCOMPARE(gap->rowCount(), 3);
        QCOMPARE(gap->item(0, 4)->text(), QString("the fewest"));
        const QString second = gap->item(1, 4)->text();
        QVERIFY2(second.contains(" leaves ") || second == "level with " + gap->item(0, 0)->text(), qPrintable(second));
        QCOMPARE(ui::ReplayDialog::gapText(238.4, "FGD", 530.0), QString("+238 GPUs: FGD leaves 45 % fewer"));
        QCOMPARE(ui::ReplayDialog::gapText(0.3, "FGD", 12.0), QString("level with FGD"));
        int gpus = 0;
        for (const Node& n : mWindow->currentDocument()->scenario().topology.nodes)
            gpus += n.gpuCount;
        QVERIFY2(child<QLabel>(d, "ReplayStatus")->text().startsWith(QString("9 replays of %1 GPUs").arg(gpus)),
                 qPrintable(child<QLabel>(d, "ReplayStatus")->text()));
        QCOMPARE(child<QProgressBar>(d, "ReplayProgress")->value(), 9);
        // Exported like every chart: PNG and SVG of both curves, and the numbers.
        QTemporaryDir out;
        QVERIFY(child<QPushButton>(d, "ReplayExport")->isEnabled());
        QVERIFY(d->exportChartsTo(out.path()));
        for (const char* file : {"replay-allocation.png", "replay-allocation.svg", "replay-fragmentation.png",
                                 "replay-fragmentation.svg", "replay.csv"})
            QVERIFY2(QFileInfo(out.filePath(file)).size() > 100, file);
        d->close();
    }

    void refusesBadInputWithTheReason()
    {
        ui::ReplayDialog* d = openReplay();
        const auto before = d->results().size();
        typeInto(child<QLineEdit>(d, "ReplaySeeds"), "9-1");
        click(child<QPushButton>(d, "ReplayRun"));
        QVERIFY(!d->running());
        QVERIFY2(child<QLabel>(d, "ReplayStatus")->text().contains("Seeds"),
                 qPrintable(child<QLabel>(d, "ReplayStatus")->text()));
        // A trace whose node file is missing: the file is named.
        typeInto(child<QLineEdit>(d, "ReplaySeeds"), "1");
        click(d->findChildren<QRadioButton*>().at(0));
        auto* tasks = child<QComboBox>(d, "ReplayTasks");
        if (tasks->count() == 0) {
            QTemporaryDir dir;
            QFile f(dir.filePath("tasks.csv"));
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write("name,cpu_milli,memory_mib,num_gpu,gpu_milli\nt1,1000,1024,1,500\n");
            f.close();
            tasks->addItem("tasks.csv", f.fileName());
        }
        typeInto(child<QLineEdit>(d, "ReplayNodes"), mTmp.filePath("no-such-nodes.csv"));
        click(child<QPushButton>(d, "ReplayRun"));
        QVERIFY(!d->running());
        QVERIFY2(child<QLabel>(d, "ReplayStatus")->text().contains("no-such-nodes.csv"),
                 qPrintable(child<QLabel>(d, "ReplayStatus")->text()));
        QCOMPARE(d->results().size(), before); // nothing replaced
        d->close();
    }

    void cancelStopsATraceReplay()
    {
        ui::ReplayDialog* d = openReplay();
        auto* tasks = child<QComboBox>(d, "ReplayTasks");
        const int defaultTrace = tasks->findText("openb_pod_list_default.csv");
        if (defaultTrace < 0)
            QSKIP("the Alibaba trace is not here (GPUPLAN_TRACE_DIR)");
        click(d->findChildren<QRadioButton*>().at(0));
        tasks->setCurrentIndex(defaultTrace);
        typeInto(child<QLineEdit>(d, "ReplayNodes"),
                 QFileInfo(tasks->currentData().toString()).dir().filePath("openb_node_list_gpu_node.csv"));
        for (QCheckBox* c : d->findChildren<QCheckBox*>())
            if (!c->isChecked())
                click(c);
        typeInto(child<QLineEdit>(d, "ReplaySeeds"), "1-200");
        const auto before = d->results();
        click(child<QPushButton>(d, "ReplayRun"));
        QVERIFY(d->running());
        QVERIFY(!child<QPushButton>(d, "ReplayRun")->isEnabled());
        QTest::qWait(300);
        click(child<QPushButton>(d, "ReplayCancel"));
        QTRY_VERIFY_WITH_TIMEOUT(!d->running(), 20000); // stops after the replays under way
        QVERIFY2(child<QLabel>(d, "ReplayStatus")->text().startsWith("Cancelled"),
                 qPrintable(child<QLabel>(d, "ReplayStatus")->text()));
        QCOMPARE(d->results().size(), before.size());
        QVERIFY(child<QPushButton>(d, "ReplayRun")->isEnabled());
        d->close();
    }

    void cleanupTestCase() { mWindow.reset(); }
};

QTEST_MAIN(TestReplayDialog)
#include "tst_replaydialog.moc"
