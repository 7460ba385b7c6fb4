// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
// Issue 37 in the workbench: the job inspector's context-parallel and stage-layers fields, typed
// into as a user does; a bad value shows the core's message with its path and changes nothing,
// a good one is one undoable edit.
#include "guidriver.h"
#include "testsupport.h"
#include "ui/edit/propertiespanel.h"
#include "ui/edit/workloadspanel.h"
#include "ui/mainwindow.h"
#include "windowfixture.h"

#include <QLineEdit>
#include <QPushButton>
#include <QSpinBox>
#include <QTemporaryDir>
#include <QTest>
#include <QUndoStack>

using namespace gp;

using gp::test::clickApply;

namespace {

/// Clicks into the field, selects what it holds and types `text` over it.
void typeOver(QWidget* field, const QString& text)
{
    QVERIFY(field);
    QTest::mouseClick(field, Qt::LeftButton, {}, QPoint(4, field->height() / 2));
    QTest::keyClick(field, Qt::Key_A, Qt::ControlModifier);
    if (text.isEmpty())
        QTest::keyClick(field, Qt::Key_Delete);
    else
        QTest::keyClicks(field, text);
}

} // namespace

class TestCpInspector : public QObject
{
    Q_OBJECT

    QTemporaryDir mTmp;

private Q_SLOTS:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

    void contextParallelAndStageLayersInTheInspector()
    {
        auto w = test::makeWindow(mTmp.filePath("lib.sqlite"));
        w->files()->openFirst();
        document::Document* doc = w->currentDocument();
        ui::PropertiesPanel* props = w->properties();
        QTRY_COMPARE(w->workloads()->rowCount(), 5);
        w->workloads()->selectJob("frontier-70b"); // llama3-70b, 80 layers, tp 8, pp 2, dp 2
        props->showJob(doc->scenario(), "frontier-70b");

        // CP 3 does not split 8,192 tokens into 2 x 3 chunks: refused with the reason.
        auto* cp = qobject_cast<QSpinBox*>(props->field("parallelism.cp"));
        QVERIFY(cp);
        QCOMPARE(cp->value(), 1);
        typeOver(cp, "3");
        QVERIFY(!props->canApply());
        QVERIFY2(
            props->message().contains("parallelism.cp: 3 needs the sequence (8192 tokens) divisible by 2 x cp = 6"),
            qPrintable(props->message()));
        clickApply(props);
        QCOMPARE(doc->undoStack()->count(), 0);

        // CP 2: 64 GPUs (tp 8 x pp 2 x dp 2 x cp 2), one undoable edit.
        typeOver(cp, "2");
        QVERIFY2(props->canApply(), qPrintable(props->message()));
        clickApply(props);
        QCOMPARE(doc->scenario().tenants[0].jobs[0].parallelism.cp, 2);
        QCOMPARE(doc->scenario().tenants[0].jobs[0].parallelism.gpus(), 64);
        QCOMPARE(doc->undoStack()->count(), 1);
        doc->undoStack()->undo();
        QCOMPARE(doc->scenario().tenants[0].jobs[0].parallelism.cp, 1);

        // Stage layers: a wrong sum, a wrong length and a word are each refused with the path.
        props->showJob(doc->scenario(), "frontier-70b");
        auto* stages = qobject_cast<QLineEdit*>(props->field("parallelism.stage_layers"));
        QVERIFY(stages);
        QVERIFY(stages->text().isEmpty());
        typeOver(stages, "40,39");
        QVERIFY(!props->canApply());
        QVERIFY2(props->message().contains("parallelism.stage_layers: 2 stages sum to 79 layers, the model has 80"),
                 qPrintable(props->message()));
        typeOver(stages, "80");
        QVERIFY2(props->message().contains("1 stage listed; pp is 2"), qPrintable(props->message()));
        typeOver(stages, "41,x");
        QVERIFY2(props->message().contains("parallelism.stage_layers[1]"), qPrintable(props->message()));
        QVERIFY(!props->canApply());
        clickApply(props);
        QCOMPARE(doc->undoStack()->count(), 1); // the undone CP edit, nothing new
        QVERIFY(doc->scenario().tenants[0].jobs[0].parallelism.stageLayers.empty());

        // 41 + 39: valid, applied, undone and redone.
        typeOver(stages, "41, 39");
        QVERIFY2(props->canApply(), qPrintable(props->message()));
        clickApply(props);
        QCOMPARE(doc->scenario().tenants[0].jobs[0].parallelism.stageLayers, (std::vector<int>{41, 39}));
        doc->undoStack()->undo();
        QVERIFY(doc->scenario().tenants[0].jobs[0].parallelism.stageLayers.empty());
        doc->undoStack()->redo();
        QCOMPARE(doc->scenario().tenants[0].jobs[0].parallelism.stageLayers, (std::vector<int>{41, 39}));

        // Emptying the field removes the list again.
        props->showJob(doc->scenario(), "frontier-70b");
        stages = qobject_cast<QLineEdit*>(props->field("parallelism.stage_layers"));
        QCOMPARE(stages->text(), QString("41,39"));
        typeOver(stages, "");
        QVERIFY2(props->canApply(), qPrintable(props->message()));
        clickApply(props);
        QVERIFY(doc->scenario().tenants[0].jobs[0].parallelism.stageLayers.empty());

        // A serving job has neither field: CP is modelled for training only.
        props->showJob(doc->scenario(), "chat-70b");
        QVERIFY(!props->field("parallelism.cp"));
        QVERIFY(!props->field("parallelism.stage_layers"));
    }
};

QTEST_MAIN(TestCpInspector)
#include "tst_cpinspector.moc"
