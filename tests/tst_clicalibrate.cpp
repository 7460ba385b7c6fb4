// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
// gpuplan-cli calibrate, profiles and evaluate --calibration as a user runs them (issue 38,
// deliverable 3; docs/cli.md#calibrate): a cluster 10 % slower than the plan is fitted, the profile
// written, stored as versions, listed, diffed and exported, and evaluate with it marks each job's
// calibrated parameters with the profile's name; bad input exits 2 naming the source and leaves the
// scenario, the measurements, --out and the library as they were.
#include "clirunner.h"

#include <QDir>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

using namespace gp;

class TestCliCalibrate : public QObject
{
    Q_OBJECT

    QTemporaryDir mTmp;
    QString mScenario;

    QString path(const QString& name) const { return mTmp.filePath(name); }

    static bool write(const QString& file, const QByteArray& bytes)
    {
        QFile f(file);
        return f.open(QIODevice::WriteOnly) && f.write(bytes) == bytes.size();
    }

    /// Measurements of every placed job: its step time 10 % longer, its output tokens/s 10 % lower
    /// than the plan says; `extra` appended as given.
    QByteArray measurements(const QJsonArray& extra = {})
    {
        const test::Run ev = test::cli({"evaluate", mScenario, "--json"}, mTmp.path());
        if (ev.code != 0)
            qFatal("evaluate: %s", qPrintable(ev.err));
        QJsonArray items;
        for (const auto& v : QJsonDocument::fromJson(ev.out.toUtf8()).object().value("jobs").toArray()) {
            const QJsonObject j = v.toObject();
            if (!j.value("placed").toBool())
                continue;
            if (j.value("serving").isObject())
                items.append(
                    QJsonObject{{"job", j.value("id")},
                                {"quantity", "output_tokens_per_s"},
                                {"value", 0.9 * j.value("serving").toObject().value("output_tokens_per_s").toDouble()},
                                {"source", "bench-" + j.value("id").toString() + ".json"}});
            else
                items.append(QJsonObject{{"job", j.value("id")},
                                         {"quantity", "step_time_s"},
                                         {"value", 1.1 * j.value("step_time_s").toDouble()},
                                         {"source", "train-" + j.value("id").toString() + ".log:120"}});
        }
        for (const auto& e : extra)
            items.append(e);
        return QJsonDocument(
                   QJsonObject{{"format", "gpuplan-measurements"}, {"format_version", 1}, {"measurements", items}})
            .toJson();
    }

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(mTmp.isValid());
        mScenario = path("plan.json");
        QVERIFY(QFile::copy(test::sampleFiles().front(), mScenario));
    }

    void fitsStoresAndApplies()
    {
        const QString meas = path("meas.json");
        QVERIFY(write(meas, measurements()));
        const QByteArray scenarioHash = test::hashOf(mScenario), measHash = test::hashOf(meas);
        const QString db = path("lib.sqlite");
        const QString profileFile = path("profile.json");
        const QStringList args = {
            "calibrate", mScenario,  meas,       "--params", "gemm_efficiency_scale,memory_bound,stack",
            "--name",    "dgx/test", "--author", "ana",      "--db",
            db};
        test::Run r = test::cli(QStringList(args) << "--out" << profileFile << "--save-to-library", mTmp.path());
        QVERIFY2(r.code == 0, qPrintable(r.err));
        QVERIFY2(r.out.contains("Parameters fitted:") && r.out.contains("gpu.h100-80gb.gemm_efficiency_scale") &&
                     r.out.contains("Mean |error|") && r.out.contains("Held out (") &&
                     r.out.contains("Stored in the library as dgx/test version 1"),
                 qPrintable(r.out));
        QCOMPARE(test::hashOf(mScenario), scenarioHash);
        QCOMPARE(test::hashOf(meas), measHash);
        const QJsonObject profile = QJsonDocument::fromJson(test::readAll(profileFile)).object();
        QCOMPARE(profile.value("format").toString(), QString("gpuplan-calibration-profile"));
        QCOMPARE(profile.value("name").toString(), QString("dgx/test"));
        QCOMPARE(profile.value("author").toString(), QString("ana"));
        QCOMPARE(profile.value("version").toInt(), 1);
        QCOMPARE(profile.value("measurements_digest").toString().size(), 64);
        QVERIFY(!profile.value("parameters").toArray().isEmpty());

        // --json: the report, the fit's errors falling.
        r = test::cli(QStringList(args) << "--json"
                                        << "--save-to-library",
                      mTmp.path());
        QVERIFY2(r.code == 0, qPrintable(r.err));
        const QJsonObject report = QJsonDocument::fromJson(r.out.toUtf8()).object();
        QVERIFY(report.value("ok").toBool());
        QVERIFY(report.value("mean_abs_error_after").toDouble() < report.value("mean_abs_error_before").toDouble());
        QVERIFY(report.value("mean_abs_error_before").toDouble() > 0.05);
        QVERIFY(!report.value("held_out_error_after").isNull());

        // The library: two versions, listed, diffed, exported.
        r = test::cli({"profiles", "list", "--db", db}, mTmp.path());
        QVERIFY2(r.code == 0 && r.out.contains("dgx/test@1") && r.out.contains("dgx/test@2"),
                 qPrintable(r.out + r.err));
        r = test::cli({"profiles", "diff", "dgx/test@1", profileFile, "--db", db}, mTmp.path());
        QVERIFY2(r.code == 0 && r.out.contains("no parameter differs"), qPrintable(r.out + r.err));
        const QString exported = path("exported.json");
        r = test::cli({"profiles", "export", "dgx/test@2", "-o", exported, "--db", db}, mTmp.path());
        QVERIFY2(r.code == 0, qPrintable(r.err));
        QCOMPARE(QJsonDocument::fromJson(test::readAll(exported)).object().value("version").toInt(), 2);

        // evaluate with the profile: another step time, each job marked with the profile's name.
        const test::Run plain = test::cli({"evaluate", mScenario, "--json"}, mTmp.path());
        r = test::cli({"evaluate", mScenario, "--json", "--calibration", "dgx/test", "--db", db}, mTmp.path());
        QVERIFY2(r.code == 0, qPrintable(r.err));
        const QJsonObject ev = QJsonDocument::fromJson(r.out.toUtf8()).object();
        QCOMPARE(ev.value("calibration").toObject().value("profile").toString(), QString("dgx/test"));
        QCOMPARE(ev.value("calibration").toObject().value("version").toInt(), 2);
        auto jobOf = [](const QJsonObject& evaluation, const QString& id) {
            for (const auto& v : evaluation.value("jobs").toArray())
                if (v.toObject().value("id").toString() == id)
                    return v.toObject();
            return QJsonObject();
        };
        const QJsonObject job = jobOf(ev, "frontier-70b");
        const QJsonObject marked = job.value("calibrated_parameters").toObject();
        QCOMPARE(marked.value("profile").toString(), QString("dgx/test"));
        QVERIFY(marked.value("keys").toArray().contains(QString("gpu.h100-80gb.gemm_efficiency_scale")));
        const double before =
            jobOf(QJsonDocument::fromJson(plain.out.toUtf8()).object(), "frontier-70b").value("step_time_s").toDouble();
        QVERIFY(before > 0.0);
        QVERIFY(job.value("step_time_s").toDouble() > before * 1.03);
        r = test::cli({"evaluate", mScenario, "--calibration", profileFile}, mTmp.path());
        QVERIFY2(r.code == 0 && r.out.contains("Calibrated with profile dgx/test"), qPrintable(r.out + r.err));

        // The report takes the profile too; one it cannot read writes no PDF.
        const QString pdf = path("report.pdf");
        r = test::cli({"report", mScenario, "-o", pdf, "--trials", "20", "--calibration", profileFile}, mTmp.path());
        QVERIFY2(r.code == 0 && QFile::exists(pdf), qPrintable(r.err));
        const QString never = path("never.pdf");
        r = test::cli({"report", mScenario, "-o", never, "--calibration", "dgx/test@3", "--db", db}, mTmp.path());
        QCOMPARE(r.code, 2);
        QVERIFY2(r.err.contains("no version 3"), qPrintable(r.err));
        QVERIFY(!QFile::exists(never));
    }

    void theScenarioCarriesItsProfile()
    {
        // profiles use: the scenario file gains the profile (format 4) and every evaluation of it
        // applies it and says so; drop takes it out; a profile that cannot be read changes nothing.
        const QString meas = path("meas-use.json");
        QVERIFY(write(meas, measurements()));
        const QString profileFile = path("profile-use.json");
        test::Run r = test::cli({"calibrate", mScenario, meas, "--params", "gemm_efficiency_scale", "--name", "dgx/own",
                                 "--out", profileFile},
                                mTmp.path());
        QVERIFY2(r.code == 0, qPrintable(r.err));
        const QString own = path("own.json");
        r = test::cli({"profiles", "use", profileFile, mScenario, "-o", own}, mTmp.path());
        QVERIFY2(r.code == 0 && r.out.contains("evaluated with profile dgx/own v1"), qPrintable(r.out + r.err));
        const QJsonObject written = QJsonDocument::fromJson(test::readAll(own)).object();
        QCOMPARE(written.value("format_version").toInt(), 6);
        QCOMPARE(written.value("calibration").toObject().value("name").toString(), QString("dgx/own"));

        const test::Run viaOption =
            test::cli({"evaluate", mScenario, "--json", "--calibration", profileFile}, mTmp.path());
        r = test::cli({"evaluate", own, "--json"}, mTmp.path());
        QVERIFY2(r.code == 0, qPrintable(r.err));
        QJsonObject a = QJsonDocument::fromJson(r.out.toUtf8()).object();
        QJsonObject b = QJsonDocument::fromJson(viaOption.out.toUtf8()).object();
        QCOMPARE(a.value("calibration").toObject().value("profile").toString(), QString("dgx/own"));
        QCOMPARE(a.value("kpis"), b.value("kpis"));
        QCOMPARE(a.value("jobs").toArray().size(), b.value("jobs").toArray().size());
        for (qsizetype i = 0; i < a.value("jobs").toArray().size(); ++i)
            QCOMPARE(a.value("jobs").toArray().at(i).toObject().value("step_time_s"),
                     b.value("jobs").toArray().at(i).toObject().value("step_time_s"));
        r = test::cli({"evaluate", own}, mTmp.path());
        QVERIFY2(r.out.contains("Calibrated with profile dgx/own version 1 (the scenario's own)"), qPrintable(r.out));

        const QByteArray ownHash = test::hashOf(own);
        r = test::cli({"profiles", "use", path("no-such-profile.json"), own}, mTmp.path());
        QCOMPARE(r.code, 2);
        QCOMPARE(test::hashOf(own), ownHash);
        r = test::cli({"profiles", "drop", own}, mTmp.path());
        QVERIFY2(r.code == 0 && r.out.contains("default parameters"), qPrintable(r.out + r.err));
        QVERIFY(QJsonDocument::fromJson(test::readAll(own)).object().value("calibration").isUndefined());
        r = test::cli({"evaluate", own}, mTmp.path());
        QVERIFY2(!r.out.contains("Calibrated with"), qPrintable(r.out));
    }

    void badInputChangesNothing_data()
    {
        QTest::addColumn<QJsonArray>("extra");
        QTest::addColumn<QString>("message");
        QTest::newRow("unknown job") << QJsonArray{QJsonObject{{"job", "ghost"},
                                                               {"quantity", "step_time_s"},
                                                               {"value", 1.0},
                                                               {"source", "ghost.log:3"}}}
                                     << "ghost.log:3: job 'ghost' is not in scenario";
        QTest::newRow("contradiction") << QJsonArray{QJsonObject{{"job", "frontier-70b"},
                                                                 {"quantity", "step_time_s"},
                                                                 {"value", 1000.0},
                                                                 {"source", "second.log"}}}
                                       << "contradict";
        QTest::newRow("bad value") << QJsonArray{QJsonObject{
                                          {"job", "frontier-70b"}, {"quantity", "step_time_s"}, {"value", -1.0}}}
                                   << "value: must be a finite number not below 0";
    }
    void badInputChangesNothing()
    {
        QFETCH(QJsonArray, extra);
        QFETCH(QString, message);
        const QString meas = path("bad.json");
        QVERIFY(write(meas, measurements(extra)));
        const QString db = path("bad.sqlite");
        const QString out = path("never.json");
        const QByteArray scenarioHash = test::hashOf(mScenario);
        const test::Run r =
            test::cli({"calibrate", mScenario, meas, "--out", out, "--save-to-library", "--db", db}, mTmp.path());
        QCOMPARE(r.code, 2);
        QVERIFY2(r.err.contains(message), qPrintable(r.err));
        QVERIFY2(r.err.contains("bad.json"), qPrintable(r.err));
        QVERIFY(!QFile::exists(out));
        QVERIFY(!QFile::exists(db));
        QCOMPARE(test::hashOf(mScenario), scenarioHash);
    }

    void fitThatDoesNotConvergeExitsThreeAndWritesNothing()
    {
        const QString meas = path("slow.json");
        QVERIFY(write(meas, measurements()));
        const QString out = path("unconverged.json");
        const QString db = path("unconverged.sqlite");
        const test::Run r = test::cli({"calibrate", mScenario, meas, "--params", "gemm_efficiency_scale,stack",
                                       "--max-iterations", "1", "--out", out, "--save-to-library", "--db", db},
                                      mTmp.path());
        QCOMPARE(r.code, 3);
        QVERIFY2(r.err.contains("did not converge in 1 iterations") && r.err.contains("nothing was stored"),
                 qPrintable(r.err));
        QVERIFY(!QFile::exists(out));
        QVERIFY(!QFile::exists(db));
    }

    void nothingConstrainedExitsTwo()
    {
        const QString meas = path("telemetry.json");
        QVERIFY(
            write(meas, QJsonDocument(QJsonObject{{"format", "gpuplan-measurements"},
                                                  {"format_version", 1},
                                                  {"measurements", QJsonArray{QJsonObject{{"job", "frontier-70b"},
                                                                                          {"quantity", "sm_activity"},
                                                                                          {"value", 0.7}}}}})
                            .toJson()));
        const test::Run r = test::cli({"calibrate", mScenario, meas}, mTmp.path());
        QCOMPARE(r.code, 2);
        QVERIFY2(r.err.contains("nothing constrains a parameter") && r.err.contains("telemetry figure"),
                 qPrintable(r.err));
        const test::Run p = test::cli({"calibrate", mScenario, meas, "--params", "bogus"}, mTmp.path());
        QCOMPARE(p.code, 2);
        const test::Run missing = test::cli({"evaluate", mScenario, "--calibration", path("none.json")}, mTmp.path());
        QCOMPARE(missing.code, 2);
        QVERIFY2(missing.err.contains("none.json"), qPrintable(missing.err));
    }
};

QTEST_GUILESS_MAIN(TestCliCalibrate)
#include "tst_clicalibrate.moc"
