// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#pragma once

#include <QKeySequence>
#include <QObject>
#include <QString>

#include <map>

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

private:
    std::map<ActionId, QAction*> mActions;
    std::map<ActionId, bool> mEdits;
};

} // namespace gp::ui
