// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#include "planfigures.h"
#include "io/textformat.h"
#include "model/limits.h"
#include "model/planningtarget.h"
#include "model/units.h"
#include "topologysummary.h"

#include "calc/comparison.h"
#include "calc/evaluate.h"
#include "calc/kpiregistry.h"
#include "charttheme.h"
#include "model/enumnames.h"
#include "recommendation.h"
#include "sim/timeline.h"
#include "simulationfigures.h"
#include "ui/canvas/canvasscene.h"

#include <QAreaSeries>
#include <QBuffer>
#include <QChart>
#include <QFontMetricsF>
#include <QGraphicsScene>
#include <QImage>
#include <QPainter>
#include <QSvgGenerator>
#include <QTextDocument>
#include <QXYSeries>

#include <algorithm>
#include <cmath>
#include <map>
#include <tuple>
#include <unordered_map>

namespace gp::ui {

namespace {

QString esc(const std::string& s) { return QString::fromStdString(s).toHtmlEscaped(); }
QString pct(double f) { return text::percent(f); }
using text::usd;
const QString kTable = "<table cellspacing='0' cellpadding='3' border='1' style='border-collapse:collapse'>";

} // namespace

PlanFigures::PlanFigures(const sim::PlanResults& r, const Catalog& catalog)
    : scenario(*r.scenario), evaluation(*r.evaluation), simulation(r.simulation),
      alternatives(r.alternatives ? *r.alternatives : std::vector<calc::SharingAlternative>{}),
      inventory(calc::takeInventory(scenario, catalog)), matrix(sharingMatrix(alternatives)),
      topology(std::make_unique<CanvasScene>(catalog))
{
    const Scenario& s = scenario;
    const PricePreset* prices = catalog.pricePreset(s.pricing.preset);
    pricesName = prices && !prices->name.empty() ? prices->name : s.pricing.preset;
    // As the workbench's results panel lays them out undocked: every chart titled, up to twenty bars.
    auto newChart = [this](const QString& title) {
        auto* chart = new QChart;
        themeChart(chart);
        chart->setTitle(title);
        mChartScenes.push_back(std::make_unique<QGraphicsScene>());
        mChartScenes.back()->addItem(chart);
        return chart;
    };
    charts.cost = newChart(resultsChartTitle(ResultsChart::Cost));
    charts.memory = newChart(resultsChartTitle(ResultsChart::Memory));
    charts.tradeOff = newChart(resultsChartTitle(ResultsChart::TradeOff));
    charts.links = newChart(resultsChartTitle(ResultsChart::Links));
    charts.completion = newChart(QString());
    themeSimulationChart(charts.completion);
    charts.timeline = newChart(QObject::tr("Allocation and fragmentation over time"));
    themeSimulationChart(charts.timeline);
    charts.sharingModes = newChart(resultsChartTitle(ResultsChart::SharingModes));
    // A chart with nothing to show says why in its title (the workbench's panel shows the line alone).
    const auto noted = [](QChart* chart, const QString& note) {
        if (!note.isEmpty())
            chart->setTitle(QObject::tr("%1: %2").arg(chart->title(), note));
    };
    noted(charts.cost, drawCostChart(charts.cost, evaluation));
    noted(charts.memory, drawMemoryChart(charts.memory, s, evaluation, false));
    noted(charts.tradeOff, drawTradeOffChart(charts.tradeOff, s, evaluation, false));
    noted(charts.links, drawLinksChart(charts.links, evaluation, false));
    drawSharingModesChart(charts.sharingModes, alternatives, evaluation.kpis, false);
    // The slowest training job's completion times, as the workbench's view first shows them.
    const CompletionLabels labels = completionLabels(s);
    const std::vector<const sim::JobSimulation*> jobs = completionJobs(*simulation);
    const sim::JobSimulation* slowest = jobs.empty() ? nullptr : jobs.front();
    QString name;
    if (slowest) {
        const auto known = labels.names.find(slowest->id);
        name = QString::fromStdString(known != labels.names.end() ? known->second : slowest->id);
    }
    drawCompletionChart(charts.completion, simulation.get(), slowest, name, labels);
    drawTimelineChart(charts.timeline, *r.timeline, r.timelineHorizonDays);
    // The canvas holds every node, GPU and slot as items (~55 KB a node): a large plan is drawn
    // as blocks of racks instead (drawTopologySummary).
    topologySummarized = s.topology.nodes.size() > limits::kReportTopologyMaxNodes;
    if (!topologySummarized) {
        topology->rebuild(s);
        topology->decorate(s, evaluation);
    }
}

void PlanFigures::drawTopologyFigure(QPainter& p, const QRectF& area) const
{
    if (topologySummarized)
        drawTopologySummary(p, area, scenario, evaluation);
    else
        drawTopology(p, area, *topology);
}

QString PlanFigures::topologyCaption() const
{
    if (topologySummarized)
        return QObject::tr("<p>%1 nodes, %2 GPUs, %3 switches, %4 links: more nodes than a page shows one by one "
                           "(%5), so each block stands for a rack (the nodes of one group, else of one leaf switch) "
                           "or a few consecutive racks, with its nodes, GPUs, a bar of the memory in use and, in red, "
                           "its GPUs at risk of running out of memory. The workbench's canvas shows every node.</p>")
            .arg(text::grouped(inventory.nodes))
            .arg(text::grouped(inventory.gpus))
            .arg(text::grouped(inventory.switches))
            .arg(text::grouped(inventory.links))
            .arg(text::grouped(static_cast<double>(limits::kReportTopologyMaxNodes)));
    return QObject::tr(
               "<p>%1 nodes, %2 switches, %3 links. Each GPU shows its slots (MIG instances at their slices, vGPU "
               "and time-sliced replicas) in the colour of the tenant that holds them, a memory bar, and a "
               "warning sign where memory may run out; badges name how a node is shared (MIG, vGPU, TS, MPS, VM); "
               "links are coloured by load, spine-to-leaf links drawn as one bus per row of racks.</p>")
        .arg(inventory.nodes)
        .arg(inventory.switches)
        .arg(inventory.links);
}

PlanFigures::~PlanFigures() = default;

QString PlanFigures::summaryHtml() const
{
    const calc::Kpis& k = evaluation.kpis;
    double slowestDays = 0;
    std::string slowest;
    int slaMisses = 0;
    for (const calc::JobResult& j : evaluation.jobs) {
        if (j.placed && j.perf.daysToComplete && *j.perf.daysToComplete > slowestDays) {
            slowestDays = *j.perf.daysToComplete;
            slowest = j.name;
        }
        slaMisses += j.placed && !j.meetsSla ? 1 : 0;
    }
    const calc::CostBreakdown& b = k.costBreakdown;
    QString html =
        QObject::tr("<p>The plan runs <b>%1 jobs of %2 tenants</b> on <b>%3 GPUs</b> in %4 nodes. It costs "
                    "<b>%5 per month</b>: useful work %6, and <b>%7 (%8)</b> that buys nothing: idle GPU capacity "
                    "%9, sharing overhead %10 and stranded capacity %11.</p>")
            .arg(inventory.jobs)
            .arg(inventory.tenants)
            .arg(inventory.gpus)
            .arg(inventory.nodes)
            .arg(usd(k.costPerMonthUsd), usd(b.usefulUsd), usd(k.wastePerMonthUsd()),
                 pct(k.costPerMonthUsd > 0 ? k.wastePerMonthUsd() / k.costPerMonthUsd : 0.0), usd(b.idleUsd),
                 usd(b.overheadUsd), usd(b.strandedUsd));
    if (k.unusedMemoryBytes > 0)
        html += QObject::tr("<p>The jobs leave %1 GiB of the memory they hold unused (%2): headroom, and an "
                            "opportunity (a smaller GPU model), not money lost.</p>")
                    .arg(text::gib(k.unusedMemoryBytes, 0), pct(k.unusedMemoryFraction()));
    if (slowestDays > 0)
        html += QObject::tr("<p>The longest training job, %1, takes <b>%2 days</b>; in 95 % of %3 simulated runs the "
                            "slowest job finishes within <b>%4 days</b>.</p>")
                    .arg(esc(slowest))
                    .arg(slowestDays, 0, 'f', 1)
                    .arg(simulation->trials)
                    .arg(simulation->clusterP95Days, 0, 'f', 1);
    html += QObject::tr("<p><b>Risk:</b> %1 job(s) not placed, %2 job(s) outside their tenant's SLA, %3 GPU(s) "
                        "at risk of running out of memory.</p>")
                .arg(k.unplacedJobs)
                .arg(slaMisses)
                .arg(k.oomRiskGpus);
    // Which ones, by name and why (issue 36: the counts alone sent the reader hunting).
    QStringList trouble;
    for (const calc::JobResult& j : evaluation.jobs) {
        const QString name = QString::fromStdString(j.name);
        switch (troubleOf(j)) {
        case JobTrouble::NotPlaced: trouble << QObject::tr("%1 (not placed)").arg(name); break;
        case JobTrouble::Saturated: trouble << QObject::tr("%1 (saturated)").arg(name); break;
        case JobTrouble::OutsideSla: trouble << QObject::tr("%1 (outside its tenant's SLA)").arg(name); break;
        case JobTrouble::OomRisk: // the risk line above counts them; the summary names SLA trouble
        case JobTrouble::None: break;
        }
    }
    if (!trouble.isEmpty())
        html += QObject::tr("<p><b>In trouble:</b> %1.</p>").arg(trouble.join(", ").toHtmlEscaped());
    return html;
}

namespace {
QString latencyText(double s) { return text::latency(s); }
} // namespace

QString PlanFigures::kpiTableHtml() const
{
    // Every KPI of the registry (calc/kpiregistry.h) with its label and format, as the cards
    // and the comparison show it; a few add their parts.
    const calc::Kpis& k = evaluation.kpis;
    const std::map<std::string, double> values = sim::kpiValues(evaluation, simulation.get());
    QString html = kTable;
    auto row = [&html](const QString& label, const QString& value) {
        html += QString("<tr><td>%1</td><td align='right'><b>%2</b></td></tr>")
                    .arg(label.toHtmlEscaped(), value.toHtmlEscaped());
    };
    for (const calc::KpiSpec& spec : calc::kpiRegistry()) {
        const auto found = values.find(spec.key);
        const double v = found != values.end() ? found->second : 0.0;
        QString value = QString::fromStdString(calc::formatKpiText(spec, v)); // as its card says it
        if (!spec.appliesTo(k))
            value = spec.noValue(k).empty() ? QObject::tr("no serving job") : QString::fromStdString(spec.noValue(k));
        else if (spec.key == "p95_completion_days" && v <= 0)
            value = QObject::tr("no training job");
        else if (spec.key == "waste_per_month_usd")
            value += QObject::tr(" (Idle %1, Sharing overhead %2, Stranded %3; Useful %4)")
                         .arg(usd(k.costBreakdown.idleUsd), usd(k.costBreakdown.overheadUsd),
                              usd(k.costBreakdown.strandedUsd), usd(k.costBreakdown.usefulUsd));
        else if (spec.key == "serving_slo_attainment")
            value += QObject::tr(" (worst P99 TTFT %1, ITL %2)")
                         .arg(latencyText(k.servingTtftP99S), latencyText(k.servingItlP99S));
        row(QString::fromStdString(spec.label), value);
    }
    row(QObject::tr("Target (%1)").arg(QString::fromStdString(PlanningTarget::text())),
        k.meetsTarget ? QObject::tr("met") : QObject::tr("not met"));
    return html + "</table>";
}

QString PlanFigures::matrixHtml() const
{
    const SharingMatrix& m = matrix;
    QString html = kTable + "<tr><th></th>";
    for (const QString& column : m.columns)
        html += "<th style='white-space: nowrap'>" + column.toHtmlEscaped() + "</th>";
    html += "</tr>";
    for (std::size_t r = 0; r < m.cells.size(); ++r) {
        html +=
            "<tr><td style='white-space: nowrap'>" + m.rows[static_cast<int>(r)].trimmed().toHtmlEscaped() + "</td>";
        for (const MatrixCell& cell : m.cells[r])
            html += "<td>" + cell.text.toHtmlEscaped() + "</td>";
        html += "</tr>";
    }
    return html + "</table>";
}

QString PlanFigures::jobsTableHtml() const
{
    std::map<std::string, const Tenant*> tenants;
    for (const Tenant& t : scenario.tenants)
        tenants[t.id] = &t;
    std::map<std::string, const sim::JobSimulation*> simulated;
    for (const sim::JobSimulation& j : simulation->jobs)
        simulated[j.id] = &j;
    QString html =
        kTable + QObject::tr("<tr><th>Tenant</th><th>Job</th><th>Placed</th><th>GiB/GPU</th><th>Penalty</th>"
                             "<th>Days</th><th>P95 days</th><th>TTFT / ITL P99</th><th>SLO</th><th>$/month</th></tr>");
    // Half a page shows about fourteen rows: a plan of thousands of jobs lists the first ones
    // and says how many more there are (jobs.csv has them all).
    const std::size_t shown = std::min(evaluation.jobs.size(), limits::kReportMaxJobRows);
    for (std::size_t i = 0; i < shown; ++i) {
        const calc::JobResult& j = evaluation.jobs[i];
        const auto t = tenants.find(j.tenant);
        const auto sj = simulated.find(j.id);
        html += QString("<tr><td>%1</td><td>%2</td><td>%3</td><td>%4</td><td>%5</td><td>%6</td><td>%7</td><td>%8</td>"
                        "<td>%9</td><td>%10</td></tr>")
                    .arg(t != tenants.end() ? esc(t->second->name) : esc(j.tenant), esc(j.name),
                         j.placed ? (j.oomRisk ? QObject::tr("yes, OOM risk") : QObject::tr("yes")) : QObject::tr("no"),
                         QString::number(j.memory.totalBytes() / kGiB, 'f', 1), j.placed ? pct(j.penalty) : "-",
                         j.placed && j.perf.daysToComplete ? QString::number(*j.perf.daysToComplete, 'f', 1) : "-",
                         sj != simulated.end() && sj->second->training
                             ? QString::number(sj->second->completionDays.p95, 'f', 1)
                             : "-",
                         j.serving ? latencyText(j.serving->ttftP99S) + " / " + latencyText(j.serving->itlP99S) : "-",
                         j.serving ? QString::fromStdString(calc::formatSloAttainment(*j.serving)) : "-")
                    .arg(usd(j.costPerMonthUsd));
    }
    html += "</table>";
    if (shown < evaluation.jobs.size()) // above the table, where the page never cuts it off
        html = QObject::tr("<p>The first %1 of %2 jobs; %3 more in the export's jobs.csv.</p>")
                   .arg(shown)
                   .arg(text::grouped(static_cast<double>(evaluation.jobs.size())))
                   .arg(text::grouped(static_cast<double>(evaluation.jobs.size() - shown))) +
               html;
    return html;
}

QString PlanFigures::assumptionsHtml() const
{
    const Scenario& s = scenario;
    QString html =
        QObject::tr("<p>Placement policy: <b>%1</b>. Prices: <b>%2</b>%3.</p>")
            .arg(QString::fromStdString(std::string(displayName(s.placementPolicy))))
            .arg(s.pricing.ownership ? QObject::tr("ownership (capex amortised, power)")
                                     : esc(pricesName.empty() ? std::string("per-GPU overrides") : pricesName))
            .arg(s.pricing.gpuHourUsd.empty() ? QString() : QObject::tr(", with per-GPU overrides"));
    if (s.assumptions.empty())
        html += QObject::tr("<p>Every model assumption is at its documented default.</p>");
    else {
        html += QObject::tr("<p>Assumptions this scenario overrides:</p><ul>");
        for (const auto& [key, value] : s.assumptions)
            html += QString("<li>%1 = %2</li>").arg(esc(key)).arg(value);
        html += "</ul>";
    }
    return html +
           QObject::tr(
               "<p>Memory per GPU follows ZeRO (Rajbhandari et al. 2020) and Korthikanti et al. 2022 for "
               "activations; step time is built from each GEMM, attention and memory-bound kernel on the GPU's "
               "efficiency curves with the exposed collectives, bubble and optimizer; serving latency comes from "
               "continuous batching with chunked or whole prefill, the KV cache as the batch limit and queueing "
               "in front of it; sharing penalties, isolation and the MIG rules follow NVIDIA's MIG, vGPU and MPS "
               "documentation; the Monte Carlo draws jitter, co-tenant bursts, memory peaks, congestion, "
               "interruptions and serving requests' lengths and waits. "
               "Every formula, default and source is in docs/model-reference.md.</p>");
}

std::vector<SharingMode> PlanFigures::modesUsed() const
{
    std::vector<SharingMode> modes;
    for (const auto& [mode, name] : EnumNames<SharingMode>::table)
        for (const Node& n : scenario.topology.nodes) {
            bool used = n.sharing.mode == mode;
            for (const auto& [g, c] : n.gpuSharing)
                used = used || c.mode == mode;
            if (used) {
                modes.push_back(mode);
                break;
            }
        }
    return modes;
}

namespace {

/// A CSV field: quoted when it holds a comma, a quote or a line break.
QString csv(const QString& v)
{
    if (!v.contains(',') && !v.contains('"') && !v.contains('\n'))
        return v;
    QString q = v;
    return '"' + q.replace('"', "\"\"") + '"';
}

} // namespace

void appendChartPictures(std::vector<std::pair<QString, QByteArray>>& files, const QString& name, QChart* chart)
{
    const QRectF area(0, 0, 1600, 900);
    QImage png(area.size().toSize(), QImage::Format_ARGB32_Premultiplied);
    png.fill(Qt::white);
    {
        QPainter p(&png);
        p.setRenderHint(QPainter::Antialiasing);
        drawChart(p, area, chart, 1.6);
    }
    QBuffer pngBytes;
    pngBytes.open(QIODevice::WriteOnly);
    png.save(&pngBytes, "PNG");
    files.push_back({name + ".png", pngBytes.data()});
    QBuffer svgBytes;
    QSvgGenerator svg;
    svg.setOutputDevice(&svgBytes);
    svg.setSize(area.size().toSize());
    svg.setViewBox(area);
    svg.setTitle(chart->title());
    {
        QPainter p(&svg);
        drawChart(p, area, chart, 1.6);
    }
    files.push_back({name + ".svg", svgBytes.data()});
}

std::vector<std::pair<QString, QByteArray>> PlanFigures::chartAndTableFiles() const
{
    std::vector<std::pair<QString, QByteArray>> files;
    const std::vector<std::pair<QString, QChart*>> all = {
        {"cost", charts.cost},
        {"memory-per-job", charts.memory},
        {"memory-vs-penalty", charts.tradeOff},
        {"busiest-links", charts.links},
        {"sharing-modes", charts.sharingModes},
        {"completion-times", charts.completion},
        {"timeline", charts.timeline},
    };
    for (const auto& [name, chart] : all)
        appendChartPictures(files, name, chart);
    QString kpis = "key,label,value\n";
    // The compared KPIs (calc::comparedKpis, the same keys and labels as compare), then the cost's four parts.
    const std::map<std::string, double> values = sim::kpiValues(evaluation, simulation.get());
    for (const calc::KpiSpec& spec : calc::comparedKpis()) {
        const auto v = values.find(spec.key); // none: no value for this plan, an empty cell
        kpis += QString("%1,%2,%3\n")
                    .arg(QString::fromStdString(spec.key), csv(QString::fromStdString(spec.label)))
                    .arg(v != values.end() ? QString::number(v->second, 'g', 12) : QString());
    }
    for (const calc::CostPart& part : calc::costParts())
        kpis += QString("%1_usd,%2,%3\n")
                    .arg(QLatin1String(part.key), QString::fromUtf8(part.label))
                    .arg(evaluation.kpis.costBreakdown.*part.value, 0, 'g', 12);
    files.push_back({"kpis.csv", kpis.toUtf8()});
    std::map<std::string, std::string> tenantNames;
    for (const Tenant& t : scenario.tenants)
        tenantNames[t.id] = t.name;
    std::map<std::string, const sim::JobSimulation*> simulated;
    for (const sim::JobSimulation& j : simulation->jobs)
        simulated[j.id] = &j;
    QString jobs = "tenant,job_id,job,placed,gib_per_gpu,penalty,mfu,days,p95_days,cost_per_month_usd,oom_risk,reason,"
                   "ttft_p99_s,itl_p99_s,slo_attainment,slowdown_vs_dedicated,tp_link\n";
    for (const calc::JobResult& j : evaluation.jobs) {
        const auto sj = simulated.find(j.id);
        jobs +=
            QStringList{
                csv(QString::fromStdString(tenantNames[j.tenant])),
                csv(QString::fromStdString(j.id)),
                csv(QString::fromStdString(j.name)),
                j.placed ? "yes" : "no",
                QString::number(j.memory.totalBytes() / kGiB, 'f', 2),
                j.placed ? QString::number(j.penalty, 'g', 6) : QString(),
                j.placed ? QString::number(j.perf.mfu, 'g', 6) : QString(),
                j.placed && j.perf.daysToComplete ? QString::number(*j.perf.daysToComplete, 'f', 2) : QString(),
                sj != simulated.end() && sj->second->training ? QString::number(sj->second->completionDays.p95, 'f', 2)
                                                              : QString(),
                QString::number(j.costPerMonthUsd, 'f', 0),
                j.oomRisk ? "yes" : "no",
                csv(QString::fromStdString(j.reason)),
                j.serving && j.serving->ttftP99S < 1e29 ? QString::number(j.serving->ttftP99S, 'g', 6) : QString(),
                j.serving ? QString::number(j.serving->itlP99S, 'g', 6) : QString(),
                j.serving && j.serving->sloJudged ? QString::number(j.serving->sloAttainment, 'g', 6) : QString(),
                j.placed ? QString::number(j.slowdownVsDedicated, 'g', 6) : QString(),
                csv(QString::fromStdString(j.tpLink))}
                .join(',') +
            '\n';
    }
    files.push_back({"jobs.csv", jobs.toUtf8()});
    return files;
}

void drawHtml(QPainter& p, const QRectF& area, const QString& html, int pointSize)
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

void drawChart(QPainter& p, const QRectF& area, QChart* chart, double zoom)
{
    chart->resize(area.size() / std::max(zoom, 0.1));
    chart->setAnimationOptions(QChart::NoAnimation);
    chart->scene()->setSceneRect(chart->geometry());
    chart->scene()->render(&p, area, chart->geometry(), Qt::KeepAspectRatio);
}

void drawChartWithLegend(QPainter& p, const QRectF& area, QChart* chart, double zoom, int pointSize)
{
    QString html;
    for (QAbstractSeries* series : chart->series()) {
        if (series->name().isEmpty())
            continue;
        QColor colour;
        if (auto* xy = qobject_cast<QXYSeries*>(series))
            colour = xy->color();
        else if (auto* area = qobject_cast<QAreaSeries*>(series))
            colour = area->color();
        html += QStringLiteral("<span style='color:%1'>&#9632;</span> %2<br>")
                    .arg(colour.name(), series->name().toHtmlEscaped());
    }
    QTextDocument doc;
    doc.setDefaultFont(QFont("DejaVu Sans", pointSize));
    doc.setTextWidth(area.width());
    doc.setHtml(html);
    const double height = std::min(doc.size().height(), area.height() / 2);
    const bool shown = chart->legend()->isVisible();
    chart->legend()->hide();
    drawChart(p, area.adjusted(0, 0, 0, -height), chart, zoom);
    chart->legend()->setVisible(shown);
    drawHtml(p, QRectF(area.left(), area.bottom() - height, area.width(), height), html, pointSize);
}

void drawTopology(QPainter& p, const QRectF& area, CanvasScene& topology)
{
    // As vectors with their names: the canvas caches each node as a bitmap for speed, which a
    // PDF or SVG would embed as an image without text.
    std::vector<std::pair<QGraphicsItem*, QGraphicsItem::CacheMode>> cached;
    for (QGraphicsItem* item : topology.items())
        if (item->cacheMode() != QGraphicsItem::NoCache) {
            cached.emplace_back(item, item->cacheMode());
            item->setCacheMode(QGraphicsItem::NoCache);
        }
    topology.render(&p, area, topology.contentBounds().adjusted(-80, -20, 20, 20), Qt::KeepAspectRatio);
    for (const auto& [item, mode] : cached)
        item->setCacheMode(mode);
}

} // namespace gp::ui
