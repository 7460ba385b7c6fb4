// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#pragma once

#include "document/latestonly.h"
#include "study/calibration.h"

#include <QDialog>

#include <optional>

class QLabel;
class QLineEdit;
class QProgressBar;
class QPushButton;
class QSpinBox;
class QTableWidget;

namespace gp::ui {

class Workbench;

/// Results > Calibration > Calibrate… (issue 38; docs/calibration.md): the open plan's model
/// parameters fitted to a measurements file — study::calibrate, as `gpuplan-cli calibrate` runs
/// it, off the GUI thread with Cancel. Shows each parameter fitted or left at its default with
/// why, each measurement before and after (and held out), and the errors; the profile can then be
/// used for this scenario (an undoable edit), saved to the library as the next version of its
/// name, or exported as a file. Nothing is changed before the user asks.
class CalibrateDialog : public QDialog
{
    Q_OBJECT

public:
    CalibrateDialog(Workbench& workbench, QWidget* parent = nullptr);
    ~CalibrateDialog() override;

    bool running() const { return mRunner.running(); }
    /// Starts the fit with the fields as they are; false (and says why) when they are not usable
    /// or a fit is under way.
    bool calibrate();
    /// Stops the running fit at its next iteration; nothing is kept.
    void cancel();
    /// The last finished fit (with or without a profile).
    const std::optional<study::CalibrationResult>& result() const { return mResult; }
    /// Makes the fitted profile the open scenario's own (an undoable edit); false and why when
    /// there is none or the plan is read-only.
    bool useForScenario();
    /// Stores the fitted profile in the library as the next version of its name.
    bool saveToLibrary();
    /// Writes the fitted profile as a file.
    bool exportProfile(const QString& file);
    /// The open plan was replaced: the fit belongs to another plan and goes.
    void planReplaced();

protected:
    void reject() override;

private:
    void finished(std::optional<study::CalibrationResult> result);
    void showResult(const study::CalibrationResult& r);
    void setBusy(bool busy);
    void showStatus(const QString& text, bool error = false);

    Workbench& mWorkbench;
    QLineEdit* mFile;
    QLineEdit* mParams;
    QSpinBox* mFolds;
    QLineEdit* mName;
    QPushButton* mRun;
    QPushButton* mCancel;
    QPushButton* mUse;
    QPushButton* mSave;
    QPushButton* mExport;
    QProgressBar* mBusy;
    QLabel* mStatus;
    QLabel* mSummary;
    QTableWidget* mParameters;
    QTableWidget* mMeasurements;
    std::optional<study::CalibrationResult> mResult;
    bool mCancelled = false;
    document::LatestOnly<study::CalibrationResult> mRunner{
        [this](std::optional<study::CalibrationResult> r) { finished(std::move(r)); }};
};

} // namespace gp::ui
