// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#include "planvsmeasuredtables.h"

#include "ui/figures/planvsmeasuredpage.h"

#include <QHeaderView>
#include <QObject>
#include <QTableWidget>

#include <string_view>

namespace gp::ui::pvm {

namespace {

QString qs(const std::string& s) { return QString::fromStdString(s); }
QString qs(std::string_view s) { return QString::fromUtf8(s.data(), static_cast<qsizetype>(s.size())); }

/// "job (its name)": the id the cluster's pods are matched by, and the name the plan shows; the
/// tenant is in the row's details.
QString jobSubject(const std::string& id, const std::string& name)
{
    return qs(id) + (name.empty() || name == id ? QString() : " (" + qs(name) + ")");
}

/// One row: its cells, the subject's id, the whole story in the tooltip and kDetailsRole.
void addRow(QTableWidget* table, const QStringList& cells, const QString& id, bool flagged, const QString& details)
{
    const int row = table->rowCount();
    table->insertRow(row);
    for (int c = 0; c < cells.size(); ++c) {
        auto* item = new QTableWidgetItem(cells[c]);
        item->setFlags(Qt::ItemIsSelectable | Qt::ItemIsEnabled);
        item->setToolTip(details);
        item->setData(kDetailsRole, details);
        if (c >= 2 && c <= 4)
            item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
        if (flagged) {
            item->setBackground(kFlaggedColour);
            item->setForeground(Qt::black);
        }
        table->setItem(row, c, item);
    }
    table->item(row, 0)->setData(Qt::UserRole, id);
}

QString measuredCell(const study::MeasuredRow& r)
{
    return r.measured ? measuredText(r.compared(), r.unit) + " (" + qs(r.statistic) + ")" : QStringLiteral("—");
}

/// Every figure of a row, for the line under the table and the tooltip.
QString rowDetails(const QString& subject, const study::MeasuredRow& r)
{
    QString d = subject + " — " + qs(r.label) + ": predicted " +
                (r.predicted ? measuredText(*r.predicted, r.unit) : QObject::tr("nothing"));
    if (r.measured)
        d += QObject::tr("; measured %1 (%2), mean %3, p95 %4, max %5 over %6 samples")
                 .arg(measuredText(r.compared(), r.unit), qs(r.statistic), measuredText(r.measured->mean, r.unit),
                      measuredText(r.measured->p95, r.unit), measuredText(r.measured->max, r.unit))
                 .arg(r.measured->samples);
    else
        d += QObject::tr("; not measured");
    if (r.difference)
        d += "; " + differenceText(*r.difference);
    if (r.flagged)
        d += QObject::tr(". Beyond the threshold, %1 than predicted: %2")
                 .arg(r.compared() > r.predicted.value_or(0.0) ? QObject::tr("higher") : QObject::tr("lower"),
                      qs(r.parameter));
    if (!r.note.empty())
        d += QObject::tr(". Note: %1").arg(qs(r.note));
    return d;
}

/// `subject` in the first cell, `fullName` in the details.
void addRows(QTableWidget* table, const QString& subject, const QString& fullName, const QString& id,
             const std::vector<study::MeasuredRow>& rows)
{
    for (const study::MeasuredRow& r : rows) {
        if (!r.predicted && !r.measured)
            continue;
        addRow(table,
               {subject, qs(r.label), r.predicted ? measuredText(*r.predicted, r.unit) : QStringLiteral("—"),
                measuredCell(r), r.difference ? differenceText(*r.difference) : QStringLiteral("—"),
                r.flagged ? "! " + qs(r.parameter) : qs(r.note)},
               id, r.flagged, rowDetails(fullName, r));
    }
}

void finish(QTableWidget* table)
{
    table->setUpdatesEnabled(true);
    table->resizeColumnsToContents();
    // The explanation stretches over what is left, never off to the side: the subject and the
    // quantity give up width beyond what a 1366-pixel screen affords (their whole text is in the
    // tooltip and under the table).
    table->setColumnWidth(0, std::min(table->columnWidth(0), 340));
    table->setColumnWidth(1, std::min(table->columnWidth(1), 240));
    table->horizontalHeader()->setStretchLastSection(true);
}

void start(QTableWidget* table)
{
    table->setUpdatesEnabled(false);
    table->clearContents();
    table->setRowCount(0);
}

QString list(const QString& title, const std::vector<std::string>& items)
{
    if (items.empty())
        return {};
    QString out = QString("%1 (%2):\n").arg(title).arg(items.size());
    for (const std::string& s : items)
        out += "  " + qs(s) + "\n";
    return out + "\n";
}

} // namespace

QTableWidget* makeTable(const QString& objectName, const QStringList& headers, QWidget* parent)
{
    auto* t = new QTableWidget(0, static_cast<int>(headers.size()), parent);
    t->setObjectName(objectName);
    t->setHorizontalHeaderLabels(headers);
    t->setSelectionBehavior(QAbstractItemView::SelectRows);
    t->setSelectionMode(QAbstractItemView::SingleSelection);
    t->setEditTriggers(QAbstractItemView::NoEditTriggers);
    t->verticalHeader()->setVisible(false);
    t->setWordWrap(false);
    t->setTextElideMode(Qt::ElideRight);
    t->horizontalHeader()->setStretchLastSection(true);
    return t;
}

void fillJobs(QTableWidget* table, const study::PlanVsMeasured& r)
{
    start(table);
    for (const study::JobVsMeasured& j : r.jobs) {
        addRows(table, jobSubject(j.jobId, j.jobName), qs(j.tenantId) + "/" + qs(j.jobId), qs(j.jobId), j.rows);
    }
    finish(table);
}

void fillGpus(QTableWidget* table, const study::PlanVsMeasured& r)
{
    start(table);
    for (const study::GpuVsMeasured& g : r.gpus) {
        QString subject = qs(g.host) + "/" + qs(g.gpu);
        if (g.nodeId.empty())
            subject += QObject::tr(" (no node)");
        if (g.mig)
            subject += " MIG";
        addRows(table, subject, subject, qs(g.nodeId), g.rows);
    }
    finish(table);
}

QString unmatchedText(const study::PlanVsMeasured& r)
{
    QString out = list(QObject::tr("Jobs of the plan with no series"), r.jobsNotMeasured) +
                  list(QObject::tr("Pods with no job of the plan"), r.podsWithoutJob) +
                  list(QObject::tr("Hosts that are no node of the plan"), r.hostsNotInPlan);
    if (r.seriesWithoutPod > 0)
        out += list(QObject::tr("Series without pod labels: %1, e.g.").arg(r.seriesWithoutPod),
                    r.seriesWithoutPodExamples);
    out += list(QObject::tr("Throughput series that name no job"), r.throughputUnmatched);
    return out.isEmpty() ? QObject::tr("Every series, pod, host and job was matched.") : out.trimmed();
}

void fillMeasurements(QTableWidget* table, const study::MeasurementsVsPlan& r)
{
    start(table);
    for (const study::MeasurementVsPlan& x : r.rows) {
        const std::string unit(quantityUnit(x.measured.quantity));
        const QString subject = jobSubject(x.measured.jobId, x.jobName);
        const QString what =
            qs(quantityName(x.measured.quantity)) + " (" + qs(statisticName(x.measured.statistic)) + ")";
        QString details = (x.tenantId.empty() ? QString() : qs(x.tenantId) + "/") + subject + " — " + what +
                          ": measured " + measuredText(x.measured.value, unit);
        if (!x.measured.tool.empty())
            details += QObject::tr(" by %1").arg(qs(x.measured.tool));
        if (!x.measured.source.empty())
            details += QObject::tr(" (%1)").arg(qs(x.measured.source));
        details += x.predicted ? QObject::tr("; predicted %1").arg(measuredText(*x.predicted, unit))
                               : QObject::tr("; no prediction: %1").arg(qs(x.why));
        if (x.difference)
            details += "; " + differenceText(*x.difference);
        if (x.flagged)
            details += QObject::tr(". Beyond the threshold: %1").arg(qs(x.parameter));
        addRow(table,
               {subject, what, x.predicted ? measuredText(*x.predicted, unit) : QStringLiteral("—"),
                measuredText(x.measured.value, unit),
                x.difference ? differenceText(*x.difference) : QStringLiteral("—"),
                x.flagged ? "! " + qs(x.parameter) : qs(x.why)},
               qs(x.measured.jobId), x.flagged, details);
    }
    finish(table);
}

} // namespace gp::ui::pvm
