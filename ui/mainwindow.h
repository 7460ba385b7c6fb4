// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#pragma once

#include "calc/evaluation.h"
#include "document/document.h"
#include "document/topologyedits.h"
#include "model/catalog.h"
#include "model/issue.h"
#include "sim/planresults.h"
#include "store/scenariolibrary.h"

#include <QMainWindow>

#include <functional>
#include <memory>
#include <optional>

class QLabel;
class QUndoView;

namespace gp::document {
class Autosaver;
}

namespace gp::ui {

class CanvasScene;
class CanvasView;
class EvaluationRunner;
class Inspector;
class PropertiesPanel;
class RecoveryBar;
class KpiCards;
class LibraryPanel;
class ResultsCharts;
class ScenarioTree;
class WorkloadsPanel;

/// Issues as lines for a message box, at most `max` of them.
QString issuesText(const Issues& issues, int max = 20);

/// The workbench shell: library dock, scenario outline with its inventory, menus, undo.
class MainWindow : public QMainWindow
{
    Q_OBJECT

public:
    MainWindow(Catalog catalog, std::unique_ptr<store::ScenarioLibrary> library, QWidget* parent = nullptr);
    ~MainWindow() override;

    /// Opens a library scenario; shows why in a message box when it cannot.
    bool openFromLibrary(qint64 scenarioId);
    /// Lists a library scenario's revisions (number, time, note, $/month) in a dialog whose
    /// Open button opens the chosen one read-only.
    void showRevisions(qint64 scenarioId);
    /// Opens one revision of a library scenario read-only (until saved as a new scenario).
    bool openRevision(qint64 scenarioId, int revision);
    /// Opens the first scenario of the library, if any.
    void openFirst();
    const document::Document* currentDocument() const { return mDocument.get(); }
    document::Document* currentDocument() { return mDocument.get(); }
    /// Sets the sharing of the nodes selected in the outline, as one undoable command.
    void setSharingOfSelection(const SharingConfig& sharing);
    /// Gives one GPU of a node its own sharing (one undoable command); false, with the core's
    /// reason in a message, when the scenario would not be valid (a pin to a MIG instance
    /// that the new layout lacks, say).
    bool setSharingOfGpu(const QString& nodeId, int gpuIndex, const SharingConfig& sharing);
    /// The open plan's complete results (the ones every view shows); while they are still
    /// being computed, waits for them behind a progress dialog with Cancel (null if cancelled).
    std::shared_ptr<const sim::PlanResults> planResults();
    /// The plan session: the open plan's results, computed in the background.
    EvaluationRunner* session() const { return mRunner.get(); }
    const KpiCards* kpiCards() const { return mKpis; }
    const ScenarioTree* outline() const { return mTree; }
    CanvasScene* canvasScene() const { return mScene; }
    CanvasView* canvasView() const { return mCanvas; }
    WorkloadsPanel* workloads() const { return mWorkloads; }
    Inspector* inspector() const { return mInspector; }
    PropertiesPanel* properties() const { return mProperties; }
    store::ScenarioLibrary* library() const { return mLibrary.get(); }
    ResultsCharts* charts() const { return mCharts; }
    /// Turns a finished drag on the canvas into one move command.
    void commitCanvasDrag();
    /// Adds a node or switch from a palette key ("node:dgx-h100") at a scene position.
    void addFromTemplate(const QString& key, QPointF scenePos);
    /// Pins a job to the node (GPU, MIG instance) under a scene position; false, with the
    /// reason in the status bar, when the pin would not be valid.
    bool pinJobAt(const QString& jobId, QPointF scenePos);
    /// Links two nodes or switches; the bandwidth is what the ports at both ends carry.
    void addLink(const QString& fromId, const QString& toId);
    /// Copies the canvas selection (nodes, switches, the links among them) to the clipboard.
    void copySelection();
    /// Pastes items from the clipboard with fresh ids, offset from the originals (one command).
    bool paste();
    /// Copies and pastes the selection in one step.
    void duplicateSelection();
    /// Opens the Add Job dialog (with a preset chosen, "" for a custom model, and a pin when
    /// given); OK pushes one undoable edit.
    void addJob(const std::optional<QString>& preset = std::nullopt, const std::string& pinNode = {});
    /// Opens the job editor on a job; OK pushes one undoable edit.
    void editJob(const QString& jobId);
    /// Starts a blank, unsaved scenario (asks first about unsaved changes when `ask`).
    bool newScenario(bool ask = true);
    /// Saves the document as a new library scenario named `name` (a variant of the open one).
    bool saveAsNewScenario(const QString& name);
    /// Saves the document as a new revision of its library scenario with `note`
    /// (as a new scenario when it is not in the library yet).
    bool saveRevision(const QString& note);
    /// Shows a dock by its title, or a results tab by its label (raising the Results dock).
    bool raisePanel(const QString& name);
    /// Opens the comparison of two to four library scenarios (non-modal); null, with the
    /// reason in a message box, when one cannot be read.
    class CompareDialog* compareScenarios(const QList<qint64>& ids);
    /// Compares two to four revisions of one library scenario (non-modal), each named
    /// "<name> (revision N)"; null when one cannot be read.
    class CompareDialog* compareRevisions(qint64 scenarioId, const QList<int>& revisions);
    /// Saves a copy of a library scenario as a new scenario named "<name> (variant)"; its id.
    std::optional<qint64> duplicateScenario(qint64 id);
    bool renameScenario(qint64 id, const QString& name);
    bool setScenarioTags(qint64 id, const QStringList& tags);
    /// Deletes a library scenario and its revisions; asks first when `ask`. The open document
    /// stays open (unsaved) if it was that scenario.
    bool deleteScenario(qint64 id, bool ask = true);
    /// Starts the full-screen presentation of the open scenario with `recommendation` on its
    /// last slide; returns the window (closed with Esc).
    class PresentationWindow* present(const QString& recommendation, bool fullScreen = true);
    /// Writes the GPU Operator configuration of the plan into `dir` (docs/export.md); the
    /// error text, empty on success.
    QString exportClusterConfig(const QString& dir);
    /// Library ids of recently opened scenarios, newest first (kept in QSettings).
    QList<qint64> recentScenarios() const;
    /// Deletes the items selected on the canvas (one command).
    void deleteSelection();
    /// Adds a generated fabric (one command); returns the error text, empty on success.
    QString addFabric(const document::FabricSpec& spec);

    /// Offers the autosaved drafts that crashed or killed sessions left in the library in a
    /// banner above the canvas; returns how many there are.
    int offerRecovery();
    /// Opens an orphaned draft as unsaved work (asking first about unsaved changes when
    /// `ask`); the draft then belongs to this session. False, with the reason, when it cannot.
    bool restoreDraft(const QString& session, bool ask = true);
    /// Deletes an orphaned draft (asks first when `ask`).
    bool discardDraft(const QString& session, bool ask = true);
    document::Autosaver* autosaver() const { return mAutosaver.get(); }
    const RecoveryBar* recoveryBar() const { return mRecovery; }

protected:
    void closeEvent(QCloseEvent* event) override;

private:
    /// Compares library scenarios (latest revision, or the one given), two to four.
    class CompareDialog* compareLibrary(const QList<std::pair<qint64, std::optional<int>>>& refs);
    /// True when the open document may be edited; a read-only revision says why in the status bar.
    bool editable();
    /// Pushes a rule's edit onto the document, or shows the core's reasons under `refusal`
    /// (in the status bar, or a message box when `dialog`); whether it was pushed.
    bool pushEdit(Result<document::Edit> edit, const QString& refusal, bool dialog = false);
    /// Brings the views in line with what an edit, undo or redo changed.
    void documentChanged(const document::Changes& changes);
    /// Enables or disables every way of editing, for a read-only revision.
    void setEditingEnabled(bool enabled);
    /// Adds items as one undoable step and selects them, as paste and duplicate do.
    void addAndSelect(const document::TopologyItems& items, const QString& text);
    void createActions();
    /// The File menu's exports and Present (mainwindowexports.cpp).
    void addExportActions(QMenu* file);
    /// Asks for a PDF path, waits for the plan's results, and lets `write` draw them there.
    void exportPdf(const QString& title, const QString& fileName, const QString& failed, const QString& done,
                   const std::function<QString(const sim::PlanResults&, const QString&)>& write);
    /// Where the recommendation typed for the last slide is kept, per library scenario.
    QString recommendationKey() const;
    void setDocument(std::unique_ptr<document::Document> doc);
    void refreshView();
    void showEvaluation(const calc::Evaluation& evaluation);
    void updateTitle();
    bool maybeSave();
    void importJson();
    void rememberRecent(qint64 id);
    void exportJson();
    bool saveToLibrary() { return saveRevision(tr("Saved from the workbench")); }

    Catalog mCatalog;
    std::unique_ptr<store::ScenarioLibrary> mLibrary;
    std::unique_ptr<document::Document> mDocument;
    LibraryPanel* mLibraryPanel;
    ScenarioTree* mTree;
    QLabel* mSummary;
    KpiCards* mKpis;
    CanvasScene* mScene;
    CanvasView* mCanvas;
    WorkloadsPanel* mWorkloads;
    Inspector* mInspector;
    PropertiesPanel* mProperties;
    QUndoView* mHistory;
    ResultsCharts* mCharts;
    // Declared after mCatalog and mLibrary, which they use: destroyed before them.
    std::unique_ptr<EvaluationRunner> mRunner;
    std::unique_ptr<document::Autosaver> mAutosaver;
    RecoveryBar* mRecovery;
    bool mFitPending = false; ///< frame the canvas once the new document's first evaluation is shown
    QMenu* mEditMenu = nullptr;
    QAction* mUndo = nullptr;
    QAction* mRedo = nullptr;
};

} // namespace gp::ui
