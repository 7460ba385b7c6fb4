// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#pragma once

// The mixture-of-experts tests' scenarios and jobs (tst_moe, tst_moerecipes).
#include "calc/evaluate.h"
#include "model/validation.h"
#include "testsupport.h"

#include <QStringList>

#include <string>

namespace gp::test::moe {

using namespace gp::calc;

inline const ModelArchitecture& preset(const char* id)
{
    const ModelPreset* m = test::bundledCatalog().model(id);
    if (!m)
        qFatal("no preset %s", id);
    return m->arch;
}

inline Scenario dgxH100(int nodes)
{
    const Catalog& c = test::bundledCatalog();
    const NodeTemplate* t = c.nodeTemplate("dgx-h100");
    Scenario s;
    s.name = "moe";
    for (int i = 0; i < nodes; ++i) {
        Node n;
        n.id = "n" + std::to_string(i);
        n.name = n.id;
        n.templateId = t->id;
        n.gpuId = t->gpuId;
        n.gpuCount = t->gpuCount;
        n.nics = {t->nicCount, t->nicSpeedGbps, t->gpudirectRdma};
        s.topology.nodes.push_back(n);
    }
    s.pricing.gpuHourUsd[t->gpuId] = 2.0;
    return s;
}

/// A pre-training job on `arch` (a custom copy of a preset with the benchmark's sequence).
inline Job training(const ModelArchitecture& arch, int tp, int pp, int dp, int ep, int micro, int global,
                    Precision precision)
{
    Job j;
    j.id = "train";
    j.name = "train";
    j.kind = JobKind::Pretraining;
    j.model.custom = arch;
    j.precision = precision;
    j.parallelism.tp = tp;
    j.parallelism.pp = pp;
    j.parallelism.dp = dp;
    j.parallelism.ep = ep;
    j.parallelism.zeroStage = 1; // Megatron's distributed optimizer
    j.batch = {micro, global};
    j.training = TrainingSpec{1e9, 60.0};
    return j;
}

inline Scenario with(Scenario s, const Job& j)
{
    Tenant t;
    t.id = "t";
    t.name = "t";
    t.jobs = {j};
    s.tenants.push_back(t);
    return s;
}

inline QStringList errors(const Scenario& s)
{
    QStringList out;
    for (const Issue& i : validateScenario(s, test::bundledCatalog()))
        if (i.isError())
            out << QString::fromStdString(i.toString());
    return out;
}

/// Not of a temporary: the result would dangle once the full expression ends.
inline const JobResult& only(const Evaluation&& ev) = delete;
inline const JobResult& only(const Evaluation& ev)
{
    if (ev.jobs.size() != 1 || !ev.jobs.front().placed)
        qFatal("expected one placed job: %s", ev.jobs.empty() ? "none" : ev.jobs.front().reason.c_str());
    return ev.jobs.front();
}

} // namespace gp::test::moe
