// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#pragma once

#include "evaluation.h"
#include "inventory.h"

#include "model/catalog.h"
#include "model/scenario.h"

#include <string>
#include <vector>

namespace gp::calc {

// What an explanation (kpiexplain.h) names as the inputs of one number: the registered
// assumptions the calculation read for it — from what evaluate() recorded per job
// (JobResult::memoryAssumptions, performanceAssumptions), never a fixed list that a plan's jobs
// may not read (issue 36) — and, for a dollar figure, the GPU prices it used.

/// A GPU price a dollar figure rests on: one GPU model, its price and where it comes from.
struct PriceUsed
{
    std::string gpuId;
    std::string gpuName; ///< the catalog's name ("H100 SXM 80GB"); the id where it has none
    GpuHourPrice price;
};

/// The assumptions KPI `key` of `evaluation` rests on, in the registry's order: for the KPIs
/// made of the jobs' figures, the union of what the calculation read for the jobs behind the
/// value — the placed jobs' memory (VRAM utilization) or performance (compute utilization, the
/// mean penalty, the waste's sharing overhead, SLA violations, serving SLO attainment), the
/// largest penalty's job (max penalty), the jobs not placed (their memory); for the others, the
/// registry's fixed list (KpiSpec::assumptions).
std::vector<std::string> assumptionsBehindKpi(const std::string& key, const Evaluation& evaluation);

/// What a job's figure rests on: "penalty" its performance assumptions (not placed: its
/// memory's, which decided that), "cost" none (a GPU share at a price: see pricesBehind).
std::vector<std::string> assumptionsBehindJob(const std::string& figure, const JobResult& job);

/// What the memory in use on one GPU rests on: the memory assumptions of the jobs on it.
std::vector<std::string> assumptionsBehindGpu(const std::string& nodeId, int gpu, const Evaluation& evaluation);

/// The prices of these GPU models under the scenario's pricing, each once, in the given order.
std::vector<PriceUsed> pricesBehind(const Scenario& scenario, const Catalog& catalog,
                                    const std::vector<std::string>& gpuIds);
/// The GPU models of the scenario's nodes, each once, sorted by id (what the bill is made of).
std::vector<std::string> gpuModelsOf(const Scenario& scenario);

/// "H100 SXM 80GB: $2.99/GPU-hour (price preset …)", or "… : no price (…)".
std::string priceText(const PriceUsed& price);

} // namespace gp::calc
