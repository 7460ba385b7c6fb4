// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#pragma once

#include "document/edit.h"
#include "document/latestonly.h"
#include "planvsmeasuredrun.h"
#include "study/measurementsvsplan.h"
#include "study/planvsmeasured.h"

#include "model/catalog.h"
#include "model/scenario.h"

#include <QDialog>
#include <QStringList>

#include <functional>
#include <memory>
#include <optional>

class QDoubleSpinBox;
class QLabel;
class QLineEdit;
class QPlainTextEdit;
class QProgressBar;
class QPushButton;
class QSpinBox;
class QTabWidget;
class QTableWidget;

namespace gp::ui {

struct MeasuredComparison;

/// Results > Plan vs Measured (issue 38; docs/user-guide.md#plan-vs-measured): the open plan beside
/// what its cluster measured. From DCGM telemetry in Prometheus over a range (the same
/// study::checkPlan as `gpuplan-cli check-plan`, run off the GUI thread with Cancel), and from a
/// measurements file (docs/measurements.md); per job and per GPU predicted, measured and the
/// difference, flagged rows highlighted with the parameter that would explain them, and what could
/// not be matched. Reads the plan, never changes it; once the plan is edited, the comparison is
/// marked stale until Refresh compares the plan as it is again.
class PlanVsMeasuredDialog : public QDialog
{
    Q_OBJECT

public:
    /// `scenario` gives the open plan (nullptr when none).
    PlanVsMeasuredDialog(const Catalog& catalog, std::function<const Scenario*()> scenario, QWidget* parent = nullptr);
    ~PlanVsMeasuredDialog() override;

    bool running() const { return mRunner.running(); }
    /// Starts the check with the fields as they are; false (and says why) when they are not usable
    /// or a run is under way.
    bool check();
    /// Reads a measurements file and puts it beside the plan, in the background.
    bool loadMeasurements(const QString& file);
    /// Writes the telemetry comparison's measured memory and tokens/s as a measurements file, for
    /// Calibrate… (study::telemetryMeasurements); false, saying why, when there is none to write.
    bool saveMeasurements(const QString& file);
    /// Stops the running check: it gives up waiting within a fraction of a second.
    void cancel();
    /// The open plan was replaced: the results compared another plan and go.
    void planReplaced();
    /// The open plan was edited (Document::changed): a comparison shown, or one under way, compared
    /// the plan as it was and is marked stale. Moves change nothing compared.
    void planEdited(const gp::document::Changes& changes);
    /// A comparison is shown that compared an earlier version of the plan.
    bool stale() const { return mTelemetryStale || mMeasurementsStale; }
    /// Compares the plan as it is again, as the shown comparison was made (its Prometheus, range and
    /// options; its measurements file), in the background; false when there is none or a run is under way.
    bool refresh();

    const std::optional<study::PlanVsMeasured>& telemetryResult() const { return mTelemetry; }
    const std::optional<study::MeasurementsVsPlan>& measurementsResult() const { return mMeasurements; }

Q_SIGNALS:
    /// A job's row was selected: its id in the plan.
    void jobChosen(const QString& jobId);
    /// A GPU's row was selected: its node in the plan.
    void nodeChosen(const QString& nodeId);
    /// A comparison finished: what the report's "Plan vs measured" pages show.
    void compared(std::shared_ptr<const gp::ui::MeasuredComparison> comparison);

protected:
    void reject() override;

private:
    void start(pvm::ComparisonAsk ask, const QString& what);
    void finished(std::optional<pvm::ComparisonOutcome> outcome);
    bool takeTelemetry(const pvm::ComparisonOutcome& o, QStringList& said, QStringList& errors);
    bool takeMeasurements(pvm::ComparisonOutcome& o, QStringList& said, QStringList& errors);
    void showStale();
    void setBusy(bool busy, const QString& what = {});
    void showError(const QString& text);
    void showStatus(const QString& text);
    void showTelemetry();
    void showMeasurements();
    void showDetails(QTableWidget* table);
    void publish();

    const Catalog& mCatalog;
    std::function<const Scenario*()> mScenario;
    QLineEdit* mUrl;
    QLineEdit* mFrom;
    QLineEdit* mTo;
    QLineEdit* mStep;
    QDoubleSpinBox* mThreshold;
    QSpinBox* mTimeout;
    QLineEdit* mMatch;
    QLineEdit* mMapping;
    QLineEdit* mThroughput;
    QPushButton* mRun;
    QPushButton* mCancel;
    QPushButton* mLoad;
    QPushButton* mSave;
    QProgressBar* mBusy;
    QLabel* mStatus;
    QTabWidget* mTabs;
    QTableWidget* mJobs;
    QTableWidget* mGpus;
    QPlainTextEdit* mUnmatched;
    QTableWidget* mMeasured;
    QLabel* mDetails;
    QWidget* mStale;
    QPushButton* mRefresh;
    bool mCancelled = false;
    bool mRefreshing = false;      ///< the run under way is a Refresh: the tab shown stays
    bool mEditedDuringRun = false; ///< its result compares an earlier plan
    bool mTelemetryStale = false;
    bool mMeasurementsStale = false;
    std::optional<study::PlanCheckRequest> mTelemetryAsked; ///< what made mTelemetry
    QString mMeasurementsFile;                              ///< what made mMeasurements
    double mMeasurementsThreshold = 0.25;
    QString mWhen; ///< when the last part was compared
    std::optional<study::PlanVsMeasured> mTelemetry;
    std::optional<study::MeasurementsVsPlan> mMeasurements;
    document::LatestOnly<pvm::ComparisonOutcome> mRunner{
        [this](std::optional<pvm::ComparisonOutcome> o) { finished(std::move(o)); }};
};

} // namespace gp::ui
