// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
// Calibration on published measurements (issue 38, deliverable 3; docs/calibration.md#published-
// measurements): one source's rows on one GPU (TensorRT-LLM v0.17's perf overview on the L40S, output
// tokens/s of the whole deployment, tests/data/validation/heldout/serving.json) are split in two by
// their place in the file; a profile fitted to the first half (each row one plan, as the validation
// harness builds it) lowers the error on the other half, which the fit never saw.
#include "io/jsonfile.h"
#include "io/scenarioreader.h"
#include "study/calibration.h"
#include "study/validationrows.h"
#include "testsupport.h"

#include <QDir>
#include <QJsonArray>
#include <QJsonDocument>
#include <QTest>

#include <cmath>

using namespace gp;

namespace {

constexpr const char* kSource = "trtllm-perf-overview-v0.17";
constexpr const char* kGpu = "l40s-48gb";

struct Rows
{
    std::vector<study::CalibrationCase> calibration, heldOut;
};

Rows splitRows()
{
    const Catalog& catalog = test::bundledCatalog();
    Issues issues;
    const auto bytes = io::readFileBytes(
        QDir(test::sourceDir()).absoluteFilePath("tests/data/validation/heldout/serving.json"), issues);
    const QJsonArray all = QJsonDocument::fromJson(*bytes).array();
    QJsonArray rows;
    for (const auto& v : all)
        if (v.toObject().value("source").toString() == kSource &&
            v.toObject().value("gpu_catalog_id").toString() == kGpu)
            rows.append(v);
    // The harness's own prediction says which rows it can predict and what was measured.
    const auto predicted = study::predictRows(rows, study::ValidationSplit{}, catalog);
    Rows out;
    int n = 0;
    for (const study::RowPrediction& p : predicted) {
        if (!p.predictedOk())
            continue;
        const auto json = study::scenarioForRow(rows[p.index].toObject(), true, catalog);
        const io::ScenarioReadResult s = io::readScenarioJson(*json, catalog);
        if (!s)
            continue;
        Measurement m;
        m.jobId = s->tenants.front().jobs.front().id;
        m.quantity = MeasuredQuantity::OutputTokensPerS;
        m.value = p.measured;
        m.source = p.id;
        study::CalibrationCase c{*s, {m}, p.id};
        (n++ % 2 == 0 ? out.calibration : out.heldOut).push_back(std::move(c));
    }
    return out;
}

/// Mean |predicted / measured − 1| of the cases, with `profile` applied or (null) the defaults.
double meanAbsError(const std::vector<study::CalibrationCase>& cases, const CalibrationProfile* profile)
{
    double sum = 0.0;
    int count = 0;
    for (const study::MeasurementFit& m : study::predictMeasurements(cases, test::bundledCatalog(), profile)) {
        const auto figure = profile ? m.after : m.before;
        if (!figure)
            continue;
        sum += std::abs(*figure / m.measurement.value - 1.0);
        ++count;
    }
    return count ? sum / count : NAN;
}

} // namespace

class TestCalibrationHeldOut : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void calibrationLowersTheHeldOutError()
    {
        const Rows rows = splitRows();
        QVERIFY2(rows.calibration.size() >= 10 && rows.heldOut.size() >= 10,
                 qPrintable(QString("%1 / %2 rows").arg(rows.calibration.size()).arg(rows.heldOut.size())));
        study::CalibrationOptions o;
        o.params = {std::string("gpu.") + kGpu, "stack.tensorrt-llm"};
        o.folds = 0;
        o.name = "l40s/tensorrt-llm";
        const study::CalibrationResult r = study::calibrate(rows.calibration, test::bundledCatalog(), o);
        QVERIFY2(r.ok(), (r.error + "\n" + issueLines(r.issues)).c_str());
        const double before = meanAbsError(rows.heldOut, nullptr);
        const double after = meanAbsError(rows.heldOut, &*r.profile);
        QString fitted;
        for (const CalibratedValue& v : r.profile->values)
            fitted += QString(" %1=%2").arg(v.key.c_str()).arg(v.value, 0, 'g', 4);
        qInfo(
            "%s on %s: fitted to %zu rows (mean |error| %.1f %% -> %.1f %%):%s; held out %zu rows: %.1f %% -> %.1f %%",
            kSource, kGpu, rows.calibration.size(), 100 * r.meanAbsErrorBefore, 100 * r.meanAbsErrorAfter,
            qPrintable(fitted), rows.heldOut.size(), 100 * before, 100 * after);
        QVERIFY(r.meanAbsErrorAfter < r.meanAbsErrorBefore);
        QVERIFY2(after < before, qPrintable(QString("held out %1 -> %2").arg(before).arg(after)));
    }
};

QTEST_GUILESS_MAIN(TestCalibrationHeldOut)
#include "tst_calibrationheldout.moc"
