// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
// The comparison deck's slides: the KPIs with their changes, what differs, the topologies, the
// costs and the completion times side by side.
#include "slidedeck.h"
#include "slidepainting.h"

#include "calc/comparison.h"
#include "model/scenariodiff.h"
#include "planfigures.h"
#include "recommendation.h"
#include "ui/canvas/canvasscene.h"

#include <QChart>
#include <QDateTime>
#include <QLegend>

namespace gp::ui {

void SlideDeck::paintComparison(QPainter& p, const QRectF& area, int slide) const
{
    const int text = std::max(8, static_cast<int>(area.height() / 55));
    const double zoom = std::max(1.0, area.height() / 560.0);
    if (slide == CTitle) {
        QStringList names;
        for (std::size_t i = 0; i < mAll.size(); ++i)
            names << QString("<b>%1</b>: %2")
                         .arg(letterOf(i), QString::fromStdString(mAll[i]->scenario.name).toHtmlEscaped());
        QFont big("DejaVu Sans");
        big.setPixelSize(static_cast<int>(area.height() * 0.08));
        big.setBold(true);
        p.setFont(big);
        p.setPen(QColor("#1f3b57"));
        p.drawText(area.adjusted(area.width() * 0.06, area.height() * 0.2, -area.width() * 0.06, -area.height() * 0.55),
                   Qt::AlignLeft | Qt::AlignBottom, title(CTitle));
        drawHtml(p,
                 area.adjusted(area.width() * 0.06, area.height() * 0.5, -area.width() * 0.06, -area.height() * 0.05),
                 "<p>" + names.join("<br>") + "</p><p style='color:#555'>" +
                     QDateTime::currentDateTime().toString("yyyy-MM-dd") + " · gpuplan</p>",
                 text + 4);
        return;
    }
    slideTitle(p, area, title(slide));
    const QRectF body = bodyOf(area);
    const double w = body.width() / static_cast<double>(mAll.size());
    auto column = [&](std::size_t i, double topShare = 0.08) {
        return QRectF(body.left() + w * static_cast<double>(i), body.top() + body.height() * topShare, w * 0.96,
                      body.height() * (1 - topShare));
    };
    auto columnHeads = [&] {
        for (std::size_t i = 0; i < mAll.size(); ++i)
            drawHtml(p, QRectF(body.left() + w * static_cast<double>(i), body.top(), w * 0.96, body.height() * 0.08),
                     QString("<b>%1</b>: %2")
                         .arg(letterOf(i), QString::fromStdString(mAll[i]->scenario.name).toHtmlEscaped()),
                     text);
    };
    switch (slide) {
    case CKpis: {
        std::vector<std::map<std::string, double>> values;
        for (const auto& f : mAll) {
            values.push_back(sim::kpiValues(f->evaluation, f->simulation.get()));
        }
        QString html =
            "<table cellspacing='0' cellpadding='4' border='1' style='border-collapse:collapse'><tr><th></th>";
        for (std::size_t i = 0; i < mAll.size(); ++i)
            html += "<th>" + letterOf(i) + "</th>";
        html += "</tr>";
        for (const calc::KpiComparison& row : calc::compareKpis(values)) {
            html += "<tr><td>" + QString::fromStdString(row.spec.label).toHtmlEscaped() + "</td>";
            for (std::size_t i = 0; i < row.values.size(); ++i) {
                const QString cell = QString::fromStdString(calc::formatKpiValue(row.spec, row.values[i]));
                const char* colour = i == 0 || row.verdicts[i] == calc::Verdict::Same ? "#000000"
                                     : row.verdicts[i] == calc::Verdict::Better       ? "#2e7d32"
                                                                                      : "#c62828";
                const char* mark = i == 0 || row.verdicts[i] == calc::Verdict::Same ? ""
                                   : row.verdicts[i] == calc::Verdict::Better       ? " ▲ better"
                                                                                    : " ▼ worse";
                html += QString("<td align='right' style='color:%1'>%2%3</td>").arg(colour, cell, mark);
            }
            html += "</tr>";
        }
        drawHtml(p, body, html + "</table>", text + 6);
        break;
    }
    case CVerdict:
        drawHtml(p, body, recommendationPageHtml(*mVerdict, 8).replace("<h2>", "<h3>").replace("</h2>", "</h3>"),
                 text + 3);
        break;
    case CDiff: {
        QString html;
        for (std::size_t i = 1; i < mAll.size(); ++i) {
            const std::vector<std::string> lines = diffScenarios(mAll.front()->scenario, mAll[i]->scenario, mCatalog);
            html += QObject::tr("<p><b>A → %1</b> (%n change(s))</p><ul>", nullptr, static_cast<int>(lines.size()))
                        .arg(letterOf(i));
            for (std::size_t l = 0; l < lines.size() && l < 14; ++l)
                html += "<li>" + QString::fromStdString(lines[l]).toHtmlEscaped() + "</li>";
            if (lines.size() > 14)
                html += QObject::tr("<li><i>and %1 more (Compare lists them all)</i></li>").arg(lines.size() - 14);
            html += "</ul>";
        }
        drawHtml(p, body, html, text + 2);
        break;
    }
    case CTopology:
        columnHeads();
        for (std::size_t i = 0; i < mAll.size(); ++i)
            mAll[i]->drawTopologyFigure(p, column(i));
        break;
    case CCost:
        columnHeads();
        for (std::size_t i = 0; i < mAll.size(); ++i)
            drawChart(p, column(i), mAll[i]->charts.cost, zoom);
        break;
    case CPredictability:
        columnHeads();
        for (std::size_t i = 0; i < mAll.size(); ++i)
            drawChart(p, column(i), mAll[i]->charts.completion, zoom);
        break;
    case CRecommendation:
        if (mRecommendation.trimmed().isEmpty()) { // what each plan's numbers say, plan by plan
            QStringList findings;
            for (const auto& f : mAll)
                findings << QString::fromStdString(f->scenario.name) + ":\n" + planFindings(f->evaluation);
            drawHtml(p, body, recommendationHtml(findings.join("\n\n"), {}), text + 2);
        } else {
            drawHtml(p, body, recommendationHtml(mRecommendation, {}), text + 4);
        }
        break;
    default: break;
    }
}

} // namespace gp::ui
