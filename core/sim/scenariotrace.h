// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#pragma once

#include "model/catalog.h"
#include "model/scenario.h"
#include "model/trace.h"

#include <vector>

namespace gp::sim {

/// A scenario's cluster and job mix as a trace, for `gpuplan-cli replay --scenario FILE`
/// (docs/validation.md, "A scenario's own mix").
struct ScenarioTrace
{
    std::vector<TraceNode> nodes;
    std::vector<TraceTask> tasks;
};

/// Each node a trace node with its GPUs and GPU model, CPU and memory unbounded (a scenario
/// does not model them). Each job as tasks: a one-GPU job asks for the share of a GPU its
/// memory per GPU needs (⌈1,000 × memory per GPU / usable memory of the cluster's most common
/// GPU model⌉ milli-GPUs, 1 to 1,000); a job of several GPUs for them whole, in tasks of at most
/// the largest node's GPUs. Jobs whose model is unknown are left out.
ScenarioTrace traceOfScenario(const Scenario& scenario, const Catalog& catalog);

} // namespace gp::sim
