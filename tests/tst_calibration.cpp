// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
// Calibration (issue 38, deliverable 3; docs/calibration.md): measurements that gpuplan's own model
// generates with known parameter values, plus noise, are fitted back within tolerance; parameters no
// measurement depends on stay at their default and are named; a profile applied to a plan gives the
// figures the fit saw; the profile file round-trips, refuses what it cannot use and diffs; bad input
// (unknown jobs, contradicting figures, nothing the plan predicts, a fit that does not converge)
// gives an error naming its source and no profile.
#include "calc/evaluate.h"
#include "calc/jobsearch.h"
#include "calc/kpiexplain.h"
#include "calibrationsupport.h"
#include "io/calibrationprofileio.h"
#include "io/scenarioreader.h"
#include "io/scenariowriter.h"
#include "model/calibratedplan.h"
#include "sim/simulation.h"
#include "sim/timeline.h"
#include "study/calibration.h"
#include "study/calibrationjson.h"
#include "study/measuredprediction.h"
#include "testsupport.h"

#include <QDir>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTest>

#include <cmath>
#include <random>

using namespace gp;

namespace {

Scenario sample()
{
    return *io::readScenarioFile(QDir(test::dataDir()).absoluteFilePath("samples/01-dgx-h100-three-tenants.json"),
                                 test::bundledCatalog())
                .value;
}

/// The "true" cluster the synthetic measurements come from.
const std::vector<std::pair<std::string, double>> kTruth = {
    {"gpu.h100-80gb.gemm_efficiency_scale", 0.86},
    {"gpu.h100-80gb.memory_bound", 0.58},
    {"assumption.runtime_overhead_gib", 2.5},
    {"stack.tensorrt-llm.decode_step_overhead_s", 0.004},
};

MeasurementSet synthetic(const std::vector<std::pair<std::string, double>>& values, double noise)
{
    return test::syntheticMeasurements(sample(), values, noise);
}

std::vector<std::string> truthKeys()
{
    std::vector<std::string> keys;
    for (const auto& kv : kTruth)
        keys.push_back(kv.first);
    return keys;
}

const study::FittedParameter* param(const study::CalibrationResult& r, const std::string& key)
{
    for (const auto& p : r.parameters)
        if (p.parameter.key == key)
            return &p;
    return nullptr;
}

} // namespace

class TestCalibration : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void knownParametersAreFittedBack()
    {
        const MeasurementSet set = synthetic(kTruth, 0.01);
        QVERIFY(set.items.size() >= 10);
        study::CalibrationOptions o;
        o.params = truthKeys();
        o.folds = 0;
        const study::CalibrationResult r = study::calibrate(sample(), test::bundledCatalog(), set, o);
        QVERIFY2(r.ok(), r.error.c_str());
        QVERIFY(r.converged);
        for (const auto& [key, truth] : kTruth) {
            const study::FittedParameter* p = param(r, key);
            QVERIFY2(p, key.c_str());
            QVERIFY2(p->fitted, (key + ": " + p->why).c_str());
            // Within 5 % of the truth with 1 % noise on the measurements.
            QVERIFY2(std::abs(p->value / truth - 1.0) < 0.05,
                     qPrintable(QString("%1: fitted %2, truth %3").arg(key.c_str()).arg(p->value).arg(truth)));
            QVERIFY(p->stdError.has_value());
        }
        QVERIFY2(r.meanAbsErrorBefore > 0.05, qPrintable(QString::number(r.meanAbsErrorBefore)));
        QVERIFY2(r.meanAbsErrorAfter < 0.01, qPrintable(QString::number(r.meanAbsErrorAfter)));
        // The profile carries exactly the fitted values.
        QVERIFY(r.profile);
        QCOMPARE(r.profile->values.size(), kTruth.size());
        QCOMPARE(r.profile->name, sample().name + "/" + r.profile->stack);
        QVERIFY(r.profile->stack.find("tensorrt-llm") != std::string::npos);
    }

    void crossValidationReportsHeldOutError()
    {
        const MeasurementSet set = synthetic(kTruth, 0.01);
        study::CalibrationOptions o;
        o.params = truthKeys();
        o.folds = 5;
        const study::CalibrationResult r = study::calibrate(sample(), test::bundledCatalog(), set, o);
        QVERIFY2(r.ok(), r.error.c_str());
        QVERIFY(r.heldOutErrorAfter && r.heldOutErrorBefore);
        QVERIFY(r.folds >= 2);
        // Each held-out figure predicted by a fit that never saw it is still far better than the defaults.
        QVERIFY2(*r.heldOutErrorAfter < 0.5 * *r.heldOutErrorBefore,
                 qPrintable(QString("%1 vs %2").arg(*r.heldOutErrorAfter).arg(*r.heldOutErrorBefore)));
        int heldOut = 0;
        for (const auto& m : r.measurements)
            heldOut += m.heldOut.has_value();
        QVERIFY(heldOut >= int(set.items.size()) - 2);
    }

    void unconstrainedParametersAreNamedAndLeftAtDefault()
    {
        // Every candidate: on bare metal no measurement depends on the sharing constants.
        const MeasurementSet set = synthetic(kTruth, 0.0);
        study::CalibrationOptions o;
        o.folds = 0;
        const study::CalibrationResult r = study::calibrate(sample(), test::bundledCatalog(), set, o);
        QVERIFY2(r.ok(), r.error.c_str());
        for (const char* key : {"gpu.h100-80gb.mps_memory_contention", "gpu.h100-80gb.time_slice_switch_us",
                                "assumption.cotenant_busy_fraction"}) {
            const study::FittedParameter* p = param(r, key);
            QVERIFY2(p, key);
            QVERIFY(!p->fitted);
            QCOMPARE(p->why, std::string("no measurement depends on it"));
            QCOMPARE(p->value, p->parameter.defaultValue);
            QVERIFY(std::find(r.profile->unconstrained.begin(), r.profile->unconstrained.end(), key) !=
                    r.profile->unconstrained.end());
            QVERIFY(!r.profile->find(key));
        }
        QVERIFY(r.meanAbsErrorAfter < r.meanAbsErrorBefore);
    }

    void profileAppliedGivesTheFittedFigures()
    {
        const MeasurementSet set = synthetic(kTruth, 0.0);
        study::CalibrationOptions o;
        o.params = truthKeys();
        o.folds = 0;
        const study::CalibrationResult r = study::calibrate(sample(), test::bundledCatalog(), set, o);
        QVERIFY2(r.ok(), r.error.c_str());
        // Through the file and back: the plan with the profile shows what the fit ended with.
        const auto read = io::readCalibrationProfile(io::profileToJson(*r.profile));
        QVERIFY2(read, read.errorText().c_str());
        const CalibratedPlan plan = withCalibration(sample(), test::bundledCatalog(), *read);
        QVERIFY(plan.issues.empty());
        const calc::Evaluation ev = calc::evaluate(plan.scenario, plan.catalog);
        for (const study::MeasurementFit& m : r.measurements) {
            const Job* j = plan.scenario.findJob(m.measurement.jobId);
            for (const calc::JobResult& jr : ev.jobs)
                if (jr.id == m.measurement.jobId) {
                    const auto v =
                        study::predictedFor(jr, *j, plan.catalog, m.measurement.quantity, m.measurement.statistic);
                    QVERIFY(v && m.after);
                    QCOMPARE(*v, *m.after);
                }
        }
        // And the uncalibrated plan does not.
        const calc::Evaluation plain = calc::evaluate(sample(), test::bundledCatalog());
        QVERIFY(plain.jobs.front().perf.stepTimeS != ev.jobs.front().perf.stepTimeS);
    }

    void scenarioCarriesItsOwnProfile()
    {
        // Issue 38: a profile selected for a scenario travels in its file (format 4), every
        // evaluation applies it, the explain window names the values behind a figure, and a new
        // fit starts from the defaults rather than from it.
        const MeasurementSet set = synthetic(kTruth, 0.0);
        study::CalibrationOptions o;
        o.params = truthKeys();
        o.folds = 0;
        const study::CalibrationResult r = study::calibrate(sample(), test::bundledCatalog(), set, o);
        QVERIFY2(r.ok(), r.error.c_str());
        Scenario own = sample();
        own.calibration = *r.profile;
        const auto back = io::readScenario(io::writeScenario(own), test::bundledCatalog());
        QVERIFY2(back, back.errorText().c_str());
        QVERIFY(*back->calibration == *r.profile);
        QVERIFY(QJsonDocument::fromJson(io::writeScenario(sample())).object().value("calibration").isUndefined());

        const CalibratedPlan plan = withCalibration(sample(), test::bundledCatalog(), *r.profile);
        const calc::Evaluation viaOption = calc::evaluate(plan.scenario, plan.catalog);
        const calc::Evaluation viaOwn = calc::evaluate(*back, test::bundledCatalog());
        QCOMPARE(viaOwn.calibration, profileLabel(*r.profile));
        QVERIFY(viaOption.calibration.empty());
        QCOMPARE(viaOwn.jobs.size(), viaOption.jobs.size());
        for (std::size_t i = 0; i < viaOwn.jobs.size(); ++i)
            QCOMPARE(viaOwn.jobs[i].perf.stepTimeS, viaOption.jobs[i].perf.stepTimeS);
        QCOMPARE(viaOwn.kpis.costPerMonthUsd, viaOption.kpis.costPerMonthUsd);

        const std::string job = viaOwn.jobs.front().id;
        const calc::KpiExplanation x = calc::explainJob("penalty", job, *back, test::bundledCatalog(), viaOwn);
        QCOMPARE(x.calibration, profileLabel(*r.profile));
        QVERIFY(!x.calibrated.empty());
        QVERIFY2(x.calibrated.front().find(" = ") != std::string::npos &&
                     x.calibrated.front().find("(default ") != std::string::npos,
                 x.calibrated.front().c_str());
        const calc::KpiExplanation kpi = calc::explainKpi("cost_per_month_usd", *back, test::bundledCatalog(), viaOwn);
        QCOMPARE(kpi.calibration, profileLabel(*r.profile));
        // Every other way in reads the calibrated inputs too: the job search's setting, a job's
        // memory, the timeline.
        const Job& first = back->tenants.front().jobs.front();
        const Node& node = back->topology.nodes.front();
        const calc::JobSearchSetup viaOwnSetup = calc::jobSearchSetup(*back, test::bundledCatalog(), first, node);
        const calc::JobSearchSetup opt = calc::jobSearchSetup(plan.scenario, plan.catalog, first, node);
        QVERIFY(viaOwnSetup.calibratedCatalog && viaOwnSetup.gpu && opt.gpu);
        QCOMPARE(viaOwnSetup.gpu->efficiency.memoryBound, opt.gpu->efficiency.memoryBound);
        QVERIFY(viaOwnSetup.gpu->efficiency.memoryBound !=
                test::bundledCatalog().gpu(node.gpuId)->efficiency.memoryBound);
        QCOMPARE(viaOwnSetup.runtimeOverheadBytes, opt.runtimeOverheadBytes);
        QCOMPARE(calc::jobMemoryNeed(first, *back, test::bundledCatalog()).demandBytes,
                 calc::jobMemoryNeed(first, plan.scenario, plan.catalog).demandBytes);
        sim::TimelineConfig tc;
        tc.horizonDays = 5;
        QCOMPARE(sim::runTimeline(*back, test::bundledCatalog(), viaOwn, tc).meanAllocation,
                 sim::runTimeline(plan.scenario, plan.catalog, viaOption, tc).meanAllocation);
        const calc::KpiExplanation plain = calc::explainJob("penalty", job, sample(), test::bundledCatalog(),
                                                            calc::evaluate(sample(), test::bundledCatalog()));
        QVERIFY(plain.calibration.empty() && plain.calibrated.empty());

        // Refitting the calibrated scenario gives the same fit as the plain one.
        const study::CalibrationResult again = study::calibrate(*back, test::bundledCatalog(), set, o);
        QVERIFY2(again.ok(), again.error.c_str());
        QCOMPARE(again.meanAbsErrorBefore, r.meanAbsErrorBefore);

        // A damaged profile in the scenario is an error at its path; nothing is loaded.
        QByteArray bad = io::writeScenario(own);
        bad.replace(QByteArray::fromStdString(r.profile->values.front().key), "gpu.x.no_such_name");
        const auto refused = io::readScenario(bad, test::bundledCatalog());
        QVERIFY(!refused);
        QVERIFY2(refused.errorText().find("calibration.parameters[0].key") != std::string::npos,
                 refused.errorText().c_str());
    }

    void tenantBusyFractionsAreFittedFromMeanSteps()
    {
        // Sample 02: the research tenant's notebooks job shares a time-sliced GPU with another of
        // its jobs. Its mean step weighs the all-busy step by research's busy fraction; a measured
        // mean step pins the fraction, per tenant, and the Monte Carlo draws with it.
        const Scenario lab =
            *io::readScenarioFile(QDir(test::dataDir()).absoluteFilePath("samples/02-mixed-sharing-lab.json"),
                                  test::bundledCatalog())
                 .value;
        const calc::Evaluation plain = calc::evaluate(lab, test::bundledCatalog());
        const auto job = [](const calc::Evaluation& ev, const std::string& id) {
            for (const calc::JobResult& r : ev.jobs)
                if (r.id == id)
                    return r;
            qFatal("no job %s", id.c_str());
        };
        const calc::JobResult before = job(plain, "notebooks");
        QCOMPARE(before.coTenantBusy, 0.8); // the scenario-wide default
        QVERIFY(before.idleCotenantsFactor < 1.0);
        QCOMPARE(job(plain, "mig-chat").meanStepFactor(), 1.0); // isolated: its step is its mean

        Scenario quiet = lab;
        quiet.findTenant("research")->busyFraction = 0.3;
        const calc::Evaluation ev = calc::evaluate(quiet, test::bundledCatalog());
        const calc::JobResult after = job(ev, "notebooks");
        QCOMPARE(after.coTenantBusy, 0.3);
        QCOMPARE(after.perf.stepTimeS, before.perf.stepTimeS); // the plan's step: all busy
        QVERIFY(after.meanStepFactor() < before.meanStepFactor());
        const auto mean = study::predictedFor(after, *quiet.findJob("notebooks"), test::bundledCatalog(),
                                              MeasuredQuantity::StepTimeS, MeasuredStatistic::Mean);
        QVERIFY(mean && std::abs(*mean - after.perf.stepTimeS * after.meanStepFactor()) < 1e-12);
        const sim::SimulationInput in = sim::buildSimulationInput(quiet, test::bundledCatalog(), ev);
        for (std::size_t i = 0; i < in.jobIds.size(); ++i)
            if (in.jobIds[i] == "notebooks")
                QCOMPARE(in.jobs[i].coTenantBusy, 0.3);

        // Fitted back from the measured mean steps.
        const MeasurementSet set = test::syntheticMeasurements(lab, {{"tenant.research.busy_fraction", 0.3}}, 0.0);
        study::CalibrationOptions o;
        o.params = {"busy_fraction"};
        o.folds = 0;
        const study::CalibrationResult r = study::calibrate(lab, test::bundledCatalog(), set, o);
        QVERIFY2(r.ok(), r.error.c_str());
        const study::FittedParameter* p = param(r, "tenant.research.busy_fraction");
        QVERIFY(p && p->fitted);
        QVERIFY2(std::abs(p->value - 0.3) < 0.01, std::to_string(p->value).c_str());
        QVERIFY(!param(r, "tenant.startup.busy_fraction") || !param(r, "tenant.startup.busy_fraction")->fitted);
        // Applied from the profile: the tenant's own fraction.
        Scenario applied = lab;
        Catalog c = test::bundledCatalog();
        QVERIFY(applyCalibration(*r.profile, applied, c).empty());
        QVERIFY(applied.findTenant("research")->busyFraction);
        QVERIFY(std::abs(*applied.findTenant("research")->busyFraction - 0.3) < 0.01);
    }

    void profileFileRoundTripsAndRefusesWhatItCannotUse()
    {
        CalibrationProfile p;
        p.name = "dgx-pod/megatron-lm";
        p.cluster = "dgx-pod";
        p.stack = "megatron-lm";
        p.version = 3;
        p.author = "ana";
        p.createdAt = "2026-12-05T12:00:00Z";
        p.measurementsDigest = "ab12";
        p.measurementCount = 9;
        p.values = {{"gpu.h100-80gb.memory_bound", 0.61, 0.7, 0.2, 1.0, 0.01},
                    {"stack.megatron-lm.step_overhead_s", 0.2, 0.0, 0.0, 5.0, std::nullopt}};
        p.unconstrained = {"assumption.link_efficiency"};
        p.meanAbsErrorBefore = 0.2;
        p.meanAbsErrorAfter = 0.01;
        p.heldOutErrorBefore = 0.2;
        p.heldOutErrorAfter = 0.03;
        p.folds = 5;
        const auto back = io::readCalibrationProfile(io::profileToJson(p));
        QVERIFY2(back, back.errorText().c_str());
        QVERIFY(*back == p);

        auto refused = [](QByteArray json, const char* path, const char* words) {
            const auto r = io::readCalibrationProfile(json);
            QVERIFY(!r);
            QVERIFY2(QString::fromStdString(r.errorText()).contains(path), r.errorText().c_str());
            QVERIFY2(QString::fromStdString(r.errorText()).contains(words), r.errorText().c_str());
        };
        QByteArray json = io::profileToJson(p);
        refused(QByteArray(json).replace("gpu.h100-80gb.memory_bound", "gpu.h100-80gb.memory_bond"),
                "parameters[0].key", "no calibrated parameter");
        refused(QByteArray(json).replace("\"value\": 0.61", "\"value\": 1.61"), "parameters[0].value",
                "within [min, max]");
        refused(QByteArray(json).replace("\"format_version\": 1", "\"format_version\": 9"), "format_version",
                "newer gpuplan");
        refused(QByteArray(json).replace("\"author\"", "\"autor\""), "autor", "");

        // A diff names what changed, what only one has.
        CalibrationProfile q = p;
        q.values[0].value = 0.65;
        q.values.pop_back();
        q.values.push_back({"assumption.runtime_overhead_gib", 2.0, 1.0, 0.0, 16.0, std::nullopt});
        const auto diff = diffProfiles(p, q);
        QCOMPARE(diff.size(), std::size_t(3));
        QCOMPARE(diff[0].key, std::string("assumption.runtime_overhead_gib"));
        QVERIFY(!diff[0].before && diff[0].after == 2.0);
        QCOMPARE(diff[1].key, std::string("gpu.h100-80gb.memory_bound"));
        QVERIFY(diff[1].before == 0.61 && diff[1].after == 0.65);
        QVERIFY(diff[2].before == 0.2 && !diff[2].after);
        QVERIFY(diffProfiles(p, p).empty());

        // A profile for a GPU the catalog lacks: a warning naming it, the rest applied.
        CalibrationProfile r = p;
        r.values.push_back({"gpu.no-such-gpu.memory_bound", 0.5, 0.7, 0.2, 1.0, std::nullopt});
        const CalibratedPlan plan = withCalibration(sample(), test::bundledCatalog(), r);
        QCOMPARE(plan.issues.size(), std::size_t(1));
        QVERIFY(!plan.issues[0].isError());
        QVERIFY(plan.issues[0].toString().find("no-such-gpu") != std::string::npos);
        QCOMPARE(plan.catalog.gpu("h100-80gb")->efficiency.memoryBound, 0.61);
    }

    void unknownJobIsRefusedNamingTheSource()
    {
        MeasurementSet set = synthetic(kTruth, 0.0);
        set.items[2].jobId = "no-such-job";
        set.items[2].source = "bench.json: [2]";
        const study::CalibrationResult r = study::calibrate(sample(), test::bundledCatalog(), set, {});
        QVERIFY(!r.ok());
        QVERIFY(!r.error.empty());
        const std::string all = issueLines(r.issues);
        QVERIFY2(all.find("bench.json: [2]: job 'no-such-job' is not in scenario") != std::string::npos, all.c_str());
    }

    void contradictingMeasurementsAreRefused()
    {
        MeasurementSet set = synthetic(kTruth, 0.0);
        Measurement twice = set.items.front();
        twice.value *= 2.0;
        twice.source = "other.json";
        set.items.push_back(twice);
        const study::CalibrationResult r = study::calibrate(sample(), test::bundledCatalog(), set, {});
        QVERIFY(!r.ok());
        const std::string all = issueLines(r.issues);
        QVERIFY2(all.find("other.json") != std::string::npos && all.find("contradict") != std::string::npos &&
                     all.find(set.items.front().source) != std::string::npos,
                 all.c_str());
        // The same figure measured twice within the ratio is no contradiction: both count.
        set.items.back().value = set.items.front().value * 1.02;
        expectFit(set);
    }

    void nothingToFitIsRefused()
    {
        // Telemetry quantities have no figure in evaluate: nothing constrains anything.
        auto measured = [](MeasuredQuantity q, MeasuredStatistic st, double v) {
            Measurement m;
            m.jobId = "frontier-70b";
            m.quantity = q;
            m.statistic = st;
            m.value = v;
            return m;
        };
        MeasurementSet set;
        set.items.push_back(measured(MeasuredQuantity::SmActivity, MeasuredStatistic::Mean, 0.8));
        study::CalibrationResult r = study::calibrate(sample(), test::bundledCatalog(), set, {});
        QVERIFY(!r.ok());
        QVERIFY2(r.error.find("nothing constrains") != std::string::npos, r.error.c_str());
        // Memory only, and only a parameter memory does not read: no selected parameter is constrained.
        set.items = {measured(MeasuredQuantity::MemoryGib, MeasuredStatistic::Max, 60.0)};
        study::CalibrationOptions o;
        o.params = {"memory_bound"};
        r = study::calibrate(sample(), test::bundledCatalog(), set, o);
        QVERIFY(!r.ok());
        QVERIFY2(r.error.find("no measurement constrains") != std::string::npos, r.error.c_str());
        QCOMPARE(param(r, "gpu.h100-80gb.memory_bound")->why, std::string("no measurement depends on it"));
        // A --params that names nothing.
        o.params = {"gpu.b200-180gb"};
        r = study::calibrate(sample(), test::bundledCatalog(), set, o);
        QVERIFY(!r.ok());
        QVERIFY2(r.error.find("'gpu.b200-180gb' names no parameter") != std::string::npos, r.error.c_str());
    }

    void fitThatDoesNotConvergeStoresNothing()
    {
        const MeasurementSet set = synthetic(kTruth, 0.01);
        study::CalibrationOptions o;
        o.params = truthKeys();
        o.maxIterations = 1;
        const study::CalibrationResult r = study::calibrate(sample(), test::bundledCatalog(), set, o);
        QVERIFY(!r.ok());
        QVERIFY(!r.converged);
        QVERIFY2(r.error.find("did not converge") != std::string::npos, r.error.c_str());
        const QJsonObject json = study::calibrationToJson(r);
        QCOMPARE(json.value("ok").toBool(), false);
        QVERIFY(json.value("profile").isNull());
    }

private:
    void expectFit(const MeasurementSet& set)
    {
        study::CalibrationOptions o;
        o.params = truthKeys();
        o.folds = 0;
        const study::CalibrationResult r = study::calibrate(sample(), test::bundledCatalog(), set, o);
        QVERIFY2(r.ok(), (r.error + "\n" + issueLines(r.issues)).c_str());
    }
};

QTEST_GUILESS_MAIN(TestCalibration)
#include "tst_calibration.moc"
