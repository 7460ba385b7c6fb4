// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#pragma once

#include <QKeySequence>
#include <QObject>
#include <QString>

#include <map>
#include <utility>

class QAction;

namespace gp::ui {

/// Every action of the workbench that more than one place offers (the Edit and View menus, the
/// toolbar, the context menus), by id: each QAction is made once, by the flow that owns what
/// it does, and every menu shows that one action (as Tiled's ActionManager and LibrePCB's
/// command set). A new action is an id here and one add() where its flow registers.
enum class ActionId
{
    Undo,
    Redo,
    AddJob,
    EditJob,
    Copy,
    Paste,
    Duplicate,
    Delete,
    GenerateFabric,
    ArrangeFabric,
    SharingExclusive,
    SharingPassthrough,
    SharingTimeSlicing,
    SharingMps,
    ZoomIn,
    ZoomOut,
    FitToView,
    FindOnCanvas,
    SizeCluster,
    // Actions on the subject of a context menu (ActionRegistry::subject()), made by the flow
    // that does them: the results (explain), the navigator (show), the properties panel (edit
    // its fields) and the EditController (every change).
    ExplainGpu,
    ShowJobsHere,
    EditProperties,
    EditTenant,
    ShowTenantJobs,
    DeleteTenant,
    EditThisJob,
    ExplainPenalty,
    ExplainCost,
    ShowJob,
    PlaceJobBest,
    BestParallelism,
    UnpinJob,
    DuplicateJob,
    DeleteJob,
};

/// What a context menu was opened on: a canvas item ("node", "switch", "link", with the GPU
/// under the pointer or -1), a Workloads "job" or "tenant", or empty canvas (no kind).
struct MenuSubject
{
    QString kind;
    QString id;
    int gpu = -1;
};

/// The workbench window's actions by ActionId (one registry per window).
class ActionRegistry : public QObject
{
    Q_OBJECT

public:
    explicit ActionRegistry(QObject* parent = nullptr) : QObject(parent) {}

    /// Makes the action `id` (once: a second add of the same id is a programming error) with
    /// its text and shortcut. An `edits` action changes the plan: it is disabled while the
    /// document is read-only (setEditingEnabled).
    QAction* add(ActionId id, const QString& text, const QKeySequence& shortcut = {}, bool edits = true);
    /// The action `id`; null before its flow registered it.
    QAction* action(ActionId id) const;
    /// Enables or disables every action that changes the plan.
    void setEditingEnabled(bool enabled);
    /// What the subject actions act on: set by the context menu before it shows them.
    void setSubject(MenuSubject subject) { mSubject = std::move(subject); }
    const MenuSubject& subject() const { return mSubject; }

private:
    MenuSubject mSubject;
    std::map<ActionId, QAction*> mActions;
    std::map<ActionId, bool> mEdits;
};

} // namespace gp::ui
