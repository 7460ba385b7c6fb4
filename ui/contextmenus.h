// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#pragma once

#include "actionregistry.h"

#include <QObject>
#include <QPoint>
#include <QString>

#include <initializer_list>

class QMenu;

namespace gp::ui {

class CanvasView;
class WorkloadsPanel;
class Workbench;

/// The right-click menus (docs/workbench.md, "Context menus"): on a node (explain the GPU under
/// the pointer, show its jobs, edit, sharing, duplicate, delete), a switch or link, empty
/// canvas (paste, arrange, fit, find), a job (edit, explain its penalty and cost, show it,
/// best placement, best parallelism, unpin, duplicate, delete) and a tenant (edit, show its
/// jobs, delete with its jobs). Every entry is an action of the registry (ActionRegistry), made
/// by the flow that does it — the results explain, the navigator shows, the properties panel
/// edits fields, the EditController makes every change — and the menu only says what it acts
/// on (ActionRegistry::setSubject) and which entries apply.
class ContextMenus : public QObject
{
    Q_OBJECT

public:
    /// The menus of the canvas `canvas` and of the workloads panel `workloads`.
    ContextMenus(Workbench& workbench, CanvasView* canvas, WorkloadsPanel* workloads, QObject* parent);

    /// The menu for a canvas item (`id`, "" for empty canvas; `gpu` under the pointer or -1), or
    /// for a Workloads "job" or "tenant"; the caller owns it. Null when there is nothing to offer.
    QMenu* canvasMenu(const QString& id, int gpu);
    QMenu* workloadsMenu(const QString& kind, const QString& id);

private:
    void popup(QMenu* menu, const QPoint& globalPos);
    /// Adds the registry's actions `ids` to `menu`, enabled when `enabled`.
    void add(QMenu* menu, std::initializer_list<ActionId> ids, bool enabled = true);

    Workbench& mWorkbench;
    CanvasView* mCanvas;
    WorkloadsPanel* mWorkloads;
};

} // namespace gp::ui
