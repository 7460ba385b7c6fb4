// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#include "reportwriter.h"

#include "io/filewriter.h"
#include "planfigures.h"
#include "recommendation.h"
#include "ui/canvas/canvasscene.h"

#include <QBuffer>
#include <QChart>
#include <QDateTime>
#include <QLegend>
#include <QPainter>
#include <QPdfWriter>

namespace gp::ui {

namespace {

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

/// The report's page: A4 landscape, 12 mm margins, 96 dpi.
void setUpPage(QPdfWriter& pdf)
{
    pdf.setPageSize(QPageSize(QPageSize::A4));
    pdf.setPageOrientation(QPageLayout::Landscape);
    pdf.setPageMargins(QMarginsF(12, 12, 12, 12), QPageLayout::Millimeter);
    pdf.setResolution(96);
}

/// Below each page's heading.
QRectF contentOf(const QRectF& body) { return body.adjusted(0, 40, 0, 0); }

constexpr int kMeasuredPointSize = 8;

} // namespace

int measuredReportPages(const MeasuredComparison& measured)
{
    QBuffer nowhere;
    nowhere.open(QIODevice::WriteOnly);
    QPdfWriter pdf(&nowhere);
    setUpPage(pdf);
    const QRectF content = contentOf(QRectF(0, 0, pdf.width(), pdf.height()));
    return static_cast<int>(measuredComparisonPages(measured, content.size(), kMeasuredPointSize).size());
}

Status writeReport(const sim::PlanResults& results, const Catalog& catalog, const QString& pdfPath,
                   const sim::PlanResults* current, const MeasuredComparison* measured)
{
    const PlanFigures f(results, catalog);
    const Scenario& s = f.scenario;

    // Drawn in memory, then through the one writer: the target is the whole report or untouched.
    QByteArray bytes;
    QBuffer file(&bytes);
    file.open(QIODevice::WriteOnly);
    {
        QPdfWriter pdf(&file);
        pdf.setTitle(QObject::tr("gpuplan report: %1").arg(QString::fromStdString(s.name)));
        pdf.setCreator("gpuplan");
        setUpPage(pdf);
        QPainter p(&pdf);
        if (!p.isActive())
            return failure(pdfPath.toStdString(), QObject::tr("cannot start the PDF").toStdString());
        const QRectF body(0, 0, pdf.width(), pdf.height());
        const QRectF content = contentOf(body);
        const QString name = QString::fromStdString(s.name);

        // 1. Summary in business terms, and the key figures.
        heading(p, body, name, name);
        drawHtml(p, QRectF(content.left(), content.top(), content.width() * 0.55, content.height()),
                 QString("<p>%1</p>").arg(QString::fromStdString(s.description).toHtmlEscaped()) +
                     QObject::tr("<h3>Executive summary</h3>") + f.summaryHtml());
        drawHtml(
            p, QRectF(content.left() + content.width() * 0.58, content.top(), content.width() * 0.42, content.height()),
            QObject::tr("<h3>Key figures</h3>") + f.kpiTableHtml() +
                QObject::tr(
                    "<p style='color:#555'>Generated %1 by gpuplan. Formulas and sources: docs/model-reference.md.</p>")
                    .arg(QDateTime::currentDateTimeUtc().toString("yyyy-MM-dd HH:mm 'UTC'")));

        // 2. Topology: the canvas, every GPU's slots in its tenant's colour.
        pdf.newPage();
        heading(p, body, QObject::tr("Topology and placement"), name);
        f.drawTopologyFigure(p, content.adjusted(0, 0, 0, -50));
        drawHtml(p, QRectF(content.left(), content.bottom() - 46, content.width(), 46), f.topologyCaption());

        // 3. Where the money and the memory go.
        pdf.newPage();
        heading(p, body, QObject::tr("Cost and memory"), name);
        const double half = content.height() / 2 - 5;
        drawChart(p, QRectF(content.left(), content.top(), content.width(), half), f.charts.cost);
        drawChart(p, QRectF(content.left(), content.top() + half + 10, content.width(), half), f.charts.memory);

        // 4. The sharing trade-offs.
        pdf.newPage();
        heading(p, body, QObject::tr("Sharing trade-offs"), name);
        drawChartWithLegend(p, QRectF(content.left(), content.top(), content.width() * 0.4, content.height()),
                            f.charts.sharingModes, 1.0, 8);
        drawHtml(
            p, QRectF(content.left() + content.width() * 0.41, content.top(), content.width() * 0.59, content.height()),
            QObject::tr("<p>The same tenants with every GPU shared one way, each mode at its densest setting.</p>") +
                f.matrixHtml(),
            7); // the matrix's row names stay whole, and "unbounded" or "H100XM-80C" too at this size

        // 5. Predictability and the jobs.
        pdf.newPage();
        heading(p, body, QObject::tr("Predictability and jobs"), name);
        drawChart(p, QRectF(content.left(), content.top(), content.width(), content.height() * 0.45),
                  f.charts.completion);
        drawHtml(
            p,
            QRectF(content.left(), content.top() + content.height() * 0.47, content.width(), content.height() * 0.53),
            f.jobsTableHtml());

        // 6. What it rests on.
        pdf.newPage();
        heading(p, body, QObject::tr("Assumptions"), name);
        drawHtml(p, content, f.assumptionsHtml());

        // 7. Recommended vs current, when the plan is offered in place of another.
        if (current) {
            pdf.newPage();
            heading(p, body, QObject::tr("Recommended vs current"), name);
            drawHtml(p, content, recommendationPageHtml(recommend(*current, results, catalog), 20));
        }

        // 8. What the cluster measured beside what the plan predicts, when a comparison was made:
        // its tables continued over as many pages as they need.
        if (measured)
            for (const ReportPage& page : measuredComparisonPages(*measured, content.size(), kMeasuredPointSize)) {
                pdf.newPage();
                heading(p, body, page.title, name);
                drawHtml(p, content, page.html, kMeasuredPointSize);
            }
        p.end();
    }
    file.close();
    return io::writeFileAtomically(pdfPath, bytes, true); // `report -o -`: the PDF on standard output
}

} // namespace gp::ui
