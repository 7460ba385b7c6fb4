// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#include "planvsmeasuredpage.h"

#include "htmlpages.h"

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

const QString kPvmTable =
    "<table width='100%' cellspacing='0' cellpadding='3' border='1' style='border-collapse:collapse'>";
const QString kPvmFlagged = " style='background-color:#fde2e1'";
/// A figure and its header stay on one line: the explanation wraps instead.
const QString kPvmFigure = " style='white-space:nowrap'";

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

/// How many of `subjects` (jobs or GPUs) have a flagged row.
template <typename Subject> int pvmFlagged(const std::vector<Subject>& subjects)
{
    return static_cast<int>(std::count_if(subjects.begin(), subjects.end(), [](const Subject& s) {
        return std::any_of(s.rows.begin(), s.rows.end(), [](const study::MeasuredRow& r) { return r.flagged; });
    }));
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

namespace {

/// A compared quantity as a table row: flagged rows highlighted with the parameter that would
/// explain them, the others with their note (what limits the comparison), as the view shows them.
QString pvmRow(const QString& subject, const study::MeasuredRow& row)
{
    const QString last = row.flagged        ? QString("! ") + pvmEsc(row.parameter)
                         : row.note.empty() ? QString()
                                            : QString("<span style='color:#555'>%1</span>").arg(pvmEsc(row.note));
    return QString("<tr%1><td>%2</td><td>%3</td><td align='right'%8>%4</td><td align='right'%8>%5</td>"
                   "<td align='right'%8>%6</td><td>%7</td></tr>")
        .arg(row.flagged ? kPvmFlagged : QString(), subject, pvmEsc(row.label),
             row.predicted ? measuredText(*row.predicted, row.unit) : QString("—"),
             row.measured ? measuredText(row.compared(), row.unit) + " (" + pvmEsc(row.statistic) + ")" : QString("—"),
             row.difference ? differenceText(*row.difference) : QString("—"), last, kPvmFigure);
}

QString pvmHeader(const QString& subject, const QString& last)
{
    return QObject::tr("<tr><th>%1</th><th>Quantity</th><th%3>Predicted</th><th%3>Measured</th><th%3>Difference</th>"
                       "<th width='42%'>%2</th></tr>")
        .arg(subject, last, kPvmFigure);
}

QString pvmMore(int more, int flagged)
{
    return pvmMoreRows(more, flagged) +
           QObject::tr("<p style='color:#555'>gpuplan-cli check-plan --json lists every row.</p>");
}

QString pvmMoreMeasured(int more, int flagged)
{
    return pvmMoreRows(more, flagged) + QObject::tr("<p style='color:#555'>The view lists every row.</p>");
}

/// Rows with a figure on either side, flagged first (a short page never hides a finding).
template <typename Subject>
void pvmLines(PagedTable& t, const std::vector<Subject>& subjects, QString (*subjectHtml)(const Subject&))
{
    std::vector<std::pair<QString, const study::MeasuredRow*>> lines;
    for (const Subject& s : subjects)
        for (const study::MeasuredRow& row : s.rows)
            if (row.predicted || row.measured)
                lines.push_back({subjectHtml(s), &row});
    std::stable_sort(lines.begin(), lines.end(),
                     [](const auto& a, const auto& b) { return a.second->flagged > b.second->flagged; });
    for (const auto& [subject, row] : lines) {
        t.rows << pvmRow(subject, *row);
        t.flagged.push_back(row->flagged);
    }
}

QString pvmJobSubject(const study::JobVsMeasured& j) { return pvmEsc(j.tenantId + "/" + j.jobId); }

QString pvmGpuSubject(const study::GpuVsMeasured& g)
{
    QString s = pvmEsc(g.host + "/" + g.gpu);
    if (g.nodeId.empty())
        s += QObject::tr(" (no node)");
    else if (g.nodeId != g.host)
        s += QObject::tr(" (node %1)").arg(pvmEsc(g.nodeId));
    if (g.mig)
        s += " MIG";
    if (!g.xids.empty()) {
        QStringList x;
        for (int v : g.xids)
            x << QString::number(v);
        s += QObject::tr("<br><b>XID %1</b>").arg(x.join(", "));
    }
    return s;
}

PagedTable pvmTable(const QString& subject, const QString& last, int maxPages)
{
    PagedTable t;
    t.open = kPvmTable;
    t.header = pvmHeader(subject, last);
    t.maxPages = maxPages;
    t.moreText = &pvmMore;
    return t;
}

/// The pages of a table under `title`; a page that holds only what follows the table (`after`,
/// which had no room under its last rows) under `afterTitle`.
void pvmAdd(std::vector<ReportPage>& out, const QString& title, const std::vector<QString>& pages,
            const QString& after = {}, const QString& afterTitle = {})
{
    for (std::size_t i = 0; i < pages.size(); ++i)
        out.push_back({i == 0 ? title
                       : !afterTitle.isEmpty() && !after.isEmpty() && pages[i] == after
                           ? afterTitle
                           : QObject::tr("%1 (continued)").arg(title),
                       pages[i]});
}

} // namespace

std::vector<ReportPage> measuredComparisonPages(const MeasuredComparison& c, const QSizeF& area, int pointSize,
                                                int maxPagesPerTable)
{
    std::vector<ReportPage> out;
    QString made = c.when.isEmpty() ? QString()
                                    : QObject::tr("<p style='color:#555'>Compared %1.</p>").arg(c.when.toHtmlEscaped());
    if (c.planEditedSince)
        made += QObject::tr("<p><b>The plan was edited after this comparison:</b> its predictions are an earlier "
                            "version's (Results &gt; Plan vs Measured… &gt; Refresh compares the plan as it is).</p>");
    if (c.telemetry) {
        const study::PlanVsMeasured& r = *c.telemetry;
        PagedTable jobs = pvmTable(QObject::tr("Job"), QObject::tr("Would explain it / note"), maxPagesPerTable);
        jobs.before =
            QObject::tr("<p>DCGM telemetry from <b>%1</b>, %2 to %3 (step %4 s, %5 series); a difference beyond %6 "
                        "of the prediction is flagged with the model parameter that would explain it. %7 of the "
                        "compared figures are flagged, on %8 of %9 job(s) and %10 of %11 GPU(s).</p>")
                .arg(r.url.toHtmlEscaped(), pvmUtc(r.fromS), pvmUtc(r.toS))
                .arg(r.stepS, 0, 'g', 6)
                .arg(r.seriesCount)
                .arg(QString::number(r.threshold * 100.0, 'g', 4) + " %")
                .arg(r.flagged)
                .arg(pvmFlagged(r.jobs))
                .arg(r.jobs.size())
                .arg(pvmFlagged(r.gpus))
                .arg(r.gpus.size());
        jobs.empty = QObject::tr("<p>No job of the plan was matched to a series.</p>");
        pvmLines(jobs, r.jobs, &pvmJobSubject);
        pvmAdd(out, QObject::tr("Plan vs measured: telemetry, jobs"), paginate(jobs, area, pointSize));

        PagedTable gpus =
            pvmTable(QObject::tr("GPU (host/index)"), QObject::tr("Would explain it / note"), maxPagesPerTable);
        gpus.before = QObject::tr("<p>Per GPU: the memory and busy time of the jobs the plan places on it, the "
                                  "traffic they send (where the exporter gives NVLink or PCIe bytes) and its TDP, an "
                                  "upper bound of its power, beside what the GPU measured.</p>");
        gpus.empty = QObject::tr("<p>No GPU had a series.</p>");
        pvmLines(gpus, r.gpus, &pvmGpuSubject);
        QString unmatched = pvmList(QObject::tr("Jobs not measured"), r.jobsNotMeasured) +
                            pvmList(QObject::tr("Pods with no job"), r.podsWithoutJob) +
                            pvmList(QObject::tr("Hosts that are no node of the plan"), r.hostsNotInPlan);
        if (r.seriesWithoutPod > 0)
            unmatched += QObject::tr("<li><b>Series without pod labels</b>: %1</li>").arg(r.seriesWithoutPod);
        if (!unmatched.isEmpty())
            gpus.after = QObject::tr("<p><b>Not matched</b></p><ul>%1</ul>").arg(unmatched);
        gpus.after += made;
        pvmAdd(out, QObject::tr("Plan vs measured: telemetry, GPUs"), paginate(gpus, area, pointSize), gpus.after,
               unmatched.isEmpty() ? QObject::tr("Plan vs measured: telemetry")
                                   : QObject::tr("Plan vs measured: telemetry, not matched"));
    }
    if (c.measurements) {
        const study::MeasurementsVsPlan& r = *c.measurements;
        PagedTable t = pvmTable(QObject::tr("Job"), QObject::tr("Would explain it / why no figure"), maxPagesPerTable);
        t.moreText = &pvmMoreMeasured;
        t.before = QObject::tr("<p>Measurements from <b>%1</b> (%2 figure(s)) beside the plan's; a difference beyond "
                               "%3 of the prediction is flagged. %4 flagged; %5 without a figure of the plan.</p>")
                       .arg(pvmEsc(r.source))
                       .arg(r.rows.size())
                       .arg(QString::number(r.threshold * 100.0, 'g', 4) + " %")
                       .arg(r.flagged)
                       .arg(std::count_if(r.rows.begin(), r.rows.end(), [](const auto& x) { return !x.predicted; }));
        t.empty = QObject::tr("<p>The file holds no measurement.</p>");
        std::vector<const study::MeasurementVsPlan*> rows;
        for (const auto& x : r.rows)
            rows.push_back(&x);
        std::stable_sort(rows.begin(), rows.end(), [](auto* a, auto* b) { return a->flagged > b->flagged; });
        for (const auto* x : rows) {
            const std::string unit(quantityUnit(x->measured.quantity));
            const QString what = QString("%1 (%2)").arg(pvmNameOf(quantityName(x->measured.quantity)),
                                                        pvmNameOf(statisticName(x->measured.statistic)));
            t.rows << QString("<tr%1><td>%2</td><td>%3</td><td align='right'%8>%4</td><td align='right'%8>%5</td>"
                              "<td align='right'%8>%6</td><td>%7</td></tr>")
                          .arg(x->flagged ? kPvmFlagged : QString(),
                               pvmEsc(x->jobName.empty() ? x->measured.jobId : x->tenantId + "/" + x->measured.jobId),
                               what, x->predicted ? measuredText(*x->predicted, unit) : QString("—"),
                               measuredText(x->measured.value, unit),
                               x->difference ? differenceText(*x->difference) : QString("—"),
                               x->flagged ? QString("! ") + pvmEsc(x->parameter) : pvmEsc(x->why), kPvmFigure);
            t.flagged.push_back(x->flagged);
        }
        t.after = made;
        pvmAdd(out, QObject::tr("Plan vs measured: benchmarks"), paginate(t, area, pointSize));
    }
    return out;
}

} // namespace gp::ui
