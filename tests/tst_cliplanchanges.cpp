// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
// gpuplan-cli optimize plan and size as issue 36 wants them: the plan search says what it changes
// in the tenants' jobs and may change only what --allow lists (never a precision by default, no
// job at all with --keep-jobs); each change is an object {job, field, from, to, reason} in --json
// and pareto.json; --headroom-pct (default 10) keeps GPUs free in the plans and the sized cluster;
// bad values are refused naming them.
#include "clirunner.h"
#include "testsupport.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

using namespace gp::test;

namespace {

QString samplePath(const QString& name) { return QDir(gp::test::dataDir()).absoluteFilePath("samples/" + name); }

QJsonObject jsonOf(const Run& r) { return QJsonDocument::fromJson(r.out.toUtf8()).object(); }

QJsonObject readJson(const QString& path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? QJsonDocument::fromJson(f.readAll()).object() : QJsonObject();
}

/// Every change of every plan, checked for the contract: exactly the five keys, all strings.
QList<QJsonObject> changesOf(const QJsonObject& summary)
{
    QList<QJsonObject> out;
    for (const auto& plan : summary.value("plans").toArray())
        for (const auto& v : plan.toObject().value("changes").toArray()) {
            const QJsonObject c = v.toObject();
            if (c.keys() != QStringList({"field", "from", "job", "reason", "to"}))
                qFatal("a change with keys %s", qPrintable(c.keys().join(',')));
            for (const QString& k : c.keys())
                if (!c.value(k).isString())
                    qFatal("change key %s is not a string", qPrintable(k));
            out << c;
        }
    return out;
}

} // namespace

class TestCliPlanChanges : public QObject
{
    Q_OBJECT

    QTemporaryDir mHome;

private Q_SLOTS:
    /// The default search on sample 01: changes as objects with the five keys, in the output and
    /// in pareto.json; no precision changed; the best plan changes no job and still saves money.
    void defaultChangesAreObjectsAndNoPrecision()
    {
        const QString out = mHome.filePath("default");
        const Run r = cli({"optimize", "plan", samplePath("01-dgx-h100-three-tenants.json"), "--time-limit", "120",
                           "-o", out, "--json"},
                          mHome.path());
        QCOMPARE(r.code, 0);
        const QJsonObject o = jsonOf(r);
        QCOMPARE(o.value("allow").toString(), QString("parallelism,batch"));
        QCOMPARE(o.value("headroom_pct").toDouble(), 10.0);
        const QList<QJsonObject> changes = changesOf(o);
        QVERIFY(!changes.isEmpty());
        for (const QJsonObject& c : changes) {
            QVERIFY2(c.value("field").toString() != "precision", qPrintable(c.value("job").toString()));
            QVERIFY(!c.value("reason").toString().isEmpty());
            QVERIFY(c.value("from").toString() != c.value("to").toString());
        }
        QCOMPARE(changesOf(readJson(QDir(out).filePath("pareto.json"))).size(), changes.size());
        const QJsonObject best = o.value("plans").toArray().first().toObject();
        QVERIFY(best.value("cost_per_month_usd").toDouble() <
                o.value("current").toObject().value("cost_per_month_usd").toDouble() - 1.0);
        for (const auto& v : best.value("changes").toArray())
            QVERIFY2(v.toObject().value("job").toString().isEmpty(),
                     qPrintable(v.toObject().value("field").toString()));
        // The text says what may change and lists each change.
        const Run text =
            cli({"optimize", "plan", samplePath("01-dgx-h100-three-tenants.json"), "--time-limit", "120", "-o", out},
                mHome.path());
        QCOMPARE(text.code, 0);
        QVERIFY2(text.out.contains("Jobs may change: parallelism,batch"), qPrintable(text.out));
        QVERIFY(text.out.contains(" → "));
    }

    /// --keep-jobs: no plan changes a job (the plan files' jobs are the sample's); --allow with
    /// precision: some plan changes one, and says from and to.
    void keepJobsAndAllowPrecision()
    {
        const QString kept = mHome.filePath("kept");
        Run r = cli({"optimize", "plan", samplePath("01-dgx-h100-three-tenants.json"), "--time-limit", "120",
                     "--keep-jobs", "-o", kept, "--json"},
                    mHome.path());
        QCOMPARE(r.code, 0);
        const QJsonObject o = jsonOf(r);
        QCOMPARE(o.value("allow").toString(), QString("none"));
        for (const QJsonObject& c : changesOf(o))
            QVERIFY2(c.value("job").toString().isEmpty(), qPrintable(c.value("field").toString()));
        const QJsonArray given = readJson(samplePath("01-dgx-h100-three-tenants.json")).value("tenants").toArray();
        for (const auto& plan : o.value("plans").toArray()) {
            const QJsonArray tenants =
                readJson(QDir(kept).filePath(plan.toObject().value("file").toString())).value("tenants").toArray();
            QCOMPARE(tenants.size(), given.size());
            for (qsizetype t = 0; t < given.size(); ++t) {
                const QJsonArray a = given[t].toObject().value("jobs").toArray();
                const QJsonArray b = tenants[t].toObject().value("jobs").toArray();
                QCOMPARE(a.size(), b.size());
                for (qsizetype j = 0; j < a.size(); ++j)
                    for (const char* key : {"parallelism", "batch", "precision", "inference", "pin"})
                        QVERIFY2(a[j].toObject().value(key) == b[j].toObject().value(key),
                                 qPrintable(a[j].toObject().value("id").toString() + " " + key));
            }
        }

        r = cli({"optimize", "plan", samplePath("01-dgx-h100-three-tenants.json"), "--time-limit", "120", "--allow",
                 "parallelism,batch,precision", "-o", mHome.filePath("precise"), "--json"},
                mHome.path());
        QCOMPARE(r.code, 0);
        bool precision = false;
        for (const QJsonObject& c : changesOf(jsonOf(r)))
            if (c.value("field").toString() == "precision") {
                precision = true;
                QCOMPARE(c.value("job").toString(), QString("chat-70b"));
                QCOMPARE(c.value("from").toString(), QString("fp8"));
            }
        QVERIFY(precision);
    }

    /// The headroom: on the 250-node sample the search used to remove 60 nodes and leave no GPU
    /// free; by default every plan keeps at most 90 % of its GPUs allocated, and sizing adds nodes
    /// for it (212 DGX H100s, not 190).
    void headroomKeepsGpusFree()
    {
        const QString big = samplePath("04-cluster-250-node-h100.json");
        Run r = cli({"optimize", "plan", big, "-o", mHome.filePath("big"), "--json"}, mHome.path());
        QCOMPARE(r.code, 0);
        QJsonObject o = jsonOf(r);
        QCOMPARE(o.value("allocation_limit").toDouble(), 0.9);
        for (const auto& plan : o.value("plans").toArray())
            QVERIFY(plan.toObject().value("allocation_ratio").toDouble() <= 0.9 + 1e-9);
        r = cli({"optimize", "plan", big, "--headroom-pct", "0", "-o", mHome.filePath("full"), "--json"}, mHome.path());
        QCOMPARE(r.code, 0);
        // No limit then (how full the best plan gets depends on how far the timed search goes: under
        // a sanitizer it stopped short of 90 %; sizing below shows the difference deterministically).
        QCOMPARE(jsonOf(r).value("allocation_limit").toDouble(), 1.0);

        const QString sized = mHome.filePath("sized.json");
        r = cli({"optimize", "size", big, "--template", "dgx-h100", "-o", sized, "--json"}, mHome.path());
        QCOMPARE(r.code, 0);
        o = jsonOf(r);
        QCOMPARE(o.value("headroom_pct").toDouble(), 10.0);
        QVERIFY(o.value("allocation_ratio").toDouble() <= 0.9 + 1e-9);
        r = cli({"optimize", "size", big, "--template", "dgx-h100", "--headroom-pct", "0", "-o", sized, "--json"},
                mHome.path());
        QCOMPARE(r.code, 0);
        QVERIFY(jsonOf(r).value("nodes").toInt() < o.value("nodes").toInt());
    }

    /// --help states the defaults; bad values are refused with exit 2, naming them.
    void helpAndRefusals()
    {
        const QString sample = samplePath("01-dgx-h100-three-tenants.json");
        const QString out = mHome.filePath("refused");
        Run r = cli({"optimize", "plan", "--help"}, mHome.path());
        QCOMPARE(r.code, 0);
        QVERIFY2(r.out.contains("--keep-jobs") && r.out.contains("--allow") && r.out.contains("default 10"),
                 qPrintable(r.out));
        QVERIFY(r.out.contains("default parallelism,batch"));
        r = cli({"optimize", "size", "--help"}, mHome.path());
        QVERIFY2(r.out.contains("--headroom-pct") && r.out.contains("default 10"), qPrintable(r.out));

        r = cli({"optimize", "plan", sample, "--allow", "parallelism,quality", "-o", out}, mHome.path());
        QCOMPARE(r.code, 2);
        QVERIFY2(r.err.contains("'quality'"), qPrintable(r.err));
        r = cli({"optimize", "plan", sample, "--allow", ",", "-o", out}, mHome.path());
        QCOMPARE(r.code, 2);
        r = cli({"optimize", "plan", sample, "--keep-jobs", "--allow", "batch", "-o", out}, mHome.path());
        QCOMPARE(r.code, 2);
        QVERIFY2(r.err.contains("--keep-jobs") && r.err.contains("--allow"), qPrintable(r.err));
        for (const char* bad : {"95", "-1", "ten"}) {
            r = cli({"optimize", "plan", sample, "--headroom-pct", bad, "-o", out}, mHome.path());
            QCOMPARE(r.code, 2);
            QVERIFY2(r.err.contains("--headroom-pct") && r.err.contains(bad), qPrintable(r.err));
            r = cli({"optimize", "size", sample, "--template", "dgx-h100", "--headroom-pct", bad, "-o",
                     mHome.filePath("s.json")},
                    mHome.path());
            QCOMPARE(r.code, 2);
        }
        QVERIFY(!QFile::exists(QDir(out).filePath("pareto.json")));
    }
};

QTEST_GUILESS_MAIN(TestCliPlanChanges)
#include "tst_cliplanchanges.moc"
