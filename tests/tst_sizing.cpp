// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
// Sizing (study/sizing.h): the sized cluster hosts every job within its SLA and keeps the headroom
// free, and is minimal — removing any one of its nodes breaks an SLA, leaves a job unplaced or
// takes the headroom; the cheapest candidate wins; growth gives a capacity curve; every
// constraint that binds is said.
#include "calc/evaluate.h"
#include "io/scenarioreader.h"
#include "study/sizing.h"
#include "testsupport.h"

#include <QTest>

#include <algorithm>

using namespace gp;
using namespace gp::study;

namespace {

Scenario sample(int index)
{
    const QString file = test::sampleFiles().at(index);
    auto r = io::readScenarioFile(file, test::bundledCatalog());
    if (!r.ok())
        qFatal("%s does not load", qPrintable(file));
    return *r.value;
}

/// The scenario without node `id` and its links.
Scenario without(Scenario s, const std::string& id)
{
    std::erase_if(s.topology.nodes, [&](const Node& n) { return n.id == id; });
    std::erase_if(s.topology.links, [&](const Link& l) { return l.from == id || l.to == id; });
    return s;
}

} // namespace

class TestSizing : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    /// The first sample on DGX H100s: the sized scenario hosts everything within SLA, and
    /// taking away any one of its nodes breaks that.
    void sizedClusterIsMinimal()
    {
        const Scenario s = sample(0);
        const Result<SizingResult> r = sizeCluster(s, test::bundledCatalog(), {{"dgx-h100"}, {}, 0});
        QVERIFY2(r.ok(), r.errorText().c_str());
        const SizingResult& sized = *r.value;
        QCOMPARE(sized.nodeTemplate, std::string("dgx-h100"));
        QCOMPARE(static_cast<int>(sized.sized.topology.nodes.size()), sized.nodes);
        QVERIFY(checkHosting(sized.sized, test::bundledCatalog(), 10.0).hosts); // the default headroom
        const calc::Evaluation ev = calc::evaluate(sized.sized, test::bundledCatalog());
        QCOMPARE(ev.kpis.costPerMonthUsd, sized.costPerMonthUsd);
        QCOMPARE(ev.kpis.allocationRatio, sized.allocationRatio);
        QVERIFY(sized.allocationRatio <= 0.9 + 1e-9);
        int jobs = 0;
        for (const Tenant& t : sized.sized.tenants)
            for (const Job& j : t.jobs) {
                QVERIFY(!j.pin); // placed by the plan's policy, not where they were pinned
                ++jobs;
            }
        QCOMPARE(jobs, 5);
        for (const Node& n : sized.sized.topology.nodes) {
            const HostCheck c = checkHosting(without(sized.sized, n.id), test::bundledCatalog(), 10.0);
            QVERIFY2(!c.hosts, qPrintable(QString::fromStdString("without " + n.id + " it still hosts everything")));
            QVERIFY(!c.why.empty());
        }
    }

    /// Several templates: each gets its own count; the cheapest priced one is chosen; a GPU the
    /// pricing does not price is said, not taken as free.
    void cheapestCandidateWins()
    {
        const Scenario s = sample(1);
        const Result<SizingResult> r =
            sizeCluster(s, test::bundledCatalog(), {{"dgx-h100", "dgx-a100-640gb", "dgx-h200"}, {}, 0});
        QVERIFY2(r.ok(), r.errorText().c_str());
        QCOMPARE(r.value->candidates.size(), std::size_t{3});
        double cheapest = 1e300;
        for (const SizedTemplate& c : r.value->candidates) {
            if (c.nodes && c.costPerMonthUsd)
                cheapest = std::min(cheapest, *c.costPerMonthUsd);
            if (c.nodes && !c.costPerMonthUsd)
                QVERIFY2(QString::fromStdString(c.why).startsWith("no price for "), c.why.c_str());
        }
        QCOMPARE(r.value->costPerMonthUsd, cheapest);
        for (const SizedTemplate& c : r.value->candidates)
            if (c.nodeTemplate == r.value->nodeTemplate)
                QCOMPARE(*c.nodes, r.value->nodes);
    }

    /// A mix of two templates wins where it costs less than any one: the mixed lab's Mixtral needs
    /// NVLink pairs (DGX H100), the rest runs on cheaper L40S nodes. The mix hosts everything
    /// within SLA and is minimal: without any one of its nodes some job is unplaced or outside
    /// its SLA.
    void aCheaperMixWins()
    {
        const Scenario s = sample(1);
        const Result<SizingResult> r = sizeCluster(s, test::bundledCatalog(), {{"dgx-h100", "pcie-l40s-8"}, {}, 0});
        QVERIFY2(r.ok(), r.errorText().c_str());
        const SizingResult& sized = *r.value;
        QCOMPARE(sized.mix.size(), std::size_t{2});
        QCOMPARE(sized.mix[0].first, std::string("dgx-h100"));
        QCOMPARE(sized.mix[1].first, std::string("pcie-l40s-8"));
        QCOMPARE(sized.nodeTemplate, std::string("dgx-h100+pcie-l40s-8"));
        QCOMPARE(sized.nodes, sized.mix[0].second + sized.mix[1].second);
        QCOMPARE(static_cast<int>(sized.sized.topology.nodes.size()), sized.nodes);
        double cheapestSingle = 1e300;
        for (const SizedTemplate& c : sized.candidates)
            if (c.nodes && c.costPerMonthUsd)
                cheapestSingle = std::min(cheapestSingle, *c.costPerMonthUsd);
        QVERIFY(sized.costPerMonthUsd < cheapestSingle);
        QCOMPARE(calc::evaluate(sized.sized, test::bundledCatalog()).kpis.costPerMonthUsd, sized.costPerMonthUsd);
        QVERIFY(checkHosting(sized.sized, test::bundledCatalog(), 10.0).hosts);
        for (const Node& n : sized.sized.topology.nodes)
            QVERIFY2(!checkHosting(without(sized.sized, n.id), test::bundledCatalog(), 10.0).hosts,
                     qPrintable(QString::fromStdString("without " + n.id + " the mix still hosts everything")));
    }

    /// Growth: the jobs and the nodes they need grow month by month; the month the scenario's
    /// own cluster runs out is the first it does not host.
    void growthGivesACapacityCurve()
    {
        const Scenario s = sample(0);
        SizingRequest request{{"dgx-h100"}, {{"acme", 40.0}, {"chatco", 25.0}}, 6};
        const Result<SizingResult> r = sizeCluster(s, test::bundledCatalog(), request);
        QVERIFY2(r.ok(), r.errorText().c_str());
        const auto& months = r.value->months;
        QCOMPARE(months.size(), std::size_t{7});
        QCOMPARE(months.front().nodes.value_or(-1), r.value->nodes);
        for (std::size_t m = 1; m < months.size(); ++m) {
            QVERIFY(months[m].jobs >= months[m - 1].jobs);
            QVERIFY(months[m].nodes);
        }
        QVERIFY(months.back().jobs > months.front().jobs);
        QVERIFY(*months.back().nodes > *months.front().nodes);
        // acme's 2 jobs grow 40 % a month: ceil(2 × 1.4^6) = 16 by month 6.
        const Scenario grown = grownLoad(s, request.growthPct, 6);
        QCOMPARE(static_cast<int>(grown.findTenant("acme")->jobs.size()), 16);
        QCOMPARE(grown.findTenant("frontier")->jobs.size(), s.findTenant("frontier")->jobs.size());
        if (r.value->currentRunsOutMonth) {
            const int out = *r.value->currentRunsOutMonth;
            QVERIFY(!months[static_cast<std::size_t>(out)].currentHosts);
            for (int m = 0; m < out; ++m)
                QVERIFY(months[static_cast<std::size_t>(m)].currentHosts);
        }
    }

    /// The headroom (issue 36, default 10 %): sizing adds nodes until at most 90 % of the GPUs are
    /// allocated. The 250-node sample's jobs fill 190 DGX H100s to the last GPU with no headroom;
    /// with the default the sized cluster keeps at least 10 % of its GPUs free, and one node
    /// fewer would not.
    void theHeadroomAddsNodes()
    {
        const Scenario s = sample(3);
        SizingRequest request{{"dgx-h100"}, {}, 0};
        request.headroomPct = 0.0;
        const Result<SizingResult> full = sizeCluster(s, test::bundledCatalog(), request);
        QVERIFY2(full.ok(), full.errorText().c_str());
        const Result<SizingResult> kept = sizeCluster(s, test::bundledCatalog(), {{"dgx-h100"}, {}, 0});
        QVERIFY2(kept.ok(), kept.errorText().c_str());
        QVERIFY(kept.value->nodes > full.value->nodes);
        QVERIFY2(kept.value->allocationRatio <= 0.9 + 1e-9, qPrintable(QString::number(kept.value->allocationRatio)));
        const HostCheck fewer = checkHosting(without(kept.value->sized, kept.value->sized.topology.nodes.back().id),
                                             test::bundledCatalog(), 10.0);
        QVERIFY(!fewer.hosts);
        QVERIFY2(QString::fromStdString(fewer.why).contains("headroom"), fewer.why.c_str());
        qInfo("250-node sample on DGX H100: %d nodes with no headroom (%.1f %% free), %d with 10 %% (%.1f %% free)",
              full.value->nodes, 100.0 * (1.0 - full.value->allocationRatio), kept.value->nodes,
              100.0 * (1.0 - kept.value->allocationRatio));
        request.headroomPct = 95.0;
        const Result<SizingResult> absurd = sizeCluster(s, test::bundledCatalog(), request);
        QVERIFY(!absurd.ok());
        QVERIFY2(absurd.errorText().find("between 0 and 90") != std::string::npos, absurd.errorText().c_str());
    }

    /// Every constraint that binds is said, with where and by how much.
    void refusalsSayWhatBinds()
    {
        const Catalog& c = test::bundledCatalog();
        const Scenario s = sample(0);
        auto refusal = [&](const SizingRequest& q) {
            const Result<SizingResult> r = sizeCluster(s, c, q);
            return r.ok() ? std::string() : r.errorText();
        };
        QVERIFY(refusal({{}, {}, 0}).find("give at least one node template") != std::string::npos);
        QVERIFY(refusal({{"nope"}, {}, 0}).find("no node template 'nope'") != std::string::npos);
        QVERIFY(refusal({{"dgx-h100"}, {{"acme", -5.0}}, 3}).find("between 0 and 1,000") != std::string::npos);
        QVERIFY(refusal({{"dgx-h100"}, {{"acme", 5000.0}}, 3}).find("between 0 and 1,000") != std::string::npos);
        QVERIFY(refusal({{"dgx-h100"}, {{"ghost", 5.0}}, 3}).find("no tenant has this id") != std::string::npos);
        QVERIFY(refusal({{"dgx-h100"}, {}, 500}).find("between 0 and 120") != std::string::npos);
        // A deadline no number of A100 nodes meets: the job, its time and the deadline.
        const std::string a100 = refusal({{"dgx-a100-640gb"}, {}, 0});
        QVERIFY2(a100.find("past its tenant's deadline") != std::string::npos, a100.c_str());
    }
};

QTEST_GUILESS_MAIN(TestSizing)
#include "tst_sizing.moc"
