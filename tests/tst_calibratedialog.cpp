// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
// Results > Calibration (issue 38), driven with the menu, keys and the mouse on a 1366x768 and a
// 1920x1080 window: measurements made by the model with known parameters fitted back in the
// Calibrate… dialog off the GUI thread; the profile used for the scenario (an undoable edit) so
// that the status bar and the explain window name it; saved to the library, exported and used
// from its file, then dropped; a missing file refused in the dialog and a running fit cancelled.
#include "calibrationsupport.h"
#include "clirunner.h"
#include "guidriver.h"
#include "windowfixture.h"

#include "document/plansession.h"
#include "io/calibrationprofileio.h"
#include "io/measurementsio.h"
#include "store/scenariolibrary.h"
#include "ui/results/explaindialog.h"
#include "ui/results/kpicards.h"
#include "ui/studies/calibratedialog.h"
#include "ui/studies/studycontroller.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QMenuBar>
#include <QPushButton>
#include <QSpinBox>
#include <QStatusBar>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>

using namespace gp;
using gp::test::child;
using gp::test::typeInto;

namespace {

const std::vector<std::pair<std::string, double>> kTruth = {
    {"gpu.h100-80gb.gemm_efficiency_scale", 0.86},
    {"gpu.h100-80gb.memory_bound", 0.58},
    {"assumption.runtime_overhead_gib", 2.5},
    {"stack.tensorrt-llm.decode_step_overhead_s", 0.004},
};

} // namespace

class TestCalibrateDialog : public QObject
{
    Q_OBJECT

    QTemporaryDir mTmp;
    std::unique_ptr<ui::MainWindow> mWindow;
    QString mMeasurements;

    /// The Results menu's Calibration submenu, as the menu bar holds it.
    QMenu* calibrationMenu()
    {
        for (QAction* a : mWindow->menuBar()->actions())
            if (a->text() == "&Results")
                for (QAction* b : a->menu()->actions())
                    if (b->menu() && b->menu()->objectName() == "calibrationMenu")
                        return b->menu();
        qFatal("no Results > Calibration");
    }

    QAction* menuAction(const QString& text)
    {
        QMenu* menu = calibrationMenu();
        Q_EMIT menu->aboutToShow(); // as opening it does: the actions follow the open plan
        for (QAction* a : menu->actions())
            if (a->text().remove('&').startsWith(text))
                return a;
        qFatal("no Results > Calibration > %s", qPrintable(text));
    }

    ui::CalibrateDialog* openDialog()
    {
        menuAction("Calibrate")->trigger();
        ui::CalibrateDialog* d = mWindow->studies()->calibrateDialog();
        if (!d || !QTest::qWaitForWindowExposed(d))
            qFatal("Results > Calibration > Calibrate… did not open the dialog");
        return d;
    }

    void fill(ui::CalibrateDialog* d, const QString& file, const QString& params, int folds)
    {
        typeInto(child<QLineEdit>(d, "calibrateFile"), file);
        typeInto(child<QLineEdit>(d, "calibrateParams"), params);
        auto* spin = child<QSpinBox>(d, "calibrateFolds");
        spin->setFocus();
        QTest::keyClick(spin, Qt::Key_A, Qt::ControlModifier);
        QTest::keyClicks(spin, QString::number(folds));
    }

    const std::optional<CalibrationProfile>& own() const { return mWindow->currentDocument()->scenario().calibration; }

private Q_SLOTS:
    void initTestCase()
    {
        mWindow = test::openLibraryScenario(mTmp.filePath("lib.sqlite"), "DGX H100 pod: three tenants");
        const MeasurementSet set = test::syntheticMeasurements(mWindow->currentDocument()->scenario(), kTruth, 0.01);
        mMeasurements = mTmp.filePath("measured.json");
        QFile f(mMeasurements);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(io::measurementsToJson(set));
    }

    /// Every label with a mnemonic names its field: Alt+M puts the cursor in the file field.
    void everyMnemonicReachesItsField()
    {
        ui::CalibrateDialog* d = openDialog();
        for (QLabel* l : d->findChildren<QLabel*>()) {
            const QString t = l->text();
            if (t.contains('&') && !t.contains("&&") && !t.contains('<'))
                QVERIFY2(l->buddy(), qPrintable(t));
        }
        QTest::keyClick(d, Qt::Key_M, Qt::AltModifier);
        QTRY_VERIFY(child<QLineEdit>(d, "calibrateFile")->hasFocus());
        QTest::keyClick(d, Qt::Key_Escape);
    }

    void fitsUsesAndNamesTheProfile_data()
    {
        QTest::addColumn<QSize>("size");
        QTest::newRow("1366x768") << QSize(1366, 768);
        QTest::newRow("1920x1080") << QSize(1920, 1080);
    }
    void fitsUsesAndNamesTheProfile()
    {
        QFETCH(QSize, size);
        mWindow->resize(size);
        QApplication::setActiveWindow(mWindow.get());
        QVERIFY(!own());
        auto* status = mWindow->statusBar()->findChild<QLabel*>("calibrationStatus");
        QVERIFY(status && !status->isVisible());

        ui::CalibrateDialog* d = openDialog();
        QVERIFY2(d->frameGeometry().width() <= size.width() && d->frameGeometry().height() <= size.height(),
                 qPrintable(QString("%1x%2").arg(d->frameGeometry().width()).arg(d->frameGeometry().height())));
        QStringList keys;
        for (const auto& kv : kTruth)
            keys << QString::fromStdString(kv.first);
        fill(d, mMeasurements, keys.join(','), 3);
        QPushButton* use = child<QPushButton>(d, "calibrateUse");
        QTest::mouseClick(child<QPushButton>(d, "calibrateRun"), Qt::LeftButton);
        QVERIFY(d->running());
        QVERIFY(!use->isEnabled()); // nothing to use while it fits
        QTRY_VERIFY_WITH_TIMEOUT(!d->running(), 120000);
        QVERIFY(d->result());
        QVERIFY2(d->result()->ok(), d->result()->error.c_str());
        // Fitted back near the truth, and shown: every parameter and measurement a row.
        for (const study::FittedParameter& p : d->result()->parameters)
            for (const auto& [key, truth] : kTruth)
                if (p.parameter.key == key)
                    QVERIFY2(p.fitted && std::abs(p.value / truth - 1.0) < 0.1, key.c_str());
        QCOMPARE(child<QTableWidget>(d, "calibrateParameters")->rowCount(), int(d->result()->parameters.size()));
        QCOMPARE(child<QTableWidget>(d, "calibrateMeasurements")->rowCount(), int(d->result()->measurements.size()));
        QVERIFY2(child<QLabel>(d, "calibrateSummary")->text().contains("held out (3 folds)"),
                 qPrintable(child<QLabel>(d, "calibrateSummary")->text()));
        QVERIFY(!own()); // nothing changes before the user asks
        // GPUPLAN_SCREENSHOTS=DIR (run under Xvfb): the dialog as the user sees it, to look at.
        if (const QString dir = qEnvironmentVariable("GPUPLAN_SCREENSHOTS"); !dir.isEmpty())
            d->grab().save(QString("%1/calibrate-%2x%3.png").arg(dir).arg(size.width()).arg(size.height()));

        // Used for the scenario: an edit; the status bar and the explain window name it.
        QVERIFY(use->isEnabled());
        QTest::mouseClick(use, Qt::LeftButton);
        QVERIFY(own());
        const std::string label = profileLabel(*own());
        QTRY_VERIFY(status->isVisible());
        QCOMPARE(status->toolTip(), "Calibrated: " + QString::fromStdString(label));
        QVERIFY2(status->text().startsWith("Calibrated: ") && status->width() >= status->minimumWidth(),
                 qPrintable(status->text()));
        // Laid out whole inside the status bar, at either window size.
        QTRY_VERIFY2(
            status->width() >= status->minimumWidth() && status->geometry().right() < mWindow->statusBar()->width(),
            qPrintable(QString("%1 of %2").arg(status->geometry().right()).arg(mWindow->statusBar()->width())));
        if (const QString dir = qEnvironmentVariable("GPUPLAN_SCREENSHOTS"); !dir.isEmpty())
            mWindow->grab().save(
                QString("%1/calibrated-window-%2x%3.png").arg(dir).arg(size.width()).arg(size.height()));
        QTRY_VERIFY_WITH_TIMEOUT(
            mWindow->session()->current() && mWindow->session()->current()->evaluation->calibration == label, 30000);
        QWidget* card = mWindow->kpiCards()->findChild<QWidget*>("kpi-cost_per_month_usd");
        QVERIFY(card);
        QTest::mouseClick(card, Qt::LeftButton, {}, card->rect().center());
        auto* explain = mWindow->findChild<ui::ExplainDialog*>("explainDialog");
        QVERIFY(explain && explain->isVisible());
        const QString text = child<QLabel>(explain, "explainCalibration")->text();
        QVERIFY2(text.contains(QString::fromStdString(label)) && text.contains("gpu.h100-80gb.memory_bound = "),
                 qPrintable(text));
        explain->close();
        QTRY_VERIFY(!mWindow->findChild<QDialog*>("explainDialog"));

        // Undone with the keyboard: back to the defaults.
        QApplication::setActiveWindow(mWindow.get());
        QTest::keyClick(mWindow.get(), Qt::Key_Z, Qt::ControlModifier);
        QTRY_VERIFY(!own());
        QTRY_VERIFY(!status->isVisible());
        QTest::keyClick(d, Qt::Key_Escape); // closes it, as a user does
    }

    void savesExportsUsesAndDropsTheProfile()
    {
        mWindow->resize(1366, 768);
        ui::CalibrateDialog* d = openDialog();
        fill(d, mMeasurements, "gpu.h100-80gb.memory_bound", 0);
        QTest::mouseClick(child<QPushButton>(d, "calibrateRun"), Qt::LeftButton);
        QTRY_VERIFY_WITH_TIMEOUT(!d->running(), 120000);
        QVERIFY(d->result() && d->result()->ok());
        const auto before = mWindow->workbench().library().calibrationProfiles();
        QVERIFY(before);
        QTest::mouseClick(child<QPushButton>(d, "calibrateSave"), Qt::LeftButton);
        const auto after = mWindow->workbench().library().calibrationProfiles();
        QVERIFY(after);
        QCOMPARE(after->size(), before->size() + 1);
        const QString file = mTmp.filePath("profile.json");
        QVERIFY(d->exportProfile(file));
        QTest::keyClick(d, Qt::Key_Escape); // closes it, as a user does

        QVERIFY(mWindow->studies()->useProfileFile(file));
        QVERIFY(own());
        QCOMPARE(own()->name, d->result()->profile->name);
        auto* status = mWindow->statusBar()->findChild<QLabel*>("calibrationStatus");
        QVERIFY2(!status->toolTip().contains("not applied"), qPrintable(status->toolTip()));

        // A value for a GPU this catalog lacks is not applied, and the status bar says so.
        QJsonObject doc = QJsonDocument::fromJson(test::readAll(file)).object();
        QJsonArray params = doc.value("parameters").toArray();
        params.append(QJsonObject{{"key", "gpu.no-such-gpu.memory_bound"}, {"value", 0.5}, {"min", 0.2}, {"max", 1.0}});
        doc["parameters"] = params;
        const QString foreign = mTmp.filePath("foreign-profile.json");
        QFile f(foreign);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(QJsonDocument(doc).toJson());
        f.close();
        QVERIFY(mWindow->studies()->useProfileFile(foreign));
        QTRY_VERIFY2(status->toolTip().contains("(1 value(s) not applied)"), qPrintable(status->toolTip()));
        QVERIFY2(status->toolTip().contains("no-such-gpu"), qPrintable(status->toolTip()));
        QAction* drop = menuAction("Don't Use a Profile");
        QVERIFY(drop->isEnabled());
        drop->trigger();
        QVERIFY(!own());
        QVERIFY(!menuAction("Don't Use a Profile")->isEnabled());
    }

    void refusesAMissingFileAndCancelsARunningFit()
    {
        ui::CalibrateDialog* d = openDialog();
        fill(d, mTmp.filePath("no-such.json"), "", 5);
        QTest::mouseClick(child<QPushButton>(d, "calibrateRun"), Qt::LeftButton);
        QVERIFY(!d->running());
        QLabel* status = child<QLabel>(d, "calibrateStatus");
        QVERIFY2(status->text().contains("no-such.json") && status->text().contains("Nothing was fitted"),
                 qPrintable(status->text()));

        // Every candidate with leave-one-out: long enough to be cancelled mid-way.
        fill(d, mMeasurements, "", 50);
        QTest::mouseClick(child<QPushButton>(d, "calibrateRun"), Qt::LeftButton);
        QVERIFY(d->running());
        QTest::mouseClick(child<QPushButton>(d, "calibrateCancel"), Qt::LeftButton);
        QTRY_VERIFY_WITH_TIMEOUT(!d->running(), 10000);
        QVERIFY(d->result() && !d->result()->ok());
        QVERIFY2(status->text().startsWith("Cancelled"), qPrintable(status->text()));
        QVERIFY(!child<QPushButton>(d, "calibrateUse")->isEnabled());
        QVERIFY(!own());
        QTest::keyClick(d, Qt::Key_Escape); // closes it, as a user does
    }

    /// The window closes while a long fit runs: the fit stops and nothing it reads is gone
    /// (the sanitizer stages catch a read of the freed catalog).
    void closingTheWindowDuringAFitIsSafe()
    {
        ui::CalibrateDialog* d = openDialog();
        fill(d, mMeasurements, "", 50);
        QTest::mouseClick(child<QPushButton>(d, "calibrateRun"), Qt::LeftButton);
        QVERIFY(d->running());
        mWindow.reset();
    }
};

QTEST_MAIN(TestCalibrateDialog)
#include "tst_calibratedialog.moc"
