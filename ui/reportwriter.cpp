#include "reportwriter.h"

#include "calc/alternatives.h"
#include "calc/evaluate.h"
#include "calc/inventory.h"
#include "canvas/canvasscene.h"
#include "model/enumnames.h"
#include "resultscharts.h"
#include "sim/simulation.h"
#include "simulationcharts.h"

#include <QChart>
#include <QLegend>
#include <QDateTime>
#include <QGraphicsScene>
#include <QLocale>
#include <QPainter>
#include <QPdfWriter>
#include <QSaveFile>
#include <QTableWidget>
#include <QTextDocument>

#include <algorithm>
#include <map>

namespace gp::ui {

namespace {

QString esc(const std::string& s) { return QString::fromStdString(s).toHtmlEscaped(); }
QString pct(double f) { return QString::number(f * 100.0, 'f', 1) + " %"; }
QString usd(double v) { return "$" + QLocale(QLocale::English).toString(v, 'f', 0); }

/// Page geometry: A4 landscape at 96 units per inch, 40-unit margins.
struct Page
{
    QRectF body;
};

void drawHtml(QPainter& p, const QRectF& area, const QString& html, int pointSize = 10)
{
    QTextDocument doc;
    doc.setDefaultFont(QFont("DejaVu Sans", pointSize));
    doc.setTextWidth(area.width());
    doc.setHtml(html);
    p.save();
    p.translate(area.topLeft());
    doc.drawContents(&p, QRectF(0, 0, area.width(), area.height()));
    p.restore();
}

/// Draws a chart (a QGraphicsWidget in its view's scene) into `area`, as vectors.
void drawChart(QPainter& p, const QRectF& area, QChart* chart)
{
    chart->resize(area.size());
    chart->setAnimationOptions(QChart::NoAnimation);
    chart->scene()->setSceneRect(chart->geometry());
    chart->scene()->render(&p, area, chart->geometry(), Qt::KeepAspectRatio);
}

void heading(QPainter& p, const QRectF& body, const QString& title, const QString& scenario)
{
    p.save();
    QFont f("DejaVu Sans", 16, QFont::Bold);
    p.setFont(f);
    p.setPen(Qt::black);
    p.drawText(QRectF(body.left(), body.top(), body.width(), 30), Qt::AlignLeft | Qt::AlignVCenter, title);
    f.setPointSize(9);
    f.setBold(false);
    p.setFont(f);
    p.setPen(QColor("#555555"));
    p.drawText(QRectF(body.left(), body.top(), body.width(), 30), Qt::AlignRight | Qt::AlignVCenter,
               QObject::tr("gpuplan report · %1").arg(scenario));
    p.restore();
}

QString kpiTable(const calc::Kpis& k, double p95Days)
{
    const std::vector<std::pair<QString, QString>> rows = {
        {QObject::tr("VRAM utilization"), pct(k.vramUtilization)},
        {QObject::tr("GPU share allocated"), pct(k.allocationRatio)},
        {QObject::tr("Fragmentation of free capacity"), pct(k.fragmentation)},
        {QObject::tr("Mean / max penalty against bare metal"), pct(k.meanPenalty) + " / " + pct(k.maxPenalty)},
        {QObject::tr("Cost per month"), usd(k.costPerMonthUsd)},
        {QObject::tr("Wasted per month (idle / stranded / overhead)"),
         usd(k.wastePerMonth.total()) + QString(" (%1 / %2 / %3)").arg(usd(k.wastePerMonth.idleUsd), usd(k.wastePerMonth.strandedUsd),
                                                                        usd(k.wastePerMonth.overheadUsd))},
        {QObject::tr("Unplaced jobs"), QString::number(k.unplacedJobs)},
        {QObject::tr("GPUs at risk of running out of memory"), QString::number(k.oomRiskGpus)},
        {QObject::tr("P95 completion of the slowest training job"),
         p95Days > 0 ? QObject::tr("%1 days").arg(p95Days, 0, 'f', 1) : QObject::tr("no training job")},
        {QObject::tr("Target (≥ 80 % VRAM, < 3 % penalty)"), k.meetsTarget ? QObject::tr("met") : QObject::tr("not met")},
    };
    QString html = "<table cellspacing='0' cellpadding='4' border='1' style='border-collapse:collapse'>";
    for (const auto& [label, value] : rows)
        html += QString("<tr><td>%1</td><td align='right'><b>%2</b></td></tr>").arg(label.toHtmlEscaped(), value.toHtmlEscaped());
    return html + "</table>";
}

} // namespace

QString writeReport(const Scenario& s, const Catalog& catalog, const QString& pdfPath, int trials)
{
    const calc::Evaluation ev = calc::evaluate(s, catalog);
    sim::SimulationConfig config;
    config.trials = std::max(1, trials);
    config.backend = sim::Backend::Cpu;
    auto simulation = std::make_shared<const sim::SimulationResult>(sim::simulate(s, catalog, ev, config));
    std::vector<calc::SharingAlternative> alternatives = calc::compareSharing(s, catalog);
    sim::simulateAlternatives(alternatives, catalog, 256);
    const calc::Inventory inv = calc::takeInventory(s, catalog);

    // The workbench's own charts, filled the same way, rendered onto the pages.
    ResultsCharts charts;
    charts.showEvaluation(s, ev);
    charts.showAlternatives(alternatives);
    charts.completion()->showSimulation(s, simulation);
    CanvasScene topology(catalog);
    topology.rebuild(s);
    topology.decorate(s, ev);

    // Through QSaveFile: the target is the whole report or untouched.
    QSaveFile file(pdfPath);
    if (!file.open(QIODevice::WriteOnly))
        return QObject::tr("%1: %2").arg(pdfPath, file.errorString());
    {
        QPdfWriter pdf(&file);
        pdf.setTitle(QObject::tr("gpuplan report: %1").arg(QString::fromStdString(s.name)));
        pdf.setCreator("gpuplan");
        pdf.setPageSize(QPageSize(QPageSize::A4));
        pdf.setPageOrientation(QPageLayout::Landscape);
        pdf.setPageMargins(QMarginsF(12, 12, 12, 12), QPageLayout::Millimeter);
        pdf.setResolution(96);
        QPainter p(&pdf);
        if (!p.isActive()) {
            file.cancelWriting();
            return QObject::tr("%1: cannot start the PDF").arg(pdfPath);
        }
        const QRectF body(0, 0, pdf.width(), pdf.height());
        const QRectF content = body.adjusted(0, 40, 0, 0);
        const QString name = QString::fromStdString(s.name);

        // 1. Summary in business terms, and the KPIs.
        heading(p, body, name, name);
        const calc::Kpis& k = ev.kpis;
        double slowestDays = 0;
        std::string slowest;
        int slaMisses = 0;
        std::map<std::string, const Tenant*> tenants;
        for (const Tenant& t : s.tenants)
            tenants[t.id] = &t;
        for (const calc::JobResult& j : ev.jobs) {
            if (j.placed && j.perf.daysToComplete && *j.perf.daysToComplete > slowestDays) {
                slowestDays = *j.perf.daysToComplete;
                slowest = j.name;
            }
            slaMisses += j.placed && !j.meetsSla ? 1 : 0;
        }
        QString summary = QObject::tr("<p>%1</p><h3>Executive summary</h3><p>The plan runs <b>%2 jobs of %3 tenants</b> on "
                                      "<b>%4 GPUs</b> in %5 nodes. It costs <b>%6 per month</b>, of which <b>%7 (%8)</b> "
                                      "buys nothing: idle GPUs %9, memory allocated but unused %10, and GPU time lost to "
                                      "sharing slowdowns %11.</p>")
                              .arg(esc(s.description))
                              .arg(inv.jobs)
                              .arg(inv.tenants)
                              .arg(inv.gpus)
                              .arg(inv.nodes)
                              .arg(usd(k.costPerMonthUsd), usd(k.wastePerMonth.total()),
                                   pct(k.costPerMonthUsd > 0 ? k.wastePerMonth.total() / k.costPerMonthUsd : 0.0),
                                   usd(k.wastePerMonth.idleUsd), usd(k.wastePerMonth.strandedUsd),
                                   usd(k.wastePerMonth.overheadUsd));
        if (slowestDays > 0)
            summary += QObject::tr("<p>The longest training job, %1, takes <b>%2 days</b>; in 95 % of %3 simulated runs "
                                   "the slowest job finishes within <b>%4 days</b>.</p>")
                           .arg(esc(slowest))
                           .arg(slowestDays, 0, 'f', 1)
                           .arg(simulation->trials)
                           .arg(simulation->clusterP95Days, 0, 'f', 1);
        summary += QObject::tr("<p><b>Risk:</b> %1 job(s) not placed, %2 job(s) slower than their tenant's SLA allows, "
                               "%3 GPU(s) at risk of running out of memory.</p>")
                       .arg(k.unplacedJobs)
                       .arg(slaMisses)
                       .arg(k.oomRiskGpus);
        drawHtml(p, QRectF(content.left(), content.top(), content.width() * 0.55, content.height()), summary);
        drawHtml(p, QRectF(content.left() + content.width() * 0.58, content.top(), content.width() * 0.42, content.height()),
                 QObject::tr("<h3>Key figures</h3>") + kpiTable(k, simulation->clusterP95Days) +
                     QObject::tr("<p style='color:#555'>Generated %1 by gpuplan. Formulas and sources: docs/model-reference.md.</p>")
                         .arg(QDateTime::currentDateTimeUtc().toString("yyyy-MM-dd HH:mm 'UTC'")));

        // 2. Topology: the canvas, every GPU's slots in its tenant's colour.
        pdf.newPage();
        heading(p, body, QObject::tr("Topology and placement"), name);
        const QRectF items = topology.itemsBoundingRect().adjusted(-20, -20, 20, 20);
        topology.render(&p, content.adjusted(0, 0, 0, -50), items, Qt::KeepAspectRatio);
        drawHtml(p, QRectF(content.left(), content.bottom() - 46, content.width(), 46),
                 QObject::tr("<p>%1 nodes, %2 switches, %3 links. Each GPU shows its slots (MIG instances at their slices, vGPU "
                             "and time-sliced replicas) in the colour of the tenant that holds them, a memory bar, and a red "
                             "frame where memory may run out; links are coloured by load.</p>")
                     .arg(inv.nodes)
                     .arg(inv.switches)
                     .arg(inv.links));

        // 3. Where the money and the memory go.
        pdf.newPage();
        heading(p, body, QObject::tr("Cost and memory"), name);
        const double half = content.height() / 2 - 5;
        drawChart(p, QRectF(content.left(), content.top(), content.width(), half), charts.costChart());
        drawChart(p, QRectF(content.left(), content.top() + half + 10, content.width(), half), charts.memoryChart());

        // 4. The sharing trade-offs.
        pdf.newPage();
        heading(p, body, QObject::tr("Sharing trade-offs"), name);
        charts.sharingModesChart()->legend()->setAlignment(Qt::AlignBottom); // the page is taller than the dock
        drawChart(p, QRectF(content.left(), content.top(), content.width() * 0.4, content.height()), charts.sharingModesChart());
        QString matrix = "<table cellspacing='0' cellpadding='3' border='1' style='border-collapse:collapse'><tr><th></th>";
        const QTableWidget* m = charts.tradeOffMatrix();
        for (int c = 0; c < m->columnCount(); ++c)
            matrix += "<th>" + m->horizontalHeaderItem(c)->text().toHtmlEscaped() + "</th>";
        matrix += "</tr>";
        for (int r = 0; r < m->rowCount(); ++r) {
            matrix += "<tr><td>" + m->verticalHeaderItem(r)->text().trimmed().toHtmlEscaped() + "</td>";
            for (int c = 0; c < m->columnCount(); ++c)
                matrix += "<td>" + (m->item(r, c) ? m->item(r, c)->text().toHtmlEscaped() : QString()) + "</td>";
            matrix += "</tr>";
        }
        drawHtml(p, QRectF(content.left() + content.width() * 0.41, content.top(), content.width() * 0.59, content.height()),
                 QObject::tr("<p>The same tenants with every GPU shared one way, each mode at its densest setting.</p>") +
                     matrix + "</table>",
                 8);

        // 5. Predictability and the jobs.
        pdf.newPage();
        heading(p, body, QObject::tr("Predictability and jobs"), name);
        drawChart(p, QRectF(content.left(), content.top(), content.width(), content.height() * 0.45),
                  charts.completion()->chart());
        std::map<std::string, const sim::JobSimulation*> simulated;
        for (const sim::JobSimulation& j : simulation->jobs)
            simulated[j.id] = &j;
        QString jobs = "<table cellspacing='0' cellpadding='3' border='1' style='border-collapse:collapse'><tr><th>Tenant</th>"
                       "<th>Job</th><th>Placed</th><th>GiB/GPU</th><th>Penalty</th><th>Days</th><th>P95 days</th>"
                       "<th>$/month</th></tr>";
        constexpr double kGiB = 1024.0 * 1024.0 * 1024.0;
        for (const calc::JobResult& j : ev.jobs) {
            const auto t = tenants.find(j.tenant);
            const auto sj = simulated.find(j.id);
            jobs += QString("<tr><td>%1</td><td>%2</td><td>%3</td><td>%4</td><td>%5</td><td>%6</td><td>%7</td><td>%8</td></tr>")
                        .arg(t != tenants.end() ? esc(t->second->name) : esc(j.tenant), esc(j.name),
                             j.placed ? (j.oomRisk ? QObject::tr("yes, OOM risk") : QObject::tr("yes")) : QObject::tr("no"),
                             QString::number(j.memory.totalBytes() / kGiB, 'f', 1), j.placed ? pct(j.penalty) : "-",
                             j.placed && j.perf.daysToComplete ? QString::number(*j.perf.daysToComplete, 'f', 1) : "-",
                             sj != simulated.end() && sj->second->training ? QString::number(sj->second->completionDays.p95, 'f', 1) : "-",
                             usd(j.costPerMonthUsd));
        }
        drawHtml(p, QRectF(content.left(), content.top() + content.height() * 0.47, content.width(), content.height() * 0.53),
                 jobs + "</table>");

        // 6. What it rests on.
        pdf.newPage();
        heading(p, body, QObject::tr("Assumptions"), name);
        QString assumptions = QObject::tr("<p>Placement policy: <b>%1</b>. Prices: <b>%2</b>%3.</p>")
                                  .arg(QString::fromStdString(std::string(enumName(s.placementPolicy))))
                                  .arg(s.pricing.ownership ? QObject::tr("ownership (capex amortised, power)")
                                                           : esc(s.pricing.preset.empty() ? std::string("per-GPU overrides") : s.pricing.preset))
                                  .arg(s.pricing.gpuHourUsd.empty() ? QString() : QObject::tr(", with per-GPU overrides"));
        if (s.assumptions.empty())
            assumptions += QObject::tr("<p>Every model assumption is at its documented default.</p>");
        else {
            assumptions += QObject::tr("<p>Assumptions this scenario overrides:</p><ul>");
            for (const auto& [key, value] : s.assumptions)
                assumptions += QString("<li>%1 = %2</li>").arg(esc(key)).arg(value);
            assumptions += "</ul>";
        }
        assumptions += QObject::tr("<p>Memory per GPU follows ZeRO (Rajbhandari et al. 2020) and Korthikanti et al. 2022 for "
                                   "activations; step time and MFU follow the PaLM FLOPs count with collectives over the "
                                   "fabric; sharing penalties, isolation and the MIG rules follow NVIDIA's MIG, vGPU and MPS "
                                   "documentation; the Monte Carlo draws jitter, co-tenant bursts, memory peaks, congestion "
                                   "and interruptions. Every formula, default and source is in docs/model-reference.md.</p>");
        drawHtml(p, content, assumptions);
        p.end();
    }
    if (!file.commit())
        return QObject::tr("%1: %2").arg(pdfPath, file.errorString());
    return {};
}

} // namespace gp::ui
