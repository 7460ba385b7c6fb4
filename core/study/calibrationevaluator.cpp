// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#include "calibrationevaluator.h"

#include "measuredprediction.h"

#include "calc/evaluate.h"
#include "calc/parallel.h"

namespace gp::study {

std::vector<std::optional<double>> CalibrationEvaluator::predict(const std::vector<std::string>& keys,
                                                                 const std::vector<double>& values,
                                                                 const std::vector<bool>& caseMask,
                                                                 std::vector<std::string>* why) const
{
    // One catalog for every case (the parameters are shared by all plans); the assumptions and
    // the tenants' figures go into each plan's scenario, the GPU and stack figures into the
    // catalog once.
    Catalog catalog = mCatalog;
    std::vector<Scenario> scenarios;
    scenarios.reserve(mCases.size());
    for (const CalibrationCase& c : mCases)
        scenarios.push_back(c.scenario);
    Scenario scratch;
    for (std::size_t p = 0; p < keys.size(); ++p) {
        const auto k = CalibrationKey::parse(keys[p]);
        if (k && (k->scope == CalibrationScope::Assumption || k->scope == CalibrationScope::Tenant)) {
            for (Scenario& s : scenarios)
                (void)applyCalibratedValue(keys[p], values[p], s, catalog);
        } else {
            (void)applyCalibratedValue(keys[p], values[p], scratch, catalog);
        }
    }

    std::vector<calc::Evaluation> evaluations(mCases.size());
    calc::runParts(int(mCases.size()), [&](int c) {
        if (caseMask.empty() || caseMask[std::size_t(c)])
            evaluations[std::size_t(c)] = calc::evaluate(scenarios[std::size_t(c)], catalog);
    });
    std::vector<std::optional<double>> out(mUsed.size());
    if (why)
        why->assign(mUsed.size(), {});
    for (std::size_t i = 0; i < mUsed.size(); ++i) {
        const UsedMeasurement& u = mUsed[i];
        if (!caseMask.empty() && !caseMask[std::size_t(u.caseIndex)])
            continue;
        const CalibrationCase& c = mCases[std::size_t(u.caseIndex)];
        const Measurement& m = c.measurements[std::size_t(u.index)];
        const Job* job = c.scenario.findJob(m.jobId);
        const calc::Evaluation& ev = evaluations[std::size_t(u.caseIndex)];
        const calc::JobResult* r = nullptr;
        for (const calc::JobResult& jr : ev.jobs)
            if (jr.id == m.jobId)
                r = &jr;
        if (!job || !r) {
            if (why)
                (*why)[i] = "the plan has no result for job '" + m.jobId + "'";
            continue;
        }
        out[i] = predictedFor(*r, *job, catalog, m.quantity, m.statistic, why ? &(*why)[i] : nullptr);
    }
    return out;
}

} // namespace gp::study
