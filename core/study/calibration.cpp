// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#include "calibration.h"

#include "boundedleastsquares.h"
#include "calibrationevaluator.h"

#include "calc/evaluate.h"
#include "model/assumptions.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <random>
#include <set>
#include <tuple>

namespace gp::study {

namespace {

bool stopped(const CalibrationOptions& o) { return o.stop && o.stop->load(); }

/// The cases without their scenarios' own profiles: a fit starts from the defaults, and a new
/// profile replaces an old one rather than stacking on it.
std::vector<CalibrationCase> uncalibrated(std::vector<CalibrationCase> cases)
{
    for (CalibrationCase& c : cases)
        c.scenario.calibration.reset();
    return cases;
}

/// Bounds of the GPU and stack parameters (docs/calibration.md#parameters says why each).
struct Bounds
{
    double lo, hi;
    const char* unit;
    const char* description;
};

Bounds boundsOf(const CalibrationKey& k, const GpuSpec* gpu)
{
    if (k.name == "gemm_efficiency_scale") {
        double top = 0.0;
        if (gpu)
            for (const EfficiencyPoint& p : gpu->efficiency.gemm)
                top = std::max(top, p.efficiency);
        return {0.25, top > 0.0 ? 1.0 / top : 1.0, "×", "scale of the GPU's GEMM efficiency curve"};
    }
    if (k.name == "memory_bound")
        return {0.2, 1.0, "fraction", "share of the HBM bandwidth memory-bound kernels reach"};
    if (k.name == "scale_up_collective")
        return {0.1, 1.0, "fraction", "NCCL bus bandwidth over the scale-up domain / line rate"};
    if (k.name == "time_slice_switch_us")
        return {0.0, 2000.0, "µs", "context switch per time slice"};
    if (k.name == "time_slice_cache_refill_us")
        return {0.0, 5000.0, "µs", "cache refill per time slice"};
    if (k.name == "mps_memory_contention")
        return {0.0, 5.0, "extra DRAM traffic per client", "MPS memory contention"};
    if (k.name == "virtualization_io_overhead_pct")
        return {0.0, 50.0, "%", "virtualisation I/O overhead"};
    if (k.name == "step_overhead_s")
        return {0.0, 5.0, "s", "host-side time per training step"};
    if (k.name == "decode_step_overhead_s")
        return {0.0, 0.05, "s", "scheduler and host time per serving iteration"};
    if (k.name == "runtime_overhead_gib")
        return {0.0, 16.0, "GiB", "runtime memory per GPU before the job's tensors"};
    if (k.name == "link_efficiency")
        return {0.05, 1.0, "fraction", "bus bandwidth a collective reaches over the network / line rate"};
    if (k.name == "cotenant_busy_fraction")
        return {0.0, 1.0, "fraction", "probability a co-tenant is busy (mean step, simulation)"};
    if (k.name == "busy_fraction")
        return {0.0, 1.0, "fraction", "how often the tenant's jobs keep a shared GPU busy"};
    return {0.0, 1.0, "", ""};
}

bool selected(const std::string& key, const CalibrationKey& k, const std::vector<std::string>& patterns)
{
    if (patterns.empty())
        return true;
    for (const std::string& p : patterns)
        if (p == key || p == k.name || key.starts_with(p + "."))
            return true;
    return false;
}

std::string sourceOf(const CalibrationCase& c, const Measurement& m, int index)
{
    std::string s = m.source.empty() ? "measurements[" + std::to_string(index) + "]" : m.source;
    return c.label.empty() ? s : c.label + ": " + s;
}

double meanAbs(const std::vector<double>& errors)
{
    if (errors.empty())
        return 0.0;
    double s = 0.0;
    for (double e : errors)
        s += std::abs(e);
    return s / double(errors.size());
}

/// The fit of `free` parameters to the measurements `rows` (indices into the evaluator's used list).
struct SubsetFit
{
    std::vector<double> values;
    LeastSquaresResult ls;
};

SubsetFit fitSubset(const CalibrationEvaluator& ev, const std::vector<CalibrationParameter>& free,
                    const std::vector<std::size_t>& rows, std::size_t caseCount, const CalibrationOptions& options)
{
    std::vector<std::string> keys;
    for (const auto& p : free)
        keys.push_back(p.key);
    std::vector<bool> mask(caseCount, false);
    for (std::size_t r : rows)
        mask[std::size_t(ev.used()[r].caseIndex)] = true;
    auto toValues = [&](const std::vector<double>& u) {
        std::vector<double> v(free.size());
        for (std::size_t p = 0; p < free.size(); ++p)
            v[p] = free[p].minValue + u[p] * (free[p].maxValue - free[p].minValue);
        return v;
    };
    const ResidualFunction f = [&](const std::vector<double>& u) -> std::optional<std::vector<double>> {
        const auto pred = ev.predict(keys, toValues(u), mask);
        std::vector<double> r;
        r.reserve(rows.size());
        for (std::size_t i : rows) {
            const UsedMeasurement& m = ev.used()[i];
            if (!pred[i] || !std::isfinite(*pred[i]))
                return std::nullopt;
            r.push_back(std::sqrt(m.weight) * (*pred[i] / m.value - 1.0));
        }
        return r;
    };
    std::vector<double> u0(free.size());
    for (std::size_t p = 0; p < free.size(); ++p)
        u0[p] = (free[p].defaultValue - free[p].minValue) / (free[p].maxValue - free[p].minValue);
    SubsetFit out;
    LeastSquaresOptions o;
    o.maxIterations = options.maxIterations;
    o.stop = options.stop;
    out.ls = boundedLeastSquares(f, u0, o);
    out.values = toValues(out.ls.u);
    return out;
}

/// Splits the candidates into those the data determine and those it does not (with why), from the
/// Jacobian at the defaults: a column of zeros moves nothing; a column within 1e-3 (relative) of the
/// span of the better-determined ones moves nothing they do not.
void identify(const std::vector<double>& jac, std::size_t m, std::vector<FittedParameter>& params)
{
    const std::size_t n = params.size();
    std::vector<double> norm(n, 0.0);
    for (std::size_t p = 0; p < n; ++p) {
        for (std::size_t i = 0; i < m; ++i)
            norm[p] += jac[i * n + p] * jac[i * n + p];
        norm[p] = std::sqrt(norm[p]);
    }
    std::vector<std::size_t> order(n);
    for (std::size_t p = 0; p < n; ++p)
        order[p] = p;
    std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return norm[a] > norm[b]; });
    std::vector<std::vector<double>> basis;
    std::vector<std::size_t> basisOwner;
    for (std::size_t p : order) {
        if (!(norm[p] > 1e-9)) {
            params[p].why = "no measurement depends on it";
            continue;
        }
        std::vector<double> v(m);
        for (std::size_t i = 0; i < m; ++i)
            v[i] = jac[i * n + p] / norm[p];
        double best = 0.0;
        std::size_t bestOwner = 0;
        for (std::size_t b = 0; b < basis.size(); ++b) {
            double dot = 0.0;
            for (std::size_t i = 0; i < m; ++i)
                dot += v[i] * basis[b][i];
            if (std::abs(dot) > best) {
                best = std::abs(dot);
                bestOwner = basisOwner[b];
            }
            for (std::size_t i = 0; i < m; ++i)
                v[i] -= dot * basis[b][i];
        }
        double left = 0.0;
        for (double x : v)
            left += x * x;
        left = std::sqrt(left);
        if (left < 1e-3) {
            params[p].why = "not identifiable apart from " + params[bestOwner].parameter.key +
                            ": it moves the same measured figures";
            continue;
        }
        for (double& x : v)
            x /= left;
        basis.push_back(std::move(v));
        basisOwner.push_back(p);
        params[p].fitted = true;
    }
}

} // namespace

std::vector<CalibrationParameter> candidateParameters(const std::vector<CalibrationCase>& cases, const Catalog& catalog)
{
    std::set<std::string> gpus, stacks, tenants;
    for (const CalibrationCase& c : cases) {
        const calc::Evaluation ev = calc::evaluate(c.scenario, catalog);
        // Who shares each GPU: a measured job's co-tenants' busy fractions weigh its mean step.
        std::map<std::pair<std::string, int>, std::vector<const calc::JobResult*>> onGpu;
        for (const calc::JobResult& r : ev.jobs)
            for (const calc::UnitLocation& u : r.placement)
                onGpu[{u.node, u.gpu}].push_back(&r);
        for (const Measurement& m : c.measurements) {
            const Job* job = c.scenario.findJob(m.jobId);
            if (!job)
                continue;
            if (catalog.softwareStackFor(*job))
                stacks.insert(softwareStackOf(*job));
            for (const calc::JobResult& r : ev.jobs) {
                if (r.id != m.jobId || !r.placed || r.gpuId.empty())
                    continue;
                gpus.insert(r.gpuId);
                // Tenants are one scenario's: with several cases, only the scenario-wide fraction.
                if (cases.size() == 1 && r.coTenantBusy > 0.0)
                    for (const calc::UnitLocation& u : r.placement)
                        for (const calc::JobResult* other : onGpu[{u.node, u.gpu}])
                            if (other != &r)
                                tenants.insert(other->tenant);
            }
        }
    }
    const Scenario& first = cases.empty() ? Scenario{} : cases.front().scenario;
    std::vector<CalibrationParameter> out;
    auto add = [&](const CalibrationKey& k, const GpuSpec* gpu) {
        const std::string key = k.toString();
        const auto def = uncalibratedValue(key, first, catalog);
        if (!def)
            return;
        const Bounds b = boundsOf(k, gpu);
        out.push_back({key, std::clamp(*def, b.lo, b.hi), b.lo, b.hi, b.unit, b.description});
    };
    for (const std::string& g : gpus)
        for (const std::string& name : calibratedGpuNames())
            add({CalibrationScope::Gpu, g, name}, catalog.gpu(g));
    for (const std::string& s : stacks) {
        const SoftwareStack* stack = catalog.softwareStack(s);
        add({CalibrationScope::Stack, s, stack->kind == "serving" ? "decode_step_overhead_s" : "step_overhead_s"},
            nullptr);
    }
    for (const std::string& t : tenants)
        for (const std::string& name : calibratedTenantNames())
            add({CalibrationScope::Tenant, t, name}, nullptr);
    for (const std::string& name : calibratedAssumptionNames())
        add({CalibrationScope::Assumption, "", name}, nullptr);
    return out;
}

CalibrationResult calibrate(const std::vector<CalibrationCase>& given, const Catalog& catalog,
                            const CalibrationOptions& options)
{
    const std::vector<CalibrationCase> cases = uncalibrated(given);
    CalibrationResult res;
    auto stop = [&](std::string why) {
        res.error = std::move(why);
        return res;
    };
    // The input: every measurement names a job of its plan; no two figures of one thing contradict.
    std::vector<UsedMeasurement> all;
    for (std::size_t c = 0; c < cases.size(); ++c) {
        const CalibrationCase& cs = cases[c];
        std::map<std::tuple<std::string, MeasuredQuantity, MeasuredStatistic>, int> firstOf;
        for (std::size_t i = 0; i < cs.measurements.size(); ++i) {
            const Measurement& m = cs.measurements[i];
            const std::string where = sourceOf(cs, m, int(i));
            if (!cs.scenario.findJob(m.jobId)) {
                res.issues.push_back(
                    Issue::error(where, "job '" + m.jobId + "' is not in scenario '" + cs.scenario.name + "'"));
                continue;
            }
            if (!(m.value > 0.0) || !std::isfinite(m.value) || !(m.weight > 0.0)) {
                res.issues.push_back(Issue::error(where, "a fit needs a value above 0 and a weight above 0"));
                continue;
            }
            const auto key = std::make_tuple(m.jobId, m.quantity, m.statistic);
            if (const auto it = firstOf.find(key); it != firstOf.end()) {
                const Measurement& other = cs.measurements[std::size_t(it->second)];
                const double ratio = std::max(m.value, other.value) / std::min(m.value, other.value);
                if (ratio > options.contradiction)
                    res.issues.push_back(Issue::error(
                        where, std::string(quantityName(m.quantity)) + " " + std::string(statisticName(m.statistic)) +
                                   " of job '" + m.jobId + "' is " + std::to_string(m.value) + " here and " +
                                   std::to_string(other.value) + " at " + sourceOf(cs, other, it->second) +
                                   ": the figures contradict each other (more than " +
                                   std::to_string(options.contradiction) + "× apart)"));
            } else {
                firstOf[key] = int(i);
            }
            all.push_back({int(c), int(i), m.value, m.weight});
        }
    }
    if (hasErrors(res.issues))
        return stop("the measurements have errors: nothing was fitted");

    // The plan's figures with the defaults; a measurement without one is named and left out.
    const CalibrationEvaluator probe(cases, catalog, all);
    std::vector<std::string> why;
    const auto before = probe.predict({}, {}, {}, &why);
    std::vector<UsedMeasurement> used;
    std::vector<std::optional<double>> beforeUsed;
    for (std::size_t i = 0; i < all.size(); ++i) {
        const CalibrationCase& cs = cases[std::size_t(all[i].caseIndex)];
        MeasurementFit mf;
        mf.caseIndex = all[i].caseIndex;
        mf.measurement = cs.measurements[std::size_t(all[i].index)];
        mf.before = before[i];
        if (!before[i] || !(*before[i] > 0.0)) {
            mf.why = why[i].empty() ? "the plan gives no figure" : why[i];
            res.issues.push_back(
                Issue::warning(sourceOf(cs, mf.measurement, all[i].index), "left out of the fit: " + mf.why));
        } else {
            used.push_back(all[i]);
            beforeUsed.push_back(before[i]);
        }
        res.measurements.push_back(std::move(mf));
    }
    if (used.empty())
        return stop("no measurement has a figure the plan predicts: nothing constrains a parameter");

    // The candidates, those selected, and which of them the data determine.
    const std::vector<CalibrationParameter> candidates = candidateParameters(cases, catalog);
    for (const std::string& pattern : options.params) {
        const bool any = std::any_of(candidates.begin(), candidates.end(), [&](const CalibrationParameter& p) {
            return selected(p.key, *CalibrationKey::parse(p.key), {pattern});
        });
        if (!any) {
            std::string names;
            for (const auto& p : candidates)
                names += (names.empty() ? "" : ", ") + p.key;
            return stop("--params: '" + pattern + "' names no parameter these measurements could move (" + names + ")");
        }
    }
    for (const CalibrationParameter& p : candidates) {
        FittedParameter fp{p, p.defaultValue, std::nullopt, false, false, {}};
        if (!selected(p.key, *CalibrationKey::parse(p.key), options.params))
            fp.why = "not selected";
        res.parameters.push_back(std::move(fp));
    }
    const CalibrationEvaluator ev(cases, catalog, used);
    std::vector<std::size_t> rows(used.size());
    for (std::size_t i = 0; i < rows.size(); ++i)
        rows[i] = i;
    {
        // The Jacobian at the defaults, over the selected parameters only.
        std::vector<std::size_t> sel;
        std::vector<FittedParameter> selParams;
        for (std::size_t p = 0; p < res.parameters.size(); ++p)
            if (res.parameters[p].why.empty()) {
                sel.push_back(p);
                selParams.push_back(res.parameters[p]);
            }
        std::vector<std::string> keys;
        std::vector<double> u;
        for (const FittedParameter& p : selParams) {
            keys.push_back(p.parameter.key);
            u.push_back((p.parameter.defaultValue - p.parameter.minValue) /
                        (p.parameter.maxValue - p.parameter.minValue));
        }
        const ResidualFunction f = [&](const std::vector<double>& uu) -> std::optional<std::vector<double>> {
            std::vector<double> v(uu.size());
            for (std::size_t p = 0; p < uu.size(); ++p)
                v[p] = selParams[p].parameter.minValue +
                       uu[p] * (selParams[p].parameter.maxValue - selParams[p].parameter.minValue);
            const auto pred = ev.predict(keys, v);
            std::vector<double> r;
            for (std::size_t i = 0; i < pred.size(); ++i) {
                if (!pred[i] || !std::isfinite(*pred[i]))
                    return std::nullopt;
                r.push_back(std::sqrt(used[i].weight) * (*pred[i] / used[i].value - 1.0));
            }
            return r;
        };
        const auto r0 = f(u);
        const auto jac = r0 ? finiteDifferenceJacobian(f, u, *r0, 1e-3) : std::nullopt;
        if (!jac)
            return stop("the plan gives no figure for a measurement near the default parameters");
        identify(*jac, used.size(), selParams);
        for (std::size_t q = 0; q < sel.size(); ++q)
            res.parameters[sel[q]] = selParams[q];
    }
    std::vector<CalibrationParameter> free;
    for (const FittedParameter& p : res.parameters)
        if (p.fitted)
            free.push_back(p.parameter);
    if (free.empty())
        return stop("no measurement constrains any selected parameter (each is named with why in the report)");

    // The fit.
    const SubsetFit fit = fitSubset(ev, free, rows, cases.size(), options);
    if (stopped(options))
        return stop("the calibration was cancelled; nothing was stored");
    res.iterations = fit.ls.iterations;
    res.evaluations = fit.ls.evaluations;
    res.converged = fit.ls.converged;
    res.convergence = fit.ls.why;
    if (!fit.ls.converged)
        return stop("the fit did not converge: " + fit.ls.why + "; nothing was stored");
    std::vector<std::string> freeKeys;
    for (const auto& p : free)
        freeKeys.push_back(p.key);
    // One standard error per parameter: s² (JᵀJ)⁻¹ in the unit box, s² = 2 cost / (m − n).
    const std::size_t m = used.size(), n = free.size();
    std::optional<std::vector<double>> inv;
    if (m > n && fit.ls.jacobian.size() == m * n)
        inv = inverseNormalDiagonal(fit.ls.jacobian, m, n);
    for (std::size_t p = 0, k = 0; p < res.parameters.size(); ++p) {
        FittedParameter& fp = res.parameters[p];
        if (!fp.fitted)
            continue;
        fp.value = fit.values[k];
        fp.atBound = fit.ls.u[k] <= 0.0 || fit.ls.u[k] >= 1.0;
        if (inv)
            fp.stdError = (fp.parameter.maxValue - fp.parameter.minValue) *
                          std::sqrt(2.0 * fit.ls.cost / double(m - n) * (*inv)[k]);
        ++k;
    }
    const auto after = ev.predict(freeKeys, fit.values);
    std::vector<double> errBefore, errAfter;
    for (std::size_t i = 0, u = 0; i < res.measurements.size(); ++i) {
        MeasurementFit& mf = res.measurements[i];
        if (!mf.why.empty())
            continue;
        mf.after = after[u++];
        errBefore.push_back(mf.errorBefore());
        errAfter.push_back(mf.errorAfter());
    }
    res.meanAbsErrorBefore = meanAbs(errBefore);
    res.meanAbsErrorAfter = meanAbs(errAfter);

    // Held-out error: k folds (leave-one-out when there are fewer measurements than 2k), each fitted
    // on the others with the same free parameters, predicting its own.
    if (options.folds > 0 && used.size() >= 2) {
        const std::size_t k = used.size() < 2 * std::size_t(options.folds) ? used.size() : std::size_t(options.folds);
        std::vector<std::size_t> perm = rows;
        std::mt19937 rng(20261205u); // fixed: the same folds on every run and machine
        for (std::size_t i = perm.size(); i > 1; --i)
            std::swap(perm[i - 1], perm[rng() % i]);
        std::vector<std::optional<double>> held(used.size());
        for (std::size_t f = 0; f < k; ++f) {
            std::vector<std::size_t> train, test;
            for (std::size_t i = 0; i < perm.size(); ++i)
                (i % k == f ? test : train).push_back(perm[i]);
            const SubsetFit ff = fitSubset(ev, free, train, cases.size(), options);
            if (stopped(options))
                return stop("the calibration was cancelled; nothing was stored");
            if (!ff.ls.converged) {
                res.issues.push_back(Issue::warning(
                    "cross-validation", "the fit without fold " + std::to_string(f + 1) + " of " + std::to_string(k) +
                                            " " + ff.ls.why + ": its measurements have no held-out figure"));
                continue;
            }
            std::vector<bool> mask(cases.size(), false);
            for (std::size_t t : test)
                mask[std::size_t(used[t].caseIndex)] = true;
            const auto pred = ev.predict(freeKeys, ff.values, mask);
            for (std::size_t t : test)
                held[t] = pred[t];
        }
        std::vector<double> hb, ha;
        for (std::size_t i = 0, u = 0; i < res.measurements.size(); ++i) {
            MeasurementFit& mf = res.measurements[i];
            if (!mf.why.empty())
                continue;
            mf.heldOut = held[u++];
            if (mf.heldOut) {
                hb.push_back(mf.errorBefore());
                ha.push_back(*mf.heldOut / mf.measurement.value - 1.0);
            }
        }
        if (!ha.empty()) {
            res.folds = int(k);
            res.heldOutErrorBefore = meanAbs(hb);
            res.heldOutErrorAfter = meanAbs(ha);
        }
    }

    // The profile.
    CalibrationProfile profile;
    profile.cluster = cases.front().scenario.name.empty() ? "cluster" : cases.front().scenario.name;
    std::set<std::string> stacks;
    for (const UsedMeasurement& u : used)
        if (const Job* j = cases[std::size_t(u.caseIndex)].scenario.findJob(
                cases[std::size_t(u.caseIndex)].measurements[std::size_t(u.index)].jobId))
            stacks.insert(softwareStackOf(*j));
    for (const std::string& s : stacks)
        profile.stack += (profile.stack.empty() ? "" : "+") + s;
    profile.name = options.name.empty() ? profile.cluster + "/" + profile.stack : options.name;
    profile.author = options.author;
    profile.createdAt = options.createdAt;
    profile.measurementsDigest = options.measurementsDigest;
    profile.measurementCount = int(used.size());
    for (const FittedParameter& fp : res.parameters) {
        if (fp.fitted)
            profile.values.push_back({fp.parameter.key, fp.value, fp.parameter.defaultValue, fp.parameter.minValue,
                                      fp.parameter.maxValue, fp.stdError});
        else if (fp.why != "not selected")
            profile.unconstrained.push_back(fp.parameter.key);
    }
    profile.meanAbsErrorBefore = res.meanAbsErrorBefore;
    profile.meanAbsErrorAfter = res.meanAbsErrorAfter;
    profile.heldOutErrorBefore = res.heldOutErrorBefore;
    profile.heldOutErrorAfter = res.heldOutErrorAfter;
    profile.folds = res.folds;
    res.profile = std::move(profile);
    return res;
}

CalibrationResult calibrate(const Scenario& scenario, const Catalog& catalog, const MeasurementSet& measurements,
                            const CalibrationOptions& options)
{
    return calibrate({CalibrationCase{scenario, measurements.items, ""}}, catalog, options);
}

std::vector<MeasurementFit> predictMeasurements(const std::vector<CalibrationCase>& given, const Catalog& catalog,
                                                const CalibrationProfile* profile)
{
    const std::vector<CalibrationCase> cases = uncalibrated(given);
    std::vector<UsedMeasurement> all;
    for (std::size_t c = 0; c < cases.size(); ++c)
        for (std::size_t i = 0; i < cases[c].measurements.size(); ++i)
            all.push_back({int(c), int(i), cases[c].measurements[i].value, cases[c].measurements[i].weight});
    const CalibrationEvaluator ev(cases, catalog, all);
    std::vector<std::string> why;
    const auto before = ev.predict({}, {}, {}, &why);
    std::vector<std::optional<double>> after;
    if (profile) {
        std::vector<std::string> keys;
        std::vector<double> values;
        for (const CalibratedValue& v : profile->values)
            if (CalibrationKey::parse(v.key)) {
                keys.push_back(v.key);
                values.push_back(v.value);
            }
        after = ev.predict(keys, values);
    }
    std::vector<MeasurementFit> out;
    for (std::size_t i = 0; i < all.size(); ++i) {
        MeasurementFit m;
        m.caseIndex = all[i].caseIndex;
        m.measurement = cases[std::size_t(all[i].caseIndex)].measurements[std::size_t(all[i].index)];
        m.before = before[i];
        if (profile)
            m.after = after[i];
        m.why = why[i];
        out.push_back(std::move(m));
    }
    return out;
}

} // namespace gp::study
