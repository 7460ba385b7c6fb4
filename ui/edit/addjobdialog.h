// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#pragma once

#include "document/commands.h"
#include "model/catalog.h"
#include "model/scenario.h"

#include <QDialog>

#include <optional>

class QCheckBox;
class QComboBox;
class QGroupBox;
class QDoubleSpinBox;
class QLabel;
class QLineEdit;
class QPushButton;
class QSpinBox;

namespace gp::ui {

/// Adds a job from a model preset to an existing or a new tenant, or edits an existing job
/// (editJob). The job is checked with the core's rules as it is edited; OK stays off while it
/// is invalid, and the message says why.
class AddJobDialog : public QDialog
{
    Q_OBJECT

public:
    AddJobDialog(const Catalog& catalog, const Scenario& scenario, QWidget* parent = nullptr);
    /// Turns the dialog into an editor of this job: its fields are filled from it, and
    /// result() changes it in place (same id, tenant, pin and other settings).
    void editJob(const std::string& jobId);
    /// The edit that adds or changes the job (document/commands.h addJob, editJob), or the
    /// core's reasons why it cannot.
    Result<document::Edit> edit() const;
    /// The scenario with that edit applied (the unchanged scenario while it is refused).
    Scenario result() const;
    QString message() const;
    bool valid() const;
    /// For tests: set the fields as a user would.
    void set(const QString& tenantName, const QString& preset, JobKind kind, int tp, int pp, int dp);
    /// Chooses "Custom model" and fills its shape (the fields a user would type).
    void setCustom(const ModelArchitecture& arch);
    /// Preselects a model preset (from the palette) and, for a new job, pins it to a node.
    void preselect(const QString& preset, const std::string& pinNode = {});

private:
    /// The scenario with `edit` applied (the dialog's scenario when it was refused).
    Scenario resultOf(const Result<document::Edit>& edit) const;
    /// What the job needs per GPU in `after` (the scenario with it) against the largest GPU of
    /// the cluster, in words; `fits` says whether any GPU holds it. nullopt when the job's shape
    /// is unknown.
    std::optional<QString> memoryEstimate(const Scenario& after, bool& fits) const;
    /// For a serving job: what it serves at its load in `after`, evaluated with the plan (issue
    /// 36), and a warning when it is saturated there (`fits` false: the queue grows without
    /// bound). nullopt for other jobs, one not placed, or a plan over kMaxEstimateGpus.
    std::optional<QString> servingEstimate(const Scenario& after, bool& fits) const;
    /// The job the dialog adds or edits, in `after`; null when there is none.
    const Job* jobIn(const Scenario& after) const;
    /// Offers the chosen tenant's objectives, the use-case presets and none (issue 36).
    void fillObjectives();
    /// The TTFT and ITL P99 objectives (ms) to give the tenant of a serving job; nullopt to keep
    /// the tenant's as they are (not a serving job, or "Keep the tenant's").
    std::optional<std::pair<std::optional<double>, std::optional<double>>> chosenObjectives() const;
    /// `e` with the tenant's objectives set as chosen, as one edit.
    Result<document::Edit> withObjectives(Result<document::Edit> e) const;
    /// Plans up to this many GPUs are evaluated as the form changes (a few milliseconds each).
    static constexpr int kMaxEstimateGpus = 8192;
    /// "Hidden size: " for an issue at `…hidden_size`: the form's label of a field path.
    static QString fieldLabel(const std::string& path);
    document::JobRequest request() const;
    void revalidate();
    ModelArchitecture customArchitecture() const;
    void showArchitecture(const ModelArchitecture& arch);

    const Catalog& mCatalog;
    Scenario mScenario;
    std::string mEditJob; ///< the job being edited; empty when adding
    QComboBox* mTenant;
    QLineEdit* mNewTenant;
    QComboBox* mPreset;
    QComboBox* mKind;
    QSpinBox *mTp, *mPp, *mDp;
    QDoubleSpinBox* mAmount; ///< billions of training tokens, or requests/s for serving
    QLabel* mAmountLabel;    ///< says which of the two mAmount is
    QLabel* mMessage;
    QLabel* mObjectivesLabel;
    QComboBox* mObjectives; ///< a serving job's tenant objectives: the tenant's, a preset, or none
    QPushButton* mOk;
    QGroupBox* mCustomBox; ///< the shape of a custom model, shown when "Custom model" is chosen
    QSpinBox *mLayers, *mHidden, *mHeads, *mKvHeads, *mFfn, *mVocab, *mSeq, *mExperts, *mActive;
    QCheckBox* mGated;
    QCheckBox* mDropout;
    std::string mPinNode; ///< a new job's pin (dropped from the palette onto a node)
};

} // namespace gp::ui
