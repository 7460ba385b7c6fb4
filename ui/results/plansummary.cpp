// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#include "plansummary.h"

#include "calc/inventory.h"
#include "calc/kpiexplain.h"
#include "calc/kpiregistry.h"
#include "io/textformat.h"
#include "model/planningtarget.h"

#include <map>

namespace gp::ui {

PlanSummary::PlanSummary(QWidget* parent) : QLabel(parent)
{
    setObjectName("PlanSummary");
    setTextFormat(Qt::RichText);
    setWordWrap(true);
    setMargin(6);
}

void PlanSummary::showEvaluation(const Scenario& s, const Catalog& catalog, const calc::Evaluation& ev)
{
    const calc::Inventory inv = calc::takeInventory(s, catalog);
    QString unpriced;
    if (!inv.unpricedGpus.empty())
        unpriced = tr(" (no price for %1 GPU model(s))").arg(inv.unpricedGpus.size());
    mName = QString::fromStdString(s.name).toHtmlEscaped();
    mDescription = QString::fromStdString(s.description).toHtmlEscaped();
    mFleet = tr("<b>%1</b> GPUs on %2 nodes · <b>%3</b> GiB usable VRAM · "
                "%4 tenants, %5 jobs asking for %6 GPUs%7 · target (%10) "
                "<b>%8</b> · evaluated in %9 ms")
                 .arg(inv.gpus)
                 .arg(inv.nodes)
                 .arg(text::grouped(inv.vramGiB))
                 .arg(inv.tenants)
                 .arg(inv.jobs)
                 .arg(inv.gpusRequested)
                 .arg(unpriced)
                 .arg(ev.kpis.meetsTarget ? tr("met") : tr("not met"))
                 .arg(ev.elapsedMs, 0, 'f', 1)
                 .arg(QString::fromStdString(PlanningTarget::text()).toHtmlEscaped());
    // The card that says why, for each cause (issue 36: a deadline miss pointed to Max penalty).
    std::map<std::string, const Tenant*> tenantOf;
    for (const Tenant& t : s.tenants)
        tenantOf[t.id] = &t;
    QStringList cards;
    for (const calc::JobResult& j : ev.jobs) {
        if (j.meetsSla)
            continue;
        const auto t = tenantOf.find(j.tenant);
        const bool pastPenalty =
            t != tenantOf.end() && j.placed && j.penalty * 100.0 > t->second->sla.maxPenaltyPct + 1e-9;
        const char* key = !j.placed     ? "unplaced_jobs"
                          : pastPenalty ? "max_penalty"
                          : j.serving   ? "serving_slo_attainment"
                                        : "p95_completion_days"; // finishes after its deadline
        if (const calc::KpiSpec* spec = calc::findKpi(key)) {
            const QString card = "<i>" + QString::fromStdString(spec->cardLabel) + "</i>";
            if (!cards.contains(card))
                cards << card;
        }
    }
    const QString where = cards.isEmpty() ? tr("see") : tr("click %1 or see").arg(cards.join(tr(" or ")));
    mSla = ev.kpis.slaViolations == 0 ? QString()
           : ev.kpis.slaViolations == 1
               ? tr("<b>1 job outside its tenant's SLA</b> — %1 the red row in Workloads for why.").arg(where)
               : tr("<b>%1 jobs outside their tenants' SLAs</b> — %2 the red rows in Workloads for why.")
                     .arg(ev.kpis.slaViolations)
                     .arg(where);
    render();
}

void PlanSummary::setCompact(bool compact)
{
    if (compact == mCompact)
        return;
    mCompact = compact;
    render();
}

void PlanSummary::render()
{
    const QString sla = mSla.isEmpty() ? QString() : QStringLiteral("<p style='color:#c0392b'>%1</p>").arg(mSla);
    if (mCompact) {
        setText(QStringLiteral("<p><b style='font-size:large'>%1</b> — %2</p>%3").arg(mName, mFleet, sla));
        setToolTip(mDescription);
    } else {
        setText(QStringLiteral("<h2>%1</h2><p>%2</p><p>%3</p>%4").arg(mName, mDescription, mFleet, sla));
        setToolTip(QString());
    }
}

QStringList planWarnings(const Scenario& s, const calc::Evaluation& ev)
{
    QStringList warnings;
    std::map<std::string, std::string> names;
    QStringList placeholders; // imported jobs whose model, kind or parallelism the cluster did not say
    for (const Tenant& t : s.tenants)
        for (const Job& j : t.jobs) {
            names[j.id] = j.name;
            if (j.imported && !j.imported->unknown.empty())
                placeholders << QString::fromStdString(j.name);
        }
    if (!placeholders.isEmpty())
        warnings << PlanSummary::tr("⚠ %n imported job(s) run on placeholders the cluster does not say (model, kind, "
                                    "parallelism): %1",
                                    nullptr, static_cast<int>(placeholders.size()))
                        .arg(placeholders.size() > 4 ? placeholders.mid(0, 4).join(", ") + ", …"
                                                     : placeholders.join(", "));
    for (const calc::JobResult& j : ev.jobs)
        if (!j.placed && warnings.size() < 6)
            warnings << PlanSummary::tr("⚠ %1 is not placed: %2")
                            .arg(QString::fromStdString(names[j.id]), QString::fromStdString(j.reason));
    if (ev.kpis.unplacedJobs > static_cast<int>(warnings.size()))
        warnings << PlanSummary::tr("… %n job(s) not placed in all", nullptr, ev.kpis.unplacedJobs);
    if (ev.kpis.oomRiskGpus > 0)
        warnings << PlanSummary::tr("⚠ %n GPU(s) at risk of running out of memory (warning signs on the canvas)",
                                    nullptr, ev.kpis.oomRiskGpus);
    for (const calc::JobResult& j : ev.jobs)
        if (j.placed && !j.meetsSla && warnings.size() < 9)
            warnings << PlanSummary::tr("⚠ %1 is outside its SLA: %2")
                            .arg(QString::fromStdString(j.name), QString::fromStdString(calc::slaMissReason(j, s)));
    return warnings;
}

} // namespace gp::ui
