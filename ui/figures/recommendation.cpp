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

PlanRecommendation recommend(const sim::PlanResults& current, const sim::PlanResults& recommended,
                             const Catalog& catalog)
{
    PlanRecommendation r;
    r.currentName = text::q(current.scenario->name);
    r.recommendedName = text::q(recommended.scenario->name);
    Scenario renamed = *recommended.scenario; // the names differ by design; the page names both
    renamed.name = current.scenario->name;
    for (const std::string& line : diffScenarios(*current.scenario, renamed, &catalog))
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

JobTrouble troubleOf(const calc::JobResult& j)
{
    if (!j.placed)
        return JobTrouble::NotPlaced;
    if (j.serving && j.serving->saturated)
        return JobTrouble::Saturated;
    if (!j.meetsSla)
        return JobTrouble::OutsideSla;
    return j.oomRisk ? JobTrouble::OomRisk : JobTrouble::None;
}

QString planFindings(const calc::Evaluation& ev)
{
    QStringList lines;
    for (const calc::JobResult& j : ev.jobs) {
        const QString name = QString::fromStdString(j.name.empty() ? j.id : j.name);
        switch (troubleOf(j)) {
        case JobTrouble::NotPlaced:
            lines << QObject::tr("Place %1: it is not placed (%2). Add GPUs it fits, or change its parallelism.")
                         .arg(name, QString::fromStdString(j.reason));
            break;
        case JobTrouble::Saturated:
            lines << QObject::tr("Give %1 more replicas or a higher concurrency cap: it is saturated, its queue grows "
                                 "without bound at %2 req/s.")
                         .arg(name)
                         .arg(j.serving->requestsPerS, 0, 'f', 2);
            break;
        case JobTrouble::OutsideSla:
            lines << QObject::tr("Bring %1 back within its tenant's SLA: penalty %2%3.")
                         .arg(name, text::percent(j.penalty),
                              j.perf.daysToComplete
                                  ? QObject::tr(", finishes in %1 days").arg(*j.perf.daysToComplete, 0, 'f', 1)
                                  : QString());
            break;
        case JobTrouble::OomRisk:
            lines << QObject::tr("Isolate %1's memory: its GPU is overcommitted (out-of-memory risk).").arg(name);
            break;
        case JobTrouble::None: break;
        }
    }
    const calc::Kpis& k = ev.kpis;
    lines << (k.meetsTarget ? QObject::tr("The plan meets the planning target (VRAM utilization %1, mean penalty %2).")
                            : QObject::tr("The plan misses the planning target (at least 80 % VRAM utilization, below "
                                          "3 % mean penalty): VRAM utilization %1, mean penalty %2."))
                 .arg(text::percent(k.vramUtilization), text::percent(k.meanPenalty));
    const calc::CostBreakdown& c = k.costBreakdown;
    std::vector<std::pair<double, QString>> parts{{c.idleUsd, QObject::tr("idle GPUs: fewer or smaller nodes")},
                                                  {c.overheadUsd, QObject::tr("sharing overhead: less sharing on "
                                                                              "the busiest GPUs")},
                                                  {c.strandedUsd, QObject::tr("stranded capacity: layouts the job "
                                                                              "mix can use")}};
    std::sort(parts.begin(), parts.end(), [](const auto& a, const auto& b) { return a.first > b.first; });
    if (k.costPerMonthUsd > 0 && parts.front().first > 0.005 * k.costPerMonthUsd)
        lines << QObject::tr("Of %1 a month, %2 does no work; the largest part is %3 (%4).")
                     .arg(text::usd(k.costPerMonthUsd), text::usd(c.waste()), text::usd(parts.front().first),
                          parts.front().second);
    return lines.join('\n');
}

} // namespace gp::ui
