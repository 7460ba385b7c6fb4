// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#include "scenarioreader.h"

#include "calibrationprofileio.h"
#include "jsonfields.h"
#include "jsonfile.h"
#include "model/checks.h"
#include "model/limits.h"
#include "model/validation.h"
#include "scenariomigrations.h"

#include <cmath>

namespace gp::io {

using checks::field;
using checks::idx;

namespace {

/// Walks the JSON tree into a Scenario, collecting type errors; semantic rules come later.
class Reader
{
public:
    Reader(const Catalog& catalog, Issues& out) : mCatalog(catalog), mOut(out) {}

    Scenario read(const QJsonObject& root)
    {
        Scenario s;
        JsonFields f(root, "", mOut);
        f.integer("format_version", 0, true);
        s.name = f.string("name", {}, true, TextKind::Name);
        s.description = f.string("description");
        if (auto topo = f.object("topology", true))
            s.topology = topology(*topo, "topology");
        if (auto tenants = f.array("tenants"))
            forEach(*tenants, "tenants",
                    [&](const QJsonObject& o, const std::string& p) { s.tenants.push_back(tenant(o, p)); });
        if (auto pricing = f.object("pricing"))
            s.pricing = readPricing(*pricing, "pricing");
        s.placementPolicy = f.enumValue("placement_policy", PlacementPolicy::TopologyAware);
        if (auto a = f.object("assumptions"))
            s.assumptions = numberMap(*a, "assumptions");
        if (auto cal = f.object("calibration")) {
            auto profile = readCalibrationProfile(*cal, "calibration");
            mOut.insert(mOut.end(), profile.issues.begin(), profile.issues.end());
            if (profile)
                s.calibration = std::move(*profile);
        }
        f.finish();
        return s;
    }

    SharingConfig sharing(JsonFields& f);

private:
    /// Whether `arr` is within `limit` elements; reports it at `path` when not.
    bool fewEnough(const QJsonArray& arr, const std::string& path, std::size_t limit, const char* what)
    {
        if (static_cast<std::size_t>(arr.size()) <= limit)
            return true;
        mOut.push_back(Issue::error(path, std::to_string(arr.size()) + " " + what + "; a scenario has at most " +
                                              std::to_string(limit)));
        return false;
    }

    template <typename Fn> void forEach(const QJsonArray& arr, const std::string& path, Fn fn)
    {
        for (qsizetype i = 0; i < arr.size(); ++i) {
            const std::string p = idx(path, static_cast<std::size_t>(i));
            if (auto o = asObject(arr.at(i), p, mOut))
                fn(*o, p);
        }
    }

    std::map<std::string, double> numberMap(const QJsonObject& o, const std::string& path)
    {
        std::map<std::string, double> out;
        JsonFields f(o, path, mOut);
        for (const QString& key : o.keys()) {
            const QByteArray k = key.toUtf8();
            out[key.toStdString()] = f.number(k.constData(), 0.0);
        }
        return out;
    }

    Point position(JsonFields& f)
    {
        Point pt;
        if (auto o = f.object("position")) {
            JsonFields g(*o, f.pathOf("position"), mOut);
            pt.x = g.number("x", 0.0);
            pt.y = g.number("y", 0.0);
            g.finish();
        }
        return pt;
    }

    SharingConfig sharingImpl(JsonFields& f)
    {
        SharingConfig c;
        c.mode = f.enumValue("mode", SharingMode::Exclusive, true);
        auto unexpected = [&](const char* key, const char* mode) {
            if (f.has(key)) {
                f.skip(key);
                mOut.push_back(Issue::error(f.pathOf(key), std::string("only allowed when mode is ") + mode));
            }
        };
        if (c.mode == SharingMode::Mig) {
            if (auto arr = f.array("mig", true))
                forEach(*arr, f.pathOf("mig"), [&](const QJsonObject& o, const std::string& p) {
                    JsonFields m(o, p, mOut);
                    MigInstance inst;
                    inst.profile = m.string("profile", {}, true);
                    inst.start = m.integer("start", 0, true);
                    m.finish();
                    c.migInstances.push_back(inst);
                });
        } else
            unexpected("mig", "mig");
        if (c.mode == SharingMode::Vgpu) {
            if (auto o = f.object("vgpu", true)) {
                JsonFields v(*o, f.pathOf("vgpu"), mOut);
                c.vgpuProfile = v.string("profile", {}, true);
                c.vgpuScheduler = v.enumValue("scheduler", VgpuScheduler::BestEffort);
                v.finish();
            }
        } else
            unexpected("vgpu", "vgpu");
        if (c.mode == SharingMode::TimeSlicing)
            c.replicas = f.integer("replicas", 1, true);
        else
            unexpected("replicas", "time_slicing");
        if (c.mode == SharingMode::Mps) {
            if (auto o = f.object("mps", true)) {
                JsonFields m(*o, f.pathOf("mps"), mOut);
                c.mpsActiveThreadPct = m.integer("active_thread_pct", 100, true);
                c.mpsMemoryLimitGiB = m.optionalNumber("memory_limit_gib");
                m.finish();
            }
        } else
            unexpected("mps", "mps");
        return c;
    }

    Node node(const QJsonObject& o, const std::string& p)
    {
        JsonFields f(o, p, mOut);
        Node n;
        n.id = f.id("id");
        n.name = f.name("name", n.id);
        n.templateId = f.string("template", {}, false, TextKind::Id);
        // A template fills what the node does not say itself.
        const NodeTemplate* t = mCatalog.nodeTemplate(n.templateId);
        const bool needGpu = !t;
        n.gpuId = f.string("gpu", t ? t->gpuId : std::string(), needGpu, TextKind::Id);
        n.gpuCount = f.integer("gpu_count", t ? t->gpuCount : 0, needGpu);
        n.nics = t ? NicConfig{t->nicCount, t->nicSpeedGbps, t->gpudirectRdma} : NicConfig{};
        if (auto nics = f.object("nics")) {
            JsonFields g(*nics, f.pathOf("nics"), mOut);
            n.nics.count = g.integer("count", n.nics.count);
            n.nics.speedGbps = g.number("speed_gbps", n.nics.speedGbps);
            n.nics.gpudirectRdma = g.boolean("gpudirect_rdma", n.nics.gpudirectRdma);
            g.finish();
        }
        n.group = f.string("group", {}, false, TextKind::Id);
        n.position = position(f);
        if (auto sh = f.object("sharing")) {
            JsonFields g(*sh, f.pathOf("sharing"), mOut);
            n.sharing = sharing(g);
            g.finish();
        }
        if (auto arr = f.array("gpu_sharing"))
            forEach(*arr, f.pathOf("gpu_sharing"), [&](const QJsonObject& so, const std::string& sp) {
                JsonFields g(so, sp, mOut);
                const int gpu = g.integer("gpu", -1, true);
                SharingConfig cfg = sharing(g);
                g.finish();
                if (n.gpuSharing.count(gpu))
                    mOut.push_back(Issue::error(field(sp, "gpu"), "GPU " + std::to_string(gpu) + " has two overrides"));
                n.gpuSharing[gpu] = cfg;
            });
        f.finish();
        return n;
    }

    Switch switchItem(const QJsonObject& o, const std::string& p)
    {
        JsonFields f(o, p, mOut);
        Switch s;
        s.id = f.id("id");
        s.name = f.name("name", s.id);
        s.templateId = f.string("template", {}, false, TextKind::Id);
        const SwitchTemplate* t = mCatalog.switchTemplate(s.templateId);
        s.tier = f.string("tier", "leaf", false, TextKind::Name);
        s.ports = f.integer("ports", t ? t->ports : 0, !t);
        s.portSpeedGbps = f.number("port_speed_gbps", t ? t->portSpeedGbps : 0.0, !t);
        s.group = f.string("group", {}, false, TextKind::Id);
        s.position = position(f);
        f.finish();
        return s;
    }

    Topology topology(const QJsonObject& o, const std::string& p)
    {
        JsonFields f(o, p, mOut);
        Topology t;
        if (auto arr = f.array("groups"))
            forEach(*arr, f.pathOf("groups"), [&](const QJsonObject& go, const std::string& gp) {
                JsonFields g(go, gp, mOut);
                Group grp;
                grp.id = g.id("id");
                grp.name = g.name("name", grp.id);
                grp.kind = g.string("kind", "rack", false, TextKind::Name);
                grp.parent = g.string("parent", {}, false, TextKind::Id);
                grp.rackTemplate = g.string("template", {}, false, TextKind::Id);
                g.finish();
                t.groups.push_back(grp);
            });
        if (auto arr = f.array("nodes");
            arr && fewEnough(*arr, f.pathOf("nodes"), limits::kMaxScenarioNodes, "nodes")) {
            t.nodes.reserve(static_cast<std::size_t>(arr->size()));
            forEach(*arr, f.pathOf("nodes"),
                    [&](const QJsonObject& no, const std::string& np) { t.nodes.push_back(node(no, np)); });
        }
        if (auto arr = f.array("switches"))
            forEach(*arr, f.pathOf("switches"),
                    [&](const QJsonObject& so, const std::string& sp) { t.switches.push_back(switchItem(so, sp)); });
        if (auto arr = f.array("links"))
            forEach(*arr, f.pathOf("links"), [&](const QJsonObject& lo, const std::string& lp) {
                JsonFields g(lo, lp, mOut);
                Link l;
                l.id = g.id("id");
                l.from = g.id("from");
                l.to = g.id("to");
                l.bandwidthGbps = g.number("bandwidth_gbps", 0.0, true);
                l.latencyUs = g.number("latency_us", 0.0);
                g.finish();
                t.links.push_back(l);
            });
        f.finish();
        return t;
    }

    Tenant tenant(const QJsonObject& o, const std::string& p);
    Job job(const QJsonObject& o, const std::string& p);
    ImportedFrom imported(const QJsonObject& o, const std::string& p);

    Pricing readPricing(const QJsonObject& o, const std::string& p)
    {
        JsonFields f(o, p, mOut);
        Pricing pr;
        pr.preset = f.string("preset");
        if (auto m = f.object("gpu_hour_usd"))
            pr.gpuHourUsd = numberMap(*m, f.pathOf("gpu_hour_usd"));
        if (auto o = f.object("ownership")) {
            JsonFields g(*o, f.pathOf("ownership"), mOut);
            Ownership own;
            own.capexPerGpuUsd = g.number("capex_per_gpu_usd", 0.0, true);
            own.amortizationYears = g.number("amortization_years", own.amortizationYears);
            own.pue = g.number("pue", own.pue);
            own.usdPerKwh = g.number("usd_per_kwh", own.usdPerKwh);
            g.finish();
            pr.ownership = own;
        }
        f.finish();
        return pr;
    }

    const Catalog& mCatalog;
    Issues& mOut;
    std::size_t mJobs = 0; ///< jobs of the tenants read so far (limits::kMaxScenarioJobs)
};

/// How a GPU is shared, from the fields of a "sharing" object.
SharingConfig Reader::sharing(JsonFields& f) { return sharingImpl(f); }

Tenant Reader::tenant(const QJsonObject& o, const std::string& p)
{
    JsonFields f(o, p, mOut);
    Tenant t;
    t.id = f.id("id");
    t.name = f.name("name", t.id);
    t.color = f.string("color", t.color, false, TextKind::Name);
    t.priority = f.integer("priority", 0);
    t.isolation = f.enumValue("isolation", Isolation::None);
    t.busyFraction = f.optionalNumber("busy_fraction");
    if (auto sla = f.object("sla")) {
        JsonFields g(*sla, f.pathOf("sla"), mOut);
        t.sla.maxPenaltyPct = g.number("max_penalty_pct", t.sla.maxPenaltyPct);
        t.sla.deadlineDays = g.optionalNumber("deadline_days");
        t.sla.ttftP99Ms = g.optionalNumber("ttft_p99_ms");
        t.sla.itlP99Ms = g.optionalNumber("itl_p99_ms");
        g.finish();
    }
    if (auto jobs = f.array("jobs")) {
        mJobs += static_cast<std::size_t>(jobs->size());
        if (mJobs > limits::kMaxScenarioJobs)
            mOut.push_back(Issue::error(f.pathOf("jobs"), "the scenario's tenants have " + std::to_string(mJobs) +
                                                              " jobs up to here; a scenario has at most " +
                                                              std::to_string(limits::kMaxScenarioJobs)));
        else
            forEach(*jobs, f.pathOf("jobs"),
                    [&](const QJsonObject& jo, const std::string& jp) { t.jobs.push_back(job(jo, jp)); });
    }
    if (auto a = f.object("arrivals")) {
        JsonFields g(*a, f.pathOf("arrivals"), mOut);
        ArrivalProcess p;
        p.templateJob = g.id("template");
        p.jobsPerDay = g.number("jobs_per_day", p.jobsPerDay, true);
        p.durationMedianH = g.number("duration_median_h", p.durationMedianH);
        p.durationSigma = g.number("duration_sigma", p.durationSigma);
        g.finish();
        t.arrivals = p;
    }
    f.finish();
    return t;
}

ImportedFrom Reader::imported(const QJsonObject& o, const std::string& p)
{
    JsonFields f(o, p, mOut);
    ImportedFrom from;
    from.source = f.string("source", {}, true, TextKind::Id);
    from.workload = f.string("workload", {}, false, TextKind::Name);
    from.scope = f.string("scope", {}, false, TextKind::Name);
    const auto strings = [&](const char* key, TextKind kind) {
        std::vector<std::string> list;
        if (auto arr = f.array(key)) {
            const std::string at = f.pathOf(key);
            if (!fewEnough(*arr, at, limits::kMaxScenarioJobs, "entries"))
                return list;
            for (qsizetype i = 0; i < arr->size(); ++i) {
                const std::string where = idx(at, static_cast<std::size_t>(i));
                if (!arr->at(i).isString()) {
                    mOut.push_back(Issue::error(where, describe(arr->at(i)) + " must be a string"));
                    continue;
                }
                std::string v = arr->at(i).toString().toStdString();
                if (const std::string why = textProblem(v, kind); !why.empty())
                    mOut.push_back(Issue::error(where, why));
                else
                    list.push_back(std::move(v));
            }
        }
        return list;
    };
    from.members = strings("members", TextKind::Name);
    from.nodes = strings("nodes", TextKind::Id);
    from.unknown = strings("unknown", TextKind::Id);
    f.finish();
    return from;
}

Job Reader::job(const QJsonObject& o, const std::string& p)
{
    JsonFields f(o, p, mOut);
    Job j;
    j.id = f.id("id");
    j.name = f.name("name", j.id);
    j.kind = f.enumValue("kind", JobKind::Pretraining, true);
    if (auto m = f.object("model", true)) {
        JsonFields g(*m, f.pathOf("model"), mOut);
        j.model.preset = g.string("preset", {}, false, TextKind::Id);
        if (j.model.preset.empty()) {
            j.model.custom = readArchitecture(g);
        }
        g.finish();
    }
    j.precision = f.enumValue("precision", Precision::Bf16);
    j.optimizer = f.enumValue("optimizer", Optimizer::AdamW);
    j.mainGradsFp32 = f.boolean("main_grads_fp32", false);
    if (f.has("flash_attention"))
        j.flashAttention = f.boolean("flash_attention", false);
    if (f.has("software_stack")) // format 2 (issue 37); the catalog check is validateJob's
        j.softwareStack = f.string("software_stack", {}, false, TextKind::Id);
    if (auto par = f.object("parallelism")) {
        JsonFields g(*par, f.pathOf("parallelism"), mOut);
        j.parallelism.tp = g.integer("tp", 1);
        j.parallelism.pp = g.integer("pp", 1);
        j.parallelism.dp = g.integer("dp", 1);
        j.parallelism.ep = g.integer("ep", 1);
        j.parallelism.zeroStage = g.integer("zero_stage", 0);
        j.parallelism.fsdp = g.boolean("fsdp", false);
        j.parallelism.sequenceParallel = g.boolean("sequence_parallel", false);
        j.parallelism.recompute = g.enumValue("recompute", Recompute::None);
        j.parallelism.virtualStages = g.integer("virtual_stages", 1);
        j.parallelism.cp = g.integer("cp", 1);
        if (g.has("etp")) { // format 5: MoE parallel folding; absent = the experts follow tp
            j.parallelism.etp = g.integer("etp", 1);
            if (j.parallelism.etp == 0) // 0 is the in-memory "not set"; a file says so by leaving it out
                mOut.push_back(Issue::error(g.pathOf("etp"), "0 must be at least 1 (leave etp out for experts split "
                                                             "over tp)"));
        }
        if (auto layers = g.array("stage_layers")) {
            const std::string at = g.pathOf("stage_layers");
            for (qsizetype i = 0; i < layers->size(); ++i) {
                const QJsonValue v = layers->at(i);
                const std::string where = idx(at, static_cast<std::size_t>(i));
                if (!v.isDouble() || std::floor(v.toDouble()) != v.toDouble() || std::abs(v.toDouble()) > 1e6) {
                    mOut.push_back(Issue::error(where, describe(v) + " must be a whole number of layers"));
                    continue;
                }
                j.parallelism.stageLayers.push_back(static_cast<int>(v.toDouble()));
            }
        }
        j.parallelism.recomputeLayers = g.integer("recompute_layers", 0);  // format 5; 0: every block
        j.parallelism.moeA2aOverlap = g.boolean("moe_a2a_overlap", false); // format 6; absent: not overlapped
        if (auto modules = g.array("recompute_modules")) {                 // format 5; which ones validateJob checks
            const std::string at = g.pathOf("recompute_modules");
            for (qsizetype i = 0; i < modules->size(); ++i) {
                const QJsonValue v = modules->at(i);
                if (!v.isString()) {
                    mOut.push_back(Issue::error(idx(at, static_cast<std::size_t>(i)),
                                                describe(v) + " must be a module name (a string)"));
                    continue;
                }
                j.parallelism.recomputeModules.push_back(v.toString().toStdString());
            }
        }
        g.finish();
    }
    if (auto b = f.object("batch")) {
        JsonFields g(*b, f.pathOf("batch"), mOut);
        j.batch.micro = g.integer("micro", 1);
        j.batch.global = g.integer("global", j.batch.micro * j.parallelism.dp);
        g.finish();
    }
    if (auto t = f.object("training")) {
        JsonFields g(*t, f.pathOf("training"), mOut);
        TrainingSpec ts;
        ts.tokens = g.number("tokens", 0.0, true);
        ts.checkpointIntervalMin = g.number("checkpoint_interval_min", ts.checkpointIntervalMin);
        g.finish();
        j.training = ts;
    }
    if (auto i = f.object("inference")) {
        JsonFields g(*i, f.pathOf("inference"), mOut);
        InferenceSpec is;
        is.load = g.enumValue("load", ServingLoad::Open);
        is.requestsPerS = g.number("requests_per_s", 0.0);
        is.outputTokens = g.integer("output_tokens", 0, true);
        is.inputTokens = g.integer("input_tokens", 0);
        is.contextTokens = g.integer("context_tokens", 0);
        is.concurrency = g.integer("concurrency", 1);
        // Files before input_tokens give the context only (prompt = context - output); files
        // with the prompt may leave the context at prompt + output.
        if (is.contextTokens == 0 && is.inputTokens > 0)
            is.contextTokens = is.inputTokens + std::max(is.outputTokens, 0);
        else if (is.inputTokens == 0 && is.contextTokens > 0)
            is.inputTokens = std::max(is.contextTokens - is.outputTokens, 0);
        if (is.contextTokens == 0 && is.inputTokens == 0)
            mOut.push_back(Issue::error(g.pathOf("input_tokens"),
                                        "missing: a serving job needs input_tokens (or context_tokens)"));
        g.finish();
        j.inference = is;
    }
    if (auto l = f.object("lora")) {
        JsonFields g(*l, f.pathOf("lora"), mOut);
        LoraSpec ls;
        ls.rank = g.integer("rank", ls.rank);
        ls.alpha = g.number("alpha", ls.alpha);
        g.finish();
        j.lora = ls;
    }
    if (auto s = f.object("schedule")) {
        JsonFields g(*s, f.pathOf("schedule"), mOut);
        j.schedule.arrivalH = g.number("arrival_h", 0.0);
        j.schedule.durationH = g.number("duration_h", 0.0);
        g.finish();
    }
    if (auto imp = f.object("imported")) // format 3: a job made by a cluster import
        j.imported = imported(*imp, f.pathOf("imported"));
    if (auto pin = f.object("pin")) {
        JsonFields g(*pin, f.pathOf("pin"), mOut);
        Pin pn;
        pn.node = g.id("node");
        pn.gpu = g.optionalInteger("gpu");
        pn.migInstance = g.optionalInteger("mig_instance");
        g.finish();
        j.pin = pn;
    }
    f.finish();
    return j;
}

} // namespace

ScenarioReadResult readScenario(const QByteArray& json, const Catalog& catalog)
{
    ScenarioReadResult result;
    auto root = parseJsonObject(json, result.issues);
    if (!root)
        return result;
    return readScenarioJson(*root, catalog);
}

ScenarioReadResult readScenarioJson(const QJsonObject& root, const Catalog& catalog)
{
    ScenarioReadResult result;
    // The version decides how to read the rest, so it is checked before anything else.
    const QJsonValue version = root.value(QLatin1String("format_version"));
    if (!version.isDouble()) {
        result.issues.push_back(
            Issue::error("format_version", version.isUndefined() ? "is missing: is this a gpuplan scenario?"
                                                                 : "expected an integer, found " + describe(version)));
        return result;
    }
    const double v = version.toDouble();
    if (v > Scenario::kFormatVersion) {
        result.issues.push_back(Issue::error("format_version", checks::num(v) + " is newer than this gpuplan reads (" +
                                                                   std::to_string(Scenario::kFormatVersion) +
                                                                   "): it needs a newer gpuplan"));
        return result;
    }
    if (v < kOldestScenarioFormat || v != static_cast<int>(v)) {
        result.issues.push_back(Issue::error("format_version", checks::num(v) + " is not a known format version"));
        return result;
    }
    auto migrated = migrateScenarioJson(root, static_cast<int>(v));
    if (!migrated) {
        result.issues = std::move(migrated.issues);
        return result;
    }
    Scenario s = Reader(catalog, result.issues).read(*migrated);
    if (hasErrors(result.issues))
        return result;
    for (auto& i : validateScenario(s, catalog))
        result.issues.push_back(std::move(i));
    if (!hasErrors(result.issues))
        result.value = std::move(s);
    return result;
}

Result<SharingConfig> readSharingJson(const QJsonObject& o, const std::string& path, const Catalog& catalog)
{
    Issues issues;
    Reader reader(catalog, issues);
    JsonFields f(o, path, issues);
    SharingConfig c = reader.sharing(f);
    f.finish();
    if (hasErrors(issues))
        return Result<SharingConfig>::failure(std::move(issues));
    return Result<SharingConfig>::success(c, std::move(issues));
}

ScenarioReadResult readScenarioFile(const QString& path, const Catalog& catalog)
{
    ScenarioReadResult result;
    auto bytes = readFileBytes(path, result.issues);
    if (!bytes)
        return result;
    return readScenario(*bytes, catalog);
}

} // namespace gp::io
