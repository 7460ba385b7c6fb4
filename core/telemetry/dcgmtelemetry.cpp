// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#include "dcgmtelemetry.h"

#include <QStringList>

#include <algorithm>
#include <cmath>
#include <set>
#include <tuple>
#include <utility>

namespace gp::telemetry {

const std::vector<DcgmField>& dcgmFields()
{
    // Units as DCGM defines the fields (DCGM field identifiers, docs.nvidia.com/datacenter/dcgm):
    // FB in MiB, GPU_UTIL in percent, PROF_* activities as ratios 0..1, PROF_*_BYTES as bytes per
    // second (a rate, not a counter), POWER_USAGE in watts, XID_ERRORS the last XID's number.
    static const std::vector<DcgmField> fields{
        {"DCGM_FI_DEV_FB_USED", "memory_used_gib", "GiB", 1.0 / 1024.0, Combine::Max, true, "framebuffer memory used"},
        {"DCGM_FI_DEV_FB_FREE", "memory_free_gib", "GiB", 1.0 / 1024.0, Combine::Mean, false,
         "framebuffer memory free"},
        {"DCGM_FI_PROF_GR_ENGINE_ACTIVE", "sm_activity", "fraction", 1.0, Combine::Mean, false,
         "share of time the graphics/compute engine is active"},
        {"DCGM_FI_DEV_GPU_UTIL", "gpu_util", "fraction", 0.01, Combine::Mean, true,
         "share of time a kernel runs (exported in percent)"},
        {"DCGM_FI_PROF_PIPE_TENSOR_ACTIVE", "tensor_activity", "fraction", 1.0, Combine::Mean, false,
         "share of cycles the tensor pipes are active"},
        {"DCGM_FI_PROF_DRAM_ACTIVE", "dram_activity", "fraction", 1.0, Combine::Mean, false,
         "share of cycles device memory is sending or receiving"},
        {"DCGM_FI_PROF_NVLINK_TX_BYTES", "nvlink_tx_gbytes_s", "GB/s", 1e-9, Combine::Mean, false,
         "NVLink data transmitted per second"},
        {"DCGM_FI_PROF_NVLINK_RX_BYTES", "nvlink_rx_gbytes_s", "GB/s", 1e-9, Combine::Mean, false,
         "NVLink data received per second"},
        {"DCGM_FI_PROF_PCIE_TX_BYTES", "pcie_tx_gbytes_s", "GB/s", 1e-9, Combine::Mean, false,
         "PCIe data transmitted per second"},
        {"DCGM_FI_PROF_PCIE_RX_BYTES", "pcie_rx_gbytes_s", "GB/s", 1e-9, Combine::Mean, false,
         "PCIe data received per second"},
        {"DCGM_FI_DEV_POWER_USAGE", "power_w", "W", 1.0, Combine::Mean, false, "power draw"},
        {"DCGM_FI_DEV_XID_ERRORS", "xid", "XID", 1.0, Combine::Max, false, "the last XID error's number"},
    };
    return fields;
}

const DcgmField* dcgmField(const std::string& name)
{
    for (const DcgmField& f : dcgmFields())
        if (name == f.name)
            return &f;
    return nullptr;
}

Stats summarize(std::vector<double> values)
{
    Stats s;
    if (values.empty())
        return s;
    std::sort(values.begin(), values.end());
    double sum = 0.0;
    for (double v : values)
        sum += v;
    // Nearest rank: the smallest value with at least p of the values at or below it.
    const auto rank = [&](double p) {
        const auto k = static_cast<std::size_t>(std::ceil(p * static_cast<double>(values.size())));
        return values[std::clamp<std::size_t>(k, 1, values.size()) - 1];
    };
    s.samples = static_cast<int>(values.size());
    s.mean = sum / static_cast<double>(values.size());
    s.p50 = rank(0.50);
    s.p95 = rank(0.95);
    s.max = values.back();
    return s;
}

namespace {

std::string label(const std::map<std::string, std::string>& labels, std::initializer_list<const char*> names,
                  const char** which = nullptr)
{
    for (const char* n : names) {
        auto it = labels.find(n);
        if (it != labels.end() && !it->second.empty()) {
            if (which)
                *which = n;
            return it->second;
        }
    }
    return {};
}

/// The compute slices of a MIG profile ("3g.40gb" -> 3, of 7), or 0 when it does not say.
int migSlices(const std::string& profile)
{
    int n = 0;
    std::size_t i = 0;
    while (i < profile.size() && profile[i] >= '0' && profile[i] <= '9')
        n = n * 10 + (profile[i++] - '0');
    return i < profile.size() && profile[i] == 'g' ? n : 0;
}

bool isActivity(const DcgmField& f) { return std::string_view(f.unit) == "fraction"; }

bool sums(const DcgmField& f)
{
    const std::string_view u = f.unit;
    return u == "GiB" || u == "GB/s";
}

/// Values at each time of the range over `series`, combined by `combine`.
std::map<double, double> combineAt(const std::vector<std::pair<const DcgmSeries*, double>>& weighted,
                                   const DcgmField& f, bool physicalGpu)
{
    std::map<double, std::vector<std::pair<double, double>>> at;
    for (const auto& [s, w] : weighted)
        for (const Sample& p : s->samples)
            at[p.timeS].push_back({p.value, w});
    std::map<double, double> out;
    for (const auto& [t, vs] : at) {
        double v = 0.0;
        if (physicalGpu && sums(f)) { // a MIG GPU's instances add up
            for (const auto& [x, w] : vs)
                v += x;
        } else if (physicalGpu && isActivity(f)) { // an instance's activity is of its own slices
            for (const auto& [x, w] : vs)
                v += x * w;
        } else if (f.combine == Combine::Max || physicalGpu) {
            v = vs.front().first;
            for (const auto& [x, w] : vs)
                v = std::max(v, x);
        } else {
            for (const auto& [x, w] : vs)
                v += x;
            v /= static_cast<double>(vs.size());
        }
        out[t] = v;
    }
    return out;
}

std::vector<double> valuesOf(const std::map<double, double>& at)
{
    std::vector<double> v;
    v.reserve(at.size());
    for (const auto& [t, x] : at)
        v.push_back(x);
    return v;
}

} // namespace

std::string DcgmSeries::text() const
{
    std::string s = field ? field->name : "?";
    std::string inner;
    const auto add = [&](const char* name, const std::string& value) {
        if (value.empty())
            return;
        inner += (inner.empty() ? "" : ",") + std::string(name) + "=\"" + value + "\"";
    };
    const char* hostLabel = "Hostname";
    label(labels, {"Hostname", "hostname", "node", "kubernetes_node"}, &hostLabel);
    add(hostLabel, gpu.host);
    add("gpu", gpu.gpu);
    add("GPU_I_PROFILE", gpu.migProfile);
    add("GPU_I_ID", gpu.migInstance);
    add("namespace", pod.ns);
    add("pod", pod.pod);
    return s + "{" + inner + "}";
}

Measured measure(const std::vector<const DcgmSeries*>& series)
{
    Measured m;
    for (const DcgmField& f : dcgmFields()) {
        std::vector<std::pair<const DcgmSeries*, double>> of;
        for (const DcgmSeries* s : series)
            if (s->field == &f)
                of.push_back({s, 1.0});
        if (!of.empty())
            m[f.key] = summarize(valuesOf(combineAt(of, f, false)));
    }
    return m;
}

bool podOwnValue(const DcgmTelemetry& t, const DcgmSeries& s)
{
    if (s.pod.empty())
        return false;
    std::set<std::string> pods;
    bool gpuOwnSeries = false;
    for (const DcgmSeries& o : t.series) {
        if (o.field != s.field || o.gpu.key() != s.gpu.key())
            continue;
        if (o.pod.empty())
            gpuOwnSeries = true;
        else
            pods.insert(o.pod.key());
    }
    return pods.size() <= 1 || (s.field->perProcess && gpuOwnSeries);
}

std::vector<GpuTelemetry> gpusOf(const DcgmTelemetry& t)
{
    std::map<std::string, std::vector<const DcgmSeries*>> byDevice;
    for (const DcgmSeries& s : t.series)
        byDevice[s.gpu.deviceKey()].push_back(&s);
    std::vector<GpuTelemetry> gpus;
    for (const auto& [device, series] : byDevice) {
        GpuTelemetry g;
        g.gpu = series.front()->gpu;
        g.gpu.migProfile.clear();
        g.gpu.migInstance.clear();
        g.model = label(series.front()->labels, {"modelName", "model_name"});
        std::set<std::string> pods;
        std::set<int> xids;
        for (const DcgmSeries* s : series) {
            if (!s->pod.empty())
                pods.insert(s->pod.key());
            if (!s->gpu.migInstance.empty())
                g.mig = true;
            if (std::string_view(s->field->name) == "DCGM_FI_DEV_XID_ERRORS")
                for (const Sample& p : s->samples)
                    if (p.value > 0.5)
                        xids.insert(static_cast<int>(std::lround(p.value)));
        }
        g.pods.assign(pods.begin(), pods.end());
        g.xids.assign(xids.begin(), xids.end());
        for (const DcgmField& f : dcgmFields()) {
            // One series per GPU or MIG instance: the exporter copies a GPU's series to each pod on
            // it, so the one without pod labels if there is one, else any copy; the whole GPU's
            // series, where there is one, over its instances'.
            std::map<std::string, const DcgmSeries*> perInstance;
            bool wholeGpu = false;
            for (const DcgmSeries* s : series) {
                if (s->field != &f)
                    continue;
                wholeGpu = wholeGpu || s->gpu.migInstance.empty();
                const DcgmSeries*& slot = perInstance[s->gpu.migInstance];
                if (!slot || (!slot->pod.empty() && s->pod.empty()))
                    slot = s;
            }
            if (perInstance.empty())
                continue;
            std::vector<std::pair<const DcgmSeries*, double>> weighted;
            for (const auto& [instance, s] : perInstance) {
                if (wholeGpu && !instance.empty())
                    continue;
                const int slices = migSlices(s->gpu.migProfile);
                weighted.push_back({s, instance.empty() ? 1.0
                                       : slices > 0     ? slices / 7.0
                                                        : 1.0 / static_cast<double>(perInstance.size())});
            }
            g.measured[f.key] = summarize(valuesOf(combineAt(weighted, f, true)));
        }
        gpus.push_back(std::move(g));
    }
    return gpus;
}

std::vector<DcgmSeries> dcgmSeriesOf(const std::vector<Series>& series)
{
    std::vector<DcgmSeries> out;
    for (const Series& s : series) {
        auto name = s.labels.find("__name__");
        const DcgmField* f = name == s.labels.end() ? nullptr : dcgmField(name->second);
        if (!f)
            continue;
        DcgmSeries d;
        d.field = f;
        d.labels = s.labels;
        d.gpu.host = label(s.labels, {"Hostname", "hostname", "node", "kubernetes_node"});
        d.gpu.gpu = label(s.labels, {"gpu"});
        d.gpu.uuid = label(s.labels, {"UUID", "uuid", "gpu_uuid"});
        d.gpu.migProfile = label(s.labels, {"GPU_I_PROFILE"});
        d.gpu.migInstance = label(s.labels, {"GPU_I_ID"});
        if (d.gpu.gpu.empty())
            d.gpu.gpu = d.gpu.uuid;
        d.pod.pod = label(s.labels, {"pod", "pod_name"});
        d.pod.ns = label(s.labels, {"namespace", "pod_namespace"});
        d.pod.container = label(s.labels, {"container", "container_name"});
        d.samples.reserve(s.samples.size());
        for (const Sample& p : s.samples)
            d.samples.push_back({p.timeS, p.value * f->scale});
        out.push_back(std::move(d));
    }
    std::sort(out.begin(), out.end(), [](const DcgmSeries& a, const DcgmSeries& b) {
        return std::tie(a.field, a.gpu.host, a.gpu.gpu, a.gpu.migInstance, a.pod.ns, a.pod.pod) <
               std::tie(b.field, b.gpu.host, b.gpu.gpu, b.gpu.migInstance, b.pod.ns, b.pod.pod);
    });
    return out;
}

QString dcgmQuery(const QString& selector)
{
    QStringList names;
    for (const DcgmField& f : dcgmFields())
        names << f.name;
    const QString sel = selector.trimmed();
    return QString("{__name__=~\"%1\"%2}").arg(names.join('|'), sel.isEmpty() ? QString() : "," + sel);
}

TelemetryAnswer fetchDcgmTelemetry(const TelemetryRequest& request)
{
    TelemetryAnswer a;
    a.telemetry.url = request.url.toString(QUrl::RemoveUserInfo | QUrl::StripTrailingSlash);
    a.telemetry.fromS = request.fromS;
    a.telemetry.toS = request.toS;
    a.telemetry.stepS = request.stepS;
    a.telemetry.selector = request.selector;
    const PrometheusClient client(request.url, request.timeoutMs, request.stop);
    RangeAnswer r = client.queryRange({dcgmQuery(request.selector), request.fromS, request.toS, request.stepS});
    if (!r.ok()) {
        a.error = r.error;
        return a;
    }
    a.telemetry.series = dcgmSeriesOf(r.series);
    return a;
}

} // namespace gp::telemetry
