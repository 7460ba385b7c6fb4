// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#include "planresults.h"

#include "calc/evaluate.h"

#include <algorithm>

namespace gp::sim {

std::map<std::string, double> kpiValues(const calc::Evaluation& evaluation, const SimulationResult* simulation)
{
    std::map<std::string, double> values = calc::kpiValues(evaluation.kpis);
    if (simulation)
        values["p95_completion_days"] = simulation->clusterP95Days;
    return values;
}

std::map<std::string, double> kpiValues(const PlanResults& results)
{
    return kpiValues(*results.evaluation, results.simulation.get());
}

SimulationResult planSimulation(const Scenario& scenario, const Catalog& catalog, const calc::Evaluation& evaluation,
                                int trials)
{
    SimulationConfig config;
    config.trials = std::max(1, trials);
    config.seed = 1;
    config.backend = Backend::Cpu; // the same numbers on every machine
    return simulate(scenario, catalog, evaluation, config);
}

PlanResults computeCoreResults(std::shared_ptr<const Scenario> scenario, const Catalog& catalog, double horizonDays,
                               int trials)
{
    PlanResults r;
    r.scenario = std::move(scenario);
    r.timelineHorizonDays = horizonDays;
    r.evaluation = std::make_shared<const calc::Evaluation>(calc::evaluate(*r.scenario, catalog));
    r.simulation =
        std::make_shared<const SimulationResult>(planSimulation(*r.scenario, catalog, *r.evaluation, trials));
    TimelineConfig timeline;
    timeline.horizonDays = horizonDays;
    r.timeline = std::make_shared<const TimelineResult>(runTimeline(*r.scenario, catalog, *r.evaluation, timeline));
    return r;
}

std::optional<std::vector<calc::SharingAlternative>> computeAlternatives(const Scenario& scenario,
                                                                         const Catalog& catalog,
                                                                         const std::atomic<bool>* stop)
{
    std::vector<calc::SharingAlternative> alts = calc::compareSharing(scenario, catalog, stop);
    if (stop && stop->load())
        return std::nullopt;
    // The predictability row: each mode's chosen setting through the Monte Carlo.
    if (!simulateAlternatives(alts, catalog, TrialCounts::kAlternative, stop))
        return std::nullopt;
    return alts;
}

std::optional<PlanResults> computePlanResults(const Scenario& scenario, const Catalog& catalog,
                                              const std::atomic<bool>* stop, double horizonDays, int trials)
{
    PlanResults r = computeCoreResults(std::make_shared<const Scenario>(scenario), catalog, horizonDays, trials);
    if (stop && stop->load())
        return std::nullopt;
    auto alts = computeAlternatives(scenario, catalog, stop);
    if (!alts)
        return std::nullopt;
    r.alternatives = std::make_shared<const std::vector<calc::SharingAlternative>>(std::move(*alts));
    return r;
}

} // namespace gp::sim
