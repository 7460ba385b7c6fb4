// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
// Results > Open Sweep…: a sweep run by gpuplan-cli opens as one chart per axis and a table of its
// points; a point clicked in the table and "Open Point as Scenario" opens that what-if as an
// unsaved scenario (its cluster rebuilt as the point says); a folder that is not a sweep's output
// is refused with why.
#include "ui/mainwindow.h"
#include "ui/sweepdialog.h"
#include "windowfixture.h"

#include "document/document.h"

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

private Q_SLOTS:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

    void opensChartsPointsAndAPointAsAScenario()
    {
        const QString base = QDir(test::dataDir()).absoluteFilePath("samples/01-dgx-h100-three-tenants.json");
        QFile spec(mTmp.filePath("spec.json"));
        QVERIFY(spec.open(QIODevice::WriteOnly));
        spec.write(QString(R"({"base": "%1", "trials": 20, "axes": [{"axis": "nodes", "values": [6, 8]},
            {"axis": "pricing", "values": ["aws-on-demand-2024", "lambda-on-demand-2025"]}]})")
                       .arg(base)
                       .toUtf8());
        spec.close();
        QProcess p;
        p.start(qEnvironmentVariable("GPUPLAN_CLI"), {"sweep", spec.fileName(), "-o", mTmp.filePath("out")});
        QVERIFY(p.waitForFinished(120000));
        QVERIFY2(p.exitCode() == 0, p.readAllStandardError().constData());

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

        // Not a sweep's output: refused, said.
        QTimer::singleShot(300, [] {
            if (auto* box = qobject_cast<QMessageBox*>(QApplication::activeModalWidget())) {
                QVERIFY(box->text().contains("is not a sweep's output"));
                box->accept();
            }
        });
        QVERIFY(!w->openSweep(mTmp.path() + "/nowhere"));
    }
};

QTEST_MAIN(TestSweepDialog)
#include "tst_sweepdialog.moc"
