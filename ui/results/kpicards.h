// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#pragma once

#include "calc/evaluation.h"
#include "calc/kpiregistry.h"
#include "sim/planresults.h"

#include <QWidget>

class QLabel;

namespace gp::ui {

/// The cluster KPIs as cards — the registry's KPIs that have a card label (calc/kpiregistry.h),
/// each explaining its formula and sources in a tooltip, red where it misses the target. A
/// view: shows the latest PlanResults, holds no numbers of its own. Card frames are named
/// "kpi-<key>".
class KpiCards : public QWidget
{
    Q_OBJECT

public:
    explicit KpiCards(QWidget* parent = nullptr);
    /// Every card from the plan's results (sim::kpiValues): the evaluation's KPIs and the P95
    /// of its Monte Carlo, worded as the report words them (calc::formatKpiText).
    void showResults(const sim::PlanResults& results);
    /// The value text of the card of the KPI `key` ("vram_utilization"; calc/kpiregistry.h).
    QString valueOf(const QString& key) const;

    /// Cards per row now: all ten when the window is wide, fewer rows of them when narrow.
    int columns() const { return mColumns; }
    /// Compact cards for short windows (1366×768): the title beside a smaller value, one line a
    /// card, so the canvas keeps its height.
    void setCompact(bool compact);
    bool compact() const { return mCompact; }

Q_SIGNALS:
    /// A card was clicked: explain the KPI `key`.
    void explainRequested(const QString& key);

protected:
    void resizeEvent(QResizeEvent* event) override;
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    void addCard(const calc::KpiSpec& spec, const QString& tooltip);
    void reflow(int columns);
    void fitColumns(int width);
    /// Card `i`'s value: its font, and below or beside its title (setCompact).
    void placeValue(std::size_t i);
    struct Card
    {
        const calc::KpiSpec* spec;
        QLabel* title;
        QLabel* value;
    };
    std::vector<Card> mCards;
    std::vector<QWidget*> mFrames;
    int mColumns = 0;
    bool mCompact = false;
};

} // namespace gp::ui
