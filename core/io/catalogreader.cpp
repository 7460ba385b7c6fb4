// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#include "catalogreader.h"

#include "errorbandsio.h"
#include "jsonfields.h"
#include "jsonfile.h"
#include "model/assumptions.h"
#include "model/checks.h"
#include "model/enumnames.h"
#include "model/miglayout.h"
#include "model/validation.h"

#include <QDir>
#include <QFileInfo>

#include <algorithm>
#include <set>
#include <utility>

namespace gp::io {

using checks::field;
using checks::idx;
using checks::inRange;

namespace {

constexpr int kCatalogFormatVersion = 1;

/// The scale-up links a GPU has, and how a node template joins its GPUs (docs/catalog.md);
/// calc/slots.cpp decides from them which GPUs one job may span.
const std::vector<std::string> kGpuScaleUpKinds = {"nvlink3",       "nvlink4",         "nvlink5",
                                                   "nvlink-bridge", "infinity-fabric", "none"};
const std::vector<std::string> kNodeScaleUpKinds = {"nvswitch", "nvlink-bridge", "infinity-fabric", "pcie"};

/// "a, b or c".
std::string choices(const std::vector<std::string>& list)
{
    std::string out;
    for (std::size_t i = 0; i < list.size(); ++i)
        out += (i == 0 ? "" : i + 1 == list.size() ? " or " : ", ") + list[i];
    return out;
}

/// Reads one kind of catalog entry, with the figures that need a source.
class FragmentReader
{
public:
    FragmentReader(Catalog& catalog, bool overrideExisting, Issues& out)
        : mCatalog(catalog), mOverride(overrideExisting), mOut(out)
    {
    }

    void read(const QJsonObject& root)
    {
        JsonFields f(root, "", mOut);
        const int version = f.integer("format_version", 0, true);
        if (version > kCatalogFormatVersion) {
            mOut.push_back(Issue::error("format_version",
                                        std::to_string(version) + " is newer than this gpuplan reads (" +
                                            std::to_string(kCatalogFormatVersion) + "): it needs a newer gpuplan"));
            return;
        }
        entries(f, "gpus", mCatalog.gpus, [&](JsonFields& g) { return gpu(g); });
        entries(f, "node_templates", mCatalog.nodeTemplates, [&](JsonFields& g) { return nodeTemplate(g); });
        entries(f, "switch_templates", mCatalog.switchTemplates, [&](JsonFields& g) { return switchTemplate(g); });
        entries(f, "rack_templates", mCatalog.rackTemplates, [&](JsonFields& g) { return rackTemplate(g); });
        entries(f, "price_presets", mCatalog.pricePresets, [&](JsonFields& g) { return pricePreset(g); });
        entries(f, "models", mCatalog.models, [&](JsonFields& g) { return modelPreset(g); });
        entries(f, "software_stacks", mCatalog.softwareStacks, [&](JsonFields& g) { return softwareStack(g); });
        f.finish();
    }

private:
    template <typename T, typename Fn> void entries(JsonFields& f, const char* key, std::vector<T>& list, Fn readOne)
    {
        auto arr = f.array(key);
        if (!arr)
            return;
        std::set<std::string> seen;
        for (qsizetype i = 0; i < arr->size(); ++i) {
            const std::string p = idx(f.pathOf(key), static_cast<std::size_t>(i));
            auto o = asObject(arr->at(i), p, mOut);
            if (!o)
                continue;
            JsonFields g(*o, p, mOut);
            T item = readOne(g);
            g.finish();
            // Within one file an id is given once, whether or not the file may override others.
            if (!item.id.empty() && !seen.insert(item.id).second) {
                mOut.push_back(Issue::error(field(p, "id"), "'" + item.id +
                                                                "' is defined twice in this file (an earlier " + key +
                                                                " entry has the same id)"));
                continue;
            }
            auto existing = std::find_if(list.begin(), list.end(), [&](const T& t) { return t.id == item.id; });
            if (existing == list.end())
                list.push_back(std::move(item));
            else if (mOverride)
                *existing = std::move(item);
            else
                mOut.push_back(Issue::error(field(p, "id"), "'" + item.id + "' is defined twice"));
        }
    }

    /// A required string that must be one of `allowed`; anything else is refused with the choices.
    std::string oneOf(JsonFields& g, const char* key, const std::vector<std::string>& allowed)
    {
        const std::size_t before = mOut.size();
        std::string s = g.string(key, {}, true, TextKind::Id);
        if (mOut.size() == before && std::find(allowed.begin(), allowed.end(), s) == allowed.end())
            mOut.push_back(Issue::error(g.pathOf(key), "'" + s + "' must be " + choices(allowed)));
        return s;
    }

    /// Reads a figure and checks it has a source in `sources`.
    /// A datasheet figure: required, in [lo, hi], and cited in "sources".
    double figure(JsonFields& g, const std::map<std::string, std::string>& sources, const char* key, double lo,
                  double hi)
    {
        const double v = g.number(key, 0.0, true);
        inRange(mOut, g.pathOf(key), v, lo, hi);
        warnUncited(g, sources, key);
        return v;
    }

    /// A datasheet figure that counts something (GPUs, ports, a PCIe generation): whole, and
    /// checked as a whole number before it becomes an int.
    int countFigure(JsonFields& g, const std::map<std::string, std::string>& sources, const char* key, int lo, int hi)
    {
        const std::size_t before = mOut.size();
        const int v = g.integer(key, 0, true);
        if (mOut.size() == before)
            inRange(mOut, g.pathOf(key), v, lo, hi);
        warnUncited(g, sources, key);
        return v;
    }

    void warnUncited(JsonFields& g, const std::map<std::string, std::string>& sources, const char* key)
    {
        auto it = sources.find(key);
        if (it == sources.end() || it->second.empty())
            mOut.push_back(Issue::warning(g.pathOf(key), "has no source in \"sources\""));
    }

    std::map<std::string, std::string> sources(JsonFields& g)
    {
        std::map<std::string, std::string> out;
        if (auto o = g.object("sources")) {
            JsonFields s(*o, g.pathOf("sources"), mOut);
            for (const QString& k : o->keys()) {
                const QByteArray key = k.toUtf8();
                out[k.toStdString()] = s.string(key.constData());
            }
        }
        return out;
    }

    std::string id(JsonFields& g)
    {
        std::string s = g.id("id");
        if (s.empty() && g.has("id"))
            mOut.push_back(Issue::error(g.pathOf("id"), "must not be empty"));
        return s;
    }

    GpuSpec gpu(JsonFields& g)
    {
        GpuSpec s;
        s.id = id(g);
        s.name = g.name("name", s.id);
        s.vendor = g.string("vendor", {}, true, TextKind::Name);
        s.architecture = g.string("architecture", {}, true, TextKind::Name);
        s.sources = sources(g);
        s.memoryGB = figure(g, s.sources, "memory_gb", 1, 10000);
        s.memoryUsableGiB = figure(g, s.sources, "memory_usable_gib", 1, s.memoryGB > 0 ? s.memoryGB : 10000);
        s.hbmBandwidthGBps = figure(g, s.sources, "hbm_bandwidth_gb_per_s", 1, 1e6);
        s.bf16DenseTflops = figure(g, s.sources, "bf16_dense_tflops", 1, 1e6);
        s.fp8DenseTflops = figure(g, s.sources, "fp8_dense_tflops", 0, 1e6);
        if (g.has("fp4_dense_tflops")) // optional: GPUs catalogued before FP4 tensor cores leave it out
            s.fp4DenseTflops = figure(g, s.sources, "fp4_dense_tflops", 0, 1e6);
        s.scaleUpKind = oneOf(g, "scale_up_kind", kGpuScaleUpKinds);
        s.scaleUpBandwidthGBps = figure(g, s.sources, "scale_up_bandwidth_gb_per_s", 0, 1e6);
        s.pcieGen = countFigure(g, s.sources, "pcie_gen", 1, 8);
        s.tdpW = figure(g, s.sources, "tdp_w", 1, 1e5);
        s.smCount = countFigure(g, s.sources, "sm_count", 1, 100000);
        if (auto mig = g.object("mig"))
            s.migProfiles = migProfiles(*mig, g.pathOf("mig"), s);
        if (auto vgpu = g.object("vgpu"))
            s.vgpuProfiles = vgpuProfiles(*vgpu, g.pathOf("vgpu"), s);
        if (auto eff = g.object("efficiency")) {
            s.efficiency = efficiency(*eff, g.pathOf("efficiency"));
            warnUncited(g, s.sources, "efficiency");
        }
        if (auto sharing = g.object("sharing")) {
            s.sharingCalibration = sharingCalibration(*sharing, g.pathOf("sharing"));
            warnUncited(g, s.sources, "sharing");
        }
        return s;
    }

    /// The GPU's interference calibration: the sharing assumptions' keys, each within the
    /// assumption's documented range (docs/model-reference.md#assumptions).
    std::map<std::string, double> sharingCalibration(const QJsonObject& o, const std::string& path)
    {
        std::map<std::string, double> out;
        JsonFields f(o, path, mOut);
        for (const char* key : {"time_slice_switch_us", "time_slice_cache_refill_us", "mps_memory_contention",
                                "virtualization_io_overhead_pct"}) {
            if (!o.contains(key))
                continue;
            const Assumption* a = findAssumption(key);
            const double v = f.number(key, a->defaultValue);
            if (inRange(mOut, f.pathOf(key), v, a->minValue, a->maxValue, a->unit))
                out[key] = v;
        }
        f.finish();
        return out;
    }

    /// The GPU's kernel efficiencies: a GEMM curve with a positive, strictly increasing size
    /// axis and shares in (0, 1]; every absent figure keeps the documented default.
    KernelEfficiency efficiency(const QJsonObject& o, const std::string& path)
    {
        KernelEfficiency e;
        JsonFields f(o, path, mOut);
        if (auto arr = f.array("gemm")) {
            const std::string p = f.pathOf("gemm");
            std::vector<EfficiencyPoint> curve;
            bool good = !arr->isEmpty();
            if (arr->isEmpty())
                mOut.push_back(Issue::error(p, "must list at least one [GFLOP, efficiency] point"));
            for (qsizetype i = 0; i < arr->size(); ++i) {
                const std::string ip = idx(p, static_cast<std::size_t>(i));
                const QJsonArray pt = arr->at(i).toArray();
                if (!arr->at(i).isArray() || pt.size() != 2 || !pt[0].isDouble() || !pt[1].isDouble()) {
                    mOut.push_back(Issue::error(ip, "must be a pair [GFLOP per GEMM, share of the peak]"));
                    good = false;
                    continue;
                }
                const EfficiencyPoint point{pt[0].toDouble(), pt[1].toDouble()};
                if (!(point.size > 0)) {
                    mOut.push_back(
                        Issue::error(idx(ip, 0), checks::num(point.size) + " GFLOP: a GEMM size must be positive"));
                    good = false;
                } else if (!curve.empty() && !(point.size > curve.back().size)) {
                    mOut.push_back(Issue::error(idx(ip, 0), checks::num(point.size) + " GFLOP after " +
                                                                checks::num(curve.back().size) +
                                                                ": the sizes must increase"));
                    good = false;
                }
                good = inRange(mOut, idx(ip, 1), point.efficiency, 1e-6, 1.0, "a share of the peak") && good;
                curve.push_back(point);
            }
            if (good)
                e.gemm = std::move(curve);
        }
        const auto share = [&](const char* key, double& v) {
            v = f.number(key, v);
            inRange(mOut, f.pathOf(key), v, 1e-6, 1.0, "a share of the datasheet figure");
        };
        share("memory_bound", e.memoryBound);
        share("flash_attention", e.flashAttention);
        share("scale_up_collective", e.scaleUpCollective);
        e.collectiveLatencyUs = f.number("collective_latency_us", e.collectiveLatencyUs);
        inRange(mOut, f.pathOf("collective_latency_us"), e.collectiveLatencyUs, 0.0, 1e6);
        f.finish();
        return e;
    }

    std::vector<MigProfile> migProfiles(const QJsonObject& o, const std::string& path, const GpuSpec& gpu)
    {
        std::vector<MigProfile> out;
        JsonFields m(o, path, mOut);
        if (m.string("source", {}, true).empty())
            mOut.push_back(Issue::warning(m.pathOf("source"), "the MIG table has no source"));
        if (auto arr = m.array("profiles", true)) {
            for (qsizetype i = 0; i < arr->size(); ++i) {
                const std::string p = idx(m.pathOf("profiles"), static_cast<std::size_t>(i));
                auto po = asObject(arr->at(i), p, mOut);
                if (!po)
                    continue;
                JsonFields f(*po, p, mOut);
                MigProfile pr;
                pr.name = f.string("name", {}, true);
                pr.profileId = f.integer("id", 0, true);
                pr.computeSlices = f.integer("compute_slices", 0, true);
                pr.memorySlices = f.integer("memory_slices", 0, true);
                pr.usableGiB = f.number("usable_gib", 0.0, true);
                pr.smCount = f.integer("sm_count", 0, true);
                pr.maxInstances = f.integer("max_instances", 0, true);
                pr.mediaExtensions = f.boolean("media_extensions", false);
                if (auto starts = f.array("start_slices", true))
                    for (const auto& v : *starts)
                        pr.startSlices.push_back(v.isDouble() ? checks::exactInteger<int>(v.toDouble()).value_or(-1)
                                                              : -1);
                f.finish();
                inRange(mOut, field(p, "compute_slices"), pr.computeSlices, 1, mig::kComputeSlices);
                inRange(mOut, field(p, "memory_slices"), pr.memorySlices, 1, mig::kMemorySlices);
                inRange(mOut, field(p, "usable_gib"), pr.usableGiB, 0.1, gpu.memoryUsableGiB,
                        "at most the GPU's usable memory");
                inRange(mOut, field(p, "sm_count"), pr.smCount, 1, gpu.smCount, "at most the GPU's SMs");
                inRange(mOut, field(p, "max_instances"), pr.maxInstances, 1, mig::kComputeSlices);
                if (pr.startSlices.empty())
                    mOut.push_back(Issue::error(field(p, "start_slices"), "must list at least one start"));
                for (std::size_t k = 0; k < pr.startSlices.size(); ++k)
                    inRange(mOut, idx(field(p, "start_slices"), k), pr.startSlices[k], 0,
                            mig::kMemorySlices - pr.memorySlices, "the instance must end by slice 8");
                out.push_back(pr);
            }
        }
        m.finish();
        return out;
    }

    std::vector<VgpuProfile> vgpuProfiles(const QJsonObject& o, const std::string& path, const GpuSpec& gpu)
    {
        std::vector<VgpuProfile> out;
        JsonFields v(o, path, mOut);
        if (v.string("source", {}, true).empty())
            mOut.push_back(Issue::warning(v.pathOf("source"), "the vGPU table has no source"));
        if (auto arr = v.array("profiles", true)) {
            for (qsizetype i = 0; i < arr->size(); ++i) {
                const std::string p = idx(v.pathOf("profiles"), static_cast<std::size_t>(i));
                auto po = asObject(arr->at(i), p, mOut);
                if (!po)
                    continue;
                JsonFields f(*po, p, mOut);
                VgpuProfile pr;
                pr.name = f.string("name", {}, true);
                pr.framebufferGiB = f.number("framebuffer_gib", 0.0, true);
                pr.maxPerGpu = f.integer("max_per_gpu", 0, true);
                if (auto sch = f.array("schedulers")) {
                    for (qsizetype k = 0; k < sch->size(); ++k) {
                        const QString name = sch->at(k).toString();
                        const std::string sp = idx(field(p, "schedulers"), static_cast<std::size_t>(k));
                        if (!sch->at(k).isString() || !enumFromName<VgpuScheduler>(name.toStdString()))
                            mOut.push_back(Issue::error(
                                sp, "'" + name.toStdString() +
                                        "' is not a vGPU scheduler (best_effort, equal_share, fixed_share)"));
                        else
                            pr.schedulers.push_back(name.toStdString());
                    }
                    if (sch->isEmpty())
                        mOut.push_back(
                            Issue::error(field(p, "schedulers"), "must list at least one scheduler, or be left out"));
                }
                f.finish();
                inRange(mOut, field(p, "framebuffer_gib"), pr.framebufferGiB, 0.1, gpu.memoryGB,
                        "at most the GPU's memory");
                inRange(mOut, field(p, "max_per_gpu"), pr.maxPerGpu, 1, 64);
                out.push_back(pr);
            }
        }
        v.finish();
        return out;
    }

    NodeTemplate nodeTemplate(JsonFields& g)
    {
        NodeTemplate t;
        t.id = id(g);
        t.name = g.name("name", t.id);
        t.gpuId = g.string("gpu", {}, true, TextKind::Id);
        if (!mCatalog.gpu(t.gpuId))
            mOut.push_back(Issue::error(g.pathOf("gpu"), "'" + t.gpuId + "' is not a GPU in the catalog"));
        t.sources = sources(g);
        t.gpuCount = countFigure(g, t.sources, "gpu_count", 1, 64);
        t.scaleUpKind = oneOf(g, "scale_up_kind", kNodeScaleUpKinds);
        t.scaleUpDomainGpus = g.integer("scale_up_domain_gpus", 1);
        inRange(mOut, g.pathOf("scale_up_domain_gpus"), t.scaleUpDomainGpus, 1, t.gpuCount < 1 ? 1 : t.gpuCount,
                "at most gpu_count");
        t.nicCount = countFigure(g, t.sources, "nic_count", 0, 64);
        t.nicSpeedGbps = figure(g, t.sources, "nic_speed_gbps", 0, 3200);
        t.gpudirectRdma = g.boolean("gpudirect_rdma", false);
        t.pcieGen = countFigure(g, t.sources, "pcie_gen", 1, 8);
        return t;
    }

    SwitchTemplate switchTemplate(JsonFields& g)
    {
        SwitchTemplate t;
        t.id = id(g);
        t.name = g.name("name", t.id);
        t.fabric = g.string("fabric", {}, true);
        if (t.fabric != "infiniband" && t.fabric != "ethernet")
            mOut.push_back(Issue::error(g.pathOf("fabric"), "'" + t.fabric + "' must be infiniband or ethernet"));
        t.sources = sources(g);
        t.ports = countFigure(g, t.sources, "ports", 1, 4096);
        t.portSpeedGbps = figure(g, t.sources, "port_speed_gbps", 1, 3200);
        t.latencyUs = figure(g, t.sources, "latency_us", 0, 1000);
        return t;
    }

    /// A rack-scale NVLink system: its compute trays' node template (read before it, in the
    /// same or an earlier file), how many, and the domain they form, which must be
    /// trays × the tray's GPUs.
    RackTemplate rackTemplate(JsonFields& g)
    {
        RackTemplate t;
        t.id = id(g);
        t.name = g.name("name", t.id);
        t.trayTemplate = g.string("tray_template", {}, true, TextKind::Id);
        const NodeTemplate* tray = mCatalog.nodeTemplate(t.trayTemplate);
        if (!tray)
            mOut.push_back(Issue::error(g.pathOf("tray_template"),
                                        "'" + t.trayTemplate + "' is not a node template in the catalog"));
        t.sources = sources(g);
        t.trays = countFigure(g, t.sources, "trays", 1, 256);
        t.switchTrays = countFigure(g, t.sources, "switch_trays", 0, 256);
        t.domainGpus = countFigure(g, t.sources, "domain_gpus", 1, 4096);
        if (tray && t.trays > 0 && t.domainGpus != t.trays * tray->gpuCount)
            mOut.push_back(Issue::error(g.pathOf("domain_gpus"),
                                        std::to_string(t.domainGpus) + " must be trays × the tray's GPUs (" +
                                            std::to_string(t.trays) + " × " + std::to_string(tray->gpuCount) + ")"));
        return t;
    }

    PricePreset pricePreset(JsonFields& g)
    {
        PricePreset p;
        p.id = id(g);
        p.name = g.name("name", p.id);
        p.asOf = g.string("as_of", {}, true);
        p.source = g.string("source", {}, true);
        if (p.source.empty())
            mOut.push_back(Issue::warning(g.pathOf("source"), "the price preset has no source"));
        if (auto prices = g.object("gpu_hour_usd", true)) {
            JsonFields f(*prices, g.pathOf("gpu_hour_usd"), mOut);
            for (const QString& k : prices->keys()) {
                const QByteArray key = k.toUtf8();
                const double v = f.number(key.constData(), 0.0);
                inRange(mOut, f.pathOf(key.constData()), v, 0.0, 10000.0);
                if (!mCatalog.gpu(k.toStdString()))
                    mOut.push_back(Issue::error(f.pathOf(key.constData()), "is not a GPU in the catalog"));
                p.gpuHourUsd[k.toStdString()] = v;
            }
        }
        return p;
    }

    ModelPreset modelPreset(JsonFields& g)
    {
        ModelPreset m;
        m.id = id(g);
        m.name = g.name("name", m.id);
        m.source = g.string("source", {}, true);
        if (m.source.empty())
            mOut.push_back(Issue::warning(g.pathOf("source"), "the model preset has no source"));
        m.statedParamsB = g.number("stated_params_b", 0.0, true);
        inRange(mOut, g.pathOf("stated_params_b"), m.statedParamsB, 0.001, 1e5);
        if (auto a = g.object("architecture", true)) {
            const std::string p = g.pathOf("architecture");
            JsonFields f(*a, p, mOut);
            m.arch = readArchitecture(f);
            f.finish();
            validateArchitecture(m.arch, p, mOut);
        }
        return m;
    }

    /// A software-stack profile (docs/catalog.md#software-stacks): every figure optional (the
    /// member default), in range, and cited when given.
    SoftwareStack softwareStack(JsonFields& g)
    {
        SoftwareStack st;
        st.id = id(g);
        st.name = g.name("name", st.id);
        st.kind = oneOf(g, "kind", {"training", "serving"});
        st.sources = sources(g);
        auto share = [&](const char* key, double& into, double lo, double hi, const char* what) {
            if (!g.has(key))
                return;
            into = g.number(key, into);
            inRange(mOut, g.pathOf(key), into, lo, hi, what);
            warnUncited(g, st.sources, key);
        };
        share("step_overhead_s", st.stepOverheadS, 0.0, 60.0, "seconds per optimizer step");
        share("dp_grad_overlap", st.dpGradOverlap, 0.0, 1.0, "a share of the reduction");
        share("tp_comm_overlap", st.tpCommOverlap, 0.0, 1.0, "a share of the collectives");
        share("fsdp_overlap", st.fsdpOverlap, 0.0, 1.0, "a share of the collectives");
        share("fp8_recipe_overhead", st.fp8RecipeOverhead, 0.0, 1.0, "a share of the FP8 GEMM time");
        share("attention_efficiency", st.attentionEfficiency, 0.05, 1.5, "a share of the catalog's flash_attention");
        if (auto byArch = g.object("attention_efficiency_by_architecture")) {
            JsonFields f(*byArch, g.pathOf("attention_efficiency_by_architecture"), mOut);
            for (const QString& k : byArch->keys()) {
                const QByteArray key = k.toUtf8();
                const double v = f.number(key.constData(), st.attentionEfficiency, true);
                inRange(mOut, f.pathOf(key.constData()), v, 0.05, 1.5,
                        "a share of that architecture's catalog flash_attention");
                st.attentionEfficiencyByArchitecture[k.toStdString()] = v;
            }
            warnUncited(g, st.sources, "attention_efficiency_by_architecture");
        }
        share("loss_bytes_per_logit", st.lossBytesPerLogit, 0.0, 1000.0, "bytes of HBM traffic per logit");
        share("moe_permute_passes", st.moePermutePasses, 0.0, 16.0, "passes over the routed tokens per MoE layer");
        share("moe_sort_passes", st.moeSortPasses, 0.0, 16.0, "passes over the routed tokens per MoE layer");
        if (auto hops = g.object("ring_hop_latency_us")) {
            JsonFields f(*hops, g.pathOf("ring_hop_latency_us"), mOut);
            const std::pair<const char*, double*> links[] = {{"nvlink", &st.ringHopLatencyNvlinkUs},
                                                             {"pcie", &st.ringHopLatencyPcieUs},
                                                             {"network", &st.ringHopLatencyNetworkUs}};
            for (const auto& [key, into] : links) {
                *into = f.number(key, *into);
                inRange(mOut, f.pathOf(key), *into, 0.0, 1000.0, "microseconds per ring step");
            }
            f.finish();
            warnUncited(g, st.sources, "ring_hop_latency_us");
        }
        if (g.has("per_layer_collectives")) {
            st.perLayerCollectives = g.boolean("per_layer_collectives", st.perLayerCollectives);
            warnUncited(g, st.sources, "per_layer_collectives");
        }
        share("tree_allreduce_bandwidth", st.treeAllReduceBandwidth, 0.0, 1.5,
              "the tree's bus bandwidth against the ring's (0: ring only)");
        share("kv_cache_fraction", st.kvCacheFraction, 0.05, 1.0, "a share of the GPU's memory");
        share("decode_step_overhead_s", st.decodeStepOverheadS, 0.0, 1.0, "seconds per engine iteration");
        share("allreduce_step_latency_us", st.allReduceStepLatencyUs, 0.0, 1000.0,
              "microseconds per ring step of an all-reduce");
        share("gemm_roofline_exponent", st.gemmRooflineExponent, 0.0, 64.0,
              "an exponent (0: the larger of compute and memory time)");
        if (g.has("fsdp_prefetch_layers")) {
            const std::size_t before = mOut.size();
            st.fsdpPrefetchLayers = g.integer("fsdp_prefetch_layers", 1);
            if (mOut.size() == before)
                inRange(mOut, g.pathOf("fsdp_prefetch_layers"), st.fsdpPrefetchLayers, 0, 1000);
            warnUncited(g, st.sources, "fsdp_prefetch_layers");
        }
        if (g.has("kv_cache_of")) {
            const std::string basis = oneOf(g, "kv_cache_of", {"free", "total"});
            st.kvOfFreeMemory = basis == "free";
        }
        return st;
    }

    Catalog& mCatalog;
    bool mOverride;
    Issues& mOut;
};

void readFile(const QString& path, const QString& label, Catalog& catalog, bool overrideExisting, Issues& out)
{
    const std::size_t before = out.size();
    if (auto bytes = readFileBytes(path, out))
        readCatalogFragment(*bytes, catalog, overrideExisting, out);
    inFile(out, label.toStdString(), before);
}

} // namespace

void readCatalogFragment(const QByteArray& json, Catalog& catalog, bool overrideExisting, Issues& out)
{
    auto root = parseJsonObject(json, out);
    if (!root)
        return;
    // Read into a copy: a fragment with errors must leave the catalog as it was.
    Catalog copy = catalog;
    const std::size_t before = out.size();
    FragmentReader(copy, overrideExisting, out).read(*root);
    const bool failed = std::any_of(out.begin() + static_cast<std::ptrdiff_t>(before), out.end(),
                                    [](const Issue& i) { return i.isError(); });
    if (!failed)
        catalog = std::move(copy);
}

Result<Catalog> loadCatalog(const QString& dataDir, const QString& userCatalog)
{
    const QDir root(dataDir);
    if (!root.exists("catalog"))
        return failure(dataDir.toStdString(), "no catalog/ folder: is this gpuplan's data folder?");
    Catalog catalog;
    Issues issues;
    // gpus.json first: node templates and prices refer to GPUs.
    for (const char* sub : {"catalog", "models"}) {
        QDir dir(root.absoluteFilePath(sub));
        QStringList files = dir.entryList({"*.json"}, QDir::Files, QDir::Name);
        std::stable_partition(files.begin(), files.end(), [](const QString& f) { return f == "gpus.json"; });
        for (const QString& f : files)
            readFile(dir.absoluteFilePath(f), QString(sub) + "/" + f, catalog, false, issues);
    }
    // The model's held-out error per class of runs (validation/error-bands.json), where it is shipped.
    if (const QString bands = root.absoluteFilePath("validation/error-bands.json"); QFileInfo::exists(bands)) {
        const std::size_t before = issues.size();
        if (auto bytes = readFileBytes(bands, issues))
            catalog.errorBands = readErrorBands(*bytes, issues);
        inFile(issues, "validation/error-bands.json", before);
    }
    if (!userCatalog.isEmpty() && QFileInfo::exists(userCatalog))
        readFile(userCatalog, userCatalog, catalog, true, issues);
    if (hasErrors(issues))
        return Failure{std::move(issues)};
    return Result<Catalog>::success(std::move(catalog), std::move(issues));
}

} // namespace gp::io
