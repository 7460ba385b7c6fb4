// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#include "resultscharts.h"
#include "io/textformat.h"
#include "model/planningtarget.h"
#include "model/units.h"
#include "sim/planresults.h"

#include "calc/comparison.h"
#include "model/enumnames.h"

#include "charttheme.h"
#include "simulationcharts.h"

#include <QAreaSeries>
#include <QBarCategoryAxis>
#include <QBarSet>
#include <QChart>
#include <QChartView>
#include <QDialog>
#include <QHeaderView>
#include <QHorizontalBarSeries>
#include <QHorizontalStackedBarSeries>
#include <QLabel>
#include <QLineSeries>
#include <QScatterSeries>
#include <QTableWidget>
#include <QToolButton>
#include <QVBoxLayout>
#include <QValueAxis>

#include <algorithm>
#include <map>
#include <set>

namespace gp::ui {

QChart* ResultsCharts::addChart(const QString& title)
{
    auto* chart = new QChart;
    themeChart(chart);
    if (mDocked) // the tab names it; every pixel of height goes to the axes and bars
        compactChart(chart);
    else
        chart->setTitle(title);
    auto* view = new QChartView(chart, this);
    view->setRenderHint(QPainter::Antialiasing);
    addTab(view, title);
    return chart;
}

int ResultsCharts::barsShown(std::size_t available) const
{
    return static_cast<int>(std::min<std::size_t>(available, mDocked ? 8 : 20));
}

ResultsCharts::ResultsCharts(QWidget* parent, bool docked) : QTabWidget(parent), mDocked(docked)
{
    mCost = addChart(tr("Cost per month"));
    mMemory = addChart(tr("Memory per job"));
    mTradeOff = addChart(tr("Memory use vs penalty"));
    mLinks = addChart(tr("Busiest links"));
    mCompletion = new CompletionView(this);
    addTab(mCompletion, tr("Completion times"));
    mTimeline = new TimelineView(this);
    addTab(mTimeline, tr("Timeline"));
    mModes = addChart(tr("Utilization vs penalty by sharing mode"));
    mTradeOff->setToolTip(tr("Each placed job: its memory per GPU as a share of its slot (across) against its "
                             "penalty against bare metal (up), coloured by tenant"));
    mModes->setToolTip(tr("The tenant mix under each sharing mode at its best setting: VRAM utilization (across) "
                          "against the mean penalty against bare metal (up); the green zone is the planning target"));
    mMatrix = new QTableWidget(this);
    mMatrix->setEditTriggers(QAbstractItemView::NoEditTriggers);
    mMatrix->horizontalHeader()->setSectionResizeMode(QHeaderView::Stretch);
    mMatrix->setToolTip(tr("The current tenant mix with every GPU shared one way, each mode at its best setting "
                           "(its densest packing: fewest unplaced jobs, then the least GPU share allocated, then the "
                           "lowest penalty). Isolation "
                           "per NVIDIA's MIG, vGPU and MPS documentation; see docs/model-reference.md."));
    addTab(mMatrix, tr("Sharing trade-offs"));
    if (docked) {
        compactChart(mCompletion->chart());
        compactChart(mTimeline->chart());
        auto* popOut = new QToolButton(this);
        popOut->setObjectName("PopOutChart");
        popOut->setText(tr("Open in Window"));
        popOut->setToolTip(tr("Show this tab in a window of its own, as large as you like; closing the window "
                              "puts it back"));
        popOut->setAutoRaise(true);
        connect(popOut, &QToolButton::clicked, this, [this] { popOutCurrent(); });
        setCornerWidget(popOut, Qt::TopRightCorner);
    }
}

QWidget* ResultsCharts::popOutCurrent()
{
    const int index = currentIndex();
    QWidget* page = currentWidget();
    if (!page || page->objectName() == "PoppedOut") // its window is open already
        return nullptr;
    const QString title = tabText(index);
    auto* window = new QDialog(this, Qt::Window);
    window->setObjectName("ChartWindow");
    window->setAttribute(Qt::WA_DeleteOnClose);
    window->setWindowTitle(title);
    auto* layout = new QVBoxLayout(window);
    auto* placeholder = new QLabel(tr("%1 is open in its own window; close that window to bring it back.").arg(title));
    placeholder->setObjectName("PoppedOut");
    placeholder->setAlignment(Qt::AlignCenter);
    removeTab(index);
    insertTab(index, placeholder, title);
    setCurrentIndex(index);
    layout->addWidget(page);
    page->show();
    auto* chartView = qobject_cast<QChartView*>(page);
    if (chartView)
        chartView->chart()->setTitle(title);
    // Back in its tab when the window closes (the page outlives the window: it is re-parented
    // before the window deletes its children).
    connect(window, &QDialog::finished, this, [this, page, placeholder, title, chartView] {
        const int at = indexOf(placeholder);
        if (chartView && mDocked)
            chartView->chart()->setTitle(QString());
        page->setParent(nullptr);
        removeTab(at);
        insertTab(at, page, title);
        setCurrentIndex(at);
        delete placeholder;
    });
    window->resize(std::max(900, width()), 600);
    window->show();
    return window;
}

void ResultsCharts::showAlternatives(const std::vector<calc::SharingAlternative>& alts)
{
    static const QString names[] = {QString::fromUtf8(displayName(SharingMode::Exclusive)),
                                    QString::fromUtf8(displayName(SharingMode::Passthrough)),
                                    QString::fromUtf8(displayName(SharingMode::Mig)),
                                    QString::fromUtf8(displayName(SharingMode::Vgpu)),
                                    QString::fromUtf8(displayName(SharingMode::TimeSlicing)),
                                    QString::fromUtf8(displayName(SharingMode::Mps))};
    const QStringList rows = {tr("Setting"),
                              tr("Mean penalty"),
                              tr("Max penalty"),
                              tr("Serving TTFT P99"),
                              tr("Serving ITL P99"),
                              tr("Serving SLO attainment"),
                              tr("VRAM utilization"),
                              tr("Fragmentation"),
                              tr("GPU share allocated"),
                              tr("Unplaced jobs"),
                              tr("Memory isolation"),
                              tr("Fault isolation"),
                              tr("Performance isolation"),
                              tr("$ per month"),
                              tr("$ wasted per month"),
                              tr("  of which overhead"),
                              tr("P95 completion"),
                              tr("Memory overhead")};
    mMatrix->clear();
    mMatrix->setRowCount(static_cast<int>(rows.size()));
    mMatrix->setColumnCount(static_cast<int>(alts.size()));
    mMatrix->setVerticalHeaderLabels(rows);
    auto pct = [](double f) { return text::percent(f); };
    auto usd = [](double v) { return text::usdThousands(v); };
    auto level = [this](int v) { return v >= 2 ? tr("enforced") : v == 1 ? tr("partial") : tr("none"); };
    QStringList headers;
    for (int c = 0; c < static_cast<int>(alts.size()); ++c) {
        const calc::SharingAlternative& a = alts[static_cast<std::size_t>(c)];
        headers << names[static_cast<int>(a.mode)];
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
                return tr("no serving job");
            return text::latency(s);
        };
        const QString noneRun = tr("no job placed");
        if (a.offered && placed == 0)
            v << noneRun << noneRun << latency(k.servingTtftP99S) << latency(k.servingItlP99S)
              << (k.servingJobs > 0 ? pct(k.servingSloAttainment) : tr("no serving job")) << pct(k.vramUtilization)
              << pct(k.fragmentation) << pct(k.allocationRatio) << QString::number(k.unplacedJobs);
        else if (a.offered)
            v << pct(k.meanPenalty) << pct(k.maxPenalty) << latency(k.servingTtftP99S) << latency(k.servingItlP99S)
              << (k.servingJobs > 0 ? pct(k.servingSloAttainment) : tr("no serving job")) << pct(k.vramUtilization)
              << pct(k.fragmentation) << pct(k.allocationRatio) << QString::number(k.unplacedJobs);
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
            v << usd(k.costPerMonthUsd) << usd(k.wastePerMonth.total()) << usd(k.wastePerMonth.overheadUsd)
              << (!a.p95Days                  ? tr("no training job placed")
                  : trainingLeftOut.isEmpty() ? tr("%1 days").arg(*a.p95Days, 0, 'f', 1)
                  : trainingLeftOut.size() == 1
                      ? tr("%1 days; 1 job not placed").arg(*a.p95Days, 0, 'f', 1)
                      : tr("%1 days; %2 jobs not placed").arg(*a.p95Days, 0, 'f', 1).arg(trainingLeftOut.size()))
              << pct(a.memoryOverhead);
        else
            v << "-"
              << "-"
              << "-"
              << "-"
              << "-";
        for (int r = 0; r < static_cast<int>(v.size()); ++r) {
            auto* item = new QTableWidgetItem(v[r]);
            item->setTextAlignment(Qt::AlignCenter);
            if (r == 0 && a.nodesKept > 0)
                item->setToolTip(
                    tr("%n node(s) keep their own sharing: their GPU does not offer this mode", nullptr, a.nodesKept));
            // Inside the 80 % / 3 % target zone, and for every job of the plan (a mode that
            // leaves jobs out does not meet it by running fewer).
            if (a.offered && placed == jobs && jobs > 0 &&
                ((r == 1 && PlanningTarget::penaltyMet(k.meanPenalty)) ||
                 (r == 6 && PlanningTarget::vramMet(k.vramUtilization))))
                item->setForeground(QColor("#2e7d32"));
            if (a.offered && placed == 0 && (r == 1 || r == 2))
                item->setForeground(QColor("#888888"));
            if (a.offered && r == 16 && !trainingLeftOut.isEmpty()) {
                item->setForeground(QColor("#c62828"));
                item->setToolTip(tr("Not the plan's P95: %1 not placed under this mode, so the slowest job that "
                                    "runs is a shorter one")
                                     .arg(trainingLeftOut.join(", ")));
            }
            if (a.offered && r == 9 && k.unplacedJobs > 0)
                item->setForeground(QColor("#c62828"));
            if (a.offered && r == 5 && k.servingJobs > 0 && k.servingSloAttainment < 0.99)
                item->setForeground(QColor("#c62828"));
            if (r >= 3 && r <= 5)
                item->setToolTip(tr("The worst P99 of the mode's placed serving jobs, and the mean share of requests "
                                    "within their tenants' TTFT and ITL objectives (docs/model-reference.md#serving)"));
            if (r == 17)
                item->setToolTip(tr("Usable VRAM this setting does not offer to jobs: MIG slices in no instance and "
                                    "the instances' smaller usable memory, vGPU framebuffers below the GPU's"));
            if (r == 16 && item->toolTip().isEmpty())
                item->setToolTip(tr("The slowest training job's 95th-percentile completion in a Monte Carlo "
                                    "(%L1 trials, CPU, seed 1) of this mode's setting")
                                     .arg(sim::TrialCounts::kAlternative));
            mMatrix->setItem(r, c, item);
        }
    }
    mMatrix->setHorizontalHeaderLabels(headers);

    // The same alternatives as points: VRAM utilization against mean penalty, with the
    // 80 % / 3 % target zone, and this scenario as it is.
    clearChart(mModes);
    double maxPenalty = std::max(5.0, mCurrent.meanPenalty * 100.0);
    auto addPoint = [&](const QString& name, const calc::Kpis& k, const QColor& color, qreal size,
                        QScatterSeries::MarkerShape shape) {
        auto* series = new QScatterSeries;
        series->setName(name);
        series->setColor(color);
        series->setMarkerSize(size);
        series->setMarkerShape(shape);
        series->append(k.vramUtilization * 100.0, k.meanPenalty * 100.0);
        mModes->addSeries(series);
        maxPenalty = std::max(maxPenalty, k.meanPenalty * 100.0);
    };
    auto* lower = new QLineSeries;
    auto* upper = new QLineSeries;
    const double vram = PlanningTarget::kMinVramUtilization * 100.0, penalty = PlanningTarget::kMaxMeanPenalty * 100.0;
    *lower << QPointF(vram, 0) << QPointF(100, 0);
    *upper << QPointF(vram, penalty) << QPointF(100, penalty);
    auto* zone = ownedAreaSeries(upper, lower);
    zone->setName(mDocked ? tr("target zone") : tr("target: %1").arg(QString::fromStdString(PlanningTarget::text())));
    zone->setColor(QColor(46, 125, 50, 60));
    zone->setBorderColor(QColor("#2e7d32"));
    mModes->addSeries(zone);
    static const QColor colors[] = {QColor("#4e79a7"), QColor("#76b7b2"), QColor("#59a14f"),
                                    QColor("#edc948"), QColor("#e15759"), QColor("#b07aa1")};
    addPoint(tr("this scenario"), mCurrent, darkPalette() ? QColor("#f0f0f0") : QColor("#000000"), 19,
             QScatterSeries::MarkerShapeRectangle); // under the modes
    for (const calc::SharingAlternative& a : alts)
        if (a.offered)
            addPoint(QString("%1 (%2)").arg(names[static_cast<int>(a.mode)], QString::fromStdString(a.setting)), a.kpis,
                     colors[static_cast<int>(a.mode)], 11, QScatterSeries::MarkerShapeCircle);
    auto* x = new QValueAxis;
    x->setTitleText(tr("VRAM utilization"));
    x->setRange(0, 100);
    x->setLabelFormat(tr("%.0f %%"));
    auto* y = new QValueAxis;
    y->setRange(0, maxPenalty * 1.1);
    y->applyNiceNumbers();
    y->setLabelFormat(tr("%.0f %%")); // mean penalty against bare metal: the legend's points say so
    y->setTitleText(mDocked ? QString() : tr("mean penalty"));
    mModes->addAxis(x, Qt::AlignBottom);
    mModes->addAxis(y, Qt::AlignLeft);
    for (QAbstractSeries* series : mModes->series()) {
        series->attachAxis(x);
        series->attachAxis(y);
    }
    mModes->legend()->setAlignment(Qt::AlignRight);
}

void ResultsCharts::showEvaluation(const Scenario& s, const calc::Evaluation& ev)
{
    mCurrent = ev.kpis;
    // Where the money goes, one stacked bar.
    clearChart(mCost);
    const calc::WasteBreakdown& w = ev.kpis.wastePerMonth;
    const double useful = std::max(0.0, ev.kpis.costPerMonthUsd - w.total());
    auto* cost = new QHorizontalStackedBarSeries;
    const std::pair<QString, std::pair<double, QColor>> parts[] = {
        {tr("useful"), {useful, QColor("#59a14f")}},
        {tr("idle"), {w.idleUsd, QColor("#bab0ac")}},
        {tr("stranded"), {w.strandedUsd, QColor("#f28e2b")}},
        {tr("overhead"), {w.overheadUsd, QColor("#e15759")}}};
    for (const auto& [name, value] : parts) {
        auto* set = new QBarSet(QString("%1 $%2k").arg(name).arg(value.first / 1000.0, 0, 'f', 0));
        *set << value.first / 1000.0;
        set->setColor(value.second);
        cost->append(set);
    }
    mCost->addSeries(cost);
    auto* costAxis = new QValueAxis;
    costAxis->setRange(0, std::max(1.0, ev.kpis.costPerMonthUsd / 1000.0));
    costAxis->applyNiceNumbers();
    costAxis->setLabelFormat(tr("$%.0fk")); // per month; the unit in the labels leaves no axis title to squeeze
    mCost->addAxis(costAxis, Qt::AlignBottom);
    cost->attachAxis(costAxis);
    mCost->legend()->setAlignment(Qt::AlignBottom);

    // Each job's memory per GPU by kind, largest first (barsShown: 20, eight when docked), its slot in the label.
    clearChart(mMemory);
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
        jobs.resize(static_cast<std::size_t>(barsShown(jobs.size())));
        struct Part
        {
            QString name;
            QColor color;
            double (*bytes)(const calc::MemoryBreakdown&);
        };
        const Part parts[] = {
            {tr("weights"), QColor("#4e79a7"), [](const calc::MemoryBreakdown& m) { return m.weightsBytes; }},
            {tr("gradients"), QColor("#f28e2b"), [](const calc::MemoryBreakdown& m) { return m.gradientsBytes; }},
            {tr("optimizer"), QColor("#e15759"), [](const calc::MemoryBreakdown& m) { return m.optimizerBytes; }},
            {tr("activations"), QColor("#76b7b2"),
             [](const calc::MemoryBreakdown& m) { return m.activationsBytes.value_or(0.0); }},
            {tr("KV cache"), QColor("#59a14f"),
             [](const calc::MemoryBreakdown& m) { return m.kvCacheBytes.value_or(0.0); }},
            {tr("runtime"), QColor("#bab0ac"), [](const calc::MemoryBreakdown& m) { return m.runtimeBytes; }}};
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
            labels << (j.placed ? tr("%1 (slot %2 GiB)").arg(label).arg(j.capacityPerGpuBytes / kGiB, 0, 'f', 0)
                                : tr("%1 (not placed)").arg(label));
            widest = std::max({widest, j.memory.totalBytes() / kGiB, j.capacityPerGpuBytes / kGiB});
        }
        mMemory->addSeries(stacked);
        auto* jobAxis = new QBarCategoryAxis;
        jobAxis->append(labels);
        jobAxis->setTruncateLabels(false); // Qt Charts elides them to "…" long before they need it
        mMemory->addAxis(jobAxis, Qt::AlignLeft);
        stacked->attachAxis(jobAxis);
        auto* gib = new QValueAxis;
        gib->setRange(0, widest * 1.05);
        gib->applyNiceNumbers();
        gib->setLabelFormat(tr("%.0f GiB")); // per GPU
        mMemory->addAxis(gib, Qt::AlignBottom);
        stacked->attachAxis(gib);
        mMemory->legend()->setAlignment(Qt::AlignRight);
    }

    // Each placed job: how much of its GPU share its memory fills, against its penalty.
    clearChart(mTradeOff);
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
    x->setTitleText(tr("memory per GPU, % of its slot"));
    x->setRange(0, 150);
    x->setTickCount(7);
    x->setLabelFormat(tr("%.0f %%"));
    auto* y = new QValueAxis;
    y->setTitleText(mDocked ? QString() : tr("penalty against bare metal"));
    y->setRange(0, maxPenalty * 110.0);
    y->applyNiceNumbers();
    y->setLabelFormat(tr("%.0f %%"));
    mTradeOff->addAxis(x, Qt::AlignBottom);
    mTradeOff->addAxis(y, Qt::AlignLeft);
    for (auto& [id, series] : byTenant) {
        mTradeOff->addSeries(series);
        series->attachAxis(x);
        series->attachAxis(y);
    }

    // The busiest links (ten, eight when docked).
    clearChart(mLinks);
    std::vector<const calc::LinkResult*> links;
    for (const auto& l : ev.links)
        if (l.loadGbps > 0)
            links.push_back(&l);
    std::sort(links.begin(), links.end(), [](auto* a, auto* b) { return a->utilization > b->utilization; });
    links.resize(static_cast<std::size_t>(std::min(barsShown(links.size()), 10)));
    auto* load = new QBarSet(tr("utilization %"));
    load->setColor(QColor("#4e79a7"));
    QStringList names;
    for (auto it = links.rbegin(); it != links.rend(); ++it) {
        *load << (*it)->utilization * 100.0;
        names << QString::fromStdString((*it)->id);
    }
    auto* series = new QHorizontalBarSeries;
    series->append(load);
    mLinks->addSeries(series);
    auto* cats = new QBarCategoryAxis;
    cats->append(names);
    cats->setTruncateLabels(false);
    auto* util = new QValueAxis;
    util->setRange(0, 100);
    util->setLabelFormat(tr("%.0f %%")); // of the link's bandwidth
    mLinks->addAxis(cats, Qt::AlignLeft);
    mLinks->addAxis(util, Qt::AlignBottom);
    series->attachAxis(cats);
    series->attachAxis(util);
    mLinks->legend()->hide();
}

} // namespace gp::ui
