// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
// The gpuplan-cli commands that check and rewrite scenario files, as a script runs them:
// validate, format, and edit (the workbench's rules by id, in order, all or nothing;
// docs/cli.md#edit). Bad input changes nothing.
#include "clirunner.h"
#include "testsupport.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

using namespace gp::test;

class TestCliFiles : public QObject
{
    Q_OBJECT

    QTemporaryDir mHome;

private Q_SLOTS:
    void validateSamplesIsClean()
    {
        const Run r = cli(QStringList{"validate"} + gp::test::sampleFiles(), mHome.path());
        QVERIFY2(r.code == 0, qPrintable(r.out + r.err));
        QVERIFY(!r.out.contains("warning"));
        QCOMPARE(r.out.count(": ok\n"), gp::test::sampleFiles().size());
    }

    void validateBrokenFileReportsAndChangesNothing()
    {
        QTemporaryDir tmp;
        const QString file = tmp.filePath("broken.json");
        QVERIFY(writeEditedSample(file, "\"gpu_count\": 8", "\"gpu_count\": -8"));
        const QByteArray before = hashOf(file);
        const Run r = cli({"validate", file, gp::test::sampleFiles().last()}, mHome.path());
        QCOMPARE(r.code, 2);
        QVERIFY2(r.out.contains(file + ": topology.nodes[0].gpu_count: -8 must be between 1 and 64"),
                 qPrintable(r.out));
        QVERIFY(r.out.contains(gp::test::sampleFiles().last() + ": ok"));
        QCOMPARE(hashOf(file), before);
        // format refuses to rewrite it too
        QCOMPARE(cli({"format", "--in-place", file}, mHome.path()).code, 2);
        QCOMPARE(hashOf(file), before);
    }

    // edit applies the workbench's rules in order and writes only when all of them succeed.
    void editAppliesRulesInOrderAndWritesOnlyWhenAllSucceed()
    {
        QTemporaryDir tmp;
        const QString in = gp::test::sampleFiles().front();
        const QString out = tmp.filePath("edited.json");
        const Run r = cli({"edit", in, "-o", out, "--json", "--set",
                           "nodes[node-003].sharing={\"mode\":\"mps\",\"mps\":{\"active_thread_pct\":50}}", "--set",
                           "jobs[chat-70b].parallelism.tp=4", "--link", "node-001,leaf-01", "--pin",
                           "chat-70b=node-003", "--rename", "Edited"},
                          mHome.path());
        QVERIFY2(r.code == 0, qPrintable(r.out + r.err));
        const QStringList lines = r.out.split('\n', Qt::SkipEmptyParts);
        QCOMPARE(lines.size(), 5);
        const QJsonObject first = QJsonDocument::fromJson(lines[0].toUtf8()).object();
        QCOMPARE(first.value("edit").toString(), QString("Set nodes[node-003].sharing"));
        const QJsonObject change = first.value("changes").toArray().at(0).toObject();
        QCOMPARE(change.value("change").toString(), QString("updated"));
        QCOMPARE(change.value("items").toString(), QString("nodes"));
        QCOMPARE(change.value("id").toString(), QString("node-003"));
        QCOMPARE(change.value("fields").toArray().at(0).toString(), QString("sharing"));
        const QJsonObject third = QJsonDocument::fromJson(lines[2].toUtf8()).object();
        QCOMPARE(third.value("changes").toArray().at(0).toObject().value("id").toString(), QString("node-001-leaf-01"));
        // The result is a valid scenario holding every edit.
        const Run v = cli({"validate", out}, mHome.path());
        QVERIFY2(v.code == 0, qPrintable(v.out));
        const QJsonObject doc = QJsonDocument::fromJson(readAll(out)).object();
        QCOMPARE(doc.value("name").toString(), QString("Edited"));
        const QJsonArray nodes = doc.value("topology").toObject().value("nodes").toArray();
        QCOMPARE(nodes.at(2).toObject().value("sharing").toObject().value("mode").toString(), QString("mps"));
        // A refused operation (here the last one) leaves the output unwritten and says why.
        const QString out2 = tmp.filePath("never.json");
        const Run bad = cli({"edit", in, "-o", out2, "--set", "jobs[chat-70b].parallelism.tp=4", "--set",
                             "nodes[node-003].sharing.mode=shared"},
                            mHome.path());
        QCOMPARE(bad.code, 2);
        QVERIFY2(bad.err.contains(in + ": nodes[node-003].sharing.mode:"), qPrintable(bad.err));
        QVERIFY(bad.err.contains("refused; nothing was written"));
        QVERIFY(!QFile::exists(out2));
        // In place: the input is rewritten only on success.
        const QString copy = tmp.filePath("copy.json");
        QVERIFY(QFile::copy(in, copy));
        const QByteArray before = hashOf(copy);
        QCOMPARE(cli({"edit", copy, "--in-place", "--pin", "nobody=node-001"}, mHome.path()).code, 2);
        QCOMPARE(hashOf(copy), before);
        QCOMPARE(cli({"edit", copy, "--in-place", "--remove", "node-008"}, mHome.path()).code, 0);
        QVERIFY(hashOf(copy) != before);
        // Usage: one of -o and --in-place, at least one operation.
        QCOMPARE(cli({"edit", in, "--set", "name=x"}, mHome.path()).code, 2);
        QCOMPARE(cli({"edit", in, "-o", out2}, mHome.path()).code, 2);
        QCOMPARE(cli({"edit", in, "-o", out2, "--pin", "chat-70b"}, mHome.path()).code, 2);
    }
};

QTEST_GUILESS_MAIN(TestCliFiles)
#include "tst_clifiles.moc"
