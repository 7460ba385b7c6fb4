// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
// Every prediction carries its error band (issue 37): the nearest held-out class of the shipped
// data/validation/error-bands.json, in evaluate --json and in the explain window, or why there is none;
// and gpuplan-cli validate-model refuses bad rows with the row and the field.
#include "calc/errorband.h"
#include "calc/evaluate.h"
#include "calc/kpiexplain.h"
#include "clirunner.h"
#include "io/scenarioreader.h"
#include "testsupport.h"
#include "ui/results/explaindialog.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QTemporaryDir>
#include <QTest>

using namespace gp;
using namespace gp::calc;
using namespace gp::test;

namespace {

ErrorBandClass band(const char* family, const char* kind, double sizeB, double error, const char* generation = "Hopper")
{
    ErrorBandClass c;
    c.metric = "step_time";
    c.generation = generation;
    c.family = family;
    c.parallelism = kind;
    c.sizeB = sizeB;
    c.meanAbsError = error;
    c.maxAbsError = error * 2;
    c.rows = 3;
    c.sources = {"somewhere"};
    return c;
}

Scenario firstSample()
{
    const io::ScenarioReadResult r = io::readScenarioFile(sampleFiles().front(), bundledCatalog());
    return r.ok() ? *r.value : Scenario{};
}

} // namespace

class TestErrorBand : public QObject
{
    Q_OBJECT

    QTemporaryDir mHome;

private Q_SLOTS:
    // The same family wins over a closer size of another; within a family, the closest size in log distance.
    void nearestClassPrefersFamilyThenSize()
    {
        const std::vector<ErrorBandClass> classes{
            band("fsdp", "dense-3d", 70, 0.30), band("megatron", "dense-3d", 8, 0.10),
            band("megatron", "dense-3d", 175, 0.20), band("megatron", "fully-sharded", 70, 0.40)};
        std::string reason;
        const ErrorBandClass* c =
            nearestErrorBandClass(classes, "step_time", "Hopper", "megatron", "dense-3d", 70, reason);
        QVERIFY(c);
        QCOMPARE(c->sizeB, 175.0); // ln(175/70) = 0.92 < ln(70/8) = 2.17
        QCOMPARE(c->family, std::string("megatron"));
        c = nearestErrorBandClass(classes, "step_time", "Hopper", "torchtitan", "dense-3d", 60, reason);
        QVERIFY(c); // no torchtitan class: the nearest of the others, said so by the caller
        QCOMPARE(c->sizeB, 70.0);
        QVERIFY(!nearestErrorBandClass(classes, "output_tokens_per_s", "Hopper", "megatron", "dense-3d", 70, reason));
    }

    // The family follows the job's software stack: its own, else its kind's default.
    void familyFollowsTheSoftwareStack()
    {
        Job j;
        j.kind = JobKind::Pretraining;
        QCOMPARE(softwareFamilyOf(j), std::string("megatron"));
        j.parallelism.fsdp = true;
        QCOMPARE(softwareFamilyOf(j), std::string("fsdp"));
        j.softwareStack = "torchtitan";
        QCOMPARE(softwareFamilyOf(j), std::string("torchtitan"));
        j.softwareStack = "nemo";
        QCOMPARE(softwareFamilyOf(j), std::string("megatron"));
        Job s;
        s.kind = JobKind::Inference;
        QCOMPARE(softwareFamilyOf(s), std::string("tensorrt-llm"));
        s.softwareStack = "vllm";
        QCOMPARE(softwareFamilyOf(s), std::string("vllm"));
    }

    void noClassIsNullWithReason()
    {
        const std::vector<ErrorBandClass> classes{band("megatron", "dense-3d", 70, 0.1)};
        std::string reason;
        QVERIFY(!nearestErrorBandClass(classes, "step_time", "Blackwell", "megatron", "moe-ep", 70, reason));
        QCOMPARE(reason, std::string("no held-out rows for Blackwell moe-ep training"));
        ErrorBand none;
        none.reason = reason;
        QCOMPARE(errorBandText(none), "not validated: " + reason);
        ErrorBand some;
        some.fraction = 0.123;
        some.className = "Hopper megatron dense-3d 70B";
        some.rows = 4;
        QCOMPARE(errorBandText(some),
                 std::string("± 12.3 % (held-out error, class Hopper megatron dense-3d 70B, 4 rows)"));
    }

    // evaluate --json: each job has error_band (the class's held-out mean |error|, or null) with its class
    // or the reason, from the shipped bands.
    void evaluateJsonCarriesTheBand()
    {
        QVERIFY(!bundledCatalog().errorBands.empty());
        const Run r = cli({"evaluate", sampleFiles().front(), "--json"}, mHome.path());
        QCOMPARE(r.code, 0);
        const Scenario s = firstSample();
        const Evaluation ev = evaluate(s, bundledCatalog());
        int banded = 0, unbanded = 0;
        for (const QJsonValue& v : QJsonDocument::fromJson(r.out.toUtf8()).object().value("jobs").toArray()) {
            const QJsonObject j = v.toObject();
            QVERIFY2(j.contains("error_band") && j.contains("error_band_reason") && j.contains("error_band_class"),
                     qPrintable(j.value("id").toString()));
            const std::string id = j.value("id").toString().toStdString();
            const auto result =
                std::find_if(ev.jobs.begin(), ev.jobs.end(), [&](const JobResult& x) { return x.id == id; });
            QVERIFY(result != ev.jobs.end());
            const ErrorBand expected = errorBandFor(*s.findJob(id), *result, bundledCatalog());
            if (expected.fraction) {
                ++banded;
                QCOMPARE(j.value("error_band").toDouble(), *expected.fraction);
                QVERIFY(*expected.fraction > 0.0 && *expected.fraction < 5.0);
                QCOMPARE(j.value("error_band_class").toString().toStdString(), expected.className);
                QVERIFY(j.value("error_band_reason").isNull());
                QVERIFY(j.value("error_band_rows").toInt() > 0);
            } else {
                ++unbanded;
                QVERIFY(j.value("error_band").isNull());
                QVERIFY(!j.value("error_band_reason").toString().isEmpty());
            }
            if (id == "frontier-70b") { // Hopper Megatron-style pre-training: held-out NeMo rows
                QVERIFY(expected.fraction);
                QVERIFY(expected.className.starts_with("Hopper megatron dense-3d"));
            }
            if (id == "chat-70b") // Hopper serving: held-out TensorRT-LLM v0.17 / v0.14 rows
                QVERIFY(expected.className.starts_with("Hopper tensorrt-llm dense-3d"));
            if (id == "acme-lora")
                QVERIFY(j.value("error_band_reason").toString().contains("LoRA"));
        }
        QVERIFY(banded >= 2 && unbanded >= 1);
    }

    // The explain window's penalty explanation shows the band beside the step time and the tokens/s.
    void explainShowsTheBand()
    {
        const Scenario s = firstSample();
        const Evaluation ev = evaluate(s, bundledCatalog());
        const auto has = [&](const char* job, const std::string& start, const std::string& part) {
            for (const std::string& line : explainJob("penalty", job, s, bundledCatalog(), ev).lines)
                if (line.starts_with(start) && line.find(part) != std::string::npos)
                    return true;
            return false;
        };
        QVERIFY(has("frontier-70b", "Step time ", "(held-out error, class Hopper megatron dense-3d"));
        QVERIFY(has("chat-70b", "Output tokens/s ", "(held-out error, class Hopper tensorrt-llm"));
        QVERIFY(has("acme-lora", "Step time ", "not validated: no held-out rows for LoRA"));
        // The explain window shows those lines as the user reads them.
        ui::ExplainDialog dialog(explainJob("penalty", "frontier-70b", s, bundledCatalog(), ev), s.assumptions);
        const QLabel* lines = dialog.findChild<QLabel*>("explainLines");
        QVERIFY(lines);
        QVERIFY2(lines->text().contains("held-out error, class Hopper megatron dense-3d") &&
                     lines->text().contains("Step time "),
                 qPrintable(lines->text()));
    }

    void validateModelRefusesBadRows()
    {
        QTemporaryDir tmp;
        const auto write = [&](const char* name, const QByteArray& json) {
            QFile f(tmp.filePath(name));
            f.open(QIODevice::WriteOnly);
            f.write(json);
            return tmp.filePath(name);
        };
        Run r = cli({"validate-model", write("object.json", "{\"rows\": []}")}, mHome.path());
        QCOMPARE(r.code, 2);
        QVERIFY2(r.err.contains("object.json: expected an array of rows"), qPrintable(r.err));
        r = cli({"validate-model", write("missing.json", "[{\"id\": \"x\", \"source\": \"s\", \"engine\": \"vLLM\"}]")},
                mHome.path());
        QCOMPARE(r.code, 2);
        QVERIFY2(r.err.contains("missing.json: [0].gpu_count: missing"), qPrintable(r.err));
        r = cli({"validate-model", sourceDir() + "/tests/data/validation/heldout/serving.json", "--split", "test"},
                mHome.path());
        QCOMPARE(r.code, 2);
        r = cli({"validate-model", "--help"}, mHome.path());
        QCOMPARE(r.code, 0);
        QVERIFY(r.out.contains("--split") && r.out.contains("--write-bands"));
    }

    // The report on one file: per-source lines for both splits and the skip reasons counted.
    void validateModelReportsPerSource()
    {
        const Run r = cli({"validate-model", sourceDir() + "/tests/data/validation/heldout/serving.json", "--json",
                           "--split", "heldout"},
                          mHome.path());
        QCOMPARE(r.code, 0);
        const QJsonObject o = QJsonDocument::fromJson(r.out.toUtf8()).object();
        QVERIFY(o.value("mean_abs_error_across_sources").toObject().contains("heldout"));
        QVERIFY(!o.value("mean_abs_error_across_sources").toObject().contains("calibration"));
        bool v017 = false;
        for (const QJsonValue& s : o.value("sources").toArray())
            v017 = v017 || s.toObject().value("source").toString() == "trtllm-perf-overview-v0.17";
        QVERIFY(v017);
        QVERIFY(o.value("skipped").toObject().value("needs feature: fp4 precision").toInt() > 0);
    }
};

QTEST_MAIN(TestErrorBand)
#include "tst_errorband.moc"
