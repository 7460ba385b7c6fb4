// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#pragma once

#include "model/catalog.h"
#include "model/scenario.h"

#include <QDialog>

#include <optional>

class QComboBox;
class QLabel;
class QLineEdit;
class QStackedWidget;

namespace gp::ui {

/// File > Import Cluster… (issue 38; docs/cluster-import.md): which cluster to read (a kubectl JSON
/// file, the live cluster of a kubeconfig, Slurm's printouts or this host's Slurm), how tenants
/// are grouped, which catalog GPU a product string is; Import reads it through the same import
/// as `gpuplan-cli import-cluster` and accepts with the scenario, or shows why not and stays open.
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

    /// The imported scenario, once Import succeeded.
    const std::optional<Scenario>& scenario() const { return mScenario; }
    /// What was read, for the library revision's note ("Kubernetes file cluster.json").
    QString sourceDescription() const { return mDescription; }
    /// Runs the import with the fields as they are; true when it produced a scenario.
    bool runImport();

private:
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
    std::optional<Scenario> mScenario;
    QString mDescription;
};

} // namespace gp::ui
