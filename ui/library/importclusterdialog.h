// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#pragma once

#include "document/latestonly.h"
#include "model/catalog.h"
#include "model/issue.h"
#include "model/scenario.h"

#include <QDialog>

#include <optional>

class QComboBox;
class QLabel;
class QLineEdit;
class QProgressBar;
class QPushButton;
class QStackedWidget;

namespace gp::ui {

/// File > Import Cluster… (issue 38; docs/cluster-import.md): which cluster to read (a kubectl JSON
/// file, the live cluster of a kubeconfig, Slurm's printouts or this host's Slurm), how tenants
/// are grouped, which catalog GPU a product string is; Import reads it through the same import
/// as `gpuplan-cli import-cluster` — off the GUI thread, for kubectl and Slurm's tools may take up
/// to a minute, with Cancel stopping them — and accepts with the scenario, or shows why not and
/// stays open.
class ImportClusterDialog : public QDialog
{
    Q_OBJECT

public:
    enum class Source
    {
        KubernetesFile,
        KubernetesLive,
        SlurmFiles,
        SlurmLive
    };

    ImportClusterDialog(const Catalog& catalog, QWidget* parent = nullptr);
    ~ImportClusterDialog() override;

    /// The imported scenario, once Import succeeded.
    const std::optional<Scenario>& scenario() const { return mScenario; }
    /// What was read, for the library revision's note ("Kubernetes file cluster.json").
    QString sourceDescription() const { return mDescription; }
    /// Starts the import with the fields as they are, in the background; false (and says why)
    /// when they are not usable. The dialog accepts once it produced a scenario.
    bool runImport();
    bool running() const { return mRunner.running(); }
    /// Stops the running import: the tool it runs is killed within a fraction of a second, and
    /// the dialog stays open.
    void cancel();
    /// Cancel and Esc: stop a running import (the dialog stays open), else close.
    void reject() override;

private:
    struct Outcome
    {
        Result<Scenario> scenario;
        QString description;
        QString message; ///< a file that could not be read
    };
    void finished(std::optional<Outcome> outcome);
    void setBusy(bool busy);
    void sourceChanged();
    QLineEdit* fileField(const QString& objectName, const QString& placeholder, QWidget* page, const QString& label);

    const Catalog& mCatalog;
    QComboBox* mSource = nullptr;
    QStackedWidget* mPages = nullptr;
    QLineEdit* mKubeFile = nullptr;
    QLineEdit* mKubeconfig = nullptr;
    QLineEdit* mContext = nullptr;
    QLineEdit* mSlurmNodes = nullptr;
    QLineEdit* mSlurmJobs = nullptr;
    QComboBox* mTenants = nullptr;
    QLineEdit* mTenantLabel = nullptr;
    QLineEdit* mGpuMap = nullptr;
    QLineEdit* mName = nullptr;
    QLabel* mMessage = nullptr;
    QProgressBar* mBusy = nullptr;
    QPushButton* mImport = nullptr;
    QPushButton* mCancel = nullptr;
    std::optional<Scenario> mScenario;
    QString mDescription;
    bool mCancelled = false;
    document::LatestOnly<Outcome> mRunner{[this](std::optional<Outcome> o) { finished(std::move(o)); }};
};

} // namespace gp::ui
