// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#pragma once

#include "calc/evaluation.h"
#include "model/catalog.h"
#include "model/measurement.h"
#include "model/scenario.h"
#include "telemetry/dcgmtelemetry.h"

#include <QJsonObject>
#include <QString>

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace gp::study {

/// How the cluster's names map to the plan's where they are not the same (docs/cli.md#check-plan):
/// the exporter's host -> node, a namespace -> tenant, a pod's owner (or a prefix of pod names) -> job;
/// each value an id or a name of the plan.
struct TelemetryMapping
{
    std::map<std::string, std::string> nodes;
    std::map<std::string, std::string> tenants;
    std::map<std::string, std::string> jobs;
};

/// Reads a mapping file {"nodes": {…}, "tenants": {…}, "jobs": {…}}; nullopt with "FILE: PATH:
/// why" in `error` when it cannot be used.
std::optional<TelemetryMapping> readTelemetryMapping(const QString& file, QString* error);

/// One quantity of a job or GPU, predicted beside measured.
struct MeasuredRow
{
    std::string key;   ///< "memory_gib", "sm_activity", "tensor_activity", "dram_activity", "link_gbytes_s", "power_w"
    std::string label; ///< "memory per GPU"
    std::string unit;
    std::optional<double> predicted;
    std::optional<telemetry::Stats> measured;
    std::string statistic;            ///< what of `measured` is compared: "max" (memory) or "mean"
    std::optional<double> difference; ///< (measured - predicted) / predicted, where both exist
    bool flagged = false;             ///< beyond the threshold (and beyond the quantity's noise floor)
    std::string parameter;            ///< flagged: the model parameter that would explain it
    std::string note;                 ///< what limits the comparison
    double compared() const;          ///< the measured statistic compared
};

struct JobVsMeasured
{
    std::string jobId, jobName, tenantId;
    std::vector<std::string> pods;       ///< namespace/pod
    std::string matchedBy;               ///< "mapping", "owner name", "name prefix"
    std::vector<std::string> measuredOn; ///< host/gpu[/GI] the pods' series came from
    std::vector<std::string> plannedOn;  ///< node/gpu of the plan's placement
    bool gpuWideValues = false;          ///< some series hold their shared GPU's value, not the pod's
    std::vector<MeasuredRow> rows;
};

struct GpuVsMeasured
{
    std::string host, gpu, nodeId; ///< nodeId "" when the host is no node of the plan
    std::string model;
    bool mig = false;
    std::vector<std::string> pods;
    std::vector<int> xids;
    std::vector<MeasuredRow> rows;
};

/// A plan's predictions beside a range of DCGM telemetry: every job and GPU that could be matched,
/// and everything that could not, named.
struct PlanVsMeasured
{
    QString url;
    double fromS = 0.0, toS = 0.0, stepS = 0.0;
    double threshold = 0.25;
    int seriesCount = 0;
    std::vector<JobVsMeasured> jobs;
    std::vector<GpuVsMeasured> gpus;
    std::vector<std::string> jobsNotMeasured; ///< "tenant/job: why"
    std::vector<std::string> podsWithoutJob;  ///< "namespace/pod: why"
    std::vector<std::string> hostsNotInPlan;
    int seriesWithoutPod = 0; ///< series that carry no pod label
    std::vector<std::string> seriesWithoutPodExamples;
    int throughputSeries = -1;                    ///< series the throughput query gave; -1: none asked
    std::vector<std::string> throughputUnmatched; ///< its series that name no job, and why
    int flagged = 0;
};

/// Matches the telemetry to the plan (docs/cli.md#check-plan) and puts predicted beside measured.
/// `evaluation` is calc::evaluate of `scenario`. `throughput`, where given, are series of tokens/s
/// with pod labels (a --throughput-query's answer): each job gains a tokens/s row.
PlanVsMeasured comparePlanWithTelemetry(const Scenario& scenario, const Catalog& catalog,
                                        const calc::Evaluation& evaluation, const telemetry::DcgmTelemetry& telemetry,
                                        const TelemetryMapping& mapping, double threshold,
                                        const std::vector<telemetry::Series>* throughput = nullptr);

/// What `check-plan` asks: the range, the names that differ, the threshold and, optionally, a
/// PromQL query of tokens/s per pod (e.g. sum by (namespace, pod) (rate(vllm:generation_tokens_total[5m]))).
struct PlanCheckRequest
{
    telemetry::TelemetryRequest telemetry;
    TelemetryMapping mapping;
    double threshold = 0.25;
    QString throughputQuery;
};

/// Its answer: the comparison, or why there is none (Prometheus failed; no DCGM series in the range).
struct PlanCheck
{
    std::optional<PlanVsMeasured> result;
    std::optional<telemetry::FetchError> error;
    bool noDcgmSeries = false;
    QString url;   ///< the Prometheus asked (no credentials)
    QString query; ///< the DCGM query
};

/// Fetches the range, evaluates the plan and compares: the one path of `gpuplan-cli check-plan` and
/// of a workbench view. Blocks on the network (bounded by the request's timeout, per query): call
/// it off the GUI thread; `request.telemetry.stop` ends the wait early (an error of kind Cancelled).
PlanCheck checkPlan(const Scenario& scenario, const Catalog& catalog, const PlanCheckRequest& request);

/// The comparison's measured figures that the model predicts and a calibration can fit, as a
/// measurements file's items (docs/measurements.md): per job its memory per GPU (max over the
/// range) and, where a throughput query gave it, its tokens/s (mean) — each from the job's own
/// series only (not a shared GPU's copies), weighted 1, its source the Prometheus, the range and
/// the series' pods. Activity, link load and power stay for check-plan: no figure of the model's
/// measured-prediction contract (study::predictedFor) compares them.
MeasurementSet telemetryMeasurements(const PlanVsMeasured& r, const std::string& scenarioId);

/// `gpuplan-cli check-plan --json`'s document.
QJsonObject toJson(const PlanVsMeasured& r);
/// That document read back (what `gpuplan-cli report --check-plan` draws); nullopt with
/// "PATH: why" in `error` when a field is not as toJson writes it.
std::optional<PlanVsMeasured> planVsMeasuredFromJson(const QJsonObject& json, std::string* error);

} // namespace gp::study
