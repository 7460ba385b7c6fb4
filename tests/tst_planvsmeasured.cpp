// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
// Results > Plan vs Measured (issue 38) driven with the menu, keys and the mouse on 1366x768 and
// 1920x1080 windows against a REAL Prometheus (prometheusserver.h: recorded dcgm-exporter output
// backfilled with promtool): the plan's jobs and GPUs beside their series, flagged rows highlighted
// with the parameter that would explain them, everything unmatched named, a job's row selecting the
// job; a Prometheus that never answers cancelled while the window keeps responding; unreachable,
// empty and refused answers, bad times and a bad mapping file shown, the plan never changed; a
// measurements file beside the plan; the report's "Plan vs measured" pages from the workbench,
// rendered and checked (pdfcheck.h; gpuplan-cli report's are tst_planvsmeasuredreport's); an edit
// of the plan marking the comparison stale until Refresh.
#include "clirunner.h"
#include "guidriver.h"
#include "pdfcheck.h"
#include "prometheusserver.h"
#include "windowfixture.h"

#include "document/plansession.h"
#include "io/measurementsio.h"
#include "io/scenarioreader.h"
#include "ui/edit/propertiespanel.h"
#include "ui/edit/workloadspanel.h"
#include "ui/figures/planvsmeasuredpage.h"
#include "ui/figures/reportwriter.h"
#include "ui/studies/planvsmeasureddialog.h"
#include "ui/studies/planvsmeasuredtables.h"
#include "ui/studies/studycontroller.h"

#include <QDoubleSpinBox>
#include <QElapsedTimer>
#include <QHeaderView>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QLineEdit>
#include <QMenuBar>
#include <QPlainTextEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QRegularExpression>
#include <QScrollBar>
#include <QTabWidget>
#include <QTableWidget>
#include <QTcpServer>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>
#include <QUndoStack>

using namespace gp;
using gp::test::child;
using gp::test::typeInto;

namespace {

QString telemetryFixture(const QString& name) { return test::fixturesDir() + "/telemetry/" + name; }

/// The row of `table` whose first two cells start with `subject` and are `quantity`; -1 for none.
int rowOf(QTableWidget* table, const QString& subject, const QString& quantity)
{
    for (int r = 0; r < table->rowCount(); ++r)
        if (table->item(r, 0)->text().contains(subject) && table->item(r, 1)->text().startsWith(quantity))
            return r;
    return -1;
}

void clickRow(QTableWidget* table, int row)
{
    table->scrollToItem(table->item(row, 1));
    QTest::mouseClick(table->viewport(), Qt::LeftButton, {}, table->visualItemRect(table->item(row, 1)).center());
}

/// The Workloads row of a job, or -1.
int workloadsRowOf(const QTableWidget* table, const QString& jobId)
{
    for (int r = 0; r < table->rowCount(); ++r)
        if (table->item(r, 1) && table->item(r, 1)->data(Qt::UserRole).toString() == jobId)
            return r;
    return -1;
}

} // namespace

class TestPlanVsMeasured : public QObject
{
    Q_OBJECT

    test::PrometheusServer mServer;
    QTemporaryDir mTmp;
    std::unique_ptr<ui::MainWindow> mWindow;

    /// Results > Plan vs Measured…, through the menu bar's action as a user picks it.
    ui::PlanVsMeasuredDialog* openDialog()
    {
        QMenu* results = nullptr;
        for (QAction* a : mWindow->menuBar()->actions())
            if (a->text() == "&Results")
                results = a->menu();
        if (!results)
            qFatal("no Results menu");
        for (QAction* a : results->actions())
            if (a->text().startsWith("Plan vs &Measured"))
                a->trigger();
        ui::PlanVsMeasuredDialog* d = mWindow->studies()->planVsMeasured();
        if (!d || !QTest::qWaitForWindowExposed(d))
            qFatal("Results > Plan vs Measured… did not open the view");
        return d;
    }

    /// Types the recorded range and the server's address, clicks Check Plan and waits for the answer.
    void checkRecorded(ui::PlanVsMeasuredDialog* d, const QString& url)
    {
        typeInto(child<QLineEdit>(d, "PvmUrl"), url);
        typeInto(child<QLineEdit>(d, "PvmFrom"), "2025-08-19T10:00:00Z");
        typeInto(child<QLineEdit>(d, "PvmTo"), "2025-08-19T12:00:00Z");
        QTest::mouseClick(child<QPushButton>(d, "PvmRun"), Qt::LeftButton);
        QTRY_VERIFY_WITH_TIMEOUT(!d->running(), 60000);
    }

    QString status(ui::PlanVsMeasuredDialog* d) { return child<QLabel>(d, "PvmStatus")->text(); }
    bool statusIsError(ui::PlanVsMeasuredDialog* d)
    {
        return child<QLabel>(d, "PvmStatus")->styleSheet().contains("#b00020");
    }
    void planUnchanged()
    {
        document::Document* doc = mWindow->currentDocument();
        QVERIFY(!doc->isModified());
        QCOMPARE(doc->undoStack()->count(), 0);
    }

private Q_SLOTS:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QVERIFY(mTmp.isValid());
        QVERIFY2(mServer.start({telemetryFixture("recorded.prom"), telemetryFixture("derived.prom")},
                               {1755597600.0, 1755597600.0 + 7200.0, 30.0}),
                 qPrintable(mServer.error()));
        mWindow = test::makeWindow(mTmp.filePath("lib.sqlite"));
        mWindow->show();
        QVERIFY(QTest::qWaitForWindowExposed(mWindow.get()));
        io::ScenarioReadResult plan = io::readScenarioFile(telemetryFixture("plan.json"), test::bundledCatalog());
        QVERIFY(plan.ok());
        mWindow->workbench().setDocument(std::make_unique<document::Document>(*plan.value));
        QTRY_VERIFY_WITH_TIMEOUT(mWindow->session()->latest() != nullptr, 30000);
    }

    void comparesWithARealPrometheus_data()
    {
        QTest::addColumn<QSize>("size");
        QTest::newRow("1366x768") << QSize(1366, 768);
        QTest::newRow("1920x1080") << QSize(1920, 1080);
    }
    void comparesWithARealPrometheus()
    {
        QFETCH(QSize, size);
        mWindow->resize(size);
        QApplication::setActiveWindow(mWindow.get());
        ui::PlanVsMeasuredDialog* d = openDialog();
        QVERIFY2(d->frameGeometry().width() <= size.width() && d->frameGeometry().height() <= size.height(),
                 qPrintable(QString("%1x%2").arg(d->frameGeometry().width()).arg(d->frameGeometry().height())));
        checkRecorded(d, mServer.url());
        QVERIFY2(status(d).contains("55 series: 3 job(s)") && !statusIsError(d), qPrintable(status(d)));
        // What was measured can be saved for Calibrate… (the button opens a file dialog; the test
        // writes through the same call).
        QVERIFY(child<QPushButton>(d, "PvmSaveMeasurements")->isEnabled());
        const QString saved = mTmp.filePath("from-telemetry.json");
        QVERIFY(d->saveMeasurements(saved));
        QVERIFY2(status(d).contains("saved to " + saved), qPrintable(status(d)));
        Issues readIssues;
        const MeasurementSet fromTelemetry = io::readMeasurements(test::readAll(saved), readIssues);
        QVERIFY(readIssues.empty());
        QVERIFY(!fromTelemetry.items.empty());

        // The tensorflow job's memory: 21 GiB measured against less predicted, flagged and explained.
        auto* jobs = child<QTableWidget>(d, "PvmJobs");
        QVERIFY(jobs->isVisible());
        const int mem = rowOf(jobs, "tensorflow", "memory per GPU");
        QVERIFY(mem >= 0);
        QCOMPARE(jobs->item(mem, 3)->text(), QString("21.00 GiB (max)"));
        QCOMPARE(jobs->item(mem, 0)->background().color(), ui::pvm::kFlaggedColour);
        QVERIFY2(jobs->item(mem, 5)->text().contains("runtime_overhead_gib"), qPrintable(jobs->item(mem, 5)->text()));
        // A figure within the threshold is not highlighted.
        const int emb = rowOf(jobs, "text-embedding-predictor", "memory per GPU");
        QVERIFY(emb >= 0);
        QVERIFY(jobs->item(emb, 0)->background().style() == Qt::NoBrush);
        // Every column is readable: none narrower than its header's text.
        for (int c = 0; c < jobs->columnCount() - 1; ++c)
            QVERIFY2(jobs->columnWidth(c) >= jobs->horizontalHeader()->fontMetrics().horizontalAdvance(
                                                 jobs->horizontalHeaderItem(c)->text()),
                     qPrintable(jobs->horizontalHeaderItem(c)->text()));

        // The explanation is on screen, not off to the side of a scrolled table.
        QTRY_VERIFY(!jobs->horizontalScrollBar()->isVisible());
        QVERIFY(jobs->columnWidth(5) >= 300);

        // Selecting the row selects the job in Workloads and on the canvas, and says all of it.
        clickRow(jobs, mem);
        QTRY_COMPARE(mWindow->workloads()->selectedJobId(), QString("tensorflow"));
        QCOMPARE(mWindow->canvasScene()->highlightedJobs(), QStringList{"tensorflow"});
        const QString details = child<QLabel>(d, "PvmDetails")->text();
        QVERIFY2(details.contains("Beyond the threshold, higher than predicted: runtime_overhead_gib"),
                 qPrintable(details));

        // A GPU's row selects its node.
        auto* tabs = child<QTabWidget>(d, "PvmTabs");
        tabs->setCurrentIndex(1);
        auto* gpus = child<QTableWidget>(d, "PvmGpus");
        const int power = rowOf(gpus, "gsrh100-074/0", "power");
        QVERIFY(power >= 0);
        clickRow(gpus, power);
        QTRY_COMPARE(mWindow->canvasScene()->selectedIds(), QStringList{"gsrh100-074"});

        // What could not be matched is named.
        QCOMPARE(tabs->tabText(2), QString("Not matched (3)"));
        const QString unmatched = child<QPlainTextEdit>(d, "PvmUnmatched")->toPlainText();
        QVERIFY2(unmatched.contains("default/triton-server-f7cb5d77-95xcf") &&
                     unmatched.contains("dcgm-exporter-wwwjh") && unmatched.contains("Series without pod labels: 26"),
                 qPrintable(unmatched));

        // GPUPLAN_SCREENSHOTS=DIR (run under Xvfb): the view as the user sees it, to look at.
        if (const QString dir = qEnvironmentVariable("GPUPLAN_SCREENSHOTS"); !dir.isEmpty()) {
            tabs->setCurrentIndex(0);
            clickRow(jobs, mem);
            QTest::qWait(300);
            d->grab().save(QString("%1/plan-vs-measured-%2x%3.png").arg(dir).arg(size.width()).arg(size.height()));
            tabs->setCurrentIndex(1);
            d->grab().save(QString("%1/plan-vs-measured-gpus-%2x%3.png").arg(dir).arg(size.width()).arg(size.height()));
            tabs->setCurrentIndex(2);
        }

        // The comparison is the workbench's for the report; the plan is as it was.
        const ui::MeasuredComparison* c = mWindow->workbench().measuredComparison();
        QVERIFY(c && c->telemetry && c->telemetry->jobs.size() == 3);
        planUnchanged();
        d->close();
    }

    void workbenchReportHasThePlanVsMeasuredPage()
    {
        QVERIFY(mWindow->workbench().measuredComparison());
        const QString pdf = mTmp.filePath("report.pdf");
        const Status written = mWindow->exports()->exportReport(pdf);
        QVERIFY2(written, written.errorText().c_str());
        if (const QString dir = qEnvironmentVariable("GPUPLAN_SCREENSHOTS"); !dir.isEmpty())
            QFile::copy(pdf, dir + "/report-plan-vs-measured.pdf");
        // The jobs' page, then the GPUs' (each as long as its rows need).
        const ui::MeasuredComparison* c = mWindow->workbench().measuredComparison();
        QCOMPARE(ui::measuredReportPages(*c), 2);
        QCOMPARE(test::pdfPages(pdf), ui::kReportPages + 2);
        const QString text = test::pdfText(pdf);
        QVERIFY(text.contains("Plan vs measured: telemetry, jobs"));
        QVERIFY(text.contains("runtime_overhead_gib"));
        QVERIFY(text.contains("default/triton-server-f7cb5d77-95xcf"));
        // The GPUs' page has every GPU the dialog's GPU table has, each quantity a row: memory, SM
        // activity, link load where the exporter gives PCIe bytes, power against the TDP.
        const QString gpuPage = test::pdfPageText(pdf, ui::kReportPages + 2);
        QVERIFY2(gpuPage.contains("Plan vs measured: telemetry, GPUs"), qPrintable(gpuPage));
        auto* gpus = child<QTableWidget>(mWindow->studies()->planVsMeasured(), "PvmGpus");
        QVERIFY(gpus->rowCount() >= 10);
        for (int r = 0; r < gpus->rowCount(); ++r) {
            const QString subject = gpus->item(r, 0)->text().section(' ', 0, 0);
            QVERIFY2(gpuPage.contains(subject) && gpuPage.contains(gpus->item(r, 1)->text()),
                     qPrintable(subject + " " + gpus->item(r, 1)->text()));
        }
        QVERIFY(gpuPage.contains("l40s.example.com/0") && gpuPage.contains("gsrh100-074/0 MIG"));
        QVERIFY(gpuPage.contains("memory used") && gpuPage.contains("SM activity") &&
                gpuPage.contains("link load (NVLink + PCIe sent)") && gpuPage.contains("power (TDP, an upper bound)"));
        QVERIFY(gpuPage.contains("700 W") && gpuPage.contains("cotenant_busy_fraction"));
        QVERIFY(gpuPage.contains("Not matched")); // after the GPUs, on their last page
        const QStringList problems = test::renderingProblems(pdf, true);
        QVERIFY2(problems.isEmpty(), qPrintable(problems.join('\n')));
    }

    void aSilentPrometheusIsCancelledWhileTheWindowResponds()
    {
        QTcpServer silent; // takes the connection, never answers
        QVERIFY(silent.listen(QHostAddress::LocalHost, 0));
        ui::PlanVsMeasuredDialog* d = openDialog();
        const int rowsBefore = child<QTableWidget>(d, "PvmJobs")->rowCount();
        typeInto(child<QLineEdit>(d, "PvmUrl"), QString("http://127.0.0.1:%1").arg(silent.serverPort()));
        QTest::mouseClick(child<QPushButton>(d, "PvmRun"), Qt::LeftButton);
        QVERIFY(d->running());
        QVERIFY(child<QProgressBar>(d, "PvmBusy")->isVisible());
        QVERIFY2(status(d).startsWith("Querying http://127.0.0.1:"), qPrintable(status(d)));
        QVERIFY(!child<QPushButton>(d, "PvmRun")->isEnabled());
        // The GUI thread keeps turning: a 20 ms timer fires while the query waits.
        const int ticks = test::guiThreadTicks(600);
        QVERIFY2(ticks >= 10, qPrintable(QString::number(ticks)));
        QVERIFY(d->running());
        QElapsedTimer t;
        t.start();
        QTest::mouseClick(child<QPushButton>(d, "PvmCancel"), Qt::LeftButton);
        QTRY_VERIFY_WITH_TIMEOUT(!d->running(), 5000);
        QVERIFY2(t.elapsed() < 3000, qPrintable(QString::number(t.elapsed())));
        QCOMPARE(status(d), QString("Cancelled: nothing was compared."));
        QVERIFY(!child<QProgressBar>(d, "PvmBusy")->isVisible());
        QVERIFY(child<QPushButton>(d, "PvmRun")->isEnabled());
        QCOMPARE(child<QTableWidget>(d, "PvmJobs")->rowCount(), rowsBefore); // the last results stay
        planUnchanged();
    }

    void errorsAreShownAndThePlanIsUnchanged()
    {
        ui::PlanVsMeasuredDialog* d = openDialog();
        // Nothing listens there.
        checkRecorded(d, QString("http://127.0.0.1:%1").arg(test::freeLocalPort()));
        QVERIFY2(status(d).contains("/api/v1/query_range: cannot reach the server") && statusIsError(d),
                 qPrintable(status(d)));
        // A range without series.
        typeInto(child<QLineEdit>(d, "PvmUrl"), mServer.url());
        typeInto(child<QLineEdit>(d, "PvmFrom"), "2025-08-20T10:00:00Z");
        typeInto(child<QLineEdit>(d, "PvmTo"), "2025-08-20T12:00:00Z");
        QTest::mouseClick(child<QPushButton>(d, "PvmRun"), Qt::LeftButton);
        QTRY_VERIFY_WITH_TIMEOUT(!d->running(), 60000);
        QVERIFY2(status(d).contains(mServer.url() + " has no DCGM series in this range"), qPrintable(status(d)));
        // Prometheus refuses the query.
        typeInto(child<QLineEdit>(d, "PvmMatch"), "Hostname=");
        checkRecorded(d, mServer.url());
        QVERIFY2(status(d).contains("Prometheus refused the query: bad_data"), qPrintable(status(d)));
        typeInto(child<QLineEdit>(d, "PvmMatch"), "");
        // Refused before anything is asked: a time, a mapping file.
        typeInto(child<QLineEdit>(d, "PvmFrom"), "yesterday");
        QTest::mouseClick(child<QPushButton>(d, "PvmRun"), Qt::LeftButton);
        QVERIFY(!d->running());
        QVERIFY2(status(d).startsWith("From: 'yesterday' is not a time") && statusIsError(d), qPrintable(status(d)));
        const QString map = mTmp.filePath("map.json");
        QFile f(map);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(R"({"jobs": {"triton-server": 3}})");
        f.close();
        typeInto(child<QLineEdit>(d, "PvmMapping"), map);
        checkRecorded(d, mServer.url());
        QVERIFY2(status(d).contains(map + ": jobs.triton-server: must be the id or name of a job"),
                 qPrintable(status(d)));
        // A good mapping names the pod's job: nothing left unmatched but the hosts and series.
        QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
        f.write(R"({"tenants": {"default": "model-playground-stg"}, "jobs": {"triton-server": "tts-predictor"}})");
        f.close();
        checkRecorded(d, mServer.url());
        QVERIFY2(!statusIsError(d), qPrintable(status(d)));
        QVERIFY(!child<QPlainTextEdit>(d, "PvmUnmatched")->toPlainText().contains("triton-server"));
        typeInto(child<QLineEdit>(d, "PvmMapping"), "");
        planUnchanged();
    }

    void measurementsFileBesideThePlan()
    {
        ui::PlanVsMeasuredDialog* d = openDialog();
        const QString file = mTmp.filePath("measured.json");
        QFile f(file);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(R"({"format": "gpuplan-measurements", "format_version": 1, "measurements": [
            {"job": "tensorflow", "quantity": "memory_gib", "statistic": "max", "value": 21.0, "tool": "nvidia-smi"},
            {"job": "tts-predictor", "quantity": "step_time_s", "value": 0.5},
            {"job": "nobody", "quantity": "memory_gib", "value": 3.0}]})");
        f.close();
        QVERIFY(d->loadMeasurements(file));
        QTRY_VERIFY_WITH_TIMEOUT(!d->running(), 30000);
        auto* table = child<QTableWidget>(d, "PvmMeasurements");
        QVERIFY(table->isVisible());
        QCOMPARE(table->rowCount(), 3);
        const int mem = rowOf(table, "tensorflow", "memory_gib");
        QCOMPARE(table->item(mem, 3)->text(), QString("21.00 GiB"));
        QCOMPARE(table->item(mem, 0)->background().color(), ui::pvm::kFlaggedColour);
        QVERIFY(table->item(mem, 5)->text().contains("runtime_overhead_gib"));
        QVERIFY(table->item(rowOf(table, "tts-predictor", "step_time_s"), 5)->text().contains("training figure"));
        QCOMPARE(table->item(rowOf(table, "nobody", "memory_gib"), 5)->text(), QString("the plan has no job 'nobody'"));
        QVERIFY2(status(d).startsWith("3 measurement(s) from measured.json: 1 flagged"), qPrintable(status(d)));
        clickRow(table, mem);
        QTRY_COMPARE(mWindow->workloads()->selectedJobId(), QString("tensorflow"));
        const ui::MeasuredComparison* c = mWindow->workbench().measuredComparison();
        QVERIFY(c && c->telemetry && c->measurements); // both parts go to the report

        // A bad file: the problem with its JSON path, shown; what could be read is still compared.
        QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
        f.write(R"({"format": "gpuplan-measurements", "format_version": 1, "measurements": [
            {"job": "tensorflow", "quantity": "memory_gib", "value": -1}]})");
        f.close();
        QVERIFY(d->loadMeasurements(file));
        QTRY_VERIFY_WITH_TIMEOUT(!d->running(), 30000);
        QVERIFY2(status(d).startsWith("No measurement could be read") && status(d).contains("measurements[0].value") &&
                     statusIsError(d),
                 qPrintable(status(d)));
        QVERIFY(d->loadMeasurements(mTmp.filePath("missing.json")));
        QTRY_VERIFY_WITH_TIMEOUT(!d->running(), 30000);
        QVERIFY2(status(d).contains("missing.json") && statusIsError(d), qPrintable(status(d)));
        planUnchanged();
        d->close();
    }

    // An edit of the plan through the workbench marks the comparison stale in the view; Refresh
    // compares the plan as it is, off the GUI thread, and the mark goes. (Last: it edits the plan.)
    void anEditMarksTheComparisonStale_data()
    {
        QTest::addColumn<QSize>("size");
        QTest::newRow("1366x768") << QSize(1366, 768);
        QTest::newRow("1920x1080") << QSize(1920, 1080);
    }
    void anEditMarksTheComparisonStale()
    {
        QFETCH(QSize, size);
        mWindow->resize(size);
        QApplication::setActiveWindow(mWindow.get());
        ui::PlanVsMeasuredDialog* d = openDialog();
        typeInto(child<QLineEdit>(d, "PvmMapping"), "");
        typeInto(child<QLineEdit>(d, "PvmMatch"), "");
        checkRecorded(d, mServer.url());
        const QString file = mTmp.filePath("stale.json");
        QFile f(file);
        QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
        f.write(R"({"format": "gpuplan-measurements", "format_version": 1, "measurements": [
            {"job": "tensorflow", "quantity": "memory_gib", "statistic": "max", "value": 21.0}]})");
        f.close();
        QVERIFY(d->loadMeasurements(file));
        QTRY_VERIFY_WITH_TIMEOUT(!d->running(), 30000);
        QVERIFY2(!statusIsError(d), qPrintable(status(d)));
        auto* marker = child<QWidget>(d, "PvmStale");
        QVERIFY(!marker->isVisible() && !d->stale());

        // The job renamed in Properties: typed, applied with the mouse.
        const QString name = QString("LoRA %1").arg(size.width());
        QTableWidget* workloads = mWindow->workloads()->table();
        const int row = workloadsRowOf(workloads, "tensorflow");
        QVERIFY(row >= 0);
        QTest::mouseClick(workloads->viewport(), Qt::LeftButton, {},
                          workloads->visualItemRect(workloads->item(row, 2)).center());
        QTRY_COMPARE(mWindow->workloads()->selectedJobId(), QString("tensorflow"));
        auto* nameField = qobject_cast<QLineEdit*>(mWindow->properties()->field("name"));
        QVERIFY(nameField);
        typeInto(nameField, name);
        QTest::mouseClick(mWindow->properties()->findChild<QPushButton*>("applyProperties"), Qt::LeftButton);
        QCOMPARE(QString::fromStdString(mWindow->currentDocument()->scenario().findJob("tensorflow")->name), name);

        // Marked, on screen: the words and the button inside the view.
        QTRY_VERIFY(marker->isVisible());
        QVERIFY(d->stale());
        QVERIFY2(child<QLabel>(d, "PvmStaleText")->text().startsWith("The plan changed since this comparison"),
                 qPrintable(child<QLabel>(d, "PvmStaleText")->text()));
        auto* refresh = child<QPushButton>(d, "PvmRefresh");
        QVERIFY(refresh->isVisible() && refresh->isEnabled());
        const QRect onView(refresh->mapTo(d, QPoint(0, 0)), refresh->size());
        QVERIFY2(d->rect().contains(onView), qPrintable(QString("%1,%2 %3x%4 in %5x%6")
                                                            .arg(onView.x())
                                                            .arg(onView.y())
                                                            .arg(onView.width())
                                                            .arg(onView.height())
                                                            .arg(d->width())
                                                            .arg(d->height())));
        QVERIFY(mWindow->workbench().measuredComparison()->planEditedSince); // the report says so too
        // The tables still show what was compared: the old name.
        auto* jobs = child<QTableWidget>(d, "PvmJobs");
        QVERIFY(rowOf(jobs, "tensorflow (LoRA fine-tune)", "memory per GPU") >= 0 ||
                rowOf(jobs, "tensorflow (LoRA ", "memory per GPU") >= 0);
        QCOMPARE(rowOf(jobs, "tensorflow (" + name + ")", "memory per GPU"), -1);
        if (const QString dir = qEnvironmentVariable("GPUPLAN_SCREENSHOTS"); !dir.isEmpty())
            d->grab().save(
                QString("%1/plan-vs-measured-stale-%2x%3.png").arg(dir).arg(size.width()).arg(size.height()));

        // Refresh: both parts again, in the background while the window keeps turning.
        QTest::mouseClick(refresh, Qt::LeftButton);
        QVERIFY(d->running());
        QVERIFY(!refresh->isEnabled());
        QTRY_VERIFY_WITH_TIMEOUT(!d->running(), 60000);
        QVERIFY(!marker->isVisible());
        QVERIFY(!d->stale());
        QVERIFY2(!statusIsError(d) && status(d).contains("55 series: 3 job(s)") &&
                     status(d).contains("1 measurement(s) from stale.json"),
                 qPrintable(status(d)));
        QVERIFY(rowOf(jobs, "tensorflow (" + name + ")", "memory per GPU") >= 0);
        const ui::MeasuredComparison* c = mWindow->workbench().measuredComparison();
        QVERIFY(c && c->telemetry && c->measurements && !c->planEditedSince);
        QCOMPARE(c->measurements->source, std::string("stale.json"));

        // Undone with the keyboard: the plan changed again.
        QApplication::setActiveWindow(mWindow.get());
        QTest::keyClick(mWindow.get(), Qt::Key_Z, Qt::ControlModifier);
        QTRY_VERIFY(marker->isVisible());
        QVERIFY(QString::fromStdString(mWindow->currentDocument()->scenario().findJob("tensorflow")->name) != name);
    }

    void cleanupTestCase()
    {
        mWindow.reset();
        mServer.stop();
    }
};

QTEST_MAIN(TestPlanVsMeasured)
#include "tst_planvsmeasured.moc"
