// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
// Reading the mapping file and writing check-plan's JSON (docs/cli.md#check-plan).
#include "planvsmeasured.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonParseError>

namespace gp::study {

using telemetry::Stats;

std::optional<TelemetryMapping> readTelemetryMapping(const QString& file, QString* error)
{
    const auto fail = [&](const QString& why) -> std::optional<TelemetryMapping> {
        if (error)
            *error = file + ": " + why;
        return std::nullopt;
    };
    QFile f(file);
    if (!f.open(QIODevice::ReadOnly))
        return fail("cannot read: " + f.errorString());
    QJsonParseError pe{};
    const QJsonDocument doc = QJsonDocument::fromJson(f.readAll(), &pe);
    if (pe.error != QJsonParseError::NoError)
        return fail(QString("not JSON: %1 at byte %2").arg(pe.errorString()).arg(pe.offset));
    if (!doc.isObject())
        return fail("the mapping is an object {\"nodes\": {…}, \"tenants\": {…}, \"jobs\": {…}}");
    TelemetryMapping m;
    const QJsonObject root = doc.object();
    for (auto it = root.begin(); it != root.end(); ++it) {
        std::map<std::string, std::string>* target = it.key() == "nodes"     ? &m.nodes
                                                     : it.key() == "tenants" ? &m.tenants
                                                     : it.key() == "jobs"    ? &m.jobs
                                                                             : nullptr;
        if (!target)
            return fail(it.key() + ": unknown key (nodes, tenants and jobs are)");
        if (!it.value().isObject())
            return fail(it.key() + ": must be an object of names to names");
        const QJsonObject o = it.value().toObject();
        for (auto e = o.begin(); e != o.end(); ++e) {
            if (!e.value().isString() || e.value().toString().isEmpty())
                return fail(it.key() + "." + e.key() + ": must be the id or name of a " +
                            (it.key() == "nodes"     ? "node"
                             : it.key() == "tenants" ? "tenant"
                                                     : "job") +
                            " of the plan");
            (*target)[e.key().toStdString()] = e.value().toString().toStdString();
        }
    }
    return m;
}

namespace {

QJsonArray stringArray(const std::vector<std::string>& v)
{
    QJsonArray a;
    for (const std::string& s : v)
        a.append(QString::fromStdString(s));
    return a;
}

QJsonObject statsJson(const Stats& s)
{
    return {{"samples", s.samples}, {"mean", s.mean}, {"p50", s.p50}, {"p95", s.p95}, {"max", s.max}};
}

QJsonArray rowsJson(const std::vector<MeasuredRow>& rows)
{
    QJsonArray a;
    for (const MeasuredRow& r : rows) {
        QJsonObject o{{"quantity", QString::fromStdString(r.key)},
                      {"label", QString::fromStdString(r.label)},
                      {"unit", QString::fromStdString(r.unit)},
                      {"predicted", r.predicted ? QJsonValue(*r.predicted) : QJsonValue()},
                      {"measured", r.measured ? QJsonValue(statsJson(*r.measured)) : QJsonValue()},
                      {"compared", QString::fromStdString(r.statistic)},
                      {"difference", r.difference ? QJsonValue(*r.difference) : QJsonValue()},
                      {"flagged", r.flagged}};
        if (!r.parameter.empty())
            o["parameter"] = QString::fromStdString(r.parameter);
        if (!r.note.empty())
            o["note"] = QString::fromStdString(r.note);
        a.append(o);
    }
    return a;
}

} // namespace

QJsonObject toJson(const PlanVsMeasured& r)
{
    QJsonArray jobs;
    for (const JobVsMeasured& j : r.jobs)
        jobs.append(QJsonObject{{"job", QString::fromStdString(j.jobId)},
                                {"name", QString::fromStdString(j.jobName)},
                                {"tenant", QString::fromStdString(j.tenantId)},
                                {"pods", stringArray(j.pods)},
                                {"matched_by", QString::fromStdString(j.matchedBy)},
                                {"measured_on", stringArray(j.measuredOn)},
                                {"planned_on", stringArray(j.plannedOn)},
                                {"gpu_wide_values", j.gpuWideValues},
                                {"rows", rowsJson(j.rows)}});
    QJsonArray gpus;
    for (const GpuVsMeasured& g : r.gpus) {
        QJsonArray xids;
        for (int x : g.xids)
            xids.append(x);
        gpus.append(QJsonObject{{"host", QString::fromStdString(g.host)},
                                {"gpu", QString::fromStdString(g.gpu)},
                                {"node", g.nodeId.empty() ? QJsonValue() : QString::fromStdString(g.nodeId)},
                                {"model", QString::fromStdString(g.model)},
                                {"mig", g.mig},
                                {"pods", stringArray(g.pods)},
                                {"xid_errors", xids},
                                {"rows", rowsJson(g.rows)}});
    }
    return QJsonObject{
        {"prometheus", r.url},
        {"from", r.fromS},
        {"to", r.toS},
        {"step_s", r.stepS},
        {"threshold", r.threshold},
        {"series", r.seriesCount},
        {"flagged", r.flagged},
        {"jobs", jobs},
        {"gpus", gpus},
        {"unmatched", QJsonObject{{"jobs_not_measured", stringArray(r.jobsNotMeasured)},
                                  {"pods_without_job", stringArray(r.podsWithoutJob)},
                                  {"hosts_not_in_plan", stringArray(r.hostsNotInPlan)},
                                  {"series_without_pod", r.seriesWithoutPod},
                                  {"series_without_pod_examples", stringArray(r.seriesWithoutPodExamples)},
                                  {"throughput_series_without_job", stringArray(r.throughputUnmatched)}}},
        {"throughput_series", r.throughputSeries < 0 ? QJsonValue() : QJsonValue(r.throughputSeries)},
    };
}

} // namespace gp::study
