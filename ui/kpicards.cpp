// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#include "kpicards.h"
#include "model/planningtarget.h"
#include "sim/planresults.h"
#include "textformat.h"

#include <QFrame>
#include <QGridLayout>
#include <QLabel>
#include <QResizeEvent>
#include <QVBoxLayout>

#include <algorithm>

namespace gp::ui {

namespace {

using text::usd;
QString pct(double f) { return text::percent(f); }

} // namespace

KpiCards::KpiCards(QWidget* parent) : QWidget(parent)
{
    auto* layout = new QGridLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(6);
    const QString ref = tr("\n\nFormulas and sources: docs/model-reference.md.");
    addCard(tr("VRAM utilization"), tr("Memory the placed jobs need (weights, gradients, optimizer states, "
                                       "activations, KV cache, runtime) ÷ usable VRAM of all GPUs.") +
                                        ref);
    addCard(tr("Allocation"), tr("GPU share held by jobs (whole GPUs, MIG compute slices / 7, vGPU, replica "
                                 "and MPS-client shares) ÷ GPUs.") +
                                  ref);
    addCard(tr("Mean penalty"), tr("Mean over placed jobs of shared step time ÷ bare-metal step time − 1 "
                                   "(same job, same GPUs, unshared). Target: below %1 %.")
                                        .arg(PlanningTarget::kMaxMeanPenalty * 100.0) +
                                    ref);
    addCard(tr("Max penalty"), tr("The largest penalty of a placed job.") + ref);
    addCard(tr("$/month"), tr("GPUs × $/GPU-hour (price preset, scenario overrides, or ownership: capex ÷ "
                              "amortisation + TDP × PUE × $/kWh) × 730 h.") +
                               ref);
    addCard(tr("$ wasted/month"), tr("Idle (GPU share no job holds) + stranded (allocated memory no job uses) + "
                                     "overhead (GPU time the penalties burn).") +
                                      ref);
    addCard(tr("Unplaced jobs"), tr("Jobs the placement policy could not place whole; each says why in the "
                                    "outline.") +
                                     ref);
    addCard(tr("OOM-risk GPUs"), tr("GPUs without memory isolation (time-slicing, MPS without a limit) whose "
                                    "co-tenants' memory exceeds them.") +
                                     ref);
    addCard(tr("Serving SLO"), tr("Mean over serving jobs of the share of requests within their tenant's TTFT "
                                  "P99 objective times the share of token gaps within its ITL P99 objective "
                                  "(1 where a tenant sets none; 0 for a serving job not placed).") +
                                   ref);
    addCard(tr("P95 completion"), tr("The slowest training job's 95th-percentile completion time, from a quick "
                                     "Monte Carlo of the plan (%L1 trials: run-to-run jitter, co-tenant bursts, "
                                     "out-of-memory kills, link congestion, hardware interruptions at the Llama 3 "
                                     "rate); the report, slides and comparison show the same. Run Full Simulation "
                                     "or gpuplan-cli simulate for more trials.")
                                          .arg(sim::TrialCounts::kPlan) +
                                      ref);
}

QLabel* KpiCards::addCard(const QString& title, const QString& tooltip)
{
    auto* card = new QFrame(this);
    card->setFrameShape(QFrame::StyledPanel);
    card->setToolTip(tooltip);
    // The row reflows to fewer cards per row when narrow (resizeEvent): no card may force the
    // window wider than the screen.
    card->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    card->setMinimumWidth(40);
    auto* v = new QVBoxLayout(card);
    v->setContentsMargins(8, 4, 8, 4);
    auto* t = new QLabel(title, card);
    QFont small = t->font();
    small.setPointSizeF(small.pointSizeF() * 0.85);
    t->setFont(small);
    t->setForegroundRole(QPalette::PlaceholderText);
    auto* value = new QLabel(QStringLiteral("–"), card);
    QFont big = value->font();
    big.setPointSizeF(big.pointSizeF() * 1.4);
    big.setBold(true);
    value->setFont(big);
    v->addWidget(t);
    v->addWidget(value);
    mFrames.push_back(card);
    mCards.push_back({title, value});
    reflow(static_cast<int>(mFrames.size()));
    return value;
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
    // About 125 pixels a card (a value like "$139,693" in bold fits): as many per row as fit.
    const int fit = std::max(3, event->size().width() / 125);
    const int cards = static_cast<int>(mFrames.size());
    const int rows = (cards + std::min(fit, cards) - 1) / std::min(fit, cards);
    reflow((cards + rows - 1) / rows); // balanced rows: 10 = 10, 5 + 5, 4 + 3 + 3
}

void KpiCards::showEvaluation(const calc::Evaluation& ev)
{
    const calc::Kpis& k = ev.kpis;
    const QString values[] = {pct(k.vramUtilization),
                              pct(k.allocationRatio),
                              pct(k.meanPenalty),
                              pct(k.maxPenalty),
                              usd(k.costPerMonthUsd),
                              usd(k.wastePerMonth.total()),
                              QString::number(k.unplacedJobs),
                              QString::number(k.oomRiskGpus),
                              k.servingJobs > 0 ? pct(k.servingSloAttainment) : QStringLiteral("–")};
    for (std::size_t i = 0; i < mCards.size() && i < std::size(values); ++i)
        mCards[i].second->setText(values[i]);
    // Red where the value breaks a target or flags a problem.
    auto mark = [&](std::size_t i, bool bad) {
        mCards[i].second->setStyleSheet(bad ? QStringLiteral("color: #c0392b") : QString());
    };
    mark(0, k.vramUtilization < 0.8);
    mark(2, !PlanningTarget::penaltyMet(k.meanPenalty));
    mark(6, k.unplacedJobs > 0);
    mark(7, k.oomRiskGpus > 0);
    mark(8, k.servingJobs > 0 && k.servingSloAttainment < 0.99);
}

void KpiCards::showPrediction(double days)
{
    mCards.back().second->setText(days > 0 ? tr("%1 days").arg(days, 0, 'f', 1) : tr("–"));
}

QString KpiCards::valueOf(const QString& title) const
{
    for (const auto& [t, label] : mCards)
        if (t == title)
            return label->text();
    return {};
}

} // namespace gp::ui
