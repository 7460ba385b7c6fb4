// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
// What the plan predicts for a measurement (issue 38, docs/measurements.md#what-is-compared): each
// quantity from the evaluated job's own figure, and no figure — with the reason — where the model
// has none (a training quantity of a serving job, a tail of the training step, an unplaced job).
#include "calc/evaluate.h"
#include "io/scenarioreader.h"
#include "study/measuredprediction.h"
#include "testsupport.h"

#include <QDir>
#include <QTest>

using namespace gp;

class TestMeasuredPrediction : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void eachQuantityFromItsFigure()
    {
        const Catalog& catalog = test::bundledCatalog();
        const Scenario s =
            *io::readScenarioFile(QDir(test::dataDir()).absoluteFilePath("samples/01-dgx-h100-three-tenants.json"),
                                  catalog)
                 .value;
        const calc::Evaluation e = calc::evaluate(s, catalog);
        int training = 0, serving = 0;
        for (const calc::JobResult& r : e.jobs) {
            const Job* j = s.findJob(r.id);
            QVERIFY(j);
            if (!r.placed)
                continue;
            std::string why;
            const auto memory =
                study::predictedFor(r, *j, catalog, MeasuredQuantity::MemoryGib, MeasuredStatistic::Max, &why);
            QVERIFY(memory && *memory > 0.0);
            if (r.serving) {
                ++serving;
                QCOMPARE(*study::predictedFor(r, *j, catalog, MeasuredQuantity::TtftMs, MeasuredStatistic::P99),
                         1000.0 * r.serving->ttftP99S);
                QCOMPARE(*study::predictedFor(r, *j, catalog, MeasuredQuantity::ItlMs, MeasuredStatistic::Mean),
                         1000.0 * r.serving->itlS);
                QCOMPARE(
                    *study::predictedFor(r, *j, catalog, MeasuredQuantity::OutputTokensPerS, MeasuredStatistic::Mean),
                    r.serving->outputTokensPerS);
                QVERIFY(
                    !study::predictedFor(r, *j, catalog, MeasuredQuantity::StepTimeS, MeasuredStatistic::Mean, &why));
                QVERIFY(why.find("training figure") != std::string::npos);
            } else if (j->training) {
                ++training;
                QCOMPARE(*study::predictedFor(r, *j, catalog, MeasuredQuantity::StepTimeS, MeasuredStatistic::Mean),
                         r.perf.stepTimeS);
                const auto tflops =
                    study::predictedFor(r, *j, catalog, MeasuredQuantity::TflopsPerGpu, MeasuredStatistic::Mean);
                QVERIFY(tflops && *tflops > 0.0 && *tflops < 2000.0);
                QVERIFY(
                    !study::predictedFor(r, *j, catalog, MeasuredQuantity::StepTimeS, MeasuredStatistic::P99, &why));
                QVERIFY(!study::predictedFor(r, *j, catalog, MeasuredQuantity::TtftMs, MeasuredStatistic::Mean, &why));
                QVERIFY(why.find("serving figure") != std::string::npos);
            }
        }
        QVERIFY(training > 0);
        QVERIFY(serving > 0);
    }

    void anUnplacedJobHasNoPrediction()
    {
        calc::JobResult r;
        r.placed = false;
        r.reason = "no free GPU";
        Job j;
        std::string why;
        QVERIFY(!study::predictedFor(r, j, test::bundledCatalog(), MeasuredQuantity::MemoryGib, MeasuredStatistic::Max,
                                     &why));
        QVERIFY(why.find("no free GPU") != std::string::npos);
    }
};

QTEST_GUILESS_MAIN(TestMeasuredPrediction)
#include "tst_measuredprediction.moc"
