// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#pragma once

#include "canvasoverlay.h"

#include <QLineEdit>
#include <QString>

#include <vector>

class QCompleter;
class QStringListModel;

namespace gp::ui {

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
