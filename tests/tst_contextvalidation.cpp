// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
// Issue 37's held-out predictions: rows of tests/data/validation/heldout/training.json that use
// context parallelism (and Llama 3.1 405B's 126 layers on uneven stages), written as scenarios
// by tests/data/validation/make_cp_scenarios.py and evaluated with the shipped catalog and
// default assumptions. Nothing was tuned to them; docs/validation.md ("Context parallelism and
// uneven stages") lists every error. The bound below is a guard against a model that breaks,
// not a claim of accuracy.
#include "calc/evaluate.h"
#include "calc/perfmodel.h"
#include "testsupport.h"

#include <QTest>

#include <cmath>
#include <optional>

using namespace gp;
using namespace gp::calc;

namespace {

struct Prediction
{
    JobResult job;
    Job spec;
    const GpuSpec* gpu = nullptr;
};

std::optional<Prediction> predict(const char* name)
{
    const std::optional<Scenario> s = test::validationRun(QString("cp/") + name);
    if (!s)
        return std::nullopt;
    const Evaluation ev = evaluate(*s, test::bundledCatalog());
    if (ev.jobs.size() != 1 || !ev.jobs.front().placed)
        return std::nullopt;
    return Prediction{ev.jobs.front(), s->tenants.front().jobs.front(),
                      test::bundledCatalog().gpu(s->topology.nodes.front().gpuId)};
}

} // namespace

class TestContextValidation : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

    /// Tokens per second per GPU (NeMo 24.07 performance summary; Megatron-Bridge 25.x) and model
    /// TFLOP/s per GPU (NeMo's long-sequence page), each against the published figure.
    void heldOutContextParallelRows_data()
    {
        QTest::addColumn<QString>("file");
        QTest::addColumn<bool>("tflops"); // the row publishes model TFLOP/s per GPU, else tokens/s/GPU
        QTest::addColumn<double>("measured");
        // The guard: 0.5 for the 8K rows; 0.7 for the long-sequence rows, which the model predicts
        // 49-62 % fast (docs/validation.md lists the suspects; nothing was tuned).
        QTest::addColumn<double>("band");
        QTest::newRow("303 NeMo 24.07 Llama 3 8B CP 2") << "nemo2407-llama3-8b-cp2" << false << 12273.0 << 0.5;
        QTest::newRow("304 NeMo 24.07 Llama 3 70B CP 2") << "nemo2407-llama3-70b-cp2" << false << 1524.0 << 0.5;
        QTest::newRow("038 Bridge Llama 3.1 405B CP 2, uneven stages")
            << "bridge-llama31-405b-cp2-stages" << false << 326.0 << 0.5;
        QTest::newRow("573 NeMo long-seq Llama 2 7B 32K CP 2")
            << "nemo-longseq-llama2-7b-32k-cp2" << true << 610.0 << 0.7;
        QTest::newRow("575 NeMo long-seq Llama 2 7B 131K CP 4")
            << "nemo-longseq-llama2-7b-131k-cp4" << true << 555.0 << 0.7;
        QTest::newRow("576 NeMo long-seq Llama 2 7B 262K CP 8")
            << "nemo-longseq-llama2-7b-262k-cp8" << true << 549.0 << 0.7;
    }
    void heldOutContextParallelRows()
    {
        QFETCH(QString, file);
        QFETCH(bool, tflops);
        QFETCH(double, measured);
        QFETCH(double, band);
        const std::optional<Prediction> p = predict(qPrintable(file));
        QVERIFY2(p, qPrintable(file));
        QVERIFY(p->spec.parallelism.cp > 1);
        const PerfResult& perf = p->job.perf;
        const double predicted = tflops ? perf.mfu * peakFlops(*p->gpu, p->spec.precision) / 1e12
                                        : perf.tokensPerS / p->spec.parallelism.gpus();
        const double error = predicted / measured - 1.0;
        const double cpShare = perf.breakdown.cpExposed / perf.stepTimeS;
        qInfo("%-34s predicted %8.1f, measured %8.1f %s, error %+6.1f %%; CP exposed %.1f %% of the step, ring over %s",
              qPrintable(file), predicted, measured, tflops ? "TFLOP/s/GPU" : "tokens/s/GPU", error * 100,
              cpShare * 100, p->job.cpLink.c_str());
        QVERIFY2(std::abs(error) <= band, qPrintable(QString::number(error)));
        QVERIFY(std::abs(perf.breakdown.total() - perf.stepTimeS) <= 1e-9 * perf.stepTimeS);
    }
};

QTEST_GUILESS_MAIN(TestContextValidation)
#include "tst_contextvalidation.moc"
