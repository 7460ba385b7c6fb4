// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
// gpuplan-cli check-plan: the plan's predictions beside a range of DCGM telemetry from Prometheus
// (docs/cli.md#check-plan, issue 38).
#include "calibrationoptions.h"
#include "clicontext.h"

#include "io/measurementsio.h"
#include "study/planvsmeasured.h"
#include "study/timetext.h"

#include <QDateTime>
#include <QJsonDocument>
#include <QTimeZone>

#include <cmath>
#include <optional>

namespace gp::cli {

namespace {

/// Exit statuses of check-plan beyond 0/1/2 (its --help and docs/cli.md say the same).
enum CheckExit : int
{
    kBeyondThreshold = 3,
    kPrometheusFailed = 4,
    kNoDcgmSeries = 5,
    kNoJobMeasured = 6
};

const char* kDescription =
    "Put the plan's predictions beside what DCGM measured: memory per GPU, SM and tensor activity, DRAM\n"
    "activity, link load and power, per job and per GPU, from dcgm-exporter's series in Prometheus over\n"
    "--from..--to (one range query to /api/v1/query_range; with --throughput-query, tokens/s per job too).\n"
    "Differences beyond --threshold are flagged with the model parameter that would explain them. A GPU's\n"
    "predicted power is its TDP at any load, an upper bound (no cited idle/dynamic split).\n"
    "\n"
    "Matching: a series' Hostname (or hostname) label is a node's name or id; its namespace label a\n"
    "tenant's id or name; its pod label's owner (a Deployment's NAME-<hash>-<id>, a Job's NAME-<id>, a\n"
    "StatefulSet's NAME-<n>) a job's id or name, else the longest job id or name the pod's name starts\n"
    "with. --mapping FILE ({\"nodes\": {HOST: NODE}, \"tenants\": {NAMESPACE: TENANT}, \"jobs\": {OWNER: JOB}})\n"
    "names what differs. What cannot be matched is listed: series without pod labels, pods with no\n"
    "job, hosts that are no node, jobs without series. The scenario file is only read.\n"
    "\n"
    "Times: RFC 3339 (2026-12-01T00:00:00Z), Unix seconds, or now, now-7d, now-2h, now-30m.\n"
    "\n"
    "Exit status: 0 every compared figure within the threshold; 1 runtime failure; 2 bad input or usage;\n"
    "3 differences beyond the threshold; 4 Prometheus unreachable, too slow (--timeout) or answering an\n"
    "error (bad --match, a range of too many points); 5 no DCGM series in the range; 6 DCGM series, but\n"
    "none attributed to a job of the plan (no pod labels, or no pod named after a job).";

std::optional<double> durationS(const QString& text) { return study::durationFromText(text); }

std::optional<double> timeS(const QString& text, double nowS) { return study::timeFromText(text, nowS); }

QString utc(double s)
{
    return QDateTime::fromMSecsSinceEpoch(static_cast<qint64>(s * 1000.0), QTimeZone::utc()).toString(Qt::ISODate);
}

QString number(double v, const std::string& unit)
{
    if (unit == "fraction")
        return QString::number(v * 100.0, 'f', 1) + " %";
    return QString::number(v, 'f', unit == "W" ? 0 : 2) + " " + QString::fromStdString(unit);
}

void printRows(const std::vector<study::MeasuredRow>& rows)
{
    for (const study::MeasuredRow& r : rows) {
        if (!r.predicted && !r.measured)
            continue;
        QString line = QString("    %1%2  predicted %3  measured %4")
                           .arg(r.flagged ? "! " : "  ", QString::fromStdString(r.label).leftJustified(40))
                           .arg(r.predicted ? number(*r.predicted, r.unit) : QString("—"), -11)
                           .arg(r.measured ? QString("%1 (%2; mean %3, p95 %4, max %5)")
                                                 .arg(number(r.compared(), r.unit), QString::fromStdString(r.statistic),
                                                      number(r.measured->mean, r.unit), number(r.measured->p95, r.unit),
                                                      number(r.measured->max, r.unit))
                                           : QString("—"));
        if (r.difference)
            line += QString("  %1%2 %").arg(*r.difference >= 0 ? "+" : "").arg(*r.difference * 100.0, 0, 'f', 0);
        out() << line << '\n';
        if (r.flagged)
            out() << "        beyond the threshold: " << (r.compared() > *r.predicted ? "higher" : "lower")
                  << " than predicted -> " << QString::fromStdString(r.parameter) << '\n';
        if (!r.note.empty())
            out() << "        note: " << QString::fromStdString(r.note) << '\n';
    }
}

QString join(const std::vector<std::string>& v)
{
    QStringList l;
    for (const std::string& s : v)
        l << QString::fromStdString(s);
    return l.join(", ");
}

void printText(const study::PlanVsMeasured& r, const QString& file)
{
    out() << "Plan vs measured: " << file << " against " << r.url << ", " << utc(r.fromS) << " .. " << utc(r.toS)
          << ", step " << r.stepS << " s, threshold " << r.threshold * 100.0 << " %\n"
          << r.seriesCount << " DCGM series\n\nJobs\n";
    if (r.jobs.empty())
        out() << "  none measured\n";
    for (const study::JobVsMeasured& j : r.jobs) {
        out() << "  " << QString::fromStdString(j.tenantId) << "/" << QString::fromStdString(j.jobId) << " ("
              << QString::fromStdString(j.jobName) << "): pods " << join(j.pods) << " [matched by "
              << QString::fromStdString(j.matchedBy) << "]\n"
              << "    measured on " << join(j.measuredOn) << "; planned on " << join(j.plannedOn) << '\n';
        printRows(j.rows);
    }
    out() << "\nGPUs\n";
    for (const study::GpuVsMeasured& g : r.gpus) {
        out() << "  " << QString::fromStdString(g.host) << "/" << QString::fromStdString(g.gpu)
              << (g.nodeId.empty() ? QString(" (no node of the plan)")
                                   : QString(" (node %1)").arg(QString::fromStdString(g.nodeId)))
              << (g.model.empty() ? QString() : ", " + QString::fromStdString(g.model)) << (g.mig ? ", MIG" : "")
              << (g.pods.empty() ? QString(", no pod") : ", pods " + join(g.pods)) << '\n';
        if (!g.xids.empty()) {
            QStringList x;
            for (int v : g.xids)
                x << QString::number(v);
            out() << "    XID errors: " << x.join(", ") << '\n';
        }
        printRows(g.rows);
    }
    out() << "\nNot matched\n";
    out() << "  series without pod labels: " << r.seriesWithoutPod;
    if (!r.seriesWithoutPodExamples.empty())
        out() << " (e.g. " << join(r.seriesWithoutPodExamples) << ")";
    out() << '\n';
    for (const std::string& p : r.podsWithoutJob)
        out() << "  pod with no job: " << QString::fromStdString(p) << '\n';
    for (const std::string& h : r.hostsNotInPlan)
        out() << "  host that is no node of the plan: " << QString::fromStdString(h) << '\n';
    for (const std::string& j : r.jobsNotMeasured)
        out() << "  job without series: " << QString::fromStdString(j) << '\n';
    for (const std::string& t : r.throughputUnmatched)
        out() << "  throughput series with no job: " << QString::fromStdString(t) << '\n';
    out() << '\n' << r.flagged << " difference(s) beyond " << r.threshold * 100.0 << " %\n";
}

} // namespace

int runCheckPlan(const QStringList& args)
{
    CommandLine cl("check-plan", kDescription);
    QCommandLineParser& p = cl.parser();
    p.addPositionalArgument("SCENARIO", "The plan (scenario JSON).");
    p.addOption({"prometheus", "Prometheus server, e.g. http://prometheus:9090 (its HTTP API).", "URL"});
    p.addOption({"from", "Start of the range (RFC 3339, Unix seconds, now-7d).", "T"});
    p.addOption({"to", "End of the range (default: now).", "T", "now"});
    p.addOption({"step",
                 "Resolution of the range query (seconds, or 30s, 5m; default: the range / 10000, at least 30 s).",
                 "S"});
    p.addOption({"threshold", "Flag differences beyond this fraction of the prediction (0.25, or 25%; default 0.25).",
                 "F", "0.25"});
    p.addOption({"timeout", "Give up on Prometheus after this many seconds (default 30).", "S", "30"});
    p.addOption({"match", "Label matchers added to the query, e.g. cluster=\"prod\",Hostname=~\"gpu-.*\".", "LABELS"});
    p.addOption({"mapping", "Names of the cluster that differ from the plan's (JSON, see above).", "FILE"});
    p.addOption({"throughput-query",
                 "PromQL giving tokens/s per pod (series with namespace and pod labels), compared with each job's "
                 "predicted tokens/s, e.g. sum by (namespace, pod) (rate(vllm:generation_tokens_total[5m])).",
                 "PROMQL"});
    p.addOption({"json", "Print the comparison as JSON (docs/cli.md#check-plan)."});
    p.addOption({"write-measurements",
                 "Also write the jobs' measured memory and tokens/s as a measurements file for calibrate "
                 "(docs/measurements.md).",
                 "FILE"});
    p.addOption({"calibration",
                 "Compare the plan with a calibration profile applied: a profile file or a library NAME[@VERSION] "
                 "in --db (docs/calibration.md).",
                 "PROFILE"});
    cl.addDbOption();
    if (auto done = cl.parse(args))
        return *done;
    if (p.positionalArguments().size() != 1)
        return cl.refuse("give one SCENARIO");
    if (!p.isSet("prometheus"))
        return cl.refuse("--prometheus URL is required");
    if (!p.isSet("from"))
        return cl.refuse("--from T is required");
    const double nowS = static_cast<double>(QDateTime::currentMSecsSinceEpoch()) / 1000.0;
    const auto from = timeS(p.value("from"), nowS);
    const auto to = timeS(p.value("to"), nowS);
    if (!from)
        return cl.refuse("--from '" + p.value("from") + "': not a time (2026-12-01T00:00:00Z, Unix seconds, now-7d)");
    if (!to)
        return cl.refuse("--to '" + p.value("to") + "': not a time (2026-12-01T00:00:00Z, Unix seconds, now)");
    if (*to <= *from)
        return cl.refuse("--to must be after --from");
    double step = std::max(30.0, std::ceil((*to - *from) / 10000.0));
    if (p.isSet("step")) {
        const auto s = durationS(p.value("step"));
        if (!s || *s <= 0)
            return cl.refuse("--step '" + p.value("step") + "': not a positive duration (60, 30s, 5m)");
        step = *s;
    }
    QString thresholdText = p.value("threshold").trimmed();
    const bool percent = thresholdText.endsWith('%');
    if (percent)
        thresholdText.chop(1);
    bool ok = false;
    double threshold = thresholdText.toDouble(&ok) / (percent ? 100.0 : 1.0);
    if (!ok || !(threshold > 0.0) || !std::isfinite(threshold))
        return cl.refuse("--threshold '" + p.value("threshold") + "': not a positive fraction (0.25, 25%)");
    const auto timeout = durationS(p.value("timeout"));
    if (!timeout || *timeout <= 0 || *timeout > 3600)
        return cl.refuse("--timeout '" + p.value("timeout") + "': seconds between 0 and 3600");
    const QUrl url(p.value("prometheus"));
    if (!url.isValid() || (url.scheme() != "http" && url.scheme() != "https") || url.host().isEmpty())
        return cl.refuse("--prometheus '" + p.value("prometheus") +
                         "': not an http:// or https:// address (e.g. http://prometheus:9090)");

    study::TelemetryMapping mapping;
    if (p.isSet("mapping")) {
        QString why;
        auto m = study::readTelemetryMapping(p.value("mapping"), &why);
        if (!m) {
            err() << "gpuplan-cli check-plan: " << why << Qt::endl;
            return kBadInput;
        }
        mapping = std::move(*m);
    }
    auto catalog = loadCatalogOrReport(p);
    if (!catalog)
        return kFailure;
    const QString file = p.positionalArguments().front();
    auto scenario = readScenarioOrReport(file, *catalog);
    if (!scenario)
        return kBadInput;
    std::optional<CalibrationProfile> profile;
    if (!readCalibrationOption(p, profile))
        return kBadInput;
    if (profile)
        applyProfile(p, *profile, *scenario, &*catalog);

    study::PlanCheckRequest request;
    request.telemetry.url = url;
    request.telemetry.fromS = *from;
    request.telemetry.toS = *to;
    request.telemetry.stepS = step;
    request.telemetry.timeoutMs = static_cast<int>(std::lround(*timeout * 1000.0));
    request.telemetry.selector = p.value("match");
    request.mapping = std::move(mapping);
    request.threshold = threshold;
    request.throughputQuery = p.value("throughput-query");
    const study::PlanCheck check = study::checkPlan(*scenario, *catalog, request);
    if (check.error) {
        // Prometheus's limits on one query: 11,000 points a series, --query.max-samples in all.
        const QString m = check.error->message;
        const QString hint = m.contains("exceeded maximum resolution") ? " (a larger --step gives fewer points)"
                             : m.contains("too many samples")
                                 ? " (a larger --step, a shorter range or a narrower --match asks for fewer samples)"
                                 : QString();
        err() << "gpuplan-cli check-plan: " << check.error->text() << hint << Qt::endl;
        return kPrometheusFailed;
    }
    if (check.noDcgmSeries) {
        err() << "gpuplan-cli check-plan: " << check.url << " has no DCGM series from " << utc(*from) << " to "
              << utc(*to) << " (query: " << check.query
              << "): is dcgm-exporter scraped by this Prometheus, and are the range and --match right?" << Qt::endl;
        return kNoDcgmSeries;
    }
    const study::PlanVsMeasured& r = *check.result;
    if (p.isSet("write-measurements")) {
        const MeasurementSet set = study::telemetryMeasurements(r, scenario->name);
        if (set.items.empty())
            err() << "gpuplan-cli check-plan: no job's memory or tokens/s was measured on its own series: "
                  << p.value("write-measurements") << " was not written" << Qt::endl;
        else if (!saveFileAtomically(p.value("write-measurements"), io::measurementsToJson(set)))
            return kFailure;
        else
            err() << "gpuplan-cli check-plan: " << set.items.size() << " measurement(s) written to "
                  << p.value("write-measurements") << " (gpuplan-cli calibrate SCENARIO "
                  << p.value("write-measurements") << ")" << Qt::endl;
    }
    if (p.isSet("json"))
        out() << QJsonDocument(study::toJson(r)).toJson(QJsonDocument::Indented);
    else
        printText(r, file);
    out() << Qt::flush;
    if (r.jobs.empty()) {
        err() << "gpuplan-cli check-plan: none of the " << r.seriesCount << " DCGM series from " << r.url
              << " is attributed to a job of the plan: " << r.seriesWithoutPod << " carry no pod label"
              << (r.seriesWithoutPodExamples.empty()
                      ? QString()
                      : " (e.g. " + QString::fromStdString(r.seriesWithoutPodExamples.front()) + ")")
              << ", " << r.podsWithoutJob.size()
              << " pod(s) name no job. dcgm-exporter adds pod labels with its Kubernetes mapping (the GPU "
                 "Operator's default); --mapping names jobs whose pods are named otherwise."
              << Qt::endl;
        return kNoJobMeasured;
    }
    return r.flagged > 0 ? static_cast<int>(kBeyondThreshold) : static_cast<int>(kOk);
}

} // namespace gp::cli
