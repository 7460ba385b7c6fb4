// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#pragma once

#include "calc/alternatives.h"
#include "calc/evaluation.h"
#include "calc/inventory.h"
#include "model/catalog.h"
#include "model/scenario.h"
#include "resultsfigures.h"
#include "sim/planresults.h"
#include "sim/simulation.h"

#include <QString>

#include <memory>
#include <vector>

class QChart;
class QGraphicsScene;
class QPainter;
class QRectF;

namespace gp::ui {

class CanvasScene;

/// Everything a report page or a slide shows of one plan, from the plan's results
/// (sim::PlanResults: the same evaluation, Monte Carlo and trade-off matrix the workbench
/// shows), with the inventory, the charts (drawn by the same functions as the workbench's,
/// resultsfigures.h and simulationfigures.h) and the canvas filled from them (rendered as vectors
/// onto pages and slides). Computes nothing heavy itself. Needs a QApplication (the canvas and the
/// charts are graphics items).
struct PlanFigures
{
    PlanFigures(const sim::PlanResults& results, const Catalog& catalog);
    ~PlanFigures();
    PlanFigures(const PlanFigures&) = delete;
    PlanFigures& operator=(const PlanFigures&) = delete;

    Scenario scenario;
    calc::Evaluation evaluation;
    std::shared_ptr<const sim::SimulationResult> simulation;
    std::vector<calc::SharingAlternative> alternatives;
    calc::Inventory inventory;
    /// The scenario's price preset as the catalog names it ("Lambda Cloud on-demand 8-GPU instances
    /// (2025)"); its id when the catalog does not know it, empty without a preset.
    std::string pricesName;
    /// The charts, each in a scene of its own (drawChart renders the chart's scene), titled.
    struct Charts
    {
        QChart* cost = nullptr;
        QChart* memory = nullptr;
        QChart* tradeOff = nullptr;
        QChart* links = nullptr;
        QChart* sharingModes = nullptr;
        QChart* completion = nullptr;
        QChart* timeline = nullptr;
    } charts;
    SharingMatrix matrix; ///< the sharing trade-off matrix of `alternatives`
    /// The canvas of the plan, up to limits::kReportTopologyMaxNodes nodes; empty beyond (then
    /// `topologySummarized` and drawTopologyFigure draws racks as blocks with counts).
    std::unique_ptr<CanvasScene> topology;
    bool topologySummarized = false;

private:
    std::vector<std::unique_ptr<QGraphicsScene>> mChartScenes;

public:
    /// The topology fitted into `area`: the canvas, or for a plan of more than
    /// limits::kReportTopologyMaxNodes nodes its racks as blocks (drawTopologySummary).
    void drawTopologyFigure(QPainter& p, const QRectF& area) const;
    /// One line under the topology figure: what it shows.
    QString topologyCaption() const;

    /// The executive summary in business terms ($ per month and wasted, days, P95, risks).
    QString summaryHtml() const;
    /// The key figures as a two-column table.
    QString kpiTableHtml() const;
    /// The sharing trade-off matrix as a table.
    QString matrixHtml() const;
    /// Every job: tenant, placed, GiB per GPU, penalty, days, P95 days, $ per month.
    QString jobsTableHtml() const;
    /// The placement policy, prices, overridden assumptions and where the formulas come from.
    QString assumptionsHtml() const;
    /// The sharing modes the scenario uses, in the order bare metal, passthrough, MIG, vGPU,
    /// time-slicing, MPS.
    std::vector<SharingMode> modesUsed() const;
    /// Every chart as PNG (1600 x 900) and SVG, and the KPIs and jobs as CSV (kpis.csv,
    /// jobs.csv), as relative file names and contents for io::writeFiles.
    std::vector<std::pair<QString, QByteArray>> chartAndTableFiles() const;
};

/// Draws HTML (a QTextDocument) into `area`.
void drawHtml(QPainter& p, const QRectF& area, const QString& html, int pointSize = 10);
/// Draws a chart into `area` as vectors, laid out at 1/`zoom` of the area's size and scaled
/// up, so that its text grows with it (slides use a zoom above 1 for the room's back row).
void drawChart(QPainter& p, const QRectF& area, QChart* chart, double zoom = 1.0);
/// The same with the chart's legend drawn as text below it, one entry a line with its colour:
/// Qt Charts lays a legend out in one row and elides the names ("t… B… P…") when a chart on a
/// page or slide is narrow.
void drawChartWithLegend(QPainter& p, const QRectF& area, QChart* chart, double zoom, int pointSize);
/// Appends a chart (in a scene) as `name`.png (1600 x 900) and `name`.svg, for io::writeFiles.
void appendChartPictures(std::vector<std::pair<QString, QByteArray>>& files, const QString& name, QChart* chart);
/// Draws the topology (the canvas scene) fitted into `area`.
void drawTopology(QPainter& p, const QRectF& area, CanvasScene& topology);

} // namespace gp::ui
