// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#pragma once

#include "document/topologyedits.h"
#include "model/sharing.h"

#include <QObject>
#include <QString>

#include <optional>
#include <string>

class QAction;
class QMenu;
class QWidget;

namespace gp::ui {

class CanvasScene;
class ScenarioTree;
class WorkloadsPanel;
class Workbench;

/// The Edit menu's changes to the open scenario (docs/workbench.md, "Editing"): jobs through
/// the Add Job dialog, the clipboard, duplicate, delete, fabric generation and sharing of the
/// selected nodes or of one GPU. The rules are the core's (document/commands.h); this class
/// finds what the user selected, pushes the rule's edit, and says why when the core refuses it.
class EditController : public QObject
{
    Q_OBJECT

public:
    EditController(Workbench& workbench, CanvasScene* scene, ScenarioTree* outline, WorkloadsPanel* workloads,
                   QWidget* window);

    /// Adds Add Job, Edit Job, Copy, Paste, Duplicate, Delete, Generate Fabric and the sharing
    /// submenu to the Edit menu.
    void addEditActions(QMenu* edit);
    /// The quick sharing settings of Edit > Set Sharing of Selected Nodes (Ctrl+1…4), for the
    /// canvas's context menu.
    const QList<QAction*>& sharingActions() const { return mSharingActions; }

    /// Sets the sharing of the nodes selected on the canvas or in the outline (one command).
    void setSharingOfSelection(const SharingConfig& sharing);
    /// Gives one GPU of a node its own sharing (one command); false, with the core's reason in
    /// a message box, when the scenario would not be valid.
    bool setSharingOfGpu(const QString& nodeId, int gpuIndex, const SharingConfig& sharing);
    /// Copies the canvas selection (nodes, switches, the links among them) to the clipboard.
    void copySelection();
    /// Pastes items from the clipboard with fresh ids, offset from the originals (one command).
    bool paste();
    /// Copies and pastes the selection in one step.
    void duplicateSelection();
    /// Del: deletes what the focused panel has selected — the canvas's items (one command), or
    /// the job selected in Workloads after asking; nothing that is selected somewhere else.
    void deleteSelection();
    /// Opens the Add Job dialog (with a preset chosen, "" for a custom model, and a pin when
    /// given); OK pushes one undoable edit.
    void addJob(const std::optional<QString>& preset = std::nullopt, const std::string& pinNode = {});
    /// Opens the job editor on a job; OK pushes one undoable edit.
    void editJob(const QString& jobId);
    /// Lays the canvas out as a layered fabric (Edit > Arrange as Fabric), one undo step, and
    /// frames it.
    bool arrangeFabric();
    /// Adds a generated fabric (one command); false, with the reason in a message box, when
    /// it cannot be generated or added.
    bool addFabric(const document::FabricSpec& spec);

Q_SIGNALS:
    /// The canvas should frame everything once the plan is shown again (a generated fabric).
    void framingRequested();

private:
    /// Adds items as one undoable step and selects them, as paste and duplicate do.
    void addAndSelect(const document::TopologyItems& items, const QString& text);

    Workbench& mWorkbench;
    CanvasScene* mScene;
    ScenarioTree* mOutline;
    WorkloadsPanel* mWorkloads;
    QWidget* mWindow;
    QList<QAction*> mSharingActions;
};

} // namespace gp::ui
