// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#pragma once

#include "actionregistry.h"
#include "document/edit.h"
#include "model/catalog.h"
#include "store/scenariolibrary.h"
#include "workbench.h"

#include <QMainWindow>

#include <memory>

class QLabel;
class QUndoView;

namespace gp::document {
class Autosaver;
class PlanSession;
} // namespace gp::document

namespace gp::ui {

class CanvasScene;
class CanvasView;
class EditController;
class ExportController;
class Inspector;
class KpiCards;
class LibraryController;
class LibraryPanel;
class PlanController;
class PlanSummary;
class PropertiesPanel;
class RecoveryBar;
class ReplayDialog;
class RecoveryController;
class ResultsCharts;
class ResultsController;
class ScenarioTree;
class StudyController;
class WorkloadsPanel;

/// The workbench window (docs/architecture.md §3): wiring only. It places the docks, views and
/// menus, keeps the views in step with the open document and its results, and hands every
/// flow to its controller — library, edits, exports, recovery, results — and every canvas
/// gesture to the canvas editor, all of which work through the shared Workbench.
class MainWindow : public QMainWindow
{
    Q_OBJECT

public:
    MainWindow(Catalog catalog, std::unique_ptr<store::ScenarioLibrary> library, QWidget* parent = nullptr);
    ~MainWindow() override;

    Workbench& workbench() const { return *mWorkbench; }
    const document::Document* currentDocument() const { return mWorkbench->document(); }
    document::Document* currentDocument() { return mWorkbench->document(); }
    store::ScenarioLibrary* library() const { return &mWorkbench->library(); }
    /// The plan session: the open plan's results, computed in the background.
    document::PlanSession* session() const { return &mWorkbench->session(); }
    document::Autosaver* autosaver() const { return &mWorkbench->autosaver(); }

    LibraryController* files() const { return mFiles; }
    EditController* edits() const { return mEdits; }
    ExportController* exports() const { return mExports; }
    PlanController* plans() const { return mPlans; }
    RecoveryController* recovery() const { return mRecoveryFlow; }

    const KpiCards* kpiCards() const { return mKpis; }
    const ScenarioTree* outline() const { return mTree; }
    CanvasScene* canvasScene() const { return mScene; }
    CanvasView* canvasView() const { return mCanvas; }
    WorkloadsPanel* workloads() const { return mWorkloads; }
    Inspector* inspector() const { return mInspector; }
    PropertiesPanel* properties() const { return mProperties; }
    ResultsCharts* charts() const { return mCharts; }
    class CanvasNavigator* navigator() const { return mNavigator; }
    const RecoveryBar* recoveryBar() const { return mRecovery; }
    /// The live library's banner above the canvas (a teammate saved the open scenario).
    class LiveLibrary* liveLibrary() const { return mLive; }

    /// Shows a dock by its title, or a results tab by its label (raising the Results dock);
    /// what `gpuplan --show NAME` asks for.
    bool raisePanel(const QString& name);
    /// Shows the welcome panel over the canvas (first start, Help > Welcome); it offers the
    /// library's first scenarios, a blank plan, an import and the user guide.
    class WelcomePanel* showWelcome();
    /// Results > Placement Replay: the trace replay's dialog (one per window, kept open).
    ReplayDialog* placementReplay() const;
    /// File > Connect to Team Library…: a workbench window of its own on `library` (the one the
    /// connect dialog opened), its first scenario open; null for none.
    MainWindow* openLibraryWindow(std::unique_ptr<store::ScenarioLibrary> library);
    /// Results > Open Sweep…: a sweep's output folder as charts and points (docs/sweeps.md); null,
    /// with the reason in a message box, when the folder is not one.
    class SweepDialog* openSweep(const QString& folder);
    StudyController* studies() const { return mStudies; }

    /// Below this window height (a 1366×768 screen) the summary and KPI cards go compact so
    /// the canvas keeps its height.
    static constexpr int kCompactHeight = 900;

protected:
    void closeEvent(QCloseEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;

private:
    void createDocks();
    void createActions();
    /// Adds the registry's actions `ids` to a menu or toolbar, in order.
    void fillMenu(QWidget* menu, const std::vector<ActionId>& ids);
    /// Points the undo history and the title at the document the workbench opened.
    void documentReplaced();
    void updateTitle();
    /// The status bar's calibration profile, and the values of it the last evaluation could not use.
    void updateCalibrationStatus();

    std::unique_ptr<Workbench> mWorkbench;
    LibraryPanel* mLibraryPanel;
    ScenarioTree* mTree;
    PlanSummary* mSummary;
    KpiCards* mKpis;
    CanvasScene* mScene;
    CanvasView* mCanvas;
    WorkloadsPanel* mWorkloads;
    Inspector* mInspector;
    PropertiesPanel* mProperties;
    QUndoView* mHistory;
    ResultsCharts* mCharts;
    RecoveryBar* mRecovery;
    class LiveLibrary* mLive = nullptr;
    LibraryController* mFiles;
    EditController* mEdits;
    ExportController* mExports;
    PlanController* mPlans;
    StudyController* mStudies;
    RecoveryController* mRecoveryFlow;
    ResultsController* mResults = nullptr;
    class CanvasNavigator* mNavigator = nullptr;
    class HelpController* mHelp = nullptr;
    QMenu* mEditMenu = nullptr;
    QLabel* mCalibration = nullptr; ///< the status bar's "Calibrated: NAME vN"
};

} // namespace gp::ui
