// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
// The job inspector's expert-parallel field and the fields beside it (issue 37): expert tensor
// parallel (MoE parallel folding), recomputed modules and layers, MTP modules; driven with the
// keyboard and the mouse on a 1366x768 and a 1920x1080 window.
#include "document/commands.h"
#include "guidriver.h"
#include "testsupport.h"
#include "ui/edit/propertiespanel.h"
#include "ui/mainwindow.h"
#include "windowfixture.h"

#include <QApplication>
#include <QCheckBox>
#include <QComboBox>
#include <QJsonObject>
#include <QPushButton>
#include <QScrollArea>
#include <QScrollBar>
#include <QSpinBox>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>
#include <QUndoStack>

using namespace gp;

using gp::test::clickApply;
using gp::test::typeIntoField;

namespace {
/// Picks a combo box's item by typing its first letters, as a user does with the keyboard.
void pick(QWidget* field, const QString& text)
{
    auto* combo = qobject_cast<QComboBox*>(field);
    QVERIFY(combo);
    combo->setFocus();
    QTest::keyClicks(combo, text);
    QCOMPARE(combo->currentText(), text);
}

/// The scroll area the properties panel is in (the inspector dock's).
QScrollArea* scrollOf(QWidget* w)
{
    for (QWidget* p = w; p; p = p->parentWidget())
        if (auto* s = qobject_cast<QScrollArea*>(p))
            return s;
    return nullptr;
}
} // namespace

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

    void foldingRecomputeAndMtpFields_data()
    {
        QTest::addColumn<QSize>("size");
        QTest::newRow("1366x768") << QSize(1366, 768);
        QTest::newRow("1920x1080") << QSize(1920, 1080);
    }
    /// Sample 01's Llama 3 70B pre-training (tp 8, pp 2, dp 2, selective) made Mixtral 8x7B with
    /// ep 2: each new field takes a good value with Apply (one undoable edit) and shows the
    /// core's message for a bad one, which Apply cannot push.
    void foldingRecomputeAndMtpFields()
    {
        QFETCH(QSize, size);
        auto w = test::openLibraryScenario(mTmp.filePath(QString("fold-%1.sqlite").arg(size.width())),
                                           "DGX H100 pod: three tenants");
        w->resize(size);
        QApplication::setActiveWindow(w.get());
        document::Document* doc = w->currentDocument();
        QVERIFY(doc);
        const QString id = "frontier-70b";
        QVERIFY(doc->push(document::patchFields(doc->scenario(), test::bundledCatalog(),
                                                {{"jobs[frontier-70b].model", QJsonObject{{"preset", "mixtral-8x7b"}}},
                                                 {"jobs[frontier-70b].parallelism.ep", 2}}))
                    .empty());
        auto job = [&] { return doc->scenario().findJob(id.toStdString()); };
        QCOMPARE(job()->parallelism.ep, 2);
        const int undoBase = doc->undoStack()->index();
        ui::PropertiesPanel* props = w->properties();
        props->showJob(doc->scenario(), id);
        QVERIFY(props->isVisible());

        // The new fields fit the inspector's width (it has no horizontal scroll bar) at either size.
        QScrollArea* scroll = scrollOf(props);
        QVERIFY(scroll);
        QTRY_VERIFY(scroll->viewport()->width() > 0);
        for (const QString key : {"parallelism.ep", "parallelism.etp", "parallelism.recompute_modules",
                                  "parallelism.recompute_layers", "parallelism.moe_a2a_overlap", "model.mtp_layers"}) {
            QWidget* f = props->field(key);
            QVERIFY2(f, qPrintable(key));
            QTRY_VERIFY2(f->isVisible(), qPrintable(key)); // the layout shows new rows from the event loop
            // Not squeezed either way: the scroll area scrolls rather than crush the rows.
            QTRY_VERIFY2(
                f->height() >= f->minimumSizeHint().height(),
                qPrintable(QString("%1: height %2 < %3").arg(key).arg(f->height()).arg(f->minimumSizeHint().height())));
            const int right = f->mapTo(scroll->viewport(), QPoint(f->width(), 0)).x();
            QVERIFY2(right <= scroll->viewport()->width() && f->width() >= f->minimumSizeHint().width(),
                     qPrintable(QString("%1: right edge %2 of %3, width %4 < %5")
                                    .arg(key)
                                    .arg(right)
                                    .arg(scroll->viewport()->width())
                                    .arg(f->width())
                                    .arg(f->minimumSizeHint().width())));
        }
        scroll->ensureWidgetVisible(props->field("parallelism.etp"));
        if (const QString dir = qEnvironmentVariable("GPUPLAN_SCREENSHOTS"); !dir.isEmpty()) {
            scroll->grab().save(QString("%1/inspector-job-%2x%3.png").arg(dir).arg(size.width()).arg(size.height()));
            w->grab().save(QString("%1/window-job-%2x%3.png").arg(dir).arg(size.width()).arg(size.height()));
        }

        // Expert tensor parallel: "as tensor parallel" (absent) at first; 3 x ep 2 does not divide
        // tp x cp x dp = 16, 1 does.
        auto* etp = qobject_cast<QSpinBox*>(props->field("parallelism.etp"));
        QVERIFY(etp && etp->isEnabled());
        QCOMPARE(etp->value(), 0);
        QCOMPARE(etp->text(), QString("as tensor parallel"));
        QVERIFY(etp->toolTip().contains("expert_tensor_parallel_size"));
        typeIntoField(etp, "3");
        QVERIFY(!props->canApply());
        QVERIFY2(props->message().contains("parallelism.etp: 3 x ep (2) does not divide tp x cp x dp (16)"),
                 qPrintable(props->message()));
        typeIntoField(etp, "1");
        QVERIFY2(props->canApply(), qPrintable(props->message()));
        clickApply(props);
        QCOMPARE(job()->parallelism.etp, 1);
        QCOMPARE(qobject_cast<QSpinBox*>(props->field("parallelism.etp"))->value(), 1);
        doc->undoStack()->undo();
        QCOMPARE(job()->parallelism.etp, 0);
        QCOMPARE(doc->undoStack()->index(), undoBase);

        // Recompute modules: selective with none listed is core_attn, ticked; tick layernorm.
        auto box = [&](const QString& name) {
            return props->findChild<QCheckBox*>("parallelism.recompute_modules." + name);
        };
        QVERIFY(box("core_attn") && box("layernorm") && box("moe_act"));
        QVERIFY(box("core_attn")->isChecked());
        QVERIFY(!box("layernorm")->isChecked() && !box("moe_act")->isChecked());
        QVERIFY(props->field("parallelism.recompute_modules")->toolTip().contains("recompute_modules"));
        scroll->ensureWidgetVisible(box("layernorm"));
        QTest::mouseClick(box("layernorm"), Qt::LeftButton);
        QVERIFY(box("layernorm")->isChecked());
        QVERIFY2(props->canApply(), qPrintable(props->message()));
        clickApply(props);
        QCOMPARE(job()->parallelism.recomputeModules, (std::vector<std::string>{"core_attn", "layernorm"}));
        QVERIFY(box("core_attn")->isChecked() && box("layernorm")->isChecked() && !box("moe_act")->isChecked());
        doc->undoStack()->undo();
        QVERIFY(job()->parallelism.recomputeModules.empty());
        // Modules with recompute full: the core's error, nothing to apply.
        QTest::mouseClick(box("moe_act"), Qt::LeftButton);
        pick(props->field("parallelism.recompute"), "full");
        QVERIFY(!props->canApply());
        QVERIFY2(props->message().contains("parallelism.recompute_modules: lists modules for selective "
                                           "recomputation; recompute is full, not selective"),
                 qPrintable(props->message()));
        props->showJob(doc->scenario(), id); // start again from the document

        // Recompute layers: "every block" at first; 4 with selective is refused, with full kept.
        auto* layers = qobject_cast<QSpinBox*>(props->field("parallelism.recompute_layers"));
        QVERIFY(layers);
        QCOMPARE(layers->text(), QString("every block"));
        QVERIFY(layers->toolTip().contains("recompute_num_layers"));
        typeIntoField(layers, "4");
        QVERIFY(!props->canApply());
        QVERIFY2(props->message().contains(
                     "parallelism.recompute_layers: 4 recomputes whole blocks; recompute is selective, not full"),
                 qPrintable(props->message()));
        pick(props->field("parallelism.recompute"), "full");
        QVERIFY2(props->canApply(), qPrintable(props->message()));
        clickApply(props);
        QCOMPARE(job()->parallelism.recompute, Recompute::Full);
        QCOMPARE(job()->parallelism.recomputeLayers, 4);
        QCOMPARE(doc->undoStack()->index(), undoBase + 1); // both fields, one undo step
        doc->undoStack()->undo();
        QCOMPARE(job()->parallelism.recompute, Recompute::Selective);
        QCOMPARE(job()->parallelism.recomputeLayers, 0);

        // Overlap EP all-to-all: refused with the core's reason on pp 2 without virtual stages,
        // applied with them (one undo step for both).
        auto* overlap = qobject_cast<QCheckBox*>(props->field("parallelism.moe_a2a_overlap"));
        QVERIFY(overlap);
        QVERIFY(overlap->toolTip().contains("overlap_moe_expert_parallel_comm"));
        QTest::mouseClick(overlap, Qt::LeftButton, {}, QPoint(8, overlap->height() / 2));
        QVERIFY(overlap->isChecked());
        QTRY_VERIFY(!props->canApply());
        QVERIFY2(props->message().contains("needs virtual_stages > 1"), qPrintable(props->message()));
        typeIntoField(props->field("parallelism.virtual_stages"), "2");
        QTRY_VERIFY2(props->canApply(), qPrintable(props->message()));
        const int beforeOverlap = doc->undoStack()->index();
        clickApply(props);
        QVERIFY(job()->parallelism.moeA2aOverlap);
        QCOMPARE(job()->parallelism.virtualStages, 2);
        QCOMPARE(doc->undoStack()->index(), beforeOverlap + 1);
        doc->undoStack()->undo();
        QVERIFY(!job()->parallelism.moeA2aOverlap);

        // MTP modules: the preset's, not editable here; a custom model's, edited.
        auto* mtp = qobject_cast<QSpinBox*>(props->field("model.mtp_layers"));
        QVERIFY(mtp);
        QVERIFY(!mtp->isEnabled());
        QVERIFY(mtp->toolTip().contains("Set by the preset mixtral-8x7b"));
        const QJsonObject custom{{"layers", 32},
                                 {"hidden_size", 4096},
                                 {"attention_heads", 32},
                                 {"kv_heads", 8},
                                 {"ffn_hidden_size", 14336},
                                 {"vocab_size", 32000},
                                 {"sequence_length", 4096},
                                 {"experts", 8},
                                 {"active_experts", 2}};
        QVERIFY(doc->push(document::patchFields(doc->scenario(), test::bundledCatalog(),
                                                {{"jobs[frontier-70b].model", custom}}))
                    .empty());
        QVERIFY(job()->model.preset.empty());
        mtp = qobject_cast<QSpinBox*>(props->field("model.mtp_layers"));
        QVERIFY(mtp && mtp->isEnabled());
        QCOMPARE(mtp->text(), QString("none"));
        typeIntoField(mtp, "1");
        QVERIFY2(props->canApply(), qPrintable(props->message()));
        clickApply(props);
        QCOMPARE(job()->model.custom.mtpLayers, 1);
        doc->undoStack()->undo();
        QCOMPARE(job()->model.custom.mtpLayers, 0);
    }
};

QTEST_MAIN(TestMoeInspector)
#include "tst_moeinspector.moc"
