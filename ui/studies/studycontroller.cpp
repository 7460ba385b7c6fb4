// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#include "studycontroller.h"

#include "calibratedialog.h"
#include "document/commands.h"
#include "document/document.h"
#include "io/calibrationprofileio.h"
#include "io/jsonfile.h"
#include "planvsmeasureddialog.h"
#include "replaydialog.h"
#include "sweepdialog.h"
#include "ui/figures/planvsmeasuredpage.h"
#include "ui/library/librarycontroller.h"
#include "ui/workbench.h"

#include <QAction>
#include <QFileDialog>
#include <QKeySequence>
#include <QMenu>
#include <QMessageBox>

namespace gp::ui {

StudyController::StudyController(Workbench& workbench, LibraryController* files, QWidget* window)
    : QObject(window), mWorkbench(workbench), mFiles(files), mWindow(window)
{
}

void StudyController::addStudyActions(QMenu* results)
{
    results->addAction(tr("Placement &Replay…"), this, &StudyController::showPlacementReplay)
        ->setShortcut(QKeySequence(tr("Ctrl+Shift+R")));
    results->addAction(tr("Open &Sweep…"), this, [this] {
        const QString dir = QFileDialog::getExistingDirectory(mWindow, tr("Open a Sweep's Output Folder"));
        if (!dir.isEmpty())
            openSweep(dir);
    });
    results->addSeparator();
    results->addAction(tr("Plan vs &Measured…"), this, &StudyController::showPlanVsMeasured);
    QMenu* calibration = results->addMenu(tr("&Calibration"));
    calibration->setObjectName("calibrationMenu");
    calibration->addAction(tr("&Calibrate…"), this, &StudyController::showCalibrate);
    calibration->addAction(tr("&Use Profile…"), this, [this] {
        const QString f = QFileDialog::getOpenFileName(mWindow, tr("Use a Calibration Profile"), {},
                                                       tr("Calibration profiles (*.json)"));
        if (!f.isEmpty())
            useProfileFile(f);
    });
    QAction* drop = calibration->addAction(tr("&Don't Use a Profile"), this, &StudyController::dropProfile);
    drop->setObjectName("dropProfileAction");
    connect(calibration, &QMenu::aboutToShow, this, [this, drop] {
        const document::Document* doc = mWorkbench.document();
        drop->setEnabled(doc && doc->scenario().calibration.has_value());
    });
}

CalibrateDialog* StudyController::calibrateDialog() const { return mCalibrate; }

CalibrateDialog* StudyController::showCalibrate()
{
    if (!mCalibrate) { // one, kept with its last fit while the window lives
        mCalibrate = new CalibrateDialog(mWorkbench, mWindow);
        mCalibrate->resize(std::min(1100, mWindow->width() - 40), std::min(700, mWindow->height() - 40));
        connect(&mWorkbench, &Workbench::documentReplaced, mCalibrate, &CalibrateDialog::planReplaced);
    }
    mCalibrate->show();
    mCalibrate->raise();
    mCalibrate->activateWindow();
    return mCalibrate;
}

bool StudyController::useProfileFile(const QString& file)
{
    if (!mWorkbench.editable())
        return false;
    Issues issues;
    const auto bytes = io::readFileBytes(file, issues);
    Result<CalibrationProfile> profile = Failure{issues};
    if (bytes)
        profile = io::readCalibrationProfile(*bytes);
    if (!profile) {
        QStringList lines;
        for (const Issue& i : profile.issues)
            lines << file + ": " + QString::fromStdString(i.toString());
        QMessageBox::warning(mWindow, tr("Cannot use the profile"), lines.join('\n'));
        return false;
    }
    Scenario after = mWorkbench.document()->scenario();
    after.calibration = *profile;
    return mWorkbench.push(document::changeScenario(mWorkbench.document()->scenario(), mWorkbench.catalog(), after,
                                                    "Use calibration profile " + profileLabel(*profile)),
                           tr("Cannot use the profile"), mWindow);
}

bool StudyController::dropProfile()
{
    const document::Document* doc = mWorkbench.document();
    if (!doc || !doc->scenario().calibration || !mWorkbench.editable())
        return false;
    Scenario after = doc->scenario();
    after.calibration.reset();
    return mWorkbench.push(
        document::changeScenario(doc->scenario(), mWorkbench.catalog(), after, "Stop using the calibration profile"),
        tr("Cannot drop the profile"), mWindow);
}

PlanVsMeasuredDialog* StudyController::planVsMeasured() const { return mPlanVsMeasured; }

PlanVsMeasuredDialog* StudyController::showPlanVsMeasured()
{
    if (!mPlanVsMeasured) { // one, kept: its last comparison stays while the window lives
        mPlanVsMeasured = new PlanVsMeasuredDialog(
            mWorkbench.catalog(),
            [this]() -> const Scenario* {
                const document::Document* doc = mWorkbench.document();
                return doc ? &doc->scenario() : nullptr;
            },
            mWindow);
        mPlanVsMeasured->resize(std::min(1240, mWindow->width() - 40), std::min(720, mWindow->height() - 40));
        connect(mPlanVsMeasured, &PlanVsMeasuredDialog::jobChosen, this, &StudyController::jobChosen);
        connect(mPlanVsMeasured, &PlanVsMeasuredDialog::nodeChosen, this, &StudyController::nodeChosen);
        connect(
            mPlanVsMeasured, &PlanVsMeasuredDialog::compared, this,
            [this](std::shared_ptr<const MeasuredComparison> c) { mWorkbench.setMeasuredComparison(std::move(c)); });
        connect(&mWorkbench, &Workbench::documentReplaced, mPlanVsMeasured, &PlanVsMeasuredDialog::planReplaced);
        connect(&mWorkbench, &Workbench::documentChanged, mPlanVsMeasured, &PlanVsMeasuredDialog::planEdited);
    }
    mPlanVsMeasured->show();
    mPlanVsMeasured->raise();
    mPlanVsMeasured->activateWindow();
    return mPlanVsMeasured;
}

SweepDialog* StudyController::openSweep(const QString& folder)
{
    QString error;
    SweepDialog* dialog = SweepDialog::open(folder, mWorkbench.catalog(), error, mWindow);
    if (!dialog) {
        QMessageBox::warning(mWindow, tr("Cannot open the sweep"), error);
        return nullptr;
    }
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    connect(dialog, &SweepDialog::pointOpened, this, [this](const Scenario& s) {
        if (!mFiles->maybeSave())
            return;
        auto doc = std::make_unique<document::Document>(s);
        doc->markUnsaved(); // not in the library: opening something else asks first (issue 36)
        mWorkbench.setDocument(std::move(doc));
        Q_EMIT mWorkbench.message(
            tr("Opened '%1': not in the library until you save it").arg(QString::fromStdString(s.name)), 8000);
    });
    dialog->show();
    return dialog;
}

ReplayDialog* StudyController::placementReplay() const { return mReplay; }

void StudyController::showPlacementReplay()
{
    if (!mReplay) { // one, kept: its last results stay while the window lives
        mReplay = new ReplayDialog(
            mWorkbench.catalog(),
            [this]() -> std::pair<const Scenario*, QString> {
                const document::Document* doc = mWorkbench.document();
                if (!doc)
                    return {nullptr, {}};
                return {&doc->scenario(), QString::fromStdString(doc->scenario().name)};
            },
            mWindow);
        mReplay->resize(std::min(1280, mWindow->width() - 40), std::min(760, mWindow->height() - 40));
    }
    mReplay->show();
    mReplay->raise();
    mReplay->activateWindow();
}

} // namespace gp::ui
