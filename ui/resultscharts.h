#pragma once

#include "calc/evaluation.h"
#include "model/scenario.h"

#include <QTabWidget>

class QChart;

namespace gp::ui {

/// The trade-off charts of the latest evaluation (DESIGN.md §5.4: views, rebuilt from the
/// Evaluation): where the money goes (useful, idle, stranded, overhead), each job's memory
/// use of its GPU share against its penalty, and the busiest links.
class ResultsCharts : public QTabWidget
{
    Q_OBJECT

public:
    explicit ResultsCharts(QWidget* parent = nullptr);
    void showEvaluation(const Scenario& scenario, const calc::Evaluation& evaluation);
    QChart* costChart() const { return mCost; }
    QChart* tradeOffChart() const { return mTradeOff; }
    QChart* linksChart() const { return mLinks; }

private:
    QChart* mCost;
    QChart* mTradeOff;
    QChart* mLinks;
};

} // namespace gp::ui
