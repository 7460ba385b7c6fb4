// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
// The job inspector's software-stack choice (issue 37): a combo box of the catalog's profiles of
// the job's kind, picked with the keyboard and applied with the mouse, is one undoable edit of
// the job's software_stack, and the step it runs at follows the profile.
#include "testsupport.h"
#include "ui/edit/propertiespanel.h"
#include "ui/mainwindow.h"
#include "windowfixture.h"

#include <QComboBox>
#include <QPushButton>
#include <QTemporaryDir>
#include <QTest>
#include <QUndoStack>

using namespace gp;

class TestStackInspector : public QObject
{
    Q_OBJECT

    QTemporaryDir mTmp;

private Q_SLOTS:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

    void pickAStackForAJob()
    {
        auto w = test::makeWindow(mTmp.filePath("lib.sqlite"));
        w->files()->openFirst();
        document::Document* doc = w->currentDocument();
        QVERIFY(doc);
        ui::PropertiesPanel* props = w->properties();
        props->showJob(doc->scenario(), "frontier-70b");
        auto* stack = qobject_cast<QComboBox*>(props->field("software_stack"));
        QVERIFY(stack);
        // Unset: the default for a Megatron-style pre-training job, and only training profiles.
        QCOMPARE(stack->currentText(), QString("Default (megatron-lm)"));
        QStringList items;
        for (int i = 0; i < stack->count(); ++i)
            items << stack->itemText(i);
        QVERIFY2(items.join('|').contains("(nemo)") && items.join('|').contains("(fsdp)"), qPrintable(items.join('|')));
        QVERIFY2(!items.join('|').contains("(vllm)"), qPrintable(items.join('|')));

        // NeMo, chosen with the keyboard: the job now runs on it, in one undoable step.
        stack->setFocus();
        while (!stack->currentText().contains("(nemo)") && stack->currentIndex() + 1 < stack->count())
            QTest::keyClick(stack, Qt::Key_Down);
        QVERIFY(stack->currentText().contains("(nemo)"));
        QVERIFY2(props->canApply(), qPrintable(props->message()));
        auto* apply = props->findChild<QPushButton*>("applyProperties");
        QVERIFY(apply);
        const int steps = doc->undoStack()->count();
        QTest::mouseClick(apply, Qt::LeftButton);
        QCOMPARE(doc->scenario().tenants[0].jobs[0].softwareStack, std::string("nemo"));
        QCOMPARE(doc->undoStack()->count(), steps + 1);

        // The form shows the choice back; undo leaves the default again.
        props->showJob(doc->scenario(), "frontier-70b");
        stack = qobject_cast<QComboBox*>(props->field("software_stack"));
        QVERIFY(stack && stack->currentText().contains("(nemo)"));
        doc->undoStack()->undo();
        QVERIFY(doc->scenario().tenants[0].jobs[0].softwareStack.empty());
    }
};

QTEST_MAIN(TestStackInspector)
#include "tst_stackinspector.moc"
