// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#pragma once

#include <QObject>
#include <QPointF>
#include <QString>

#include <string>

namespace gp::ui {

class CanvasScene;
class Workbench;

/// What the canvas tools change in the open document (docs/architecture.md §3): each finished
/// gesture becomes one rule from document/commands.h, pushed onto the document, or refused with
/// the core's reason as a status message. The tools call it; no window is involved.
class CanvasEditor : public QObject
{
    Q_OBJECT

public:
    CanvasEditor(Workbench& workbench, CanvasScene& scene, QObject* parent = nullptr);

    /// The items a drag moved, snapped to the grid, as one move command.
    void commitDrag();
    /// Adds a node or switch from a palette key ("node:dgx-h100", "switch:qm9700") at a scene
    /// position, snapped to the grid. A job template ("job:<preset>") asks for the Add Job
    /// dialog instead (jobTemplateDropped), pinned to the node under the position if any.
    void addFromTemplate(const QString& key, QPointF scenePos);
    /// Pins a job to the node (GPU, MIG instance) under a scene position; false, with the
    /// reason as a status message, when the pin would not be valid.
    bool pinJobAt(const QString& jobId, QPointF scenePos);
    /// Links two nodes or switches; the bandwidth is what the ports at both ends carry.
    bool addLink(const QString& fromId, const QString& toId);

Q_SIGNALS:
    /// A job template was dropped: the Add Job dialog with `preset`, pinned to `node` ("" = none).
    void jobTemplateDropped(const QString& preset, const std::string& node);

private:
    Workbench& mWorkbench;
    CanvasScene& mScene;
};

} // namespace gp::ui
