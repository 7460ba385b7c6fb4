// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#pragma once

#include "evaluation.h"
#include "explaininputs.h"

#include "model/catalog.h"
#include "model/scenario.h"

#include <optional>
#include <string>
#include <vector>

namespace gp::calc {

/// How one KPI of one plan came about (docs/workbench.md, "Explain a number"): its formula
/// with this plan's values substituted, the terms or jobs behind it, the assumptions and prices
/// it rests on and how far the model is known to be off.
struct KpiExplanation
{
    std::string key;
    std::string label;
    std::string value;               ///< as the card shows it
    std::string formula;             ///< in words, with this plan's values put in
    std::vector<std::string> lines;  ///< the terms, or the jobs responsible, most important first
    std::vector<std::string> jobIds; ///< the jobs responsible (to show them on the canvas)
    /// Keys of the registered assumptions the calculation read for this value (explaininputs.h),
    /// in the registry's order: the knobs that change it, and only those.
    std::vector<std::string> assumptions;
    std::vector<PriceUsed> prices; ///< a dollar figure's GPU prices, per GPU model
    std::string errorBand;         ///< the model's measured error for this figure (docs/validation.md)
    /// The scenario's calibration profile ("NAME vN", "" for none) and, one line each, its values
    /// this figure read instead of the defaults ("KEY = VALUE (default D)"): which numbers are
    /// calibrated (docs/calibration.md#a-scenarios-profile).
    std::string calibration;
    std::vector<std::string> calibrated;
};

/// The explanation of KPI `key` (calc/kpiregistry.h) for `evaluation` of `scenario`; the P95
/// comes from the plan's Monte Carlo, passed when known. Unknown keys give an empty formula.
KpiExplanation explainKpi(const std::string& key, const Scenario& scenario, const Catalog& catalog,
                          const Evaluation& evaluation, std::optional<double> p95Days = std::nullopt);

/// How one job's figure came about, in the same shape as a KPI's: `figure` is "penalty" (its
/// step against bare metal, by resource, its noisiest neighbour, its tenant's SLA) or "cost"
/// (its GPU share at the cluster's prices, and over its whole run). Unknown figures or jobs
/// give an empty formula.
KpiExplanation explainJob(const std::string& figure, const std::string& jobId, const Scenario& scenario,
                          const Catalog& catalog, const Evaluation& evaluation);

/// What one GPU holds, in the same shape: its memory in use as the sum of its jobs' memory
/// against what it offers, how it is shared, each job on it with its slot and penalty, the
/// out-of-memory risk and what the GPU costs. An unknown node or GPU gives an empty formula.
KpiExplanation explainGpu(const std::string& nodeId, int gpu, const Scenario& scenario, const Catalog& catalog,
                          const Evaluation& evaluation);

/// Why a placed job misses its tenant's SLA, in words ("penalty 321.1 % against the 5.0 %
/// allowed: bare metal would be 4.2× faster; most of it memory bandwidth …"); empty when it
/// meets it.
std::string slaMissReason(const JobResult& job, const Scenario& scenario);

} // namespace gp::calc
