// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#pragma once

#include <QColor>
#include <QGraphicsItem>
#include <QHash>
#include <QString>
#include <QStringList>

#include <optional>

#include <vector>

namespace gp::ui {

/// A node on the canvas: a view of one model node id (architecture.md §9.3). Draws its GPUs, how
/// each is shared (MIG instances at their slices, replicas, vGPUs, MPS clients), coloured by
/// the tenant using it, with a memory-fill bar; a red mark for out-of-memory risk. Zoomed out
/// it collapses to one rectangle coloured by how much of it is allocated. A slot whose job is
/// another job's noisiest neighbour carries an orange corner mark.
class NodeItem : public QGraphicsItem
{
public:
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

    QString mId, mName, mSubtitle;
    QStringList mNotes;
    std::vector<Gpu> mGpus;
};

/// A switch of the fabric on the canvas.
class SwitchItem : public QGraphicsItem
{
public:
    static constexpr double kWidth = 200.0;
    static constexpr double kHeight = 56.0;
    SwitchItem(QString id, QString name, QString subtitle);
    QString id() const { return mId; }
    void setLabels(QString name, QString subtitle);
    QRectF boundingRect() const override;
    void paint(QPainter* painter, const QStyleOptionGraphicsItem* option, QWidget* widget) override;

private:
    QString mId, mName, mSubtitle;
};

/// A link between two canvas items, coloured by its load (green → amber → red).
class LinkItem : public QGraphicsLineItem
{
public:
    LinkItem(QString id, QGraphicsItem* from, QGraphicsItem* to);
    QString id() const { return mId; }
    bool joins(const QGraphicsItem* item) const { return mFrom == item || mTo == item; }
    void setUtilization(double utilization);
    /// Follows the endpoints after they moved.
    void updateEnds();
    /// A band wider than the drawn line, so a thin link can still be clicked.
    QPainterPath shape() const override;
    QRectF boundingRect() const override;
    void paint(QPainter* painter, const QStyleOptionGraphicsItem* option, QWidget* widget) override;

private:
    QString mId;
    QGraphicsItem* mFrom;
    QGraphicsItem* mTo;
};

/// All links drawn by one item, batched by colour, when the view is zoomed out so far that
/// single links cannot be told apart (the link items are hidden then): thousands of lines in a
/// few drawLines calls instead of thousands of items (bench_canvas, docs/performance.md).
class LinkLayerItem : public QGraphicsItem
{
public:
    explicit LinkLayerItem(const QHash<QString, LinkItem*>* links) : mLinks(links)
    {
        setZValue(-1);
        setFlag(ItemUsesExtendedStyleOption); // for the exposed rectangle
    }
    QRectF boundingRect() const override { return mBounds; }
    void setBounds(const QRectF& bounds)
    {
        prepareGeometryChange();
        mBounds = bounds;
    }
    void paint(QPainter* painter, const QStyleOptionGraphicsItem* option, QWidget* widget) override;

private:
    const QHash<QString, LinkItem*>* mLinks;
    QRectF mBounds;
};

} // namespace gp::ui
