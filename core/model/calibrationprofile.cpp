// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#include "calibrationprofile.h"

#include "assumptions.h"
#include "calibratedplan.h"
#include "catalog.h"
#include "scenario.h"

#include <algorithm>
#include <cmath>
#include <map>

namespace gp {

namespace {

bool listed(const std::vector<std::string>& names, const std::string& name)
{
    return std::find(names.begin(), names.end(), name) != names.end();
}

/// The sharing keys a GPU's catalog "sharing" object calibrates (calc/interference.cpp reads them
/// there first, the scenario's assumption only where the GPU has none).
bool isSharingName(const std::string& name)
{
    return name == "time_slice_switch_us" || name == "time_slice_cache_refill_us" || name == "mps_memory_contention" ||
           name == "virtualization_io_overhead_pct";
}

GpuSpec* mutableGpu(Catalog& catalog, const std::string& id)
{
    for (GpuSpec& g : catalog.gpus)
        if (g.id == id)
            return &g;
    return nullptr;
}

SoftwareStack* mutableStack(Catalog& catalog, const std::string& id)
{
    for (SoftwareStack& s : catalog.softwareStacks)
        if (s.id == id)
            return &s;
    return nullptr;
}

double* stackField(SoftwareStack& s, const std::string& name)
{
    if (name == "step_overhead_s")
        return &s.stepOverheadS;
    if (name == "decode_step_overhead_s")
        return &s.decodeStepOverheadS;
    return nullptr;
}

} // namespace

std::string CalibrationKey::toString() const
{
    switch (scope) {
    case CalibrationScope::Gpu: return "gpu." + target + "." + name;
    case CalibrationScope::Stack: return "stack." + target + "." + name;
    case CalibrationScope::Tenant: return "tenant." + target + "." + name;
    case CalibrationScope::Assumption: return "assumption." + name;
    }
    return name;
}

std::optional<CalibrationKey> CalibrationKey::parse(const std::string& key)
{
    const auto firstDot = key.find('.');
    if (firstDot == std::string::npos)
        return std::nullopt;
    const std::string scope = key.substr(0, firstDot);
    const std::string rest = key.substr(firstDot + 1);
    if (scope == "assumption") {
        if (!listed(calibratedAssumptionNames(), rest))
            return std::nullopt;
        return CalibrationKey{CalibrationScope::Assumption, "", rest};
    }
    // Ids may hold dots in a user catalog; the name never does: split at the last one.
    const auto lastDot = rest.rfind('.');
    if (lastDot == std::string::npos || lastDot == 0)
        return std::nullopt;
    CalibrationKey k{CalibrationScope::Gpu, rest.substr(0, lastDot), rest.substr(lastDot + 1)};
    if (scope == "gpu" && listed(calibratedGpuNames(), k.name))
        return k;
    if (scope == "stack" && listed(calibratedStackNames(), k.name)) {
        k.scope = CalibrationScope::Stack;
        return k;
    }
    if (scope == "tenant" && listed(calibratedTenantNames(), k.name)) {
        k.scope = CalibrationScope::Tenant;
        return k;
    }
    return std::nullopt;
}

const std::vector<std::string>& calibratedGpuNames()
{
    static const std::vector<std::string> names = {
        "gemm_efficiency_scale",      "memory_bound",          "scale_up_collective",           "time_slice_switch_us",
        "time_slice_cache_refill_us", "mps_memory_contention", "virtualization_io_overhead_pct"};
    return names;
}

const std::vector<std::string>& calibratedStackNames()
{
    static const std::vector<std::string> names = {"step_overhead_s", "decode_step_overhead_s"};
    return names;
}

const std::vector<std::string>& calibratedTenantNames()
{
    static const std::vector<std::string> names = {"busy_fraction"};
    return names;
}

const std::vector<std::string>& calibratedAssumptionNames()
{
    static const std::vector<std::string> names = {"runtime_overhead_gib", "link_efficiency", "cotenant_busy_fraction"};
    return names;
}

Status applyCalibratedValue(const std::string& key, double value, Scenario& scenario, Catalog& catalog)
{
    const auto k = CalibrationKey::parse(key);
    if (!k)
        return failure(key, "not a calibrated parameter (docs/calibration.md#parameters)");
    if (!std::isfinite(value))
        return failure(key, "not a finite number");
    switch (k->scope) {
    case CalibrationScope::Assumption: scenario.assumptions[k->name] = value; return done();
    case CalibrationScope::Gpu: {
        GpuSpec* gpu = mutableGpu(catalog, k->target);
        if (!gpu)
            return failure(key, "GPU model '" + k->target + "' is not in the catalog");
        if (k->name == "gemm_efficiency_scale") {
            // A scale of the whole curve: its shape over GEMM sizes is the catalog's (cited), its
            // level is the cluster's. Applied to the uncalibrated curve only once.
            for (EfficiencyPoint& p : gpu->efficiency.gemm)
                p.efficiency = std::min(p.efficiency * value, 1.0);
        } else if (k->name == "memory_bound") {
            gpu->efficiency.memoryBound = value;
        } else if (k->name == "scale_up_collective") {
            gpu->efficiency.scaleUpCollective = value;
        } else if (isSharingName(k->name)) {
            gpu->sharingCalibration[k->name] = value;
        }
        return done();
    }
    case CalibrationScope::Stack: {
        SoftwareStack* stack = mutableStack(catalog, k->target);
        if (!stack)
            return failure(key, "software stack '" + k->target + "' is not in the catalog");
        if (double* field = stackField(*stack, k->name))
            *field = value;
        return done();
    }
    case CalibrationScope::Tenant: {
        Tenant* tenant = scenario.findTenant(k->target);
        if (!tenant)
            return failure(key, "tenant '" + k->target + "' is not in the scenario");
        tenant->busyFraction = value;
        return done();
    }
    }
    return failure(key, "not a calibrated parameter");
}

std::optional<double> uncalibratedValue(const std::string& key, const Scenario& scenario, const Catalog& catalog)
{
    const auto k = CalibrationKey::parse(key);
    if (!k)
        return std::nullopt;
    switch (k->scope) {
    case CalibrationScope::Assumption: return assumptionValue(scenario.assumptions, k->name);
    case CalibrationScope::Gpu: {
        const GpuSpec* gpu = catalog.gpu(k->target);
        if (!gpu)
            return std::nullopt;
        if (k->name == "gemm_efficiency_scale")
            return 1.0;
        if (k->name == "memory_bound")
            return gpu->efficiency.memoryBound;
        if (k->name == "scale_up_collective")
            return gpu->efficiency.scaleUpCollective;
        const auto it = gpu->sharingCalibration.find(k->name);
        return it != gpu->sharingCalibration.end() ? it->second : assumptionValue(scenario.assumptions, k->name);
    }
    case CalibrationScope::Stack: {
        const SoftwareStack* stack = catalog.softwareStack(k->target);
        if (!stack)
            return std::nullopt;
        return k->name == "step_overhead_s" ? stack->stepOverheadS : stack->decodeStepOverheadS;
    }
    case CalibrationScope::Tenant: {
        const Tenant* tenant = scenario.findTenant(k->target);
        if (!tenant)
            return std::nullopt;
        return tenant->busyFraction.value_or(assumptionValue(scenario.assumptions, "cotenant_busy_fraction"));
    }
    }
    return std::nullopt;
}

Issues applyCalibration(const CalibrationProfile& profile, Scenario& scenario, Catalog& catalog)
{
    Issues issues;
    for (const CalibratedValue& v : profile.values) {
        const Status s = applyCalibratedValue(v.key, v.value, scenario, catalog);
        for (Issue i : s.issues) {
            i.severity = Issue::Severity::Warning;
            i.message += ": left at its default";
            issues.push_back(std::move(i));
        }
    }
    return issues;
}

bool calibrationAppliesTo(const CalibrationKey& key, const std::string& gpuId, const std::string& stackId)
{
    switch (key.scope) {
    case CalibrationScope::Gpu: return key.target == gpuId;
    case CalibrationScope::Stack: return key.target == stackId;
    case CalibrationScope::Tenant:
    case CalibrationScope::Assumption: return true;
    }
    return false;
}

std::vector<CalibrationDifference> diffProfiles(const CalibrationProfile& a, const CalibrationProfile& b)
{
    std::map<std::string, CalibrationDifference> byKey;
    for (const CalibratedValue& v : a.values)
        byKey[v.key] = {v.key, v.value, std::nullopt};
    for (const CalibratedValue& v : b.values) {
        auto& d = byKey[v.key];
        d.key = v.key;
        d.after = v.value;
    }
    std::vector<CalibrationDifference> out;
    for (auto& [key, d] : byKey)
        if (!d.before || !d.after || *d.before != *d.after)
            out.push_back(std::move(d));
    return out;
}

std::vector<const CalibratedValue*> valuesFor(const CalibrationProfile& profile, const std::string& gpuId,
                                              const std::string& stackId)
{
    std::vector<const CalibratedValue*> out;
    for (const CalibratedValue& v : profile.values)
        if (const auto k = CalibrationKey::parse(v.key); k && calibrationAppliesTo(*k, gpuId, stackId))
            out.push_back(&v);
    return out;
}

std::string profileLabel(const CalibrationProfile& profile)
{
    return profile.name + " v" + std::to_string(profile.version);
}

CalibratedPlan withCalibration(const Scenario& scenario, const Catalog& catalog, const CalibrationProfile& profile)
{
    CalibratedPlan plan{scenario, catalog, {}};
    plan.scenario.calibration.reset();
    plan.issues = applyCalibration(profile, plan.scenario, plan.catalog);
    return plan;
}

} // namespace gp
