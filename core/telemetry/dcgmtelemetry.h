// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#pragma once

#include "prometheusclient.h"

#include <QString>
#include <QUrl>

#include <atomic>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace gp::telemetry {

/// How a field's series add up across the GPUs (or MIG instances) one figure covers.
enum class Combine
{
    Max,  ///< memory per GPU: the most loaded one
    Mean, ///< activity, link load, power: per GPU on average
};

/// One DCGM field gpuplan reads (https://docs.nvidia.com/datacenter/dcgm/latest/dcgm-api/dcgm-api-field-ids.html),
/// the name dcgm-exporter gives its series, and the unit gpuplan reports it in.
struct DcgmField
{
    const char* name; ///< the series name, e.g. "DCGM_FI_DEV_FB_USED"
    const char* key;  ///< short name in reports and JSON, e.g. "memory_used_gib"
    const char* unit; ///< of the reported value
    double scale;     ///< reported = exported value × scale (MiB -> GiB, % -> fraction, bytes/s -> GB/s)
    Combine combine;
    bool perProcess; ///< dcgm-exporter may split it per pod on a shared GPU (DCGM_FI_DEV_FB_USED, _GPU_UTIL)
    const char* what;
};

const std::vector<DcgmField>& dcgmFields();
const DcgmField* dcgmField(const std::string& name);

/// Mean and nearest-rank percentiles of a set of values (empty: samples 0, all zero).
struct Stats
{
    int samples = 0;
    double mean = 0.0;
    double p50 = 0.0;
    double p95 = 0.0;
    double max = 0.0;
};
Stats summarize(std::vector<double> values);

/// The GPU (or MIG instance) a series is about, from the exporter's labels: Hostname (before
/// dcgm-exporter 4.5) or hostname, gpu, UUID, GPU_I_PROFILE and GPU_I_ID.
struct GpuRef
{
    std::string host;
    std::string gpu; ///< the GPU's index on its host, "0"
    std::string uuid;
    std::string migProfile; ///< "1g.10gb", "" for a whole GPU
    std::string migInstance;
    /// "host/gpu": the physical GPU.
    std::string deviceKey() const { return host + "/" + gpu; }
    /// "host/gpu" or "host/gpu/GI" for a MIG instance.
    std::string key() const { return deviceKey() + (migInstance.empty() ? std::string() : "/" + migInstance); }
};

/// The pod a series is attributed to by dcgm-exporter's Kubernetes mapping (labels pod,
/// namespace, container; pod_name, pod_namespace, container_name with --use-old-namespace).
struct PodRef
{
    std::string ns;
    std::string pod;
    std::string container;
    bool empty() const { return pod.empty(); }
    std::string key() const { return ns + "/" + pod; }
};

struct DcgmSeries
{
    const DcgmField* field = nullptr;
    GpuRef gpu;
    PodRef pod;
    std::map<std::string, std::string> labels;
    std::vector<Sample> samples; ///< in the field's reported unit
    /// FIELD{Hostname="…",gpu="…",GPU_I_ID="…",pod="…"}: how messages name it.
    std::string text() const;
};

/// Every DCGM series of a range, as fetched.
struct DcgmTelemetry
{
    QString url; ///< the Prometheus asked (no credentials)
    double fromS = 0.0;
    double toS = 0.0;
    double stepS = 0.0;
    QString selector; ///< extra label matchers, as given
    std::vector<DcgmSeries> series;
};

/// What a set of series measured, field by field (the field's key), over the range: at each
/// time the series are combined by the field's rule (the most loaded GPU for memory, the mean
/// otherwise), and those values summarised.
using Measured = std::map<std::string, Stats>;
Measured measure(const std::vector<const DcgmSeries*>& series);

/// One physical GPU of the range: its own series (a MIG GPU's instances combined, activity weighted by
/// each instance's compute slices), the pods seen on it and the XID errors it reported.
struct GpuTelemetry
{
    GpuRef gpu;        ///< migProfile/migInstance empty
    std::string model; ///< modelName
    Measured measured;
    std::vector<std::string> pods; ///< namespace/pod
    std::vector<int> xids;         ///< distinct non-zero DCGM_FI_DEV_XID_ERRORS values
    bool mig = false;
};
std::vector<GpuTelemetry> gpusOf(const DcgmTelemetry& t);

/// Whether pod `p`'s series of `field` on `gpu` carry the pod's own value or its whole GPU's:
/// dcgm-exporter copies a GPU's series to each pod sharing it, except for the per-process
/// fields where it also keeps the GPU's own series (the pod's then holds the pod's processes).
bool podOwnValue(const DcgmTelemetry& t, const DcgmSeries& s);

struct TelemetryRequest
{
    QUrl url;
    double fromS = 0.0;
    double toS = 0.0;
    double stepS = 60.0;
    int timeoutMs = 30000;
    QString selector; ///< label matchers added to every query: cluster="prod",Hostname=~"gpu-.*"
    /// Set by another thread to give up waiting (FetchFailure::Cancelled); nullptr: never.
    const std::atomic<bool>* stop = nullptr;
};

struct TelemetryAnswer
{
    DcgmTelemetry telemetry;
    std::optional<FetchError> error;
};

/// One range query for every field of dcgmFields(): {__name__=~"F1|F2|…", SELECTOR}.
QString dcgmQuery(const QString& selector);
TelemetryAnswer fetchDcgmTelemetry(const TelemetryRequest& request);
/// Series of a query answer as DCGM series (others are left out); public for the tests.
std::vector<DcgmSeries> dcgmSeriesOf(const std::vector<Series>& series);

} // namespace gp::telemetry
