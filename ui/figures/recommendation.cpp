// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#include "recommendation.h"

#include "io/textformat.h"

#include "model/scenariodiff.h"

#include <QObject>

#include <algorithm>
#include <cmath>

namespace gp::ui {

namespace {

double worstDeadlineMiss(const sim::SimulationResult* s)
{
    double worst = 0.0;
    if (s)
        for (const sim::TenantSimulation& t : s->tenants)
            worst = std::max(worst, t.deadlineMissProbability);
    return worst;
}

/// "1.2 % → 2.3 % (+1.1 pt)", the change green when it is for the better, red when for the worse.
QString percentChange(double now, double then, bool higherIsBetter)
{
    const double d = then - now;
    if (std::abs(d) < 5e-4)
        return QObject::tr("%1 → %2 (unchanged)").arg(text::percent(now), text::percent(then));
    const bool better = (d > 0) == higherIsBetter;
    return QString("%1 → %2 (<span style='color:%3'>%4%5</span>)")
        .arg(text::percent(now), text::percent(then), better ? "#2e7d32" : "#c62828", d > 0 ? "+" : "−",
             text::q(fmt::points(std::abs(d))));
}

} // namespace

PlanRecommendation recommend(const sim::PlanResults& current, const sim::PlanResults& recommended)
{
    PlanRecommendation r;
    r.currentName = text::q(current.scenario->name);
    r.recommendedName = text::q(recommended.scenario->name);
    Scenario renamed = *recommended.scenario; // the names differ by design; the page names both
    renamed.name = current.scenario->name;
    for (const std::string& line : diffScenarios(*current.scenario, renamed))
        r.changes << text::q(line);
    const calc::Kpis& a = current.evaluation->kpis;
    const calc::Kpis& b = recommended.evaluation->kpis;
    r.costNowUsd = a.costPerMonthUsd;
    r.costThenUsd = b.costPerMonthUsd;
    r.savingsPerMonthUsd = a.costPerMonthUsd - b.costPerMonthUsd;
    r.meanPenaltyNow = a.meanPenalty;
    r.meanPenaltyThen = b.meanPenalty;
    r.maxPenaltyNow = a.maxPenalty;
    r.maxPenaltyThen = b.maxPenalty;
    r.vramNow = a.vramUtilization;
    r.vramThen = b.vramUtilization;
    r.outsideSlaNow = a.unplacedJobs + a.slaViolations;
    r.outsideSlaThen = b.unplacedJobs + b.slaViolations;
    r.p95DaysNow = current.simulation ? current.simulation->clusterP95Days : 0.0;
    r.p95DaysThen = recommended.simulation ? recommended.simulation->clusterP95Days : 0.0;
    r.deadlineMissNow = worstDeadlineMiss(current.simulation.get());
    r.deadlineMissThen = worstDeadlineMiss(recommended.simulation.get());
    return r;
}

QString recommendationPageHtml(const PlanRecommendation& r, int maxChanges)
{
    QString html = QObject::tr("<h2>Recommended: %1 instead of %2</h2>")
                       .arg(r.recommendedName.toHtmlEscaped(), r.currentName.toHtmlEscaped());
    const double save = r.savingsPerMonthUsd;
    if (std::abs(save) < 0.5)
        html +=
            QObject::tr("<p><b>What it saves:</b> nothing per month: both cost %1.</p>").arg(text::usd(r.costNowUsd));
    else if (save > 0)
        html += QObject::tr("<p><b>What it saves:</b> <span style='color:#2e7d32'>%1 per month</span> (%2 a year, "
                            "%3 of today's cost): %4 → %5.</p>")
                    .arg(text::usd(save), text::usd(save * 12), text::percent(save / r.costNowUsd),
                         text::usd(r.costNowUsd), text::usd(r.costThenUsd));
    else
        html += QObject::tr("<p><b>What it saves:</b> nothing — <span style='color:#c62828'>it costs %1 more per "
                            "month</span> (%2 a year): %3 → %4.</p>")
                    .arg(text::usd(-save), text::usd(-save * 12), text::usd(r.costNowUsd), text::usd(r.costThenUsd));
    html += QObject::tr("<p><b>What it costs in penalty:</b> mean penalty %1; largest penalty %2; jobs unplaced or "
                        "outside their SLA %3 → %4. VRAM utilization %5.</p>")
                .arg(percentChange(r.meanPenaltyNow, r.meanPenaltyThen, false),
                     percentChange(r.maxPenaltyNow, r.maxPenaltyThen, false))
                .arg(r.outsideSlaNow)
                .arg(r.outsideSlaThen)
                .arg(percentChange(r.vramNow, r.vramThen, true));
    html += QObject::tr("<p><b>What it costs in predictability:</b> the slowest job's P95 completion %1 → %2; the "
                        "largest chance that a tenant misses its deadline %3 → %4.</p>")
                .arg(text::days(r.p95DaysNow), text::days(r.p95DaysThen), text::percent(r.deadlineMissNow),
                     text::percent(r.deadlineMissThen));
    html += QObject::tr("<p><b>What changes</b> (%n change(s)):</p><ul>", nullptr, static_cast<int>(r.changes.size()));
    for (int i = 0; i < r.changes.size() && i < maxChanges; ++i)
        html += "<li>" + r.changes[i].toHtmlEscaped() + "</li>";
    if (r.changes.size() > maxChanges)
        html += QObject::tr("<li><i>and %1 more</i></li>").arg(r.changes.size() - maxChanges);
    if (r.changes.isEmpty())
        html += QObject::tr("<li>nothing: the plans are the same</li>");
    return html + "</ul>";
}

} // namespace gp::ui
