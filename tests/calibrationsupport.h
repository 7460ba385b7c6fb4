// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#pragma once

// Measurements made by gpuplan's own model with known parameters (the "true" cluster), for the
// calibration tests: the fit must find those parameters again.
#include "calc/evaluate.h"
#include "model/calibrationprofile.h"
#include "model/measurement.h"
#include "study/measuredprediction.h"
#include "testsupport.h"

#include <QtGlobal>

#include <random>
#include <string>
#include <utility>
#include <vector>

namespace gp::test {

/// What `scenario` predicts of each job with `values` applied: step time and memory of the
/// training jobs, output tokens/s, mean ITL and memory of the serving ones; each times
/// (1 + uniform noise in ±noise, seeded: the same on every run).
inline MeasurementSet syntheticMeasurements(Scenario s, const std::vector<std::pair<std::string, double>>& values,
                                            double noise)
{
    Catalog c = bundledCatalog();
    for (const auto& [k, v] : values)
        if (!applyCalibratedValue(k, v, s, c))
            qFatal("cannot apply %s", k.c_str());
    const calc::Evaluation ev = calc::evaluate(s, c);
    std::mt19937 rng(7);
    std::uniform_real_distribution<double> u(-noise, noise);
    MeasurementSet set;
    set.scenarioId = s.name;
    for (const calc::JobResult& r : ev.jobs) {
        const Job* j = s.findJob(r.id);
        std::vector<MeasuredQuantity> qs = {MeasuredQuantity::MemoryGib};
        if (r.serving)
            qs.insert(qs.end(), {MeasuredQuantity::OutputTokensPerS, MeasuredQuantity::ItlMs});
        else
            qs.push_back(MeasuredQuantity::StepTimeS);
        for (MeasuredQuantity q : qs) {
            const auto v = study::predictedFor(r, *j, c, q, MeasuredStatistic::Mean);
            if (!v)
                qFatal("no figure for %s", r.id.c_str());
            Measurement m;
            m.jobId = r.id;
            m.quantity = q;
            m.value = *v * (1.0 + u(rng));
            m.source = "synthetic:" + r.id + ":" + std::string(quantityName(q));
            set.items.push_back(m);
        }
    }
    return set;
}

} // namespace gp::test
