// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#pragma once

#include "document/latestonly.h"
#include "study/sizing.h"

#include <QDialog>
#include <QTimer>

#include <memory>
#include <optional>

class QDoubleSpinBox;
class QLabel;
class QListWidget;
class QProgressBar;
class QPushButton;
class QSpinBox;
class QTableWidget;

namespace gp::ui {

class SizingCurveView;

/// Plan > Size Cluster… (issue 36): `gpuplan-cli optimize size` in the workbench. The planner
/// checks candidate node templates of the catalog (the plan's own checked), may give each tenant
/// a growth in % per month over a horizon, and sets the headroom kept free; Size runs
/// study::sizeCluster in the background (progress, Cancel) and shows per template the nodes and
/// $/month or why it hosts nothing, the chosen cluster, and month by month the nodes needed with
/// the month the plan's own cluster runs out. A refusal (a constraint that binds) is said in
/// words. The sized cluster can be applied as one undoable edit or saved as a library variant.
class SizingDialog : public QDialog
{
    Q_OBJECT

public:
    SizingDialog(const Catalog& catalog, Scenario current, QWidget* parent = nullptr);
    ~SizingDialog() override;

    /// Sizes with the settings in the dialog (the Size button); refused in the status line when
    /// they cannot be sized (no template checked, growth without a horizon).
    void start();
    /// Stops a running sizing (the Cancel button); nothing is shown of it.
    void cancel();
    bool running() const { return static_cast<bool>(mJob); }
    /// What the settings in the dialog ask study::sizeCluster (without the stop flag and progress).
    study::SizingRequest request() const;
    /// The last sizing's result, or its refusal; nullopt before the first.
    const std::optional<Result<study::SizingResult>>& result() const { return mResult; }
    /// The scenario sized (the open one when the dialog opened).
    const Scenario& sized() const { return mCurrent; }
    QLabel* status() const { return mStatus; }
    QTableWidget* candidatesTable() const { return mCandidates; }
    /// The month-by-month curve: its chart and table.
    SizingCurveView* curve() const { return mCurve; }

Q_SIGNALS:
    /// Apply: the plan's cluster replaced by the sized one; `what` says it ("3 × NVIDIA DGX H100").
    void applyRequested(const gp::Scenario& sized, const QString& what);
    void saveVariantRequested(const gp::Scenario& sized, const QString& note);
    /// A sizing ended (with a result or a refusal) and is shown; not after Cancel.
    void sizingFinished();

protected:
    void closeEvent(QCloseEvent* event) override;

private:
    struct Job;
    /// The run ended: shown when `delivered`, dropped when it was cancelled.
    void finished(bool delivered);
    void tick();
    void showResult();
    void fillCandidates(const study::SizingResult& r);
    void updateEnabled();
    QString templateName(const std::string& id) const;
    /// "3 × NVIDIA DGX H100" or "2 × … + 1 × …".
    QString mixText(const study::SizingResult& r) const;
    /// The sized scenario named for the library: "<scenario> — sized (3 × …)".
    Scenario namedSized() const;

    const Catalog& mCatalog;
    Scenario mCurrent;
    std::optional<Result<study::SizingResult>> mResult;
    std::shared_ptr<Job> mJob;
    document::LatestOnly<bool> mRunner{[this](std::optional<bool> done) { finished(done.has_value()); }};
    QTimer mTicker;
    QListWidget* mTemplates = nullptr;
    QTableWidget* mGrowth = nullptr;
    QSpinBox* mHorizon = nullptr;
    QDoubleSpinBox* mHeadroom = nullptr;
    QPushButton* mStart = nullptr;
    QPushButton* mCancel = nullptr;
    QProgressBar* mProgress = nullptr;
    QLabel* mStatus = nullptr;
    QTableWidget* mCandidates = nullptr;
    SizingCurveView* mCurve = nullptr;
    QPushButton* mApply = nullptr;
    QPushButton* mVariant = nullptr;
};

} // namespace gp::ui
