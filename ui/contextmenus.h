// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#pragma once

#include <QObject>
#include <QPoint>
#include <QString>

#include <string>

class QMenu;
class QWidget;

namespace gp::ui {

class CanvasNavigator;
class ParallelismDialog;
class CanvasView;
class EditController;
class PropertiesPanel;
class ResultsController;
class WorkloadsPanel;
class Workbench;

/// The right-click menus (docs/workbench.md, "Context menus"): on a node (explain the GPU under
/// the pointer, show its jobs, edit, sharing, duplicate, delete), a switch or link, empty
/// canvas (paste, arrange, fit, find), a job (edit, explain its penalty and cost, show it,
/// best placement, unpin, duplicate, delete) and a tenant (edit, show its jobs, delete with its
/// jobs). The entries the menus and toolbar offer too are the same actions (ActionRegistry);
/// every edit goes through the EditController, as from everywhere else.
class ContextMenus : public QObject
{
    Q_OBJECT

public:
    struct Parts
    {
        EditController* edits;
        ResultsController* results;
        CanvasNavigator* navigator;
        CanvasView* canvas;
        WorkloadsPanel* workloads;
        PropertiesPanel* properties;
    };
    ContextMenus(Workbench& workbench, const Parts& parts, QObject* parent);

    /// The menu for a canvas item (`id`, "" for empty canvas; `gpu` under the pointer or -1), or
    /// for a Workloads "job" or "tenant"; the caller owns it. Null when there is nothing to offer.
    QMenu* canvasMenu(const QString& id, int gpu);
    QMenu* workloadsMenu(const QString& kind, const QString& id);

private:
    void popup(QMenu* menu, const QPoint& globalPos);
    void showProperties();
    /// The window the menus' dialogs belong to.
    QWidget* window() const;
    /// A job's Best Parallelism dialog (training or serving), searching at once; nullptr when the
    /// job or its model shape or GPUs are unknown (said in a message box).
    ParallelismDialog* bestParallelism(const std::string& jobId);

    Workbench& mWorkbench;
    Parts mParts;
};

} // namespace gp::ui
