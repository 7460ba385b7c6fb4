// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
// Cost per million input and output tokens (issue 39, item 5): input and output priced by the
// engine time each phase takes, on the allocation and the used basis. Properties over
// generated plans: the two parts add up to the job's cost, used never exceeds allocated, a
// tenant's and the plan's figures are sums over their jobs; and an idle engine's tokens cost
// more on the allocation basis than on the used one.
#include "bench/scenariogenerator.h"
#include "calc/evaluate.h"
#include "io/scenarioreader.h"
#include "model/format.h"
#include "testsupport.h"

#include <QDir>
#include <QTest>

#include <cmath>
#include <map>

using namespace gp;
using namespace gp::calc;

namespace {

bool near(double a, double b) { return std::abs(a - b) <= 1e-9 * std::max({1.0, std::abs(a), std::abs(b)}); }

/// A plan with one serving tenant on sample 05 at `rate` requests/s per job.
Scenario sampleAt(double rate)
{
    Scenario s = *io::readScenarioFile(QDir(test::dataDir()).absoluteFilePath("samples/05-mig-inference-farm.json"),
                                       test::bundledCatalog())
                      .value;
    for (Tenant& t : s.tenants)
        for (Job& j : t.jobs)
            if (j.inference) {
                j.inference->load = ServingLoad::Open;
                j.inference->requestsPerS = rate;
            }
    return s;
}

} // namespace

class TestTokenCost : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void partsAddUpOverGeneratedPlans()
    {
        const Catalog& cat = test::bundledCatalog();
        int servingJobs = 0;
        for (unsigned seed = 1; seed <= 16; ++seed) {
            const Scenario s = bench::generateCluster(cat, 4 + static_cast<int>(seed % 5) * 4,
                                                      2 + static_cast<int>(seed % 3), 6, seed);
            const Evaluation ev = evaluate(s, cat);
            std::map<std::string, TokenCost> byTenant;
            TokenCost plan;
            bool any = false;
            for (const JobResult& j : ev.jobs) {
                QCOMPARE(j.tokenCost.has_value(), j.serving.has_value());
                if (!j.tokenCost)
                    continue;
                const TokenCost& c = *j.tokenCost;
                ++servingJobs;
                any = true;
                QVERIFY2(near(c.inputUsd + c.outputUsd, j.costPerMonthUsd), j.id.c_str());
                QVERIFY(c.inputUsd >= 0 && c.outputUsd >= 0);
                QVERIFY(c.inputUsedUsd >= 0 && c.outputUsedUsd >= 0);
                QVERIFY2(c.inputUsedUsd <= c.inputUsd * (1 + 1e-12) && c.outputUsedUsd <= c.outputUsd * (1 + 1e-12),
                         j.id.c_str());
                QVERIFY(c.inputUsedUsd + c.outputUsedUsd <= j.costPerMonthUsd - j.overheadPerMonthUsd + 1e-9);
                QVERIFY(c.inputTokensPerMonth >= 0 && c.outputTokensPerMonth >= 0);
                if (const auto m = c.outputPerMillion())
                    QVERIFY(near(*m, c.outputUsd / c.outputTokensPerMonth * 1e6));
                byTenant[j.tenant] += c;
                plan += c;
            }
            QCOMPARE(ev.kpis.tokenCost.has_value(), any);
            QCOMPARE(ev.tenantTokenCost.size(), byTenant.size());
            for (const auto& [tenant, c] : ev.tenantTokenCost) {
                QVERIFY2(byTenant.count(tenant), tenant.c_str());
                QVERIFY(near(c.inputUsd, byTenant[tenant].inputUsd));
                QVERIFY(near(c.outputTokensPerMonth, byTenant[tenant].outputTokensPerMonth));
            }
            if (ev.kpis.tokenCost) {
                QVERIFY(
                    near(ev.kpis.tokenCost->inputUsd + ev.kpis.tokenCost->outputUsd, plan.inputUsd + plan.outputUsd));
                QVERIFY(ev.kpis.tokenCost->inputUsd + ev.kpis.tokenCost->outputUsd <= ev.kpis.costPerMonthUsd + 1e-6);
            }
        }
        QVERIFY2(servingJobs >= 10, qPrintable(QString::number(servingJobs)));
    }

    /// Input tokens are priced by the prefill's share of engine time, not by their count: the
    /// same job with prompts four times longer spends more of its time on prefill, and its
    /// input tokens take a larger part of the cost.
    void inputIsPricedByPrefillTime()
    {
        const Evaluation a = evaluate(sampleAt(2.0), test::bundledCatalog());
        Scenario longer = sampleAt(2.0);
        for (Tenant& t : longer.tenants)
            for (Job& j : t.jobs)
                if (j.inference) {
                    j.inference->inputTokens = j.inference->promptTokens() * 4;
                    j.inference->contextTokens = j.inference->inputTokens + j.inference->outputTokens;
                }
        const Evaluation b = evaluate(longer, test::bundledCatalog());
        QVERIFY(a.jobs[0].tokenCost && b.jobs[0].tokenCost);
        QVERIFY2(a.jobs[0].placed && b.jobs[0].placed, b.jobs[0].reason.c_str());
        const double shareA = a.jobs[0].tokenCost->inputUsd / a.jobs[0].costPerMonthUsd;
        const double shareB = b.jobs[0].tokenCost->inputUsd / b.jobs[0].costPerMonthUsd;
        QVERIFY2(shareB > shareA, qPrintable(QString("%1 -> %2").arg(shareA).arg(shareB)));
        QVERIFY(near(shareA, a.jobs[0].serving->prefillBusy));
    }

    /// At a trickle of requests the engine is mostly idle: on the used basis a token costs a
    /// fraction of what the allocation charges, and the text says both.
    void anIdleEngineCostsLessOnTheUsedBasis()
    {
        const Evaluation ev = evaluate(sampleAt(0.01), test::bundledCatalog());
        const JobResult& j = ev.jobs[0];
        QVERIFY(j.serving && j.tokenCost);
        QVERIFY2(j.serving->engineBusy < 0.5, qPrintable(QString::number(j.serving->engineBusy)));
        QVERIFY(*j.tokenCost->outputPerMillionUsed() < 0.5 * *j.tokenCost->outputPerMillion());
        const std::string text = tokenCostText(*j.tokenCost);
        QVERIFY2(text.find("input $") != std::string::npos && text.find("(used: $") != std::string::npos, text.c_str());
        // No request at all: no token, no price, and nothing divided by zero.
        const Evaluation none = evaluate(sampleAt(0.0), test::bundledCatalog());
        QVERIFY(none.jobs[0].tokenCost);
        QVERIFY(!none.jobs[0].tokenCost->outputPerMillion());
        QCOMPARE(tokenCostText(*none.jobs[0].tokenCost).find("output –") != std::string::npos, true);
    }

    void pricesFormatWithCents()
    {
        QCOMPARE(fmt::usdPrice(1.4), std::string("$1.40"));
        QCOMPARE(fmt::usdPrice(0.1234), std::string("$0.123"));
        QCOMPARE(fmt::usdPrice(12.345), std::string("$12.35"));
        QCOMPARE(fmt::usdPrice(-0.0001), std::string("$0.000"));
    }
};

QTEST_GUILESS_MAIN(TestTokenCost)
#include "tst_tokencost.moc"
