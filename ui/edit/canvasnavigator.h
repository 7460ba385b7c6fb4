// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#pragma once

#include <QObject>
#include <QStringList>

#include <functional>

class QMenu;

namespace gp::ui {

class CanvasLegend;
class CanvasMinimap;
class CanvasScene;
class CanvasSearch;
class CanvasView;
class WorkloadsPanel;
class Workbench;

/// Finding one's way on a big canvas (docs/workbench.md, "Big clusters"): the legend, the
/// minimap, Ctrl+F search that flies to a node, switch, job or tenant, and the highlight of
/// the GPUs and links a job uses when it is chosen in Workloads or found.
class CanvasNavigator : public QObject
{
    Q_OBJECT

public:
    CanvasNavigator(Workbench& workbench, CanvasScene* scene, CanvasView* view, WorkloadsPanel* workloads,
                    QObject* parent);
    /// View > Find on Canvas (Ctrl+F), Show Legend, Show Minimap.
    void addViewActions(QMenu* view);
    CanvasLegend* legend() const { return mLegend; }
    CanvasMinimap* minimap() const { return mMinimap; }
    CanvasSearch* search() const { return mSearch; }
    /// Opens the search field with the open plan's names.
    void openSearch();
    /// How showing jobs moves the view: not at all, to frame them unless one is in view, or to
    /// frame them in any case.
    enum class Framing
    {
        Keep,
        IfHidden,
        Always
    };
    /// Highlights the jobs' GPUs and links and frames them as `framing` says; true when one of
    /// them runs somewhere.
    bool showJobs(const QStringList& jobIds, Framing framing);
    /// The same for every job of a tenant.
    bool showTenant(const QString& tenantId, Framing framing);

private:
    void found(const QString& kind, const QString& id);
    /// A checkable View action kept in QSettings under `key` (on by default), applied by `apply`.
    void addToggle(QMenu* view, const QString& text, const QString& key, const std::function<void(bool)>& apply);
    void updateLegend();

    Workbench& mWorkbench;
    CanvasScene* mScene;
    CanvasView* mView;
    CanvasLegend* mLegend;
    CanvasMinimap* mMinimap;
    CanvasSearch* mSearch;
};

} // namespace gp::ui
