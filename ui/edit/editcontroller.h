// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#pragma once

#include "ui/actionregistry.h"

#include "calc/jobsearch.h"
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
class ParallelismDialog;
class ScenarioTree;
class WorkloadsPanel;
class Workbench;

/// The one door of the edits that menus, context menus and panels ask for (docs/workbench.md,
/// "Editing"): jobs through the Add Job dialog, the clipboard, duplicate, delete, fabric
/// generation, the sharing of nodes or of one GPU (the Edit menu, the canvas's menu and the
/// inspector alike), a job's placement, pin, copy, parallelism and deployment, a tenant's
/// removal. It registers the Edit menu's actions and the context menus' edits (ActionRegistry). The rules are the
/// core's (document/commands.h); this class finds what the user selected, pushes the rule's edit, and says why when the
/// core refuses it.
class EditController : public QObject
{
    Q_OBJECT

public:
    EditController(Workbench& workbench, CanvasScene* scene, ScenarioTree* outline, WorkloadsPanel* workloads,
                   QWidget* window);

    /// The quick sharing settings of Edit > Set Sharing of Selected Nodes (Ctrl+1…4).
    static constexpr ActionId kSharingActions[] = {ActionId::SharingExclusive, ActionId::SharingPassthrough,
                                                   ActionId::SharingTimeSlicing, ActionId::SharingMps};

    /// Sets the sharing of the nodes selected on the canvas or in the outline (one command).
    void setSharingOfSelection(const SharingConfig& sharing);
    /// Sets the sharing of these nodes (one command; the inspector's Apply).
    bool setSharingOfNodes(const QStringList& nodeIds, const SharingConfig& sharing);
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
    /// A palette entry activated (double-click, Enter): a job template opens Add Job with it; a
    /// node or switch is placed at the centre of `view`.
    void addFromPalette(const QString& key, class CanvasView* view);
    /// Opens the job editor on a job; OK pushes one undoable edit.
    void editJob(const QString& jobId);
    /// Lays the canvas out as a layered fabric (Edit > Arrange as Fabric), one undo step, and
    /// frames it.
    bool arrangeFabric();
    /// Adds a generated fabric (one command); false, with the reason in a message box, when
    /// it cannot be generated or added.
    bool addFabric(const document::FabricSpec& spec);

    /// A job's best placement by the core's search (one command).
    bool placeJobBest(const std::string& jobId);
    /// Removes a job's pin (one command).
    bool unpinJob(const std::string& jobId);
    /// Adds a copy of a job (one command).
    bool duplicateJob(const std::string& jobId);
    /// A job's parallelism and micro-batch (Best Parallelism's choice; one command).
    bool setJobParallelism(const std::string& jobId, const Parallelism& parallelism, int microBatch);
    /// A serving job's deployment (Best Deployment's choice; one command).
    bool setServingDeployment(const std::string& jobId, const calc::ServingConfig& deployment);
    /// Deletes a tenant with its jobs after asking (one command).
    void deleteTenant(const QString& tenantId);
    /// A job's Best Parallelism dialog (training or serving), searching at once; its choice is
    /// one command. Null when the job or its model shape or GPUs are unknown (said in a box).
    ParallelismDialog* bestParallelism(const std::string& jobId);

Q_SIGNALS:
    /// The canvas should frame everything once the plan is shown again (a generated fabric).
    void framingRequested();

private:
    void registerActions();
    /// The context menus' actions on a job or tenant (ActionRegistry::subject(); editsubjects.cpp).
    void registerSubjectActions();
    /// Adds items as one undoable step and selects them, as paste and duplicate do.
    void addAndSelect(const document::TopologyItems& items, const QString& text);

    Workbench& mWorkbench;
    CanvasScene* mScene;
    ScenarioTree* mOutline;
    WorkloadsPanel* mWorkloads;
    QWidget* mWindow;
};

} // namespace gp::ui
