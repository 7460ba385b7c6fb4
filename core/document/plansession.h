// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#pragma once

#include "latestonly.h"

#include "calc/alternatives.h"
#include "model/catalog.h"
#include "model/scenario.h"
#include "sim/planresults.h"

#include <QObject>
#include <QPointer>
#include <QTimer>

#include <memory>
#include <vector>

namespace gp::document {

class Document;

/// The plan session (docs/architecture.md §4): beside the open document, it computes the
/// plan's sim::PlanResults off the GUI thread — evaluation, the plan's Monte Carlo and the
/// timeline first, then the trade-off matrix — and publishes them as one value through
/// resultsChanged. It follows the document it watches (as the autosaver does) and owns the
/// rule of what is re-evaluated: every change but a move of canvas items. Each request is
/// debounced and works on its own copy of the scenario; a newer request supersedes an older
/// one, whose result is dropped, never shown. Every view, the report, the slides and the
/// exports read the same results, so the same plan shows the same figures everywhere.
class PlanSession : public QObject
{
    Q_OBJECT

public:
    /// Waits after an edit before evaluating: a burst of edits is evaluated once.
    static constexpr int kDebounceMs = 150;

    explicit PlanSession(const Catalog& catalog, QObject* parent = nullptr);
    /// Stops the trade-off matrix early and waits for the background work, which reads the catalog.
    ~PlanSession() override;

    /// Follows `doc` from now on (null: none) and evaluates it.
    void watch(Document* doc);
    /// Evaluates the watched document again after `debounceMs` (an export that found the
    /// matrix dropped, a new timeline horizon).
    void refresh(int debounceMs = kDebounceMs);
    /// Asks for an evaluation of `scenario` after `debounceMs` without a newer request (what
    /// watch() and refresh() do for the document; a test or a headless caller without one).
    void request(const Scenario& scenario, int debounceMs = kDebounceMs);

    bool busy() const;
    /// An evaluation is running in the background now.
    bool evaluating() const { return mCore.running(); }
    /// How many finished evaluations were dropped because a newer request came meanwhile.
    int droppedResults() const { return mDropped; }
    /// Runs a full Monte Carlo (`trials`, the fastest backend) of the latest evaluated scenario;
    /// the results with it (PlanResults::fullSimulation) follow through resultsChanged, unless a
    /// newer edit supersedes it. False when there is nothing evaluated yet or a full run is
    /// under way.
    bool runFullSimulation(int trials);
    bool fullSimulationRunning() const { return mFull.running(); }
    /// The newest plan's results when they are complete and no newer request is pending or
    /// running; null otherwise (then resultsChanged follows once they are).
    std::shared_ptr<const sim::PlanResults> current() const;
    /// The newest results published, complete or not (the matrix may still be missing).
    std::shared_ptr<const sim::PlanResults> latest() const { return mLatest; }
    /// Days the timeline simulation covers (default 30); applies from the next request.
    void setTimelineHorizon(double days) { mHorizonDays = days; }
    double timelineHorizon() const { return mHorizonDays; }

Q_SIGNALS:
    /// The plan's results: partial first (evaluation, the plan's Monte Carlo and the timeline;
    /// PlanResults::complete() false), then complete with the trade-off matrix, and again with
    /// a full simulation asked for. `results->scenario` is the scenario these numbers belong to.
    void resultsChanged(std::shared_ptr<const gp::sim::PlanResults> results);

private:
    void start();
    void startAlternatives();
    void publish(sim::PlanResults results);

    const Catalog& mCatalog;
    QPointer<Document> mDocument;
    QTimer mTimer;
    std::shared_ptr<const Scenario> mPending;
    quint64 mGeneration = 0; ///< of the newest request
    int mDropped = 0;
    double mHorizonDays = 30.0;
    std::shared_ptr<const sim::PlanResults> mLatest; ///< the newest published
    quint64 mLatestGeneration = 0;
    LatestOnly<sim::PlanResults> mCore;
    std::shared_ptr<const Scenario> mRunningScenario;
    quint64 mRunningGeneration = 0;
    LatestOnly<std::vector<calc::SharingAlternative>> mAlternatives;
    std::shared_ptr<const Scenario> mAltPending; ///< the newest evaluated scenario still without its matrix
    quint64 mAltPendingGeneration = 0;
    quint64 mAltGeneration = 0;
    LatestOnly<std::shared_ptr<const sim::SimulationResult>> mFull;
};

} // namespace gp::document
