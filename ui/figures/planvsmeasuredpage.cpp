// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#include "planvsmeasuredpage.h"

#include <QDateTime>
#include <QObject>
#include <QStringList>
#include <QTimeZone>

#include <algorithm>
#include <cmath>
#include <string_view>
#include <utility>
#include <vector>

namespace gp::ui {

namespace {

const QString kPvmTable = "<table cellspacing='0' cellpadding='3' border='1' style='border-collapse:collapse'>";
const QString kPvmFlagged = " style='background-color:#fde2e1'";

QString pvmEsc(const std::string& s) { return QString::fromStdString(s).toHtmlEscaped(); }

QString pvmUtc(double s)
{
    return QDateTime::fromMSecsSinceEpoch(static_cast<qint64>(s * 1000.0), QTimeZone::utc())
        .toString("yyyy-MM-dd HH:mm 'UTC'");
}

/// "3 more rows, 1 of them flagged" under a table that had no room for them.
QString pvmMoreRows(int more, int flagged)
{
    if (more <= 0)
        return {};
    return flagged > 0 ? QObject::tr("<p>%1 more row(s) are not shown, %2 of them flagged.</p>").arg(more).arg(flagged)
                       : QObject::tr("<p>%1 more row(s), none flagged, are not shown.</p>").arg(more);
}

QString pvmNameOf(std::string_view s) { return QString::fromUtf8(s.data(), static_cast<qsizetype>(s.size())); }

QString pvmList(const QString& title, const std::vector<std::string>& items, int max = 6)
{
    if (items.empty())
        return {};
    QStringList shown;
    for (std::size_t i = 0; i < items.size() && static_cast<int>(i) < max; ++i)
        shown << pvmEsc(items[i]);
    QString more;
    if (static_cast<int>(items.size()) > max)
        more = QObject::tr("; %1 more").arg(static_cast<int>(items.size()) - max);
    return QString("<li><b>%1</b> (%2): %3%4</li>").arg(title).arg(items.size()).arg(shown.join("; "), more);
}

} // namespace

QString measuredText(double value, const std::string& unit)
{
    if (unit == "fraction")
        return QString::number(value * 100.0, 'f', 1) + " %";
    if (unit == "W")
        return QString::number(value, 'f', 0) + " W";
    const int decimals = std::abs(value) >= 1000.0 ? 0 : 2;
    return QString::number(value, 'f', decimals) + " " + QString::fromStdString(unit);
}

QString differenceText(double difference)
{
    return QString("%1%2 %").arg(difference >= 0 ? "+" : "").arg(difference * 100.0, 0, 'f', 0);
}

QString planVsMeasuredHtml(const study::PlanVsMeasured& r, int maxRows)
{
    QString html = QObject::tr("<p>DCGM telemetry from <b>%1</b>, %2 to %3 (step %4 s, %5 series); a difference "
                               "beyond %6 of the prediction is flagged with the model parameter that would explain "
                               "it. %7 of the compared figures are flagged.</p>")
                       .arg(r.url.toHtmlEscaped(), pvmUtc(r.fromS), pvmUtc(r.toS))
                       .arg(r.stepS, 0, 'g', 6)
                       .arg(r.seriesCount)
                       .arg(QString::number(r.threshold * 100.0, 'g', 4) + " %")
                       .arg(r.flagged);
    // Flagged rows first, so a short page never hides a finding.
    struct Line
    {
        const study::JobVsMeasured* job;
        const study::MeasuredRow* row;
    };
    std::vector<Line> lines;
    for (const auto& j : r.jobs)
        for (const auto& row : j.rows)
            if (row.predicted || row.measured)
                lines.push_back({&j, &row});
    std::stable_sort(lines.begin(), lines.end(),
                     [](const Line& a, const Line& b) { return a.row->flagged > b.row->flagged; });
    html += kPvmTable + QObject::tr("<tr><th>Job</th><th>Quantity</th><th>Predicted</th><th>Measured</th>"
                                    "<th>Difference</th><th>Would explain it</th></tr>");
    int shown = 0;
    int flaggedLeft = r.flagged;
    for (const Line& l : lines) {
        if (shown == maxRows)
            break;
        ++shown;
        flaggedLeft -= l.row->flagged ? 1 : 0;
        const study::MeasuredRow& row = *l.row;
        html += QString("<tr%1><td>%2</td><td>%3</td><td>%4</td><td>%5</td><td>%6</td><td>%7</td></tr>")
                    .arg(row.flagged ? kPvmFlagged : QString(), pvmEsc(l.job->tenantId + "/" + l.job->jobId),
                         pvmEsc(row.label), row.predicted ? measuredText(*row.predicted, row.unit) : QString("—"),
                         row.measured ? measuredText(row.compared(), row.unit) + " (" + pvmEsc(row.statistic) + ")"
                                      : QString("—"),
                         row.difference ? differenceText(*row.difference) : QString("—"),
                         row.flagged ? QString("! ") + pvmEsc(row.parameter) : QString());
    }
    html += "</table>";
    if (r.jobs.empty())
        html += QObject::tr("<p>No job of the plan was matched to a series.</p>");
    html += pvmMoreRows(static_cast<int>(lines.size()) - shown, std::max(0, flaggedLeft));
    QString unmatched = pvmList(QObject::tr("Jobs not measured"), r.jobsNotMeasured) +
                        pvmList(QObject::tr("Pods with no job"), r.podsWithoutJob) +
                        pvmList(QObject::tr("Hosts that are no node of the plan"), r.hostsNotInPlan);
    if (r.seriesWithoutPod > 0)
        unmatched += QObject::tr("<li><b>Series without pod labels</b>: %1</li>").arg(r.seriesWithoutPod);
    if (!unmatched.isEmpty())
        html += QObject::tr("<p><b>Not matched</b></p><ul>%1</ul>").arg(unmatched);
    return html;
}

QString measurementsVsPlanHtml(const study::MeasurementsVsPlan& r, int maxRows)
{
    QString html =
        QObject::tr("<p>Measurements from <b>%1</b> (%2 figure(s)) beside the plan's; a difference beyond %3 of the "
                    "prediction is flagged. %4 flagged; %5 without a figure of the plan.</p>")
            .arg(pvmEsc(r.source))
            .arg(r.rows.size())
            .arg(QString::number(r.threshold * 100.0, 'g', 4) + " %")
            .arg(r.flagged)
            .arg(std::count_if(r.rows.begin(), r.rows.end(), [](const auto& x) { return !x.predicted; }));
    std::vector<const study::MeasurementVsPlan*> rows;
    for (const auto& x : r.rows)
        rows.push_back(&x);
    std::stable_sort(rows.begin(), rows.end(), [](auto* a, auto* b) { return a->flagged > b->flagged; });
    html += kPvmTable + QObject::tr("<tr><th>Job</th><th>Quantity</th><th>Predicted</th><th>Measured</th>"
                                    "<th>Difference</th><th>Would explain it / why no figure</th></tr>");
    int shown = 0;
    int flaggedLeft = r.flagged;
    for (const auto* x : rows) {
        if (shown == maxRows)
            break;
        ++shown;
        flaggedLeft -= x->flagged ? 1 : 0;
        const std::string unit(quantityUnit(x->measured.quantity));
        const QString what = QString("%1 (%2)").arg(pvmNameOf(quantityName(x->measured.quantity)),
                                                    pvmNameOf(statisticName(x->measured.statistic)));
        html += QString("<tr%1><td>%2</td><td>%3</td><td>%4</td><td>%5</td><td>%6</td><td>%7</td></tr>")
                    .arg(x->flagged ? kPvmFlagged : QString(),
                         pvmEsc(x->jobName.empty() ? x->measured.jobId : x->tenantId + "/" + x->measured.jobId), what,
                         x->predicted ? measuredText(*x->predicted, unit) : QString("—"),
                         measuredText(x->measured.value, unit),
                         x->difference ? differenceText(*x->difference) : QString("—"),
                         x->flagged ? QString("! ") + pvmEsc(x->parameter) : pvmEsc(x->why));
    }
    html += "</table>";
    html += pvmMoreRows(static_cast<int>(rows.size()) - shown, std::max(0, flaggedLeft));
    return html;
}

} // namespace gp::ui
