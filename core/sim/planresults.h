// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#pragma once

#include "calc/alternatives.h"
#include "calc/evaluation.h"
#include "calc/kpiregistry.h"
#include "model/catalog.h"
#include "model/scenario.h"
#include "simulation.h"
#include "timeline.h"

#include <atomic>
#include <map>
#include <memory>
#include <optional>
#include <vector>

namespace gp::sim {

/// How many Monte Carlo trials each purpose uses, defined once (docs/architecture.md §4), so
/// that the same plan shows the same P95 on every screen, page, slide and comparison.
struct TrialCounts
{
    /// The plan's own Monte Carlo (CPU, seed 1): the P95 the workbench shows after each edit,
    /// and the one its report, slides, comparison and exports show; the CLI's report and
    /// compare default to it.
    static constexpr int kPlan = 1000;
    /// Each sharing mode's chosen setting in the trade-off matrix (six or more simulations).
    static constexpr int kAlternative = 256;
    /// "Run Full Simulation" of the completion chart (the fastest backend).
    static constexpr int kFull = 10000;
};

/// Everything the workbench computes for one plan, immutable once made: the evaluation, the
/// plan's Monte Carlo (TrialCounts::kPlan), the timeline, and the sharing trade-off matrix
/// (null until it is computed: it costs one evaluation per setting). `scenario` is the one the
/// numbers belong to.
struct PlanResults
{
    std::shared_ptr<const Scenario> scenario;
    std::shared_ptr<const calc::Evaluation> evaluation;
    std::shared_ptr<const SimulationResult> simulation;
    std::shared_ptr<const TimelineResult> timeline;
    std::shared_ptr<const std::vector<calc::SharingAlternative>> alternatives;
    double timelineHorizonDays = 30.0;
    /// A full Monte Carlo a user asked for (TrialCounts::kFull, the fastest backend): the
    /// completion chart shows it instead of `simulation`; every KPI stays the plan's own.
    std::shared_ptr<const SimulationResult> fullSimulation;

    bool complete() const { return scenario && evaluation && simulation && timeline && alternatives; }
};

/// Every KPI of calc::kpiRegistry() by key, the P95 completion included when the plan was
/// simulated: what the cards, the report, the slides, the comparison and the CSV show.
std::map<std::string, double> kpiValues(const calc::Evaluation& evaluation, const SimulationResult* simulation);
std::map<std::string, double> kpiValues(const PlanResults& results);

/// The plan's Monte Carlo as every screen runs it (CPU, seed 1); `trials` differs from
/// TrialCounts::kPlan only where a user asks for it (`gpuplan-cli report --trials`).
SimulationResult planSimulation(const Scenario& scenario, const Catalog& catalog, const calc::Evaluation& evaluation,
                                int trials = TrialCounts::kPlan);

/// Evaluation, plan simulation and timeline (the first, quick part of the results).
PlanResults computeCoreResults(std::shared_ptr<const Scenario> scenario, const Catalog& catalog,
                               double timelineHorizonDays = 30.0, int trials = TrialCounts::kPlan);
/// The trade-off matrix with each mode's P95 (TrialCounts::kAlternative); nullopt when
/// `stop` was set before it finished.
std::optional<std::vector<calc::SharingAlternative>> computeAlternatives(const Scenario& scenario,
                                                                         const Catalog& catalog,
                                                                         const std::atomic<bool>* stop = nullptr);
/// All of it (the report, a comparison, the CLI); nullopt when `stop` was set.
std::optional<PlanResults> computePlanResults(const Scenario& scenario, const Catalog& catalog,
                                              const std::atomic<bool>* stop = nullptr,
                                              double timelineHorizonDays = 30.0, int trials = TrialCounts::kPlan);

} // namespace gp::sim
