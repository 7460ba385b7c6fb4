// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#pragma once

#include "canvasitem.h"
#include "model/sharing.h"

#include <QColor>
#include <QGraphicsItem>
#include <QHash>
#include <QString>
#include <QStringList>

#include <optional>
#include <set>
#include <vector>

namespace gp::ui {

/// A zoomed-out node's colour for the share of its GPU slots in use (light grey to dark slate).
QColor summaryColour(double allocatedShare);

/// The badge a node shows for a sharing mode ("MIG", "vGPU", "TS", "MPS", "VM"; none for bare
/// metal) and its colour (the legend uses both).
QString sharingBadge(SharingMode mode);
QColor sharingBadgeColor(SharingMode mode);

/// A node on the canvas: a view of one model node id (architecture.md §9.3). Draws its GPUs, how
/// each is shared (MIG instances at their slices, replicas, vGPUs, MPS clients), coloured by
/// the tenant using it, with a memory-fill bar; a red mark for out-of-memory risk. Zoomed out
/// it collapses to one rectangle coloured by how much of it is allocated. A slot whose job is
/// another job's noisiest neighbour carries an orange corner mark.
class NodeItem : public QGraphicsItem
{
public:
    enum
    {
        Type = itemType(CanvasItemKind::Node)
    };
    int type() const override { return Type; }

    /// One slot of a GPU: where it sits across the GPU's width (MIG: its memory slices) and
    /// the colour of the tenant using it (invalid when free).
    struct Slot
    {
        double from = 0.0;
        double width = 1.0;
        QColor tenant;
        bool noisiest = false; ///< its job is the co-tenant that costs another job on this GPU most
    };
    struct Gpu
    {
        std::vector<Slot> slots;
        double memoryFill = 0.0; ///< used / usable
        bool oomRisk = false;
        QString description; ///< the tooltip over this GPU: its sharing, its jobs, its memory
    };

    /// Below this scale a node is drawn as one block coloured by use (at 0.2 a GPU cell is
    /// still about ten pixels wide, enough to see its slots' colours).
    static constexpr double kSummaryScale = 0.2;
    static constexpr double kWidth = 260.0;
    static constexpr double kHeight = 170.0;

    NodeItem(QString id, QString name, QString subtitle);
    QString id() const { return mId; }
    /// New name and subtitle (after an edit of the node); the decorations stay.
    void setLabels(QString name, QString subtitle);
    void setGpus(std::vector<Gpu> gpus);
    const std::vector<Gpu>& gpus() const { return mGpus; }
    /// Lines the tooltip adds below the name (which neighbour costs which job most).
    void setNotes(const QStringList& notes);
    /// The sharing modes of its GPUs, shown as badges in its header (zoomed out: a band).
    void setSharingModes(const std::vector<SharingMode>& modes);
    const std::vector<std::pair<QString, QColor>>& badges() const { return mBadges; }
    /// GPUs framed in the highlight colour (where a job the user asked about runs).
    void setHighlightedGpus(std::set<int> gpus);
    const std::set<int>& highlightedGpus() const { return mHighlighted; }
    /// A proposed plan's change to this node, drawn over it (the Optimize dialog's preview):
    /// `change` names its new sharing ("MIG 3g.40gb ×2"), `removed` greys it out and crosses it;
    /// both empty/false clear it.
    void setPreview(QString change, bool removed);
    const QString& previewChange() const { return mPreviewChange; }
    bool previewRemoved() const { return mPreviewRemoved; }
    /// Where the header above the GPUs puts its texts at a level of detail (`lod`: the view's
    /// scale), with the scene's font (nodeitemheader.cpp). Zoomed out, the texts grow in scene
    /// units so that they stay readable on screen (kMinNamePx, kMinTextPx: canvasitem.h), and what
    /// no longer fits the header is left out: the subtitle first, then the badges' letters (they
    /// stay as colours), then the name.
    struct Header
    {
        QFont nameFont, subtitleFont, badgeFont;
        QRectF name, subtitle;      ///< in item coordinates; empty: not drawn
        std::vector<QRectF> badges; ///< one per badge, in badges() order
        bool badgeLetters = false;  ///< the badges show their letters (else their colours only)
    };
    Header header(const QFont& sceneFont, double lod) const;
    /// The smallest scale at which a node shows its name (and its GPUs' slots): the canvas opens
    /// no smaller than this (CanvasView::fitReadable).
    static double readableScale(const QFont& sceneFont);
    /// The GPU (and slot within it) under a point in item coordinates, if any.
    std::optional<std::pair<int, int>> slotAt(QPointF local) const;
    /// Where GPU `index` is drawn, in item coordinates.
    static QRectF gpuCell(int index);

    QRectF boundingRect() const override;
    void paint(QPainter* painter, const QStyleOptionGraphicsItem* option, QWidget* widget) override;

protected:
    /// Over a GPU the tooltip describes that GPU; elsewhere the node.
    void hoverMoveEvent(QGraphicsSceneHoverEvent* event) override;

private:
    QString nodeTip() const;
    static void drawOomMark(QPainter* p, const QRectF& cell);
    /// The name, the subtitle (in `text`) and the badges, as header() lays them out.
    void drawHeader(QPainter* p, const Header& h, const QColor& text) const;
    void drawPreview(QPainter* p, const QRectF& r) const;

    QString mId, mName, mSubtitle;
    QStringList mNotes;
    std::vector<Gpu> mGpus;
    std::set<int> mHighlighted;
    std::vector<std::pair<QString, QColor>> mBadges;
    QString mPreviewChange;
    bool mPreviewRemoved = false;
};

} // namespace gp::ui
