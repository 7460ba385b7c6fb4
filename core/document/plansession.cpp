// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#include "plansession.h"

#include "document.h"
#include "sim/simulation.h"

namespace gp::document {

PlanSession::PlanSession(const Catalog& catalog, QObject* parent)
    : QObject(parent), mCatalog(catalog), mCore([this](std::optional<sim::PlanResults> out) {
          if (!out) {
              ++mDropped; // stale: a newer request came while this one ran
              if (mPending && !mTimer.isActive())
                  start(); // evaluate the newest now
              return;
          }
          mLatestGeneration = mRunningGeneration;
          mAltPending = mRunningScenario;
          mAltPendingGeneration = mRunningGeneration;
          publish(std::move(*out));
          startAlternatives();
      }),
      mAlternatives([this](std::optional<std::vector<calc::SharingAlternative>> alternatives) {
          if (!alternatives) {
              startAlternatives(); // a newer evaluation may be waiting for its matrix
              return;
          }
          if (mLatest && mLatestGeneration == mAltGeneration) {
              sim::PlanResults done = *mLatest;
              done.alternatives =
                  std::make_shared<const std::vector<calc::SharingAlternative>>(std::move(*alternatives));
              publish(std::move(done));
          }
      }),
      mFull([this](std::optional<std::shared_ptr<const sim::SimulationResult>> full) {
          if (!full || !mLatest)
              return;
          sim::PlanResults with = *mLatest;
          with.fullSimulation = std::move(*full);
          publish(std::move(with));
      })
{
    mTimer.setSingleShot(true);
    connect(&mTimer, &QTimer::timeout, this, &PlanSession::start);
}

PlanSession::~PlanSession() = default; // each LatestOnly stops its run and waits for it

void PlanSession::watch(Document* doc)
{
    if (mDocument)
        disconnect(mDocument, nullptr, this, nullptr);
    mDocument = doc;
    if (!doc)
        return;
    connect(doc, &Document::changed, this, [this](const Changes& changes) {
        if (!onlyMoves(changes)) // positions change nothing the plan computes
            refresh();
    });
    refresh(); // a new document is evaluated from the start
}

void PlanSession::refresh(int debounceMs)
{
    if (mDocument)
        request(mDocument->scenario(), debounceMs);
}

bool PlanSession::busy() const
{
    return mCore.running() || mAlternatives.running() || mFull.running() || mTimer.isActive();
}

std::shared_ptr<const sim::PlanResults> PlanSession::current() const
{
    if (!mLatest || !mLatest->complete() || mLatestGeneration != mGeneration)
        return nullptr;
    return mLatest;
}

void PlanSession::publish(sim::PlanResults results)
{
    mLatest = std::make_shared<const sim::PlanResults>(std::move(results));
    Q_EMIT resultsChanged(mLatest);
}

bool PlanSession::runFullSimulation(int trials)
{
    if (mFull.running() || !mLatest)
        return false;
    return mFull.start([scenario = mLatest->scenario, ev = mLatest->evaluation, catalog = &mCatalog,
                        trials](const std::atomic<bool>&) {
        sim::SimulationConfig full;
        full.trials = trials;
        full.backend = sim::Backend::Auto;
        return std::make_shared<const sim::SimulationResult>(sim::simulate(*scenario, *catalog, *ev, full));
    });
}

void PlanSession::startAlternatives()
{
    if (mAlternatives.running() || !mAltPending || mAltPendingGeneration != mGeneration)
        return;
    mAltGeneration = mAltPendingGeneration;
    mAlternatives.start([scenario = std::move(mAltPending), catalog = &mCatalog](const std::atomic<bool>& stop) {
        return sim::computeAlternatives(*scenario, *catalog, &stop).value_or(std::vector<calc::SharingAlternative>{});
    });
}

void PlanSession::request(const Scenario& scenario, int debounceMs)
{
    mPending = std::make_shared<const Scenario>(scenario);
    ++mGeneration;
    // What is running now is for an older scenario: its result is dropped, the matrix stops early.
    mCore.supersede();
    mAlternatives.supersede();
    mFull.supersede();
    mTimer.start(debounceMs);
}

void PlanSession::start()
{
    if (mCore.running() || !mPending)
        return; // the finished handler starts the newest request
    mRunningGeneration = mGeneration;
    mRunningScenario = std::move(mPending);
    mCore.start([scenario = mRunningScenario, catalog = &mCatalog, horizon = mHorizonDays](const std::atomic<bool>&) {
        return sim::computeCoreResults(scenario, *catalog, horizon);
    });
}

} // namespace gp::document
