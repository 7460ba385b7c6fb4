// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#include "resultsfigures.h"
#include "charttheme.h"

#include "calc/comparison.h"
#include "calc/kpiregistry.h"
#include "io/textformat.h"
#include "model/enumnames.h"
#include "model/planningtarget.h"
#include "model/units.h"
#include "sim/planresults.h"

#include <QAreaSeries>
#include <QBarCategoryAxis>
#include <QBarSet>
#include <QChart>
#include <QCoreApplication>
#include <QHorizontalBarSeries>
#include <QHorizontalStackedBarSeries>
#include <QLineSeries>
#include <QScatterSeries>
#include <QValueAxis>

#include <algorithm>
#include <map>
#include <set>

namespace gp::ui {

namespace {

/// The texts keep the workbench panel's translation context.
struct ResultsTr
{
    Q_DECLARE_TR_FUNCTIONS(gp::ui::ResultsCharts)
};

const QString* modeNames()
{
    static const QString names[] = {QString::fromUtf8(displayName(SharingMode::Exclusive)),
                                    QString::fromUtf8(displayName(SharingMode::Passthrough)),
                                    QString::fromUtf8(displayName(SharingMode::Mig)),
                                    QString::fromUtf8(displayName(SharingMode::Vgpu)),
                                    QString::fromUtf8(displayName(SharingMode::TimeSlicing)),
                                    QString::fromUtf8(displayName(SharingMode::Mps))};
    return names;
}

} // namespace

QString resultsChartTitle(ResultsChart chart)
{
    switch (chart) {
    case ResultsChart::Cost: return ResultsTr::tr("Cost per month");
    case ResultsChart::Memory: return ResultsTr::tr("Memory per job");
    case ResultsChart::TradeOff: return ResultsTr::tr("Memory use vs penalty");
    case ResultsChart::Links: return ResultsTr::tr("Busiest links");
    case ResultsChart::SharingModes: return ResultsTr::tr("Utilization vs penalty by sharing mode");
    }
    return {};
}

int resultsBarsShown(std::size_t available, bool docked)
{
    return static_cast<int>(std::min<std::size_t>(available, docked ? 8 : 20));
}

SharingMatrix sharingMatrix(const std::vector<calc::SharingAlternative>& alts)
{
    SharingMatrix m;
    const QString* names = modeNames();
    const QStringList rows = {ResultsTr::tr("Setting"),
                              ResultsTr::tr("Mean penalty"),
                              ResultsTr::tr("Max penalty"),
                              ResultsTr::tr("Serving TTFT P99"),
                              ResultsTr::tr("Serving ITL P99"),
                              ResultsTr::tr("Serving SLO attainment"),
                              ResultsTr::tr("VRAM utilization"),
                              ResultsTr::tr("Fragmentation"),
                              ResultsTr::tr("GPU share allocated"),
                              ResultsTr::tr("Unplaced jobs"),
                              ResultsTr::tr("Memory isolation"),
                              ResultsTr::tr("Fault isolation"),
                              ResultsTr::tr("Performance isolation"),
                              ResultsTr::tr("$ per month"),
                              ResultsTr::tr("$ wasted per month"),
                              ResultsTr::tr("  of which sharing overhead"),
                              ResultsTr::tr("P95 completion"),
                              ResultsTr::tr("Memory overhead")};
    m.rows = rows;
    m.cells.assign(static_cast<std::size_t>(rows.size()), std::vector<MatrixCell>(alts.size()));
    auto pct = [](double f) { return text::percent(f); };
    auto usd = [](double v) { return text::usdThousands(v); };
    auto level = [](int v) {
        return v >= 2 ? ResultsTr::tr("enforced") : v == 1 ? ResultsTr::tr("partial") : ResultsTr::tr("none");
    };
    for (int c = 0; c < static_cast<int>(alts.size()); ++c) {
        const calc::SharingAlternative& a = alts[static_cast<std::size_t>(c)];
        m.columns << names[static_cast<int>(a.mode)];
        const calc::Kpis& k = a.kpis;
        // What the mode's figures are about: a mode that places fewer jobs judges fewer jobs,
        // so its penalties are no better for it, and its P95 may be a shorter job's.
        int jobs = 0, placed = 0;
        QStringList trainingLeftOut;
        std::set<std::string> serving;
        if (a.scenario)
            for (const Tenant& t : a.scenario->tenants)
                for (const Job& j : t.jobs)
                    if (j.kind == JobKind::Inference)
                        serving.insert(j.id);
        if (a.evaluation)
            for (const calc::JobResult& j : a.evaluation->jobs) {
                ++jobs;
                placed += j.placed ? 1 : 0;
                if (!j.placed && !serving.count(j.id))
                    trainingLeftOut << QString::fromStdString(j.name);
            }
        QStringList v = {QString::fromStdString(a.setting)};
        const auto latency = [&](double s) {
            if (k.servingJobs == 0)
                return ResultsTr::tr("no serving job");
            return text::latency(s);
        };
        const QString noneRun = ResultsTr::tr("no job placed");
        if (a.offered && placed == 0)
            v << noneRun << noneRun << latency(k.servingTtftP99S) << latency(k.servingItlP99S)
              << (k.servingJobs > 0 ? QString::fromStdString(calc::formatServingSlo(k))
                                    : ResultsTr::tr("no serving job"))
              << pct(k.vramUtilization) << pct(k.fragmentation) << pct(k.allocationRatio)
              << QString::number(k.unplacedJobs);
        else if (a.offered)
            v << pct(k.meanPenalty) << pct(k.maxPenalty) << latency(k.servingTtftP99S) << latency(k.servingItlP99S)
              << (k.servingJobs > 0 ? QString::fromStdString(calc::formatServingSlo(k))
                                    : ResultsTr::tr("no serving job"))
              << pct(k.vramUtilization) << pct(k.fragmentation) << pct(k.allocationRatio)
              << QString::number(k.unplacedJobs);
        else
            v << "-"
              << "-"
              << "-"
              << "-"
              << "-"
              << "-"
              << "-"
              << "-"
              << "-";
        v << level(a.isolation.memory) << level(a.isolation.fault) << level(a.isolation.performance);
        if (a.offered)
            v << usd(k.costPerMonthUsd) << usd(k.wastePerMonthUsd()) << usd(k.costBreakdown.overheadUsd)
              << (!a.p95Days                    ? ResultsTr::tr("no training job placed")
                  : trainingLeftOut.isEmpty()   ? ResultsTr::tr("%1 days").arg(*a.p95Days, 0, 'f', 1)
                  : trainingLeftOut.size() == 1 ? ResultsTr::tr("%1 days; 1 job not placed").arg(*a.p95Days, 0, 'f', 1)
                                                : ResultsTr::tr("%1 days; %2 jobs not placed")
                                                      .arg(*a.p95Days, 0, 'f', 1)
                                                      .arg(trainingLeftOut.size()))
              << pct(a.memoryOverhead);
        else
            v << "-"
              << "-"
              << "-"
              << "-"
              << "-";
        for (int r = 0; r < static_cast<int>(v.size()); ++r) {
            MatrixCell& item = m.cells[static_cast<std::size_t>(r)][static_cast<std::size_t>(c)];
            item.text = v[r];
            if (r == 0 && a.nodesKept > 0)
                item.toolTip = (ResultsTr::tr("%n node(s) keep their own sharing: their GPU does not offer this mode",
                                              nullptr, a.nodesKept));
            // Inside the 80 % / 3 % target zone, and for every job of the plan (a mode that
            // leaves jobs out does not meet it by running fewer).
            if (a.offered && placed == jobs && jobs > 0 &&
                ((r == 1 && PlanningTarget::penaltyMet(k.meanPenalty)) ||
                 (r == 6 && PlanningTarget::vramMet(k.vramUtilization))))
                item.colour = QColor("#2e7d32");
            if (a.offered && placed == 0 && (r == 1 || r == 2))
                item.colour = QColor("#888888");
            if (a.offered && r == 16 && !trainingLeftOut.isEmpty()) {
                item.colour = QColor("#c62828");
                item.toolTip =
                    (ResultsTr::tr("Not the plan's P95: %1 not placed under this mode, so the slowest job that "
                                   "runs is a shorter one")
                         .arg(trainingLeftOut.join(", ")));
            }
            if (a.offered && r == 9 && k.unplacedJobs > 0)
                item.colour = QColor("#c62828");
            if (a.offered && r == 5 && k.servingJobsJudged > 0 && k.servingSloAttainment < 0.99)
                item.colour = QColor("#c62828");
            if (r >= 3 && r <= 5)
                item.toolTip =
                    (ResultsTr::tr("The worst P99 of the mode's placed serving jobs, and the mean share of requests "
                                   "within their tenants' TTFT and ITL objectives (docs/model-reference.md#serving)"));
            if (r == 17)
                item.toolTip =
                    (ResultsTr::tr("Usable VRAM this setting does not offer to jobs: MIG slices in no instance and "
                                   "the instances' smaller usable memory, vGPU framebuffers below the GPU's"));
            if (r == 16 && item.toolTip.isEmpty())
                item.toolTip = (ResultsTr::tr("The slowest training job's 95th-percentile completion in a Monte Carlo "
                                              "(%L1 trials, CPU, seed 1) of this mode's setting")
                                    .arg(sim::TrialCounts::kAlternative));
        }
    }
    return m;
}

void drawSharingModesChart(QChart* chart, const std::vector<calc::SharingAlternative>& alts, const calc::Kpis& current,
                           bool docked)
{
    // The same alternatives as points: VRAM utilization against mean penalty, with the
    // 80 % / 3 % target zone, and this scenario as it is.
    clearChart(chart);
    double maxPenalty = std::max(5.0, current.meanPenalty * 100.0);
    auto addPoint = [&](const QString& name, const calc::Kpis& k, const QColor& color, qreal size,
                        QScatterSeries::MarkerShape shape) {
        auto* series = new QScatterSeries;
        series->setName(name);
        series->setColor(color);
        series->setMarkerSize(size);
        series->setMarkerShape(shape);
        series->append(k.vramUtilization * 100.0, k.meanPenalty * 100.0);
        chart->addSeries(series);
        maxPenalty = std::max(maxPenalty, k.meanPenalty * 100.0);
    };
    auto* lower = new QLineSeries;
    auto* upper = new QLineSeries;
    const double vram = PlanningTarget::kMinVramUtilization * 100.0, penalty = PlanningTarget::kMaxMeanPenalty * 100.0;
    *lower << QPointF(vram, 0) << QPointF(100, 0);
    *upper << QPointF(vram, penalty) << QPointF(100, penalty);
    auto* zone = ownedAreaSeries(upper, lower);
    zone->setName(docked ? ResultsTr::tr("target zone")
                         : ResultsTr::tr("target: %1").arg(QString::fromStdString(PlanningTarget::text())));
    zone->setColor(QColor(46, 125, 50, 60));
    zone->setBorderColor(QColor("#2e7d32"));
    chart->addSeries(zone);
    const QString* names = modeNames();
    static const QColor colors[] = {QColor("#4e79a7"), QColor("#76b7b2"), QColor("#59a14f"),
                                    QColor("#edc948"), QColor("#e15759"), QColor("#b07aa1")};
    addPoint(ResultsTr::tr("this scenario"), current, darkPalette() ? QColor("#f0f0f0") : QColor("#000000"), 19,
             QScatterSeries::MarkerShapeRectangle); // under the modes
    for (const calc::SharingAlternative& a : alts)
        if (a.offered)
            addPoint(QString("%1 (%2)").arg(names[static_cast<int>(a.mode)], QString::fromStdString(a.setting)), a.kpis,
                     colors[static_cast<int>(a.mode)], 11, QScatterSeries::MarkerShapeCircle);
    auto* x = new QValueAxis;
    x->setTitleText(ResultsTr::tr("VRAM utilization"));
    x->setRange(0, 100);
    x->setLabelFormat(ResultsTr::tr("%.0f %%"));
    auto* y = new QValueAxis;
    y->setRange(0, maxPenalty * 1.1);
    y->applyNiceNumbers();
    y->setLabelFormat(ResultsTr::tr("%.0f %%")); // mean sharing penalty: the legend's points say so
    y->setTitleText(docked ? QString() : ResultsTr::tr("mean penalty"));
    chart->addAxis(x, Qt::AlignBottom);
    chart->addAxis(y, Qt::AlignLeft);
    for (QAbstractSeries* series : chart->series()) {
        series->attachAxis(x);
        series->attachAxis(y);
    }
    chart->legend()->setAlignment(Qt::AlignRight);
}

QString drawCostChart(QChart* chart, const calc::Evaluation& ev)
{
    clearChart(chart);
    if (ev.gpus.empty())
        return ResultsTr::tr("Nothing costs anything yet: the plan has no GPU nodes.");
    if (ev.kpis.costPerMonthUsd <= 0.0)
        return ResultsTr::tr("The plan's GPUs have no price in the catalog, so there is no bill to divide.");
    // The four parts of the bill (calc::costParts): they add up to the cost, so the bar is as
    // long as the bill.
    auto* cost = new QHorizontalStackedBarSeries;
    for (const calc::CostPart& part : calc::costParts()) {
        const double value = ev.kpis.costBreakdown.*part.value;
        auto* set = new QBarSet(QString("%1 $%2k").arg(QString::fromUtf8(part.label)).arg(value / 1000.0, 0, 'f', 0));
        *set << value / 1000.0;
        set->setColor(QColor(part.color));
        cost->append(set);
    }
    chart->addSeries(cost);
    auto* costAxis = new QValueAxis;
    costAxis->setRange(0, std::max(1.0, ev.kpis.costPerMonthUsd / 1000.0));
    costAxis->applyNiceNumbers();
    costAxis->setLabelFormat(
        ResultsTr::tr("$%.0fk")); // per month; the unit in the labels leaves no axis title to squeeze
    chart->addAxis(costAxis, Qt::AlignBottom);
    cost->attachAxis(costAxis);
    chart->legend()->setAlignment(Qt::AlignBottom);
    return {};
}

QString drawMemoryChart(QChart* chart, const Scenario& s, const calc::Evaluation& ev, bool docked)
{
    clearChart(chart);
    if (ev.jobs.empty())
        return ResultsTr::tr("No job yet: add one with Edit > Add Job (Ctrl+J) to see the memory it needs.");
    {
        std::map<std::string, std::string> names;
        for (const Tenant& t : s.tenants)
            for (const Job& j : t.jobs)
                names[j.id] = j.name;
        std::vector<const calc::JobResult*> jobs;
        for (const calc::JobResult& j : ev.jobs)
            jobs.push_back(&j);
        std::stable_sort(jobs.begin(), jobs.end(),
                         [](auto* a, auto* b) { return a->memory.totalBytes() > b->memory.totalBytes(); });
        jobs.resize(static_cast<std::size_t>(resultsBarsShown(jobs.size(), docked)));
        struct Part
        {
            QString name;
            QColor color;
            double (*bytes)(const calc::MemoryBreakdown&);
        };
        const Part parts[] = {{ResultsTr::tr("weights"), QColor("#4e79a7"),
                               [](const calc::MemoryBreakdown& m) { return m.weightsBytes; }},
                              {ResultsTr::tr("gradients"), QColor("#f28e2b"),
                               [](const calc::MemoryBreakdown& m) { return m.gradientsBytes; }},
                              {ResultsTr::tr("optimizer"), QColor("#e15759"),
                               [](const calc::MemoryBreakdown& m) { return m.optimizerBytes; }},
                              {ResultsTr::tr("activations"), QColor("#76b7b2"),
                               [](const calc::MemoryBreakdown& m) { return m.activationsBytes.value_or(0.0); }},
                              {ResultsTr::tr("KV cache"), QColor("#59a14f"),
                               [](const calc::MemoryBreakdown& m) { return m.kvCacheBytes.value_or(0.0); }},
                              {ResultsTr::tr("runtime"), QColor("#bab0ac"),
                               [](const calc::MemoryBreakdown& m) { return m.runtimeBytes; }}};
        auto* stacked = new QHorizontalStackedBarSeries;
        for (const Part& part : parts) {
            auto* set = new QBarSet(part.name);
            set->setColor(part.color);
            for (auto it = jobs.rbegin(); it != jobs.rend(); ++it) // largest at the top
                *set << part.bytes((*it)->memory) / kGiB;
            stacked->append(set);
        }
        QStringList labels;
        double widest = 1.0;
        for (auto it = jobs.rbegin(); it != jobs.rend(); ++it) {
            const calc::JobResult& j = **it;
            const auto name = names.find(j.id);
            QString label = QString::fromStdString(name != names.end() ? name->second : j.id);
            if (label.size() > 48) // whole names as far as they can be: exports must not show "…"
                label = label.left(47) + "…";
            labels << (j.placed
                           ? ResultsTr::tr("%1 (slot %2 GiB)").arg(label).arg(j.capacityPerGpuBytes / kGiB, 0, 'f', 0)
                           : ResultsTr::tr("%1 (not placed)").arg(label));
            widest = std::max({widest, j.memory.totalBytes() / kGiB, j.capacityPerGpuBytes / kGiB});
        }
        chart->addSeries(stacked);
        auto* jobAxis = new QBarCategoryAxis;
        jobAxis->append(labels);
        jobAxis->setTruncateLabels(false); // Qt Charts elides them to "…" long before they need it
        chart->addAxis(jobAxis, Qt::AlignLeft);
        stacked->attachAxis(jobAxis);
        auto* gib = new QValueAxis;
        gib->setRange(0, widest * 1.05);
        gib->applyNiceNumbers();
        gib->setLabelFormat(ResultsTr::tr("%.0f GiB")); // per GPU
        chart->addAxis(gib, Qt::AlignBottom);
        stacked->attachAxis(gib);
        chart->legend()->setAlignment(Qt::AlignRight);
    }
    return {};
}

QString drawTradeOffChart(QChart* chart, const Scenario& s, const calc::Evaluation& ev, bool docked)
{
    clearChart(chart);
    if (std::none_of(ev.jobs.begin(), ev.jobs.end(), [](const calc::JobResult& j) { return j.placed; }))
        return ev.jobs.empty() ? ResultsTr::tr("No job yet, so no memory use or penalty to show.")
                               : ResultsTr::tr("No job is placed, so no job has a memory use or a penalty to show.");
    std::map<std::string, QScatterSeries*> byTenant;
    double maxPenalty = 0.05;
    for (const Tenant& t : s.tenants) {
        auto* series = new QScatterSeries;
        series->setName(QString::fromStdString(t.name));
        series->setColor(QColor(QString::fromStdString(t.color)));
        series->setMarkerSize(11);
        byTenant[t.id] = series;
    }
    for (const calc::JobResult& j : ev.jobs)
        if (j.placed && byTenant.count(j.tenant) && j.capacityPerGpuBytes > 0) {
            byTenant[j.tenant]->append(std::min(1.5, j.memory.totalBytes() / j.capacityPerGpuBytes) * 100.0,
                                       j.penalty * 100.0);
            maxPenalty = std::max(maxPenalty, j.penalty);
        }
    auto* x = new QValueAxis;
    x->setTitleText(ResultsTr::tr("memory per GPU, % of its slot"));
    x->setRange(0, 150);
    x->setTickCount(7);
    x->setLabelFormat(ResultsTr::tr("%.0f %%"));
    auto* y = new QValueAxis;
    y->setTitleText(docked ? QString() : ResultsTr::tr("sharing penalty"));
    y->setRange(0, maxPenalty * 110.0);
    y->applyNiceNumbers();
    y->setLabelFormat(ResultsTr::tr("%.0f %%"));
    chart->addAxis(x, Qt::AlignBottom);
    chart->addAxis(y, Qt::AlignLeft);
    for (auto& [id, series] : byTenant) {
        chart->addSeries(series);
        series->attachAxis(x);
        series->attachAxis(y);
    }
    return {};
}

QString drawLinksChart(QChart* chart, const calc::Evaluation& ev, bool docked)
{
    clearChart(chart);
    std::vector<const calc::LinkResult*> links;
    for (const auto& l : ev.links)
        if (l.loadGbps > 0)
            links.push_back(&l);
    std::sort(links.begin(), links.end(), [](auto* a, auto* b) { return a->utilization > b->utilization; });
    // Bars on a 0-100 % axis say nothing below 1 % (the Mixed sharing lab drew an empty chart, the
    // DGX H100 pod eight bars of a pixel): one line says what there is instead.
    if (ev.links.empty())
        return ResultsTr::tr("The plan has no links: nothing to load.");
    if (links.empty())
        return ResultsTr::tr("No link carries traffic: no placed job spans nodes (within a node, GPUs talk over "
                             "NVLink or PCIe).");
    if (links.front()->utilization < 0.01)
        return ResultsTr::tr("No link is busier than 1 % of its bandwidth: the busiest, %1, carries %2 (%3 Gb/s).")
            .arg(QString::fromStdString(links.front()->id), text::percent(links.front()->utilization, 2))
            .arg(links.front()->loadGbps, 0, 'f', 1);
    links.resize(static_cast<std::size_t>(std::min(resultsBarsShown(links.size(), docked), 10)));
    auto* load = new QBarSet(ResultsTr::tr("utilization %"));
    load->setColor(QColor("#4e79a7"));
    QStringList names;
    for (auto it = links.rbegin(); it != links.rend(); ++it) {
        *load << (*it)->utilization * 100.0;
        names << QString::fromStdString((*it)->id);
    }
    auto* series = new QHorizontalBarSeries;
    series->append(load);
    chart->addSeries(series);
    auto* cats = new QBarCategoryAxis;
    cats->append(names);
    cats->setTruncateLabels(false);
    auto* util = new QValueAxis;
    util->setRange(0, 100);
    util->setLabelFormat(ResultsTr::tr("%.0f %%")); // of the link's bandwidth
    chart->addAxis(cats, Qt::AlignLeft);
    chart->addAxis(util, Qt::AlignBottom);
    series->attachAxis(cats);
    series->attachAxis(util);
    chart->legend()->hide();
    return {};
}

} // namespace gp::ui
