// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#pragma once

#include "model/sharing.h"

#include <QColor>
#include <QLineEdit>
#include <QPixmap>
#include <QTimer>
#include <QWidget>

#include <vector>

class QCompleter;
class QStringListModel;

namespace gp::ui {

class CanvasView;

/// A widget that floats over a corner of the canvas view's viewport and stays there when the
/// view resizes (the legend, the minimap, the search field).
class CanvasOverlay : public QWidget
{
    Q_OBJECT

public:
    CanvasOverlay(CanvasView* view, Qt::Corner corner);
    /// Puts it back into its corner (after its size changed).
    void place();

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;
    CanvasView* view() const { return mView; }
    /// Whether `event` on `watched` is the view's viewport resizing (compared by the pointer
    /// kept at construction: the filter also sees events while the view is being destroyed).
    bool viewportResized(const QObject* watched, const QEvent* event) const;

private:
    CanvasView* mView;
    QWidget* mViewport;
    Qt::Corner mCorner;
};

/// What the canvas's colours and marks mean: the tenants' colours, the sharing badges of the
/// modes the plan uses, the link loads, the out-of-memory sign, the noisiest-neighbour corner
/// and the highlight. A click on its title folds it to one line and back.
class CanvasLegend : public CanvasOverlay
{
    Q_OBJECT

public:
    struct Tenant
    {
        QString name;
        QColor color;
    };
    /// Until the user folds or unfolds it (remembered), a canvas shorter than this starts folded.
    static constexpr int kUnfoldedFrom = 480;
    explicit CanvasLegend(CanvasView* view);
    void setContent(std::vector<Tenant> tenants, std::vector<SharingMode> modes);
    bool collapsed() const { return mCollapsed; }
    void setCollapsed(bool collapsed);
    /// The text of every entry, in order (what a reader of the legend sees).
    QStringList entries() const;
    /// The title's rectangle, in the legend's coordinates (what a click folds it with).
    QRect titleRect() const;

protected:
    void paintEvent(QPaintEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
    bool eventFilter(QObject* watched, QEvent* event) override;
    void showEvent(QShowEvent* event) override;
    void hideEvent(QHideEvent* event) override;

private:
    /// Tells the view how much of its bottom the legend covers (fitAll keeps it free).
    void reserve();
    enum class Mark
    {
        Title,
        Swatch,
        Badge,
        Line,
        Sign,
        Corner,
        Frame
    };
    struct Entry
    {
        Mark mark;
        QColor color;
        QString text;
        QString badge;
        bool newLine = false; ///< starts a line (a group)
        QRect rect;           ///< laid out
    };
    void relayout();

    std::vector<Entry> mEntries;
    bool mCollapsed = false;
    bool mUserFolded = false; ///< until the user folds or unfolds it, a short view folds it
};

/// The whole canvas in miniature with the part in view framed; a click or drag there moves
/// the view. Shown while the view does not show everything (and View > Show Minimap is on).
class CanvasMinimap : public CanvasOverlay
{
    Q_OBJECT

public:
    explicit CanvasMinimap(CanvasView* view);
    /// Whether the user wants it (it still hides while everything is in view).
    void setWanted(bool wanted);
    bool wanted() const { return mWanted; }
    /// The picture is drawn again (debounced) after the scene changes.
    void refresh();
    /// The view's visible area in minimap pixels.
    QRectF visibleFrame() const;

protected:
    void paintEvent(QPaintEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;

private:
    void render();
    void updateShown();
    void centreViewAt(QPointF minimapPos);
    QPointF toScene(QPointF minimapPos) const;

    QPixmap mPicture;
    QRectF mSceneArea; ///< the scene rectangle the picture shows
    QRectF mContent;   ///< the nodes' and switches' bounds when last measured
    bool mContentStale = true;
    bool mPictureStale = true;
    QTimer mDebounce;
    bool mWanted = true;
};

/// Ctrl+F on the canvas: type part of a node, switch, job or tenant name, pick from the list,
/// Enter flies there. Esc closes it.
class CanvasSearch : public CanvasOverlay
{
    Q_OBJECT

public:
    struct Candidate
    {
        QString label; ///< "node-001 — node", "Llama 3 70B serving — job of Serving"
        QString kind;  ///< "node", "switch", "job", "tenant"
        QString id;
    };
    explicit CanvasSearch(CanvasView* view);
    void setCandidates(std::vector<Candidate> candidates);
    /// Shows the field, focused, its text selected.
    void open();
    QLineEdit* field() const { return mField; }
    /// The candidate the text names (an exact label, else the first whose label contains it).
    const Candidate* match(const QString& text) const;

Q_SIGNALS:
    void found(const QString& kind, const QString& id);

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    void go();

    QLineEdit* mField;
    QCompleter* mCompleter;
    QStringListModel* mModel;
    std::vector<Candidate> mCandidates;
};

} // namespace gp::ui
