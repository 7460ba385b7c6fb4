// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#pragma once

#include "calc/evaluation.h"

#include <QWidget>

class QLabel;

namespace gp::ui {

/// The cluster KPIs as cards, each explaining its formula and sources in a tooltip
/// (DESIGN.md §5.5). A view: shows the latest Evaluation, holds no numbers of its own.
class KpiCards : public QWidget
{
    Q_OBJECT

public:
    explicit KpiCards(QWidget* parent = nullptr);
    void showEvaluation(const calc::Evaluation& evaluation);
    void showPrediction(double clusterP95Days);
    /// The value text of the card titled `title` (for tests and screenshots).
    QString valueOf(const QString& title) const;

    /// Cards per row now: all ten when the window is wide, fewer rows of them when narrow.
    int columns() const { return mColumns; }

protected:
    void resizeEvent(QResizeEvent* event) override;

private:
    QLabel* addCard(const QString& title, const QString& tooltip);
    void reflow(int columns);
    std::vector<std::pair<QString, QLabel*>> mCards;
    std::vector<QWidget*> mFrames;
    int mColumns = 0;
};

} // namespace gp::ui
