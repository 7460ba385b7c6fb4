// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
// The index of free capacity by node state (calc/nodestates.h) places every job where the
// node-by-node scan does, for best-fit and fragmentation-aware placement, on random clusters and
// job mixes; and the fragmentation measure's fast form agrees with its definition.
#include "bench/scenariogenerator.h"
#include "calc/fabricindex.h"
#include "calc/fragmentation.h"
#include "calc/placement.h"
#include "calc/slots.h"
#include "model/units.h"
#include "testsupport.h"

#include <QTest>

#include <random>

using namespace gp;
using namespace gp::calc;

namespace {

/// One to six task shapes (CPU-only, one GPU or a TP group) of small demands, as typical shapes.
std::vector<frag::Shape> randomShapes(std::mt19937& rng)
{
    std::vector<frag::Shape> shapes;
    const int kinds = 1 + static_cast<int>(rng() % 6);
    for (int k = 0; k < kinds; ++k)
        shapes.push_back({std::array{0, 1, 1, 2, 4, 8}[rng() % 6], static_cast<double>(1 + rng() % 10),
                          static_cast<double>(1 + rng() % 5)});
    return frag::typicalShapes(shapes, 1.0);
}

/// A node of one to eight GPUs in NVLink domains of 1–8, each with up to three free places of
/// random share and capacity, most with peer access.
std::vector<frag::Place> randomPlaces(std::mt19937& rng)
{
    std::vector<frag::Place> places;
    const int gpus = 1 + static_cast<int>(rng() % 8), domain = std::array{1, 2, 4, 8}[rng() % 4];
    for (int g = 0; g < gpus; ++g)
        for (int k = 0, n = 1 + static_cast<int>(rng() % 3); k < n; ++k)
            if (rng() % 4 != 0)
                places.push_back(
                    {g, g / domain, 0.25 * (1 + rng() % 4), static_cast<double>(rng() % 12), rng() % 5 != 0});
    return places;
}

} // namespace

class TestPlacementIndex : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void indexedSearchPlacesLikeTheScan()
    {
        const Catalog& cat = test::bundledCatalog();
        int compared = 0, placedSomewhere = 0;
        for (unsigned seed = 1; seed <= 12; ++seed) {
            std::mt19937 rng(seed);
            const int nodes = 8 + static_cast<int>(rng() % 40);
            const Scenario s = bench::generateCluster(cat, nodes, 4, 6, seed);
            const std::vector<Slot> slots = buildSlots(s, cat);
            const FabricIndex fabric = FabricIndex::build(s.topology);
            // A random mix: sizes drawn from a few values (shapes repeat, as in real mixes) and
            // from a continuum, TP 1–8, several groups, now and then a pin.
            std::vector<JobDemand> demands;
            const double sizes[] = {5 * kGiB, 9.5 * kGiB, 19 * kGiB, 38 * kGiB, 70 * kGiB};
            const int jobs = 2 * nodes + static_cast<int>(rng() % (6 * nodes));
            for (int j = 0; j < jobs; ++j) {
                JobDemand d;
                d.job = j;
                d.tp = std::array{1, 1, 1, 2, 4, 8}[rng() % 6];
                d.groups = 1 + static_cast<int>(rng() % 3);
                d.bytesPerUnit = rng() % 3 == 0 ? (1 + rng() % 75) * kGiB : sizes[rng() % 5];
                if (rng() % 17 == 0)
                    d.pin = Pin{s.topology.nodes[rng() % s.topology.nodes.size()].id, std::nullopt, std::nullopt};
                demands.push_back(d);
            }
            // Some slots already held (the timeline places queues around running jobs).
            std::vector<int> held(slots.size(), -1);
            for (std::size_t i = 0; i < slots.size(); ++i)
                held[i] = rng() % 9 == 0 ? 0 : -1;
            for (PlacementPolicy policy : {PlacementPolicy::BestFit, PlacementPolicy::FragmentationAware})
                for (const std::vector<int>* h : std::array<const std::vector<int>*, 2>{nullptr, &held}) {
                    const PlacementOutcome indexed =
                        placeJobs(s, cat, fabric, slots, demands, policy, h, PlacementSearch::Indexed);
                    const PlacementOutcome scan =
                        placeJobs(s, cat, fabric, slots, demands, policy, h, PlacementSearch::Scan);
                    QCOMPARE(indexed.owner, scan.owner);
                    for (std::size_t j = 0; j < demands.size(); ++j) {
                        QCOMPARE(indexed.jobs[j].placed, scan.jobs[j].placed);
                        QCOMPARE(indexed.jobs[j].slots, scan.jobs[j].slots);
                        placedSomewhere += indexed.jobs[j].placed ? 1 : 0;
                    }
                    ++compared;
                }
        }
        QCOMPARE(compared, 48);
        QVERIFY(placedSomewhere > 1000); // the comparison covers real placements, not only failures
    }

    /// The measure's fast form (per TP degree, O(places × log shapes)) equals the weighted sum
    /// of unusableShare over the shapes, on random nodes.
    void measureEqualsItsDefinition()
    {
        std::mt19937 rng(7);
        for (int trial = 0; trial < 400; ++trial) {
            const std::vector<frag::Shape> shapes = randomShapes(rng);
            const std::vector<frag::Place> places = randomPlaces(rng);
            double expected = 0.0;
            for (const frag::Shape& sh : shapes)
                expected += sh.weight * frag::unusableShare(places.data(), places.size(), sh.gpus, sh.demand);
            QVERIFY2(std::abs(frag::Measure(shapes).of(places.data(), places.size()) - expected) < 1e-9,
                     qPrintable(QString("trial %1").arg(trial)));
        }
    }

    /// The change form (one GPU's places replaced; the rest of its domain re-weighed only where a
    /// TP bound moves) equals the difference of the full measure after and before, on random
    /// nodes and random changes: shares taken, capacities lowered, places gone or peer access lost.
    void measureChangeEqualsTheDifference()
    {
        std::mt19937 rng(11);
        int compared = 0;
        for (int trial = 0; trial < 600; ++trial) {
            const frag::Measure measure(randomShapes(rng));
            const std::vector<frag::Place> places = randomPlaces(rng);
            if (places.empty())
                continue;
            const int gpu = places[rng() % places.size()].gpu;
            std::vector<frag::Place> after, whole;
            for (const frag::Place& p : places)
                if (p.gpu == gpu) {
                    frag::Place q = p;
                    q.capacity -= static_cast<double>(rng() % 6);
                    q.share -= rng() % 2 == 0 ? 0.25 : 0.0;
                    if (q.share > 0.0 && rng() % 6 != 0)
                        after.push_back(q);
                } else {
                    whole.push_back(p);
                }
            whole.insert(whole.end(), after.begin(), after.end());
            const double expected = measure.of(whole.data(), whole.size()) - measure.of(places.data(), places.size());
            const double got = measure.change(places.data(), places.size(), gpu, after.data(), after.size());
            QVERIFY2(std::abs(got - expected) < 1e-9,
                     qPrintable(QString("trial %1: change %2, difference %3").arg(trial).arg(got).arg(expected)));
            compared += after.empty() ? 0 : 1;
        }
        QVERIFY(compared > 100); // most trials keep some of the GPU's places
    }

    /// The artifact's classes on one node: a shape the node cannot host sees every free share
    /// as fragment, one it hosts only the places too small for it; CPU-only shapes see all.
    void unusableShareFollowsTheArtifactsClasses()
    {
        const std::vector<frag::Place> places = {
            {0, 0, 1.0, 1000, true}, {1, 0, 0.4, 400, true}, {2, 0, 1.0, 1000, true}};
        QCOMPARE(frag::unusableShare(places.data(), places.size(), 1, 500), 0.4);  // the 0.4 GPU is too small
        QCOMPARE(frag::unusableShare(places.data(), places.size(), 1, 300), 0.0);  // everything serves
        QCOMPARE(frag::unusableShare(places.data(), places.size(), 2, 1000), 0.4); // two whole GPUs free
        QCOMPARE(frag::unusableShare(places.data(), places.size(), 3, 1000), 2.4); // cannot host: all of it
        QCOMPARE(frag::unusableShare(places.data(), places.size(), 0, 0), 2.4);    // CPU-only
        // NVLink domains of one GPU each: no two GPUs gather for a TP-2 group.
        std::vector<frag::Place> split = places;
        for (frag::Place& p : split)
            p.domain = p.gpu;
        QCOMPARE(frag::unusableShare(split.data(), split.size(), 2, 1000), 2.4);
    }
};

QTEST_GUILESS_MAIN(TestPlacementIndex)
#include "tst_placementindex.moc"
