// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#pragma once

#include "document/latestonly.h"
#include "study/measurementsvsplan.h"
#include "study/planvsmeasured.h"

#include "model/catalog.h"
#include "model/scenario.h"

#include <QDialog>

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
/// not be matched. Reads the plan, never changes it.
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
    /// Stops the running check: it gives up waiting within a fraction of a second.
    void cancel();
    /// The open plan was replaced: the results compared another plan and go.
    void planReplaced();

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
    struct Outcome
    {
        std::optional<study::PlanCheck> check;
        std::optional<study::MeasurementsVsPlan> measurements;
        QString problems; ///< the measurements file's, one a line
        bool wasMeasurements = false;
    };
    void start(std::function<Outcome(const std::atomic<bool>& stop)> work, const QString& what);
    void finished(std::optional<Outcome> outcome);
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
    QProgressBar* mBusy;
    QLabel* mStatus;
    QTabWidget* mTabs;
    QTableWidget* mJobs;
    QTableWidget* mGpus;
    QPlainTextEdit* mUnmatched;
    QTableWidget* mMeasured;
    QLabel* mDetails;
    bool mCancelled = false;
    std::optional<study::PlanVsMeasured> mTelemetry;
    std::optional<study::MeasurementsVsPlan> mMeasurements;
    document::LatestOnly<Outcome> mRunner{[this](std::optional<Outcome> o) { finished(std::move(o)); }};
};

} // namespace gp::ui
