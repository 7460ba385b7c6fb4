// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#include "kpicards.h"

#include "calc/kpiregistry.h"
#include "model/format.h"
#include "sim/planresults.h"

#include <QFrame>
#include <QGridLayout>
#include <QLabel>
#include <QMouseEvent>
#include <QResizeEvent>

#include <algorithm>

namespace gp::ui {

KpiCards::KpiCards(QWidget* parent) : QWidget(parent)
{
    auto* layout = new QGridLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(6);
    const QString ref = tr("\n\nFormulas and sources: docs/model-reference.md.");
    for (const calc::KpiSpec& spec : calc::kpiRegistry()) {
        if (spec.cardLabel.empty())
            continue;
        QString tip = QString::fromStdString(spec.explanation);
        if (spec.key == "p95_completion_days")
            tip +=
                tr(" %L1 trials; Run Full Simulation or gpuplan-cli simulate for more.").arg(sim::TrialCounts::kPlan);
        addCard(spec, tip + ref);
    }
}

void KpiCards::addCard(const calc::KpiSpec& spec, const QString& tooltip)
{
    auto* card = new QFrame(this);
    card->setObjectName(QString::fromStdString("kpi-" + spec.key));
    card->setFrameShape(QFrame::StyledPanel);
    card->setToolTip(tooltip + tr("\nClick for how this plan's value is computed."));
    card->setProperty("baseToolTip", card->toolTip());
    card->setCursor(Qt::PointingHandCursor);
    card->installEventFilter(this);
    // The row reflows to fewer cards per row when narrow (resizeEvent): no card may force the
    // window wider than the screen.
    card->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    card->setMinimumWidth(40);
    // Title above value; in compact mode (setCompact) the title moves beside the value.
    auto* grid = new QGridLayout(card);
    grid->setContentsMargins(8, 4, 8, 4);
    grid->setHorizontalSpacing(6);
    grid->setVerticalSpacing(0);
    auto* t = new QLabel(QString::fromStdString(spec.cardLabel), card);
    t->setObjectName("title");
    QFont small = t->font();
    small.setPointSizeF(small.pointSizeF() * 0.85);
    t->setFont(small);
    t->setForegroundRole(QPalette::PlaceholderText);
    auto* value = new QLabel(QStringLiteral("–"), card);
    value->setObjectName("value");
    grid->addWidget(t, 0, 0);
    mFrames.push_back(card);
    mCards.push_back({&spec, t, value});
    placeValue(mCards.size() - 1);
    reflow(static_cast<int>(mFrames.size()));
}

void KpiCards::placeValue(std::size_t i)
{
    auto* grid = static_cast<QGridLayout*>(mFrames[i]->layout());
    QLabel* value = mCards[i].value;
    QFont big = mCards[i].title->font();
    big.setPointSizeF(big.pointSizeF() / 0.85 * (mCompact ? 1.1 : 1.4));
    big.setBold(true);
    value->setFont(big);
    grid->removeWidget(value);
    if (mCompact)
        grid->addWidget(value, 0, 1, Qt::AlignRight | Qt::AlignVCenter);
    else
        grid->addWidget(value, 1, 0);
    grid->setContentsMargins(8, mCompact ? 2 : 4, 8, mCompact ? 2 : 4);
}

void KpiCards::setCompact(bool compact)
{
    if (compact == mCompact) // every window resize asks
        return;
    mCompact = compact;
    for (std::size_t i = 0; i < mCards.size(); ++i)
        placeValue(i);
    fitColumns(width());
}

void KpiCards::reflow(int columns)
{
    columns = std::max(1, columns);
    if (columns == mColumns)
        return;
    mColumns = columns;
    auto* grid = static_cast<QGridLayout*>(layout());
    for (QWidget* card : mFrames)
        grid->removeWidget(card);
    for (int i = 0; i < static_cast<int>(mFrames.size()); ++i)
        grid->addWidget(mFrames[static_cast<std::size_t>(i)], i / columns, i % columns);
}

void KpiCards::resizeEvent(QResizeEvent* event)
{
    QWidget::resizeEvent(event);
    fitColumns(event->size().width());
}

void KpiCards::fitColumns(int width)
{
    // About 125 pixels a card (a value like "$139,693" in bold fits), 165 when compact (title
    // and value side by side): as many per row as fit.
    const int fit = std::max(mCompact ? 2 : 3, width / (mCompact ? 165 : 125));
    const int cards = static_cast<int>(mFrames.size());
    if (cards == 0)
        return;
    const int rows = (cards + std::min(fit, cards) - 1) / std::min(fit, cards);
    reflow((cards + rows - 1) / rows); // balanced rows: 10 = 10, 5 + 5, 4 + 3 + 3
}

void KpiCards::showResults(const sim::PlanResults& results)
{
    const calc::Kpis& kpis = results.evaluation->kpis;
    const std::map<std::string, double> values = sim::kpiValues(results);
    // The cost's four parts (calc::costParts), the same words as the explanation, Compare, the
    // report and `summary`: they add up to the $/month card; the waste is three of them.
    QString parts;
    for (const calc::CostPart& part : calc::costParts())
        parts +=
            QString("\n  %1: %2")
                .arg(QString::fromUtf8(part.label), QString::fromStdString(fmt::usd(kpis.costBreakdown.*part.value)));
    const QString breakdown =
        tr("\n\nThis plan's cost, %1 a month:").arg(QString::fromStdString(fmt::usd(kpis.costPerMonthUsd))) + parts +
        tr("\nUnused memory on the jobs' GPUs: %1 GiB (%2 of allocated), headroom, not waste.")
            .arg(QString::fromStdString(fmt::gib(kpis.unusedMemoryBytes)),
                 QString::fromStdString(fmt::percent(kpis.unusedMemoryFraction())));
    for (std::size_t i = 0; i < mCards.size(); ++i) {
        const calc::KpiSpec* spec = mCards[i].spec;
        if (spec->key == "cost_per_month_usd" || spec->key == "waste_per_month_usd")
            mFrames[i]->setToolTip(mFrames[i]->property("baseToolTip").toString() + breakdown);
    }
    for (const auto& [spec, title, label] : mCards) {
        const auto v = values.find(spec->key);
        // No value: not simulated, no serving job, or no training job (a P95 of 0 days).
        const bool shown = v != values.end() && spec->appliesTo(kpis) && (spec->unit != "days" || v->second > 0);
        // Without a value, the reason where it is worth saying ("n/a (no objective)"), in grey.
        const QString noValue = QString::fromStdString(spec->noValue(kpis));
        label->setText(shown               ? QString::fromStdString(calc::formatKpiText(*spec, v->second))
                       : noValue.isEmpty() ? QStringLiteral("–")
                                           : noValue);
        // Red where the value breaks a target or flags a problem.
        label->setStyleSheet(spec->isFlagged(kpis)          ? QStringLiteral("color: #c0392b")
                             : !shown && !noValue.isEmpty() ? QStringLiteral("color: #7f8c8d")
                                                            : QString());
    }
}

bool KpiCards::eventFilter(QObject* watched, QEvent* event)
{
    if (event->type() == QEvent::MouseButtonRelease && static_cast<QMouseEvent*>(event)->button() == Qt::LeftButton)
        for (std::size_t i = 0; i < mFrames.size(); ++i)
            if (mFrames[i] == watched) {
                Q_EMIT explainRequested(QString::fromStdString(mCards[i].spec->key));
                return true;
            }
    return QWidget::eventFilter(watched, event);
}

QString KpiCards::valueOf(const QString& key) const
{
    for (const auto& [spec, title, label] : mCards)
        if (spec->key == key.toStdString())
            return label->text();
    return {};
}

} // namespace gp::ui
