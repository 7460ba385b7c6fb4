// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
// Reading the mapping file and writing check-plan's JSON (docs/cli.md#check-plan).
#include "planvsmeasured.h"

#include <QDateTime>
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

namespace {

/// Reads check-plan's JSON back, naming the first field that is not as toJson writes it.
class JsonReader
{
public:
    std::string error;

    bool fail(const QString& path, const QString& why)
    {
        if (error.empty())
            error = (path + ": " + why).toStdString();
        return false;
    }
    std::vector<std::string> strings(const QJsonValue& v, const QString& path)
    {
        std::vector<std::string> out;
        if (!v.isArray() && !v.isUndefined()) {
            fail(path, "must be an array of strings");
            return out;
        }
        const QJsonArray a = v.toArray();
        for (qsizetype i = 0; i < a.size(); ++i) {
            if (!a.at(i).isString())
                fail(QString("%1[%2]").arg(path).arg(i), "must be a string");
            out.push_back(a.at(i).toString().toStdString());
        }
        return out;
    }
    std::optional<double> number(const QJsonValue& v, const QString& path)
    {
        if (v.isNull() || v.isUndefined())
            return std::nullopt;
        if (!v.isDouble()) {
            fail(path, "must be a number or null");
            return std::nullopt;
        }
        return v.toDouble();
    }
    std::vector<MeasuredRow> rows(const QJsonValue& v, const QString& path)
    {
        std::vector<MeasuredRow> out;
        if (!v.isArray()) {
            fail(path, "must be an array of rows");
            return out;
        }
        const QJsonArray a = v.toArray();
        for (qsizetype i = 0; i < a.size(); ++i) {
            const QString at = QString("%1[%2]").arg(path).arg(i);
            const QJsonObject o = a.at(i).toObject();
            if (!a.at(i).isObject() || !o.value("quantity").isString()) {
                fail(at + ".quantity", "must be a string");
                continue;
            }
            MeasuredRow r;
            r.key = o.value("quantity").toString().toStdString();
            r.label = o.value("label").toString().toStdString();
            r.unit = o.value("unit").toString().toStdString();
            r.predicted = number(o.value("predicted"), at + ".predicted");
            if (o.value("measured").isObject()) {
                const QJsonObject m = o.value("measured").toObject();
                telemetry::Stats st;
                st.samples = m.value("samples").toInt();
                st.mean = m.value("mean").toDouble();
                st.p50 = m.value("p50").toDouble();
                st.p95 = m.value("p95").toDouble();
                st.max = m.value("max").toDouble();
                r.measured = st;
            } else if (!o.value("measured").isNull())
                fail(at + ".measured", "must be an object or null");
            r.statistic = o.value("compared").toString("mean").toStdString();
            r.difference = number(o.value("difference"), at + ".difference");
            r.flagged = o.value("flagged").toBool();
            r.parameter = o.value("parameter").toString().toStdString();
            r.note = o.value("note").toString().toStdString();
            out.push_back(std::move(r));
        }
        return out;
    }
};

} // namespace

std::optional<PlanVsMeasured> planVsMeasuredFromJson(const QJsonObject& o, std::string* error)
{
    JsonReader in;
    PlanVsMeasured r;
    if (!o.value("prometheus").isString() || !o.value("jobs").isArray() || !o.value("gpus").isArray()) {
        if (error)
            *error = "not check-plan's JSON (gpuplan-cli check-plan --json): it has no \"prometheus\", \"jobs\" "
                     "and \"gpus\"";
        return std::nullopt;
    }
    r.url = o.value("prometheus").toString();
    r.fromS = in.number(o.value("from"), "from").value_or(0.0);
    r.toS = in.number(o.value("to"), "to").value_or(0.0);
    r.stepS = in.number(o.value("step_s"), "step_s").value_or(0.0);
    r.threshold = in.number(o.value("threshold"), "threshold").value_or(0.25);
    r.seriesCount = o.value("series").toInt();
    r.flagged = o.value("flagged").toInt();
    const QJsonArray jobs = o.value("jobs").toArray();
    for (qsizetype i = 0; i < jobs.size(); ++i) {
        const QString at = QString("jobs[%1]").arg(i);
        const QJsonObject j = jobs.at(i).toObject();
        if (!j.value("job").isString()) {
            in.fail(at + ".job", "must be the job's id");
            continue;
        }
        JobVsMeasured x;
        x.jobId = j.value("job").toString().toStdString();
        x.jobName = j.value("name").toString().toStdString();
        x.tenantId = j.value("tenant").toString().toStdString();
        x.pods = in.strings(j.value("pods"), at + ".pods");
        x.matchedBy = j.value("matched_by").toString().toStdString();
        x.measuredOn = in.strings(j.value("measured_on"), at + ".measured_on");
        x.plannedOn = in.strings(j.value("planned_on"), at + ".planned_on");
        x.gpuWideValues = j.value("gpu_wide_values").toBool();
        x.rows = in.rows(j.value("rows"), at + ".rows");
        r.jobs.push_back(std::move(x));
    }
    const QJsonArray gpus = o.value("gpus").toArray();
    for (qsizetype i = 0; i < gpus.size(); ++i) {
        const QString at = QString("gpus[%1]").arg(i);
        const QJsonObject g = gpus.at(i).toObject();
        GpuVsMeasured x;
        x.host = g.value("host").toString().toStdString();
        x.gpu = g.value("gpu").toString().toStdString();
        x.nodeId = g.value("node").toString().toStdString();
        x.model = g.value("model").toString().toStdString();
        x.mig = g.value("mig").toBool();
        x.pods = in.strings(g.value("pods"), at + ".pods");
        for (const auto& v : g.value("xid_errors").toArray())
            x.xids.push_back(v.toInt());
        x.rows = in.rows(g.value("rows"), at + ".rows");
        r.gpus.push_back(std::move(x));
    }
    const QJsonObject un = o.value("unmatched").toObject();
    r.jobsNotMeasured = in.strings(un.value("jobs_not_measured"), "unmatched.jobs_not_measured");
    r.podsWithoutJob = in.strings(un.value("pods_without_job"), "unmatched.pods_without_job");
    r.hostsNotInPlan = in.strings(un.value("hosts_not_in_plan"), "unmatched.hosts_not_in_plan");
    r.seriesWithoutPod = un.value("series_without_pod").toInt();
    r.seriesWithoutPodExamples =
        in.strings(un.value("series_without_pod_examples"), "unmatched.series_without_pod_examples");
    r.throughputUnmatched =
        in.strings(un.value("throughput_series_without_job"), "unmatched.throughput_series_without_job");
    r.throughputSeries = o.value("throughput_series").isDouble() ? o.value("throughput_series").toInt() : -1;
    if (!in.error.empty()) {
        if (error)
            *error = in.error;
        return std::nullopt;
    }
    return r;
}

MeasurementSet telemetryMeasurements(const PlanVsMeasured& r, const std::string& scenarioId)
{
    MeasurementSet set;
    set.scenarioId = scenarioId.size() <= 128 ? scenarioId : std::string(); // an id's limit
    const auto iso = [](double s) {
        return QDateTime::fromSecsSinceEpoch(qint64(s), Qt::UTC).toString(Qt::ISODate).toStdString();
    };
    const std::string when = iso(r.fromS);
    const std::string range = r.url.toStdString() + " " + when + " .. " + iso(r.toS);
    for (const JobVsMeasured& j : r.jobs) {
        for (const MeasuredRow& row : j.rows) {
            if (!row.measured || row.measured->samples == 0)
                continue;
            Measurement m;
            m.jobId = j.jobId;
            if (row.key == "memory_gib" && !j.gpuWideValues) {
                m.quantity = MeasuredQuantity::MemoryGib;
                m.statistic = MeasuredStatistic::Max;
            } else if (row.key == "tokens_per_s") {
                m.quantity = row.label.rfind("output", 0) == 0 ? MeasuredQuantity::OutputTokensPerS
                                                               : MeasuredQuantity::TrainTokensPerS;
                m.statistic = MeasuredStatistic::Mean;
            } else {
                continue;
            }
            m.value = row.compared();
            if (!(m.value > 0.0))
                continue;
            m.tool = "dcgm-exporter via Prometheus";
            m.when = when;
            std::string pods; // the first few: a source names where, it does not list a fleet
            for (std::size_t i = 0; i < j.pods.size() && i < 4; ++i)
                pods += (pods.empty() ? "" : ",") + j.pods[i];
            if (j.pods.size() > 4)
                pods += " and " + std::to_string(j.pods.size() - 4) + " more";
            m.source =
                range + " " + row.key + " (" + std::to_string(row.measured->samples) + " samples; pods " + pods + ")";
            set.items.push_back(std::move(m));
        }
    }
    return set;
}

} // namespace gp::study
