// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#pragma once

#include "io/clusterconfigwriter.h"
#include "model/issue.h"
#include "sim/planresults.h"

#include <QObject>
#include <QString>

#include <functional>
#include <memory>

class QMenu;
class QWidget;

namespace gp::ui {

class PresentationWindow;
class Workbench;

/// The workbench's exports and presentation (docs/export.md): the scenario JSON, the report,
/// slides, charts and tables, the cluster configuration and the full-screen deck. All of them
/// are drawn from the plan session's results (docs/architecture.md §4), which planResults()
/// waits for behind a progress dialog with Cancel; nothing is computed here.
class ExportController : public QObject
{
    Q_OBJECT

public:
    ExportController(Workbench& workbench, QWidget* window);

    /// Adds Export Scenario JSON, Present, Export Slides, Report, Charts and Tables, Cluster
    /// Configuration, DRA Objects, HAMi Requests and KAI Objects to the File menu.
    void addExportActions(QMenu* file);

    /// The open plan's complete results (the ones every view shows); while they are still
    /// being computed, waits for them behind a progress dialog with Cancel (null if cancelled).
    std::shared_ptr<const sim::PlanResults> planResults();
    /// Starts the full-screen presentation of the open scenario with `recommendation` on its
    /// last slide; returns the window (closed with Esc).
    PresentationWindow* present(const QString& recommendation, bool fullScreen = true);
    /// Writes the plan's sharing into `dir` as GPU Operator configuration, DRA objects (dir/dra),
    /// HAMi requests (dir/hami) or KAI Scheduler objects (dir/kai) (docs/export.md); false, with
    /// the reason in a message box, when it cannot.
    bool exportClusterConfig(const QString& dir, io::ClusterExportFormat format = io::ClusterExportFormat::GpuOperator);
    /// File > Export Report without its file dialog: the open plan's report, with the pages of
    /// its last Plan vs Measured comparison where one was made.
    Status exportReport(const QString& pdf);

private:
    /// Asks for a PDF path, waits for the plan's results, and lets `write` draw them there.
    void exportPdf(const QString& title, const QString& fileName, const QString& failed, const QString& done,
                   const std::function<Status(const sim::PlanResults&, const QString&)>& write);
    void exportJson();
    void exportCharts();
    /// Where the recommendation typed for the last slide is kept, per library scenario.
    QString recommendationKey() const;
    QString scenarioName() const;

    Workbench& mWorkbench;
    QWidget* mWindow;
};

} // namespace gp::ui
