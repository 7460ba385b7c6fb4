// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
// gpuplan-cli on racks (issue 37): the NVL72 sample validates and evaluates, `optimize plan`
// searches it and every plan it writes validates, and `optimize job` on a GB200 NVL72 tray
// searches TP across the rack, not only the tray's four GPUs.
#include "clirunner.h"
#include "testsupport.h"

#include <QDir>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

using namespace gp::test;

class TestRackCli : public QObject
{
    Q_OBJECT

    QTemporaryDir mHome;
    const QString mSample = QDir(gp::test::dataDir()).absoluteFilePath("samples/06-gb200-nvl72-rack.json");

private Q_SLOTS:
    void theSampleValidatesAndEvaluates()
    {
        Run r = cli({"validate", mSample}, mHome.path());
        QCOMPARE(r.code, 0);
        QVERIFY2(r.out.contains(": ok"), qPrintable(r.out + r.err));
        r = cli({"evaluate", mSample, "--json"}, mHome.path());
        QVERIFY2(r.code == 0, qPrintable(r.err));
        QVERIFY(!QJsonDocument::fromJson(r.out.toUtf8()).isNull());
    }

    void optimizePlanSearchesTheRacks()
    {
        const QString outDir = mHome.filePath("plans");
        const Run r = cli({"optimize", "plan", mSample, "--time-limit", "20", "-o", outDir, "--json"}, mHome.path());
        QVERIFY2(r.code == 0, qPrintable(r.err));
        const QJsonArray plans = QJsonDocument::fromJson(r.out.toUtf8()).object().value("plans").toArray();
        QVERIFY(!plans.isEmpty());
        for (const auto& v : plans) {
            const QString file = QDir(outDir).filePath(v.toObject().value("file").toString());
            const Run check = cli({"validate", file}, mHome.path());
            QVERIFY2(check.code == 0, qPrintable(file + ": " + check.out + check.err));
        }
    }

    void optimizeJobOnATraySearchesTheRack()
    {
        const Run r = cli({"optimize", "job", "--model", "gpt3-175b", "--node", "gb200-nvl72-tray", "--gpus", "64",
                           "--global-batch", "64", "--top", "1000", "--json"},
                          mHome.path());
        QVERIFY2(r.code == 0, qPrintable(r.err));
        int widest = 0;
        for (const auto& c : QJsonDocument::fromJson(r.out.toUtf8()).object().value("top").toArray())
            widest = std::max(widest, c.toObject().value("tp").toInt());
        QVERIFY2(widest > 4, qPrintable(r.out.left(2000))); // every feasible one is listed: TP 8 to 32 fit
    }
};

QTEST_GUILESS_MAIN(TestRackCli)
#include "tst_rackcli.moc"
