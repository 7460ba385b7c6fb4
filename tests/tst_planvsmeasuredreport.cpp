// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
// gpuplan-cli report's "Plan vs measured" pages (issue 38; split from tst_planvsmeasured): check-plan's
// JSON against a REAL Prometheus (prometheusserver.h) read back into the same comparison, a
// measurements file beside it, the jobs' and the GPUs' tables continued over pages where they are
// long (flagged rows first, the rest counted), each PDF rendered and checked (pdfcheck.h); bad
// input refused naming the file, no report written.
#include "clirunner.h"
#include "pdfcheck.h"
#include "prometheusserver.h"
#include "testsupport.h"

#include "study/planvsmeasured.h"
#include "ui/figures/reportwriter.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>

using namespace gp;

namespace {

QString telemetryFixture(const QString& name) { return test::fixturesDir() + "/telemetry/" + name; }

} // namespace

class TestPlanVsMeasuredReport : public QObject
{
    Q_OBJECT

    test::PrometheusServer mServer;
    QTemporaryDir mTmp;

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(mTmp.isValid());
        QVERIFY2(mServer.start({telemetryFixture("recorded.prom"), telemetryFixture("derived.prom")},
                               {1755597600.0, 1755597600.0 + 7200.0, 30.0}),
                 qPrintable(mServer.error()));
    }

    void cliReportTakesAComparison()
    {
        const QString plan = telemetryFixture("plan.json");
        const test::Run check = test::cli({"check-plan", plan, "--prometheus", mServer.url(), "--from",
                                           "2025-08-19T10:00:00Z", "--to", "2025-08-19T12:00:00Z", "--json"},
                                          mTmp.path());
        QCOMPARE(check.code, 3);
        // check-plan's JSON reads back into the same comparison.
        const QJsonObject doc = QJsonDocument::fromJson(check.out.toUtf8()).object();
        std::string why;
        const auto back = study::planVsMeasuredFromJson(doc, &why);
        QVERIFY2(back, why.c_str());
        QCOMPARE(study::toJson(*back), doc);
        QJsonObject broken = doc;
        broken["jobs"] = QJsonArray{QJsonObject{{"job", "tensorflow"}, {"rows", 3}}};
        QVERIFY(!study::planVsMeasuredFromJson(broken, &why));
        QCOMPARE(why, std::string("jobs[0].rows: must be an array of rows"));
        const QString json = mTmp.filePath("check.json");
        QFile f(json);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(check.out.toUtf8());
        f.close();
        const QString measured = mTmp.filePath("measured-cli.json");
        QFile m(measured);
        QVERIFY(m.open(QIODevice::WriteOnly));
        m.write(R"({"format": "gpuplan-measurements", "format_version": 1, "measurements": [
            {"job": "tensorflow", "quantity": "memory_gib", "statistic": "max", "value": 21.0}]})");
        m.close();
        const QString pdf = mTmp.filePath("cli.pdf");
        const test::Run r =
            test::cli({"report", plan, "--check-plan", json, "--measurements", measured, "--trials", "200", "-o", pdf},
                      mTmp.path());
        QVERIFY2(r.code == 0, qPrintable(r.err));
        if (const QString dir = qEnvironmentVariable("GPUPLAN_SCREENSHOTS"); !dir.isEmpty()) {
            QFile::copy(pdf, dir + "/report-cli.pdf");
            QFile::copy(json, dir + "/check.json");
        }
        QCOMPARE(test::pdfPages(pdf), ui::kReportPages + 3); // the jobs', the GPUs' and the benchmarks' pages
        const QString text = test::pdfText(pdf);
        QVERIFY(text.contains("Plan vs measured: telemetry, jobs") && text.contains("Plan vs measured: benchmarks"));
        QVERIFY(test::pdfPageText(pdf, ui::kReportPages + 2).contains("gsrh100-074/0 MIG"));
        QVERIFY(text.contains("Measurements from measured-cli.json"));
        const QStringList problems = test::renderingProblems(pdf, true);
        QVERIFY2(problems.isEmpty(), qPrintable(problems.join('\n')));

        // Not check-plan's JSON, a bad measurement: exit 2 naming the file, no report written.
        const QString other = mTmp.filePath("other.pdf");
        const test::Run bad = test::cli({"report", plan, "--check-plan", measured, "-o", other}, mTmp.path());
        QCOMPARE(bad.code, 2);
        QVERIFY2(bad.err.contains(measured + ": not check-plan's JSON"), qPrintable(bad.err));
        QVERIFY(m.open(QIODevice::WriteOnly | QIODevice::Truncate));
        m.write(R"({"format": "gpuplan-measurements", "format_version": 1, "measurements": [
            {"job": "tensorflow", "quantity": "memory_gib", "value": "x"}]})");
        m.close();
        const test::Run badM = test::cli({"report", plan, "--measurements", measured, "-o", other}, mTmp.path());
        QCOMPARE(badM.code, 2);
        QVERIFY2(badM.err.contains("measurements[0].value"), qPrintable(badM.err));
        QVERIFY(!QFile::exists(other));
    }

    // A cluster of many GPUs: the GPUs' table goes on over pages, every row whole, flagged rows
    // first, and what there is no room for counted.
    void longGpuListsGoOnOverPages()
    {
        const QString plan = telemetryFixture("plan.json");
        const test::Run check = test::cli({"check-plan", plan, "--prometheus", mServer.url(), "--from",
                                           "2025-08-19T10:00:00Z", "--to", "2025-08-19T12:00:00Z", "--json"},
                                          mTmp.path());
        QCOMPARE(check.code, 3);
        QJsonObject doc = QJsonDocument::fromJson(check.out.toUtf8()).object();
        QJsonObject l40s;
        for (const auto& g : doc.value("gpus").toArray())
            if (g.toObject().value("host").toString() == "l40s.example.com" && g.toObject().value("gpu") == "0")
                l40s = g.toObject();
        const int rowsEach = static_cast<int>(l40s.value("rows").toArray().size()); // each has a figure
        QCOMPARE(rowsEach, 4);
        const auto many = [&](int n) {
            QJsonArray gpus;
            for (int i = 0; i < n; ++i) {
                QJsonObject g = l40s;
                g["host"] = QString("gpu-host-%1").arg(i, 3, 10, QChar('0'));
                gpus.append(g);
            }
            QJsonObject d = doc;
            d["gpus"] = gpus;
            const QString file = mTmp.filePath(QString("many-%1.json").arg(n));
            QFile f(file);
            if (!f.open(QIODevice::WriteOnly))
                qFatal("cannot write %s", qPrintable(file));
            f.write(QJsonDocument(d).toJson());
            return file;
        };
        const auto report = [&](const QString& json, const QString& pdf) {
            const test::Run r =
                test::cli({"report", plan, "--check-plan", json, "--trials", "200", "-o", pdf}, mTmp.path());
            QVERIFY2(r.code == 0, qPrintable(r.err));
        };
        // 12 GPUs: every row on the pages, none counted away.
        const QString some = mTmp.filePath("some.pdf");
        report(many(12), some);
        const int somePages = test::pdfPages(some);
        QVERIFY2(somePages >= ui::kReportPages + 3, qPrintable(QString::number(somePages)));
        QString gpuText;
        for (int page = ui::kReportPages + 2; page <= somePages; ++page)
            gpuText += test::pdfPageText(some, page);
        // The GPUs' pages, then what was not matched: under the last rows, or on a page of its own.
        const int pagesOfRows =
            somePages - ui::kReportPages - 1 - gpuText.count("Plan vs measured: telemetry, not matched");
        QCOMPARE(gpuText.count("Plan vs measured: telemetry, GPUs (continued)"), pagesOfRows - 1);
        QVERIFY(gpuText.contains("Not matched"));
        QCOMPARE(gpuText.count(QRegularExpression("gpu-host-\\d{3}/0")), 12 * rowsEach);
        QVERIFY(!gpuText.contains("more row(s)"));
        for (int i = 0; i < 12; ++i)
            QVERIFY2(gpuText.contains(QString("gpu-host-%1/0").arg(i, 3, 10, QChar('0'))),
                     qPrintable(QString::number(i)));
        QStringList problems = test::renderingProblems(some, true);
        QVERIFY2(problems.isEmpty(), qPrintable(problems.join('\n')));
        if (const QString dir = qEnvironmentVariable("GPUPLAN_SCREENSHOTS"); !dir.isEmpty())
            QFile::copy(some, dir + "/report-many-gpus.pdf");

        // 300 GPUs: four pages of rows, the flagged first, then the count of the rest and of their flags.
        const QString lots = mTmp.filePath("lots.pdf");
        report(many(300), lots);
        const int lotsPages = test::pdfPages(lots);
        QVERIFY2(lotsPages >= ui::kReportPages + 5 && lotsPages <= ui::kReportPages + 6,
                 qPrintable(QString::number(lotsPages)));
        gpuText.clear();
        for (int page = ui::kReportPages + 2; page <= lotsPages; ++page)
            gpuText += test::pdfPageText(lots, page);
        const int shown = static_cast<int>(gpuText.count(QRegularExpression("gpu-host-\\d{3}/0")));
        const auto more =
            QRegularExpression("(\\d+) more row\\(s\\) are not shown, (\\d+) of them").match(gpuText.simplified());
        QVERIFY2(more.hasMatch(), qPrintable(gpuText.right(600)));
        QCOMPARE(shown + more.captured(1).toInt(), 300 * rowsEach);
        // Flagged first: each GPU's link load (0 against 0.01 GB/s) is within the threshold and not shown.
        QCOMPARE(more.captured(2).toInt(), 300 * (rowsEach - 1) - shown);
        QVERIFY(!gpuText.contains("link load"));
        QVERIFY(gpuText.contains("gpuplan-cli check-plan --json lists every row"));
        problems = test::renderingProblems(lots, true);
        QVERIFY2(problems.isEmpty(), qPrintable(problems.join('\n')));
    }

    void cleanupTestCase() { mServer.stop(); }
};

QTEST_MAIN(TestPlanVsMeasuredReport)
#include "tst_planvsmeasuredreport.moc"
