// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
// The job inspector's expert-parallel field (issue 37), driven with the keyboard and the mouse.
#include "testsupport.h"
#include "ui/edit/propertiespanel.h"
#include "ui/mainwindow.h"
#include "windowfixture.h"

#include <QPushButton>
#include <QSpinBox>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>
#include <QUndoStack>

using namespace gp;

class TestMoeInspector : public QObject
{
    Q_OBJECT

    QTemporaryDir mTmp;

private Q_SLOTS:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

    /// Sample 02 serves Mixtral 8x7B on two replicas: its EP field takes 2 (it divides dp 2 and
    /// the 8 experts) and refuses 3 with the core's message; a dense Llama job's field is off.
    void expertParallelFieldOfAMoeJob()
    {
        auto w = test::openLibraryScenario(mTmp.filePath("lib.sqlite"), "Mixed sharing lab");
        document::Document* doc = w->currentDocument();
        QVERIFY(doc);
        ui::PropertiesPanel* props = w->properties();

        props->showJob(doc->scenario(), "mig-chat"); // Llama 3 8B: dense
        auto* dense = qobject_cast<QSpinBox*>(props->field("parallelism.ep"));
        QVERIFY(dense);
        QVERIFY(!dense->isEnabled());

        props->showJob(doc->scenario(), "mixtral");
        auto* ep = qobject_cast<QSpinBox*>(props->field("parallelism.ep"));
        QVERIFY(ep);
        QVERIFY(ep->isEnabled());
        QCOMPARE(ep->value(), 1);
        ep->setFocus();
        ep->selectAll();
        QTest::keyClicks(ep, "3");
        QVERIFY(!props->canApply());
        QVERIFY2(props->message().contains("parallelism.ep: 3 does not divide the model's 8 experts"),
                 qPrintable(props->message()));
        ep->selectAll();
        QTest::keyClicks(ep, "4");
        QVERIFY(!props->canApply());
        QVERIFY2(props->message().contains("parallelism.ep: 4 does not divide dp (2)"), qPrintable(props->message()));
        ep->selectAll();
        QTest::keyClicks(ep, "2");
        QVERIFY2(props->canApply(), qPrintable(props->message()));
        auto* apply = props->findChild<QPushButton*>("applyProperties");
        QVERIFY(apply);
        QTest::mouseClick(apply, Qt::LeftButton);
        const Job* job = doc->scenario().findJob("mixtral");
        QVERIFY(job);
        QCOMPARE(job->parallelism.ep, 2);
        doc->undoStack()->undo();
        QCOMPARE(doc->scenario().findJob("mixtral")->parallelism.ep, 1);
    }
};

QTEST_MAIN(TestMoeInspector)
#include "tst_moeinspector.moc"
