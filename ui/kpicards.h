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

private:
    QLabel* addCard(const QString& title, const QString& tooltip);
    std::vector<std::pair<QString, QLabel*>> mCards;
};

} // namespace gp::ui
