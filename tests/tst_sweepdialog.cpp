// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
// Results > Open Sweep…: a sweep run by gpuplan-cli opens as one chart per axis and a table of its
// points; a point clicked in the table and "Open Point as Scenario" opens that what-if as an
// unsaved scenario (its cluster rebuilt as the point says); a folder that is not a sweep's output
// is refused with why. A replay sweep's point replays again and shows its curves.
#include "ui/mainwindow.h"
#include "ui/studies/sweepdialog.h"
#include "windowfixture.h"

#include "document/document.h"

#include <QBarSeries>
#include <QBarSet>
#include <QChartView>
#include <QMessageBox>
#include <QProcess>
#include <QPushButton>
#include <QTabWidget>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>

using namespace gp;

class TestSweepDialog : public QObject
{
    Q_OBJECT

    QTemporaryDir mTmp;

    /// Writes `json` as the spec `name` in the test's folder and runs `gpuplan-cli sweep` on it
    /// into `out` there: what the CLI complained of, or empty.
    QString sweep(const QString& name, const QByteArray& json, const QString& out)
    {
        QFile spec(mTmp.filePath(name));
        if (!spec.open(QIODevice::WriteOnly) || spec.write(json) != json.size())
            return "cannot write " + spec.fileName();
        spec.close();
        QProcess p;
        p.start(qEnvironmentVariable("GPUPLAN_CLI"), {"sweep", spec.fileName(), "-o", mTmp.filePath(out)});
        if (!p.waitForFinished(120000) || p.exitStatus() != QProcess::NormalExit || p.exitCode() != 0)
            return "gpuplan-cli sweep failed: " + QString::fromUtf8(p.readAllStandardError());
        return {};
    }

private Q_SLOTS:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

    void opensChartsPointsAndAPointAsAScenario()
    {
        const QString base = QDir(test::dataDir()).absoluteFilePath("samples/01-dgx-h100-three-tenants.json");
        const QString ran = sweep("spec.json",
                                  QString(R"({"base": "%1", "trials": 20, "axes": [{"axis": "nodes", "values": [6, 8]},
            {"axis": "pricing", "values": ["aws-on-demand-2024", "lambda-on-demand-2025"]}]})")
                                      .arg(base)
                                      .toUtf8(),
                                  "out");
        QVERIFY2(ran.isEmpty(), qPrintable(ran));

        auto w = test::makeWindow(mTmp.filePath("lib.sqlite"));
        w->resize(1366, 768);
        w->show();
        w->files()->openFirst();
        QVERIFY(QTest::qWaitForWindowExposed(w.get()));
        ui::SweepDialog* d = w->openSweep(mTmp.filePath("out"));
        QVERIFY(d);
        QVERIFY(QTest::qWaitForWindowExposed(d));
        QCOMPARE(d->tabs()->count(), 3); // nodes, pricing, the points
        auto* nodesChart = qobject_cast<QChartView*>(d->tabs()->widget(0));
        QVERIFY(nodesChart);
        QCOMPARE(nodesChart->chart()->series().size(), 4); // $/month bars, three lines
        QTableWidget* table = d->table();
        QCOMPARE(table->rowCount(), 4);
        if (qEnvironmentVariableIsSet("GPUPLAN_SCREENSHOT_DIR")) {
            QTest::qWait(200);
            d->grab().save(QDir(qEnvironmentVariable("GPUPLAN_SCREENSHOT_DIR")).filePath("sweep.png"));
        }

        // Point 2 (8 nodes, AWS prices): clicked in the table, opened as a scenario.
        d->tabs()->setCurrentWidget(table);
        QTest::qWait(50);
        const QRect cell = table->visualItemRect(table->item(2, 0));
        QTest::mouseClick(table->viewport(), Qt::LeftButton, {}, cell.center());
        QCOMPARE(table->currentRow(), 2);
        QTest::mouseClick(d->findChild<QPushButton*>("SweepOpenPoint"), Qt::LeftButton);
        const Scenario& opened = w->currentDocument()->scenario();
        QVERIFY2(QString::fromStdString(opened.name).endsWith("sweep point 2"), opened.name.c_str());
        QCOMPARE(opened.topology.nodes.size(), std::size_t{8});
        QCOMPARE(opened.pricing.preset, std::string("aws-on-demand-2024"));
        QVERIFY(!w->currentDocument()->libraryId());
        // Not in the library: unsaved, so opening something else asks before it is discarded
        // (issue 36: it went without a word).
        QVERIFY(w->currentDocument()->isModified());

        // Not a sweep's output: refused, said.
        QTimer::singleShot(300, [] {
            if (auto* box = qobject_cast<QMessageBox*>(QApplication::activeModalWidget())) {
                QVERIFY(box->text().contains("is not a sweep's output"));
                box->accept();
            }
        });
        QVERIFY(!w->openSweep(mTmp.path() + "/nowhere"));
    }

    /// A replay sweep: its charts draw the unallocated GPUs and the allocation and fragmentation
    /// along each axis; "Replay Point" replays the clicked point again (in the background) and
    /// shows its curves in a tab of their own; a trace gone since the sweep ran is said.
    void aReplaySweepReplaysAPointAgain()
    {
        const QString sample = QDir(test::dataDir()).absoluteFilePath("samples/02-mixed-sharing-lab.json");
        QVERIFY(QFile::copy(sample, mTmp.filePath("lab.json")));
        const QString ran =
            sweep("replay.json", R"({"kind": "replay", "axes": [{"axis": "trace", "values": [{"scenario": "lab.json"}]},
            {"axis": "policy", "values": ["fgd", "packing", "random"]}, {"axis": "seed", "values": [1, 2]}]})",
                  "replay-out");
        QVERIFY2(ran.isEmpty(), qPrintable(ran));

        auto w = test::makeWindow(mTmp.filePath("lib2.sqlite"));
        w->resize(1366, 768);
        w->show();
        QVERIFY(QTest::qWaitForWindowExposed(w.get()));
        ui::SweepDialog* d = w->openSweep(mTmp.filePath("replay-out"));
        QVERIFY(d);
        QVERIFY(QTest::qWaitForWindowExposed(d));
        QCOMPARE(d->tabs()->count(), 4); // trace, policy, seed, the points
        auto* policyChart = qobject_cast<QChartView*>(d->tabs()->widget(1));
        QVERIFY(policyChart);
        QCOMPARE(policyChart->chart()->series().size(), 4); // unallocated GPUs, three lines
        auto* bars = qobject_cast<QBarSeries*>(policyChart->chart()->series().at(0));
        QVERIFY(bars && bars->count() == 1);
        QCOMPARE(bars->barSets().at(0)->label(), QString("GPUs unallocated when all arrived"));
        QCOMPARE(bars->barSets().at(0)->count(), 3); // fgd, packing, random
        QTableWidget* table = d->table();
        QCOMPARE(table->rowCount(), 6);
        QCOMPARE(table->horizontalHeaderItem(4)->text(), QString("Tasks"));
        QCOMPARE(d->pointButton()->text(), QString("&Replay Point"));
        if (qEnvironmentVariableIsSet("GPUPLAN_SCREENSHOT_DIR")) {
            d->tabs()->setCurrentIndex(1);
            QTest::qWait(200);
            d->grab().save(QDir(qEnvironmentVariable("GPUPLAN_SCREENSHOT_DIR")).filePath("sweep-replay-policy.png"));
        }

        d->tabs()->setCurrentWidget(table);
        QTest::qWait(50);
        QTest::mouseClick(table->viewport(), Qt::LeftButton, {}, table->visualItemRect(table->item(3, 0)).center());
        QVERIFY(d->pointButton()->isEnabled());
        QTest::mouseClick(d->pointButton(), Qt::LeftButton);
        QTRY_COMPARE_WITH_TIMEOUT(d->tabs()->count(), 5, 20000);
        QWidget* page = d->tabs()->currentWidget();
        QCOMPARE(page->objectName(), QString("SweepPoint3"));
        const QList<QChartView*> curves = page->findChildren<QChartView*>();
        QCOMPARE(curves.size(), 2); // allocation, fragmentation
        QVERIFY(curves[0]->chart()->title().contains("packing, seed 2"));
        QVERIFY(!curves[0]->chart()->series().isEmpty());
        if (qEnvironmentVariableIsSet("GPUPLAN_SCREENSHOT_DIR")) {
            QTest::qWait(200);
            d->grab().save(QDir(qEnvironmentVariable("GPUPLAN_SCREENSHOT_DIR")).filePath("sweep-replay.png"));
        }

        // The scenario the trace came from is gone: the replay says which file.
        QVERIFY(QFile::remove(mTmp.filePath("lab.json")));
        QString said;
        QTimer::singleShot(0, [&said] {
            // The warning comes when the background replay fails; look for it until it does.
            auto* poll = new QTimer;
            QObject::connect(poll, &QTimer::timeout, poll, [poll, &said] {
                if (auto* box = qobject_cast<QMessageBox*>(QApplication::activeModalWidget())) {
                    said = box->text();
                    box->accept();
                    poll->deleteLater();
                }
            });
            poll->start(50);
        });
        d->tabs()->setCurrentWidget(table);
        QTest::mouseClick(table->viewport(), Qt::LeftButton, {}, table->visualItemRect(table->item(0, 0)).center());
        QTest::mouseClick(d->pointButton(), Qt::LeftButton);
        QTRY_VERIFY_WITH_TIMEOUT(!said.isEmpty(), 20000);
        QVERIFY2(said.contains("lab.json") && said.contains("Point 0"), qPrintable(said));
        QCOMPARE(d->tabs()->count(), 5); // nothing added
    }
};

QTEST_MAIN(TestSweepDialog)
#include "tst_sweepdialog.moc"
